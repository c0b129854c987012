"""Fibble (variants/fibble.py): one lie in every row that does not win, and a Guesser that must reason over it.

Values are from the Guesser's point of view, higher is better.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_player
from variants import Fibble, GameSpec, lies_of
from wordle import Wordle, decode_colours, feedback
from wordle.feedback import all_green

#: Answers the tests play, and the seed of their lies.
ANSWERS = ("crate", "lanky", "mummy", "vivid", "jazzy", "fluff", "otter", "brine")


@pytest.fixture(scope="module")
def fibble(official_game) -> Fibble:
    """Fibble over the official lists."""
    return Fibble(official_game)


def tiles_apart(one: int, other: int) -> int:
    """How many tiles two five-letter patterns differ in."""
    return sum(a != b for a, b in zip(decode_colours(one), decode_colours(other)))


@settings(max_examples=300, deadline=None)
@given(guess=st.integers(0, 12971), answer=st.integers(0, 2314), seed=st.integers(0, 2**32 - 1))
def test_every_row_that_does_not_win_holds_exactly_one_lie(official_game, guess, answer, seed):
    game = Fibble(official_game)
    shown = game.reply(guess, answer, np.random.default_rng(seed))
    truth = feedback(official_game.words.guesses[guess], official_game.words.answers[answer])
    if truth == all_green():
        assert shown == truth
    else:
        assert tiles_apart(shown, truth) == 1 and shown != all_green()
        assert answer in game.consistent(official_game.all_answers, guess, shown)


def test_lies_are_every_one_tile_change_but_all_green():
    # - - - - g: each of the five tiles has two other colours (ten changes), none of them all green;
    # g g g g -: ten changes too, less the one that turns it all green.
    assert len(lies_of(int("00002", 3))) == 10 and len(lies_of(int("22220", 3))) == 9


def believer_game(game: Fibble, answer: int, seed: int) -> bool:
    """A Guesser that ignores the lies: it plays the first word consistent with every row taken as true.

    After a row that lied, the answer no longer gives that row, so the believer can win only with
    its first guess; when no word is consistent, it plays its last guess again. Returns whether it won.
    """
    rules, believed = game.rules, game.rules.all_answers

    def choose(state) -> int:
        nonlocal believed
        if state.history:
            guess, shown = state.history[-1]
            believed = believed[rules.matrix[guess, believed] == shown]
        if believed.size == 0:
            return state.history[-1][0]
        return int(rules.words.answer_rows[believed[0]])

    return game.play(choose, answer, np.random.default_rng(seed)).won


@pytest.mark.slow
def test_a_guesser_that_ignores_the_lies_loses_where_the_fibble_guesser_wins(fibble):
    player = make_player("entropy", fibble, GameSpec(lies=1))
    for number, word in enumerate(ANSWERS):
        answer = fibble.rules.words.answer_id(word)
        assert not believer_game(fibble, answer, seed=number)  # its first guess, ABACK, is none of them
        played = fibble.play(lambda state: player.decide(state, np.random.default_rng(0)).guess, answer,
                             np.random.default_rng(number))
        assert played.won and len(played.history) <= 9, word
        state = fibble.initial_state()
        for guess, shown in played.history:  # the answer stays possible all along
            state = fibble.result(fibble.result(state, guess), shown)
            assert answer in state.candidates


def test_the_shown_rows_as_chance_sum_to_one_and_respect_the_lies(official_game):
    small = Wordle(official_game.words, official_game.matrix)
    game = Fibble(small)
    state = game.result(game.initial_state(), small.words.guess_id("crate"))
    shown, chances = game.reply_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert all_green() in shown and chances[shown.index(all_green())] == pytest.approx(1 / 2315)
