"""What a search may spend (one frozen Limit), what it returns (a SearchResult), and what it asks of an evaluation.

Values are from the maximiser's point of view, higher is better (in Wordle, the Guesser's,
on the scale of `Wordle.utility`). How a game is searched (Wordle's beam, pool, widening,
endgame and opening) is not a limit: it is the game's own strategy, read by its policies.

>>> Limit(depth=2, nodes=500).depth
2
>>> Limit(depth=0)
Traceback (most recent call last):
...
ValueError: depth must be at least 1, got 0
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from .game import Game


@dataclass(frozen=True)
class Limit:
    """What one search may spend.

    Attributes:
        depth: maximiser moves looked ahead; depth 1 values each move by the evaluation alone.
        nodes: node budget: once this many nodes are visited, unexpanded maximiser nodes
            are valued by the evaluation as at the horizon (None: no budget).
        stop: with a node budget, a search that needs more than `nodes` nodes stops (it
            raises BudgetSpent) instead of valuing the rest at the horizon; one that needs
            no more returns what the search without a budget returns.
    """

    depth: int = 2
    nodes: int | None = None
    stop: bool = False

    def __post_init__(self) -> None:
        """Refuse a limit no search can run under."""
        if self.depth < 1:
            raise ValueError(f"depth must be at least 1, got {self.depth}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"the node budget must be at least 1, got {self.nodes}")

    @property
    def keeps_values(self) -> bool:
        """Whether the values a search finds are whole: no budget, or one that stops the search when spent."""
        return self.nodes is None or self.stop

    def overrun(self, nodes: int) -> bool:
        """Whether a stopping budget is overrun once `nodes` nodes are visited."""
        return self.stop and self.nodes is not None and nodes > self.nodes

    def horizon_now(self, nodes: int) -> bool:
        """Whether a soft budget is spent once `nodes` nodes are visited (further nodes are valued at the horizon)."""
        return not self.stop and self.nodes is not None and nodes >= self.nodes


class BudgetSpent(Exception):
    """The one overrun signal: a search spent its budget before it finished (the engine's searches under a stopping
    node budget, `Limit.stop`; Wordle's exact solver past its node limit or its deadline)."""

    def __init__(self, nodes: int, spent: str = "node budget"):
        """Say what ran out (`spent`: the node budget, the time cap) and how many nodes the search had visited."""
        super().__init__(f"the {spent} ran out after {nodes} nodes")
        self.nodes, self.spent = nodes, spent


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        move: the move (in Wordle, the guess index) to play.
        value: its value on the utility scale.
        nodes: nodes visited (maximiser and opponent nodes; a cache hit counts as one).
        depth: the deepest maximiser level reached, the root being 1 (a node answered from
            the cache counts the levels its own search reached).
        alternatives: (move, value) of the moves weighed at the root, best first,
            `move` included. Alpha-beta's values other than the move's are upper bounds.
        budget_reached: whether the node budget (`Limit.nodes`) ran out, so that some
            nodes were valued at the horizon before the depth asked for.
    """

    move: int
    value: float
    nodes: int
    depth: int
    alternatives: tuple[tuple[int, float], ...] = ()
    budget_reached: bool = False


class Evaluator(Protocol):
    """What the search needs of an evaluation (heuristics.evaluation implements it for Wordle).

    Its settings (Wordle's indication threshold, say) are its own: the search passes only the state.
    """

    key: tuple
    random_ties: bool

    def values(self, game: Game, state: Any, moves: np.ndarray) -> np.ndarray:
        """Values of `moves` at a maximiser's state, one array for all of them."""
        ...


#: Node counts --budget reads with a suffix (either case): 5000, 200k, 1.5M.
NODE_SUFFIXES = {"": 1, "k": 1_000, "m": 1_000_000}
#: Time units --budget reads as a safety cap: 500ms, 5s.
TIME_UNITS = {"ms": 0.001, "s": 1.0}
#: The range --budget accepts: nodes, and seconds for a cap.
MOST_BUDGET_NODES = 1_000_000_000
LEAST_BUDGET_SECONDS = 0.001
MOST_BUDGET_SECONDS = 86_400.0


@dataclass(frozen=True)
class Budget:
    """What one run may spend: counted work (solver nodes for a valuation, episodes for a learner's training) and
    wall seconds.

    Counted work makes the result the same on any machine, idle or loaded. For a valuation the seconds are
    only a safety cap that stops a search running too long, and a result it cut says so
    (`wordle.valuation.Valuation.capped`); for training they are the run's length (`done`: whichever
    limit comes first). None: no limit of that kind.

    >>> Budget(nodes=300, seconds=30).nodes, Budget(episodes=100, seconds=90).minutes
    (300, 1.5)
    """

    nodes: int | None = None
    seconds: float | None = None
    episodes: int | None = None

    def __post_init__(self) -> None:
        """Refuse a budget no run can spend."""
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"a budget's nodes must be at least 1, got {self.nodes}")
        if self.episodes is not None and self.episodes < 1:
            raise ValueError(f"a budget's episodes must be at least 1, got {self.episodes}")

    @property
    def minutes(self) -> float | None:
        """The seconds in minutes (how training budgets are typed), or None."""
        return None if self.seconds is None else self.seconds / 60

    def describe(self) -> str:
        """The budget in words: '300 nodes (30 s cap)', '5 s cap', '1,000 episodes', 'no limit'."""
        work = [f"{self.nodes:,} nodes" if self.nodes is not None else "",
                f"{self.episodes:,} episodes" if self.episodes is not None else ""]
        parts = [" and ".join(part for part in work if part), f"{self.seconds:g} s cap" if self.seconds is not None else ""]
        if all(parts):
            return f"{parts[0]} ({parts[1]})"
        return next((part for part in parts if part), "no limit")

    def done(self, episodes: int, started: float) -> bool:
        """Whether a training run that began at `started` (time.monotonic) has spent it, `episodes` trained in all."""
        if self.episodes is not None and episodes >= self.episodes:
            return True
        return self.seconds is not None and time.monotonic() - started >= self.seconds

    def fraction(self, episodes: int, started: float, first: int) -> float:
        """How much of a training budget is spent, 0 to 1, by whichever limit is nearer (a progress bar, a schedule)."""
        spent = 0.0
        if self.episodes is not None:
            spent = (episodes - first) / max(1, self.episodes - first)
        if self.seconds is not None:
            spent = max(spent, (time.monotonic() - started) / max(1e-9, self.seconds))
        return min(1.0, spent)


def parse_budget(text: str) -> Budget:
    """A budget as typed: nodes (`5000`, `200k`, `1.5M`) or a safety cap in seconds (`5s`, `500ms`).

    Raises:
        ValueError: anything else: another unit, a value outside 1 to 1,000,000,000 nodes or 1 ms to
            86,400 s, a sign, an exponent, or digits that are not ASCII (one line naming the forms).

    >>> parse_budget("1.5M"), parse_budget("500ms")
    (Budget(nodes=1500000, seconds=None, episodes=None), Budget(nodes=None, seconds=0.5, episodes=None))
    """
    problem = ValueError(f"'{text}' is not a budget: write nodes (5000, 200k, 1.5M: 1 to 1000M) or a time cap "
                         "(500ms, 5s: 1ms to 86400s)")
    cleaned = text.strip().lower()
    number = cleaned.rstrip("kms")
    unit = cleaned[len(number):]
    digits = number.replace(".", "", 1)
    if not (cleaned.isascii() and digits.isdigit()) or unit not in (*TIME_UNITS, *NODE_SUFFIXES):
        raise problem
    amount = float(number)
    if unit in TIME_UNITS:
        seconds = amount * TIME_UNITS[unit]
        if not LEAST_BUDGET_SECONDS <= seconds <= MOST_BUDGET_SECONDS:
            raise problem
        return Budget(seconds=seconds)
    nodes = amount * NODE_SUFFIXES[unit]
    if nodes != int(nodes) or not 1 <= nodes <= MOST_BUDGET_NODES:
        raise problem
    return Budget(nodes=int(nodes))
