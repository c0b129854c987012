"""The Wordle games the tests share: small games worked by hand, and random ones (the engine's games, none of them
Wordle, are in tests/toy_games.py).

Values are from the maximiser's (the Guesser's) point of view, higher is better.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from wordle import State, Wordle, load_words
from search.algorithms import alphabeta, expectimax, minimax
from search.limits import Limit
from wordle.policies import wordle_policies
from wordle.strategy import Strategy
from search.table import TranspositionTable

from .conftest import small_game

# -- Wordle, worked by hand ------------------------------------------------------------------
#: Six answers on which minimax and expectimax disagree (worked out in tests/test_policies.py).
ANSWERS = ["lanky", "black", "slack", "flask", "panel", "parka"]
#: Six answers a hard-mode opener can trap: _ASTE.
TRAP = ["baste", "caste", "haste", "paste", "taste", "waste"]
#: A strategy that weighs every guess of the small games.
UNLIMITED = dict(beam=100, pool=10**6)


def hand_game() -> tuple[Wordle, int, int]:
    """The six answers plus ACING, and the guess indices of ACING and LANKY."""
    game = small_game(ANSWERS, ["acing"])
    return game, game.words.guess_id("acing"), game.words.guess_id("lanky")


def trap_game() -> tuple[Wordle, State]:
    """The six _ASTE answers plus SLATE, SALET and TACES, and the state after SLATE in hard mode."""
    game = small_game(TRAP, ["slate", "salet", "taces"])
    slate = game.words.guess_id("slate")
    after = game.step(game.initial_state(hard=True), slate, game.reply(slate, game.words.answer_id("waste")))
    return game, after


def salet_trap() -> tuple[Wordle, State]:
    """The trap game, six guesses, hard mode, after SALET (y g - y y from all six _ASTE answers)."""
    game, _ = trap_game()
    salet = game.words.guess_id("salet")
    return game, game.step(game.initial_state(hard=True), salet, game.reply(salet, game.words.answer_id("waste")))


class Flat:
    """A test evaluation: every guess is worth base - offset (base = max_guesses - guesses used)."""

    random_ties = False

    def __init__(self, offset: float):
        self.offset = offset
        self.key = ("flat", offset)

    def values(self, game: Wordle, state: State, guesses: np.ndarray) -> np.ndarray:
        """base - offset for every guess."""
        return np.full(len(guesses), float(state.max_guesses - state.guesses_used - self.offset))


def search_wordle(search, game: Wordle, state: State, evaluation, limit: Limit, strategy: Strategy = Strategy(),
                  candidates_only: bool = False, among=None, table: TranspositionTable | None = None, rng=None):
    """One search with the Wordle policies of `strategy` for its algorithm, as the search agents run it."""
    policies = wordle_policies(game, evaluation, strategy, chance=search is expectimax, candidates_only=candidates_only)
    return search(game, state, evaluation, limit, policies=policies, table=table, rng=rng, among=among)


def wordle_minimax(*args, **kwargs):
    """`search_wordle` with minimax."""
    return search_wordle(minimax, *args, **kwargs)


def wordle_alphabeta(*args, **kwargs):
    """`search_wordle` with alpha-beta."""
    return search_wordle(alphabeta, *args, **kwargs)


def wordle_expectimax(*args, **kwargs):
    """`search_wordle` with expectimax."""
    return search_wordle(expectimax, *args, **kwargs)


# -- Wordle, random small games -----------------------------------------------------------------
WORDS = load_words()


@st.composite
def small_games(draw):
    """A random game of 3-9 official answers and a few extra guesses."""
    answer_ids = draw(st.lists(st.integers(0, len(WORDS.answers) - 1), min_size=3, max_size=9, unique=True))
    extra_ids = draw(st.lists(st.integers(0, len(WORDS.guesses) - 1), min_size=0, max_size=4, unique=True))
    return small_game([WORDS.answers[i] for i in answer_ids], [WORDS.guesses[i] for i in extra_ids])


def _families() -> list[list[str]]:
    """Official answers that differ in one position only, in sets of four or more (_ASTE, _ATCH, BASI_, ...)."""
    found: dict[tuple[int, str], list[str]] = {}
    for word in WORDS.answers:
        for position in range(5):
            found.setdefault((position, word[:position] + word[position + 1:]), []).append(word)
    return [family for family in found.values() if len(family) >= 4]


FAMILIES = _families()


@st.composite
def trap_games(draw):
    """A game whose answers are mostly one family: four to eight of it, up to two other answers, a few guesses."""
    family = draw(st.sampled_from(FAMILIES))
    answers = draw(st.lists(st.sampled_from(family), min_size=4, max_size=8, unique=True))
    others = draw(st.lists(st.integers(0, len(WORDS.answers) - 1), max_size=2, unique=True))
    answers += [WORDS.answers[i] for i in others if WORDS.answers[i] not in answers]
    extra_ids = draw(st.lists(st.integers(0, len(WORDS.guesses) - 1), min_size=0, max_size=4, unique=True))
    return small_game(answers, [WORDS.guesses[i] for i in extra_ids])
