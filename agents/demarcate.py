"""Min-largest-partition ("demarcate"): the guess whose worst reply leaves the fewest answers.

Values are from the Guesser's point of view: higher is better; a demarcate agent's value
is minus the largest group of answers a guess can leave. Ties are broken, in order, by
the smaller mean group (the expected size of the group the answer falls in), the smaller
smallest group, a guess that can be the answer, and the smaller guess index. Guesses that
leave every answer in one group are skipped: they cannot make progress.
"""

from __future__ import annotations

import numpy as np

from heuristics.partition import partition_stats
from wordle import State, Wordle

from .greedy import GreedyAgent, Ranking
from .registry import register


def demarcate_ranking(game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> Ranking:
    """The splitting guesses ranked by largest group, mean group, smallest group, can-win, index.

    Args:
        game: the game whose matrix scores the guesses.
        candidates: answer indices still possible (at least two).
        guesses: guess indices to consider, ascending.

    Returns:
        A Ranking over the guesses that split the candidates (all of them if none does),
        valued as minus the largest group.
    """
    stats = partition_stats(game.matrix, candidates, guesses, answer_rows=game.words.answer_rows)
    splits = stats.bins > 1
    keep = np.flatnonzero(splits) if splits.any() else np.arange(guesses.size)
    largest, expected, smallest = stats.largest[keep], stats.expected_size[keep], stats.smallest[keep]
    return Ranking(
        guesses=stats.guesses[keep],
        keys=(largest, expected, smallest, ~stats.can_win[keep]),
        value=-largest.astype(np.float64),
    )


@register("demarcate", "the guess whose largest group of answers is smallest (ties: mean group, smallest group, can win)")
class DemarcateAgent(GreedyAgent):
    """Minimises the largest group of answers a reply can leave; decisions cached by state."""

    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Largest group, mean group, smallest group, can-win, index (splitting guesses only)."""
        return demarcate_ranking(self.game, state.candidates, guesses)
