"""The 3-guess proof and the 4-guess search against Absurdle, checked against brute force on small lists."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.absurdle_bounds import against_absurdle, distinct_replies, four_guess_win, largest_sizes, no_three_guess_win
from agents.indicators import make_indicator, play_with
from wordle import Wordle

from .conftest import small_game
from .test_indicators import ANSWER_POOL


def three_guess_win_exists(game: Wordle) -> bool:
    """The slow reference: play Absurdle after every pair of guesses; a win in 3 needs one answer left."""
    start, absurdle = game.initial_state(), against_absurdle(game)
    for first, second in itertools.product(map(int, game.all_guesses), repeat=2):
        after = absurdle.answered(start, first)
        if len(after.candidates) == 1 or len(absurdle.answered(after, second).candidates) == 1:
            return True
    return False


@settings(max_examples=20, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=3, max_size=12, unique=True))
def test_the_proof_agrees_with_brute_force(words):
    game = small_game(sorted(words))
    assert no_three_guess_win(game).holds == (not three_guess_win_exists(game))


def test_sizes_and_distinct_counts_match_a_loop():
    game = small_game(ANSWER_POOL)
    answers = game.all_answers[::2]
    for guess in map(int, game.all_guesses):
        replies = game.matrix[guess, answers].tolist()
        assert largest_sizes(game, np.array([guess]), answers)[0] == max(map(replies.count, replies))
        assert distinct_replies(game, np.array([guess]), answers)[0] == len(set(replies))


def test_a_found_win_beats_the_absurdle_indicator_in_four():
    game = small_game(ANSWER_POOL)
    for hard in (False, True):
        win = four_guess_win(game, hard=hard)
        if not win.guesses:
            continue
        moves = iter(win.guesses)
        played = play_with(game, lambda state: next(moves), make_indicator("absurdle", game), np.random.default_rng(0),
                           hard=hard, max_guesses=4)
        assert played.solved and len(played.turns) == 4


@pytest.mark.slow
def test_the_command_proves_three_impossible_and_wins_in_four(capsys, official_game):
    from .conftest import run_cli
    code, out, _ = run_cli(capsys, "absurdle", "--beam", "20")
    assert code == 0
    assert "3 guesses never beat Absurdle" in out
    assert out.count("beats Absurdle in 4") == 2
