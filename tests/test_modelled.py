"""Searching against a modelled Absurdle: the shortest win worked by hand, checked against brute force, on the full lists."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import AgentError, make_agent
from agents.absurdle_bounds import against_absurdle
from agents.indicators import make_indicator, play_with
from agents.modelled import ModelledGame, cut_off
from wordle import Wordle

from .conftest import small_game
from .test_indicators import ANSWER_POOL

#: Five answers that differ only in their first letter, and CHUMP, which holds three of those letters.
ASTE = ["baste", "caste", "haste", "paste", "waste"]
#: Beams that weigh every guess of a small game.
WHOLE = dict(beam=100, pool=12972)


def play_absurdle(game: Wordle, agent, hard: bool) -> list[str]:
    """The guesses `agent` plays against Absurdle."""
    rng = np.random.default_rng(0)
    played = play_with(game, lambda state: agent.decide(state, rng).guess, make_indicator("absurdle", game), rng,
                       hard=hard)
    assert played.solved
    return [game.words.guesses[turn.guess] for turn in played.turns]


def shortest_by_brute_force(game: Wordle, hard: bool, most: int) -> int | None:
    """The slow reference: play every sequence of legal guesses against Absurdle; a win with guess k needs one
    answer left after k - 1 guesses. None when no win within `most` guesses."""
    absurdle = against_absurdle(game)
    states = [game.initial_state(hard=hard)]
    for guesses in range(1, most + 1):
        if any(len(state.candidates) == 1 for state in states):
            return guesses
        states = [absurdle.answered(state, int(guess)) for state in states for guess in game.legal_guesses(state)]
    return None


@pytest.mark.parametrize("name", ["minimax", "alphabeta"])
def test_the_shortest_win_worked_by_hand_in_both_modes(name):
    # A guess tells apart only the ASTE answers whose first letter it holds, each of which gets its own reply;
    # the others share one. No guess here holds four of b, c, h, p, w, so every guess leaves Absurdle two or
    # more answers: no win with guess 2. CHUMP leaves BASTE and WASTE (-----); BASTE then leaves WASTE (-gggg,
    # fewer greens than BASTE's ggggg); WASTE wins with guess 3. In hard mode an answer as opener leaves four
    # ?ASTE answers whose -gggg binds guess 2 to a ?ASTE answer, which splits off only itself: CHUMP must open.
    game = small_game(ASTE, ["chump"])
    for hard in (False, True):
        agent = make_agent(name, game, opponent="absurdle", depth=3)
        first = agent.decide(game.initial_state(hard=hard), np.random.default_rng(0))
        assert first.value == 6 + 1 - 3  # a win with guess 3, seen by the first search
        guesses = play_absurdle(game, agent, hard)
        assert len(guesses) == 3
        if hard:
            assert guesses == ["chump", "baste", "waste"]


@settings(max_examples=15, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=3, max_size=9, unique=True), hard=st.booleans())
def test_the_agent_finds_the_shortest_win_brute_force_finds(words, hard):
    game = small_game(sorted(words))
    shortest = shortest_by_brute_force(game, hard, most=4)
    guesses = play_absurdle(game, make_agent("alphabeta", game, opponent="absurdle", depth=4, **WHOLE), hard)
    assert len(guesses) == shortest if shortest is not None else len(guesses) > 4


def test_the_modelled_game_offers_absurdles_reply_alone():
    game = small_game(ASTE, ["chump"])
    modelled = against_absurdle(game)
    asked = game.result(game.initial_state(), game.words.guess_id("chump"))
    only = modelled.actions(asked)
    assert only.tolist() == [make_indicator("absurdle", game).reply(asked, np.random.default_rng(0)).pattern]
    assert modelled.chance_outcomes(asked) == [(int(only[0]), 1.0)]
    assert modelled.actions(game.initial_state()).tolist() == game.actions(game.initial_state()).tolist()
    assert cut_off(game.initial_state(), 2).guesses_left == 2
    with pytest.raises(ValueError):
        ModelledGame(game, make_indicator("random", game))


def test_against_honest_it_plays_every_answer_legally():
    game = small_game(ASTE, ["chump"])
    agent = make_agent("minimax", game, opponent="absurdle", depth=3)
    for hard in (False, True):
        for answer in game.all_answers:
            played = game.play(lambda state: agent.decide(state, np.random.default_rng(0)).guess, int(answer), hard=hard)
            assert played.solved and len(played.turns) <= 4


def test_the_opponent_is_a_checked_choice_and_recorded():
    game = small_game(ASTE, ["chump"])
    assert make_agent("alphabeta", game).settings()["opponent"] == "worst"
    assert make_agent("minimax", game, opponent="absurdle").settings()["opponent"] == "absurdle"
    with pytest.raises(AgentError):
        make_agent("alphabeta", game, opponent="liar")
    with pytest.raises(AgentError):
        make_agent("expectimax", game, opponent="absurdle")


def test_on_the_full_lists_it_wins_from_slates_bucket_in_three_more(official_game):
    # The agent's own opener is SLATE (benchmarks/bench_absurdle_win.py plays it); from Absurdle's bucket after
    # it, the search sees a win with guess 4 and plays it.
    game = official_game
    agent = make_agent("alphabeta", game, opponent="absurdle", depth=4)
    for hard in (False, True):
        state = against_absurdle(game).answered(game.initial_state(hard=hard), game.words.guess_id("slate"))
        decision = agent.decide(state, np.random.default_rng(0))
        assert decision.value == 6 + 1 - 4
        rng = np.random.default_rng(0)
        for _ in range(3):
            state = against_absurdle(game).answered(state, agent.decide(state, rng).guess)
        assert state.solved and state.guesses_used == 4


@pytest.mark.skipif(not os.environ.get("WORDLE_ARENA_SLOW"), reason="seconds on the full lists: set WORDLE_ARENA_SLOW=1")
def test_on_the_full_lists_it_finds_a_four_guess_win_from_the_start(official_game):
    for hard in (False, True):
        guesses = play_absurdle(official_game, make_agent("alphabeta", official_game, opponent="absurdle", depth=4), hard)
        assert len(guesses) == 4
