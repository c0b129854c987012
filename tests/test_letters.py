"""Letter-frequency scores: the four formulas on a hand-checked pair, and the fast path against the oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from heuristics.letters import COMBINE, first_occurrences, letter_scores, letter_shares, reference_letter_score
from wordle import load_words
from wordle.words import encode_letters

WORDS = load_words()


@pytest.mark.parametrize("combine, expected", [
    # candidates abbey, abide; word abbey. Local shares 1, 1, .5, .5, .5; global a 1, b 1, e 1, y .5.
    ("sum", 3.5 + 3.5),
    ("product", (2 * 2 * 1.5 ** 3) * (2 * 2 * 2 * 1.5)),
    ("squares", (1 + 1 + 3 * 0.25) + (1 + 1 + 1 + 0.25)),
    ("ratio", 3.5 + (1 + 1 + 0.5 + 0.5 + 0.5 / 0.5)),
])
def test_hand_checked_scores(combine, expected):
    shares = letter_shares(encode_letters(["abbey", "abide"]), np.array([0, 1]))
    fast = letter_scores(encode_letters(["abbey"]), *shares, combine)[0]
    assert fast == pytest.approx(expected)
    assert reference_letter_score("abbey", ["abbey", "abide"], combine) == pytest.approx(expected)


def test_repeated_letter_counts_once_globally_and_absent_letter_scores_nothing():
    local, global_ = letter_shares(encode_letters(["eerie", "lever"]), np.array([0, 1]))
    assert global_[ord("e") - ord("a")] == 1.0 and global_[ord("z") - ord("a")] == 0.0
    assert local[0, ord("e") - ord("a")] == 0.5 and local[1, ord("e") - ord("a")] == 1.0
    # "zzzzz": no local or global share; its ratio term is defined as 0 rather than 0/0.
    assert letter_scores(encode_letters(["zzzzz"]), local, global_, "ratio")[0] == 0.0
    assert letter_scores(encode_letters(["zzzzz"]), local, global_, "product")[0] == 1.0


def test_first_occurrences_marks_only_the_first_copy():
    assert first_occurrences(encode_letters(["eerie", "crane"])).tolist() == [
        [True, False, True, True, False], [True] * 5]


def test_unknown_combination_is_refused():
    shares = letter_shares(encode_letters(["abbey"]), np.array([0]))
    with pytest.raises(ValueError, match="unknown combination"):
        letter_scores(encode_letters(["abbey"]), *shares, "mean")


@settings(max_examples=40, deadline=None)
@given(candidates=st.lists(st.integers(0, len(WORDS.answers) - 1), min_size=1, max_size=30, unique=True),
       guesses=st.lists(st.integers(0, len(WORDS.guesses) - 1), min_size=1, max_size=8),
       combine=st.sampled_from(COMBINE))
def test_fast_scores_match_the_reference(candidates, guesses, combine):
    answer_letters = encode_letters(list(WORDS.answers))
    shares = letter_shares(answer_letters, np.array(candidates))
    words = [WORDS.guesses[g] for g in guesses]
    fast = letter_scores(encode_letters(words), *shares, combine)
    slow = [reference_letter_score(w, [WORDS.answers[c] for c in candidates], combine) for w in words]
    assert fast == pytest.approx(slow)
