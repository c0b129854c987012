"""Endgames (wordle.solver.endgames): the counting bound against brute force and its readable oracle, and the solver's
"no win" with the endgame check equal to brute force, both modes."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN, Wordle
from wordle.solver import Solver
from wordle.solver.bounds import transposed
from wordle.solver.endgames import Endgames, most_won, slow_most_won

from .conftest import small_game
from .test_objectives import brute_wins, outcomes
from .test_short_wins import SPLITTERS, TRAPS

games = st.tuples(st.lists(st.sampled_from(TRAPS), min_size=4, max_size=10, unique=True),
                  st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(), st.integers(1, 4))


def brute_most_won(game: Wordle, state) -> int:
    """The most answers still possible that one tree solves within the guesses left (slow, by every tree)."""
    if game.is_terminal(state):
        return 0
    return max(sum(1 if kind == "solved" else brute_most_won(game, value)
                   for kind, value in outcomes(game, state, int(guess)))
               for guess in game.legal_guesses(state))


def after_any_opener_and_reply(game: Wordle, hard: bool, left: int, data):
    """The state after a drawn opener got a drawn reply, `left` guesses to go; None where every answer is the opener."""
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1))
    replies = [int(code) for code, _ in game.partition(game.all_answers, opener) if code != ALL_GREEN]
    if not replies:
        return None
    return game.step(game.initial_state(hard=hard, max_guesses=left + 1), opener, data.draw(st.sampled_from(replies)))


@settings(max_examples=40, deadline=None)
@given(games, st.data())
def test_no_tree_wins_more_answers_than_the_bound_after_any_opener_and_reply(case, data):
    answers, extra, hard, left = case
    game = small_game(answers, extra)
    state = after_any_opener_and_reply(game, hard, left, data) or game.initial_state(hard=hard, max_guesses=left + 1)
    group = np.asarray(state.candidates)
    legal = game.legal_guesses(state)
    bound = most_won(transposed(game), legal, group, left)
    assert brute_most_won(game, state) <= bound
    assert bound == slow_most_won(transposed(game), legal, group, left)


def test_seven_words_one_letter_apart_cannot_be_won_in_three_when_each_guess_tells_one_apart():
    """BATCH, CATCH, ... WATCH with only themselves to guess: each guess leaves the other six in one reply (spread 1),
    so three guesses win at most 1 + 1 + 1 answers; hard or normal, brute force agrees."""
    words = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
    game = small_game(words)
    group = game.all_answers
    assert most_won(transposed(game), game.all_guesses, group, 3) == 3
    for hard in (False, True):
        state = game.initial_state(hard=hard, max_guesses=3)
        assert brute_most_won(game, state) == 3 and not brute_wins(game, state)
        assert Solver(game, hard=hard, max_guesses=3).prover.endgame_core(group, 3, None) is not None
        solver = Solver(game, hard=hard, max_guesses=3)
        assert not solver.can_win(group, 3, None)  # with three left the compiled check answers where numba is
        solver = Solver(game, hard=hard, max_guesses=3)
        solver.prover.short_wins = None  # without it, the endgame does
        assert not solver.can_win(group, 3, None) and solver.stats.endgame_cuts == 1


def test_an_endgame_is_the_answers_alike_but_for_one_letter():
    endgames = Endgames(["batch", "catch", "hatch", "latch", "caste", "haste", "paste", "taste", "slate"])
    assert endgames.largest(np.arange(9)).tolist() == [0, 1, 2, 3]
    assert endgames.largest(np.array([4, 5, 6, 7, 8])).tolist() == [4, 5, 6, 7]
    assert endgames.largest(np.array([0, 1, 2, 4, 5, 6])) is None  # three of each: under MIN_ENDGAME


@settings(max_examples=30, deadline=None)
@given(games, st.data())
def test_can_win_with_and_without_the_endgame_check_equals_brute_force(case, data):
    answers, extra, hard, left = case
    game = small_game(answers, extra)
    state = after_any_opener_and_reply(game, hard, left, data)
    if state is None:
        return
    hints = game.hints(state) if hard else None
    expected = brute_wins(game, state)
    for cut in (True, False):
        solver = Solver(game, hard=hard, max_guesses=left + 1)
        solver.prover.endgame_cut = cut
        assert solver.can_win(np.asarray(state.candidates), left, hints) == expected
