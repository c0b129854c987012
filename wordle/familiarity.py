"""Words a player knows: how common a guess is, and near-best guesses shown commonest first.

Commonness is wordfreq's Zipf frequency of the word (wordfreq 3, its large English list: 3 is once a million words,
6 once a thousand), the `zipf` column of data/word-kinds.tsv, the project's word-frequency data (data/README.md).
Where two guesses are as good, within NEAR_BEST expected guesses of each other, a player is shown the one they know:
SLATE before SALET, TRACE before REAST. Only guaranteed values take part: a guess counts as near the best only when
a real tree backs both values (`Value.high`, finite) and it loses no more than the best; a lower bound or an
estimate never moves a guess up. Values are expected guesses to finish (lower is better).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence, TypeVar

from search.ranking import rounded

from .valuation import Value
from .words import word_kinds

#: Guesses whose real trees are within this many expected guesses of the best's are "as good": the commonest word
#: among them is shown first (3% of a guess).
NEAR_BEST = 0.03
#: A word at least this common (Zipf) is one a player knows: about once in three million words (IRATE 2.78, SHONE
#: 3.23 are known; TARES 1.90, SALET and BEFOG 0 are not).
KNOWN_ZIPF = 2.5
#: Words of these tastes (data/word-taste.tsv) are never put forward for being common.
UNSHOWN_TASTES = frozenset({"offensive", "vulgar"})
#: How suggestions are ordered: `known`, the commonest near-best word first; `all`, the exact order by value.
WORD_ORDERS = ("known", "all")

Item = TypeVar("Item")


def commonness(word: str) -> float:
    """How common a word is: its Zipf frequency (0 for a word the data lacks, or an offensive or vulgar one).

    >>> commonness("trace") > commonness("slate") > commonness("tares") > commonness("salet")
    True
    """
    kind = word_kinds().get(word.lower())
    if kind is None or kind.taste in UNSHOWN_TASTES:
        return 0.0
    return kind.zipf


def is_known(word: str) -> bool:
    """Whether a player knows the word: at least KNOWN_ZIPF common.

    >>> is_known("crane"), is_known("tares"), is_known("befog"), is_known("salet")
    (True, False, False, False)
    """
    return commonness(word) >= KNOWN_ZIPF


def near_best(value: Value, best: Value, margin: float = NEAR_BEST) -> bool:
    """Whether a guess is as good as the best within `margin`, by guaranteed values alone: both have a real tree,
    it loses no more than the best's tree, and its tree is at most `margin` expected guesses longer.

    >>> near_best(Value(3.40, 3.46, 3.46), Value(3.38, 3.454, 3.454)), near_best(Value(3.3, math.inf, 3.3), Value(3.45, 3.45, 3.45))
    (True, False)
    """
    if not (math.isfinite(value.high) and math.isfinite(best.high)):
        return False
    if rounded(float(value.losses_high)) > rounded(float(best.losses_high)):
        return False
    return rounded(float(value.high)) - rounded(float(best.high)) <= margin + 1e-9


def known_first(items: Sequence[Item], value_of: Callable[[Item], Value], word_of: Callable[[Item], str],
                margin: float = NEAR_BEST) -> list[Item]:
    """Items in the exact order (best first) reordered for a player: those near the first's value (`near_best`),
    commonest first (ties keep the exact order), then every other in the exact order.

    Args:
        items: ranked best first by the house order (`valuation.rank_key`).
        value_of: an item's value; word_of: its word.
        margin: NEAR_BEST unless told.

    Returns:
        The reordered list (the same items).

    >>> vals = {"salet": Value(3.45, 3.454, 3.454), "slate": Value(3.44, 3.461, 3.461), "trace": Value(3.4, 3.467, 3.467),
    ...         "least": Value(3.4, 3.49, 3.49)}
    >>> known_first(list(vals), vals.get, str)
    ['trace', 'slate', 'salet', 'least']
    """
    if not items:
        return []
    best = value_of(items[0])
    near = [item for item in items if near_best(value_of(item), best, margin)]
    if not near:
        return list(items)
    chosen = set(map(id, near))
    near.sort(key=lambda item: -commonness(word_of(item)))
    return near + [item for item in items if id(item) not in chosen]


__all__ = ["KNOWN_ZIPF", "NEAR_BEST", "WORD_ORDERS", "commonness", "is_known", "known_first", "near_best"]
