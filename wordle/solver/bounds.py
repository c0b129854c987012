"""The one-step lower bounds, readably: numpy passes over the pattern matrix, each the reference of a compiled kernel.

A guess that splits n answers into b non-green replies (and is itself one of them, s = 1, or not, s = 0) needs at
least 3n - 2s - b guesses in all, since each reply's answers need at least 2m - 1 guesses after this one. One pass
over the pattern matrix gives b and s for every guess (`lower_bounds`); `least_lower_bound` keeps only the least.
A big set is read only for the guesses whose ceiling on their replies allows a lower bound (`ceiling_least_bound`:
the colours each position can show, and the replies a guess gets from a set holding these answers). In normal
mode, a guess the dead-letter rule makes redundant is left out (`dominated`). `wordle.solver.kernels` compiles
each of these passes; the tests hold the two equal. Costs are packed as `wordle.solver.costs` says.
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from ..feedback import ALL_GREEN
from ..game import Wordle
from ..replies import distinct_replies
from ..words import encode_letters
from .costs import NEVER, NO_ROOM, SCALE

#: least_bound reads a set PRUNE_FIRST guesses at a time, highest ceiling on their replies first, until no ceiling
#: left allows a lower bound (`ceiling_least_bound`), except where the pairwise count reads every guess cheaply
#: (since 2026-11-27 at any size: on sets sampled from the hard FUZZY proof, 1.6 to 1.9 times faster than
#: reading every guess at 10 to 99 answers).
PRUNE_FIRST = 256


def split_counts(columns: np.ndarray, guesses: np.ndarray | None, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each guess: how many different non-green replies it gets from `answers`, and whether it is one.

    Args:
        columns: the pattern matrix transposed (answers x guesses, C order).
        guesses: the guesses to judge, or None for all of them.
        answers: the answers still possible.

    Returns:
        (bins, hits): int arrays over the guesses.
    """
    patterns = (columns[answers] if guesses is None else columns[np.ix_(answers, guesses)]).T
    hits = (patterns == ALL_GREEN).any(axis=1)
    return distinct_replies(patterns) - hits, hits.astype(np.int64)


assert ALL_GREEN == 242


def lower_bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                 must_split: bool, tables: "LetterTables | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """Each guess's one-step lower bound (3n - 2s - b, packed: `BoundPasses.bounds`) and whether it is an answer.

    The readable reference of `fast_lower_bounds`: split_counts, then the bound; with `tables`, a guess
    another guess makes redundant here (`dominated`) gets NEVER too.

    Args:
        columns: the pattern matrix transposed (answers x guesses, C order).
        guesses: the guesses to judge.
        answers: the answers still possible.
        costs: what the answer solved by this guess, by the next one, and by a later one pays beyond SCALE.
        must_split: the next guess must be the answer (two guesses left), so only a guess that tells
            every answer apart is worth anything.

    Returns:
        (lower, hits): the bound (NEVER for a guess not worth trying) and 0/1 per guess.
    """
    bins, hits = split_counts(columns, guesses, answers)
    size = len(answers)
    lower = (size + 2 * (size - hits) - bins) * SCALE + hits * costs[0] + bins * costs[1]
    lower += (size - hits - bins) * costs[2]
    useless = (bins + hits) <= 1  # one reply from all of them tells nothing
    if must_split:
        useless |= bins + hits != size
    if tables is not None:
        useless |= dominated(tables, guesses, answers)
    lower[useless] = NEVER
    return lower, hits


class LetterTables(NamedTuple):
    """What the dead-letter rule (`dominated`) reads, made once per game (`letter_tables`).

    answer_masks: each answer's letters as a bit mask (bit 0 for a); guess_letters: each guess's letter
    numbers (guesses x length); neighbours: per guess and position, the letters L (bit mask) such that the
    guess with L at that position is also a guess and L is at none of its other positions.
    """

    answer_masks: np.ndarray
    guess_letters: np.ndarray
    neighbours: np.ndarray


_TABLES: "weakref.WeakKeyDictionary[Wordle, LetterTables]" = weakref.WeakKeyDictionary()


def letter_tables(game: Wordle) -> LetterTables:
    """The game's LetterTables, made once per game and shared."""
    tables = _TABLES.get(game)
    if tables is None:
        answer_letters = encode_letters(list(game.words.answers)).astype(np.int64)
        letters = game.guess_letters.astype(np.int64)
        bits = np.int64(1) << letters
        neighbours = np.zeros_like(letters)
        length = letters.shape[1]
        for position in range(length):
            others = np.delete(letters, position, axis=1)
            key = (others * 26 ** np.arange(length - 1)).sum(axis=1)  # the word with this position blanked
            _, group = np.unique(key, return_inverse=True)
            at_position = np.zeros(group.max(initial=-1) + 1, dtype=np.int64)
            np.bitwise_or.at(at_position, group, bits[:, position])
            other_letters = np.bitwise_or.reduce(np.delete(bits, position, axis=1), axis=1) if length > 1 else 0
            neighbours[:, position] = at_position[group] & ~other_letters & ~bits[:, position]
        tables = _TABLES[game] = LetterTables(np.bitwise_or.reduce(np.int64(1) << answer_letters, axis=1),
                                              letters, neighbours)
    return tables


