"""The value of a position (and of any guess at it) when the answers have weights: a real tree's, and a proved bound.

Values here are what the Guesser expects to pay (lower is better): guesses to finish, the guess
valued included, averaged over the answers still possible with their weights. Each is an interval
from the weighted solver (`wordle.solver.weighted`, exact integers): `high` is the value of a real tree
the search found (following it guarantees that value), `low` a proved lower bound; proved where
they meet. Every guess valued gets a real tree, so every guess can be ranked by what following it
guarantees, never by a bound or an estimate.

How a valuation goes (the same for any position, so the same state shows the same number in every
command and on the web):

1. A real tree for the position and for every asked guess, always: the breadth-1 search (the best
   guess a node by its bound, widened while a tree loses an answer). It is not cut by the node
   budget (only by the wall-clock safety cap), so no guess is ever shown without a tree; its work is
   bounded by the set.
2. Within the node budget: the breadth-2 search for the position (a better incumbent), then the proof:
   every guess at the root in order of its bound, searched by the exact solver under the incumbent.
3. Then each asked guess on its own, with GUESS_SHARE of the node budget, from the memory the
   position's search left: its breadth-2 tree, then its exact solve.

Where a guess's tree loses answers (weight), its value says so: `losses_high` is the chance its tree
loses, `losing_guesses` its expected guesses counting a loss as max_guesses + 1, as the uniform
valuation's fewest-losses values (`wordle.valuation.Value`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from search.limits import Budget, BudgetSpent

from .game import State, Wordle
from .hardmode import Hints
from .solver import Limits
from .valuation import GUESS_SHARE, QUICK_SHARE, SAFETY_SECONDS, Value, _Clock
from .solver.weighted import NEVER, WeightedSolver, WeightedTree

#: Solver nodes one weighted valuation may spend beyond its breadth-1 trees, by mode (normal, hard).
WEIGHTED_VALUE_NODES = {False: 200, True: 400}
#: Breadths of the quick searches: the first makes the tree every guess always gets, the second a better one.
QUICK_BREADTHS = (1, 2)


def default_weighted_budget(hard: bool) -> Budget:
    """The budget of one weighted valuation in this mode: WEIGHTED_VALUE_NODES nodes, SAFETY_SECONDS as the cap."""
    return Budget(nodes=WEIGHTED_VALUE_NODES[bool(hard)], seconds=SAFETY_SECONDS)


@dataclass(frozen=True)
class Interval:
    """A guess's (or the position's) packed costs: `low` proved, `high` a real tree's (None: none known)."""

    low: int
    high: int | None

    @property
    def proved(self) -> bool:
        """Whether the bounds meet."""
        return self.high is not None and self.low >= self.high


@dataclass(frozen=True)
class WeightedValuation:
    """A position's weighted valuation: the best guess found, each guess's interval and Value, and which solver found
    each guess's tree (`sources`: 0 the exact solver, 1 and on the quick ones, as `WeightedValuer.solvers`).

    `capped`: the wall-clock safety cap, not the node budget, stopped a search before every value shown was settled.
    """

    best: int
    intervals: dict[int, Interval]
    values: dict[int, Value]
    sources: dict[int, int]
    proved: bool
    nodes: int
    seconds: float
    capped: bool = False
    total_weight: int = 0

    @property
    def value(self) -> Value:
        """The position's value: the best guess's."""
        return self.values[self.best]


def to_value(solver: WeightedSolver, interval: Interval, total_weight: int) -> Value:
    """An interval of a solver's packed costs as a Value (`interval_value`)."""
    return interval_value(interval, solver.loss_unit, total_weight)


def interval_value(interval: Interval, loss_unit: int, total_weight: int) -> Value:
    """An interval of packed costs (`loss_unit` per unit of weight lost) over a set of `total_weight` as a Value in
    expected guesses, and chances of losing where a tree loses answers."""
    low_lost, low_guesses = divmod(int(interval.low), loss_unit)
    proved = interval.proved
    if low_lost > 0:  # proved: no tree wins every answer
        if interval.high is None:
            return Value(math.inf, math.inf, math.inf, losses_low=low_lost / total_weight, losses_high=math.inf,
                         losing_guesses=math.inf)
        high_lost, high_guesses = divmod(int(interval.high), loss_unit)
        return Value(math.inf, math.inf, math.inf, losses_low=low_lost / total_weight,
                     losses_high=high_lost / total_weight, losing_guesses=high_guesses / total_weight)
    low = low_guesses / total_weight
    if interval.high is None:
        return Value(low, math.inf, low, losses_high=math.inf, losing_guesses=math.inf)
    high_lost, high_guesses = divmod(int(interval.high), loss_unit)
    if high_lost > 0:  # the tree found loses some answers; a tree that loses none may exist
        return Value(low, math.inf, low, losses_high=high_lost / total_weight,
                     losing_guesses=high_guesses / total_weight)
    high = high_guesses / total_weight
    return Value(high if proved else low, high, high)


