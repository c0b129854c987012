"""The optimal decision tree under an objective, by branch and bound over (answers, guesses left) sub-problems.

Costs are what the Guesser pays, packed (`wordle.solver.costs`: lower is better). The search is depth-first:

* Best-first: at each set the guesses are tried in order of their one-step bound (`BoundPasses.bounds`); the
  first whose bound reaches the best total found so far (or the budget the caller passed down) ends the search.
* Budgets: a reply's sub-problem is searched with the budget the parent can still afford; a search that cannot
  finish under its budget returns a lower bound instead, remembered for the next visit with the bound each guess
  was cut at (the memory's guess floors: a later search under a higher budget skips those still cut).
* A guess's replies are bounded before they are searched (`BoundPasses.guess_bound`), and the guess is cut as
  soon as their sum reaches the budget.
* Rounds at the top: a given opener's replies are raised at most ROUNDS guesses at a time, reply after reply, so
  a total just past the cut-off is proved by many cheap searches.
* Exact answers for tiny sets: one answer costs one guess, two cost three, and with two guesses left only a
  guess that tells every answer apart will do; with three left the total objective's loop is compiled
  (`wordle.solver.short_wins.least_cost3`).
* A set proved lost (`WinProver`) costs INFEASIBLE under the total objective without a search; the worst
  objective is solved by total-objective solvers, one per limit tried (`tier`), sharing the win memory.
* A deadline and a node limit, checked at every node: a search past them raises BudgetSpent.

Solved sub-problems are remembered by (answers, guesses left, and in hard mode the hints) in the solver's
`Memory`: the exact cost or the best lower bound, and the best guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from plumbing.errors import UserError
from search.limits import BudgetSpent
from ..game import State, Wordle
from ..hardmode import Hints
from .budget import Limits, Spending
from .costs import FIRST, INFEASIBLE, LONG_GAME, NO_ROOM, SCALE, Costs, Objective
from .memory import Memory
from .passes import BoundPasses
from .short_wins import UNDECIDED
from .win_prover import WinProver

#: A given opener's replies are raised in rounds of at most this many guesses each (0: one reply at a time).
ROUNDS = 3
#: Hard mode: the compiled three-guess cost search asks whether a set can be won at all once it has read this many
#: patterns (a lost set is refuted guess by guess, about 10 million patterns for the -ER sets after QAJAQ). Asked
#: of every set, hard IMMIX, GYPPY and JUGUM took 40% more CPU; from 1 million, hard QAJAQ took 66 s; from 100,000,
#: QAJAQ 42 s (236 s never asking) and IMMIX as never asking (2026-11-27, `solve POSITION --hard`).
THREE_ASK_WIN = 100_000


class Forward:
    """An attribute of the solver that is one of its parts' (`Solver.memory`, `passes`, `prover`, `costs`,
    `spending`): read, and where `settable` set, through to that part's attribute of the same name."""

    def __init__(self, part: str, name: str, doc: str, settable: bool = False) -> None:
        self.part, self.name, self.settable, self.__doc__ = part, name, settable, doc

    def __get__(self, solver: "Solver | None", owner: type) -> object:
        """The part's attribute (the descriptor itself when read from the class)."""
        return self if solver is None else getattr(getattr(solver, self.part), self.name)

    def __set__(self, solver: "Solver", value: object) -> None:
        """Set the part's attribute, where that is allowed."""
        if not self.settable:
            raise AttributeError(f"Solver.{self.name} is {self.part}.{self.name}'s, and read-only here")
        setattr(getattr(solver, self.part), self.name, value)


@dataclass(frozen=True)
class Solution:
    """A solved root: its best guess, total guesses, games over 5, whether it is proved, and its objective's terms.

    losses: answers the tree does not solve within the limit (0 but under the losses objective);
    worst: the most guesses an answer needs (known under the worst objective, else None).
    """

    guess: int
    total: int
    long_games: int
    proved: bool
    nodes: int
    seconds: float
    objective: Objective = Objective.TOTAL
    losses: int = 0
    worst: int | None = None

    @property
    def cost(self) -> int:
        """The packed cost under the solution's objective."""
        first = self.losses if self.objective is Objective.LOSSES else (self.worst or 0)
        return first * FIRST + self.total * SCALE + self.long_games


