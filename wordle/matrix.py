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
from plumbing.storage import MOST_FILE_BYTES, WORD_LISTS_KEY, Cache, code_version, read_or_build
from .words import WORD_LENGTH, Words, encode_letters, letter_counts

_CHUNK_ROWS = 256


def code_type(length: int = WORD_LENGTH) -> type:
    """The smallest unsigned integer type that holds every pattern code of `length` letters."""
    return np.uint8 if pattern_count(length) <= 256 else np.uint16


def _letter_term(letter: int, positions: tuple[int, ...], answer_letters: np.ndarray,
                 answer_counts: np.ndarray) -> np.ndarray:
    """What one guess letter, at `positions`, adds to the pattern code against every answer.

    Greens first; then the non-green copies, left to right, are yellow while the answer has copies of the letter
    that no green used (the rule of `feedback`). A letter's colours depend only on where that letter stands in
    the guess, so the code of a guess is the sum of its letters' terms.
    """
    places = place_values(answer_letters.shape[1])
    greens = [answer_letters[:, p] == letter for p in positions]
    left = answer_counts[:, letter].astype(np.int16) - np.sum(greens, axis=0, dtype=np.int16)  # copies unused
    term = np.zeros(answer_letters.shape[0], dtype=np.int64)
    for p, green in zip(positions, greens):
        yellow = ~green & (left > 0)
        left -= yellow
        term += places[p] * (2 * green + yellow)
    return term


def patterns_of(guess: np.ndarray, answer_letters: np.ndarray, answer_counts: np.ndarray) -> np.ndarray:
    """The pattern codes one guess gets from each of some words, as the matrix holds them (its letters' terms summed).

    Args:
        guess: the guess's letter numbers (length,).
        answer_letters: (words, length) letter numbers of the words scored as answers.
        answer_counts: (words, 26) their letter counts.

    Returns:
        An int64 array of codes, one per word.
    """
    positions: dict[int, list[int]] = {}
    for position, letter in enumerate(guess.tolist()):
        positions.setdefault(letter, []).append(position)
    codes = np.zeros(answer_letters.shape[0], dtype=np.int64)
    for letter, where in positions.items():
        codes += _letter_term(letter, tuple(where), answer_letters, answer_counts)
    return codes


def _guess_terms(guess_letters: np.ndarray, answer_letters: np.ndarray,
                 answer_counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct letter term the guesses need, and each guess's term rows.

    Returns:
        (terms, rows): terms is a (k, answers) array whose row 0 is zero (padding); rows is a (guesses, length)
        array of indices into terms whose rows add up to each guess's pattern codes.
    """
    key_of: dict[tuple[int, tuple[int, ...]], int] = {}
    terms: list[np.ndarray] = [np.zeros(answer_letters.shape[0], dtype=np.int64)]

    def row_of(letter: int, positions: tuple[int, ...]) -> int:
        """The term row of `letter` standing at `positions`, computed the first time it is asked."""
        key = (letter, positions)
        if key not in key_of:
            key_of[key] = len(terms)
            terms.append(_letter_term(letter, positions, answer_letters, answer_counts))
        return key_of[key]

    rows = np.zeros(guess_letters.shape, dtype=np.intp)
    for g, letters in enumerate(guess_letters.tolist()):
        positions: dict[int, list[int]] = {}
        for p, letter in enumerate(letters):
            positions.setdefault(letter, []).append(p)
        for k, (letter, where) in enumerate(positions.items()):
            rows[g, k] = row_of(letter, tuple(where))
    return np.stack(terms), rows


def answer_columns(matrix: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """The matrix of a game over some of the answers: `np.ascontiguousarray(matrix[:, answers])`, by np.take, which
    gathers row by row (on today's 14855 x 12171 matrix, 992 answers: 46 ms where the fancy index takes 620 ms).

    >>> m = np.arange(12, dtype=np.uint8).reshape(3, 4)
    >>> answer_columns(m, np.array([3, 1])).tolist(), answer_columns(m, np.array([3, 1])).flags["C_CONTIGUOUS"]
    ([[3, 1], [7, 5], [11, 9]], True)
    """
    return np.ascontiguousarray(np.take(matrix, np.asarray(answers), axis=1))


def pattern_matrix(guesses: tuple[str, ...] | list[str], answers: tuple[str, ...] | list[str]) -> np.ndarray:
    """Every pattern code, as sums of per-letter rows computed once with numpy, over blocks of guesses on both cores.

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
    codes = code_type(guess_letters.shape[1])
    matrix = np.empty((len(guesses), len(answers)), dtype=codes)
    if matrix.size == 0:
        return matrix
    terms, rows = _guess_terms(guess_letters, answer_letters, answer_counts)
    terms = terms.astype(codes)  # every term and every sum of a guess's terms is a code, so it fits
    starts = range(0, len(guesses), _CHUNK_ROWS)

    def fill(start: int) -> None:
        stop = min(start + _CHUNK_ROWS, len(guesses))
        block = matrix[start:stop]
        np.take(terms, rows[start:stop, 0], axis=0, out=block)
        for k in range(1, rows.shape[1]):
            block += terms[rows[start:stop, k]]

    workers = min(os.cpu_count() or 1, 4)
    if workers > 1 and len(starts) > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(fill, starts))
    else:
        for start in starts:
            fill(start)
    return matrix


#: Room for a cache file's header lines beside the matrix itself.
HEADER_ROOM = 2**20


def matrix_cache(words: Words) -> Cache:
    """The cache of one pair of word lists' matrix, tied to the code that computes it; it reads back a file of the
    matrix's own size (8- and 9-letter lists make matrices of about 300 MB, past the usual read cap)."""
    size = len(words.guesses) * len(words.answers) * np.dtype(code_type(words.length)).itemsize
    return Cache("patterns", {WORD_LISTS_KEY: words.checksum, "rows": len(words.guesses), "cols": len(words.answers)},
                 code_version(__name__), most_bytes=max(MOST_FILE_BYTES, size + HEADER_ROOM))


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
