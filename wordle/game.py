"""Wordle as a two-player game: the Guesser picks a word, the Indicator answers with a pattern.

Values are from the Guesser's point of view: higher is better. The same state serves
minimax (the Indicator as the minimiser, `actions`) and expectimax (the Indicator as
chance, `chance_outcomes`, weighted by how many possible answers give each pattern).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .feedback import ALL_GREEN, PATTERN_COUNT
from .hardmode import Hints, hints_from, legal_mask, violation
from . import ultra as ultra_mode
from .matrix import load_matrix
from .replies import partition
from .words import Words, letter_counts, encode_letters, load_words

GUESSER = "guesser"
INDICATOR = "indicator"
DEFAULT_MAX_GUESSES = 6
#: Up to this many possible answers, an Indicator's replies are counted in plain Python.
_FEW = 48


def can_win(answer_rows: np.ndarray, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
    """Whether each guess is one of the candidates, given each answer's guess row (`Words.answer_rows`)."""
    is_answer = np.zeros(max(int(answer_rows.max(initial=-1)), int(np.max(guesses, initial=-1))) + 1, dtype=bool)
    is_answer[answer_rows[candidates]] = True
    return is_answer[guesses]


class IllegalMove(Exception):
    """A move the rules do not allow in this state; the message says why.

    It is a player's bug, not bad input: every command checks a person's guesses and patterns
    (`Wordle.violation`, the answers a pattern leaves) before playing them, so only an agent or
    an Indicator can make one.
    """


@dataclass(frozen=True, eq=False)
class State:
    """A position of the game.

    Attributes:
        candidates: answer indices still consistent with every reply, ascending.
        history: (guess index, pattern code) pairs played so far.
        hard: whether hard mode's rule binds the Guesser.
        max_guesses: the guess limit.
        pending: the guess awaiting the Indicator's reply, or None when the Guesser is to move.
        ultra: whether ultra-hard mode's rule binds the Guesser (`wordle.ultra`: every guess after the first
            could still be the answer); never with `hard`, whose rule it contains.
    """

    candidates: np.ndarray = field(repr=False)
    history: tuple[tuple[int, int], ...] = ()
    hard: bool = False
    max_guesses: int = DEFAULT_MAX_GUESSES
    pending: int | None = None
    ultra: bool = False

    @property
    def mode(self) -> str:
        """"normal", "hard" or "ultra"."""
        return "ultra" if self.ultra else "hard" if self.hard else "normal"

    @property
    def guesses_used(self) -> int:
        """Guesses already answered by the Indicator."""
        return len(self.history)

    @property
    def guesses_left(self) -> int:
        """Guesses the Guesser may still make."""
        return self.max_guesses - len(self.history)

    @property
    def solved(self) -> bool:
        """Whether the last reply was all green."""
        return bool(self.history) and self.history[-1][1] == ALL_GREEN

    @property
    def to_move(self) -> str:
        """GUESSER or INDICATOR."""
        return GUESSER if self.pending is None else INDICATOR


@dataclass(frozen=True)
class Turn:
    """One guess of a played game, as a trace shows it."""

    guess: int
    pattern: int
    remaining_before: int
    remaining_after: int

    @property
    def bits(self) -> float:
        """Information the reply gave: log2 of how much it shrank the possible answers."""
        return math.log2(self.remaining_before / self.remaining_after)


@dataclass(frozen=True)
class Playthrough:
    """A finished game: the answer, when the Indicator held one or the Guesser found it, else None."""

    answer: int | None
    turns: tuple[Turn, ...]
    solved: bool
    final: State = field(repr=False)


