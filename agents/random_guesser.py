"""The honest baseline: a seeded random choice among the answers still possible."""

from __future__ import annotations

import numpy as np

from wordle import State

from .base import Agent, Decision
from .registry import PLAYS_EVERY_GAME, register


@register("random", "a seeded random choice among the answers still possible", plays=PLAYS_EVERY_GAME)
class RandomGuesser(Agent):
    """Guesses a uniformly random possible answer (always legal in hard mode too)."""

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """A random candidate, as its guess index."""
        answer = state.candidates[int(rng.integers(len(state.candidates)))]
        return Decision(guess=int(self.game.words.answer_rows[answer]))
