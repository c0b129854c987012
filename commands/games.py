"""The game a command plays, built from its word-list and mode options."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from plumbing.errors import UserError
from wordle import Wordle, Words, load_matrix, load_words
from wordle.matrix import cache_path, code_type, read_cache
from wordle.words import NAMED_ANSWERS, named_words

from .render import plain_console, waiting

#: A pattern matrix above this many bytes is announced before it is written to the cache.
ANNOUNCE_BYTES = 50_000_000


def load_game(args: argparse.Namespace, named: bool = False) -> Wordle:
    """The game over the chosen word lists (`named`: --answers may name a list), with its pattern matrix
    from the disk cache, or built under a spinner, and announced on stderr when it is large."""
    answers, guesses = getattr(args, "answers", None), getattr(args, "guesses", None)
    if named and answers in NAMED_ANSWERS:
        words = named_words(answers, guesses)
    elif named and answers is not None and not Path(answers).exists():
        raise UserError(f"{answers}: no such file, nor an answer list's name ({', '.join(NAMED_ANSWERS)})")
    else:
        words = load_words(answers=answers, guesses=guesses)
    return game_over(words)


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
