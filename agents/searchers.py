"""The adversarial-search Guessers: minimax, alpha-beta, expectimax and the decision tree.

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility` (solving with guess k is worth max_guesses + 1 - k).

Each agent keeps one `Memory` of its searches and decisions, so playing every answer
costs about as much as building one decision tree. Asked to (`keep_opening`, an advice
setting `play` and `assist` give it), it keeps its first two moves on disk
(agents/openings.py), so only the first game ever played pays for the opening; a
tournament does not, so that its node counts, which depend on what the opening search
left in the table, stay as they were. Decisions that depend on the game's generator
(zero mode's random tie-break) are never kept.

Minimax and alpha-beta may model the Indicator (`opponent`): against `absurdle` they search the
game Absurdle plays (agents/modelled.py), looking first for the shortest win within `depth`
guesses, each horizon searched to its end; only when none is seen do they play the usual
depth-limited search of that game. Such a player keeps no disk plan (its first move costs seconds).

Given a budget (`advice_nodes`, an advice setting `assist` gives it), a decision outside the
opening plan is bounded: the full search runs from an empty table under a node budget that
stops it, and its move is played only when it needs no more nodes than that; else the
move is a shallower search's (depth 2 at most, no endgame search, no widening), which always
finishes soon, and the decision says so (`Decision.fallback`). Both searches are
deterministic and start empty, so the same state always gets the same decision.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import numpy as np

from heuristics.evaluation import DEFAULT_WEIGHTS, make_evaluation
from wordle import ALL_GREEN, State, Wordle
from search.algorithms import Policies, alphabeta, expectimax, minimax
from search.limits import BudgetSpent, Limit, SearchResult
from wordle.policies import Rankings, wordle_policies
from wordle.strategy import Strategy
from search.table import TranspositionTable

from .base import Agent, Decision
from .indicators import make_indicator
from .modelled import ModelledGame, SearchFunction, shortest_win
from .openings import OpeningPlan, opening_key, opening_path, read_opening, write_opening
from .params import (ADVICE_NODES, ADVICE_PARAMS, BEAM, DEPTH, EVAL, EVAL_MODE, KEEP_OPENING, NODES, OPPONENT, POOL,
                     SEARCH_PARAMS, THRESHOLD)
from .registry import PLAYS_EVERY_GAME, AgentError, register


@dataclass
class Memory:
    """All a search agent keeps between decisions, in the order a decision looks it up.

    1. `decisions`: each state decided before, by state key, the disk opening plan's included
       (put here as a game starts, with `keep_opening`); a decision found here is played again.
    2. `table`: the node values the full searches found (a bounded decision starts from an empty
       table instead, so that it depends on the state alone).
    3. `rankings`: each node's ranked guesses and the pool, shared by the full and the fallback
       search, which rank alike.
    Nothing is kept with random tie-breaks (`table` None, `rankings` keeping no heads).
    """

    decisions: dict[tuple, Decision]
    table: TranspositionTable | None
    rankings: Rankings


class SearchAgent(Agent):
    """A Guesser that plays the move of one search algorithm under one evaluation and limit."""

    #: The search function; set by subclasses.
    algorithm: SearchFunction = staticmethod(expectimax)
    #: Whether the player, and so every Guesser node of its searches, guesses only answers still possible.
    candidates_only = False

    def __init__(self, game: Wordle, depth: int = DEPTH.default, eval: str = EVAL.default,
                 eval_mode: str = EVAL_MODE.default, threshold: int = THRESHOLD.default, beam: int = BEAM.default,
                 weights: list[float] | None = None, nodes: int | None = NODES.default, pool: int = POOL.default,
                 opponent: str = OPPONENT.default, keep_opening: bool = KEEP_OPENING.default,
                 advice_nodes: list[float] | None = ADVICE_NODES.default):
        super().__init__(game)
        try:
            self.evaluation = make_evaluation(eval, eval_mode, weights, threshold)
            self.limit = Limit(depth=depth, nodes=nodes)
            self.strategy = Strategy(beam=beam, pool=pool, **self.own_strategy(depth))
        except ValueError as error:
            raise AgentError(str(error)) from None
        if eval == "weighted" and weights is None:
            self.params["weights"] = list(DEFAULT_WEIGHTS)  # record the weights used, not "the default"
        #: Whether a game's first two moves come from the disk plan (an advice setting).
        self.keep_opening = keep_opening
        #: Node budgets of the decisions outside the opening plan, (second move, later moves), past which the
        #: shallower search decides (an advice setting; None: every decision is the full search's).
        self.advice_nodes = None if advice_nodes is None else whole_budgets(advice_nodes)
        random = self.evaluation.random_ties
        #: The game the searches run on: Wordle, or Wordle whose Indicator nodes give the modelled Indicator's reply.
        self.searched = game if opponent == OPPONENT.default else ModelledGame(game, make_indicator(opponent, game))
        chance = type(self).algorithm is expectimax
        self.policies = wordle_policies(self.searched, self.evaluation, self.strategy, chance=chance,
                                        candidates_only=self.candidates_only, keep=not random)
        self.memory = Memory({}, None if random else TranspositionTable(), self.policies.moves.rankings)
        #: The fallback of a bounded decision: depth 2 at most, no endgame search, no widening, no deeper
        #: opening; it weighs as many guesses as the full search, so its rankings are the full search's, shared.
        self.fallback = (replace(self.limit, depth=min(self.limit.depth, 2)),
                         wordle_policies(self.searched, self.evaluation, self.strategy.shallow(), chance=chance,
                                         candidates_only=self.candidates_only, rankings=self.memory.rankings))

    def own_strategy(self, depth: int) -> dict[str, object]:
        """Strategy fields this player sets its own way, not from options (none: the Strategy's defaults)."""
        return {}

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The search's move, from the decision cache when this state was decided before.

        With `keep_opening`, a game's first two moves come from the disk plan (searched
        and written there the first time a game starts). With `advice_nodes`, a decision
        outside the plan is bounded (`bounded_search`).
        """
        decisions = self.memory.decisions
        key = None if self.evaluation.random_ties else self.game.state_key(state)
        if key is not None and key not in decisions and self.keeps_plan and len(state.history) <= 1:
            self.load_plan(state.hard, state.max_guesses, search=not state.history)
        if key is not None and key in decisions:
            return decisions[key]
        nodes = self.advice_budget(state)
        decision = self.search(state, rng) if nodes is None else self.bounded_search(state, rng, nodes)
        if key is not None:
            decisions[key] = decision
        return decision

    def search(self, state: State, rng: np.random.Generator) -> Decision:
        """Run the full search on `state`, keeping its values in the agent's table."""
        return self.run(state, rng, self.limit, self.policies, self.memory.table)

    def run(self, state: State, rng: np.random.Generator, limit: Limit, policies: Policies[State],
            table: TranspositionTable | None) -> Decision:
        """One search of `state` under `limit` and `policies`, as a Decision; against a modelled Indicator,
        the shortest win it sees first."""
        nodes = 0
        if self.searched is not self.game:
            win, nodes = shortest_win(type(self).algorithm, self.searched, state, self.evaluation, limit, policies,
                                      table, rng, most=min(limit.depth, state.guesses_left))
            if win is not None:
                return decision_of(win)
        result = type(self).algorithm(self.searched, state, self.evaluation, limit, policies=policies, table=table,
                                      rng=rng)
        return decision_of(replace(result, nodes=result.nodes + nodes))

    @property
    def keeps_plan(self) -> bool:
        """Whether the first two moves come from the disk plan: asked to, and searching the worst reply.

        Against a modelled Indicator only one reply is ever expected, and the first move alone is
        searched (seconds), so no plan of a second move for every reply is built.
        """
        return self.keep_opening and self.searched is self.game

    def advice_budget(self, state: State) -> int | None:
        """The node budget of `state`'s decision from `advice_nodes` (None: the full search, as when the settings name one)."""
        if self.advice_nodes is None or self.limit.nodes is not None:
            return None
        return self.advice_nodes[0] if len(state.history) <= 1 else self.advice_nodes[1]

    def bounded_search(self, state: State, rng: np.random.Generator, nodes: int) -> Decision:
        """The full search's decision when it needs at most `nodes` nodes, else the shallower search's.

        Each search starts from an empty table, so whether the budget suffices depends on the
        state alone, not on what this agent searched before. The fallback's nodes count both searches.
        """
        budget = replace(self.limit, nodes=nodes, stop=True)
        try:
            return self.run(state, rng, budget, self.policies, self.empty_table())
        except BudgetSpent as spent:
            limit, policies = self.fallback
            decision = self.run(state, rng, limit, policies, self.empty_table())
            return replace(decision, nodes=spent.nodes + decision.nodes, budget_reached=True, fallback=True)

    def empty_table(self) -> TranspositionTable | None:
        """A new table for a search that must not depend on earlier ones (None when nothing is kept)."""
        return None if self.memory.table is None else TranspositionTable()

    def load_plan(self, hard: bool, max_guesses: int, search: bool) -> None:
        """Put the disk plan's decisions among this agent's; with `search`, search and write a missing plan."""
        start = self.game.initial_state(hard=hard, max_guesses=max_guesses)
        disk = self.opening_key(start)
        path = opening_path(disk)
        plan = read_opening(path, self.game, disk)
        if plan is None and search:
            rng = np.random.default_rng(0)  # unused: a search whose ties are random keeps no plan
            first = self.search(start, rng)
            after = self.game.result(start, first.guess)
            plan = OpeningPlan(first, {
                pattern: self.search(self.game.result(after, pattern), rng)
                for pattern, _ in self.game.partition(start.candidates, first.guess) if pattern != ALL_GREEN})
            write_opening(path, disk, plan)
        if plan is not None:
            self.memory.decisions[self.game.state_key(start)] = plan.first
            after = self.game.result(start, plan.first.guess)
            for pattern, decision in plan.seconds.items():
                self.memory.decisions[self.game.state_key(self.game.result(after, pattern))] = decision

    def opening_key(self, state: State) -> dict:
        """What this player's first move in `state`'s mode depends on (the disk cache's key)."""
        search = {"algorithm": type(self).algorithm.__name__, "candidates_only": self.candidates_only,
                  "limit": asdict(self.limit), "strategy": asdict(self.strategy),
                  "evaluation": repr(self.evaluation.key)}
        return opening_key(self.game, self.name or type(self).__name__, search, state.hard, state.max_guesses)

    def opening_cached(self, hard: bool, max_guesses: int) -> bool:
        """Whether the first move of this mode is already on disk (so deciding it is quick).

        A search against a modelled Indicator builds no plan, so it has none to wait for (True).
        """
        if self.searched is not self.game:
            return True
        state = self.game.initial_state(hard=hard, max_guesses=max_guesses)
        if self.evaluation.random_ties or not self.keeps_plan:
            return self.game.state_key(state) in self.memory.decisions
        disk = self.opening_key(state)
        return read_opening(opening_path(disk), self.game, disk) is not None


