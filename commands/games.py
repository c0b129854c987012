"""The game a command plays, built from its word-list and mode options, or from a game's description."""

from __future__ import annotations

import argparse

import numpy as np

from variants import AnyGame, GameSpec, game_of, spec_words
from wordle import Wordle, Words, load_matrix
from wordle.matrix import cache_path, code_type, read_cache

from .render import plain_console, waiting

#: A pattern matrix above this many bytes is announced before it is written to the cache.
ANNOUNCE_BYTES = 50_000_000


def load_game(args: argparse.Namespace, named: bool = False) -> Wordle:
    """The game over the chosen word lists (`named`: --answers may name a list), with its pattern matrix
    from the disk cache, or built under a spinner, and announced on stderr when it is large."""
    return game_over(spec_words(5, getattr(args, "answers", None), getattr(args, "guesses", None), named))


def load_spec_game(game: GameSpec, named: bool = False) -> tuple[Wordle, AnyGame]:
    """The rules of a described game (its word lists and their pattern matrix, as `game_over` loads them) and its
    game (`variants.game_of`); `named`: its answer list may be a list's name."""
    rules = game_over(spec_words(game.length, game.answers, game.guesses, named))
    return rules, game_of(game, rules)


def game_over(words: Words) -> Wordle:
    """The game over `words` with its pattern matrix from the disk cache, or built under a spinner (announced on
    stderr when it is large)."""
    path = cache_path(words)
    if (matrix := read_cache(path, words)) is not None:
        return Wordle(words, matrix)
    size = len(words.guesses) * len(words.answers) * np.dtype(code_type(words.length)).itemsize
    what = f"the pattern matrix of {len(words.guesses)} guesses x {len(words.answers)} answers ({size / 1e6:.0f} MB)"
    if size > ANNOUNCE_BYTES:
        plain_console(stderr=True).print(
            f"wordle-arena: building {what} once; it is kept in {path} (delete it to free the space)",
            markup=False, soft_wrap=True)
    with waiting(f"building {what}"):
        return Wordle(words, load_matrix(words))
