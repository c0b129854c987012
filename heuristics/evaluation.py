"""Evaluations: the value of each guess at a Guesser state, for the search's horizon and beam.

Values are from the Guesser's point of view, higher is better, and on the game's own
scale, the one `Wordle.utility` uses for finished games: solving with guess k is worth
max_guesses + 1 - k, a lost game 0. A state whose Guesser has used u guesses therefore
offers at best `base = max_guesses - u` (solving with the next guess), and each
evaluation says where below that a guess lands:

- `cost`: base + 1 - the expected number of guesses still needed, this one included:
  1 + (sum over its bins of b * F(b), less 1 for the all-green bin) / n, with F the
  fitted cost-to-go of heuristics.cost. Expectimax over it optimises average guesses.
- `weighted` and its single-metric cases (`entropy`, `greens`, `yellows`, `greys`): the
  score s = w . (entropy, mean greens, mean yellows, mean greys) normalised by the most
  it can be at this state, b = w_e log2 min(n, 243) + 5 (w_g + w_y + w_r), and placed
  one guess below the best a state with two answers offers: base - 2 + s / b. A state
  with three or more answers always needs two guesses in the worst case, so a heuristic
  leaf never outranks one that exact play values.

Every evaluation runs in one of three modes:

- local: computed on the answers still possible;
- constant: computed once on the full answer list (cached per game) and looked up;
- zero: every guess gets the value of score 0, so choices fall to the seeded tie-break.

Local mode's indication threshold is the evaluation's own setting: the indications a state
can produce are counted as the largest number of distinct patterns any guess being scored
can get over the state's possible answers; above the threshold the constant values stand in
for the local ones.

Evaluations are found by name in `EVALUATIONS` and built with `make_evaluation`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import Callable

import numpy as np

from wordle import PATTERN_COUNT, State, Wordle

from .cost import CostModel, FITTED, cost_table, guesses_to_go, to_go_stats
from .partition import PartitionStats, partition_stats

MODES = ("local", "constant", "zero")
DEFAULT_WEIGHTS = (0.6, 0.2, 0.15, 0.05)
DEFAULT_THRESHOLD = 100
#: Letters in a word, the most any colour count can be.
_LETTERS = 5.0


class Evaluation(ABC):
    """Values of guesses at a Guesser state (n >= 3 answers, 2 or more guesses left).

    Attributes:
        name: registry name.
        mode: "local", "constant" or "zero".
        threshold: local mode only: above this many indications the constant values stand in.
    """

    name: str = ""

    def __init__(self, mode: str = "local", threshold: int = DEFAULT_THRESHOLD):
        if mode not in MODES:
            raise ValueError(f"unknown evaluation mode '{mode}'; choose one of {', '.join(MODES)}")
        if threshold < 1:
            raise ValueError(f"threshold must be at least 1, got {threshold}")
        self.mode, self.threshold = mode, threshold
        self._constant: dict[str, np.ndarray] = {}

    @property
    def random_ties(self) -> bool:
        """Whether equal values are ordered by the seeded generator (zero mode) rather than by a fixed rule."""
        return self.mode == "zero"

    @property
    def key(self) -> tuple:
        """What the values depend on besides the state: for caches and results files."""
        return (self.name, self.mode, self.threshold)

    def values(self, game: Wordle, state: State, guesses: np.ndarray) -> np.ndarray:
        """The value of each guess in `guesses` at `state`, on the game's utility scale.

        Args:
            game: the rules and pattern matrix.
            state: a Guesser-to-move state.
            guesses: guess indices to value.

        Returns:
            A float array aligned with `guesses`.
        """
        guesses = np.asarray(guesses)
        base = game.solve_now(state)
        if self.mode == "zero":
            return np.full(guesses.size, self.neutral(base))
        if self.mode == "local":
            stats = self.stats(game, state.candidates, guesses)
            if stats.bins.size and int(stats.bins.max()) <= self.threshold:
                return self.from_stats(stats, base)
        return self.constant(game, base)[guesses]

    def constant(self, game: Wordle, base: float) -> np.ndarray:
        """Values of every guess computed on the full answer list, for a state offering `base`."""
        if game.words.checksum not in self._constant:
            stats = self.stats(game, game.all_answers, game.all_guesses)
            self._constant[game.words.checksum] = self.from_stats(stats, 0.0)
        return self._constant[game.words.checksum] + base

    def stats(self, game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> PartitionStats:
        """Partition statistics of the guesses over the candidates."""
        return partition_stats(game.matrix, candidates, guesses, answer_rows=game.words.answer_rows)

    @abstractmethod
    def from_stats(self, stats: PartitionStats, base: float) -> np.ndarray:
        """Values from partition statistics, for a state offering `base`."""

    @abstractmethod
    def neutral(self, base: float) -> float:
        """The value every guess gets in zero mode (a score of 0)."""


class Weighted(Evaluation):
    """w_e entropy + w_g greens + w_y yellows + w_r greys, normalised and placed below exact play."""

    def __init__(self, name: str, weights: tuple[float, float, float, float], mode: str = "local",
                 threshold: int = DEFAULT_THRESHOLD):
        super().__init__(mode, threshold)
        self.name = name
        self.weights = check_weights(weights)

    @property
    def key(self) -> tuple:
        """Name, mode, threshold and weights."""
        return (*super().key, self.weights)

    def scores(self, stats: PartitionStats) -> np.ndarray:
        """The raw weighted score of each guess."""
        w_e, w_g, w_y, w_r = self.weights
        return w_e * stats.entropy + w_g * stats.greens + w_y * stats.yellows + w_r * stats.greys

    def bound(self, size: int) -> float:
        """The most the score can be over `size` answers."""
        w_e, w_g, w_y, w_r = self.weights
        return w_e * math.log2(max(2, min(size, PATTERN_COUNT))) + _LETTERS * (w_g + w_y + w_r)

    def from_stats(self, stats: PartitionStats, base: float) -> np.ndarray:
        """base - 2 + score / bound: between needing three more guesses and needing two."""
        return base - 2.0 + self.scores(stats) / self.bound(stats.size)

    def neutral(self, base: float) -> float:
        """base - 2."""
        return base - 2.0


class Cost(Evaluation):
    """base + 1 - expected guesses still needed after the guess, from the fitted cost-to-go F."""

    name = "cost"

    def __init__(self, mode: str = "local", model: CostModel = FITTED, threshold: int = DEFAULT_THRESHOLD):
        super().__init__(mode, threshold)
        self.model = model
        self._table = cost_table(1, model)

    @property
    def key(self) -> tuple:
        """Name, mode, threshold and the model's coefficients."""
        return (*super().key, self.model)

    def table(self, size: int) -> np.ndarray:
        """F(0 .. size), grown on demand."""
        if len(self._table) <= size:
            self._table = cost_table(max(size, 2 * len(self._table)), self.model)
        return self._table

    def stats(self, game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> PartitionStats:
        """Partition statistics with the sum of b * F(b) over each guess's bins."""
        return to_go_stats(game.matrix, candidates, guesses, game.words.answer_rows, self.table(len(candidates)))

    def from_stats(self, stats: PartitionStats, base: float) -> np.ndarray:
        """base + 1 - expected guesses still needed."""
        return base + 1.0 - guesses_to_go(stats)

    def neutral(self, base: float) -> float:
        """base - 2, as for the heuristic evaluations."""
        return base - 2.0


def check_weights(weights: tuple[float, ...] | list[float]) -> tuple[float, float, float, float]:
    """Four finite, non-negative weights, not all zero, as a tuple; ValueError otherwise."""
    values = tuple(float(w) for w in weights)
    if len(values) != 4:
        raise ValueError(f"weights need four numbers (entropy, greens, yellows, greys), got {len(values)}")
    if any(not math.isfinite(w) or w < 0 for w in values):
        raise ValueError("weights must be finite and not negative")
    if not any(values):
        raise ValueError("at least one weight must be above zero")
    return values  # type: ignore[return-value]


#: Evaluation factories by name: factory(mode, weights, threshold) -> Evaluation.
EVALUATIONS: dict[str, Callable[[str, tuple[float, float, float, float] | None, int], Evaluation]] = {
    "weighted": lambda mode, weights, threshold: Weighted("weighted", weights or DEFAULT_WEIGHTS, mode, threshold),
    "entropy": lambda mode, weights, threshold: Weighted("entropy", (1.0, 0.0, 0.0, 0.0), mode, threshold),
    "greens": lambda mode, weights, threshold: Weighted("greens", (0.0, 1.0, 0.0, 0.0), mode, threshold),
    "yellows": lambda mode, weights, threshold: Weighted("yellows", (0.0, 0.0, 1.0, 0.0), mode, threshold),
    "greys": lambda mode, weights, threshold: Weighted("greys", (0.0, 0.0, 0.0, 1.0), mode, threshold),
    "cost": lambda mode, weights, threshold: Cost(mode, threshold=threshold),
}


def make_evaluation(name: str, mode: str = "local", weights: tuple[float, ...] | None = None,
                    threshold: int = DEFAULT_THRESHOLD) -> Evaluation:
    """The evaluation called `name` in `mode`; weights apply only to "weighted"; the threshold to local mode.

    Raises:
        ValueError: an unknown name or mode, bad weights, weights for another evaluation, or a threshold below 1.
    """
    if name not in EVALUATIONS:
        raise ValueError(f"unknown evaluation '{name}'; choose one of {', '.join(EVALUATIONS)}")
    if weights is not None and name != "weighted":
        raise ValueError(f"weights apply only to the weighted evaluation, not '{name}'")
    return EVALUATIONS[name](mode, None if weights is None else check_weights(weights), threshold)
