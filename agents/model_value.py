"""Guess values under an answer model: the exact solver's, and real trees under the model's weights.

Values are expected guesses to finish, the guess valued included, averaged over the answers
still possible with the model's weights (lower is better). Each is an interval: `high` a real
tree's value (what following that tree guarantees), `low` a proved bound; proved where they meet.

- Every candidate in the model's full-weight tier (all of them in a uniform model, or a weighted
  one whose other words the replies have ruled out): the answers left are equally likely, and the
  values are `wordle.valuation.value_position`'s (the uniform solver, its opening book and table).
- A weighted model with candidates outside the tier: the weighted solver's (`wordle.weighted_value`):
  every guess valued gets a real tree under the model's weights (rounded to integers,
  `wordle.solver.weighted.integer_weights`), the proved bound beside it, and a proof where they meet. The
  solver works on a game of the position's candidates alone (the model's matrix sliced), so a
  valuation depends on the position alone.

Guesses are ranked by what their tree achieves (`wordle.valuation.rank_key`): the chance of losing it
leaves first, then its expected guesses; a bound never ranks.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from wordle import State, Wordle, Words
from wordle.solver import Solver
from search.limits import Budget, BudgetSpent
from wordle.valuation import Value, default_budget, value_position
from wordle.solver import Limits
from wordle.solver.weighted import WeightedSolver, integer_weights
from wordle.weighted_book import WeightedBook, weighted_book, weights_checksum
from wordle.weighted_openers import bounded_interval
from wordle.matrix import answer_columns
from wordle.weighted_value import Interval, WeightedValuer, default_weighted_budget, interval_value

from .answer_model import AnswerModel

#: The budget of one position's valuation: None, the mode's default (`wordle.valuation.default_budget`: a
#: node count, the same result on any machine, and a wall-clock safety cap).
VALUE_BUDGET = None
#: The budget of a weighted valuation (beyond the breadth-1 tree every guess gets): None, the mode's default
#: (`wordle.weighted_value.default_weighted_budget`: a node count, the same on any machine, and a safety cap).
WEIGHTED_BUDGET = None
#: Above this many candidates a weighted position (the opening) is valued guess by guess, from the weighted opening
#: book where it covers the guess (its real tree and proved bound): the book's best is the position's best. A guess
#: the book lacks gets a bounded effort (`wordle.weighted_openers.bounded_interval`): its proved bound, and a real
#: tree only where the breadth-1 searches of its replies complete within OPENER_NODES sets.
SPLIT_FROM = 2500
#: Sets the breadth-1 searches may enter for one opener the weighted book lacks (a count of work, so a busy machine
#: shows the same value). An opener's whole breadth-1 tree over the likely model's 12539 answers on today's lists
#: takes 3,000 to 10,000 (results/weighted-openers-likely-normal.jsonl, `nodes`), so such an opener is shown with its
#: proved bound ("≥"), ranks after every guess with a tree, and its review step is not scored.
OPENER_NODES = 300


@dataclass(frozen=True)
class GuessValue:
    """A guess's expected guesses to finish under a model.

    `modelled`: part of it is an estimate (none of this module's values is: kept for the review's rules).
    `weighted`: valued under the model's weights, so a loss is a chance (`losses_high` the chance the tree loses).
    """

    value: Value
    modelled: bool = False
    weighted: bool = False

    @property
    def proved(self) -> bool:
        """Whether the value is exact."""
        return bool(self.value.proved)

    @property
    def estimate(self) -> float:
        """The best point estimate (the value itself when proved)."""
        return self.value.estimate

    @property
    def has_tree(self) -> bool:
        """Whether a real tree backs the value: it is proved, or a tree reaching `high` (or one losing `losses_high`)
        is known; False where only a proved bound is (an opener the weighted book lacks, cut by its node budget)."""
        value = self.value
        return bool(value.proved or math.isfinite(value.high) or math.isfinite(value.losses_high))

    def text(self) -> str:
        """The value as every command prints it: Value.text's rule; under weights, a tree that may lose answers reads
        "loses 0.41%" (the chance its tree loses; "≤ 0.41%" where a tree losing less may exist; "1.6e-06%" below
        0.01%)."""
        if self.modelled and not self.value.proved:
            return "no win" if math.isinf(self.value.estimate) else f"≈ {self.value.estimate:.3f}"
        value = self.value
        if self.weighted and (value.losses_low > 0 or (math.isinf(value.high) and math.isfinite(value.losses_high)
                                                       and value.losses_high > 0)):
            exact = value.losses_low == value.losses_high
            chance = value.losses_high
            shown = f"{chance:.2%}" if chance >= 1e-4 else f"{chance * 100:.1e}%"  # a rare word's chance, not 0.00%
            return f"loses {'' if exact else '≤ '}{shown}"
        return value.text()

    def data(self) -> dict:
        """As plain data: the estimate, its bounds, and whether it is proved or modelled."""
        def number(x: float) -> float | None:
            return None if math.isinf(x) else round(float(x), 6)
        found = {"text": self.text(), "estimate": number(self.value.estimate), "low": number(self.value.low),
                 "high": number(self.value.high), "proved": self.proved, "modelled": bool(self.modelled)}
        if self.weighted and (self.value.losses_low > 0 or self.value.losses_high > 0):  # the chance of losing
            found["chance_lost"] = {"at_least": round(float(self.value.losses_low), 9),
                                    "at_most": number(self.value.losses_high)}
        elif self.value.losses_low >= 1:  # no win: the answers lost with best play, at least and (where known) at most
            found["answers_lost"] = {"at_least": int(self.value.losses_low),
                                     "at_most": None if math.isinf(self.value.losses_high) else int(self.value.losses_high)}
        return found


@dataclass(frozen=True)
class ModelValuation:
    """The best guess found under the model and the values of the guesses asked about (and of the best).

    `capped`: the time cap, not the node budget, cut the solver (`wordle.valuation.Valuation.capped`).
    """

    best: int
    guesses: dict[int, GuessValue]
    proved: bool
    nodes: int
    seconds: float
    capped: bool = False

    @property
    def value(self) -> GuessValue:
        """The position's value: the best guess's."""
        return self.guesses[self.best]


def budget_text(budget: Budget | None, hard: bool) -> str:
    """A valuation budget in words, for spinners and notes: '300 nodes (30 s cap)'."""
    return (default_budget(hard) if budget is None else budget).describe()


class Valuer:
    """Values positions under one answer model, reusing one exact solver per mode and guess limit."""

    def __init__(self, model: AnswerModel, budget: Budget | None = VALUE_BUDGET, time_cap: bool = True,
                 opener_nodes: int = OPENER_NODES):
        self.model = model
        self.budget = budget
        self.time_cap = time_cap  # False: the default node budget alone (the advisor's games, any machine load)
        self.opener_nodes = opener_nodes  # the bounded effort for an opener the weighted book lacks
        self.solvers: dict[tuple[str, int], Solver] = {}  # by (mode, guess limit)
        self.opening_solvers: dict[tuple[bool, int], WeightedSolver] = {}
        self._integer: np.ndarray | None = None
        self._checksum: str | None = None

    @property
    def integer_weights(self) -> np.ndarray:
        """The model's weights as the weighted solver's integers (the heaviest answer at WEIGHT_SCALE)."""
        if self._integer is None:
            self._integer = integer_weights(self.model.weights)
        return self._integer

    def budget_for(self, state: State) -> Budget:
        """The budget of one valuation in the state's mode (without the time cap when `time_cap` is off)."""
        budget = default_budget(state.hard or state.ultra) if self.budget is None else self.budget
        return budget if self.time_cap else Budget(nodes=budget.nodes, seconds=None)

    def weighted_budget_for(self, state: State) -> Budget:
        """The budget of one weighted valuation in the state's mode (without the time cap when `time_cap` is off)."""
        budget = default_weighted_budget(state.hard) if WEIGHTED_BUDGET is None else WEIGHTED_BUDGET
        return budget if self.time_cap else Budget(nodes=budget.nodes, seconds=None)

    def solver(self, state: State) -> Solver:
        """The exact solver over the model's tier for the state's mode and guess limit."""
        key = (state.mode, state.max_guesses)
        if key not in self.solvers:
            self.solvers[key] = Solver(self.model.tier_game, hard=state.hard, max_guesses=state.max_guesses,
                                       ultra=state.ultra)
        return self.solvers[key]

    def value(self, state: State, guesses: list[int] | tuple[int, ...] = ()) -> ModelValuation:
        """The best guess and the values of `guesses` at a Guesser-to-move state, under the model.

        Args:
            state: the position (candidates index the model's game's answers).
            guesses: guess indices to value besides the best.

        Returns:
            The ModelValuation.
        """
        model = self.model
        candidates = np.asarray(state.candidates)
        asked = list(dict.fromkeys(int(g) for g in guesses))
        weights = self.integer_weights[candidates]
        if model.uniform or (weights == weights.max()).all() and (candidates < model.tier).all():
            tier_state = State(candidates=candidates, history=state.history, hard=state.hard,
                               max_guesses=state.max_guesses, ultra=state.ultra)
            found = value_position(model.tier_game, tier_state, asked, self.budget_for(state), self.solver(state))
            return ModelValuation(best=found.best, guesses={g: GuessValue(v) for g, v in found.guesses.items()},
                                  proved=found.proved, nodes=found.nodes, seconds=found.seconds, capped=found.capped)
        if state.ultra:
            raise ValueError("the weighted solver has no ultra-hard mode: value ultra-hard games with every answer "
                             "equally likely")
        return self.weighted(state, candidates, asked)

    def weighted(self, state: State, candidates: np.ndarray, asked: list[int]) -> ModelValuation:
        """A weighted model with candidates outside its tier: the weighted solver's values, a real tree for each guess,
        on a game of the candidates alone."""
        if len(candidates) > SPLIT_FROM:
            return self.split(state, candidates, asked)
        valuer = self.weighted_valuer(state, candidates)
        local = State(candidates=np.arange(len(candidates)), history=state.history, hard=state.hard,
                      max_guesses=state.max_guesses)
        try:
            found = valuer.value(local, asked, self.weighted_budget_for(state))
        except BudgetSpent:  # the safety cap cut a breadth-1 tree (a machine far too busy): valued as a big position
            return replace(self.split(state, candidates, asked), capped=True)
        return ModelValuation(best=found.best, guesses={g: GuessValue(v, weighted=True) for g, v in found.values.items()},
                              proved=found.proved, nodes=found.nodes, seconds=found.seconds, capped=found.capped)

    def book(self, state: State) -> WeightedBook | None:
        """The weighted opening book of the model's lists and weights for the state's mode, at the opening (else None)."""
        if state.history:
            return None
        game = self.model.game
        if self._checksum is None:
            self._checksum = weights_checksum(game.words.answers, self.integer_weights)
        return weighted_book(tuple(game.words.guesses), game.words.checksum, self._checksum, state.hard,
                             state.max_guesses)

    def opening_solver(self, state: State) -> WeightedSolver:
        """The breadth-1 weighted solver over the model's whole game for the state's mode and guess limit (for
        `bounded_interval`, which empties its memory before each guess)."""
        key = (state.hard, state.max_guesses)
        if key not in self.opening_solvers:
            self.opening_solvers[key] = WeightedSolver(self.model.game, self.integer_weights, hard=state.hard,
                                                       max_guesses=state.max_guesses, limits=Limits(top=1),
                                                       tier=False)
        return self.opening_solvers[key]

    def split(self, state: State, candidates: np.ndarray, asked: list[int]) -> ModelValuation:
        """A big weighted position: each asked guess from the weighted book, else its bounded effort (its proved
        bound, and its tree where the searches complete within `opener_nodes` sets); the best is the book's, else the
        best asked that has a tree, else (none has one) the first asked in `rank_key`'s order (the least bound), and
        never proved optimal (the book covers some openers, not all)."""
        started = time.perf_counter()
        game = self.model.game
        weights = self.integer_weights
        loss_unit = (state.max_guesses + 1) * int(weights.sum()) + 1
        book = self.book(state)
        hints = game.hints(state) if state.hard else None
        intervals: dict[int, Interval] = {}
        nodes = 0
        if book is not None and book.best is not None:
            intervals[book.best] = Interval(book.low[book.best], book.high[book.best])
        for guess in asked:
            if guess in intervals:
                continue
            if book is not None and guess in book.high:
                intervals[guess] = Interval(book.low[guess], book.high[guess])
                continue
            found = bounded_interval(self.opening_solver(state), candidates, state.guesses_left, hints, guess,
                                     self.opener_nodes)
            intervals[guess] = Interval(found.low, found.high)
            nodes += found.nodes
        if not intervals:  # nothing asked and no book: the likeliest answer, as a guess
            return self.split(state, candidates, [int(game.words.answer_rows[candidates[int(np.argmax(
                weights[candidates]))]])])
        rows = set(game.words.answer_rows[candidates].tolist())
        best = min(intervals, key=lambda g: (intervals[g].high is None,  # a tree first; none: rank_key's order
                                             intervals[g].low if intervals[g].high is None else intervals[g].high,
                                             g not in rows, g))
        total = int(weights[candidates].sum())
        values = {g: GuessValue(interval_value(interval, loss_unit, total), weighted=True)
                  for g, interval in intervals.items()}
        proved = False  # the book covers some openers, not all 14855: no best here is proved the optimum
        return ModelValuation(best=best, guesses=values, proved=proved, nodes=nodes,
                              seconds=time.perf_counter() - started)

    def opening_shortlist(self, state: State, count: int) -> list[int]:
        """At the opening of a weighted model with a weighted book: the book's openers of least high first (else
        none), for the advice's shortlist."""
        if self.model.uniform or len(state.candidates) <= SPLIT_FROM:
            return []
        book = self.book(state)
        if book is None:
            return []
        return sorted(book.high, key=lambda g: (book.high[g], g))[:count]

    def weighted_valuer(self, state: State, candidates: np.ndarray) -> WeightedValuer:
        """The weighted valuer of a game over these candidates alone (the model's weights), for the state's mode."""
        game = self.model.game
        words = Words.build(tuple(game.words.answers[int(a)] for a in candidates), game.words.guesses,
                            source="the candidates")
        local = Wordle(words, answer_columns(game.matrix, candidates))
        return WeightedValuer(local, self.integer_weights[candidates], state.hard, state.max_guesses)


def value_turns(valuer: Valuer, start: State, turns: Sequence[tuple[int, int]],
                others: Sequence[Sequence[int]] = ()) -> list[list[GuessValue]]:
    """Each turn's guess valued where it was played (then `others[i]`, that turn's alternatives), as review values it.

    Args:
        valuer: values positions under its answer model (the same call review, assist and the web make).
        start: the state before the first turn.
        turns: (guess, pattern) pairs, first first.
        others: per turn, more guesses to value there (an agent's alternatives); may be shorter than `turns`.

    Returns:
        Per turn, the played guess's value first, then each other guess's.
    """
    state, found = start, []
    game = valuer.model.game
    for number, (guess, pattern) in enumerate(turns):
        extra = [int(g) for g in (others[number] if number < len(others) else ()) if int(g) != int(guess)]
        valuation = valuer.value(state, [int(guess), *extra])
        found.append([valuation.guesses[int(guess)], *(valuation.guesses[g] for g in extra)])
        state = game.step(state, int(guess), int(pattern))
    return found


__all__ = ["budget_text", "GuessValue", "ModelValuation", "VALUE_BUDGET", "Valuer", "WEIGHTED_BUDGET", "value_turns"]
