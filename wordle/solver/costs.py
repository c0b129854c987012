"""What a tree costs the Guesser, packed into one integer (lower is better), under each objective.

Each guess an answer needs costs SCALE, and a game that needs more than LONG_GAME guesses costs 1 more, so
comparing costs compares (total guesses, games over 5) in that order. The objectives (`Objective`) put one more
criterion in front, in units of FIRST:

* total: every answer must be solved within the guess limit (a set where no tree does costs INFEASIBLE); then
  (total guesses, games over 5).
* losses: (answers not solved within the limit, total guesses, games over 5), a lost answer costing
  max_guesses + 1 guesses; every set has a finite cost.
* worst: (the most guesses any answer needs, total guesses, games over 5): the least limit under which a
  total-objective tree exists, then that tree (one total-objective solver per limit tried).

`Objective.unpack` reads a packed cost back; `Costs` says what one answer, one set and one step cost under a
guess limit and an objective.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

#: One guess costs SCALE; a game over LONG_GAME guesses costs one more.
SCALE = 4096
LONG_GAME = 5
#: One unit of the criterion an objective puts first: a lost answer (losses) or a guess of the worst case (worst).
FIRST = 1 << 32
#: The cost of a sub-problem no tree solves within its guesses (total objective).
INFEASIBLE = 1 << 60
#: The bound given to a guess never worth trying (above any real bound, small enough to sort by in 64 bits).
NEVER = 1 << 46
#: "No cap" for the compiled passes' work counters and ceilings (far above any count, and within 64 bits).
NO_ROOM = 1 << 62
#: "No limit known" in the win memory (more guesses than any game has).
NO_LIMIT = 1 << 20


class Objective(str, enum.Enum):
    """What a tree is optimal for; each compares packed costs, lower is better."""

    TOTAL = "total"  # every answer within the limit, then fewest total guesses, then fewest games over 5
    LOSSES = "losses"  # fewest answers lost, then fewest total guesses (a loss costs max_guesses + 1)
    WORST = "worst"  # the least maximum number of guesses, then fewest total guesses

    def unpack(self, cost: int) -> "Outcome":
        """A packed cost of this objective read back.

        >>> Objective.LOSSES.unpack(2 * FIRST + 8206 * SCALE + 3)
        Outcome(losses=2, total=8206, long_games=3, worst=None)
        >>> Objective.WORST.unpack(5 * FIRST + 7920 * SCALE)
        Outcome(losses=0, total=7920, long_games=0, worst=5)
        """
        if self is Objective.TOTAL:
            return Outcome(0, cost // SCALE, cost % SCALE, None)
        first, rest = divmod(cost, FIRST)
        if self is Objective.LOSSES:
            return Outcome(first, rest // SCALE, rest % SCALE, None)
        return Outcome(0, rest // SCALE, rest % SCALE, first)


class Outcome(NamedTuple):
    """A tree's answers lost, total guesses (a loss counted as max_guesses + 1), games over 5, and worst case.

    worst is only known (not None) under the worst objective.
    """

    losses: int
    total: int
    long_games: int
    worst: int | None


def unpack(cost: int) -> tuple[int, int]:
    """(total guesses, games over 5) of a packed total-objective cost (Objective.unpack reads every objective's).

    >>> unpack(7920 * SCALE + 3)
    (7920, 3)
    """
    return cost // SCALE, cost % SCALE


class Costs:
    """What answers pay under one guess limit, long-game threshold and objective (total or losses).

    Args:
        max_guesses: the guess limit.
        long_game: games needing more guesses than this count as long (the last criterion).
        losses: the losses objective (a lost answer has a finite cost), else the total objective's INFEASIBLE.
    """

    __slots__ = ("max_guesses", "long_game", "losses")

    def __init__(self, max_guesses: int, long_game: int, losses: bool) -> None:
        self.max_guesses, self.long_game, self.losses = max_guesses, long_game, losses

    def hit(self, left: int) -> int:
        """What an answer pays for the guess that solves it, made with `left` guesses to go."""
        number = self.max_guesses - left + 1
        return SCALE + (number > self.long_game)

    def lost(self, left: int) -> int:
        """What an answer lost at a node with `left` guesses to go pays (losses objective): those guesses,
        one more (a loss counts max_guesses + 1 in all), and the loss itself."""
        return FIRST + (left + 1) * SCALE + (self.max_guesses + 1 > self.long_game)

    def floor(self, size: int, left: int) -> int:
        """A lower bound on any set of `size` answers with `left` guesses to go: one solved now, the rest next.

        Exact where no choice is left: no guess (all lost), one guess (one solved, the rest lost), one answer.
        """
        if left < 1:
            return size * self.lost(0) if self.losses else INFEASIBLE
        if size == 1:
            return self.hit(left)
        if left == 1:
            return self.hit(1) + (size - 1) * self.lost(1) if self.losses else INFEASIBLE
        return size * SCALE + self.hit(left) - SCALE + (size - 1) * self.hit(left - 1)

    def step_costs(self, left: int) -> tuple[int, int, int]:
        """What the one-step bound charges beyond SCALE: the answer this guess solves, the next one, a later one.

        Everyone pays this guess; a reply's m answers need at least 2m - 1 more (`floor`); with two
        guesses left, the answers a guess does not tell apart are lost (losses) or the guess is useless (total).
        """
        later = self.lost(0) - SCALE if self.losses and left == 2 else self.hit(left - 2) - SCALE
        return self.hit(left) - SCALE, self.hit(left - 1) - SCALE, later

    def peak_floor(self, size: int, left: int, peak: int) -> int:
        """A lower bound on a set of `size` answers with `left` (at least 2) guesses to go when no guess gets more
        than `peak` different replies from it: the one-step bound of a guess with that many, one of them all green,
        as `ceiling_least_bound` reads it (Selby's bound for a set bigger than the most replies of any guess)."""
        hit_now, hit_next, hit_later = self.step_costs(left)
        top = min(size, peak)
        return (3 * size - 1 - top) * SCALE + hit_now + (top - 1) * hit_next + (size - top) * hit_later
