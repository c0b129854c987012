"""Fibble: one board whose Indicator tells exactly one lie in every row that does not solve the game.

A lie changes one tile's colour to one of the other two; which tile and which colour are drawn
from a seeded generator (`draw_lie`), uniformly among the patterns one tile away from the true
one (`lies_of`), except all green: the game ends when the guess is the answer, and then the row
is all green and true (as fibble.xyz does), so an all-green row never lies. An answer stays possible
while each reply is exactly one tile away from the pattern it would give. Nine guesses. Values are
from the Guesser's point of view, higher is better, on Wordle's scale (winning with guess k is worth
max_guesses + 1 - k, a lost game 0).

>>> from wordle.feedback import feedback, decode_colours
>>> lies = lies_of(feedback("crane", "crate"), 5)
>>> len(lies), all(sum(a != b for a, b in zip(decode_colours(lie), (2, 2, 2, 0, 2))) == 1 for lie in lies)
(9, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import numpy as np

from wordle import IllegalMove, Wordle, format_pattern
from wordle.feedback import all_green, decode_colours, encode_colours
from wordle.game import GUESSER, INDICATOR

#: Fibble's guess limit.
FIBBLE_GUESSES = 9


def lies_of(code: int, length: int = 5) -> list[int]:
    """The patterns one tile's colour away from `code`, all green excepted: tile by tile, colour ascending."""
    colours, found = decode_colours(code, length), []
    for position, colour in enumerate(colours):
        for other in (0, 1, 2):
            if other != colour:
                lie = encode_colours(colours[:position] + (other,) + colours[position + 1:])
                if lie != all_green(length):
                    found.append(lie)
    return found


def draw_lie(code: int, length: int, rng: np.random.Generator) -> int:
    """One lie about the true pattern `code`, drawn uniformly from `lies_of` by `rng`."""
    lies = lies_of(code, length)
    return lies[int(rng.integers(len(lies)))]


@lru_cache(maxsize=None)
def lie_kernel(length: int) -> np.ndarray:
    """[true, shown]: the chance the Indicator shows `shown` when the truth is `true` (all green shows itself)."""
    count = 3**length
    kernel = np.zeros((count, count))
    for code in range(count - 1):
        lies = lies_of(code, length)
        kernel[code, lies] = 1.0 / len(lies)
    kernel[count - 1, count - 1] = 1.0
    return kernel


@lru_cache(maxsize=None)
def lie_counts(length: int) -> np.ndarray:
    """How many rows the Indicator may show for each true pattern: its lies, or 1 for all green."""
    counts = np.array([len(lies_of(code, length)) for code in range(3**length)], dtype=np.int64)
    counts[-1] = 1
    return counts


@lru_cache(maxsize=None)
def digits(length: int) -> np.ndarray:
    """Each pattern code's colours, one row a code: (3**length, length) uint8."""
    return np.array([decode_colours(code, length) for code in range(3**length)], dtype=np.uint8)


@dataclass(frozen=True, eq=False)
class FibbleState:
    """A position of Fibble.

    Attributes:
        candidates: answer indices for which every reply so far is exactly one tile from the truth.
        history: (guess index, shown pattern) pairs.
        max_guesses: the guess limit.
        pending: the guess awaiting its reply, or None when the Guesser is to move.
    """

    candidates: np.ndarray = field(repr=False)
    history: tuple[tuple[int, int], ...] = ()
    max_guesses: int = FIBBLE_GUESSES
    pending: int | None = None
    won: bool = False

    @property
    def guesses_used(self) -> int:
        """Guesses already answered."""
        return len(self.history)

    @property
    def guesses_left(self) -> int:
        """Guesses the Guesser may still make."""
        return self.max_guesses - len(self.history)

    @property
    def to_move(self) -> str:
        """GUESSER or INDICATOR."""
        return GUESSER if self.pending is None else INDICATOR


@dataclass(frozen=True)
class FibblePlaythrough:
    """A finished game of Fibble: the answer, the guesses and shown patterns, whether it was won."""

    answer: int
    history: tuple[tuple[int, int], ...]
    won: bool
    final: FibbleState = field(repr=False)


