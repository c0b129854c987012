"""Hard mode, as the game enforces it: greens stay in place, and a letter revealed n times
(green or yellow) in one reply appears at least n times in every later guess. Grey
letters may be reused.

`violation` is the readable reference and names the broken hint; `legal_mask` is the
vectorised form used by search, checked against it in the tests. Likewise `hints_from` reads a whole
history, and `extend_hints` adds one (guess, pattern) to hints already known, from a remembered one-step
table (`step_hints`), as the exact solver does at every reply; the tests check them against each other.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from .feedback import GREEN, GREY, decode_colours
from .words import WORD_LENGTH

_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")


@dataclass(frozen=True)
class Hints:
    """What hard mode demands of the next guess.

    Attributes:
        fixed: (position, letter) pairs that must stay green.
        at_least: (letter, count) pairs: the guess must hold the letter at least that often.
        sources: for each demand, the guess that set it (for messages): for a green, the
            latest guess that showed it; for a count, the guess that first revealed that many.
            Not part of equality: two histories with the same demands are the same to a player.
    """

    fixed: tuple[tuple[int, str], ...] = ()
    at_least: tuple[tuple[str, int], ...] = ()
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def __bool__(self) -> bool:
        return bool(self.fixed or self.at_least)


def hints_from(history: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> Hints:
    """The hard-mode demands of a history of (guess word, pattern code)."""
    fixed: dict[int, str] = {}
    at_least: dict[str, int] = {}
    sources: dict[str, str] = {}
    for guess, pattern in history:
        revealed: dict[str, int] = {}
        for position, (letter, colour) in enumerate(zip(guess, decode_colours(pattern, len(guess)))):
            if colour == GREEN:
                fixed[position] = letter
                sources[f"fixed{position}"] = guess
            if colour != GREY:
                revealed[letter] = revealed.get(letter, 0) + 1
        for letter, count in revealed.items():
            if count > at_least.get(letter, 0):
                at_least[letter] = count
                sources[f"count{letter}"] = guess
    return Hints(
        fixed=tuple(sorted(fixed.items())),
        at_least=tuple(sorted(at_least.items())),
        sources=tuple(sorted(sources.items())),
    )


@functools.cache
def shown_positions(length: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For each pattern code of `length` letters: its green positions, and its positions not grey."""
    table = []
    for code in range(3**length):
        colours = decode_colours(code, length)
        table.append((tuple(position for position, colour in enumerate(colours) if colour == GREEN),
                      tuple(position for position, colour in enumerate(colours) if colour != GREY)))
    return table


@functools.lru_cache(maxsize=1 << 16)
def step_hints(word: str, pattern: int) -> Hints:
    """The hard-mode hints of one (guess, pattern) alone, read from `shown_positions` (remembered: about a third
    of a search's calls repeat one, under other earlier hints; 2**16 of them are about 40 MB)."""
    greens, shown = shown_positions(len(word))[pattern]
    counts: dict[str, int] = {}
    for position in shown:
        counts[word[position]] = counts.get(word[position], 0) + 1
    return Hints(fixed=tuple((position, word[position]) for position in greens), at_least=tuple(sorted(counts.items())))


def extend_hints(hints: Hints, word: str, pattern: int) -> Hints:
    """The hard-mode hints after one more (guess, pattern); the same as hints_from over the longer history.

    A search calls this for every reply of three or more answers of every guess it bounds, so the one step's
    hints are remembered (`step_hints`) and only the merge is done here.
    """
    step = step_hints(word, pattern)
    if not hints:
        return step
    if not step:
        return hints
    fixed = dict(hints.fixed)
    fixed.update(step.fixed)
    at_least = dict(hints.at_least)
    for letter, count in step.at_least:
        if count > at_least.get(letter, 0):
            at_least[letter] = count
    return Hints(fixed=tuple(sorted(fixed.items())), at_least=tuple(sorted(at_least.items())))


def violation(guess: str, history: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> str | None:
    """The first hard-mode hint that `guess` breaks, in words, or None if it is legal."""
    hints = hints_from(history)
    source = dict(hints.sources)
    for position, letter in hints.fixed:
        if guess[position] != letter:
            revealed_by = source[f"fixed{position}"].upper()
            return f"{_ORDINALS[position]} letter must be {letter.upper()} (green in {revealed_by})"
    for letter, count in hints.at_least:
        if guess.count(letter) < count:
            times = "" if count == 1 else f" {count} times"
            revealed_by = source[f"count{letter}"].upper()
            return f"guess must contain {letter.upper()}{times} (revealed in {revealed_by})"
    return None


def legal_mask(guess_letters: np.ndarray, guess_counts: np.ndarray, hints: Hints,
               rows: np.ndarray | None = None) -> np.ndarray:
    """Which guesses obey every hint: a bool array over the rows of `guess_letters` (or over `rows`).

    Args:
        guess_letters: (n, length) letter numbers of the guesses.
        guess_counts: (n, 26) letter counts of the guesses.
        hints: the demands, from `hints_from`.
        rows: only these rows, in this order (default: every row); reading the columns a
            hint names for them alone is far cheaper than taking the rows' whole arrays.
    """
    every = slice(None) if rows is None else rows
    mask = np.ones(len(guess_letters) if rows is None else len(rows), dtype=bool)
    for position, letter in hints.fixed:
        mask &= guess_letters[every, position] == ord(letter) - ord("a")
    for letter, count in hints.at_least:
        mask &= guess_counts[every, ord(letter) - ord("a")] >= count
    return mask


assert len(_ORDINALS) >= WORD_LENGTH
