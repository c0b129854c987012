"""The guess x answer pattern matrix: every reply of the game, computed at once and cached on disk (plumbing.storage).

Rows are guesses, columns are answers, entries are pattern codes (uint8, 0-242), the
same codes `feedback` returns. Words of another length (the variants' 4 to 9 letters)
give codes up to 3**n - 1: uint8 up to 5 letters, uint16 above.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .feedback import pattern_count, place_values
from plumbing.storage import WORD_LISTS_KEY, Cache, code_version, read_or_build
from .words import WORD_LENGTH, Words, encode_letters, letter_counts

_CHUNK_ROWS = 256


def code_type(length: int = WORD_LENGTH) -> type:
    """The smallest unsigned integer type that holds every pattern code of `length` letters."""
    return np.uint8 if pattern_count(length) <= 256 else np.uint16


def _pattern_rows(guess_letters: np.ndarray, answer_letters: np.ndarray, answer_counts: np.ndarray) -> np.ndarray:
    """Pattern codes of a block of guesses against all answers.

    A pattern code is the sum over positions of place x (green + green-or-yellow). A
    guess letter at position j is green-or-yellow when it is green, or when its rank
    among the guess's non-green copies of that letter, counting positions up to j, is
    at most the number of the answer's copies that no green used. For a guess whose
    letters are all different this is simply "the answer contains the letter".
    """
    length = guess_letters.shape[1]
    earlier_or_same = np.tril(np.ones((length, length), dtype=bool))  # [j, i]: position i is at or before j
    green = guess_letters[:, None, :] == answer_letters[None, :, :]  # (g, a, j)
    copies = answer_counts.T[guess_letters].transpose(0, 2, 1)  # (g, a, j): answer's copies of guess letter j
    distinct = (np.sort(guess_letters, axis=1)[:, 1:] != np.sort(guess_letters, axis=1)[:, :-1]).all(axis=1)
    marked = copies > 0
    repeated = np.flatnonzero(~distinct)
    if repeated.size:
        letters, green_r, copies_r = guess_letters[repeated], green[repeated], copies[repeated]
        same = letters[:, :, None] == letters[:, None, :]  # (g, j, i)
        earlier_same = same & earlier_or_same
        used = np.zeros(green_r.shape, dtype=np.uint8)  # greens of letter j, plus non-green copies up to j
        for i in range(length):
            green_i = green_r[:, :, i, None]
            used += (same[:, None, :, i] & green_i) | (earlier_same[:, None, :, i] & ~green_i)
        marked[repeated] = green_r | (used <= copies_r)
    colours = green.view(np.uint8) + marked.view(np.uint8)
    codes = code_type(length)
    return colours.astype(codes) @ np.array(place_values(length), dtype=codes)


def pattern_matrix(guesses: tuple[str, ...] | list[str], answers: tuple[str, ...] | list[str]) -> np.ndarray:
    """Every pattern code, computed with numpy over blocks of guesses on both cores.

    Args:
        guesses: the row words.
        answers: the column words.

    Returns:
        A (len(guesses), len(answers)) array (uint8 up to five letters, uint16 above): entry [g, a]
        is feedback(guesses[g], answers[a]).
    """
    guess_letters = encode_letters(list(guesses))
    answer_letters = encode_letters(list(answers))
    answer_counts = letter_counts(list(answers))
    matrix = np.empty((len(guesses), len(answers)), dtype=code_type(guess_letters.shape[1]))
    starts = range(0, len(guesses), _CHUNK_ROWS)

    def fill(start: int) -> None:
        stop = min(start + _CHUNK_ROWS, len(guesses))
        matrix[start:stop] = _pattern_rows(guess_letters[start:stop], answer_letters, answer_counts)

    workers = min(os.cpu_count() or 1, 4)
    if workers > 1 and len(starts) > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(fill, starts))
    else:
        for start in starts:
            fill(start)
    return matrix


def matrix_cache(words: Words) -> Cache:
    """The cache of one pair of word lists' matrix, tied to the code that computes it."""
    return Cache("patterns", {WORD_LISTS_KEY: words.checksum, "rows": len(words.guesses), "cols": len(words.answers)},
                 code_version(__name__))


def cache_path(words: Words, directory: Path | None = None) -> Path:
    """The cache file for one pair of word lists."""
    return matrix_cache(words).path(directory)


def _decode(payload: bytes | memoryview, words: Words) -> np.ndarray | None:
    """The matrix from a cache payload, or None if it is not the lists' shape.

    Over a memoryview of the file's bytes the matrix is read-only and shares them (no copy: the likely
    model's matrix is 138 MB); nothing writes to a game's matrix.
    """
    rows, cols, codes = len(words.guesses), len(words.answers), code_type(words.length)
    if len(payload) != rows * cols * np.dtype(codes).itemsize:
        return None
    matrix = np.frombuffer(payload, dtype=codes).reshape(rows, cols)
    if matrix.size and int(matrix.max()) >= pattern_count(words.length):  # a resealed file with codes no reply has
        return None
    return matrix if isinstance(payload, memoryview) else matrix.copy()


def read_cache(path: Path, words: Words) -> np.ndarray | None:
    """The cached matrix if the file is whole and matches the lists and code, else None (never trusted blindly)."""
    cache = matrix_cache(words)
    payload = cache.read(path.parent, view=True) if path == cache.path(path.parent) else None
    return None if payload is None else _decode(payload, words)


def load_matrix(words: Words, directory: Path | None = None, use_cache: bool = True) -> np.ndarray:
    """The pattern matrix of `words`, read from the disk cache or built and then cached.

    A missing, truncated, corrupt or mismatched cache file is rebuilt; a cache folder
    that cannot be written only costs the rebuild next time (and one warning).
    """
    return read_or_build(matrix_cache(words), lambda: pattern_matrix(words.guesses, words.answers),
                         lambda matrix: np.ascontiguousarray(matrix).tobytes(),
                         lambda payload: _decode(payload, words), directory, use_cache, view=True)
