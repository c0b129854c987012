"""Greedy maximum expected information: the guess whose reply tells most about the answer.

Values are from the Guesser's point of view: higher is better; an entropy agent's value
is the guess's expected information in bits. Ties go to a guess that can be the answer,
then to the smaller guess index.
"""

from __future__ import annotations

import numpy as np

from heuristics.partition import partition_stats
from search import State, Wordle

from .base import Decision
from .greedy import GreedyAgent, Ranking, best_of
from .registry import register


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


def best_entropy_guess(game: Wordle, state: State) -> Decision:
    """The greedy entropy choice for a state (uncached).

    With one candidate left it is the guess (0 bits to gain). With two, any candidate
    gains the full bit and can win, so the candidate with the smaller guess index is
    the choice without scoring every guess.
    """
    if len(state.candidates) == 1:
        guess = int(game.words.answer_rows[state.candidates[0]])
        return Decision(guess=guess, value=0.0, alternatives=((guess, 0.0),))
    if len(state.candidates) == 2:
        rows = np.sort(game.words.answer_rows[state.candidates])
        return Decision(guess=int(rows[0]), value=1.0, alternatives=tuple((int(row), 1.0) for row in rows))
    return best_of(entropy_ranking(game, state.candidates, game.legal_guesses(state)))


@register("entropy", "greedy maximum expected information (ties: can be the answer, then index)")
class EntropyAgent(GreedyAgent):
    """Plays the legal guess of highest expected information; decisions cached by state."""

    def choose(self, state: State) -> Decision:
        """The greedy entropy choice."""
        return best_entropy_guess(self.game, state)

    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Entropy first, then can-win, then index."""
        return entropy_ranking(self.game, state.candidates, guesses)
