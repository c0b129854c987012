"""Words a player knows: commonness from the shipped frequency data, near-best guesses commonest first, by real trees
alone; and numbers that never print a negative zero."""

from __future__ import annotations

import math
import re

from hypothesis import given, strategies as st

from plumbing.numbers import fixed, rounded_plain
from wordle.familiarity import NEAR_BEST, commonness, is_known, known_first, near_best
from wordle.valuation import Value
from wordle.words import word_kinds

#: The weighted opening book's trees (results/weighted-openers-likely-normal.jsonl, `high_average`), normal mode.
BOOK = {"salet": 3.454264, "reast": 3.460236, "slate": 3.460981, "crane": 3.462593, "trace": 3.467095,
        "carte": 3.469602, "crate": 3.471464, "least": 3.476734, "parse": 3.486027, "tares": 3.491212}


def tree(high: float, low: float = 3.37) -> Value:
    """A value a real tree backs, reaching `high`."""
    return Value(low, high, high)


def test_the_opening_shows_the_commonest_near_best_opener_first():
    exact = sorted(BOOK, key=BOOK.get)  # SALET best
    shown = known_first(exact, lambda word: tree(BOOK[word]), str)
    # within 0.03 of SALET's 3.454264 (up to 3.484264): REAST SLATE CRANE TRACE CARTE CRATE LEAST, by Zipf:
    # LEAST 5.44, TRACE 4.19, CRANE 3.92, SLATE 3.82, CRATE 3.47, CARTE 3.16, then SALET and REAST (0, exact order);
    # PARSE (3.486) and TARES (3.491) are beyond the margin and keep their places
    assert NEAR_BEST == 0.03
    assert shown == ["least", "trace", "crane", "slate", "crate", "carte", "salet", "reast", "parse", "tares"]
    assert known_first(exact, lambda word: tree(BOOK[word]), str, margin=0.0) == exact  # no margin: the exact order


def test_a_bound_or_an_estimate_never_moves_a_guess_up():
    best = tree(3.454264)
    assert not near_best(Value(3.30, math.inf, 3.30), best)  # a lower bound alone, however low: no tree
    assert not near_best(tree(3.46), Value(3.3, math.inf, 3.3))  # nor is anything near a best with no tree
    values = {"salet": best, "least": Value(3.30, math.inf, 3.40)}  # LEAST's estimate beats SALET, but no tree
    assert known_first(["salet", "least"], values.get, str) == ["salet", "least"]


def test_a_guess_that_may_lose_more_is_never_near():
    best = tree(3.5)
    losing = Value(3.5, 3.5, 3.5, losses_low=0.0, losses_high=1e-6)  # its tree loses a little weight: not as good
    assert not near_best(losing, best)
    assert near_best(tree(3.53), best) and not near_best(tree(3.5301), best)


def test_known_words_come_from_the_zipf_frequency():
    kinds = word_kinds()
    # TARES is in the common dictionary, but wordfreq rates it 1.90, BEFOG 0: neither is a word players know
    assert (kinds["tares"].kind, kinds["tares"].zipf) == ("common", 1.90) and not is_known("tares")
    assert kinds["befog"].kind == "common" and not is_known("befog")
    assert [is_known(w) for w in ("kilps", "golps", "splog", "corni", "chawk", "pubco", "capul")] == [False] * 7
    assert is_known("crane") and is_known("irate") and commonness("least") == 5.44
    offensive = next(word for word, kind in kinds.items() if kind.taste == "offensive" and kind.zipf >= 3)
    assert commonness(offensive) == 0.0 and not is_known(offensive)  # never put forward for being common


NEGATIVE_ZERO = re.compile(r"^-0(\.0*)?$")


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), st.integers(0, 8))
def test_no_number_prints_a_negative_zero(value, digits):
    text = fixed(value, digits)
    assert not NEGATIVE_ZERO.match(text)
    assert float(text) == float(f"{value:.{digits}f}")  # the same number, only the sign of zero dropped
    plain = rounded_plain(value, digits)
    assert plain != 0 or math.copysign(1.0, plain) == 1.0
    assert plain == round(value, digits)


def test_the_issue_s_negative_zero_prints_as_zero():
    assert fixed(-0.00001, 4) == "0.0000" and fixed(-0.0, 4) == "0.0000" and rounded_plain(-1e-12, 6) == 0.0
    assert str(rounded_plain(-1e-12, 6)) == "0.0"