def dominated(tables: LetterTables, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Which guesses another guess makes redundant for `answers` (normal mode): the dead-letter rule.

    A guess with a letter no answer here contains (a dead letter) at some position, where swapping in a
    letter some answer does contain and that is at none of its other positions gives another guess, is
    refined by that guess: its reply to every answer is the other's with that position grey (the swapped
    letters touch no other position's colour), and it is no answer itself. So it splits every subset of
    `answers` into no more replies and never solves one sooner: never a better bound nor a better tree.
    Each swap removes a dead letter, so a chain of them ends at a guess that is kept.
    """
    present = np.bitwise_or.reduce(tables.answer_masks[answers]) if len(answers) else 0
    letters, neighbours = tables.guess_letters[guesses], tables.neighbours[guesses]
    dead = ((present >> letters) & 1) == 0
    return (dead & ((neighbours & present) != 0)).any(axis=1)


#: The compiled pass counts a set's replies by comparing whole rows pair by pair up to this many answers (about
#: 7 times faster than marking each reply at 10 answers, 2 times at 30, the same near 70, with every guess
#: asked), else by marking them. Pairwise reads every guess's column, so it is taken only where the guesses
#: asked are more than size / PAIRWISE_READS of them all (a byte compared within a vector costs about 1/32 of a
#: pattern read one at a time, and each pair is compared once): with hard mode's few legal guesses, marking is
#: the faster (48 answers, 1,000 guesses: 26 against 251 microseconds on the 2-core AMD EPYC).
PAIRWISE_UP_TO = 48
PAIRWISE_READS = 64


def least_lower_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool) -> int:
    """The least of lower_bounds' bounds (NEVER if no guess is worth trying): the readable reference of
    `fast_least_bound`."""
    return int(lower_bounds(columns, guesses, answers, costs, must_split)[0].min(initial=NEVER))


def colour_ceilings(answer_letters: np.ndarray, guess_letters: np.ndarray, guesses: np.ndarray,
                    answers: np.ndarray) -> np.ndarray:
    """Per guess, a ceiling on the different replies it gets from `answers`: the product over its positions of the
    colours that position can show. Green where some answer has the guess's letter there; yellow or grey where
    some answer has not, of which grey alone where none of those holds the letter anywhere. (Letter numbers per
    word: `answer_letters` per answer, `guess_letters` per guess.)"""
    rows = answer_letters[answers].astype(np.int64)
    size, length = rows.shape
    at = np.stack([np.bincount(rows[:, position], minlength=26) for position in range(length)])  # position x letter
    holding = (np.arange(26)[None, None, :] == rows[:, :, None]).any(axis=1).sum(axis=0)  # answers holding a letter
    options = (at > 0) + (at < size) * (1 + (holding[None, :] > at))
    return options[np.arange(length), guess_letters[guesses].astype(np.int64)].prod(axis=1)


def ceiling_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                        must_split: bool, letters: tuple[np.ndarray, np.ndarray], ceiling: np.ndarray | None) -> int:
    """least_lower_bound, reading only the guesses whose ceiling on their replies allows a bound below the least so
    far: colour_ceilings (`letters`: per answer and per guess), the set's size, and `ceiling` (per guess index, at
    least its replies from these answers, if given). Read PRUNE_FIRST at a time from the highest ceiling down
    (with two guesses left and `must_split`, a guess short of a reply per answer is never worth trying). The
    readable reference of `fast_ceiling_least_bound`."""
    size = len(answers)
    most = np.minimum(colour_ceilings(letters[0], letters[1], guesses, answers), size)
    if ceiling is not None:
        most = np.minimum(most, ceiling[guesses])
    if must_split:
        most[most < size] = 0
    order = np.argsort(-most, kind="stable")
    # the least bound a guess of `most` replies could have: one of them all green, the rest each its own reply
    # (the bound falls with every reply more, and by a whole guess where one is the guess itself)
    lowest = (3 * size - 1 - most) * SCALE + costs[0] + (most - 1) * costs[1] + (size - most) * costs[2]
    least = NEVER
    for start in range(0, len(order), PRUNE_FIRST):
        if most[order[start]] == 0 or lowest[order[start]] >= least:
            break
        chunk = guesses[order[start:start + PRUNE_FIRST]]
        least = min(least, least_lower_bound(columns, chunk, answers, costs, must_split))
    return least


def group_features(answer_letters: np.ndarray, group: np.ndarray, worth: np.ndarray) -> np.ndarray:
    """The `Parts` features every answer of `group` has (numbered as there) that `worth` marks: the readable
    reference of the compiled `kernels._features_kernel`."""
    places = answer_letters[group].astype(np.int64)
    masks = np.bitwise_or.reduce(np.int64(1) << places, axis=1)
    letters = np.arange(26)
    held = (np.bitwise_and.reduce(masks) >> letters & 1).astype(bool)
    lacked = ~(np.bitwise_or.reduce(masks) >> letters & 1).astype(bool)
    same = np.zeros((places.shape[1], 26), bool)
    for place in np.flatnonzero((places == places[0]).all(axis=0)):
        same[place, places[0, place]] = True
    return np.flatnonzero(np.concatenate((held, lacked, same.ravel())) & worth)


def least_rows(first: np.ndarray, rows: np.ndarray, chosen: np.ndarray, out: np.ndarray) -> int:
    """out = the least of `first` and the chosen rows, element by element; returns the most of `out` below NO_ROOM
    (0 if none is): the reference of `kernels._least_rows_kernel`."""
    out[:] = first if len(chosen) == 0 else np.minimum(first, rows[chosen].min(axis=0))
    return int(out[out < NO_ROOM].max(initial=0))


_COLUMNS: "weakref.WeakKeyDictionary[Wordle, np.ndarray]" = weakref.WeakKeyDictionary()
#: The side of the tiles a matrix is transposed by (`transpose_tiled`).
TILE = 256


def transpose_tiled(matrix: np.ndarray, tile: int = TILE) -> np.ndarray:
    """`np.ascontiguousarray(matrix.T)`, made tile by tile: each tile's reads and writes stay in the caches, so the
    14855 x 12539 pattern matrix transposes about 6 times faster than element by element.

    >>> m = np.arange(12, dtype=np.uint8).reshape(3, 4)
    >>> bool((transpose_tiled(m, 2) == m.T).all()), transpose_tiled(m, 2).flags["C_CONTIGUOUS"]
    (True, True)
    """
    rows, cols = matrix.shape
    out = np.empty((cols, rows), dtype=matrix.dtype)
    for i in range(0, rows, tile):
        for j in range(0, cols, tile):
            out[j:j + tile, i:i + tile] = matrix[i:i + tile, j:j + tile].T
    return out


def transposed(game: Wordle) -> np.ndarray:
    """The game's pattern matrix transposed (answers x guesses, C order), made once per game and shared."""
    columns = _COLUMNS.get(game)
    if columns is None or columns.shape != game.matrix.T.shape:
        columns = _COLUMNS[game] = transpose_tiled(game.matrix)
    return columns
