"""The cost-to-go model: how many more guesses a state with n possible answers still needs.

F(n) counts the guesses still to be made, the winning one included, when n answers
are possible and play is good: F(1) = 1 and F(2) = 1.5 exactly (guess one of the two);
for n >= 3 it is a quadratic in log2 n, fitted by least squares on the states that
measured games passed through (benchmarks/fit_cost.py; its command, data and result
are in results/cost_fit.json), and never below the exact lower bound 1 + (n - 1) / n.

>>> round(float(cost_table(3)[1]), 3), round(float(cost_table(3)[2]), 3)
(1.0, 1.5)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .partition import PartitionStats, partition_stats


@dataclass(frozen=True)
class CostModel:
    """F(n) = intercept + slope * log2 n + curve * (log2 n)^2 for n >= 3.

    Attributes:
        intercept, slope, curve: the fitted coefficients.
    """

    intercept: float
    slope: float
    curve: float

    def table(self, largest: int) -> np.ndarray:
        """F(n) for n = 0 .. largest as a float array (F(0) = 0: an empty bin costs nothing)."""
        sizes = np.arange(largest + 1, dtype=np.float64)
        bits = np.log2(np.maximum(sizes, 1.0))
        fitted = self.intercept + self.slope * bits + self.curve * bits * bits
        floor = 1.0 + (sizes - 1.0) / np.maximum(sizes, 1.0)
        table = np.maximum(fitted, floor)
        table[: min(3, largest + 1)] = (0.0, 1.0, 1.5)[: min(3, largest + 1)]
        return table


#: Fitted by `python benchmarks/fit_cost.py results/cost_fit_games.json` (results/cost_fit.json records
#: the command, the input's own command and commit, and the coefficients; rounded here to 4 decimals,
#: c to 7). The input is the 2315 normal-mode games of expectimax at depth 2 played at commit fc450f9,
#: kept whole in results/cost_fit_games.json so the fit can be rerun; tests/test_cost.py checks the match.
FITTED = CostModel(intercept=1.4903, slope=0.1812, curve=-0.0007375)


def cost_table(largest: int, model: CostModel = FITTED) -> np.ndarray:
    """F(n) for n = 0 .. largest under `model` (the fitted one by default)."""
    return model.table(largest)


def to_go_stats(matrix: np.ndarray, candidates: np.ndarray, guesses: np.ndarray, answer_rows: np.ndarray,
                table: np.ndarray) -> PartitionStats:
    """Partition statistics of `guesses` over `candidates` whose `bin_value_sum` is the sum over bins of b * F(b).

    `table` holds F(0 .. n) at least, n being the number of candidates.
    """
    size = len(candidates)
    return partition_stats(matrix, candidates, guesses, answer_rows=answer_rows,
                           bin_values=table[: size + 1] * np.arange(size + 1))


def guesses_to_go(stats: PartitionStats) -> np.ndarray:
    """Expected guesses still needed, the guess itself included: 1 + (sum over bins of b * F(b) - [it can win]) / n.

    The all-green bin (one answer, when the guess can win) needs no further guess: F(1) = 1 counted for it is taken
    back. `stats` comes from `to_go_stats`. Every evaluation and view of expected guesses takes them from here.
    """
    assert stats.bin_value_sum is not None
    return 1.0 + (stats.bin_value_sum - stats.can_win) / stats.size
