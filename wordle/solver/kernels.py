"""The bound passes compiled with numba: the hot loops of `wordle.solver.bounds`, each equal to its numpy reference.

The kernels are plain module-level functions, compiled on first use by `_compiled` / `fast_parts` with numba's
cache on (numba caches module-level functions across runs, in the project's cache folder:
`plumbing.storage.keep_numba_cache`; functions made inside another would be compiled again in every process).
Without numba, every `fast_` function answers with the reference. numba is imported only when a search first
computes a bound (`lazy_` functions), so a position the opening book or the position table proves never pays for it.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from typing import Callable, Iterator

import numpy as np

from plumbing.storage import keep_numba_cache
from . import bounds as references
from .bounds import (NO_ROOM, PAIRWISE_READS, LetterTables, ceiling_least_bound, group_features, least_lower_bound,
                     least_rows, lower_bounds)
from .costs import NEVER, SCALE


def _features_kernel(answer_letters, group, worth):  # pragma: no cover
    """group_features, compiled."""
    length = answer_letters.shape[1]
    every, some = np.int64(-1), np.int64(0)
    first = answer_letters[group[0]]
    same = np.ones(length, np.bool_)
    for answer in group:
        mask = np.int64(0)
        for place in range(length):
            letter = answer_letters[answer, place]
            mask |= np.int64(1) << np.int64(letter)
            same[place] &= letter == first[place]
        every &= mask
        some |= mask
    found = np.empty(52 + length, np.int64)
    number = 0
    for letter in range(26):
        if (every >> letter) & 1 and worth[letter]:
            found[number] = letter
            number += 1
    for letter in range(26):
        if not (some >> letter) & 1 and worth[26 + letter]:
            found[number] = 26 + letter
            number += 1
    for place in range(length):
        feature = 52 + 26 * place + np.int64(first[place])
        if same[place] and worth[feature]:
            found[number] = feature
            number += 1
    return found[:number]


def _least_rows_kernel(first, rows, chosen, out):  # pragma: no cover
    """least_rows, compiled."""
    out[:] = first
    for feature in chosen:  # row by row: each read in order, so that it vectorises
        row = rows[feature]
        for j in range(out.shape[0]):
            out[j] = min(out[j], row[j])
    most = 0
    for j in range(out.shape[0]):
        if out[j] < NO_ROOM and out[j] > most:
            most = out[j]
    return most


@contextlib.contextmanager
def _no_blas_probe() -> Iterator[None]:
    """While numba loads its typing registries (at a kernel's first call), it probes for BLAS by importing
    scipy.linalg (about 0.4 s of CPU, with numpy.f2py behind it); the kernel uses no BLAS, so that import is
    refused for the moment (numba then leaves np.dot and friends out). Where scipy.linalg is already
    imported, or after the first call, nothing changes."""
    if "scipy.linalg" in sys.modules:
        yield
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        yield
    finally:
        if sys.modules.get("scipy.linalg", 0) is None:
            del sys.modules["scipy.linalg"]


# The compiled passes: plain functions here, compiled by `_compiled` (numba caches module-level functions
# across runs; functions made inside another are compiled again in every process).

def _reply_counts(columns, guesses, answers, pairwise_up_to, found, green_seen):  # pragma: no cover
    """Each guess's different replies from the answers (all green included), and whether all green is one."""
    size, count = answers.shape[0], guesses.shape[0]
    width = columns.shape[1]
    # few answers and most of the guesses: count repeats by comparing whole rows (every guess), pair by pair,
    # vectorised; a row compare reads `width` bytes per pair where marking reads one pattern per (answer, guess)
    if size <= pairwise_up_to and count * PAIRWISE_READS > size * width:
        seen = np.empty(width, np.uint8)
        repeats = np.zeros(width, np.int32)
        green = np.zeros(width, np.uint8)
        for i in range(size):
            row = columns[answers[i]]
            seen[:] = 0
            for k in range(i):
                earlier = columns[answers[k]]
                for t in range(width):
                    seen[t] |= row[t] == earlier[t]
            for t in range(width):
                repeats[t] += seen[t]
                green[t] |= row[t] == 242
        for j in range(count):
            found[j] = size - repeats[guesses[j]]
            green_seen[j] = green[guesses[j]]
        return
    words = np.zeros((count, 4), np.uint64)  # many: each answer's reply marked in a 256-bit set per guess
    for answer in answers:  # answers outer: each reads one contiguous row of the transposed matrix
        row = columns[answer]
        for j in range(count):
            pattern = row[guesses[j]]
            words[j, pattern >> 6] |= np.uint64(1) << np.uint64(pattern & 63)
    green_bit = np.uint64(1) << np.uint64(242 & 63)
    for j in range(count):
        bits = 0
        for k in range(4):
            word = words[j, k]
            while word:
                word &= word - np.uint64(1)
                bits += 1
        found[j] = bits
        green_seen[j] = 1 if words[j, 242 >> 6] & green_bit else 0

def _bounds_kernel(columns, guesses, answers, hit_now, hit_next, hit_later, must_split, prune, answer_masks,
           guess_letters, neighbours, pairwise_up_to, lower, hits):  # pragma: no cover
    """lower_bounds: the dead-letter rule (with `prune`), then each kept guess's bound."""
    count, size = guesses.shape[0], answers.shape[0]
    present = 0
    if prune:
        for answer in answers:
            present |= answer_masks[answer]
    kept = np.empty(count, np.int64)  # positions in `guesses` of the guesses not dominated
    number = 0
    for j in range(count):
        redundant = False
        if prune:
            guess = guesses[j]
            for position in range(guess_letters.shape[1]):
                if (present >> guess_letters[guess, position]) & 1 == 0 and neighbours[guess, position] & present:
                    redundant = True
                    break
        if redundant:
            lower[j] = 1 << 46
            hits[j] = 0
        else:
            kept[number] = j
            number += 1
    chosen = np.empty(number, np.int64)
    for t in range(number):
        chosen[t] = guesses[kept[t]]
    found = np.empty(number, np.int64)
    green_seen = np.empty(number, np.uint8)
    _reply_counts(columns, chosen, answers, pairwise_up_to, found, green_seen)
    for t in range(number):
        j = kept[t]
        hit = np.int64(green_seen[t])
        bins = found[t] - hit
        hits[j] = hit
        if found[t] <= 1 or (must_split and found[t] != size):
            lower[j] = 1 << 46
        else:
            lower[j] = ((size + 2 * (size - hit) - bins) * 4096 + hit * hit_now + bins * hit_next
                        + (size - hit - bins) * hit_later)

def _least_kernel(columns, guesses, answers, hit_now, hit_next, hit_later, must_split, pairwise_up_to):  # pragma: no cover
    """least_lower_bound: the least bound over the guesses, without writing each one."""
    count, size = guesses.shape[0], answers.shape[0]
    found = np.empty(count, np.int64)
    green_seen = np.empty(count, np.uint8)
    _reply_counts(columns, guesses, answers, pairwise_up_to, found, green_seen)
    never = np.int64(1) << 46
    best = never
    for j in range(count):  # branch-free, so that it vectorises
        hit = np.int64(green_seen[j])
        bins = found[j] - hit
        bound = ((size + 2 * (size - hit) - bins) * 4096 + hit * hit_now + bins * hit_next
                 + (size - hit - bins) * hit_later)
        useless = (found[j] <= 1) | (must_split & (found[j] != size))
        best = min(best, never if useless else bound)
    return best


def _ceiling_least_kernel(columns, guesses, answers, answer_letters, guess_letters, ceiling, hit_now, hit_next,
                          hit_later, must_split, pairwise_up_to, chunk):  # pragma: no cover
    """ceiling_least_bound (`ceiling` empty: none given); the guesses ordered by a counting sort."""
    size, count, length = answers.shape[0], guesses.shape[0], guess_letters.shape[1]
    at = np.zeros((length, 26), np.int64)
    holding = np.zeros(26, np.int64)
    for i in range(size):
        letters = answer_letters[answers[i]]
        mask = 0
        for position in range(length):
            at[position, letters[position]] += 1
            mask |= np.int64(1) << np.int64(letters[position])  # int64 compiled or not (letters are uint8)
        for letter in range(26):
            holding[letter] += (mask >> np.int64(letter)) & 1
    options = np.zeros((length, 26), np.int64)
    for position in range(length):
        for letter in range(26):
            here = at[position, letter]
            options[position, letter] = ((here > 0) + (here < size) * (1 + (holding[letter] > here)))
    most = np.empty(count, np.int64)
    for j in range(count):
        guess = guesses[j]
        product = 1
        for position in range(length):
            product *= options[position, guess_letters[guess, position]]
        most[j] = min(product, size)
        if ceiling.shape[0] > 0:
            most[j] = min(most[j], ceiling[guess])
        if must_split and most[j] < size:
            most[j] = 0
    starts = np.zeros(size + 2, np.int64)  # a counting sort, highest ceiling first
    for j in range(count):
        starts[size - most[j] + 1] += 1
    for value in range(1, size + 2):
        starts[value] += starts[value - 1]
    order = np.empty(count, np.int64)
    for j in range(count):
        slot = size - most[j]
        order[starts[slot]] = j
        starts[slot] += 1
    never = np.int64(1) << 46
    least = never
    for start in range(0, count, chunk):
        top = most[order[start]]
        lowest = (3 * size - 1 - top) * 4096 + hit_now + (top - 1) * hit_next + (size - top) * hit_later
        if top == 0 or lowest >= least:
            break
        stop = min(start + chunk, count)
        chosen = np.empty(stop - start, np.int64)
        for t in range(stop - start):
            chosen[t] = guesses[order[start + t]]
        least = min(least, _least_kernel(columns, chosen, answers, hit_now, hit_next, hit_later, must_split,
                                         pairwise_up_to))
    return least


@functools.lru_cache(maxsize=1)
def _compiled() -> tuple[Callable[..., tuple[np.ndarray, np.ndarray]], Callable[..., int], Callable[..., int]] | None:
    """lower_bounds, least_lower_bound and ceiling_least_bound compiled with numba, or None without numba."""
    keep_numba_cache()  # numba reads its cache folder when first imported
    try:
        import numba
    except ImportError:
        return None
    jit = numba.njit(cache=True, nogil=True)
    global _reply_counts, _bounds_kernel, _least_kernel, _ceiling_least_kernel
    _reply_counts = jit(_reply_counts)  # compiled first: the others call it (and _least_kernel) by global name
    _bounds_kernel, _least_kernel = jit(_bounds_kernel), jit(_least_kernel)
    _ceiling_least_kernel = jit(_ceiling_least_kernel)

    no_tables = (np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))

    def bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
               must_split: bool, tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray]:
        """lower_bounds, compiled."""
        lower = np.empty(len(guesses), np.int64)
        hits = np.empty(len(guesses), np.int64)
        with _no_blas_probe():
            _bounds_kernel(columns, guesses, answers, costs[0], costs[1], costs[2], must_split, tables is not None,
                   *(no_tables if tables is None else tables), references.PAIRWISE_UP_TO, lower, hits)
        return lower, hits

    def least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                    must_split: bool) -> int:
        """least_lower_bound, compiled."""
        with _no_blas_probe():
            return int(_least_kernel(columns, guesses, answers, costs[0], costs[1], costs[2], must_split,
                                     references.PAIRWISE_UP_TO))

    no_ceiling = np.zeros(0, np.int64)

    def ceiling_least(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool, letters: tuple[np.ndarray, np.ndarray], ceiling: np.ndarray | None) -> int:
        """ceiling_least_bound, compiled."""
        with _no_blas_probe():
            return int(_ceiling_least_kernel(columns, guesses, answers, letters[0], letters[1],
                                            no_ceiling if ceiling is None else ceiling, costs[0], costs[1], costs[2],
                                            must_split, references.PAIRWISE_UP_TO,
                                            references.PRUNE_FIRST))

    return bounds, least_bound, ceiling_least


