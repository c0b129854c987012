"""The games the tests share: small Wordle games worked by hand, random ones, and abstract game trees.

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


# -- abstract game trees ---------------------------------------------------------------------
MAX, MIN, CHANCE = "max", "min", "chance"


class TreeGame:
    """A game written out as a tree, with the verbs the search algorithms use.

    A maximiser's node is a dict move -> opponent's node; an opponent's node is a dict
    reply -> (probability, maximiser's node); a leaf (a number) is a terminal maximiser's
    node worth that much. A state is the path of moves from the root. The opponent is MIN,
    or CHANCE when `chance` is set; either way `chance_outcomes` gives the probabilities.
    """

    maximiser = MAX

    def __init__(self, tree: dict, chance: bool = False):
        self.tree, self.opponent = tree, CHANCE if chance else MIN

    def node(self, state: tuple) -> dict | float:
        """The subtree at the end of a path."""
        node = self.tree
        for depth, move in enumerate(state):
            node = node[move] if depth % 2 == 0 else node[move][1]
        return node

    def to_move(self, state: tuple) -> str:
        """MAX after an even number of moves, else the opponent."""
        return MAX if len(state) % 2 == 0 else self.opponent

    def is_terminal(self, state: tuple) -> bool:
        """A leaf."""
        return not isinstance(self.node(state), dict)

    def utility(self, state: tuple) -> float:
        """The leaf's number."""
        return float(self.node(state))

    def actions(self, state: tuple) -> np.ndarray:
        """The node's moves, in the order the tree lists them."""
        return np.array(list(self.node(state)), dtype=np.int64)

    def result(self, state: tuple, move: int) -> tuple:
        """The path one move longer."""
        return state + (int(move),)

    def chance_outcomes(self, state: tuple) -> list[tuple[int, float]]:
        """The replies with their probabilities."""
        return [(reply, probability) for reply, (probability, _) in self.node(state).items()]


class Estimates:
    """An evaluation over a TreeGame: each move's estimate, by the path it ends (default 0)."""

    random_ties = False
    key = ("estimates",)

    def __init__(self, estimates: dict[tuple, float] | None = None):
        self.estimates = estimates or {}

    def values(self, game: TreeGame, state: tuple, moves: np.ndarray) -> np.ndarray:
        """The estimate of each move."""
        return np.array([self.estimates.get(state + (int(move),), 0.0) for move in moves])


def replies(*leaves: tuple[float, float]) -> dict:
    """An opponent's node whose replies 0, 1, ... (probability, leaf) are as listed."""
    return {reply: leaf for reply, leaf in enumerate(leaves)}
