"""How a guess's replies divide the answers: the partition by reply, and the count of distinct replies.

The two are written once here; every module that groups answers by reply or counts the
replies a guess can get calls them (heuristics/partition.py derives its statistics for
all guesses at once, bins included, in its own fast pass).

>>> [(int(pattern), group.tolist()) for pattern, group in partition(np.array([5, 2, 5, 7]), np.array([10, 11, 12, 13]))]
[(2, [11]), (5, [10, 12]), (7, [13])]
>>> distinct_replies(np.array([[5, 2, 5, 7], [1, 1, 1, 1]])).tolist()
[3, 1]
"""

from __future__ import annotations

import numpy as np


def partition(patterns: np.ndarray, answers: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """`answers` grouped by the reply each gets (`patterns`, aligned with them): (pattern, answers), pattern ascending.

    Each group keeps the answers' order.
    """
    order = np.argsort(patterns, kind="stable")
    ordered = patterns[order]
    starts = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    grouped = answers[order]
    bounds = [0, *starts.tolist(), len(grouped)]  # slices of one sorted array: np.split's overhead is most of the cost
    codes = ordered[bounds[:-1]].tolist() if len(grouped) else []
    return [(code, grouped[begin:end]) for code, begin, end in zip(codes, bounds[:-1], bounds[1:])]


def distinct_replies(patterns: np.ndarray) -> np.ndarray:
    """For each row of `patterns` (a guess's replies from some answers), how many different replies it holds."""
    ordered = np.sort(patterns, axis=1)
    return 1 + np.count_nonzero(ordered[:, 1:] != ordered[:, :-1], axis=1)
