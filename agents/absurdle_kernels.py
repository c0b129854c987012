"""The hot loops of Absurdle's challenge (agents/absurdle_challenge.py), compiled with numba where it is installed.

Each kernel is a plain module-level function that also runs as Python (slowly) without numba;
`compiled()` gives them compiled (numba's cache on, in the project's cache folder). Answers are
column indices of the pattern matrix, guesses its row indices; `tie` is Absurdle's order among
equal buckets (agents.indicators.TIE_RANK, lower wins).
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

from plumbing.storage import keep_numba_cache

#: Patterns a reply can be (3 colours, 5 places).
PATTERNS = 243


def _replies_kernel(matrix, guesses, members, tie, patterns, sizes):  # pragma: no cover
    """For each guess of `guesses`, Absurdle's reply to it from `members` (largest bucket, ties by `tie`) and its size."""
    counts = np.zeros(PATTERNS, np.int64)
    for i in range(guesses.shape[0]):
        guess = guesses[i]
        counts[:] = 0
        for answer in members:
            counts[matrix[guess, answer]] += 1
        best, size = -1, 0
        for pattern in range(PATTERNS):
            count = counts[pattern]
            if count > size or (count == size and count > 0 and tie[pattern] < tie[best]):
                best, size = pattern, count
        patterns[i], sizes[i] = best, size


def _distinct_kernel(matrix, guesses, members, out):  # pragma: no cover
    """For each guess of `guesses`, how many different replies it gets from `members`."""
    seen = np.zeros(PATTERNS, np.int64)
    for i in range(guesses.shape[0]):
        guess, stamp, found = guesses[i], i + 1, 0
        for answer in members:
            pattern = matrix[guess, answer]
            if seen[pattern] != stamp:
                seen[pattern] = stamp
                found += 1
        out[i] = found


def _gather_kernel(matrix, order, members, out):  # pragma: no cover
    """out[i, j] = matrix[order[i], members[j]]: the replies of the guesses `order` from `members`, row by row."""
    for i in range(order.shape[0]):
        row = order[i]
        for j in range(members.shape[0]):
            out[i, j] = matrix[row, members[j]]


def _split_kernel(rows, ceilings, order, cols, members, tie, target, kept, witness):  # pragma: no cover
    """The guesses that give every answer of a bucket a different reply, and the answer Absurdle keeps after each.

    `rows[i]` holds the replies guess `order[i]` gets from the parent set `members` (rows sorted by
    `ceilings`, each guess's reply count from `members`, most first); the bucket is the columns
    `cols` of it. A guess gets at most as many replies from a bucket as from its parent set, so
    only the rows whose ceiling reaches the bucket's size are tried. With `target` (a column)
    >= 0, returns the first guess after which Absurdle keeps `target` (-1: none); with
    `target` < 0, marks every answer kept (`kept`, by answer index; the guess in `witness` where
    the answer was not marked before) and returns how many splitting guesses it met.
    """
    size = cols.shape[0]
    seen = np.zeros(PATTERNS, np.int64)
    found = 0
    for i in range(rows.shape[0]):
        if ceilings[i] < size:
            break
        stamp = i + 1
        split, lowest, keep = True, PATTERNS + 1, -1
        for col in cols:
            pattern = rows[i, col]
            if seen[pattern] == stamp:
                split = False
                break
            seen[pattern] = stamp
            if tie[pattern] < lowest:
                lowest, keep = tie[pattern], col
        if split:
            if target >= 0:
                if keep == target:
                    return order[i]
            else:
                found += 1
                answer = members[keep]
                if not kept[answer]:
                    kept[answer] = True
                    witness[answer] = order[i]
    return -1 if target >= 0 else found


def _same_bucket(rows, first, first_pattern, second, second_pattern):  # pragma: no cover
    """Whether row `first`'s bucket of reply `first_pattern` holds the same columns as row `second`'s of its reply."""
    for col in range(rows.shape[1]):
        if (rows[first, col] == first_pattern) != (rows[second, col] == second_pattern):
            return False
    return True


