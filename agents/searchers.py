"""The adversarial-search Guessers: minimax, alpha-beta, expectimax and the decision tree.

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility` (solving with guess k is worth max_guesses + 1 - k).

Each agent keeps its searches' caches and its decisions by state, so playing every
answer costs about as much as building one decision tree. Decisions that depend on the
game's generator (zero mode's random tie-break) are never kept.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from heuristics.evaluation import DEFAULT_THRESHOLD, make_evaluation
from search import State, Wordle
from search.algorithms import alphabeta, expectimax, minimax
from search.limits import Limit, SearchResult
from search.policies import wordle_policies
from search.table import TranspositionTable

from .base import Agent, Decision
from .options import DEFAULT_BEAM, DEFAULT_DEPTH, DEFAULT_POOL, DEFAULT_EVAL, DEFAULT_MODE, SEARCH_OPTIONS
from .registry import AgentError, register

SearchFunction = Callable[..., SearchResult]


class SearchAgent(Agent):
    """A Guesser that plays the move of one search algorithm under one evaluation and limit."""

    #: The search function; set by subclasses.
    algorithm: SearchFunction = staticmethod(expectimax)
    #: Whether the player, and so every Guesser node of its searches, guesses only answers still possible.
    candidates_only = False
    default_depth = DEFAULT_DEPTH

    def __init__(self, game: Wordle, depth: int | None = None, eval: str = DEFAULT_EVAL, eval_mode: str = DEFAULT_MODE,
                 threshold: int = DEFAULT_THRESHOLD, beam: int = DEFAULT_BEAM,
                 weights: tuple[float, float, float, float] | None = None, nodes: int | None = None,
                 pool: int = DEFAULT_POOL):
        super().__init__(game)
        try:
            self.evaluation = make_evaluation(eval, eval_mode, weights)
            self.limit = Limit(depth=self.default_depth if depth is None else depth, beam=beam,
                               threshold=threshold, nodes=nodes, pool=pool, **self.own_limits(depth or self.default_depth))
        except ValueError as error:
            raise AgentError(str(error)) from None
        random = self.evaluation.random_ties
        self.policies = wordle_policies(game, self.evaluation, self.limit, chance=type(self).algorithm is expectimax,
                                        candidates_only=self.candidates_only, keep=not random)
        self.table = None if random else TranspositionTable()
        self.decisions: dict[tuple, Decision] = {}

    def own_limits(self, depth: int) -> dict[str, object]:
        """Limit fields this player sets its own way, not from options (none: the Limit's defaults)."""
        return {}

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The search's move, from the decision cache when this state was decided before."""
        key = None if self.evaluation.random_ties else self.game.state_key(state)
        if key is not None and key in self.decisions:
            return self.decisions[key]
        result = type(self).algorithm(self.game, state, self.evaluation, self.limit, policies=self.policies,
                                      table=self.table, rng=rng)
        decision = Decision(guess=result.move, value=result.value, alternatives=result.alternatives,
                            nodes=result.nodes, depth=result.depth, budget_reached=result.budget_reached)
        if key is not None:
            self.decisions[key] = decision
        return decision

    def settings(self) -> dict[str, object]:
        """Depth, evaluation, mode, threshold, beam, weights and node budget."""
        weights = getattr(self.evaluation, "weights", None) if self.evaluation.name == "weighted" else None
        return {"depth": self.limit.depth, "eval": self.evaluation.name, "eval_mode": self.evaluation.mode,
                "threshold": self.limit.threshold, "beam": self.limit.beam, "weights": weights,
                "nodes": self.limit.nodes, "pool": self.limit.pool, "endgame": self.limit.endgame,
                "endgame_answers": self.limit.endgame_answers, "loss": self.limit.loss, "opening": self.limit.opening,
                "opening_top": self.limit.opening_top, "widen": self.limit.widen}


@register("minimax", "depth-limited minimax: the Indicator replies with the pattern worst for the Guesser",
          options=SEARCH_OPTIONS)
class MinimaxAgent(SearchAgent):
    """Plays minimax's move."""

    algorithm = staticmethod(minimax)


@register("alphabeta", "minimax's moves with alpha-beta pruning (fewer nodes)", options=SEARCH_OPTIONS)
class AlphaBetaAgent(SearchAgent):
    """Plays alpha-beta's move (the same as minimax's)."""

    algorithm = staticmethod(alphabeta)


@register("expectimax", "depth-limited expectimax: each reply weighted by how many answers give it",
          options=SEARCH_OPTIONS)
class ExpectimaxAgent(SearchAgent):
    """Plays expectimax's move."""

    algorithm = staticmethod(expectimax)


    def own_limits(self, depth: int) -> dict[str, object]:
        """At depth 2, the three best openers of the depth-2 search are searched again 3 deep.

        Measured (benchmarks/bench_search.py --depth 2 --hard): the depth-2 search opens with SLATE,
        which leads hard mode into the _ASTE trap (one failure); searched 3 deep, SALET comes first.
        """
        return {"opening": 3, "opening_top": 3} if depth == 2 else {}


@register("decision-tree", "expectimax choosing only among the answers still possible (default depth 1)",
          options=SEARCH_OPTIONS)
class DecisionTreeAgent(SearchAgent):
    """Always guesses a possible answer: the best one by expectimax (depth 1: by the evaluation)."""

    algorithm = staticmethod(expectimax)
    candidates_only = True
    default_depth = 1

    def own_limits(self, depth: int) -> dict[str, object]:
        """Bound as hard mode binds, it searches sets of up to 100 answers to the end, weighs a loss
        at 50 below a lost game's utility, and opens one guess deeper (up to 3) to see the traps.

        Measured (benchmarks/bench_search.py --depth 2): the candidates-only endgame alone left 4
        failures; with these settings 2 (see results/bench_search/decision-tree-*-depth-2.json).
        It does not widen a losing beam: widened (to 40 or 500 guesses) it lost 1 game instead of 2
        but averaged 3.5300 instead of 3.5283 in hard mode, in 26 s instead of 9.5 s.
        """
        return {"endgame_answers": 100, "loss": 50.0, "opening": min(depth + 1, 3), "widen": 0}
