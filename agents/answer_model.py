"""Answer models: which words can be today's answer, and how likely each is.

Since November 2022 the New York Times' editor curates Wordle's answers: they still come
mostly from the original 2315, new ones keep appearing, and plurals of three- and four-letter
words by S or ES are never answers. A model, chosen by name, says which words may be the
answer and with what weight; every command (assist, review) and the web use the same ones:

- `original`: the original 2315 answers, equally likely (the tournament's lists);
- `nyt`: the 2309 the Times kept from them, equally likely;
- `likely`: every allowed guess that the Times' stated rule does not rule out, the original
  answers at full weight and every other word weighted by how common it is (the wordfreq
  prior of heuristics/prior.py, in (0, 1));
- `all`: every allowed guess, equally likely;
- or a file of answers, equally likely.

Every model keeps its full-weight words first in its answer list (the `tier`): the exact
solver values positions over them, all equally likely, and a model whose candidates are all
in the tier has exact values (agents/model_value.py). `exclude` removes words that cannot be
the answer today (the user's own list, for instance of past answers; none is shipped).

A game that contradicts a model is never a dead end: `wider` names the next model to try
(original and nyt widen to likely, likely and files to all).

The plural rule, on words as letters only: a word is ruled out when it is a four-letter word
plus S (not SS) or a three-letter word plus ES, where a "word" of three or four letters is
one wordfreq rates at least PLURAL_STEM_ZIPF. On the original answers it flags only CHAOS
(from "chao"); original answers keep their full weight whatever the rule says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from heuristics.prior import word_prior
from wordle import State, Wordle, WordListError, Words
from plumbing.errors import UserError
from wordle.game import DEFAULT_MAX_GUESSES
from wordle.words import NAMED_ANSWERS, load_words, named_words, read_word_file

#: The models by name, with what each holds.
MODELS = {
    "likely": "every allowed word the Times' rules leave possible, the original answers at full weight and the "
              "rest by how common they are",
    **NAMED_ANSWERS,
}
#: The model assist, review and the web advise with unless told otherwise: today's answer may be a word the
#: original list lacks (GUANO, 2023), so only `likely` covers a game played today.
DEFAULT_MODEL = "likely"
#: The model each one widens to when a game contradicts it (none for `all`: no allowed word fits).
WIDER = {"original": "likely", "nyt": "likely", "likely": "all"}
#: wordfreq's Zipf frequency from which a three- or four-letter string counts as a word for the plural rule
#: (2.5: on the original answers the rule then flags only CHAOS; at 2.0 it flags BASIS and TORUS too).
PLURAL_STEM_ZIPF = 2.5


class ExcludedEverything(UserError):
    """An exclude list that leaves no possible answer."""


@dataclass(frozen=True, eq=False)
class AnswerModel:
    """The answers a game may have and their weights.

    Attributes:
        name: the model's name (or the answer file's path).
        game: the game over the model's answer list, full-weight words first.
        weights: one per answer of `game`, summing to 1; 0 for excluded words.
        tier: answers 0 .. tier-1 have full weight (the largest weight); the rest less.
        tier_game: the game over the tier's answers alone (the same indices), which the exact solver values.
        excluded: the words the exclude list names (those of the answer list are removed).
        guesses: the guess list's path (None: the official one), kept to load a wider model.
    """

    name: str
    game: Wordle = field(repr=False)
    weights: np.ndarray = field(repr=False)
    tier: int
    tier_game: Wordle = field(repr=False)
    excluded: tuple[str, ...] = ()
    guesses: str | Path | None = None

    @property
    def uniform(self) -> bool:
        """Whether every possible answer is equally likely (then the solver's values are the model's)."""
        return self.tier == len(self.game.words.answers)

    @property
    def wider(self) -> str | None:
        """The model to widen to when a game contradicts this one."""
        return WIDER.get(self.name, None if self.name == "all" else "all")

    def initial_state(self, hard: bool = False, max_guesses: int = DEFAULT_MAX_GUESSES) -> State:
        """The start of a game: every answer the model allows."""
        start = self.game.initial_state(hard=hard, max_guesses=max_guesses)
        return State(candidates=np.flatnonzero(self.weights > 0), hard=hard, max_guesses=start.max_guesses)

    def chances(self, candidates: np.ndarray) -> np.ndarray:
        """Each candidate's chance of being the answer, given that one of them is."""
        weights = self.weights[candidates]
        return weights / weights.sum()

    def describe(self) -> str:
        """The model in a few words, for headers: its name and how many answers it allows."""
        allowed = int(np.count_nonzero(self.weights))
        removed = len(self.weights) - allowed
        less = f", {removed} excluded" if removed else ""
        return f"{self.name} ({allowed} answers{less})"


