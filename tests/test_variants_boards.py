"""Several boards at once (variants/boards.py): a Dordle worked by hand, the rules, K = 1 as today's game, searches.

Values are from the Guesser's point of view, higher is better.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_agent, make_player
from variants import Boards, GameSpec
from wordle import IllegalMove, Wordle, feedback, parse_pattern

from .conftest import small_game


def dordle(answers: list[str], extra: list[str] = ()) -> tuple[Wordle, Boards]:
    """Two boards over hand-picked words."""
    rules = small_game(answers, list(extra))
    return rules, Boards(rules, 2)


def test_a_dordle_worked_by_hand_solves_one_board_early():
    # Boards hide CRATE and SLATE. CRATE solves board 1 at once; on board 2 it shows - - g g g
    # (C and R grey, ATE green), which SLATE and PLATE give, GRATE (- g g g g) does not.
    # Board 1 then stops: SLATE's reply is nothing there, all green on board 2. Won with guess 2 of 7: 7 + 1 - 2 = 6.
    rules, game = dordle(["crate", "slate", "grate", "plate"])
    words = rules.words
    crate, slate = words.guess_id("crate"), words.guess_id("slate")
    answers = (words.answer_id("crate"), words.answer_id("slate"))
    state = game.result(game.initial_state(7), crate)
    assert game.reply(state, answers) == (parse_pattern("ggggg"), parse_pattern("--ggg"))
    state = game.result(state, game.reply(state, answers))
    assert state.solved == (True, False) and state.open_boards == (1,)
    assert [words.answers[a] for a in state.candidates[1]] == ["slate", "plate"]
    state = game.result(game.result(state, slate), (None, parse_pattern("ggggg")))
    assert state.won and game.is_terminal(state) and game.utility(state) == 6.0
    played = game.play(lambda s: crate if s.guesses_used == 0 else slate, answers, 7)
    assert played.won and played.history == state.history


def test_a_reply_must_fit_the_boards():
    rules, game = dordle(["crate", "slate"])
    crate = rules.words.guess_id("crate")
    asked = game.result(game.initial_state(7), crate)
    with pytest.raises(IllegalMove):
        game.result(asked, (parse_pattern("ggggg"),))  # one pattern for two boards
    with pytest.raises(IllegalMove):
        game.result(asked, (parse_pattern("ggggg"), parse_pattern("yyyyy")))  # no answer gives it
    solved = game.result(asked, (parse_pattern("ggggg"), parse_pattern("ggggg")))
    assert solved.won and game.utility(solved) == 7.0


def test_the_replies_as_chance_are_the_product_of_the_boards():
    rules, game = dordle(["crate", "slate", "grate", "plate", "spine"])
    asked = game.result(game.initial_state(7), rules.words.guess_id("crate"))
    outcomes = game.chance_outcomes(asked)
    # CRATE splits the five answers into ggggg, -gggg, --ggg (2) and ----y: 4 replies a board, 16 together.
    assert len(outcomes) == 16 and math.isclose(sum(p for _, p in outcomes), 1.0)
    assert dict(outcomes)[(parse_pattern("--ggg"), parse_pattern("--ggg"))] == pytest.approx(0.4 * 0.4)
    assert game.actions(asked)[0] == (parse_pattern("--ggg"), parse_pattern("--ggg"))  # the likeliest first


def test_searches_agree_with_a_dordle_worked_by_hand():
    # Both boards hide CRATE or SLATE. Guessing CRATE (or SLATE): both boards solved with chance 1/4 (worth 7),
    # else one more guess wins (6): expectimax 7/4 + 3/4 x 6 = 6.25, minimax 6. PLATE solves nothing but tells
    # the boards apart: same answers (1/2) win with guess 2 (6), different ones with guess 3 (5): 5.5 and 5.
    rules, game = dordle(["crate", "slate"], ["plate"])
    state = game.initial_state(7)
    for name, value in (("expectimax", 6.25), ("minimax", 6.0), ("alphabeta", 6.0)):
        player = make_player(name, game, GameSpec(boards=2), depth=3, beam=3)
        decision = player.decide(state, np.random.default_rng(0))
        assert decision.value == pytest.approx(value) and rules.words.guesses[decision.guess] == "crate", name
    expect = dict(make_player("expectimax", game, GameSpec(boards=2), depth=3, beam=3).decide(
        state, np.random.default_rng(0)).alternatives)
    assert expect[rules.words.guess_id("plate")] == pytest.approx(5.5)


@pytest.mark.slow
def test_one_board_is_todays_game():
    # Wordle's own entropy agent, its choices fed through the one-board game, gets Wordle's own replies.
    rules = Wordle()
    game = Boards(rules, 1)
    agent = make_agent("entropy", rules)
    from wordle import State
    for word in ("crate", "lanky", "mummy", "vivid"):
        answer = rules.words.answer_id(word)
        today = rules.play(lambda s: agent.decide(s, np.random.default_rng(0)).guess, answer)
        choose = lambda s: agent.decide(State(s.candidates[0], tuple((g, r[0]) for g, r in s.history)),
                                        np.random.default_rng(0)).guess
        boards = game.play(choose, (answer,), 6)
        assert [(g, (p,)) for g, p in today.final.history] == list(boards.history)
        assert boards.won == today.solved


def test_the_guess_limits_are_the_familiar_ones():
    assert [GameSpec(boards=k).max_guesses for k in (1, 2, 4, 8)] == [6, 7, 9, 13]
    assert GameSpec(boards=2, max_guesses=9).max_guesses == 9 and GameSpec(lies=1).max_guesses == 9


@settings(max_examples=60, deadline=None)
@given(boards=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_every_board_keeps_its_answer_and_stops_once_solved(official_game, boards, seed):
    # Random answers and random guesses (an answer of some board now and then): each board's answers left
    # always hold its own, a board's replies are feedback until it shows all green, and none after.
    game, rng = Boards(official_game, boards), np.random.default_rng(seed)
    words = official_game.words
    answers = tuple(int(a) for a in rng.choice(len(words.answers), size=boards, replace=False))
    state = game.initial_state(boards + 5)
    while not game.is_terminal(state):
        pick = answers[int(rng.integers(boards))]
        guess = int(words.answer_rows[pick]) if rng.random() < 0.3 else int(rng.integers(len(words.guesses)))
        before = state.solved
        state = game.result(game.result(state, guess), game.reply(game.result(state, guess), answers))
        reply = state.history[-1][1]
        for board, answer in enumerate(answers):
            assert answer in state.candidates[board]
            if before[board]:
                assert reply[board] is None
            else:
                assert reply[board] == feedback(words.guesses[guess], words.answers[answer])
    assert state.won == all(state.solved) and game.utility(state) == (
        state.max_guesses + 1 - state.guesses_used if state.won else 0.0)


def _dordle_after(official_game, steps: list[tuple[str, tuple[str, str]]]):
    """A Dordle state after (guess, (pattern, pattern)) steps, '.' for a solved board."""
    game = Boards(official_game, 2)
    state = game.initial_state(7)
    for word, marks in steps:
        reply = tuple(None if mark == "." else parse_pattern(mark) for mark in marks)
        state = game.result(game.result(state, official_game.words.guess_index[word]), reply)
    return game, state


def test_entropy_takes_a_sure_win_out_of_the_olly_trap(official_game):
    # seed 0's Dordle game 563 (SPOOK, JOLLY): after FOLLY the second board is ?OLLY with two guesses left but
    # one; a guess that parts its answers is sure to win where guessing them one by one is not.
    game, state = _dordle_after(official_game, [("soare", ("gy---", "-g---")), ("clint", ("-----", "-y---")),
                                                ("showy", ("g-g--", "--y-g"))])
    player = make_player("entropy", game, GameSpec(boards=2))
    guess = player.decide(state, np.random.default_rng(0)).guess
    largest = [max(np.unique(official_game.matrix[guess, cands], return_counts=True)[1]) for cands in state.candidates]
    assert sum(largest) <= state.guesses_left - 1  # each board's answers then guessed one by one: still in time
    answers = (official_game.words.answer_index["spook"], official_game.words.answer_index["jolly"])
    played = game.play(lambda s: player.decide(s, np.random.default_rng(0)).guess, answers, 7)
    assert played.won


def test_entropy_guesses_only_possible_answers_when_every_guess_must_solve_a_board(official_game):
    # two boards and two guesses: each must solve one, so a word that cannot be an answer loses at once
    game = Boards(official_game, 2)
    state = game.initial_state(2)
    player = make_player("entropy", game, GameSpec(boards=2, max_guesses=2))
    guess = player.decide(state, np.random.default_rng(0)).guess
    assert guess in set(official_game.words.answer_rows.tolist())
    assert make_player("entropy", game, GameSpec(boards=2)).decide(
        game.initial_state(7), np.random.default_rng(0)).guess not in set(official_game.words.answer_rows.tolist())


def test_a_search_past_its_node_cap_plays_the_evaluations_guess_and_says_so(monkeypatch):
    """Issue 49: `play --boards 4 --agent alphabeta --depth 4 --beam 100` searched for minutes with no budget; a search
    given no --nodes now stops at NODE_CAP and plays the evaluation's own guess, and below the cap it is unchanged."""
    from agents import board_players

    rules, game = dordle(["crate", "slate", "grate", "plate"], ["plonk"])  # 16 replies: searched deep (endgame)
    state = game.initial_state(7)
    for name in ("minimax", "expectimax"):
        deep = make_player(name, game, GameSpec(boards=2), depth=3, beam=4).decide(state, np.random.default_rng(0))
        assert not deep.fallback and deep.nodes < board_players.NODE_CAP
        unbounded = make_player(name, game, GameSpec(boards=2), depth=3, beam=4, nodes=10**9).decide(
            state, np.random.default_rng(0))
        assert (unbounded.guess, unbounded.value, unbounded.nodes) == (deep.guess, deep.value, deep.nodes)
        monkeypatch.setattr(board_players, "NODE_CAP", 3)
        cut = make_player(name, game, GameSpec(boards=2), depth=3, beam=4).decide(state, np.random.default_rng(0))
        shallow = make_player(name, game, GameSpec(boards=2), depth=1, beam=4).decide(state, np.random.default_rng(0))
        assert cut.fallback and cut.budget_reached and cut.guess == shallow.guess and cut.nodes > 3
        monkeypatch.undo()
