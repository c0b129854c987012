"""Guess values under an answer model: the exact solver's where the model is uniform, honest estimates where not.

Values are expected guesses to finish, the guess valued included, averaged over the answers
still possible with the model's weights (lower is better). Every solver value comes from
`wordle.valuation.value_position`, so the same state shows the same number everywhere.

- Every candidate in the model's full-weight tier (all of them in a uniform model, or a
  weighted one whose other words the replies have ruled out): the values are
  value_position's, proved or bounded, printed with `Value.text`.
- A weighted model with candidates outside the tier: with share p of the weight outside,
  a guess's value is (1 - p) * the solver's value over the tier's candidates (all equally
  likely) + p * the cost-to-go model's expected guesses for the others:
  1 if the guess is the answer, else 1 + F(answers its reply leaves) (heuristics/cost.py).
  That is an estimate, printed "≈ 3.480", with a proved lower bound beside it: the tier's
  low, and 1 or 2 guesses for each other word. It is exact, and printed plain, only when
  every reply of the guess leaves at most one answer.

A certain win is kept (the rule for a model whose answers go beyond the tier):
`losses_high` of a mix is the chance of losing that its best known tree leaves, and `rank_key`
orders by it first, so the advice
1. keeps a certain win over every possible answer where one is found: a guess proved to start a
   tree that wins them all has losses_high 0 (sought in hard mode, where at most CERTAIN_WIN_MOST
   answers are left, within CERTAIN_WIN_EFFORT sets searched: a count, the same on any machine);
2. else keeps a certain win over the tier's answers: a guess with a real tree for them has
   losses_high = the weight outside the tier (at most that is lost);
3. else loses the least: with one guess left the chance is exact (every answer but the guess is
   lost), and a guess with no tree known even for the tier's answers comes last (math.inf).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from heuristics.cost import cost_table
from wordle import ALL_GREEN, State, Wordle, Words
from wordle.solver import Solver
from search.limits import Budget
from wordle.valuation import Value, default_budget, order_key, value_position

from .answer_model import AnswerModel

#: The budget of one position's valuation: None, the mode's default (`wordle.valuation.default_budget`: a
#: node count, the same result on any machine, and a wall-clock safety cap).
VALUE_BUDGET = None
#: Up to this many candidates, a weighted model's best guess is also sought among the guesses the cost-to-go model
#: ranks first over every candidate (above it, among the tier's best and the guesses asked about only).
WEIGHTED_SEARCH_MOST = 3000
#: How many of the cost-to-go model's first guesses join the weighted search.
WEIGHTED_SHORTLIST = 3
#: Up to this many possible answers, a weighted model's valuation in hard mode looks for a guess that wins every one
#: of them (a certain win over the whole model, not only its full-weight tier) and proves which valued guesses keep
#: one. Not in normal mode, where any guess leaves room to recover (the advice lost none of the 2315 games without
#: it: results/advisor/normal-likely) and the search would only cost time.
CERTAIN_WIN_MOST = 150
#: The work each such proof may spend (sets searched by `Solver.winning_guess` / `Solver.wins_within`): a count,
#: so the same position gets the same answer on any machine; a search it cuts proves nothing (the guess keeps
#: only its tier's win).
CERTAIN_WIN_EFFORT = 2000


@dataclass(frozen=True)
class GuessValue:
    """A guess's expected guesses to finish under a model; `modelled`: part of it is the cost-to-go model's estimate."""

    value: Value
    modelled: bool = False

    @property
    def proved(self) -> bool:
        """Whether the value is exact."""
        return bool(self.value.proved)

    @property
    def estimate(self) -> float:
        """The best point estimate (the value itself when proved)."""
        return self.value.estimate

    def text(self) -> str:
        """The value as every command prints it: Value.text's rule, or "≈ 3.480" for a model estimate."""
        if self.modelled and not self.value.proved:
            return "no win" if math.isinf(self.value.estimate) else f"≈ {self.value.estimate:.3f}"
        return self.value.text()

    def data(self) -> dict:
        """As plain data: the estimate, its bounds, and whether it is proved or modelled."""
        def number(x: float) -> float | None:
            return None if math.isinf(x) else round(float(x), 6)
        found = {"text": self.text(), "estimate": number(self.value.estimate), "low": number(self.value.low),
                 "high": number(self.value.high), "proved": self.proved, "modelled": bool(self.modelled)}
        if self.value.losses_low >= 1:  # no win: the answers lost with best play, at least and (where known) at most
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

    def __init__(self, model: AnswerModel, budget: Budget | None = VALUE_BUDGET, time_cap: bool = True):
        self.model = model
        self.budget = budget
        self.time_cap = time_cap  # False: the default node budget alone (the advisor's games, any machine load)
        self.solvers: dict[tuple[bool, int], Solver] = {}

    def budget_for(self, state: State) -> Budget:
        """The budget of one valuation in the state's mode (without the time cap when `time_cap` is off)."""
        budget = default_budget(state.hard) if self.budget is None else self.budget
        return budget if self.time_cap else Budget(nodes=budget.nodes, seconds=None)

    def solver(self, state: State) -> Solver:
        """The exact solver over the model's tier for the state's mode and guess limit."""
        key = (state.hard, state.max_guesses)
        if key not in self.solvers:
            self.solvers[key] = Solver(self.model.tier_game, hard=state.hard, max_guesses=state.max_guesses)
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
        in_tier = candidates[candidates < model.tier]
        chances = model.chances(candidates)
        outside = float(chances[candidates >= model.tier].sum())
        asked = list(dict.fromkeys(int(g) for g in guesses))
        if outside == 0.0 or model.uniform:
            tier_state = State(candidates=in_tier, history=state.history, hard=state.hard,
                               max_guesses=state.max_guesses)
            found = value_position(model.tier_game, tier_state, asked, self.budget_for(state), self.solver(state))
            return ModelValuation(best=found.best, guesses={g: GuessValue(v) for g, v in found.guesses.items()},
                                  proved=found.proved, nodes=found.nodes, seconds=found.seconds, capped=found.capped)
        return self.weighted(state, candidates, in_tier, chances, outside, asked)

    def weighted(self, state: State, candidates: np.ndarray, in_tier: np.ndarray, chances: np.ndarray,
                 outside: float, asked: list[int]) -> ModelValuation:
        """A weighted model with weight outside the tier: the solver's tier values mixed with model estimates."""
        game = self.model.game
        shortlist = list(asked)
        if len(candidates) <= WEIGHTED_SEARCH_MOST:
            legal = game.legal_guesses(state)
            estimates = rest_estimates(game, candidates, chances, np.ones(len(candidates), dtype=bool), legal,
                                       state.guesses_left)[0]
            shortlist += [int(legal[i]) for i in np.argsort(estimates, kind="stable")[:WEIGHTED_SHORTLIST]]
        whole = self.whole_solver(state, candidates)
        certain = self.certain_win(state, whole)
        if certain is not None:
            shortlist.append(certain)
        tier_values: dict[int, Value] = {}
        nodes, seconds, tier_best, capped = 0, 0.0, None, False
        if in_tier.size:
            tier_state = State(candidates=in_tier, history=state.history, hard=state.hard,
                               max_guesses=state.max_guesses)
            found = value_position(self.model.tier_game, tier_state, shortlist, self.budget_for(state),
                                   self.solver(state))
            tier_values, nodes, seconds, tier_best = found.guesses, found.nodes, found.seconds, found.best
            capped = found.capped
        elif not shortlist:  # nothing in the tier and too many candidates to rank every guess: the likeliest answer
            shortlist = [int(game.words.answer_rows[candidates[int(np.argmax(chances))]])]
        valued = list(dict.fromkeys(shortlist + ([tier_best] if tier_best is not None else [])))
        rest = candidates >= self.model.tier
        estimate, low, exact = rest_estimates(game, candidates, chances, rest, np.array(valued), state.guesses_left)
        share_in = 1.0 - outside
        values = {}
        for i, guess in enumerate(valued):
            tier = tier_values.get(guess, Value(0.0, 0.0, 0.0))
            mixed_low = share_in * tier.low + outside * low[i]
            mixed = share_in * tier.estimate + outside * estimate[i]
            losses = self.losses(state, candidates, chances, outside, guess, tier, certain, whole)
            if exact[i] and tier.proved:
                values[guess] = GuessValue(Value(mixed, mixed, mixed, losses_high=losses))
            else:  # no tree for the whole mix; one for the tier's answers or none (then it may lose one of them)
                values[guess] = GuessValue(Value(min(mixed_low, mixed), math.inf, mixed, losses_high=losses),
                                           modelled=True)
        best = min(valued, key=lambda g: order_key(values[g].value, bool(game.can_win(candidates, np.array([g]))[0]), g))
        return ModelValuation(best=best, guesses=values, proved=False, nodes=nodes, seconds=seconds, capped=capped)


    def whole_solver(self, state: State, candidates: np.ndarray) -> Solver | None:
        """In hard mode with at most CERTAIN_WIN_MOST candidates, a solver over exactly these answers (its game's
        answers 0..n-1), for certain wins over all of them; else None. A small game of its own, so the model's
        whole matrix (138 MB for likely) is never transposed for it."""
        if not state.hard or len(candidates) > CERTAIN_WIN_MOST or state.guesses_left < 2:
            return None
        game = self.model.game
        words = Words.build(tuple(game.words.answers[int(a)] for a in candidates), game.words.guesses,
                            source="the candidates")
        return Solver(Wordle(words, np.ascontiguousarray(game.matrix[:, candidates])), hard=state.hard,
                      max_guesses=state.max_guesses)

    def certain_win(self, state: State, whole: Solver | None) -> int | None:
        """A guess proved to win every possible answer within the guesses left (CERTAIN_WIN_EFFORT), or None."""
        if whole is None:
            return None
        return whole.winning_guess(whole.game.all_answers, state.guesses_left, whole.state_hints(state),
                                   CERTAIN_WIN_EFFORT)

    def losses(self, state: State, candidates: np.ndarray, chances: np.ndarray, outside: float, guess: int,
               tier: Value, certain: int | None, whole: Solver | None) -> float:
        """A weighted model's `losses_high` of a guess: the chance of losing the game that its best known tree
        bounds (see the module docstring's rule).

        With one guess left it is exact: every answer but the guess is lost. Else 0 where a tree after the
        guess is proved to win every possible answer; the weight outside the tier where one is known for the
        tier's answers only (any of the others might be lost); math.inf where none is known even for those.
        `certain`: the guess `certain_win` found (None: none, and no other guess is tried either, since its
        search tries the likeliest winners first within the same effort).
        """
        rows = self.model.game.words.answer_rows[candidates]
        if state.guesses_left == 1:
            return float(1.0 - chances[rows == guess].sum())
        if certain is not None and whole is not None and (guess == certain or self.wins_all(state, whole, guess)):
            return 0.0
        return outside if tier.has_tree else math.inf

    def wins_all(self, state: State, whole: Solver, guess: int) -> bool:
        """Whether `guess` is proved (within CERTAIN_WIN_EFFORT) to start a tree that wins every possible answer."""
        return bool(whole.wins_within(whole.game.all_answers, state.guesses_left, whole.state_hints(state), guess,
                                      CERTAIN_WIN_EFFORT))


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


