"""Answer sets proved lost, kept to prove bigger sets lost at once.

A set of answers is lost within `left` guesses when no tree solves every one of them within that many.
Losing is monotone. A set that holds a lost set (a core) is lost too, with no more guesses to go and no
guess legal that the core's proof did not allow: a tree winning the bigger set would win the core, and its
guesses would be legal there, since hard mode's demands only add up (the guesses legal after a reply are
those legal before it that also meet the reply's demands).

A proof that a set is lost refutes each legal guess by one reply that cannot be won; the union of those
replies' cores is lost under the same legal guesses (`WinProver.can_win` builds it). It is often far smaller
than the set: in hard mode, after an opener ending in -ER, one family (-ATER, -OWER, -IVER words) is the
trap, whatever else the reply holds, so the core proved for one opener's reply is found in the next one's.
"""

from __future__ import annotations

import collections

import numpy as np

#: The most cores kept (each costs two integer tests per query; a new one past it forgets the oldest). One -ER
#: opener's no-win proof in hard mode keeps about 150; the cores hoisted under the hints before a guess
#: (`WinProver.hoist`) pay when they outlive several openers.
CORES_KEPT = 1024
#: The most queries' legal guesses whose groups are remembered (then forgotten all together).
QUERIES_KEPT = 4096


def bits(indices: np.ndarray, count: int) -> int:
    """The indices (each below `count`) as one integer's bits."""
    mask = np.zeros(count, dtype=bool)
    mask[indices] = True
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


class LostCores:
    """Cores proved lost within some guesses under some legal guesses, and the query for a set that holds one.

    Cores are grouped by their legal guesses (a proof's sets share a few), so a query tests its own legal
    guesses against each group once, and remembers which groups those were until a group is added or emptied.

    Args:
        answers: how many answers the game has (the cores' indices are below it).
        kept: the most cores remembered.
    """

    def __init__(self, answers: int, kept: int = CORES_KEPT) -> None:
        self.answers = answers
        self.kept = kept
        self.groups: dict[int, list[tuple[int, int, int, np.ndarray]]] = {}  # legal bits -> (left, size, bits, core)
        self.order: collections.deque[tuple[int, tuple[int, int, int, np.ndarray]]] = collections.deque()
        self.within: dict[int, list[list[tuple[int, int, int, np.ndarray]]]] = {}  # query's legal -> groups allowed

    def __len__(self) -> int:
        return len(self.order)

    def clear(self) -> None:
        self.groups.clear()
        self.order.clear()
        self.within.clear()

    def add(self, core: np.ndarray, legal: int, left: int) -> None:
        """Remember `core` (answer indices) as lost within `left` guesses when only the guesses in `legal` (bits)
        may be played."""
        if len(self.order) >= self.kept:
            oldest, entry = self.order.popleft()
            group = self.groups[oldest]
            del group[next(place for place, kept in enumerate(group) if kept is entry)]
            if not group:
                del self.groups[oldest]
                self.within.clear()
        entry = (left, len(core), bits(core, self.answers), core)
        if legal not in self.groups:
            self.groups[legal] = []
            self.within.clear()
        self.groups[legal].append(entry)
        self.order.append((legal, entry))

    def find(self, answers: np.ndarray, legal: int, left: int) -> np.ndarray | None:
        """A remembered core inside `answers` that proves it lost within `left` guesses under the guesses in
        `legal` (bits), or None."""
        groups = self.within.get(legal)
        if groups is None:
            if len(self.within) >= QUERIES_KEPT:
                self.within.clear()
            groups = self.within[legal] = [group for core_legal, group in self.groups.items()
                                           if not legal & ~core_legal]
        size, held = len(answers), None
        for group in groups:
            for core_left, core_size, core, indices in group:
                if core_left < left or core_size > size:
                    continue
                if held is None:
                    held = bits(answers, self.answers)
                if not core & ~held:
                    return indices
        return None