def whole_budgets(budgets: list[float]) -> tuple[int, int]:
    """The advice node budgets as two whole numbers of at least 1, or AgentError."""
    if any(budget != int(budget) or budget < 1 for budget in budgets):
        raise AgentError(f"advice_nodes must be two whole numbers of at least 1, got {budgets}")
    return int(budgets[0]), int(budgets[1])


def decision_of(result: SearchResult) -> Decision:
    """A search's result as the Decision an agent returns."""
    return Decision(guess=result.move, value=result.value, alternatives=result.alternatives,
                    nodes=result.nodes, depth=result.depth, budget_reached=result.budget_reached)


@register("minimax", "depth-limited minimax: the Indicator replies with the pattern worst for the Guesser "
          "(or, with --opponent absurdle, as Absurdle does)", params=(*SEARCH_PARAMS, OPPONENT), advice=ADVICE_PARAMS,
          plays=PLAYS_EVERY_GAME)
class MinimaxAgent(SearchAgent):
    """Plays minimax's move."""

    algorithm = staticmethod(minimax)


@register("alphabeta", "minimax's moves with alpha-beta pruning (fewer nodes)", params=(*SEARCH_PARAMS, OPPONENT),
          advice=ADVICE_PARAMS, plays=PLAYS_EVERY_GAME)