def rest_estimates(game: Wordle, candidates: np.ndarray, chances: np.ndarray, rest: np.ndarray,
                   guesses: np.ndarray, left: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each guess, over the candidates marked `rest` (weighted by their chances, renormalised): the cost-to-go
    model's expected guesses, their proved lower bound, and whether the estimate is exact.

    An answer costs 1 when it is the guess, else 1 + F(answers its reply leaves among all the candidates);
    the bound counts 1 or 2. The estimate is exact when every non-green reply leaves one answer. With
    `left` = 1 guess to go, an answer other than the guess cannot be finished (math.inf), exactly.
    """
    weights = chances[rest] / chances[rest].sum()
    table = cost_table(len(candidates))
    estimate = np.empty(len(guesses))
    low = np.empty(len(guesses))
    exact = np.empty(len(guesses), dtype=bool)
    for start in range(0, len(guesses), 512):
        rows = game.matrix[np.asarray(guesses[start:start + 512])][:, candidates].astype(np.int64)
        offsets = rows + (np.arange(len(rows)) * 243)[:, None]
        sizes = np.bincount(offsets.ravel(), minlength=len(rows) * 243)[offsets]
        hit = rows == ALL_GREEN
        cost = np.where(hit, 1.0, 1.0 + table[sizes] if left > 1 else math.inf)
        estimate[start:start + 512] = cost[:, rest] @ weights
        low[start:start + 512] = np.where(hit, 1.0, 2.0)[:, rest] @ weights
        exact[start:start + 512] = ((sizes == 1) | hit).all(axis=1) | (left == 1)
    return estimate, low, exact


__all__ = ["budget_text", "GuessValue", "ModelValuation", "VALUE_BUDGET", "Valuer", "rest_estimates", "value_turns"]
