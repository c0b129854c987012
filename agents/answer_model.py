"""Answer models: which words can be today's answer, and how likely each is.

Since November 2022 the New York Times' editor curates Wordle's answers: they still come
mostly from the original 2315, new ones keep appearing, and plurals of three- and four-letter
words by S or ES are never answers. A model, chosen by name, says which words may be the
answer and with what weight; every command (assist, review) and the web use the same ones:

- `original`: the original 2315 answers, equally likely (the tournament's lists);
- `nyt`: the 2309 the Times kept from them, equally likely;
- `likely`: every allowed guess but the plurals of shorter words, the original answers at
  full weight and every other word weighted as fitted to the Times' answers of November 2022
  to December 2024 (agents/answer_fit.py): sigmoid(LIKELY_COEFFICIENTS · its kind), where the
  kind (wordle/data/word-kinds.tsv) is its frequency, whether a common dictionary has it, a
  larger one, only as a name (or as a proper noun or demonym first: JAPAN, ROMAN), or none, and
  whether it is a past tense; a word the Times would not pick for its taste (offensive, vulgar,
  slang such as GONNA, a fragment such as CALIF or VERSA, a British spelling such as METRE:
  wordle/data/word-taste.tsv) weighs
  UNFIT_WEIGHT, next to nothing, below every word the fit weighs;
- `fresh`: as `likely`, but an original answer the Times has already given (in the shipped record,
  wordle/nyt.py) weighs FRESH_REPEAT_WEIGHT: its editor mostly picks words not given yet (no
  answer repeated before February 2026), so the full-weight tier is the originals not given;
- `all`: every allowed guess, equally likely;
- or a file of answers, equally likely.

Every model keeps its full-weight words first in its answer list (the `tier`): the exact
solver values positions over them, all equally likely, and a model whose candidates are all
in the tier has exact values (agents/model_value.py). `exclude` removes words that cannot be
the answer today (the user's own list; past answers are no such list: the Times has reused
them since February 2026).

A game that contradicts a model is never a dead end: `wider` names the next model to try
(original and nyt widen to likely, likely and files to all).

The plural rule, for the Times never picks a plural of a three- or four-letter word by S or
ES: a word of the shipped kinds is ruled out when it is an -S form of a shorter word (its
`plural` column: a shorter noun or verb lemma in lemminflect's lexicon, as TRIES, MENUS, TAXIS,
or a word plus S, not SS, US, IS, or plus ES, as TALES, CARBS); it flags no original answer and
no answer the Times has given. A word of a user's guess list that the kinds lack is ruled out when it is a four-letter
word plus S (not SS) or a three-letter word plus ES, where a "word" of three or four letters is
one wordfreq rates at least PLURAL_STEM_ZIPF (that rule flags CHAOS and LORIS, which are kept:
original answers keep their full weight whatever the rule says), and weighs as a `rare` word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from agents.answer_fit import FEATURES, feature_vector, sigmoid
from wordle import State, Wordle, WordListError, Words
from plumbing.errors import UserError
from wordle.game import DEFAULT_MAX_GUESSES
from wordle.nyt import daily_answers
from wordle.words import NAMED_ANSWERS, WordKind, load_words, named_words, read_word_file, word_kinds

#: In `fresh`, an original answer the Times has given before weighs this much against one it has not: its editor
#: mostly picks words not given yet, and has given some again since February 2026. Fitted by
#: `python benchmarks/fit_likely.py` on the record's last year (agents/answer_fit.repeat_weight;
#: results/answer-model-fit.json).
FRESH_REPEAT_WEIGHT = 0.026028

#: The models by name, with what each holds.
MODELS = {
    "likely": "every allowed word but plurals, the original answers at full weight and the rest as fitted to the "
              "Times' answers (names and non-words far below; offensive, vulgar and slang words next to nothing)",
    "fresh": f"as likely, but an original answer the Times has already given (in the shipped record) weighs "
             f"{FRESH_REPEAT_WEIGHT:g}: its editor mostly picks words not given yet",
    **NAMED_ANSWERS,
}
#: The model assist, review and the web advise with unless told otherwise: today's answer may be a word the
#: original list lacks (GUANO, 2023), so only `likely` covers a game played today.
DEFAULT_MODEL = "likely"
#: The model each one widens to when a game contradicts it (none for `all`: no allowed word fits).
WIDER = {"original": "likely", "nyt": "likely", "likely": "all", "fresh": "all"}
#: wordfreq's Zipf frequency from which a three- or four-letter string counts as a word for the plural rule
#: (2.5: on the original answers the rule then flags only CHAOS; at 2.0 it flags BASIS and TORUS too).
PLURAL_STEM_ZIPF = 2.5
#: The weight of a word the Times would not pick for its taste (offensive, vulgar, slang, a fragment, a British
#: spelling: its kind's `taste`), against 1 for an original answer: not fitted (no answer of the record is of these kinds), and below
#: every weight the fit gives, so each ranks below every recorded answer.
UNFIT_WEIGHT = 1e-6
#: The likely model's coefficients over agents.answer_fit.FEATURES, fitted by `python benchmarks/fit_likely.py`
#: on the Times' answers of 7 November 2022 to 31 December 2024 (results/answer-model-fit.json).
LIKELY_COEFFICIENTS = {"intercept": -2.711462, "zipf": 1.115329, "known": -1.962603, "name": -3.083498, "rare": -5.264760,
                       "past": -3.168707}


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

    def initial_state(self, hard: bool = False, max_guesses: int = DEFAULT_MAX_GUESSES, ultra: bool = False) -> State:
        """The start of a game: every answer the model allows (`ultra`: ultra-hard mode)."""
        start = self.game.initial_state(hard=hard, max_guesses=max_guesses, ultra=ultra)
        return State(candidates=np.flatnonzero(self.weights > 0), hard=hard, max_guesses=start.max_guesses,
                     ultra=ultra)

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


def kind_of(word: str, kinds: dict[str, WordKind], frequency: Callable[[str], float] = zipf) -> WordKind | None:
    """A word's kind (a word the shipped kinds lack weighs as a rare word), or None if the plural rule rules it out."""
    kind = kinds.get(word)
    if kind is None:
        return None if is_short_plural(word, frequency) else WordKind(zipf=0.0, kind="rare", plural=False, past=False)
    return None if kind.plural else kind


