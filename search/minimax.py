"""Minimax and alpha-beta: the Indicator replies with the pattern worst for the Guesser.

Values are from the Guesser's point of view, higher is better (the scale of
`Wordle.utility`). Alpha-beta returns the same move and value as minimax; without a
cache it visits no more nodes. With a cache it keeps only exact values (a cut-off node is
searched again when it recurs), so deep searches sharing one cache can visit more nodes
than minimax; at the agents' default depth 2 it visits about 40% of them. The values it
reports for the other root guesses are upper bounds.
"""

from __future__ import annotations

import numpy as np

from .engine import ALPHABETA, MINIMAX, SearchCache, run_search
from .game import State, Wordle
from .limits import Evaluator, Limit, SearchResult


def minimax(game: Wordle, state: State, evaluation: Evaluator, limit: Limit,
            rng: np.random.Generator | None = None, cache: SearchCache | None = None,
            among: np.ndarray | None = None, answers_only: bool = False) -> SearchResult:
    """The Guesser's best guess when the Indicator answers adversarially.

    Args:
        game: the rules and pattern matrix.
        state: a Guesser-to-move state of an unfinished game.
        evaluation: values guesses at the horizon and orders the beam.
        limit: depth, beam, threshold, node budget and pool.
        rng: seeded generator, needed only by evaluations with random tie-breaks.
        cache: values kept across searches by one player (None: nothing is kept).
        among: guess indices the root may choose from (default: every legal guess).
        answers_only: every Guesser node, the root included, guesses only answers still possible.

    Returns:
        SearchResult with the move, its value, nodes visited, depth reached and alternatives.
    """
    return run_search(MINIMAX, game, state, evaluation, limit, rng, cache, among, answers_only)


def alphabeta(game: Wordle, state: State, evaluation: Evaluator, limit: Limit,
              rng: np.random.Generator | None = None, cache: SearchCache | None = None,
              among: np.ndarray | None = None, answers_only: bool = False) -> SearchResult:
    """Minimax's move and value, pruning replies that cannot change them (same arguments as `minimax`)."""
    return run_search(ALPHABETA, game, state, evaluation, limit, rng, cache, among, answers_only)
