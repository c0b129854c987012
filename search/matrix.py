"""The guess x answer pattern matrix: every reply of the game, computed at once and cached on disk.

Rows are guesses, columns are answers, entries are pattern codes (uint8, 0-242), the
same codes `feedback` returns.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .feedback import PLACE_VALUES
from .files import write_atomically
from .words import WORD_LENGTH, Words, encode_letters, letter_counts

#: Bumped whenever the bytes a cache file holds would change for the same lists.
CACHE_FORMAT = b"wordle-arena pattern matrix v1\n"
_CHUNK_ROWS = 256
# earlier_or_same[j, i]: position i is at or before position j.
_EARLIER_OR_SAME = np.tril(np.ones((WORD_LENGTH, WORD_LENGTH), dtype=bool))
_PLACES = np.array(PLACE_VALUES, dtype=np.uint8)


def _pattern_rows(guess_letters: np.ndarray, answer_letters: np.ndarray, answer_counts: np.ndarray) -> np.ndarray:
    """Pattern codes of a block of guesses against all answers.

    A pattern code is the sum over positions of place x (green + green-or-yellow). A
    guess letter at position j is green-or-yellow when it is green, or when its rank
    among the guess's non-green copies of that letter, counting positions up to j, is
    at most the number of the answer's copies that no green used. For a guess whose
    letters are all different this is simply "the answer contains the letter".
    """
    green = guess_letters[:, None, :] == answer_letters[None, :, :]  # (g, a, j)
    copies = answer_counts.T[guess_letters].transpose(0, 2, 1)  # (g, a, j): answer's copies of guess letter j
    distinct = (np.sort(guess_letters, axis=1)[:, 1:] != np.sort(guess_letters, axis=1)[:, :-1]).all(axis=1)
    marked = copies > 0
    repeated = np.flatnonzero(~distinct)
    if repeated.size:
        letters, green_r, copies_r = guess_letters[repeated], green[repeated], copies[repeated]
        same = letters[:, :, None] == letters[:, None, :]  # (g, j, i)
        earlier_same = same & _EARLIER_OR_SAME
        used = np.zeros(green_r.shape, dtype=np.uint8)  # greens of letter j, plus non-green copies up to j
        for i in range(WORD_LENGTH):
            green_i = green_r[:, :, i, None]
            used += (same[:, None, :, i] & green_i) | (earlier_same[:, None, :, i] & ~green_i)
        marked[repeated] = green_r | (used <= copies_r)
    colours = green.view(np.uint8) + marked.view(np.uint8)
    return colours @ _PLACES


def pattern_matrix(guesses: tuple[str, ...] | list[str], answers: tuple[str, ...] | list[str]) -> np.ndarray:
    """Every pattern code, computed with numpy over blocks of guesses on both cores.

    Args:
        guesses: the row words.
        answers: the column words.

    Returns:
        A (len(guesses), len(answers)) uint8 array: entry [g, a] is feedback(guesses[g], answers[a]).
    """
    guess_letters = encode_letters(list(guesses))
    answer_letters = encode_letters(list(answers))
    answer_counts = letter_counts(list(answers))
    matrix = np.empty((len(guesses), len(answers)), dtype=np.uint8)
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


def cache_dir() -> Path:
    """Where cached matrices live: $WORDLE_ARENA_CACHE, else the user cache directory."""
    if configured := os.environ.get("WORDLE_ARENA_CACHE"):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "wordle-arena"


def cache_path(words: Words, directory: Path | None = None) -> Path:
    """The cache file for one pair of word lists, named by their checksum."""
    return (directory or cache_dir()) / f"patterns-{words.checksum[:32]}.bin"


def _header(matrix: np.ndarray, words: Words) -> bytes:
    """The cache header: format line, then a JSON line binding shape, lists and content."""
    meta = {
        "rows": int(matrix.shape[0]),
        "cols": int(matrix.shape[1]),
        "lists": words.checksum,
        "sha256": hashlib.sha256(matrix.tobytes()).hexdigest(),
    }
    return CACHE_FORMAT + json.dumps(meta, sort_keys=True).encode() + b"\n"


def read_cache(path: Path, words: Words) -> np.ndarray | None:
    """The cached matrix if the file is whole and matches the lists, else None (never trusted blindly)."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    if not blob.startswith(CACHE_FORMAT):
        return None
    meta_end = blob.find(b"\n", len(CACHE_FORMAT))
    if meta_end < 0:
        return None
    try:
        meta = json.loads(blob[len(CACHE_FORMAT):meta_end])
        rows, cols = int(meta["rows"]), int(meta["cols"])
        expected_lists, expected_digest = str(meta["lists"]), str(meta["sha256"])
    except (ValueError, KeyError, TypeError):
        return None
    body = memoryview(blob)[meta_end + 1:]
    if (rows, cols) != (len(words.guesses), len(words.answers)) or expected_lists != words.checksum:
        return None
    if len(body) != rows * cols or hashlib.sha256(body).hexdigest() != expected_digest:
        return None
    return np.frombuffer(body, dtype=np.uint8).reshape(rows, cols).copy()


def write_cache(path: Path, matrix: np.ndarray, words: Words) -> None:
    """Write the cache atomically, so a concurrent reader sees the old file or the whole new one."""
    write_atomically(path, _header(matrix, words) + np.ascontiguousarray(matrix).tobytes())


def load_matrix(words: Words, directory: Path | None = None, use_cache: bool = True) -> np.ndarray:
    """The pattern matrix of `words`, read from the disk cache or built and then cached.

    A missing, truncated, corrupt or mismatched cache file is rebuilt; a cache folder
    that cannot be written only costs the rebuild next time.
    """
    path = cache_path(words, directory)
    if use_cache and (cached := read_cache(path, words)) is not None:
        return cached
    matrix = pattern_matrix(words.guesses, words.answers)
    if use_cache:
        try:
            write_cache(path, matrix, words)
        except OSError:
            pass
    return matrix
