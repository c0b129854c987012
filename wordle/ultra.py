"""Ultra-hard mode, as Alex Selby's solver defines it (`wordle -U`, github alex1770/wordle, wordle.cpp `okhard`):
every guess after the first must be a word that could still be the answer, given every reply so far.

"Could still be the answer" is read over the guess list, not the hidden answer list: a guess G is legal when each
earlier guess would have got the reply it got had G been the answer (Selby scores every test word against every
test word in this mode, and filters the test words, not the hidden words). The first guess is free (no reply yet
constrains it). A player cannot know the answer list, so a rule over it could not be checked at the table.

Every answer still possible is a legal guess, and the legal guesses after a reply are a subset of those before it
(each reply only adds a condition), as in hard mode; so the solver's bounds, lost cores and endgame cuts, proved for
"no more guesses legal than before", hold here too. The guesses still legal are the state of the rule
(`Possible`): the solver's memory keys its sets by them.

`violation` is the readable reference (scalar `feedback`, and names the reply a guess contradicts); `possible_rows`
and `narrow` the vectorised forms a search uses, checked against it in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .feedback import feedback
from .matrix import patterns_of
from .patterns import format_pattern


@dataclass(frozen=True)
class Possible:
    """What ultra-hard mode allows next: the guess rows that could still be the answer (int32 bytes, ascending),
    or None before any reply (every guess). False when it allows every guess, as hard mode's empty Hints are."""

    rows: bytes | None = None

    def __bool__(self) -> bool:
        return self.rows is not None

    def guesses(self, count: int) -> np.ndarray:
        """The legal guess rows, ascending (`count`: how many guesses the game has)."""
        if self.rows is None:
            return np.arange(count)
        return np.frombuffer(self.rows, dtype=np.int32).astype(np.int64)


def violation(guess: str, history: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> str | None:
    """Why `guess` breaks ultra-hard mode after `history` (guess word, pattern code) in words, or None if legal:
    the first reply it could not have given as the answer."""
    for earlier, pattern in history:
        would = feedback(earlier, guess)
        if would != pattern:
            return (f"{guess.upper()} is not a possible answer after {earlier.upper()} {format_pattern(pattern)} "
                    f"(it would have got {format_pattern(would)})")
    return None


def narrow(letters: np.ndarray, counts: np.ndarray, possible: Possible, guess: int, pattern: int) -> Possible:
    """The guesses still possible after `guess` (a row) got `pattern`, from those possible before (`possible`).

    Args:
        letters: (guesses, length) letter numbers of the guess list.
        counts: (guesses, 26) letter counts of the guess list.
        possible: the legal guesses before the reply.
        guess: the guess row answered.
        pattern: its reply.
    """
    before = possible.guesses(len(letters))
    codes = patterns_of(letters[guess], letters[before], counts[before])
    return Possible(before[codes == pattern].astype(np.int32).tobytes())


#: How many bytes of guess rows a `Narrowing`'s remembered splits may hold before it forgets them all (a split of
#: the whole guess list, at the first reply, holds every row: about 52 KB for 12972 guesses).
SPLIT_BYTES_KEPT = 64 << 20


class Narrowing:
    """`narrow` for one game's guess list, each (possible, guess) split once for every reply (a search asks for
    many replies of one guess in a row): the same answers as `narrow`, remembered.

    Args:
        letters: (guesses, length) letter numbers of the guess list.
        counts: (guesses, 26) letter counts of the guess list.
    """

    def __init__(self, letters: np.ndarray, counts: np.ndarray) -> None:
        self.letters, self.counts = letters, counts
        self.splits: dict[tuple[Possible, int], dict[int, Possible]] = {}
        self.held = 0  # bytes of guess rows the splits hold

    def split(self, possible: Possible, guess: int) -> dict[int, Possible]:
        """The guesses `possible` allows, grouped by the reply `guess` would get from each (remembered)."""
        key = (possible, guess)
        found = self.splits.get(key)
        if found is None:
            before = possible.guesses(len(self.letters))
            codes = patterns_of(self.letters[guess], self.letters[before], self.counts[before])
            order = np.argsort(codes, kind="stable")  # stable: each group stays ascending
            codes, before = codes[order], before[order].astype(np.int32)
            edges = np.flatnonzero(np.diff(codes)) + 1
            found = {int(codes[start]): Possible(before[start:end].tobytes())
                     for start, end in zip(np.r_[0, edges], np.r_[edges, len(codes)])}
            size = 4 * len(before)
            if self.held + size > SPLIT_BYTES_KEPT:
                self.splits.clear()
                self.held = 0
            self.splits[key] = found
            self.held += size
        return found

    def after(self, possible: Possible | None, guess: int, pattern: int) -> Possible:
        """The guesses still possible after `guess` got `pattern` (`possible` None: no reply before)."""
        found = self.split(possible or Possible(), int(guess)).get(int(pattern))
        return found if found is not None else Possible(b"")


def possible_rows(letters: np.ndarray, counts: np.ndarray, history: list[tuple[int, int]] | tuple[tuple[int, int], ...]
                  ) -> Possible:
    """The guesses that could still be the answer after `history` (guess row, pattern code)."""
    possible = Possible()
    for guess, pattern in history:
        possible = narrow(letters, counts, possible, guess, pattern)
    return possible
