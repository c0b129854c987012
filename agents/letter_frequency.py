"""Letter-frequency player: the guess whose letters are commonest among the answers still possible.

Values are from the Guesser's point of view: higher is better; the value is the letter
score of `heuristics.letters` under the chosen combination (sum, product, squares or
ratio; product by default). Guesses that cannot be the answer and leave every answer in
one group are skipped, since they make no progress. Ties go to a guess that can be the
answer, then to the smaller guess index.
"""

from __future__ import annotations

import numpy as np

from heuristics.letters import COMBINE, first_occurrences, letter_scores, letter_shares
from wordle import State, Wordle
from wordle.words import encode_letters

from .greedy import GreedyAgent, Ranking
from .params import CHOICE, SWITCH, Param
from .registry import register


COMBINE_PARAM = Param("combine", CHOICE, "product", "how local and global letter shares combine",
                      choices=tuple(COMBINE))
CANDIDATES_ONLY = Param("candidates_only", SWITCH, False, "guess only words that can still be the answer")


@register("letter-frequency", "scores words by how common their letters are among the possible answers",
          params=(COMBINE_PARAM, CANDIDATES_ONLY))
class LetterFrequencyAgent(GreedyAgent):
    """Plays the legal guess with the best letter score; decisions cached by state."""

    def __init__(self, game: Wordle, combine: str = "product", candidates_only: bool = False):
        super().__init__(game)
        self.combine = COMBINE_PARAM.check(combine)
        self.candidates_only = CANDIDATES_ONLY.check(candidates_only)
        self.answer_letters = encode_letters(list(game.words.answers))
        self.first = first_occurrences(game.guess_letters)

    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Letter score, then can-win, then index; non-candidates that do not split are left out."""
        candidates = state.candidates
        can_win = self.game.can_win(candidates, guesses)
        if self.candidates_only:
            guesses = guesses[can_win]
        else:
            patterns = np.take(self.game.matrix[guesses], candidates, axis=1)
            splits = (patterns != patterns[:, :1]).any(axis=1)
            guesses = guesses[splits | can_win]
        local, global_ = letter_shares(self.answer_letters, candidates)
        scores = letter_scores(self.game.guess_letters[guesses], local, global_, self.combine, self.first[guesses])
        return Ranking(guesses=guesses, keys=(-scores, ~self.game.can_win(candidates, guesses)), value=scores)
