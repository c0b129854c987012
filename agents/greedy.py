"""The shared frame of the one-step (greedy) players: rank the legal guesses, play the best.

Values are from the Guesser's point of view: higher is better. A greedy player's choice
depends only on the state's key (candidates, guesses left, hard-mode hints), so each
decision is cached by `game.state_key`: the opening move is computed once, and the many
games that reach the same state share one computation.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

import numpy as np

from wordle import State, Wordle
from search.ranking import best_first

from .base import Agent, Decision

#: How many of the best guesses a Decision lists as alternatives.
ALTERNATIVES = 10


@dataclass(frozen=True, eq=False)
class Ranking:
    """Guesses with their lexicographic sort keys (each lower-is-better) and a value to report.

    Attributes:
        guesses: guess indices, ascending (the last tie-break is the smaller index).
        keys: sort keys, most important first, each aligned with `guesses`; lower is better
            (`search.ranking.best_first` orders by them).
        value: the player's own score of each guess, higher is better.
    """

    guesses: np.ndarray
    keys: tuple[np.ndarray, ...]
    value: np.ndarray

    def order(self) -> np.ndarray:
        """Positions of `guesses`, best first (ties go to the smaller guess index)."""
        return best_first(self.guesses, *self.keys)


def best_of(ranking: Ranking, alternatives: int = ALTERNATIVES) -> Decision:
    """The Decision for the best guess of a ranking, listing the top `alternatives`."""
    order = ranking.order()[:alternatives]
    top = tuple((int(ranking.guesses[i]), float(ranking.value[i])) for i in order)
    return Decision(guess=top[0][0], value=top[0][1], alternatives=top)


class GreedyAgent(Agent):
    """A player that ranks the legal guesses by one-step scores; decisions are cached by state key."""

    def __init__(self, game: Wordle):
        super().__init__(game)
        self._decisions: dict[tuple, Decision] = {}

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The best legal guess by `rank`, from the cache when this state was seen before."""
        key = self.game.state_key(state)
        decision = self._decisions.get(key)
        if decision is None:
            decision = self.choose(state)
            self._decisions[key] = decision
        return decision

    def choose(self, state: State) -> Decision:
        """The best legal guess (uncached), the top of `rank`.

        With one or two answers left, guessing one of them is best (the other can then
        only be next), so only those are ranked: cheap, and valued on the agent's own scale.
        """
        if len(state.candidates) <= 2:
            return best_of(self.rank(state, self.game.winning_guesses(state.candidates)))
        return best_of(self.rank(state, self.game.legal_guesses(state)))

    @abstractmethod
    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Sort keys and values for the given legal guesses in this state."""
