"""Entropy with a word-frequency prior: information and the chance of winning now, in one estimate.

Values are from the Guesser's point of view: higher is better. Each possible answer a is
weighted by its prior (`heuristics.prior`: a sigmoid over its English frequency rank),
normalised over the answers still possible, q(a) = prior(a) / sum prior. For a guess g:

- I(g): the expected information of its reply under q, in bits;
- p(g): q(g) if g can be the answer, else 0;
- H: the uncertainty now, -sum q log2 q.

Its value is minus the expected number of guesses from here, counting this one:

    E(g) = 1 + (1 - p) * f((H - I) / (1 - p)),   f(h) = 1 + 0.5 * h ** 0.66

(H - I)/(1 - p) is the uncertainty expected to remain when g does not win. f estimates
the guesses still needed to resolve h bits; it is fixed by three anchors: f(0) = 1 (the
answer is known), f(1) = 1.5 (two equal candidates), and f(11.18) = 3.46 (all 2315
answers: greedy entropy's average). Ties go to more information, then a guess that can
be the answer, then the smaller index.

With `--prior-answers all` the answer list is taken as unknown: every allowed guess
consistent with the replies so far may be the answer, weighted by its prior, and the
patterns are computed on the fly (the opening move scores 12972 guesses against 12972
words, several seconds once; later moves are fast).
"""

from __future__ import annotations

import numpy as np

from heuristics.prior import word_prior
from wordle import State, Wordle
from wordle.matrix import pattern_matrix

from .base import Decision
from .greedy import GreedyAgent, Ranking, best_of
from .params import CHOICE, Param
from .registry import register

PRIOR_ANSWERS = ("list", "all")
#: f(h) = 1 + F_SCALE * h ** F_POWER: guesses still needed to resolve h bits (see the module docstring).
F_SCALE, F_POWER = 0.5, 0.66
_CHUNK_ROWS = 1024
_PATTERNS = 243


PRIOR_ANSWERS_PARAM = Param("prior_answers", CHOICE, "list", "possible answers are the answer list (list) or every "
                            "allowed guess (all)", choices=tuple(PRIOR_ANSWERS))


def guesses_to_go(bits: np.ndarray) -> np.ndarray:
    """f(h): the estimated guesses needed to resolve `bits` of uncertainty, this one included."""
    return 1.0 + F_SCALE * np.power(np.maximum(bits, 0.0), F_POWER)


def weighted_entropy(patterns: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per row of a (guesses, n) pattern block: entropy in bits of the reply, answers weighted by `weights`."""
    rows, n = patterns.shape
    total = weights.sum()
    flat = (np.arange(rows, dtype=np.int64)[:, None] * _PATTERNS + patterns).ravel()
    mass = np.bincount(flat, weights=np.tile(weights / total, rows), minlength=rows * _PATTERNS)
    mass = mass.reshape(rows, _PATTERNS)
    logs = np.log2(mass, out=np.zeros_like(mass), where=mass > 0)
    return np.maximum(-(mass * logs).sum(axis=1), 0.0)


def expected_guesses(information: np.ndarray, win_chance: np.ndarray, uncertainty: float) -> np.ndarray:
    """E(g) = 1 + (1 - p) f((H - I) / (1 - p)), and exactly 1 where p = 1."""
    miss = 1.0 - win_chance
    remaining = np.divide(uncertainty - information, miss, out=np.zeros_like(miss), where=miss > 1e-12)
    return 1.0 + miss * guesses_to_go(remaining)


def prior_ranking(guesses: np.ndarray, patterns_of, candidate_rows: np.ndarray, weights: np.ndarray) -> Ranking:
    """Guesses ranked by expected guesses to go, then information, then can-win, then index.

    Args:
        guesses: guess indices to rank, ascending.
        patterns_of: function from a block of guess indices to their (block, n) pattern codes.
        candidate_rows: guess index of each possible answer (n).
        weights: prior of each possible answer (n, positive).

    Returns:
        A Ranking valued as minus the expected guesses to go.
    """
    q = weights / weights.sum()
    uncertainty = float(-(q * np.log2(q)).sum())
    information = np.concatenate([weighted_entropy(patterns_of(guesses[start:start + _CHUNK_ROWS]), weights)
                                  for start in range(0, guesses.size, _CHUNK_ROWS)])
    chance_by_row = np.zeros(int(max(guesses.max(), candidate_rows.max())) + 1)
    chance_by_row[candidate_rows] = q
    win_chance = chance_by_row[guesses]
    expected = expected_guesses(information, win_chance, uncertainty)
    return Ranking(guesses=guesses, keys=(expected, -information, win_chance <= 0), value=-expected)


@register("entropy-prior", "entropy combined with how common a word is in English (wordfreq prior)",
          params=(PRIOR_ANSWERS_PARAM,))
class EntropyPriorAgent(GreedyAgent):
    """Minimises the estimated guesses to go under a word-frequency prior; decisions cached."""

    def __init__(self, game: Wordle, prior_answers: str = "list"):
        super().__init__(game)
        self.prior_answers = PRIOR_ANSWERS_PARAM.check(prior_answers)
        self.prior = word_prior(game.words.guesses)
        self._guess_words = np.array(game.words.guesses)

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """Cached by state key; with --prior-answers all the key is the history (it fixes the words left)."""
        if self.prior_answers == "list":
            return super().decide(state, rng)
        key = (state.history, state.hard, state.guesses_left)
        decision = self._decisions.get(key)
        if decision is None:
            decision = self.choose(state)
            self._decisions[key] = decision
        return decision

    def possible_words(self, state: State) -> np.ndarray:
        """Guess indices of the words that may be the answer: the candidates, or every consistent guess."""
        if self.prior_answers == "list":
            return self.game.winning_guesses(state.candidates)
        rows = self.game.all_guesses
        for guess, pattern in state.history:
            replies = pattern_matrix([self.game.words.guesses[guess]], list(self._guess_words[rows]))[0]
            rows = rows[replies == pattern]
        return rows

    def choose(self, state: State) -> Decision:
        """The only possible word, else the top of the ranking."""
        rows = self.possible_words(state)
        if rows.size == 1:
            return Decision(guess=int(rows[0]), value=-1.0, alternatives=((int(rows[0]), -1.0),))
        return best_of(self.rank(state, self.game.legal_guesses(state)))

    def rank(self, state: State, guesses: np.ndarray) -> Ranking:
        """Expected guesses to go under the prior, then information, can-win, index."""
        rows = self.possible_words(state)
        if self.prior_answers == "list":
            def patterns_of(block: np.ndarray) -> np.ndarray:
                return np.take(self.game.matrix[block], state.candidates, axis=1)
        else:
            words = list(self._guess_words[rows])

            def patterns_of(block: np.ndarray) -> np.ndarray:
                return pattern_matrix(list(self._guess_words[block]), words)
        return prior_ranking(guesses, patterns_of, rows, self.prior[rows])