class AlphaBetaAgent(SearchAgent):
    """Plays alpha-beta's move (the same as minimax's)."""

    algorithm = staticmethod(alphabeta)


@register("expectimax", "depth-limited expectimax: each reply weighted by how many answers give it",
          params=SEARCH_PARAMS, advice=ADVICE_PARAMS, plays=PLAYS_EVERY_GAME)
class ExpectimaxAgent(SearchAgent):
    """Plays expectimax's move."""

    algorithm = staticmethod(expectimax)


    def own_strategy(self, depth: int) -> dict[str, object]:
        """At depth 2, the three best openers of the depth-2 search are searched again 3 deep.

        Measured (benchmarks/bench_search.py --depth 2 --hard): the depth-2 search opens with SLATE,
        which leads hard mode into the _ASTE trap (one failure); searched 3 deep, SALET comes first.
        """
        return {"opening": 3, "opening_top": 3} if depth == 2 else {}


@register("decision-tree", "expectimax choosing only among the answers still possible (default depth 1)",
          params=(DEPTH.with_default(1), *SEARCH_PARAMS[1:]), advice=ADVICE_PARAMS)
class DecisionTreeAgent(SearchAgent):
    """Always guesses a possible answer: the best one by expectimax (depth 1: by the evaluation)."""

    algorithm = staticmethod(expectimax)
    candidates_only = True

    def own_strategy(self, depth: int) -> dict[str, object]:
        """Bound as hard mode binds, it searches sets of up to 100 answers to the end, weighs a loss
        at 50 below a lost game's utility, and opens one guess deeper (up to 3) to see the traps.

        Measured (benchmarks/bench_search.py --depth 2): the candidates-only endgame alone left 4
        failures; with these settings 2 (see results/bench_search/decision-tree-*-depth-2.json).
        It does not widen a losing beam: widened (to 40 or 500 guesses) it lost 1 game instead of 2
        but averaged 3.5300 instead of 3.5283 in hard mode, in 26 s instead of 9.5 s.
        """
        return {"endgame_answers": 100, "loss": 50.0, "opening": min(depth + 1, 3), "widen": 0}
