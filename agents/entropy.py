"""Greedy maximum expected information: the guess whose reply tells most about the answer.

Values are from the Guesser's point of view: higher is better; an entropy agent's value
is the guess's expected information in bits. Ties go to a guess that can be the answer,
then to the smaller guess index.
"""

from __future__ import annotations

import numpy as np

from heuristics.partition import partition_stats
from wordle import State, Wordle

from .greedy import GreedyAgent, Ranking
from .registry import PLAYS_EVERY_GAME, register


def entropy_ranking(game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> Ranking:
    """Guesses ranked by expected information, then can-be-the-answer, then index.

    Args:
        game: the game whose matrix scores the guesses.
        candidates: answer indices still possible (non-empty).
        guesses: guess indices to rank, ascending.

    Returns:
        A Ranking whose value is the entropy in bits.
    """
    stats = partition_stats(game.matrix, candidates, guesses, answer_rows=game.words.answer_rows)
    return Ranking(guesses=stats.guesses, keys=(-stats.entropy, ~stats.can_win), value=stats.entropy)


@register("entropy", "greedy maximum expected information (ties: can be the answer, then index)",
          plays=PLAYS_EVERY_GAME)
class EntropyAgent(GreedyAgent):
    """Plays the legal guess of highest expected information; decisions cached by state."""

    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Entropy first, then can-win, then index."""
        return entropy_ranking(self.game, state.candidates, guesses)
