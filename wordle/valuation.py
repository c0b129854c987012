"""The value of a position (and of any guess at it) within a budget: proved, or bounded on both sides.

Values here are what the Guesser expects to pay (lower is better): guesses to finish, the
guess being valued included, averaged over the answers still possible, all equally likely.
They come from the optimal solver (`wordle.solver`), whose costs are total guesses; the
second criterion (games over 5) orders trees of equal total but is not part of a value.

Every command that shows a solver value (review, assist, play's trace, the web) calls
`value_position`, so the same state shows the same number everywhere.

How a budget is spent:

1. An upper bound first: a breadth-limited solve (the best few guesses a node by their
   bound; first the single best, then the best two) builds a real tree quickly; the best total
   is the incumbent.
2. Then the proof: every guess at the root in order of its lower bound, each searched by the
   exact solver under the incumbent as a cut-off, so a guess no better than the best so far
   is refuted with a bound rather than solved.
3. Then each asked guess on its own, with GUESS_SHARE of the node budget, from the memory the
   position's search left: a quick tree (its high), then its exact solve.

Every valuation starts from an empty solver memory and spends nodes, not seconds, so the
position's value depends on the position alone, and an asked guess's on the position and the
guess alone (never on what else was asked or valued before, nor on the machine's load).

The solver checks the clock (or its node count) at every node and stops the moment the
budget is spent; the bounds proved so far are returned: the low of a guess is its running
lower bound (solved replies exactly, the rest by their admissible bounds), and the low of
the position is the least low over the guesses not yet refuted.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from search.limits import Budget, BudgetSpent
from search.ranking import rounded

from .game import State, Wordle
from .book import OpeningBook, opening_book, position_table, table_value
from .hardmode import Hints
from .solver import INFEASIBLE, SCALE, Limits, Objective, Solver

#: Guesses a node the quick upper-bound solves try, in turn (breadth-limited: real trees, not proofs).
QUICK_BREADTHS = (1, 2)
#: The share of what is left of a budget each quick upper-bound solve may spend before the proof starts.
QUICK_SHARE = 0.3
#: The share of the position's node budget each asked guess gets for its own search (after the position's).
GUESS_SHARE = 0.1


#: Solver nodes one position's valuation may spend, by mode (normal, hard): the budget every command and the web
#: use unless told otherwise. Chosen to prove what a second proved on the idle 2-core machine: see docs/speed.md and
#: results/bench_positions.json (its node counts).
VALUE_NODES = {False: 300, True: 1200}
#: The wall-clock safety cap of a default valuation: reached only on a machine far slower or busier than ours, and
#: then said (`Valuation.capped`).
SAFETY_SECONDS = 120.0
#: Sets a hard-mode opener's win check may search when the book only bounds the opener (a count, so the same
#: answer on any machine): SOARE, CARTE and most openers without a win are proved so in far fewer.
OPENER_WIN_EFFORT = 2_000
#: What a result cut by the time cap says, wherever it is shown.
CAPPED_NOTE = "cut by the time cap; the result may differ on another machine"


def default_budget(hard: bool) -> Budget:
    """The budget of one valuation in this mode: VALUE_NODES nodes, SAFETY_SECONDS as the cap."""
    return Budget(nodes=VALUE_NODES[bool(hard)], seconds=SAFETY_SECONDS)


@dataclass(frozen=True)
class Value:
    """Expected guesses to finish, this guess included, averaged over the answers left (lower is better).

    low: a proved lower bound.  high: a proved upper bound (a tree reaching it exists; math.inf if none is known).
    estimate: the best point estimate, low <= estimate <= high (== low == high when proved).
    A guess (or position) from which no tree solves every answer within the guess limit is
    proved at math.inf.
    """

    low: float
    high: float
    estimate: float
    losses_low: float = 0.0
    losses_high: float = 0.0
    #: Where answers are lost (losses_low at least 1): the expected guesses of the tree losing `losses_high`, a loss
    #: counted as max_guesses + 1 (the fewest-losses objective's second criterion); math.inf where none is known.
    losing_guesses: float = 0.0

    @property
    def proved(self) -> bool:
        """Whether the value is exact."""
        return self.low == self.high

    @property
    def has_tree(self) -> bool:
        """Whether a real tree reaches `high` (a finite upper bound)."""
        return math.isfinite(self.high)

    def text(self) -> str:
        """One rule everywhere: "3.421" when proved, "≤ 3.480" when a tree is known, "≥ 3.400" when none is.

        A proved math.inf reads "no win" (no tree solves every answer within the guess limit), or
        "loses N" when the answers lost whatever one does are counted (`losses_low` at least 1).

        >>> Value(3.4212, 3.4212, 3.4212).text(), Value(3.4, 3.48, 3.48).text(), Value(3.4, math.inf, 3.4).text()
        ('3.421', '≤ 3.480', '≥ 3.400')
        """
        if self.losses_low >= 1:
            count = f"{self.losses_low:g}" if self.losses_low == self.losses_high else f"≥ {self.losses_low:g}"
            return f"loses {count}"
        if self.proved:
            return "no win" if math.isinf(self.low) else f"{self.low:.3f}"
        if math.isfinite(self.high):
            return f"≤ {self.high:.3f}"
        return f"≥ {self.low:.3f}"


def rank_key(value: Value) -> tuple[float, float, float, float, float]:
    """The one order of guesses by value, every surface's: what is achieved first, never a lower bound.

    Fewer proved-achievable losses (`losses_high`) first, then the guesses of the tree losing them
    (`losing_guesses`, 0 where none is lost), then `high` (the proved value or a real
    tree's bound; a guess with no tree, high = inf, after every guess with one), then the higher
    `low` (a tighter interval first). Callers append the house tie-break (a guess that can be the answer
    first, then the lower guess index). Floats are rounded as `search.ranking` rounds them.
    Before `low` comes `estimate`: the solver's estimate is `high` when a tree is known, else
    `low`, so it changes nothing there; among an answer model's mixes, which have no tree, it
    orders them by their estimate rather than by their weak bound.

    >>> sorted([Value(2.9, math.inf, 2.9), Value(3.5, 3.5, 3.5), Value(3.4, 3.6, 3.6)], key=rank_key)[0]
    Value(low=3.5, high=3.5, estimate=3.5, losses_low=0.0, losses_high=0.0, losing_guesses=0.0)
    """
    return (rounded(float(value.losses_high)), rounded(float(value.losing_guesses)), rounded(float(value.high)),
            rounded(float(value.estimate)), -rounded(float(value.low)))


def order_key(value: Value, can_win: bool, guess: int) -> tuple:
    """`rank_key` with the house tie-break: a guess that can be the answer first, then the lower guess index."""
    return (*rank_key(value), not can_win, guess)


def maybe_better(value: Value, leader: Value) -> bool:
    """Whether a guess with no tree might still beat a first suggestion that has one (its bound is below its high)."""
    return bool(leader.has_tree and not value.has_tree and not value.proved and value.low < leader.high)  # no numpy bool


#: How a guess that `maybe_better` picks out is shown beside its value, below the guesses with a tree.
MAYBE_BETTER = "maybe better, no tree yet"


@dataclass(frozen=True)
class Valuation:
    """A position's value within a budget: the best guess found, its value, each asked guess's value.

    `capped`: the wall-clock safety cap, not the node budget, stopped the search before every value shown
    was settled (the output says so: CAPPED_NOTE).
    """

    best: int
    value: Value
    guesses: dict[int, Value]
    proved: bool
    nodes: int
    seconds: float
    capped: bool = False


class _Bounds:
    """Running packed-cost bounds of one guess (or the position): low proved, high from a known tree."""

    def __init__(self, low: int, high: int = INFEASIBLE):
        self.low, self.high = low, high

    def raise_low(self, low: int) -> None:
        """A better lower bound (never lowers it)."""
        self.low = max(self.low, min(low, self.high))

    def lower_high(self, high: int) -> None:
        """A better tree (never raises it)."""
        self.high = min(self.high, high)
        self.low = min(self.low, self.high)

    def value(self, size: int) -> Value:
        """Per-answer bounds in guesses (the total part of the packed costs)."""
        low = math.inf if self.low >= INFEASIBLE else (self.low // SCALE) / size
        high = math.inf if self.high >= INFEASIBLE else (self.high // SCALE) / size
        if self.low >= self.high:
            low = high
        return Value(low=low, high=high, estimate=high if math.isfinite(high) else low)


class _Clock:
    """Arms a solver with a deadline and node limit, and says what is left."""

    def __init__(self, budget: Budget, solvers: Sequence[Solver], started: float):
        self.started = started
        self.budget = budget
        self.nodes_before = [solver.stats.nodes for solver in solvers]
        self.solvers = solvers

    def nodes(self) -> int:
        """Nodes every solver spent since the start."""
        return sum(solver.stats.nodes - before for solver, before in zip(self.solvers, self.nodes_before))

    def arm(self, solver: Solver, share: float = 1.0) -> None:
        """Let `solver` spend `share` of what is left of the budget."""
        now = time.perf_counter()
        if self.budget.seconds is not None:
            left = self.started + self.budget.seconds - now
            solver.deadline = now + max(0.0, left) * share
        if self.budget.nodes is not None:
            left = self.budget.nodes - self.nodes()
            solver.node_limit = solver.stats.nodes + max(0, int(left * share))

    def spent(self) -> bool:
        """Whether nothing of the budget is left."""
        if self.budget.seconds is not None and time.perf_counter() >= self.started + self.budget.seconds:
            return True
        return self.budget.nodes is not None and self.nodes() >= self.budget.nodes

    def capped(self) -> bool:
        """Whether the time cap has passed (so it, not the nodes, stopped whatever was still running)."""
        if self.budget.seconds is None or time.perf_counter() < self.started + self.budget.seconds:
            return False
        return self.budget.nodes is None or self.nodes() < self.budget.nodes

    @staticmethod
    def disarm(solver: Solver) -> None:
        """Remove the limits."""
        solver.deadline = solver.node_limit = None


_QUICK: "weakref.WeakKeyDictionary[Solver, tuple[Solver, ...]]" = weakref.WeakKeyDictionary()


def quick_solvers(solver: Solver) -> tuple[Solver, ...]:
    """The breadth-limited twins of an exact solver (kept with it, so their memory is reused too)."""
    quick = _QUICK.get(solver)
    if quick is None:
        quick = tuple(Solver(solver.game, hard=solver.hard, max_guesses=solver.max_guesses,
                             limits=Limits(top=breadth, memo=solver.limits.memo), long_game=solver.long_game,
                             ultra=solver.ultra)
                      for breadth in QUICK_BREADTHS)
        _QUICK[solver] = quick
    return quick


def value_position(game: Wordle, state: State, guesses: Sequence[int] = (), budget: Budget | None = None,
                   solver: Solver | None = None) -> Valuation:
    """Value a Guesser-to-move state (any steps, normal, hard or ultra-hard mode, any guess limit) and the given guesses.

    Args:
        game: the rules and the pattern matrix.
        state: the position (its candidates are the answers still possible).
        guesses: guess indices to value besides the best one.
        budget: solver nodes to spend, and a wall-clock cap (checked at every solver node); None: the
            mode's default (`default_budget`).
        solver: an exact solver for the state's mode and guess limit to reuse (its allocation only: its
            memory is emptied first, so that a state's value never depends on what was valued before).

    Returns:
        The best guess found, its value (the position's), and each asked guess's value.

    Raises:
        ValueError: the game is over, a guess is not allowed here, or the solver is for another mode or
            guess limit.
    """
    started = time.perf_counter()
    budget = default_budget(state.hard or state.ultra) if budget is None else budget
    if state.solved or state.guesses_left < 1 or len(state.candidates) == 0:
        raise ValueError("the game is over: there is no guess to value")
    if solver is None:
        solver = Solver(game, hard=state.hard, max_guesses=state.max_guesses, ultra=state.ultra)
    elif solver.hard != state.hard or solver.ultra != state.ultra or solver.max_guesses != state.max_guesses or solver.limits.top is not None:
        raise ValueError("the solver must be an exact one (no breadth limit) for the state's mode and guess limit")
    for guess in guesses:
        if not 0 <= int(guess) < len(game.words.guesses):
            raise ValueError(f"{guess} is not a guess index")
        if (broken := game.violation(state, int(guess))) is not None:
            raise ValueError(f"{game.words.guesses[int(guess)]}: {state.mode} mode: {broken}")
    answers = np.asarray(state.candidates)
    size, left = len(answers), state.guesses_left
    hints = solver.state_hints(state)
    quick = quick_solvers(solver)
    clock = _Clock(budget, (solver, *quick), started)
    asked = list(dict.fromkeys(int(guess) for guess in guesses))
    for solver_ in (solver, *quick):
        solver_.root = None
        solver_.forget_memory()
    bounds = {guess: _Bounds(solver.try_guess(answers, left, hints, guess, 0)) for guess in asked}
    # the opening book and the position table hold normal and hard mode's values only: none in ultra-hard mode
    book = opening_book(tuple(game.words.guesses), game.words.checksum, state.hard, state.max_guesses) \
        if not state.history and not state.ultra else OpeningBook()
    table = position_table(game, state.hard, state.max_guesses) if book.best is not None else None
    for guess, bound in bounds.items():  # what the exact opener job proved
        if guess in book.exact:
            bound.low = bound.high = book.exact[guess]
        elif guess in book.no_win:
            bound.low = bound.high = INFEASIBLE
        elif guess in book.lower:
            bound.raise_low(book.lower[guess])
            if table is not None and (added := table.opener_bounds(guess, size)) is not None:
                bound.lower_high(added[1])  # the table's replies make a real tree, and prove its cost where settled
                bound.raise_low(added[0])
                if bound.low >= bound.high:
                    continue
            if state.hard and solver.wins_within(answers, left, hints, guess, OPENER_WIN_EFFORT) is False:
                bound.low = bound.high = INFEASIBLE  # the book only bounds it; the win check proves no win
    learnt: dict[int, _Bounds] = {}
    known = table_value(game, state) if len(state.history) == 1 and size > 2 and not state.ultra else None
    try:
        if size <= 2:
            best, position = _small(solver, answers, left, hints, bounds)
        elif book.best is not None:
            best, position = book.best, _Bounds(book.exact[book.best], book.exact[book.best])
        elif known is not None and known.settled and known.guess is not None:
            best = game.words.guess_index[known.guess]  # the position table's proved value and guess
            position = _Bounds(known.low, known.low)
        else:
            best, position, learnt = _search(solver, quick, clock, answers, left, hints, book.exact)
        _value_asked(solver, quick, budget, started, answers, left, hints, bounds, learnt, best)
    finally:
        for solver_ in (solver, *quick):
            _Clock.disarm(solver_)
    values = {guess: bound.value(size) for guess, bound in bounds.items()}
    values[best] = position.value(size)
    if any(math.isinf(v.low) for v in values.values()):  # no win: how many answers each such guess loses
        best, values = _count_losses(solver, budget, started, answers, left, hints, best, values)
    value = values[best]
    capped = clock.capped() and not all(v.proved for v in values.values())
    return Valuation(best=best, value=value, guesses=values, proved=value.proved, nodes=clock.nodes(),
                     seconds=time.perf_counter() - clock.started, capped=capped)


_LOSSES: "weakref.WeakKeyDictionary[Solver, Solver]" = weakref.WeakKeyDictionary()


def losses_solver(solver: Solver) -> Solver:
    """The fewest-losses twin of an exact solver (kept with it, so its allocation is reused)."""
    twin = _LOSSES.get(solver)
    if twin is None:
        twin = Solver(solver.game, hard=solver.hard, max_guesses=solver.max_guesses,
                      limits=Limits(memo=solver.limits.memo), long_game=solver.long_game, objective=Objective.LOSSES,
                      ultra=solver.ultra)
        _LOSSES[solver] = twin
    return twin


def _count_losses(solver: Solver, budget: Budget, started: float, answers: np.ndarray, left: int,
                  hints: Hints | None, best: int, values: dict[int, Value]) -> tuple[int, dict[int, Value]]:
    """Where a guess (or the position) is proved to have no win: the answers it loses with best play after it.

    Fewest losses first, then fewest guesses: the order past "no win", the solver's LOSSES objective.
    Each such guess is searched on its own from an empty memory with GUESS_SHARE of the node budget,
    the position (when no guess wins at all) with the whole budget, so a count depends on the position
    and the guess alone. Proved: "loses N"; cut short: "loses ≥ N" from the search's running bound
    (at least 1, since no tree wins every answer). When the position has no win, its best guess is the
    one with the fewest losses found.
    """
    twin = losses_solver(solver)

    def count(guess: int | None, nodes: int | None) -> Value:
        twin.forget_memory()
        twin.memory.forget_verdicts()
        twin.root = None
        clock = _Clock(Budget(nodes=nodes, seconds=budget.seconds), (twin,), started)
        clock.arm(twin)
        twin.stats.bound = 0
        if guess is None:
            twin.root = twin.key(answers, left, hints)
        try:
            cost = twin.solve_set(answers, left, hints) if guess is None else \
                twin.try_guess(answers, left, hints, guess, INFEASIBLE, top_level=True)
            outcome = Objective.LOSSES.unpack(cost)
            low = high = float(max(1, outcome.losses))  # at least 1: the total objective proved no win
            guesses = outcome.total / len(answers)
        except BudgetSpent:
            low, high = float(max(1, Objective.LOSSES.unpack(twin.stats.bound).losses)), math.inf
            guesses = math.inf
        finally:
            _Clock.disarm(twin)
            twin.root = None
        return Value(math.inf, math.inf, math.inf, losses_low=low, losses_high=high, losing_guesses=guesses)

    whole = budget.nodes
    share = None if whole is None else max(1, int(whole * GUESS_SHARE))
    nothing_wins = math.isinf(values[best].low)  # the position is proved to have no win: neither has any guess
    counted = {guess: count(guess, share) if math.isinf(value.low) or nothing_wins else value
               for guess, value in values.items()}
    if math.isinf(values[best].low):  # nothing wins: the position's best is the guess losing fewest
        position = count(None, whole)
        found = twin.memo.get(twin.key(answers, left, hints), (0, -1, -1))[2]
        if found >= 0 and math.isfinite(position.losses_high):
            best = int(found)
            counted[best] = position
        else:  # not settled within the budget: the total objective's choice, counted as any asked guess
            counted[best] = count(best, share)
    return best, counted


def _small(solver: Solver, answers: np.ndarray, left: int, hints: Hints | None,
           bounds: dict[int, _Bounds]) -> tuple[int, _Bounds]:
    """One or two answers left: guess the first; every value is exact at once (no search)."""
    best = int(solver.game.words.answer_rows[answers[0]])
    for guess, bound in bounds.items():
        exact = solver.try_guess(answers, left, hints, guess, INFEASIBLE)
        bound.low = bound.high = exact
    exact = solver.try_guess(answers, left, hints, best, INFEASIBLE)
    return best, _Bounds(exact, exact)


def _judge(solver: Solver, answers: np.ndarray, left: int, hints: Hints | None, guess: int, limit: int,
           bound: _Bounds) -> int:
    """The guess's cost below `limit` (else a bound past it); cut short, its running bound is kept first."""
    solver.stats.bound = bound.low
    try:
        return solver.try_guess(answers, left, hints, guess, limit, top_level=True)
    except BudgetSpent:
        bound.raise_low(solver.stats.bound)
        raise


def _value_asked(solver: Solver, quick: tuple[Solver, ...], budget: Budget, started: float, answers: np.ndarray,
                 left: int, hints: Hints | None, bounds: dict[int, _Bounds], learnt: dict[int, _Bounds],
                 best: int) -> None:
    """Each asked guess not yet exact, on its own: what the position's search learnt of it, then its own search.

    Each starts from the memory the position's search left (restored before every guess) with
    GUESS_SHARE of the node budget, so a guess's value depends on the position and the guess alone,
    never on which other guesses were asked with it. The time cap is the valuation's, from its start.
    """
    memories = [solver_.memo for solver_ in (solver, *quick)]
    share = Budget(nodes=None if budget.nodes is None else max(1, int(budget.nodes * GUESS_SHARE)),
                   seconds=budget.seconds)
    for guess, bound in bounds.items():
        if guess in learnt:
            bound.raise_low(learnt[guess].low)
            bound.lower_high(learnt[guess].high)
        if guess == best or bound.low >= bound.high:
            continue
        for solver_, memory in zip((solver, *quick), memories):
            solver_.use_memo(dict(memory))
        clock = _Clock(share, (solver, *quick), started)
        for narrow in quick:  # a tree for the guess: its high
            try:
                clock.arm(narrow, QUICK_SHARE)
                bound.lower_high(narrow.try_guess(answers, left, hints, guess, INFEASIBLE))
            except BudgetSpent:
                break
        if bound.low < bound.high and not clock.spent():
            try:
                clock.arm(solver)
                bound.low = bound.high = _judge(solver, answers, left, hints, guess, INFEASIBLE, bound)
            except BudgetSpent:
                pass
        for solver_ in (solver, *quick):
            _Clock.disarm(solver_)
    for solver_, memory in zip((solver, *quick), memories):
        solver_.use_memo(memory)


def _search(solver: Solver, quick: tuple[Solver, ...], clock: _Clock, answers: np.ndarray, left: int,
            hints: Hints | None, known: dict[int, int] | None = None) -> tuple[int, _Bounds, dict[int, _Bounds]]:
    """The position's value: quick trees for an incumbent, then the proof under it (no asked guess takes part).

    `known`: guesses whose exact cost is already proved (the opening book's), taken as they are.

    Returns:
        (the best guess, the position's bounds, each guess's bounds as the search left them).
    """
    order, lower, floor = solver.bounds(answers, left, hints)
    order, lower = order.tolist(), lower.tolist()
    candidates = {guess: _Bounds(low) for guess, low in zip(order, lower)}
    rest_floor = floor  # the least bound of the guesses never worth trying
    best = order[0] if order else int(solver.game.words.answer_rows[answers[0]])
    incumbent = INFEASIBLE
    # 1. quick trees: the incumbent
    for narrow in quick:
        try:
            clock.arm(narrow, QUICK_SHARE)
            quick_cost = narrow.solve_set(answers, left, hints)
            quick_guess = narrow.memo.get(narrow.key(answers, left, hints), (0, -1, -1))[2]
            if quick_cost < incumbent and quick_guess >= 0:
                best, incumbent = quick_guess, quick_cost
                candidates.setdefault(quick_guess, _Bounds(0))
                candidates[quick_guess].lower_high(quick_cost)
        except BudgetSpent:
            break
    for guess, cost in (known or {}).items():
        if guess in candidates:
            candidates[guess].low = candidates[guess].high = cost
            if cost < incumbent:
                best, incumbent = guess, cost
    # 2. the proof: each guess by its bound, under the best total so far
    proved = False
    try:
        clock.arm(solver)
        for guess in order:
            limit = incumbent + 1 if guess == best else incumbent
            bound = candidates[guess]
            if bound.low >= incumbent and guess != best or guess == best and bound.low >= bound.high:
                continue
            cost = _judge(solver, answers, left, hints, guess, limit, bound)
            if cost < limit:
                bound.low = bound.high = cost
                best, incumbent = guess, cost
            else:
                bound.raise_low(cost)
        proved = True
    except BudgetSpent:
        pass
    # the position: the best tree known above, the least bound of any guess not refuted below
    position = _Bounds(min([b.low for b in candidates.values()] + [rest_floor]), incumbent)
    if proved:
        position = _Bounds(incumbent, incumbent)
    return best, position, candidates
