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
from search import State, Wordle
from search.words import encode_letters

from .greedy import GreedyAgent, Ranking
from .registry import Option, add_option, register


def parse_combine(text: str) -> str:
    """A combination name from the command line."""
    if text not in COMBINE:
        raise ValueError(f"'{text}' is not a combination; choose one of {', '.join(COMBINE)}")
    return text


def parse_switch(text: str) -> bool:
    """yes/no (also on/off, true/false, 1/0) from the command line."""
    value = text.strip().lower()
    if value in ("yes", "on", "true", "1"):
        return True
    if value in ("no", "off", "false", "0"):
        return False
    raise ValueError(f"'{text}' is not yes or no")


add_option(Option("combine", parse_combine, metavar="|".join(COMBINE),
                  help="letter-frequency: how local and global letter shares combine (default product)"))
add_option(Option("candidates_only", parse_switch, metavar="yes|no",
                  help="letter-frequency: guess only words that can still be the answer (default no)"))


@register("letter-frequency", "scores words by how common their letters are among the possible answers",
          options=("combine", "candidates_only"))
class LetterFrequencyAgent(GreedyAgent):
    """Plays the legal guess with the best letter score; decisions cached by state."""

    def __init__(self, game: Wordle, combine: str = "product", candidates_only: bool = False):
        super().__init__(game)
        self.combine = parse_combine(combine)
        self.candidates_only = bool(candidates_only)
        self.answer_letters = encode_letters(list(game.words.answers))
        self.first = first_occurrences(game.guess_letters)

    def settings(self) -> dict[str, object]:
        """The combination and whether only candidates are guessed."""
        return {"combine": self.combine, "candidates_only": self.candidates_only}

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