class WeightedValuer:
    """Values positions of one weighted game (one mode and guess limit): an exact solver and its quick twins."""

    def __init__(self, game: Wordle, weights: np.ndarray, hard: bool, max_guesses: int):
        self.game = game
        self.exact = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses)
        self.quick = tuple(WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses,
                                          limits=Limits(top=breadth), tier=False) for breadth in QUICK_BREADTHS)
        self.solvers = (self.exact, *self.quick)

    def value(self, state: State, guesses: Sequence[int] = (), budget: Budget | None = None) -> WeightedValuation:
        """Value a Guesser-to-move state and the given guesses.

        Args:
            state: the position (its candidates index the game's answers; its mode and limit the valuer's).
            guesses: guess indices to value besides the best.
            budget: solver nodes to spend beyond the breadth-1 trees, and a wall-clock cap (None: the mode's default).

        Returns:
            The WeightedValuation.

        Raises:
            ValueError: the game is over, or a guess is not allowed here.
            BudgetSpent: the wall-clock cap passed before every guess had a tree (a machine far too slow or busy).
        """
        started = time.perf_counter()
        exact, quick = self.exact, self.quick
        budget = default_weighted_budget(state.hard) if budget is None else budget
        if state.solved or state.guesses_left < 1 or len(state.candidates) == 0:
            raise ValueError("the game is over: there is no guess to value")
        if state.hard != exact.hard or state.max_guesses != exact.max_guesses:
            raise ValueError("the state's mode or guess limit is not the valuer's")
        for guess in guesses:
            if not 0 <= int(guess) < len(self.game.words.guesses):
                raise ValueError(f"{guess} is not a guess index")
            if (broken := self.game.violation(state, int(guess))) is not None:
                raise ValueError(f"{self.game.words.guesses[int(guess)]}: hard mode: {broken}")
        answers = np.asarray(state.candidates)
        left, hints = state.guesses_left, exact.state_hints(state)
        total = int(exact.weights[answers].sum())
        asked = list(dict.fromkeys(int(guess) for guess in guesses))
        nodes_before = sum(solver.stats.nodes for solver in self.solvers)
        for solver in self.solvers:
            solver.forget_memory()
        found = Found(exact)
        # 1. a real tree for the position and every asked guess: not cut by the node budget (the safety cap only)
        clock = _Clock(Budget(nodes=None, seconds=budget.seconds), self.solvers, started)
        try:
            clock.arm(quick[0])
            cost = quick[0].solve_set(answers, left, hints)
            found.improve(quick[0].best_guess_for(answers, left, hints), cost, 1)
            for guess in asked:
                found.improve(guess, quick[0].try_guess(answers, left, hints, guess, found.never), 1)
        finally:
            _Clock.disarm(quick[0])
        for guess in found.highs:  # each reply at its floor: a proved bound at no cost
            found.raise_low(guess, exact.guess_bound(answers, left, hints, guess, 0)[0])
        # 2. and 3. within the node budget
        clock = _Clock(budget, self.solvers, time.perf_counter())
        try:
            position_low = self.search(answers, left, hints, clock, found)
            self.value_asked(answers, left, hints, budget, asked, found)
        finally:
            for solver in self.solvers:
                _Clock.disarm(solver)
        capped = clock.capped()
        best = min(found.highs, key=lambda g: (found.highs[g], not found.can_be_answer(answers, g), g))
        intervals = {guess: Interval(min(found.lows[guess], found.highs[guess]), found.highs[guess])
                     for guess in found.highs}
        proved = position_low >= found.highs[best]
        if proved:
            intervals[best] = Interval(found.highs[best], found.highs[best])
        values = {guess: to_value(exact, interval, total) for guess, interval in intervals.items()}
        return WeightedValuation(best=best, intervals=intervals, values=values, sources=dict(found.sources),
                                 proved=proved, nodes=sum(solver.stats.nodes for solver in self.solvers) - nodes_before,
                                 seconds=time.perf_counter() - started, capped=capped and not proved,
                                 total_weight=total)

    def search(self, answers: np.ndarray, left: int, hints: Hints | None, clock: _Clock, found: "Found") -> int:
        """Within the budget: the breadth-2 tree for the position, then the proof under the best tree so far.

        Returns the position's proved lower bound (the best tree's cost where the proof finished)."""
        exact, quick = self.exact, self.quick
        for number, narrow in enumerate(quick[1:], start=2):
            try:
                clock.arm(narrow, QUICK_SHARE)
                cost = narrow.solve_set(answers, left, hints)
                guess = narrow.best_guess_for(answers, left, hints)
                if guess not in found.highs:
                    found.raise_low(guess, exact.guess_bound(answers, left, hints, guess, 0)[0])
                found.improve(guess, cost, number)
            except BudgetSpent:
                break
            finally:
                _Clock.disarm(narrow)
        best = min(found.highs, key=lambda g: (found.highs[g], g))
        incumbent = found.highs[best]
        guesses, bounds, _ = exact.guess_bounds(answers, left, hints)
        at = 0
        try:
            clock.arm(exact)
            for at, (guess, bound) in enumerate(zip(guesses.tolist(), bounds)):
                limit = incumbent + 1 if guess == best else incumbent
                found.raise_low(guess, bound)
                if max(bound, found.lows.get(guess, 0)) >= limit:
                    continue
                cost = exact.try_guess(answers, left, hints, guess, limit)
                found.raise_low(guess, cost)
                if cost < limit:
                    found.improve(guess, cost, 0)
                    best, incumbent = guess, cost
            return incumbent
        except BudgetSpent:  # every guess after this one has a bound at least its own
            return min(incumbent, bounds[at]) if len(bounds) else incumbent

    def value_asked(self, answers: np.ndarray, left: int, hints: Hints | None, budget: Budget, asked: list[int],
                    found: "Found") -> None:
        """Each asked guess not yet proved, on its own, from the memory the position's search left, with GUESS_SHARE of
        the node budget: its breadth-2 tree, then its exact solve (so its value depends on the position and the guess
        alone, never on which other guesses were asked)."""
        exact, quick = self.exact, self.quick
        memories = [solver.memo for solver in self.solvers]
        share = Budget(nodes=None if budget.nodes is None else max(1, int(budget.nodes * GUESS_SHARE)),
                       seconds=budget.seconds)
        for guess in asked:
            if found.lows[guess] >= found.highs[guess]:
                continue
            for solver, memory in zip(self.solvers, memories):
                solver.memo = dict(memory)
            clock = _Clock(share, self.solvers, time.perf_counter())
            for number, narrow in enumerate(quick[1:], start=2):
                try:
                    clock.arm(narrow, QUICK_SHARE)
                    found.improve(guess, narrow.try_guess(answers, left, hints, guess, found.never), number)
                except BudgetSpent:
                    break
                finally:
                    _Clock.disarm(narrow)
            if found.lows[guess] < found.highs[guess] and not clock.spent():
                try:
                    clock.arm(exact)
                    cost = exact.try_guess(answers, left, hints, guess, found.highs[guess])
                    found.raise_low(guess, cost)
                    found.improve(guess, cost, 0)
                except BudgetSpent:
                    pass
                finally:
                    _Clock.disarm(exact)
        for solver, memory in zip(self.solvers, memories):
            solver.memo = memory

    def tree(self, state: State, guess: int, source: int) -> WeightedTree:
        """The real tree behind a guess's value: solver `source`'s tree opening with `guess` at `state` (re-solved
        without a budget where its memory no longer holds it; the same tree, as each solver's values depend on the
        set alone)."""
        solver = self.solvers[source]
        return solver.tree(np.asarray(state.candidates), state.guesses_left, solver.state_hints(state), guess)


class Found:
    """What a valuation knows of each guess it valued: its best tree's cost and the solver that found it, and its proved
    lower bound."""

    def __init__(self, solver: WeightedSolver):
        self.solver = solver
        self.never = NEVER * solver.loss_unit
        self.highs: dict[int, int] = {}
        self.sources: dict[int, int] = {}
        self.lows: dict[int, int] = {}

    def improve(self, guess: int, cost: int, source: int) -> None:
        """A tree of this cost opening with `guess` (found by solver `source`): kept if it is the best so far."""
        if cost < self.highs.get(guess, self.never):
            self.highs[guess], self.sources[guess] = cost, source

    def raise_low(self, guess: int, bound: int) -> None:
        """A proved lower bound on every tree opening with `guess`."""
        self.lows[guess] = max(self.lows.get(guess, 0), bound)

    def can_be_answer(self, answers: np.ndarray, guess: int) -> bool:
        """Whether the guess is one of the answers still possible."""
        return bool((self.solver.game.words.answer_rows[answers] == guess).any())


__all__ = ["Interval", "QUICK_BREADTHS", "WEIGHTED_VALUE_NODES", "WeightedValuation", "WeightedValuer",
           "default_weighted_budget", "interval_value", "to_value"]
