"""The transposition table: values of searched nodes, kept by (state key, depth), with bound flags.

Values are from the maximising player's point of view, higher is better.
A search cut short by alpha-beta learns only a bound: a node whose value came out at or
below its alpha is worth at most that (UPPER), one at or above its beta at least that
(LOWER). A bound answers a later visit only when it settles that visit's window as well;
an EXACT value answers every visit.

>>> table = TranspositionTable()
>>> table.store("s", 2, Entry(3.0, move=7, below=1), alpha=3.0, beta=9.0)
>>> table.probe("s", 2, alpha=4.0, beta=9.0).value, table.probe("s", 2, alpha=1.0, beta=9.0)
(3.0, None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Hashable

EXACT, LOWER, UPPER = "exact", "lower", "upper"


@dataclass(frozen=True)
class Entry:
    """One searched node.

    Attributes:
        value: its value, or the bound its flag says.
        move: the best move found.
        below: how many levels the search went below the node.
        risk: the chance of a loss under its best move (expectimax; 0 otherwise).
        flag: EXACT, LOWER (value is a lower bound) or UPPER (an upper bound).
    """

    value: float
    move: int
    below: int = 0
    risk: float = 0.0
    flag: str = EXACT


class TranspositionTable:
    """Entries by (key, depth): a node searched `depth` deep is answered only for that depth."""

    def __init__(self) -> None:
        self.entries: dict[tuple[Hashable, int], Entry] = {}

    def __len__(self) -> int:
        """How many entries are kept."""
        return len(self.entries)

    def probe(self, key: Hashable, depth: int, alpha: float, beta: float) -> Entry | None:
        """The entry for (key, depth) when it settles the window (alpha, beta), else None."""
        entry = self.entries.get((key, depth))
        if entry is None:
            return None
        if entry.flag == EXACT or (entry.flag == LOWER and entry.value >= beta) \
                or (entry.flag == UPPER and entry.value <= alpha):
            return entry
        return None

    def store(self, key: Hashable, depth: int, entry: Entry, alpha: float, beta: float) -> None:
        """Keep a node's result, flagged by where its value fell against the window it was searched with."""
        flag = UPPER if entry.value <= alpha else LOWER if entry.value >= beta else EXACT
        self.entries[(key, depth)] = replace(entry, flag=flag)
