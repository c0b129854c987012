"""Statistics of how each guess partitions the answers still possible, for all guesses at once.

A guess splits the candidates into bins, one per pattern it can get. Every metric here
is a function of the bin sizes (and of the pattern codes, for the colour counts):

- entropy: expected information of the reply in bits, -sum p log2 p with p = bin / n;
- largest: the size of the largest bin (the Indicator's best reply against the Guesser);
- smallest: the size of the smallest bin;
- bins: how many distinct patterns the guess can get;
- expected_size: the expected size of the bin the answer falls in, sum bin^2 / n;
- greens, yellows, greys: mean number of letters of each colour over the candidates;
- can_win: whether the guess is itself one of the candidates;
- bin_value_sum (optional): the sum over bins of a table indexed by bin size, so any
  further metric of the bin sizes (such as the cost-to-go) costs one table look-up.

`partition_stats` is the fast path; `reference_stats` is the slow readable oracle.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from wordle import GREEN, PATTERN_COUNT, YELLOW, decode_colours
from wordle.game import can_win

#: Number of green and yellow letters in each pattern code. A code's digits are its colours, the leading
#: zeros grey, so one table serves every word length up to nine (the variants'); five letters use its first 243.
_DIGITS = (np.arange(3**9)[:, None] // 3 ** np.arange(9)[None, :]) % 3
GREENS_IN = np.count_nonzero(_DIGITS == GREEN, axis=1).astype(np.uint8)
YELLOWS_IN = np.count_nonzero(_DIGITS == YELLOW, axis=1).astype(np.uint8)
assert GREENS_IN[:PATTERN_COUNT].tolist() == [decode_colours(code).count(GREEN) for code in range(PATTERN_COUNT)]
#: Above this many candidates numpy's radix sort (kind="stable" on uint8) beats its default sort.
_RADIX_FROM = 16


@dataclass(frozen=True, eq=False)
class PartitionStats:
    """Per-guess partition statistics; every array is aligned with `guesses`."""

    guesses: np.ndarray
    size: int
    entropy: np.ndarray
    largest: np.ndarray
    smallest: np.ndarray
    bins: np.ndarray
    expected_size: np.ndarray
    greens: np.ndarray
    yellows: np.ndarray
    greys: np.ndarray
    can_win: np.ndarray
    bin_value_sum: np.ndarray | None = None


def _bin_sizes(patterns: np.ndarray, bin_values: np.ndarray | None = None) -> tuple[np.ndarray | None, ...]:
    """Per row: largest bin, smallest bin, bins, sum c^2, sum c log2 c, total greens, total yellows, sum bin_values[c].

    The sums run over each row's bins, found as the runs of its sorted patterns.

    Sorting a row puts each bin in one run; the run starts, flattened over all rows,
    give every bin's size at once, and `reduceat` folds them back per row.
    """
    rows, size = patterns.shape
    ordered = np.sort(patterns, axis=1, kind="stable" if size > _RADIX_FROM else None)
    starts = np.empty((rows, size), dtype=bool)
    starts[:, 0] = True
    np.not_equal(ordered[:, 1:], ordered[:, :-1], out=starts[:, 1:])
    positions = np.flatnonzero(starts)
    sizes = np.diff(positions, append=rows * size)
    bins = np.count_nonzero(starts, axis=1)
    first_bin = np.zeros(rows, dtype=np.int64)
    np.cumsum(bins[:-1], out=first_bin[1:])
    weights = sizes.astype(np.float64)
    bin_patterns = ordered.ravel()[positions]
    return (
        np.maximum.reduceat(sizes, first_bin),
        np.minimum.reduceat(sizes, first_bin),
        bins,
        np.add.reduceat(weights * weights, first_bin),
        np.add.reduceat(weights * np.log2(weights), first_bin),
        np.add.reduceat(weights * GREENS_IN[bin_patterns], first_bin),
        np.add.reduceat(weights * YELLOWS_IN[bin_patterns], first_bin),
        None if bin_values is None else np.add.reduceat(bin_values[sizes], first_bin),
    )


def partition_stats(matrix: np.ndarray, candidates: np.ndarray, guesses: np.ndarray | None = None,
                    answer_rows: np.ndarray | None = None, bin_values: np.ndarray | None = None) -> PartitionStats:
    """Partition statistics of every guess over the candidates, in one array pass.

    Args:
        matrix: the guess x answer pattern matrix.
        candidates: answer column indices still possible (non-empty).
        guesses: guess row indices to score (default: every row).
        answer_rows: guess row of each answer column, to fill `can_win` (default: all False).
        bin_values: optional float table indexed by bin size (length above the candidate
            count); fills `bin_value_sum` with each guess's sum of bin_values[bin size].

    Returns:
        PartitionStats with one entry per guess.
    """
    candidates = np.asarray(candidates)
    if candidates.size == 0:
        raise ValueError("partition statistics need at least one candidate")
    guesses = np.arange(matrix.shape[0]) if guesses is None else np.asarray(guesses)
    if guesses.size == matrix.shape[0] and np.array_equal(guesses, np.arange(matrix.shape[0])):
        patterns = np.take(matrix, candidates, axis=1)
    else:  # rows first: copying every row's candidate columns would cost more than the subset needs
        patterns = np.take(matrix[guesses], candidates, axis=1)
    size = candidates.size
    if bin_values is not None and len(bin_values) <= candidates.size:
        raise ValueError(f"bin_values needs an entry for every size up to {candidates.size}")
    largest, smallest, bins, sum_squares, c_log_c, green_total, yellow_total, value_sum = _bin_sizes(patterns, bin_values)
    greens, yellows = green_total / size, yellow_total / size
    wins = np.zeros(guesses.size, dtype=bool) if answer_rows is None else can_win(answer_rows, candidates, guesses)
    return PartitionStats(
        guesses=guesses,
        size=size,
        entropy=np.maximum(math.log2(size) - c_log_c / size, 0.0),
        largest=np.asarray(largest, dtype=np.int64),
        smallest=np.asarray(smallest, dtype=np.int64),
        bins=np.asarray(bins, dtype=np.int64),
        expected_size=sum_squares / size,
        greens=greens,
        yellows=yellows,
        greys=5.0 - greens - yellows,
        can_win=wins,
        bin_value_sum=value_sum,
    )


def reference_stats(matrix: np.ndarray, candidates: list[int], guess: int) -> dict[str, float]:
    """The same statistics for one guess, computed plainly from its bins (the oracle for tests)."""
    replies = [int(matrix[guess, answer]) for answer in candidates]
    bins = Counter(replies)
    n = len(candidates)
    return {
        "entropy": -sum(c / n * math.log2(c / n) for c in bins.values()),
        "largest": max(bins.values()),
        "smallest": min(bins.values()),
        "bins": len(bins),
        "expected_size": sum(c * c for c in bins.values()) / n,
        "greens": sum(decode_colours(r).count(GREEN) for r in replies) / n,
        "yellows": sum(decode_colours(r).count(YELLOW) for r in replies) / n,
        "greys": sum(decode_colours(r).count(0) for r in replies) / n,
    }
