"""The feedback rules: hand-checked duplicate-letter cases and hypothesis properties."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, strategies as st

from wordle import ALL_GREEN, GREEN, GREY, YELLOW, decode_colours, encode_colours, feedback, format_pattern
from wordle.feedback import is_consistent

# Small alphabets make repeated letters, the hard part of the rules, common.
words = st.text(alphabet="abcde", min_size=5, max_size=5)
wide_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=5, max_size=5)


@pytest.mark.parametrize(
    "guess, answer, expected",
    [
        ("speed", "abide", "--y-y"),  # DEVELOPERS.md: grey grey yellow grey yellow
        ("hello", "alley", "-ygy-"),  # DEVELOPERS.md: the second L is green, the first yellow
        ("speed", "erase", "y-yy-"),  # both Es yellow: ERASE has two
        ("roses", "horse", "ygyy-"),  # one S in HORSE: the first S takes it, the second is grey
        ("ninny", "annex", "y-g--"),  # the green N uses one N, the leading N takes the other
        ("abbey", "babes", "yygg-"),  # the green B leaves one B for the earlier B to be yellow
        ("eerie", "theme", "y---g"),  # the final green E leaves one E: the first E only
        ("llama", "alloy", "ygy--"),  # greens before yellows, then left to right
        ("crane", "crane", "ggggg"),
        ("fuzzy", "crane", "-----"),
    ],
)
def test_hand_checked_cases(guess, answer, expected):
    assert format_pattern(feedback(guess, answer)) == expected


def test_code_is_base_three_first_letter_most_significant():
    assert feedback("sxxxx", "syyyy") == int("20000", 3)
    assert feedback("xxxxs", "yyyys") == int("00002", 3)
    assert encode_colours([GREEN, GREY, YELLOW, GREY, GREY]) == int("20100", 3)


@given(st.integers(0, ALL_GREEN))
def test_colours_round_trip(code):
    assert encode_colours(decode_colours(code)) == code


@given(words, words)
def test_all_green_iff_equal(guess, answer):
    assert (feedback(guess, answer) == ALL_GREEN) == (guess == answer)


@given(words, words)
def test_greens_are_exactly_the_equal_positions(guess, answer):
    colours = decode_colours(feedback(guess, answer))
    assert [c == GREEN for c in colours] == [g == a for g, a in zip(guess, answer)]


@given(words, words)
def test_marked_letters_never_exceed_either_count(guess, answer):
    colours = decode_colours(feedback(guess, answer))
    marked = Counter(letter for letter, colour in zip(guess, colours) if colour != GREY)
    for letter, count in marked.items():
        assert count <= guess.count(letter)
        assert count <= answer.count(letter)


@given(words, words)
def test_marked_count_is_the_common_count(guess, answer):
    """Greens plus yellows of each letter equal min(count in guess, count in answer)."""
    colours = decode_colours(feedback(guess, answer))
    for letter in set(guess):
        marked = sum(1 for g, c in zip(guess, colours) if g == letter and c != GREY)
        assert marked == min(guess.count(letter), answer.count(letter))


@given(words, words)
def test_yellows_come_before_greys_of_the_same_letter(guess, answer):
    colours = decode_colours(feedback(guess, answer))
    for letter in set(guess):
        non_green = [c for g, c in zip(guess, colours) if g == letter and c != GREEN]
        assert non_green == sorted(non_green, reverse=True)


@given(st.lists(wide_words, min_size=1, max_size=4), wide_words)
def test_answer_is_consistent_with_every_pattern_it_produced(guesses, answer):
    history = [(guess, feedback(guess, answer)) for guess in guesses]
    assert is_consistent(answer, history)


def test_feedback_rejects_wrong_lengths():
    with pytest.raises(ValueError):
        feedback("toolong", "crane")
