"""The bound passes of one solver: lower bounds on a set, on each guess there, and on every tree opening with a guess.

* Bounds for every guess at once (`bounds`): a guess that splits n answers into b non-green replies (and is
  itself one of them, s = 1, or not, s = 0) needs at least 3n - 2s - b guesses in all (`wordle.solver.bounds`),
  read in one compiled pass (`wordle.solver.kernels`); the guesses come back best first.
* The least bound over a set (`least_bound`): a big set is read only for the guesses whose ceiling on their
  replies still allows a lower bound; a big set's replies take their ceilings from the set and from its parts
  (`Parts`), and are first bounded by those ceilings alone (`Costs.peak_floor`, Selby's bound for a set bigger
  than the most replies any guess gets).
* A guess's bound (`guess_bound`): its replies' bounds summed, each the remembered one where better; before a
  guess's replies are searched, each reply of at least SHARPEN_FROM answers gets its own least bound in place
  of 2m - 1 (`sharpen`), largest first, stopping once the total reaches the budget.

Every bound here is proved (a tree's cost is at least it), and every bound the passes remember is at least the
one-step bound of its set.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..feedback import ALL_GREEN
from ..game import Wordle
from ..hardmode import Hints, extend_hints
from ..replies import partition
from . import bounds as references
from .bounds import PAIRWISE_READS, PAIRWISE_UP_TO, LetterTables, letter_tables, transposed
from .budget import Limits, Spending
from .costs import FIRST, INFEASIBLE, NEVER, NO_ROOM, SCALE, Costs, Objective
from .kernels import fast_parts, lazy_ceiling_least_bound, lazy_least_bound, lazy_lower_bounds
from .memory import Memory
from .parts import Parts

#: Replies of at least this many answers get their one-step bound before they are searched.
#: 6 rather than 10 since 2026-11-27: hard-mode positions after a poor opener took 15% less CPU
#: (FUZZY, MUMMY, QUILL, BACCY, DEEDS: 62.2 -> 53.1 s), normal mode and slices of both all-opener jobs the same.
SHARPEN_FROM = 6
#: Only a set of at least this many answers, and not the whole list, lends its replies ceilings: a pass over it,
#: repaid by the many replies of a big position's root; the whole list's ceilings are too loose to repay it
#: (measured: 200 normal-mode openers of the job, 4.8 s of CPU without, 5.6 s with).
CEILINGS_FROM = 700
#: Hard mode: a reply's hints not built yet (`BoundPasses.known_floor`); `BoundPasses.reply_hints` builds them.
PENDING = Hints(fixed=((-1, "?"),))


class BoundPasses:
    """The lower bounds one solver searches by, over one game, mode, objective and memory.

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode's rule binds every guess after the first.
        limits: every guess (a proof) or the best `top` at each node.
        costs: what answers pay under the guess limit and objective.
        objective: the objective (the worst objective's costs are not sums over replies: no `guess_bound`).
        memory: the solver's memory (remembered bounds, legal guesses, ceilings, parts).
        spending: the budget checked, and the statistics kept, as the passes go.
        dead_letters: in normal mode, leave out the guesses the dead-letter rule makes redundant (`dominated`).
        ultra: ultra-hard mode's rule binds every guess after the first (its hints are `wordle.ultra.Possible`;
            `hard` then reads "some rule binds").
    """

    def __init__(self, game: Wordle, hard: bool, limits: Limits, costs: Costs, objective: Objective, memory: Memory,
                 spending: Spending, dead_letters: bool = True, ultra: bool = False) -> None:
        self.game, self.hard, self.limits, self.costs, self.memory = game, hard or ultra, limits, costs, memory
        self.ultra = ultra
        self.objective, self.losses, self.spending = objective, objective is Objective.LOSSES, spending
        self.matrix = game.matrix
        self.columns = transposed(game)
        self.words = game.words.guesses
        self.letters = (game.guess_letters[game.words.answer_rows], game.guess_letters)  # per answer, per guess
        # normal mode: guesses the dead-letter rule makes redundant are left out of bounds and search (`dominated`);
        # values are unchanged, but where a left-out guess ties the best the tree may name another guess, so a
        # solver whose tree must stay the published one (the optimal agent) is made with dead_letters=False
        self.tables: LetterTables | None = None if self.hard or not dead_letters else letter_tables(game)
        self.lower_bounds: Callable[..., tuple[np.ndarray, np.ndarray]] = lazy_lower_bounds
        self.least_lower_bound: Callable[..., int] = lazy_least_bound
        self.ceiling_least_bound: Callable[..., int] = lazy_ceiling_least_bound
        self.features_of, self.least_of_rows = fast_parts()  # Parts' helpers, compiled where numba is
        self.sharpen_from = SHARPEN_FROM

    def allowed(self, hints: Hints | None) -> np.ndarray:
        """Guess indices the Guesser may play under these hints (the memory's, read-only)."""
        return self.memory.allowed(hints)

    def reply_hints(self, hints: Hints | None, guess: int, code: int) -> Hints | None:
        """The hints a reply is solved under: its parent's and this step's (hard mode; in ultra-hard mode the guesses
        still possible), else None."""
        if self.ultra:
            return self.game.narrowing.after(hints, guess, code)
        return extend_hints(hints or Hints(), self.words[guess], code) if self.hard else None

    # -- one step --------------------------------------------------------------------------------
    def bounds(self, answers: np.ndarray, left: int, hints: Hints | None,
               budget: int = INFEASIBLE) -> tuple[np.ndarray, np.ndarray, int]:
        """The guesses worth trying whose lower bound is below `budget`, best first, and the least bound of the rest.

        Ties go to a guess that can be the answer, then to the lower index. With `Limits.top`
        only the best `top` guesses count at all.

        Returns:
            (guesses, their lower bounds, the least lower bound among the other guesses
            considered, INFEASIBLE if none).
        """
        guesses = self.memory.allowed(hints)
        lower, hits = self.lower_bounds(self.columns, guesses, answers, self.costs.step_costs(left),
                                        left == 2 and not self.losses, self.tables)
        count = len(guesses)
        order_key = lower * (2 * count) + (1 - hits) * count + np.arange(count)
        considered = None
        if self.limits.top is not None and self.limits.top < count:
            considered = np.argpartition(order_key, self.limits.top - 1)[:self.limits.top]
        limit = min(budget, NEVER)
        if considered is None:
            within = np.flatnonzero(lower < limit)
            rest = lower[lower >= limit]
        else:
            within = considered[lower[considered] < limit]
            rest = lower[considered][lower[considered] >= limit]
        floor = int(rest.min()) if rest.size else INFEASIBLE
        within = within[np.argsort(order_key[within])]
        return guesses[within], lower[within], INFEASIBLE if floor >= NEVER else floor

    def least_bound(self, answers: np.ndarray, left: int, hints: Hints | None,
                    ceiling: np.ndarray | None = None) -> int:
        """The least one-step bound over every guess worth trying (INFEASIBLE if none is): bounds' floor at a
        budget of 0, without ordering the guesses.

        A big set is read only for the guesses whose ceiling on their replies allows a bound below the least so
        far (`ceiling_least_bound`): the same least bound. The ceilings are the colours each position of a guess
        can show, and `ceiling` where given (per guess, at least the replies it gets from these answers: those it
        gets from a set holding them, `ceilings`).
        """
        if self.limits.top is not None:
            return self.bounds(answers, left, hints, 0)[2]
        guesses, costs = self.memory.allowed(hints), self.costs.step_costs(left)
        must_split = left == 2 and not self.losses  # the dead-letter rule keeps the least bound
        if not self.reads_with_ceilings(len(answers), hints):  # every guess read at the cost of a few
            least = self.least_lower_bound(self.columns, guesses, answers, costs, must_split)
        else:
            least = self.ceiling_least_bound(self.columns, guesses, answers, costs, must_split, self.letters, ceiling)
        return INFEASIBLE if least >= NEVER else least

    def reads_with_ceilings(self, size: int, hints: Hints | None) -> bool:
        """Whether `least_bound` reads a set of `size` answers highest ceiling first (else every guess, as cheaply as
        a few: the pairwise count, or few guesses allowed)."""
        guesses = self.memory.allowed(hints)
        pairwise = size <= PAIRWISE_UP_TO and len(guesses) * PAIRWISE_READS > size * self.columns.shape[1]
        return not (pairwise or len(guesses) <= references.PRUNE_FIRST)  # as kernels._reply_counts

    # -- ceilings ---------------------------------------------------------------------------------
    def ceilings(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """For each guess allowed under `hints`, how many different replies it gets from `answers` (all green
        included): a ceiling on what it gets from any subset (`least_bound`). Remembered for the last few sets."""
        key = self.memory.win_key(answers, hints)
        found = self.memory.ceilings.get(key)
        if found is None:
            found = self.memory.ceilings.keep(key, self.count_replies(answers, hints))
        return found

    def count_replies(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """For each guess allowed under `hints`, how many different replies it gets from `answers` (all green
        included); NO_ROOM for the others (not allowed there, so nor in any reply: never read)."""
        guesses = self.memory.allowed(hints)
        lower, hits = self.lower_bounds(self.columns, guesses, answers, (0, 0, 0), False)
        found = np.full(len(self.words), NO_ROOM, dtype=np.int64)
        found[guesses] = np.where(lower >= NEVER, 1, 3 * len(answers) - hits - lower // SCALE)
        return found

    def reply_ceilings(self, group: np.ndarray,
                       parent: tuple[np.ndarray, Hints | None] | None) -> tuple[np.ndarray, int] | None:
        """Each guess's ceiling on the different replies it gets from `group`, a reply of `parent` (a set and its
        hints), and the most of them; None where the parent is not a big set. A ceiling is the least of what the
        guess gets from the parent and from each part of it that holds all of `group` (`Parts`: the answers with a
        letter, without it, or with it at a place). A guess's count over a superset is a ceiling, under any hints.
        (Sets deeper in the search, inside the latest big set, could take the same ceilings; measured, that cost
        more than it saved.)"""
        if parent is None or not CEILINGS_FROM <= len(parent[0]) < len(self.game.words.answers):
            return None
        return self.parts_of(*parent).ceilings_of(group)

    def parts_of(self, answers: np.ndarray, hints: Hints | None) -> Parts:
        """The parts of a big set (`Parts`), kept for the latest few sets (the memory's `parts`)."""
        key = self.memory.win_key(answers, hints)
        parts = self.memory.parts.get(key)
        if parts is None:
            parts = self.memory.parts.keep(key, Parts(self, answers, hints))
        return parts

    # -- a guess's replies ------------------------------------------------------------------------
    def guess_bound(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                    limit: int = INFEASIBLE) -> tuple[int, list]:
        """A proved lower bound on every tree opening with `guess`, and its replies, largest first, each as
        (group, code, (bound, hints)); where the bound reaches `limit` (the guess is cut, its replies not searched)
        a hard-mode reply's hints may be PENDING, not built.

        Each reply is bounded by `known_floor`; in a big set (`reply_ceilings`) the replies bigger than the most
        replies any guess gets are raised to `peak_floor`, and then each big reply to what its part ceilings alone
        allow; then the largest (down to `sharpen_from` answers) by the least one-step bound over every guess there.
        It stops once the total reaches `limit`. The total and losses objectives only (the worst objective's costs
        are not sums over replies).
        """
        if self.objective is Objective.WORST:
            raise ValueError("guess_bound sums replies: not for the worst objective")
        costs, memory = self.costs, self.memory
        cost = len(answers) * SCALE
        replies = []
        # hard mode, the common case written out (as known_floor would answer): a reply of one or two answers, or one
        # neither memory holds under any hints, is bounded by its floor, a line in its size
        one_floor, two_floor = costs.floor(1, left - 1), costs.floor(2, left - 1)
        inline = self.hard and two_floor < INFEASIBLE
        seen, narrow = memory.seen_sets, memory.narrow
        for code, group in partition(self.matrix[guess, answers], answers):
            if code == ALL_GREEN:
                cost += costs.hit(left) - SCALE
            elif inline and (len(group) <= 2 or (group.astype(np.uint16) if narrow else group).tobytes() not in seen):
                replies.append((group, code, (one_floor + (len(group) - 1) * (two_floor - one_floor),
                                              None if len(group) <= 2 else PENDING)))
            else:
                replies.append((group, code, self.known_floor(group, left - 1, hints, code, guess)))
        replies.sort(key=lambda reply: -len(reply[0]))
        big = left > 2 and self.limits.top is None and CEILINGS_FROM <= len(answers) < len(self.game.words.answers)
        if big:  # the replies bigger than the peak
            parts = self.parts_of(answers, hints or None)  # as reply_ceilings asks (hard mode's no hints: None)
            peak = parts.peak
            for number, (group, code, (floor, child_hints)) in enumerate(replies):
                if len(group) <= peak:
                    break
                if floor < INFEASIBLE:
                    replies[number] = (group, code, (max(floor, costs.peak_floor(len(group), left - 1, peak)),
                                                     child_hints))
        total = cost + sum(reply[2][0] for reply in replies)
        if total >= limit:
            return total, replies
        ceilings: dict[int, np.ndarray] = {}
        if big:  # first, what each big reply's ceilings alone allow (its part ceilings' most), no guess read
            for number, (group, code, (floor, child_hints)) in enumerate(replies):
                if len(group) <= PAIRWISE_UP_TO or floor >= INFEASIBLE:
                    break
                known = None if child_hints is PENDING else memory.memo.get(memory.key(group, left - 1, child_hints))
                if known is not None and floor >= known[0]:
                    continue  # its floor is at least its remembered bound, so its one-step bound: no ceiling raises it
                ceilings[number], most = parts.ceilings_of(group)
                from_ceilings = costs.peak_floor(len(group), left - 1, most)
                if from_ceilings > floor:
                    replies[number] = (group, code, (from_ceilings, child_hints))
                    total += from_ceilings - floor
                    if total >= limit:
                        return total, replies
        for number, (group, code, (floor, child_hints)) in enumerate(replies):  # the largest replies' bounds, sharper
            if len(group) < self.sharpen_from or floor >= INFEASIBLE:
                break
            if child_hints is PENDING:
                child_hints = self.reply_hints(hints, guess, code)
            sharper = self.sharpen(group, left - 1, child_hints, floor, (answers, hints or None),
                                   ceilings.get(number))
            replies[number] = (group, code, (sharper, child_hints))
            total += sharper - floor
            if total >= limit:
                return total, replies
        # the guess is to be searched: every reply's hints
        return total, [(group, code, (floor, self.reply_hints(hints, guess, code) if child_hints is PENDING
                                      else child_hints)) for group, code, (floor, child_hints) in replies]

    def known_floor(self, group: np.ndarray, left: int, hints: Hints | None, code: int,
                    guess: int) -> tuple[int, Hints | None]:
        """A reply's lower bound (the remembered one if better) and the hints under which it is solved.

        One or two answers cost the same under any hints (an answer still possible is always a legal hard-mode
        guess), and their floor is exact: their hints are left out (None), as nothing reads them. In hard mode a
        reply neither memory holds under any hints (`seen_sets`) has nothing to look up: its hints are left
        PENDING (building them is most of the cost of bounding a reply), for `reply_hints` where needed.
        """
        floor = self.costs.floor(len(group), left)
        if len(group) <= 2:
            return floor, None
        if floor >= INFEASIBLE:
            return floor, PENDING if self.hard else None
        memory = self.memory
        stored = memory.set_bytes(group)
        if not self.hard:
            child_hints = None
        elif stored in memory.seen_sets:
            child_hints = self.reply_hints(hints, guess, code)
        else:
            return floor, PENDING  # in neither memory under any hints: nothing to look up
        if memory.lost_within((stored, child_hints or None), left):  # at least one answer lost whatever is played
            return (floor + FIRST if self.losses else INFEASIBLE), child_hints
        known = memory.memo.get((stored, left, child_hints))
        if known is not None:
            floor = max(floor, known[0])
        return floor, child_hints

    def sharpen(self, group: np.ndarray, left: int, hints: Hints | None, floor: int,
                parent: tuple[np.ndarray, Hints | None] | None = None, ceiling: np.ndarray | None = None) -> int:
        """A reply's bound raised to the least one-step bound over every guess there (remembered); `parent`, the
        set it is a reply of (and its hints), lends a big reply its guesses' ceilings (`reply_ceilings`), or
        `ceiling` gives them, already made."""
        memory = self.memory
        key = memory.key(group, left, hints)
        known = memory.memo.get(key)
        if known is not None:  # every bound the memory holds is at least the one-step bound: nothing to read
            if known[1] < 0 and floor > known[0]:
                self.spending.stats.forgotten += memory.remember(key, floor, -1, -1)
            return max(floor, known[0])
        self.spending.check()
        if ceiling is None and self.limits.top is None and self.reads_with_ceilings(len(group), hints):
            found = self.reply_ceilings(group, parent)
            ceiling = None if found is None else found[0]
        floor = max(floor, self.least_bound(group, left, hints, ceiling))
        self.spending.stats.forgotten += memory.remember(key, floor, -1, -1)
        return floor