def _two_kernel(rows, ceilings, order, members, tie, keys, target, kept, second, third):  # pragma: no cover
    """Two guesses from the set `members` to a single answer: each guess, Absurdle's bucket, then a split of it.

    `rows`, `ceilings`, `order` as for `_split_kernel` (every guess, sorted by its reply count from
    `members`); `keys` one random 64-bit number per column, whose sum names a bucket in a hash
    table, each hit compared column by column (so a bucket is searched once, and two different
    buckets are never taken for one). With `target` (a column) >= 0, buckets without it are
    skipped and the first pair leaving it alone is returned in second[0], third[0] (1: found,
    else 0; third[0] = -1 when the first guess already leaves it alone). With `target` < 0,
    marks every answer some pair leaves alone in `kept` (its pair, where it was not marked
    before, in `second` and `third`, by answer index) and returns the buckets split-checked.
    """
    counts = np.zeros(PATTERNS, np.int64)
    width = members.shape[0]
    bucket = np.empty(width, np.int64)
    most = ceilings[0] if ceilings.shape[0] else 0
    slots = 1
    while slots < 4 * rows.shape[0]:
        slots *= 2
    used = np.zeros(slots, np.bool_)
    names = np.zeros(slots, np.int64)
    where = np.zeros(slots, np.int64)
    replies = np.zeros(slots, np.int64)
    checked = 0
    for i in range(rows.shape[0]):
        counts[:] = 0
        for col in range(width):
            counts[rows[i, col]] += 1
        best, size = -1, 0
        for pattern in range(PATTERNS):
            count = counts[pattern]
            if count > size or (count == size and count > 0 and tie[pattern] < tie[best]):
                best, size = pattern, count
        if target >= 0 and rows[i, target] != best:
            continue
        if size > most and size > 1:
            continue
        filled, name = 0, np.int64(0)
        for col in range(width):
            if rows[i, col] == best:
                bucket[filled] = col
                filled += 1
                name += keys[col]
        slot = name & (slots - 1)
        repeated = False
        while used[slot]:
            if names[slot] == name and _same_bucket(rows, where[slot], replies[slot], i, best):
                repeated = True
                break
            slot = (slot + 1) & (slots - 1)
        if repeated:
            continue
        used[slot], names[slot], where[slot], replies[slot] = True, name, i, best
        if size == 1:
            alone = bucket[0]
            if target >= 0:
                second[0], third[0] = order[i], -1
                return 1
            if not kept[members[alone]]:
                kept[members[alone]] = True
                second[members[alone]], third[members[alone]] = order[i], -1
            continue
        checked += 1
        if target >= 0:
            split = _split_kernel(rows, ceilings, order, bucket[:filled], members, tie, target, kept, third)
            if split >= 0:
                second[0], third[0] = order[i], split
                return 1
        else:
            before = kept.copy()
            _split_kernel(rows, ceilings, order, bucket[:filled], members, tie, -1, kept, third)
            for col in bucket[:filled]:
                answer = members[col]
                if kept[answer] and not before[answer]:
                    second[answer] = order[i]
    return 0 if target >= 0 else checked


@functools.lru_cache(maxsize=1)
def compiled() -> SimpleNamespace:
    """The kernels (replies, distinct, gather, split, two), compiled with numba where it is installed, else as Python."""
    global _split_kernel, _same_bucket
    keep_numba_cache()
    try:
        import numba
    except ImportError:
        return SimpleNamespace(replies=_replies_kernel, distinct=_distinct_kernel, gather=_gather_kernel,
                               split=_split_kernel, two=_two_kernel)
    jit = numba.njit(cache=True, nogil=True)
    _split_kernel, _same_bucket = jit(_split_kernel), jit(_same_bucket)  # first: _two_kernel calls them by name
    return SimpleNamespace(replies=jit(_replies_kernel), distinct=jit(_distinct_kernel), gather=jit(_gather_kernel),
                           split=_split_kernel, two=jit(_two_kernel))
