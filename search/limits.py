"""What a search may spend (one frozen Limit), what it returns (a SearchResult), what it asks of an evaluation,
and the one overrun signal (BudgetSpent) with the budget of an exact search (Budget).

Values are from the maximiser's point of view, higher is better, on the scale of the game's
`utility`. How a game is searched (which moves a node weighs, how far its beam widens, where
it searches to the end) is not a limit: it is the game's own strategy, read by its policies.

>>> Limit(depth=2, nodes=500).depth
2
>>> Limit(depth=0)
Traceback (most recent call last):
...
ValueError: depth must be at least 1, got 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Protocol

import numpy as np

from .game import StateIn


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
    node budget, `Limit.stop`; a game's exact solver past its `Budget`'s nodes or seconds)."""

    def __init__(self, nodes: int, spent: str = "node budget"):
        """Say what ran out (`spent`: the node budget, the time cap) and how many nodes the search had visited."""
        super().__init__(f"the {spent} ran out after {nodes} nodes")
        self.nodes, self.spent = nodes, spent


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        move: the maximiser's move to play.
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


class Evaluator(Protocol[StateIn]):
    """What the search needs of an evaluation of a game's states: the maximiser's moves valued at the horizon.

    Its settings (a threshold, say) are its own: the search passes only the game, the state and the moves.
    """

    @property
    def key(self) -> tuple[Hashable, ...]:
        """What the evaluation's values depend on besides the state (rankings kept under one key are its)."""
        ...

    @property
    def random_ties(self) -> bool:
        """Whether equal values are ordered by a seeded generator (the search then needs one) rather than by index."""
        ...

    def values(self, game: Any, state: StateIn, moves: np.ndarray) -> np.ndarray:
        """Values of `moves` at a maximiser's state, one array for all of them.

        `game` is the game searched, handed through as it is: an evaluation is written for one game
        and reads what that game offers beyond the protocol (tables of its own), a type
        the protocol cannot name, so it is Any here and each evaluation names its own.
        """
        ...


@dataclass(frozen=True)
class Budget:
    """What one run of an exact search may spend: counted work (nodes) and wall seconds.

    Counted work makes the result the same on any machine, idle or loaded; the seconds are only
    a safety cap that stops a search running too long, and a result it cut should say so.
    None: no limit of that kind.

    >>> Budget(nodes=300, seconds=30).describe()
    '300 nodes (30 s cap)'
    """

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        """Refuse a budget no run can spend."""
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"a budget's nodes must be at least 1, got {self.nodes}")

    def describe(self) -> str:
        """The budget in words: '300 nodes (30 s cap)', '300 nodes', '5 s cap', 'no limit'."""
        work = f"{self.nodes:,} nodes" if self.nodes is not None else ""
        cap = f"{self.seconds:g} s cap" if self.seconds is not None else ""
        if work and cap:
            return f"{work} ({cap})"
        return work or cap or "no limit"
