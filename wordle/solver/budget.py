"""What a solver may consider and spend, and what it has spent.

`Limits` is fixed when a solver is made (every guess or the best few, the memory's size); `Spending` holds what the
caller may change between searches (a deadline, a node limit, a progress report) and the running `Stats`. The
branch and bound, the bound passes and the win prover share one `Spending`: every set any of them searches counts
as a node, and each checks the same deadline and node limit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from search.limits import BudgetSpent
from .costs import NO_ROOM

#: The compiled three-guess checks' work (patterns read, win or cost) worth one set searched (about one pass of a few
#: thousand guesses over a few answers).
SHORT_NODE = 20_000


@dataclass(frozen=True)
class Limits:
    """What the solver may consider.

    Attributes:
        top: None to consider every allowed guess at every node (the total is then a
            proof), or the best `top` guesses of each node by their bound (an upper bound).
        memo: most sub-problems remembered at once.
    """

    top: int | None = None
    memo: int = 4_000_000

    def __post_init__(self) -> None:
        if self.top is not None and self.top < 1:
            raise ValueError(f"top must be at least 1, got {self.top}")


@dataclass
class Stats:
    """What a solve has done so far (progress reports read it)."""

    nodes: int = 0
    memo_hits: int = 0
    forgotten: int = 0
    remembered: int = 0
    best: int | None = None
    bound: int = 0
    replies: int = 0
    replies_done: int = 0
    short_work: int = 0  # patterns the compiled three-guess checks read (the win checks and the cost search)
    endgame_cuts: int = 0  # sets proved lost by an endgame (wordle.solver.endgames)
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        """Time since the solve began."""
        return time.perf_counter() - self.started


class Spending:
    """A search's running statistics and what it may still spend: a deadline and a node limit, checked at every set.

    Attributes:
        stats: what has been done (nodes counts the sets searched, the compiled checks' work included).
        deadline: time.perf_counter() past which a search raises BudgetSpent (None: none).
        node_limit: stats.nodes past which a search raises BudgetSpent (None: none).
        report: called with the stats every 64 nodes of the branch and bound (None: nothing).
    """

    __slots__ = ("stats", "deadline", "node_limit", "report")

    def __init__(self) -> None:
        self.stats = Stats()
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.report: Callable[[Stats], None] | None = None

    def check(self) -> None:
        """BudgetSpent (the engine's one overrun signal) once the deadline or the node limit has passed; the memory
        then holds only finished sub-problems."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetSpent(self.stats.nodes, "time cap")
        if self.node_limit is not None and self.stats.nodes > self.node_limit:
            raise BudgetSpent(self.stats.nodes)

    def count_work(self, work: int) -> None:
        """Count the compiled checks' `work` (patterns read), and the nodes it is worth (SHORT_NODE each)."""
        self.stats.short_work += work
        self.stats.nodes += work // SHORT_NODE

    def short_room(self) -> int:
        """The patterns a compiled three-guess search may still read under the node limit (NO_ROOM without one)."""
        return NO_ROOM if self.node_limit is None else max(0, self.node_limit - self.stats.nodes + 1) * SHORT_NODE
