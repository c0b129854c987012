"""Hard mode: the readable rule, its vectorised mask, hints a step at a time, and the legality properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from wordle import ALL_GREEN, feedback, hints_from, legal_mask, violation
from wordle.hardmode import extend_hints
from wordle.words import encode_letters, letter_counts

word = st.text(alphabet="abcdeo", min_size=5, max_size=5)


def history_for(answer: str, guesses: list[str]) -> list[tuple[str, int]]:
    return [(guess, feedback(guess, answer)) for guess in guesses]


@given(word, st.lists(word, min_size=1, max_size=4))
def test_the_answer_is_always_legal(answer, guesses):
    assert violation(answer, history_for(answer, guesses)) is None


@given(word, st.lists(word, min_size=1, max_size=4), st.data())
def test_a_guess_keeping_greens_and_revealed_counts_is_legal(answer, guesses, data):
    """Start from the demanded greens and letters, fill the rest freely: always legal."""
    history = history_for(answer, guesses)
    hints = hints_from(history)
    slots: list[str | None] = [None] * 5
    for position, letter in hints.fixed:
        slots[position] = letter
    needed = []
    for letter, count in hints.at_least:
        needed += [letter] * (count - sum(1 for s in slots if s == letter))
    free = [i for i, s in enumerate(slots) if s is None]
    assume(len(needed) <= len(free))
    order = data.draw(st.permutations(free))
    for position, letter in zip(order, needed):
        slots[position] = letter
    for position in order[len(needed):]:
        slots[position] = data.draw(st.sampled_from("abcdeoxyz"))
    guess = "".join(slots)
    assert violation(guess, history) is None
    # The check is not idle: the same guess without one of its greens ('z' is never in these answers) breaks a hint.
    for position, _ in hints.fixed[:1]:
        assert violation(guess[:position] + "z" + guess[position + 1:], history) is not None


def test_the_legality_property_flags_a_guess_that_drops_a_green():
    # Hand-worked for the property above: after SALET against AGREE, E is green at 4; CAMEL keeps it, CAMPZ does not.
    history = [("salet", feedback("salet", "agree"))]
    assert violation("camel", history) is None and violation("campz", history) is not None


@given(word, st.lists(word, min_size=1, max_size=3), st.data())
def test_dropping_a_revealed_letter_makes_a_guess_illegal(answer, guesses, data):
    history = history_for(answer, guesses)
    hints = hints_from(history)
    assume(hints.at_least)
    letter, count = data.draw(st.sampled_from(hints.at_least))
    fixed_here = [p for p, l in hints.fixed if l == letter]
    # Replace every copy of the letter by 'z' (never in this alphabet): it now appears 0 < count times.
    guess = answer.replace(letter, "z")
    assert violation(guess, history) is not None
    assert fixed_here or letter.upper() in violation(guess, history)


@settings(max_examples=80, deadline=None)
@given(st.lists(word, min_size=6, max_size=30, unique=True), word, st.lists(word, min_size=1, max_size=3))
def test_vectorised_mask_equals_the_readable_rule(pool, answer, guesses):
    history = history_for(answer, guesses)
    mask = legal_mask(encode_letters(pool), letter_counts(pool), hints_from(history))
    assert mask.tolist() == [violation(candidate, history) is None for candidate in pool]


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=6, max_size=30, unique=True), word, st.lists(word, min_size=1, max_size=3), st.data())
def test_the_mask_of_some_rows_is_the_rule_for_those_rows(pool, answer, guesses, data):
    history = history_for(answer, guesses)
    rows = np.array(data.draw(st.lists(st.integers(0, len(pool) - 1), max_size=len(pool), unique=True)), dtype=np.int64)
    mask = legal_mask(encode_letters(pool), letter_counts(pool), hints_from(history), rows=rows)
    assert mask.tolist() == [violation(pool[row], history) is None for row in rows]


def test_grey_letters_may_be_reused():
    history = [("crane", feedback("crane", "sloth"))]  # all grey
    assert violation("crane", history) is None


@pytest.mark.parametrize(
    "guess, message",
    [
        ("tonic", "4th letter must be E (green in SALET)"),
        ("modem", "guess must contain A (revealed in SALET)"),
        ("camel", None),
    ],
)
def test_violations_name_the_hint(guess, message):
    history = [("salet", feedback("salet", "agree"))]  # S grey, A yellow, L grey, E green, T grey
    assert violation(guess, history) == message


def test_double_letters_demand_both_copies():
    history = [("speed", feedback("speed", "erase"))]  # S yellow, both Es yellow
    assert violation("ready", history) == "guess must contain E 2 times (revealed in SPEED)"
    assert violation("geese", history) is None
    mask = legal_mask(encode_letters(["ready", "geese"]), letter_counts(["ready", "geese"]), hints_from(history))
    assert mask.tolist() == [False, True]
    assert np.asarray(mask).dtype == bool


def test_extend_hints_matches_hints_from():
    history = [("salet", 2 + 3 * 1), ("later", 2 * 81 + 1 * 27)]
    hints = hints_from([])
    for word, pattern in history:
        hints = extend_hints(hints, word, pattern)
    assert hints == hints_from(history)


@given(st.lists(st.tuples(st.text(alphabet="aels", min_size=5, max_size=5), st.integers(0, ALL_GREEN)),
                max_size=4))
def test_hints_extended_a_step_at_a_time_are_the_whole_history_s(history):
    """The remembered one-step hints, merged a step at a time, against the readable reference over the whole
    history (few letters, so repeated letters and counts that grow and shrink are common)."""
    hints = hints_from([])
    for word, pattern in history:
        hints = extend_hints(hints, word, pattern)
    expected = hints_from(history)
    assert (hints.fixed, hints.at_least) == (expected.fixed, expected.at_least)
