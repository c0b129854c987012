"""Endgames: answers alike but for one letter (BAKER, MAKER, TAKER, WAKER), and the "no win" they prove cheaply.

A guess T splits a set L of answers into replies; its *spread* on L is |L| less its largest
reply: at most that many answers of L leave the largest reply. A tree wins L within k
guesses only if

    |L| <= 1 + (the sum of the k - 1 largest spreads on L of the guesses allowed now).

Proof, by following the largest reply: the answers outside T's largest reply number T's
spread, and those inside must be won within k - 1 guesses by the rest of the tree, so the
answers won within k guesses number at most spread(T, L) + won(B, k - 1) where B is that
reply, and one guess wins at most one answer. A guess's spread on a subset of L is at most
its spread on L (|X| - largest(X) <= |X outside L's largest reply| <= spread(T, L)), a guess
played twice on one path spreads nothing the second time, and in hard mode the guesses
allowed later are a subset of those allowed now, so the k - 1 largest spreads over the guesses
allowed now bound every path. The bound holds for any L, and a set containing an L that
cannot be won cannot be won either (its tree, read on L alone, would win L with the same
guesses). It bites on an endgame (the answers of the set that share four letters in place):
each guess tells apart only the few of its letters that fill the open position.

The idea is Alex Selby's (github alex1770/wordle, `minoverwords_givenlist`): his solver counts the
letters each guess tells apart in the largest endgame, cuts where the best few cannot tell them
all apart, and searches the endgame alone where the cut only just fails. The spread form above
holds for any set of answers, and is proved here rather than taken over.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

#: Endgames smaller than this are not worth a check: two or three answers are cheap to search.
MIN_ENDGAME = 4


class Endgames:
    """The endgames of an answer list: for each answer, the groups (one per position) of answers alike elsewhere."""

    def __init__(self, answers: Sequence[str], min_size: int = MIN_ENDGAME):
        """Group the answers by each position left open; groups under `min_size` answers are dropped."""
        ids: dict[tuple[int, str], int] = {}
        keys = np.full((len(answers), len(answers[0]) if answers else 0), -1, dtype=np.int64)
        for row, word in enumerate(answers):
            for position in range(len(word)):
                keys[row, position] = ids.setdefault((position, word[:position] + word[position + 1:]), len(ids))
        sizes = np.bincount(keys.ravel(), minlength=len(ids))
        self.groups = np.where(sizes[keys] >= min_size, keys, -1)
        self.count = len(ids)
        self.min_size = min_size

    def largest(self, answers: np.ndarray) -> np.ndarray | None:
        """The answers (indices, a subset of `answers`) of the endgame with most answers in the set, or None where
        no endgame has MIN_ENDGAME of them (ties go to the lowest group)."""
        groups = self.groups[answers]
        present = groups[groups >= 0]
        if not len(present):
            return None
        counts = np.bincount(present, minlength=self.count)
        best = int(np.argmax(counts))
        if counts[best] < self.min_size:
            return None
        return answers[(groups == best).any(axis=1)]


def spreads(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Each guess's spread on `answers`: how many answers lie outside its largest reply.

    Args:
        columns: the pattern matrix transposed (answers x guesses).
        guesses: the guess indices.
        answers: the answer indices (a small set: one pass per answer).
    """
    replies = np.sort(columns[np.ix_(answers, guesses)], axis=0)
    run = np.ones(len(guesses), dtype=np.int64)
    largest = run.copy()
    for above, below in zip(replies[:-1], replies[1:]):
        run = np.where(below == above, run + 1, 1)
        np.maximum(largest, run, out=largest)
    return len(answers) - largest


def most_won(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, left: int) -> int:
    """An upper bound on how many of `answers` any tree of the `guesses` wins within `left` guesses (module doc)."""
    if left <= 0:
        return 0
    spread = spreads(columns, guesses, answers)
    top = np.sort(spread)[::-1][:left - 1]
    return min(len(answers), 1 + int(top.sum()))


def slow_most_won(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, left: int) -> int:
    """most_won, readably: the oracle of the fast path."""
    if left <= 0:
        return 0
    spread = []
    for guess in guesses.tolist():
        sizes: dict[int, int] = {}
        for answer in answers.tolist():
            reply = int(columns[answer, guess])
            sizes[reply] = sizes.get(reply, 0) + 1
        spread.append(len(answers) - max(sizes.values()))
    return min(len(answers), 1 + sum(sorted(spread, reverse=True)[:left - 1]))