def uniform_model(game: Wordle, name: str = "game") -> AnswerModel:
    """The game's own answer list as an answer model, every answer equally likely (play's trace, the advisor)."""
    size = len(game.words.answers)
    return AnswerModel(name=name, game=game, weights=np.full(size, 1.0 / size), tier=size, tier_game=game)


def is_short_plural(word: str, frequency: Callable[[str], float]) -> bool:
    """Whether the plural rule rules `word` out: a 4-letter word + S (not SS), or a 3-letter word + ES.

    Args:
        word: a five-letter word.
        frequency: the Zipf frequency of a string (wordfreq's).

    >>> common = {"tale": 4.3, "box": 4.9}.get
    >>> [is_short_plural(w, lambda s: common(s, 0.0)) for w in ("tales", "boxes", "bliss", "guano")]
    [True, True, False, False]
    """
    if word.endswith("s") and not word.endswith("ss") and frequency(word[:-1]) >= PLURAL_STEM_ZIPF:
        return True
    return word.endswith("es") and frequency(word[:-2]) >= PLURAL_STEM_ZIPF


def zipf(text: str) -> float:
    """wordfreq's Zipf frequency of a string in English (its large list)."""
    import wordfreq  # imported here: only building the likely model needs it

    return float(wordfreq.zipf_frequency(text, "en", wordlist="large"))


def likely_words(words: Words, frequency: Callable[[str], float] = zipf) -> tuple[tuple[str, ...], np.ndarray]:
    """The likely model's answers (the original answers first, then the other allowed words the rule leaves, in
    guess order) and their weights before normalising (1 for an original answer, else the word's prior)."""
    answers = set(words.answers)
    rest = [word for word in words.guesses if word not in answers and not is_short_plural(word, frequency)]
    prior = word_prior(words.guesses)
    weights = np.concatenate([np.ones(len(words.answers)), prior[[words.guess_index[w] for w in rest]]])
    return tuple(words.answers) + tuple(rest), weights


def read_exclusions(path: str | Path) -> tuple[str, ...]:
    """The words of an exclude file, one a line (validated as a word list)."""
    return tuple(read_word_file(path))


def model_words(name: str, guesses: str | Path | None = None) -> tuple[Words, np.ndarray, int]:
    """A model's word lists, raw weights and tier, by name or answer file (see the module docstring)."""
    if name == "likely":
        base = load_words(guesses=guesses)
        answers, weights = likely_words(base)
        return Words.build(answers, base.guesses, source="likely"), weights, len(base.answers)
    if name in NAMED_ANSWERS:
        words = named_words(name, guesses)
    elif Path(name).exists():
        words = load_words(answers=name, guesses=guesses)
    else:
        raise WordListError(f"{name}: no such file, nor an answer model's name ({', '.join(MODELS)})")
    return words, np.ones(len(words.answers)), len(words.answers)


def load_model(name: str = DEFAULT_MODEL, guesses: str | Path | None = None, exclude: tuple[str, ...] = (),
               make_game: Callable[[Words], Wordle] = Wordle) -> AnswerModel:
    """The answer model by name (or answer file), less the excluded words.

    Args:
        name: a name of MODELS or the path of an answer list.
        guesses: the allowed-guess list's path (default: the official one).
        exclude: words that cannot be the answer today (each must be an allowed guess).
        make_game: builds the game over the model's lists (the CLI's shows a spinner while a matrix is built).

    Raises:
        WordListError: an unknown name or file, or an excluded word that is not an allowed guess.
        ExcludedEverything: the exclusions leave no answer.
    """
    words, weights, tier = model_words(name, guesses)
    for word in exclude:
        words.guess_id(word)
    ruled_out = set(exclude)
    gone = np.array([word in ruled_out for word in words.answers], dtype=bool)
    if gone.all():
        raise ExcludedEverything(f"the exclude list removes every one of the {len(gone)} answers of model '{name}'")
    weights = np.where(gone, 0.0, weights)
    game = make_game(words)
    tier_game = game if tier == len(words.answers) else make_game(
        Words.build(words.answers[:tier], words.guesses, source=f"{name}'s full-weight answers"))
    return AnswerModel(name=name, game=game, weights=weights / weights.sum(), tier=tier, tier_game=tier_game,
                       excluded=tuple(exclude), guesses=guesses)


def widen(model: AnswerModel, make_game: Callable[[Words], Wordle] = Wordle) -> AnswerModel | None:
    """The next wider model (same guesses, same exclusions), or None after `all`."""
    if model.wider is None:
        return None
    return load_model(model.wider, model.guesses, model.excluded, make_game)


__all__ = ["AnswerModel", "DEFAULT_MODEL", "ExcludedEverything", "MODELS", "PLURAL_STEM_ZIPF", "WIDER",
           "is_short_plural", "likely_words", "load_model", "model_words", "read_exclusions", "widen"]
