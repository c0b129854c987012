"""Words of 4 to 9 letters: the shipped lists, and feedback and hard mode checked against an independent oracle.

The oracle counts by letter, not by position: a letter of the guess is coloured (green or yellow)
as often as it occurs in both words, greens first, then the leftmost other copies yellow.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from variants import LENGTHS, Boards, variant_words
from wordle import Words, Wordle, decode_colours, feedback, legal_mask, hints_from, violation
from wordle.feedback import all_green
from wordle.matrix import pattern_matrix

GREY, YELLOW, GREEN = 0, 1, 2


def oracle_colours(guess: str, answer: str) -> tuple[int, ...]:
    """The colours of `guess` against `answer`, counted letter by letter."""
    colours = [GREEN if g == a else GREY for g, a in zip(guess, answer)]
    shared = Counter(guess) & Counter(answer)
    for letter, both in shared.items():
        spare = both - sum(1 for g, c in zip(guess, colours) if g == letter and c == GREEN)
        for position, g in enumerate(guess):
            if spare > 0 and g == letter and colours[position] == GREY:
                colours[position], spare = YELLOW, spare - 1
    return tuple(colours)


def oracle_legal(guess: str, history: list[tuple[str, tuple[int, ...]]]) -> bool:
    """Hard mode by its statement: every green kept in place, every letter shown n times in a row used n times."""
    for word, colours in history:
        if any(c == GREEN and guess[i] != word[i] for i, c in enumerate(colours)):
            return False
        shown = Counter(letter for letter, c in zip(word, colours) if c != GREY)
        if any(guess.count(letter) < n for letter, n in shown.items()):
            return False
    return True


def words_of(length: int):
    """Words of `length` letters over a small alphabet, so that letters repeat and meet often."""
    return st.text(alphabet="abcde", min_size=length, max_size=length)


@pytest.mark.parametrize("length", [4, 7])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_feedback_matches_the_oracle(length, data):
    guess, answer = data.draw(words_of(length)), data.draw(words_of(length))
    assert decode_colours(feedback(guess, answer), length) == oracle_colours(guess, answer)


@pytest.mark.parametrize("length", [4, 7])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_matrix_matches_the_oracle(length, data):
    words = data.draw(st.lists(words_of(length), min_size=1, max_size=12, unique=True))
    matrix = pattern_matrix(words, words)
    assert matrix.dtype == (np.uint8 if length <= 5 else np.uint16)
    for g, guess in enumerate(words):
        for a, answer in enumerate(words):
            assert decode_colours(int(matrix[g, a]), length) == oracle_colours(guess, answer)


@pytest.mark.parametrize("length", [4, 7])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_hard_mode_matches_the_oracle(length, data):
    answer = data.draw(words_of(length))
    played = data.draw(st.lists(words_of(length), min_size=1, max_size=3))
    guess = data.draw(words_of(length))
    history = [(word, feedback(word, answer)) for word in played]
    expected = oracle_legal(guess, [(word, oracle_colours(word, answer)) for word in played])
    assert (violation(guess, history) is None) == expected
    words = Words.build((answer,), tuple(sorted({guess, answer})))
    game = Wordle(words, pattern_matrix(words.guesses, words.answers))
    mask = legal_mask(game.guess_letters, game.guess_counts, hints_from(history))
    assert bool(mask[words.guess_id(guess)]) == expected


@pytest.mark.slow
@pytest.mark.parametrize("length", list(LENGTHS))
def test_every_length_has_its_lists(length):
    words = variant_words(length)
    assert words.length == length and len(words.answers) > 2000 and len(words.guesses) >= len(words.answers)
    assert all(len(word) == length for word in words.guesses)


@pytest.mark.slow
def test_a_six_letter_game_is_played_to_the_end():
    rules = Wordle(variant_words(6), None)
    assert rules.matrix.dtype == np.uint16 and int(rules.matrix.max()) == all_green(6)
    game = Boards(rules, 1)
    answer = rules.words.answer_id("letter")
    played = game.play(lambda state: rules.words.guess_id("settle") if not state.history
                       else int(rules.words.answer_rows[state.candidates[0][0]]), (answer,), 6)
    assert played.won and played.history[0][1] == (int("022211", 3),)  # s grey, ett green, l e yellow