@functools.lru_cache(maxsize=1)
def fast_parts() -> tuple[Callable[..., np.ndarray], Callable[..., int]]:
    """group_features and least_rows compiled with numba, else the references."""
    keep_numba_cache()
    try:
        import numba
    except ImportError:
        return group_features, least_rows
    jit = numba.njit(cache=True, nogil=True)
    return jit(_features_kernel), jit(_least_rows_kernel)


def fast_lower_bounds() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """lower_bounds compiled with numba (each guess's replies counted by comparing rows pair by pair, or marked in
    four 64-bit words), else the reference."""
    compiled = _compiled()
    return lower_bounds if compiled is None else compiled[0]


def fast_least_bound() -> Callable[..., int]:
    """least_lower_bound compiled with numba, else the reference."""
    compiled = _compiled()
    return least_lower_bound if compiled is None else compiled[1]


def fast_ceiling_least_bound() -> Callable[..., int]:
    """ceiling_least_bound compiled with numba, else the reference."""
    compiled = _compiled()
    return ceiling_least_bound if compiled is None else compiled[2]


def lazy_ceiling_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray,
                             costs: tuple[int, int, int], must_split: bool, letters: tuple[np.ndarray, np.ndarray],
                             ceiling: np.ndarray | None) -> int:
    """`fast_ceiling_least_bound`, made on first use (as lazy_lower_bounds)."""
    return fast_ceiling_least_bound()(columns, guesses, answers, costs, must_split, letters, ceiling)


def lazy_lower_bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool, tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`fast_lower_bounds`, made on first use: numba is imported only when a search computes a bound, so a
    position the opening book or the position table proves never pays for it."""
    return fast_lower_bounds()(columns, guesses, answers, costs, must_split, tables)


def lazy_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                     must_split: bool) -> int:
    """`fast_least_bound`, made on first use (as lazy_lower_bounds)."""
    return fast_least_bound()(columns, guesses, answers, costs, must_split)


assert NEVER == 1 << 46 and SCALE == 4096