class Fibble:
    """Fibble over one pair of word lists (`rules`: Wordle's lists and pattern matrix): a
    `search.game.Game[FibbleState, int]` (guess indices, then shown patterns)."""

    maximiser = GUESSER

    def __init__(self, rules: Wordle):
        self.rules = rules
        self.words = rules.words
        self.length = rules.words.length
        self.all_green = all_green(self.length)
        self.digits = digits(self.length)

    def initial_state(self, max_guesses: int = FIBBLE_GUESSES) -> FibbleState:
        """Every answer possible, nothing guessed."""
        if max_guesses < 1:
            raise ValueError(f"the guess limit must be at least 1, got {max_guesses}")
        return FibbleState(candidates=self.rules.all_answers, max_guesses=max_guesses)

    def to_move(self, state: FibbleState) -> str:
        """Who moves next."""
        return state.to_move

    def is_terminal(self, state: FibbleState) -> bool:
        """Won, or out of guesses (only at a Guesser node)."""
        return state.pending is None and (state.won or state.guesses_left <= 0)

    def utility(self, state: FibbleState) -> float:
        """A finished game's value: max_guesses + 1 - guesses used when won, else 0."""
        if not self.is_terminal(state):
            raise ValueError("utility is defined only for terminal states")
        return float(state.max_guesses + 1 - state.guesses_used) if state.won else 0.0

    def solve_now(self, state: FibbleState) -> float:
        """The value of winning with the next guess: the guesses left."""
        return float(state.guesses_left)

    def legal_guesses(self, state: FibbleState) -> np.ndarray:
        """Every guess."""
        return self.rules.all_guesses

    def one_apart(self, patterns: np.ndarray, shown: int) -> np.ndarray:
        """Which true patterns are exactly one tile from the shown one (a bool array aligned with `patterns`)."""
        differ = self.digits[patterns] != self.digits[shown]
        return np.count_nonzero(differ, axis=1) == 1

    def consistent(self, candidates: np.ndarray, guess: int, shown: int) -> np.ndarray:
        """The candidates that leave `shown` possible for `guess`: the answer itself for all green, else one tile away."""
        truth = self.rules.matrix[guess, candidates]
        if shown == self.all_green:
            return candidates[truth == self.all_green]
        return candidates[(truth != self.all_green) & self.one_apart(truth, shown)]

    def shown_counts(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """For each guess, the expected number of candidates showing each pattern: (guesses, 3**length) floats.

        A candidate's true pattern is spread evenly over its lies (`lie_kernel`); summed over the
        candidates and divided by their number, a row is the chance of each shown pattern.
        """
        count = 3**self.length
        truth = np.take(self.rules.matrix[guesses], candidates, axis=1).astype(np.int64)
        truth += (np.arange(len(guesses)) * count)[:, None]
        histogram = np.bincount(truth.ravel(), minlength=len(guesses) * count).reshape(len(guesses), count)
        return histogram @ lie_kernel(self.length)

    def lie_noise(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """For each guess, the bits the lie adds to its row when the answer is known: the mean of log2(lies) over the candidates."""
        truth = np.take(self.rules.matrix[guesses], candidates, axis=1)
        return np.log2(lie_counts(self.length))[truth].mean(axis=1)

    def reply_chances(self, state: FibbleState) -> tuple[list[int], list[float]]:
        """The patterns the pending guess can be shown, ascending, with their chances."""
        row = self.shown_counts(state.candidates, np.array([state.pending]))[0] / len(state.candidates)
        shown = np.flatnonzero(row > 0)
        return shown.tolist(), row[shown].tolist()

    def chance_outcomes(self, state: FibbleState) -> list[tuple[int, float]]:
        """The shown patterns as chance: the answer uniform over the candidates, the lie uniform over its tiles and colours."""
        if state.pending is None:
            raise ValueError("chance outcomes exist only while a guess awaits its reply")
        return list(zip(*self.reply_chances(state)))

    def actions(self, state: FibbleState) -> list[int] | np.ndarray:
        """Guess indices for the Guesser; for the Indicator, the patterns it can show, likeliest first (ties: lower code)."""
        if self.is_terminal(state):
            return []
        if state.pending is None:
            return self.legal_guesses(state)
        shown, chances = self.reply_chances(state)
        return [shown[i] for i in sorted(range(len(shown)), key=lambda i: (-chances[i], shown[i]))]

    def result(self, state: FibbleState, move: int) -> FibbleState:
        """The state after `move` (a guess index, or a shown pattern).

        Raises:
            IllegalMove: a guess out of range, a move after the end, or a shown pattern no possible answer allows.
        """
        move = int(move)
        if state.pending is None:
            if self.is_terminal(state):
                raise IllegalMove("the game is over")
            if not 0 <= move < len(self.rules.words.guesses):
                raise IllegalMove(f"guess index {move} is out of range")
            return FibbleState(state.candidates, state.history, state.max_guesses, pending=move)
        kept = self.consistent(state.candidates, state.pending, move)
        if kept.size == 0:
            raise IllegalMove(f"no possible answer allows {format_pattern(int(move), length=self.length)} to this guess "
                              "(with exactly one lie in each row)")
        return FibbleState(kept, state.history + ((state.pending, move),), state.max_guesses,
                           won=move == self.all_green)

    def reply(self, guess: int, answer: int, rng: np.random.Generator) -> int:
        """The Indicator's row for `guess` when `answer` is hidden: all green if it is the answer, else one lie drawn by `rng`."""
        truth = int(self.rules.matrix[guess, answer])
        return truth if truth == self.all_green else draw_lie(truth, self.length, rng)

    def key(self, state: FibbleState) -> tuple:
        """What a Guesser's choice depends on: the candidates and the guesses left."""
        return (state.candidates.tobytes(), state.guesses_left, state.pending)

    def play(self, choose: Callable[[FibbleState], int], answer: int, rng: np.random.Generator,
             max_guesses: int = FIBBLE_GUESSES) -> FibblePlaythrough:
        """Play one game: `choose` picks each guess, the Indicator lies once a row for `answer`, drawing with `rng`.

        Raises:
            IllegalMove: `choose` returned a move the rules forbid.
        """
        state = self.initial_state(max_guesses)
        while not self.is_terminal(state):
            asked = self.result(state, int(choose(state)))
            state = self.result(asked, self.reply(asked.pending, answer, rng))
        return FibblePlaythrough(answer=answer, history=state.history, won=state.won, final=state)