class Solver:
    """Branch and bound for the optimal tree over one game, mode, guess limit and objective.

    Its parts: `costs` (what answers pay), `memory` (every cache and its rules), `passes` (the lower bounds),
    `prover` (whether a set can be won at all) and `spending` (the budget and statistics they share).

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode's rule binds every guess after the first.
        max_guesses: the guess limit.
        limits: every guess (a proof) or the best few at each node, and the memory's size.
        long_game: games needing more guesses than this count as long (the last criterion).
        objective: what the tree is optimal for (see Objective); the worst objective is solved
            by total-objective solvers, one per limit tried (`tier`).
        dead_letters: in normal mode, leave out the guesses the dead-letter rule makes redundant (`dominated`).
        ultra: ultra-hard mode's rule binds every guess after the first (`wordle.ultra`); not with `hard`. Its
            hints are the guesses still possible (`wordle.ultra.Possible`), in every memory key.
    """

    __slots__ = ("game", "objective", "losses", "long_game", "hard", "ultra", "max_guesses", "limits", "costs", "memory",
                 "spending", "passes", "prover", "root", "rounds", "tiers", "worst_limit", "__weakref__")

    def __init__(self, game: Wordle, hard: bool = False, max_guesses: int = 6, limits: Limits = Limits(),
                 long_game: int = LONG_GAME, objective: Objective | str = Objective.TOTAL, dead_letters: bool = True,
                 ultra: bool = False):
        if hard and ultra:
            raise ValueError("ultra-hard mode contains hard mode's rule: ask for one of them")
        self.game = game
        self.ultra = ultra
        self.objective = Objective(objective)
        self.losses = self.objective is Objective.LOSSES
        self.long_game = long_game
        self.hard = hard
        self.max_guesses = max_guesses
        self.limits = limits
        self.costs = Costs(max_guesses, long_game, self.losses)
        self.memory = Memory(game, limits.memo)
        self.spending = Spending()
        self.passes = BoundPasses(game, hard, limits, self.costs, self.objective, self.memory, self.spending,
                                  dead_letters, ultra=ultra)
        self.prover = WinProver(game, hard, max_guesses, self.losses, self.memory, self.passes, self.spending,
                                ultra=ultra)
        self.root: tuple | None = None
        self.rounds = ROUNDS
        self.tiers: dict[int, Solver] = {}  # the worst objective: a total-objective solver per guess limit
        self.worst_limit: int | None = None  # the worst objective: the least limit solve() found a tree under

    # -- what callers read, set and call: its parts' own (`Forward`) ------------------------------------------
    stats = Forward("spending", "stats", "What the solves so far have done (shared with the passes and the prover).",
                    settable=True)
    deadline = Forward("spending", "deadline", "time.perf_counter() past which a search raises BudgetSpent, or None.",
                       settable=True)
    node_limit = Forward("spending", "node_limit", "stats.nodes past which a search raises BudgetSpent (None: none).",
                         settable=True)
    report = Forward("spending", "report", "Called with the stats every 64 nodes (None: nothing).", settable=True)
    whole_tries = Forward("prover", "whole_tries", "How many more times opener_wins first tries the whole list.",
                          settable=True)
    memo = Forward("memory", "memo", "The remembered sub-problems: key -> (lower bound, exact cost or -1, best guess).")
    key = Forward("memory", "key", "The memory's key of a sub-problem (answers, guesses left, hints).")
    forget_memory = Forward("memory", "forget_memory", "Forget the sub-problems and their guess floors.")
    use_memo = Forward("memory", "use_memo", "Search on with sub-problems saved earlier.")
    floor = Forward("costs", "floor", "A lower bound on any set of `size` answers with `left` guesses to go.")
    bounds = Forward("passes", "bounds", "The guesses worth trying below a budget, best first, and their bounds.")
    can_win = Forward("prover", "can_win", "Whether some tree solves every one of the answers within `left` guesses.")
    opener_wins = Forward("prover", "opener_wins", "Whether some tree opening with `opener` wins every answer.")
    winning_guess = Forward("prover", "winning_guess", "A guess that wins every answer, found within an effort.")
    wins_within = Forward("prover", "wins_within", "Whether a guess wins every answer, proved within an effort.")

    # -- the search ------------------------------------------------------------------------------------------
    def remember(self, key: tuple, bound: int, exact: int, guess: int) -> None:
        """Store a sub-problem's bound (and exact cost and guess when known) in the memory, counting what a full
        memory forgot."""
        self.spending.stats.forgotten += self.memory.remember(key, bound, exact, guess)

    def solve_set(self, answers: np.ndarray, left: int, hints: Hints | None = None,
                  budget: int = INFEASIBLE) -> int:
        """The least cost of a tree for `answers` with `left` guesses to go, if below `budget`.

        Args:
            answers: ascending answer indices (all possible ones).
            left: guesses still allowed, at least 1.
            hints: hard mode's demands (None in normal mode).
            budget: the caller has no use for costs at or above it.

        Returns:
            The exact least cost when it is below `budget`, else a lower bound at least `budget`
            (the worst objective: always the exact cost, INFEASIBLE if no tree within `left`).
        """
        size = len(answers)
        if self.objective is Objective.WORST:
            return self.worst_set(answers, left, hints)
        costs = self.costs
        if left <= 1 or size == 1:  # no guess left (a given opener under a limit of 1) is not one free guess
            return costs.floor(size, left)
        if size == 2:
            return costs.hit(left) + SCALE + costs.hit(left - 1)
        if not self.losses and self.prover.known_lost(answers, left, hints):
            return INFEASIBLE
        memory, spending = self.memory, self.spending
        stats = spending.stats
        key = memory.key(answers, left, hints)
        known = memory.memo.get(key)
        if known is not None:
            stats.memo_hits += 1
            if known[1] >= 0:
                return known[1]
            if known[0] >= budget:
                return known[0]
        stats.nodes += 1
        spending.check()
        if spending.report is not None and stats.nodes % 64 == 0:
            stats.remembered = len(memory.memo)
            spending.report(stats)
        guesses, lower, floor = self.passes.bounds(answers, left, hints, budget)
        if key == self.root:
            stats.bound = int(lower[0]) if len(lower) else floor
        elif left == 3 and self.prover.short_wins is not None and not self.losses and self.limits.top is None:
            return self.solve_three(answers, hints, key, guesses, lower, floor, budget)
        best, best_guess = INFEASIBLE, -1
        cut = memory.take_guess_floors(key)  # what an earlier search of this set cut each guess at
        for guess, bound in zip(guesses.tolist(), lower.tolist()):
            limit = min(best, budget)
            if bound >= limit:
                floor = min(floor, bound)
                break
            known = cut.get(guess, 0)
            if known >= limit:  # a proved bound on the guess, still above the limit: cut again, unread
                floor = min(floor, known)
                continue
            cost = self.try_guess(answers, left, hints, guess, limit)
            if cost < limit:
                best, best_guess = cost, guess
                if key == self.root:
                    stats.best = best
            else:
                floor = min(floor, cost)
                cut[guess] = cost
        if best < budget:
            self.remember(key, best, best, best_guess)
            return best
        if cut:
            memory.keep_guess_floors(key, cut)
        bound = min(floor, best)
        self.remember(key, bound, -1, -1)
        return bound

    def solve_three(self, answers: np.ndarray, hints: Hints | None, key: tuple, guesses: np.ndarray,
                    lower: np.ndarray, floor: int, budget: int) -> int:
        """solve_set's loop over `guesses` with three guesses left, compiled (short_wins.least_cost3): the same
        values; the two-guess sets it searches are not remembered, and count as the win checks' work does."""
        game, spending = self.game, self.spending
        binds = self.hard or self.ultra
        legal = self.memory.allowed(hints) if binds else game.all_guesses
        hit = self.costs.hit
        costs = np.array([SCALE, hit(3), hit(2), hit(1), INFEASIBLE], dtype=np.int64)
        room = spending.short_room()
        # hard mode: past THREE_ASK_WIN patterns read, ask whether the set can be won at all (a lost set costs the
        # search a refutation of every guess; the win check says so at once), then search on if it can
        cap = min(room, THREE_ASK_WIN) if binds else room
        while True:
            work = np.array([0, NO_ROOM, 0, cap], dtype=np.int64)
            done, cost, guess, floor = self.prover.short_wins.least_cost3(
                game.matrix, game.guess_letters, game.guess_counts, self.prover.rule, legal, len(legal),
                game.words.answer_rows, answers, guesses, lower.astype(np.int64), min(budget, NO_ROOM),
                min(floor, NO_ROOM), costs, work)
            spending.count_work(int(work[0]))  # as the compiled win checks count
            if done != UNDECIDED or cap == room:
                break
            if self.prover.lost_within_three(answers, hints):
                self.remember(key, INFEASIBLE, -1, -1)
                return INFEASIBLE
            cap = room = spending.short_room()
        if done == UNDECIDED:  # the node limit passed between two guesses: nothing of this set is remembered
            raise BudgetSpent(spending.stats.nodes)
        if cost >= 0:
            self.remember(key, int(cost), int(cost), int(guess))
            return int(cost)
        self.remember(key, int(floor), -1, -1)
        return int(floor)

    def try_guess(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int, limit: int,
                  top_level: bool = False) -> int:
        """The cost of the best tree opening with `guess`, if below `limit`; else a lower bound at least `limit`.

        At the top level the running bound (the solved replies exactly, the rest by their bounds)
        goes to the progress report after each reply. The worst objective gives the exact cost.
        """
        if self.objective is Objective.WORST:
            used = self.max_guesses - left
            for depth in range(2 if len(answers) > 1 else 1, left + 1):
                if len(answers) > 1 and not self.prover.wins_with(answers, depth, hints, guess):
                    continue
                cost = self.tier(used + depth).try_guess(answers, depth, hints, guess, INFEASIBLE, top_level)
                if cost < INFEASIBLE:
                    return depth * FIRST + cost
            return INFEASIBLE
        total, replies = self.passes.guess_bound(answers, left, hints, guess, limit)
        if total >= limit:
            return total
        stats = self.spending.stats
        if top_level:
            stats.bound, stats.replies = total, len(replies)
        if self.rounds and top_level:
            return self.raise_in_rounds(replies, left, total, limit, top_level)
        for group, code, (floor, child_hints) in replies:
            total -= floor
            value = self.solve_set(group, left - 1, child_hints, limit - total)
            total += value
            if top_level:
                stats.bound, stats.replies_done = total, stats.replies_done + 1
            if total >= limit:
                return total
        return total

    def raise_in_rounds(self, replies: list, left: int, total: int, limit: int, top_level: bool) -> int:
        """Raise every reply's bound a guess at a time (cheap searches under tight budgets) until the total
        reaches `limit` or every reply is exact; the total then."""
        floors = [reply[2][0] for reply in replies]
        exact = [False] * len(replies)
        while True:
            for number, (group, code, (_, child_hints)) in enumerate(replies):
                if exact[number]:
                    continue
                floor = floors[number]
                step = min(floor + self.rounds * SCALE, limit - total + floor)
                value = self.solve_set(group, left - 1, child_hints, step)
                exact[number] = value < step
                floors[number] = value
                total += value - floor
                if top_level:
                    self.spending.stats.bound = total
                if total >= limit:
                    return total
            if all(exact):
                return total

    # -- the worst objective ---------------------------------------------------------------------------------
    def tier(self, limit: int) -> "Solver":
        """The total-objective solver under a guess limit of `limit` (worst objective), sharing budgets and wins."""
        tier = self.tiers.get(limit)
        if tier is None:
            tier = self.tiers[limit] = Solver(self.game, hard=self.hard, max_guesses=limit, limits=self.limits,
                                              long_game=self.long_game, dead_letters=self.passes.tables is not None,
                                              ultra=self.ultra)
            tier.memory.share_wins_of(self.memory)
        spending, shared = tier.spending, self.spending
        spending.stats, spending.report, spending.deadline, spending.node_limit = (shared.stats, shared.report,
                                                                                  shared.deadline, shared.node_limit)
        return tier

    def worst_set(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The worst objective's cost of a set: the fewest guesses d <= left that win it (d * FIRST), then its
        least total within d; INFEASIBLE if `left` guesses cannot win it."""
        used = self.max_guesses - left
        for depth in range(1, left + 1):
            if len(answers) > 2 and not self.prover.can_win(answers, depth, hints):
                continue
            cost = self.tier(used + depth).solve_set(answers, depth, hints)
            if cost < INFEASIBLE:
                return depth * FIRST + cost
        return INFEASIBLE

    # -- states ------------------------------------------------------------------------------------------------
    def state_hints(self, state: State) -> Hints | None:
        """The hints a state's guesses are bound by (None in normal mode; the guesses still possible in ultra-hard)."""
        if self.ultra:
            return self.game.possible(state)
        return self.game.hints(state) if self.hard else None

    def best_guess(self, state: State) -> int:
        """The first guess of an optimal tree from a Guesser-to-move state (solving it if not remembered)."""
        return self.best_guess_for(np.asarray(state.candidates), state.guesses_left, self.state_hints(state))

    def best_guess_for(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The first guess of an optimal tree for `answers` with `left` guesses to go.

        Raises:
            UserError: no tree wins (total and worst objectives), or the memory is too small.
        """
        if self.objective is Objective.WORST:
            cost = self.worst_set(answers, left, hints)
            if cost >= INFEASIBLE:
                raise UserError("no tree solves every answer within the guess limit")
            depth = cost // FIRST
            return self.tier(self.max_guesses - left + depth).best_guess_for(answers, depth, hints)
        if len(answers) <= 2 or left == 1:
            return int(self.game.words.answer_rows[answers[0]])
        key = self.memory.key(answers, left, hints)
        known = self.memory.memo.get(key)
        if known is None or known[1] < 0:
            self.solve_set(answers, left, hints)
            known = self.memory.memo.get(key)
            if known is None or known[1] < 0:  # forgotten as the memory filled, or no tree at all
                cost = self.solve_set(answers, left, hints)
                if cost >= INFEASIBLE:
                    raise UserError("no tree solves every answer within the guess limit")
                known = self.memory.memo.get(key)
                if known is None or known[1] < 0:
                    raise UserError(f"the solver's memory ({self.limits.memo} sub-problems) is too small for this state")
        return known[2]

    def no_tree(self) -> UserError:
        """The one-line error for a root with no tree within the guess limit: proved, or not found in a breadth."""
        if self.limits.top is None:
            return UserError(f"no tree solves every answer within {self.max_guesses} guesses")
        return UserError(f"no tree solving every answer within {self.max_guesses} guesses was found among the best "
                         f"{self.limits.top} guesses a node (one may exist among the others; --prove tries them all)")

    def solve(self, opener: int | None = None) -> Solution:
        """Solve the whole game from the start (with `opener` as the first guess if given).

        Raises:
            UserError: no tree wins every answer (total and worst objectives), or none was found in the breadth.
        """
        if self.objective is Objective.WORST:
            return self.solve_worst(opener)
        state = self.game.initial_state(hard=self.hard, max_guesses=self.max_guesses, ultra=self.ultra)
        answers = np.asarray(state.candidates)
        hints = self.prover.root_hints
        self.root = self.memory.key(answers, self.max_guesses, hints)
        if opener is None:
            cost = self.solve_set(answers, self.max_guesses, hints)
            guess = self.best_guess(state) if cost < INFEASIBLE else -1
        else:
            guess = int(opener)
            cost = self.try_guess(answers, self.max_guesses, hints, guess, INFEASIBLE, top_level=True)
        if cost >= INFEASIBLE:
            raise self.no_tree()
        stats = self.spending.stats
        stats.best = stats.bound = cost
        outcome = self.objective.unpack(cost)
        return Solution(guess=guess, total=outcome.total, long_games=outcome.long_games, proved=self.limits.top is None,
                        nodes=stats.nodes, seconds=stats.seconds, objective=self.objective, losses=outcome.losses)

    def solve_worst(self, opener: int | None) -> Solution:
        """The worst objective at the root: the least limit under which a tree wins every answer, then its least total."""
        state = self.game.initial_state(hard=self.hard, max_guesses=self.max_guesses, ultra=self.ultra)
        answers = np.asarray(state.candidates)
        hints = self.prover.root_hints
        for limit in range(1, self.max_guesses + 1):
            if self.limits.top is None:  # the proof of "none within this limit" is can_win's, far cheaper
                won = (self.prover.can_win(answers, limit, hints) if opener is None
                       else self.prover.wins_with(answers, limit, hints, int(opener)))
                if not won:
                    continue
            try:
                solution = self.tier(limit).solve(opener)
            except UserError:
                continue
            self.worst_limit = limit
            return Solution(guess=solution.guess, total=solution.total, long_games=solution.long_games,
                            proved=solution.proved, nodes=self.stats.nodes, seconds=self.stats.seconds,
                            objective=self.objective, worst=limit)
        raise self.no_tree()

    def chooser(self, opener: int | None = None) -> Callable[[State], int]:
        """A player state -> guess that follows the optimal tree (the opener first, if given).

        Under the worst objective it follows the tree solve() found (call solve first).
        """
        if self.objective is Objective.WORST and self.worst_limit is not None:
            tier = self.tiers[self.worst_limit]
            shift = self.max_guesses - self.worst_limit

            def follow(state: State) -> int:
                if opener is not None and not state.history:
                    return int(opener)
                return tier.best_guess_for(np.asarray(state.candidates), state.guesses_left - shift,
                                           self.state_hints(state))
            return follow

        def choose(state: State) -> int:
            if opener is not None and not state.history:
                return int(opener)
            return self.best_guess(state)
        return choose