class Wordle:
    """The rules over one pair of word lists, with the pattern matrix they imply: a `search.game.Game[State, int]`.

    Guess moves are row indices of `words.guesses`; answers are column indices of
    `words.answers`; Indicator moves are pattern codes.
    """

    #: The player whose point of view `utility` and the searches take.
    maximiser = GUESSER

    def __init__(self, words: Words | None = None, matrix: np.ndarray | None = None):
        self.words = words if words is not None else load_words()
        self.matrix = matrix if matrix is not None else load_matrix(self.words)
        if self.matrix.shape != (len(self.words.guesses), len(self.words.answers)):
            raise ValueError("the pattern matrix does not match the word lists")
        self.guess_letters = encode_letters(list(self.words.guesses))
        self.guess_counts = letter_counts(list(self.words.guesses))
        self.all_guesses = np.arange(len(self.words.guesses))
        self.all_answers = np.arange(len(self.words.answers))
        self.narrowing = ultra_mode.Narrowing(self.guess_letters, self.guess_counts)

    # -- states ------------------------------------------------------------------
    def initial_state(self, hard: bool = False, max_guesses: int = DEFAULT_MAX_GUESSES, ultra: bool = False) -> State:
        """The start of a game: every answer possible, nothing guessed (`ultra`: ultra-hard mode, not with `hard`)."""
        if max_guesses < 1:
            raise ValueError(f"the guess limit must be at least 1, got {max_guesses}")
        if hard and ultra:
            raise ValueError("ultra-hard mode contains hard mode's rule: ask for one of them")
        return State(candidates=self.all_answers, hard=hard, max_guesses=max_guesses, ultra=ultra)

    def to_move(self, state: State) -> str:
        """Who moves next: GUESSER or INDICATOR."""
        return state.to_move

    def is_terminal(self, state: State) -> bool:
        """Solved, or out of guesses (only ever at a Guesser node)."""
        return state.pending is None and (state.solved or state.guesses_left <= 0)

    def utility(self, state: State) -> float:
        """A terminal state's value to the Guesser: max_guesses + 1 - guesses used when solved, else 0."""
        if not self.is_terminal(state):
            raise ValueError("utility is defined only for terminal states")
        return float(state.max_guesses + 1 - state.guesses_used) if state.solved else 0.0

    # -- moves -------------------------------------------------------------------
    def hints(self, state: State) -> Hints:
        """The hard-mode demands the history places on the next guess."""
        return hints_from(self.history_words(state))

    def possible(self, state: State) -> ultra_mode.Possible:
        """The guesses that could still be the answer after the state's replies (ultra-hard mode's legal guesses)."""
        possible = ultra_mode.Possible()
        for guess, pattern in state.history:
            possible = self.narrowing.after(possible, guess, pattern)
        return possible

    def legal_guesses(self, state: State) -> np.ndarray:
        """Guess indices the Guesser may play: all of them, in hard mode those obeying every hint, in ultra-hard
        mode those that could still be the answer."""
        if state.ultra and state.history:
            return self.possible(state).guesses(len(self.words.guesses))
        if not state.hard or not state.history:
            return self.all_guesses
        return np.flatnonzero(legal_mask(self.guess_letters, self.guess_counts, self.hints(state)))

    def solve_now(self, state: State) -> float:
        """The value of solving with the next guess: max_guesses - guesses used (the utility scale)."""
        return float(state.max_guesses - state.guesses_used)

    def winning_guesses(self, candidates: np.ndarray) -> np.ndarray:
        """The guesses that can still win: the possible answers as guess indices, ascending."""
        return np.sort(self.words.answer_rows[candidates])

    def can_win(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """Whether each of `guesses` is one of the possible answers (a bool array aligned with them)."""
        return can_win(self.words.answer_rows, candidates, guesses)

    def violation(self, state: State, guess: int) -> str | None:
        """Why `guess` is illegal here (hard and ultra-hard modes only), or None."""
        if state.ultra:
            return ultra_mode.violation(self.words.guesses[guess], self.history_words(state))
        if not state.hard:
            return None
        return violation(self.words.guesses[guess], self.history_words(state))

    def partition(self, candidates: np.ndarray, guess: int) -> list[tuple[int, np.ndarray]]:
        """The candidates grouped by the pattern `guess` would get: (pattern, answers), pattern ascending."""
        return partition(self.matrix[guess, candidates], candidates)

    def chance_outcomes(self, state: State) -> list[tuple[int, float]]:
        """The Indicator's replies to the pending guess, pattern ascending, each with its probability (bin size / answers)."""
        if state.pending is None:
            raise ValueError("chance outcomes exist only while a guess awaits its reply")
        total = len(state.candidates)
        return [(pattern, count / total) for pattern, count in zip(*self.reply_counts(state))]

    def actions(self, state: State) -> np.ndarray:
        """Legal moves: guess indices for the Guesser (ascending); for the Indicator, the patterns some
        possible answer gives, the most common first (ties: the lower code), so a minimiser tries the
        replies that keep most answers first."""
        if self.is_terminal(state):
            return np.zeros(0, dtype=np.int64)
        if state.pending is None:
            return self.legal_guesses(state)
        patterns, counts = self.reply_counts(state)
        return np.array(patterns, dtype=np.int64)[np.argsort(-np.array(counts), kind="stable")]

    def reply_counts(self, state: State) -> tuple[list[int], list[int]]:
        """The patterns the pending guess gets from the possible answers, ascending, and how many answers give each."""
        replies = self.matrix[state.pending, state.candidates]
        if replies.size <= _FEW:  # counted in Python: cheaper than numpy's calls for a few answers
            counts: dict[int, int] = {}
            for reply in replies.tolist():
                counts[reply] = counts.get(reply, 0) + 1
            patterns = sorted(counts)
            return patterns, [counts[pattern] for pattern in patterns]
        counts = np.bincount(replies, minlength=PATTERN_COUNT)
        patterns = np.flatnonzero(counts)
        return patterns.tolist(), counts[patterns].tolist()

    def result(self, state: State, move: int) -> State:
        """The state after `move`; the given state is left unchanged.

        Raises:
            IllegalMove: a guess out of range or breaking hard mode, a move after the
                end, or a pattern that no possible answer gives.
        """
        move = int(move)
        if state.pending is None:
            if self.is_terminal(state):
                raise IllegalMove("the game is over")
            if not 0 <= move < len(self.words.guesses):
                raise IllegalMove(f"guess index {move} is out of range")
            if (state.hard or state.ultra) and (broken := self.violation(state, move)) is not None:
                raise IllegalMove(f"{'ultra-hard' if state.ultra else 'hard'} mode: {broken}")
            return State(state.candidates, state.history, state.hard, state.max_guesses, pending=move,
                         ultra=state.ultra)
        remaining = state.candidates[self.matrix[state.pending, state.candidates] == move]
        if remaining.size == 0:
            raise IllegalMove(f"no possible answer gives pattern {move} to this guess")
        return State(remaining, state.history + ((state.pending, move),), state.hard, state.max_guesses,
                     ultra=state.ultra)

    def step(self, state: State, guess: int, pattern: int) -> State:
        """Both half-moves at once: the Guesser's guess and the Indicator's pattern."""
        return self.result(self.result(state, guess), pattern)

    def reply(self, guess: int, answer: int) -> int:
        """The pattern `guess` gets when `answer` is the hidden word."""
        return int(self.matrix[guess, answer])

    def history_words(self, state: State) -> list[tuple[str, int]]:
        """The history with guesses as words."""
        return [(self.words.guesses[guess], pattern) for guess, pattern in state.history]

    def state_key(self, state: State, choosable: np.ndarray | None = None) -> tuple:
        """What a Guesser's best choice depends on: the candidates, the guesses left, and the guesses it may choose from.

        Args:
            state: the state.
            choosable: the guesses the player chooses from, when it limits itself (say, to the
                possible answers); default: the legal guesses, a part of the key only in hard
                and ultra-hard modes after a guess (else every guess is legal).
        """
        if choosable is None and (state.hard or state.ultra) and state.history:
            choosable = self.legal_guesses(state)
        return (state.candidates.tobytes(), state.guesses_left, state.mode,
                None if choosable is None else choosable.tobytes(), state.pending)

    # -- playing -----------------------------------------------------------------
    def play(self, choose: Callable[[State], int], answer: int, hard: bool = False,
             max_guesses: int = DEFAULT_MAX_GUESSES, ultra: bool = False) -> Playthrough:
        """Play one game: `choose` picks each guess, the Indicator answers truthfully for `answer`.

        Raises:
            IllegalMove: `choose` returned a move the rules forbid.
        """
        return self.play_against(choose, lambda state: self.reply(state.pending, answer), hard=hard,
                                 max_guesses=max_guesses, answer=answer, ultra=ultra)

    def play_against(self, choose: Callable[[State], int], indicate: Callable[[State], int], hard: bool = False,
                     max_guesses: int = DEFAULT_MAX_GUESSES, answer: int | None = None,
                     ultra: bool = False) -> Playthrough:
        """Play one game: `choose` picks each guess, `indicate` each reply (given the state with the guess pending).

        Args:
            answer: the answer the Indicator holds, when it holds one (recorded as the game's answer);
                else the answer is the one found, or None when the game was not solved.

        Raises:
            IllegalMove: `choose` returned a move the rules forbid, or `indicate` a pattern no possible
                answer gives (an inconsistent Indicator).
        """
        state = self.initial_state(hard=hard, max_guesses=max_guesses, ultra=ultra)
        turns: list[Turn] = []
        while not self.is_terminal(state):
            before = len(state.candidates)
            asked = self.result(state, int(choose(state)))
            state = self.result(asked, int(indicate(asked)))
            turns.append(Turn(guess=asked.pending, pattern=state.history[-1][1],
                              remaining_before=before, remaining_after=len(state.candidates)))
        if answer is None and state.solved:
            answer = int(state.candidates[0])
        return Playthrough(answer=answer, turns=tuple(turns), solved=state.solved, final=state)
