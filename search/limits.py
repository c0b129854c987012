"""What a search may spend (one frozen Limit) and what it returns (a SearchResult).

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility`: solving with guess k is worth max_guesses + 1 - k, a lost game 0.

>>> Limit(depth=2, beam=8).depth
2
>>> Limit(beam=0)
Traceback (most recent call last):
...
ValueError: beam must be at least 1, got 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .game import State, Wordle


@dataclass(frozen=True)
class Limit:
    """The budget of one search.

    Attributes:
        depth: Guesser moves looked ahead; depth 1 values each guess by the evaluation alone.
        beam: how many of the best-valued guesses are expanded at each Guesser node.
        threshold: the indication threshold handed to the evaluation (local mode only).
        nodes: node budget: once this many nodes are visited, unexpanded Guesser nodes
            are valued by the evaluation as at the horizon (None: no budget).
        pool: below the root, the guesses valued at a node are its possible answers plus
            the `pool` guesses the evaluation values best on the full answer list.
    """

    depth: int = 2
    beam: int = 10
    threshold: int = 100
    nodes: int | None = None
    pool: int = 300

    def __post_init__(self) -> None:
        """Refuse a limit no search can run under."""
        for name in ("depth", "beam", "threshold", "pool"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"the node budget must be at least 1, got {self.nodes}")


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        move: the guess index to play.
        value: its value on the utility scale.
        nodes: nodes visited (Guesser and Indicator nodes; a cache hit counts as one).
        depth: the deepest Guesser level reached, the root being 1.
        alternatives: (guess, value) of the guesses weighed at the root, best first,
            `move` included. Alpha-beta's values other than the move's are upper bounds.
    """

    move: int
    value: float
    nodes: int
    depth: int
    alternatives: tuple[tuple[int, float], ...] = ()


class Evaluator(Protocol):
    """What the search needs of an evaluation (heuristics.evaluation implements it)."""

    key: tuple
    random_ties: bool

    def values(self, game: Wordle, state: State, guesses: np.ndarray, threshold: int) -> np.ndarray:
        """Values of `guesses` at a Guesser state with 3 or more answers and 2 or more guesses left."""
        ...
