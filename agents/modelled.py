"""Searching against a known Indicator: the game whose Indicator nodes offer that Indicator's one reply.

Values are from the Guesser's point of view, higher is better, on the scale of `Wordle.utility`.

Minimax assumes the reply worst for the Guesser. A Guesser that knows it plays a deterministic
Indicator (Absurdle) can search the game that Indicator actually plays instead: `ModelledGame`
is Wordle with each Indicator node offering only the modelled reply, so minimax and alpha-beta
(search/algorithms.py) run on it unchanged, and the worst of one reply is that reply.

Against a deterministic Indicator the game is one path per choice of guesses, and what counts
is the fewest guesses to a win. `shortest_win` finds it by iterative deepening: horizon h = 1,
2, ... is searched to its end in the game cut off h guesses from now, so a value above 0 is a
win the search saw, not an evaluation's estimate.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np

from wordle import State, Wordle
from search.algorithms import Policies
from search.limits import Evaluator, Limit, SearchResult
from search.table import TranspositionTable

from .indicators import Indicator


class ModelledGame(Wordle):
    """Wordle as a Guesser sees it that knows its Indicator: each Indicator node offers that Indicator's reply alone."""

    def __init__(self, game: Wordle, indicator: Indicator):
        if not indicator.deterministic:
            raise ValueError(f"only a deterministic Indicator can be modelled, not '{indicator.name}'")
        super().__init__(game.words, game.matrix)
        self.indicator = indicator
        self._rng = np.random.default_rng(0)  # unused by a deterministic Indicator; its reply takes one

    def reply_of(self, state: State) -> int:
        """The modelled Indicator's reply to the pending guess of `state`."""
        return self.indicator.pattern(state, self._rng)

    def actions(self, state: State) -> np.ndarray:
        """As Wordle's, but an Indicator node offers the one reply the modelled Indicator gives."""
        if state.pending is None or self.is_terminal(state):
            return super().actions(state)
        return np.array([self.reply_of(state)], dtype=np.int64)

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        """The modelled reply, for certain."""
        if state.pending is None:
            raise ValueError("chance outcomes exist only while a guess awaits its reply")
        return [(self.reply_of(state), 1.0)]

    def answered(self, state: State, guess: int) -> State:
        """The state after `guess` and the modelled Indicator's reply."""
        asked = self.result(state, guess)
        return self.result(asked, self.reply_of(asked))


def cut_off(state: State, guesses: int) -> State:
    """`state` in the game that ends `guesses` guesses from now (a win later counts as a loss)."""
    return State(state.candidates, state.history, state.hard, state.guesses_used + guesses)


SearchFunction = Callable[..., SearchResult]


def shortest_win(algorithm: SearchFunction, game: ModelledGame, state: State, evaluation: Evaluator[State],
                 limit: Limit, policies: Policies[State], table: TranspositionTable | None,
                 rng: np.random.Generator | None, most: int) -> tuple[SearchResult | None, int]:
    """The first move of the shortest win over `game` within `most` guesses, and the nodes visited.

    Horizons h = 1 .. `most` are searched in turn, each `h` deep in the game cut off h guesses
    from now; the first whose value is above 0 (and whose node budget held) is a win in h, and
    its result comes back on the real game's scale. A line an earlier search found and kept in
    `table` (searched to its end, so exact) is played from there, so a found win is followed
    while the Indicator replies as modelled. (None, nodes) when no win is seen.

    Args:
        algorithm: `minimax` or `alphabeta` (search/algorithms.py).
        game: the game with the modelled Indicator.
        state: an unfinished state with the Guesser to move.
        evaluation, limit, policies, table, rng: as the search function takes them; `limit.depth` is replaced by h.
        most: the longest horizon tried.
    """
    nodes = 0
    for horizon in range(1, most + 1):
        cut = cut_off(state, horizon)
        entry = None if table is None else table.probe(policies.key(cut), horizon, -math.inf, math.inf)
        if entry is not None and entry.value > 0:
            result = SearchResult(move=entry.move, value=entry.value, nodes=0, depth=horizon)
        else:
            result = algorithm(game, cut, evaluation, replace(limit, depth=horizon), policies=policies, table=table,
                               rng=rng)
        nodes += result.nodes
        if result.value > 0 and not result.budget_reached:
            shift = state.max_guesses - cut.max_guesses  # a win with guess k is worth max_guesses + 1 - k
            alternatives = tuple((move, value + shift if value > 0 else value) for move, value in result.alternatives)
            return replace(result, value=result.value + shift, alternatives=alternatives, nodes=nodes), nodes
    return None, nodes