def likely_features(words: Words) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The likely model's answers (the original answers first, then the other allowed words the plural rule
    leaves, in guess order), the features (agents.answer_fit.feature_vector) of those after the originals, and
    which of those the Times' taste rules out (they weigh UNFIT_WEIGHT)."""
    answers = set(words.answers)
    kinds = word_kinds()
    rest, features, unfit = [], [], []
    for word in words.guesses:
        if word in answers:
            continue
        kind = kind_of(word, kinds)
        if kind is not None:
            rest.append(word)
            features.append(feature_vector(kind))
            unfit.append(bool(kind.taste))
    return (tuple(words.answers) + tuple(rest), np.array(features).reshape(len(rest), len(FEATURES)),
            np.array(unfit, dtype=bool))


def likely_words(words: Words, coefficients: dict[str, float] | None = None, given: frozenset[str] = frozenset(),
                 repeat_weight: float = 1.0) -> tuple[tuple[str, ...], np.ndarray]:
    """The likely model's answers and their weights before normalising: 1 for an original answer not in `given`,
    `repeat_weight` for one in it, UNFIT_WEIGHT for a word the Times' taste rules out, else
    sigmoid(coefficients · features), below 1.

    The answers are those of likely_features, reordered so that the full-weight words come first: the original
    answers not given, then those given, then the other words in guess order (`likely` gives none; `fresh`
    gives the shipped record's answers and FRESH_REPEAT_WEIGHT).

    Args:
        words: the lists (the original answers and a guess list).
        coefficients: by feature name (default LIKELY_COEFFICIENTS, the fitted ones).
        given: the answers the Times has already given (default none).
        repeat_weight: an original answer's weight once given (default 1: as if never given).
    """
    coefficients = LIKELY_COEFFICIENTS if coefficients is None else coefficients
    model_answers, features, unfit = likely_features(words)
    theta = np.array([coefficients[name] for name in FEATURES])
    originals = model_answers[:len(words.answers)]
    fresh = tuple(word for word in originals if word not in given)
    again = tuple(word for word in originals if word in given)
    outside = np.where(unfit, UNFIT_WEIGHT, sigmoid(features @ theta))
    weights = np.concatenate([np.ones(len(fresh)), np.full(len(again), repeat_weight), outside])
    return fresh + again + model_answers[len(words.answers):], weights


def recorded_answers() -> frozenset[str]:
    """Every answer of the shipped record of the Times' days (wordle/nyt.py)."""
    return frozenset(day.word for day in daily_answers())


def read_exclusions(path: str | Path) -> tuple[str, ...]:
    """The words of an exclude file, one a line (validated as a word list)."""
    return tuple(read_word_file(path))


def model_words(name: str, guesses: str | Path | None = None) -> tuple[Words, np.ndarray, int]:
    """A model's word lists, raw weights and tier, by name or answer file (see the module docstring)."""
    if name in ("likely", "fresh"):
        base = load_words(guesses=guesses)
        answers, weights = (likely_words(base) if name == "likely" else
                            likely_words(base, given=recorded_answers(), repeat_weight=FRESH_REPEAT_WEIGHT))
        return Words.build(answers, base.guesses, source=name), weights, int(np.count_nonzero(weights == 1.0))
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
    tier_game = game if tier == len(words.answers) else Wordle(  # the tier's answers come first: its matrix's columns
        Words.build(words.answers[:tier], words.guesses, source=f"{name}'s full-weight answers"),
        np.ascontiguousarray(game.matrix[:, :tier]))
    return AnswerModel(name=name, game=game, weights=weights / weights.sum(), tier=tier, tier_game=tier_game,
                       excluded=tuple(exclude), guesses=guesses)


def widen(model: AnswerModel, make_game: Callable[[Words], Wordle] = Wordle) -> AnswerModel | None:
    """The next wider model (same guesses, same exclusions), or None after `all`."""
    if model.wider is None:
        return None
    return load_model(model.wider, model.guesses, model.excluded, make_game)


__all__ = ["AnswerModel", "DEFAULT_MODEL", "ExcludedEverything", "LIKELY_COEFFICIENTS", "MODELS", "PLURAL_STEM_ZIPF",
           "UNFIT_WEIGHT", "WIDER", "is_short_plural", "kind_of", "likely_features", "likely_words", "load_model", "model_words", "read_exclusions", "widen"]
