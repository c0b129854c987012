"""K boards at once (Dordle, Quordle, Octordle, ...): every guess is played on each board not yet solved.

Each board hides its own answer; the Indicator replies with one pattern a board, and a board that
is solved stops (its later replies are None). The game is won when every board is solved within the
guess limit. One board is plain Wordle, of any word length the rules' lists have. Values are from the
Guesser's point of view, higher is better, on Wordle's scale: winning with guess k is worth
max_guesses + 1 - k, a lost game 0. The boards' answers are drawn independently, so the Indicator's
replies, as chance, are the product of each board's (`chance_outcomes`); as a minimiser it may give
any such combination (`actions`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, cast

import numpy as np

from wordle import IllegalMove, Wordle, format_pattern, hints_from, legal_mask, violation
from wordle.feedback import all_green
from wordle.game import GUESSER, INDICATOR

#: The Indicator's reply: one pattern a board, None on a board solved before this guess.
Reply = tuple[int | None, ...]
#: The most replies the Indicator's moves are listed for (`actions`, `chance_outcomes`): their number is the product of
#: the open boards' patterns, which on 16 or 32 boards early in a game is astronomical (a search lists them only in
#: the endgame, `agents.board_players.ENDGAME_REPLIES`); past this the listing is refused rather than filling memory.
MOST_REPLIES = 1_000_000


@dataclass(frozen=True, eq=False)
class BoardsState:
    """A position of a K-board game.

    Attributes:
        candidates: for each board, the answer indices still consistent with its replies (a solved board: its answer).
        solved: for each board, whether it is solved.
        history: (guess index, reply) pairs played so far.
        max_guesses: the guess limit.
        hard: hard mode (one board only): revealed hints must be used.
        pending: the guess awaiting the Indicator's reply, or None when the Guesser is to move.
    """

    candidates: tuple[np.ndarray, ...] = field(repr=False)
    solved: tuple[bool, ...]
    history: tuple[tuple[int, Reply], ...] = ()
    max_guesses: int = 6
    hard: bool = False
    pending: int | None = None

    @property
    def guesses_used(self) -> int:
        """Guesses already answered."""
        return len(self.history)

    @property
    def guesses_left(self) -> int:
        """Guesses the Guesser may still make."""
        return self.max_guesses - len(self.history)

    @property
    def won(self) -> bool:
        """Whether every board is solved."""
        return all(self.solved)

    @property
    def open_boards(self) -> tuple[int, ...]:
        """The boards not yet solved, in order."""
        return tuple(board for board, done in enumerate(self.solved) if not done)

    @property
    def to_move(self) -> str:
        """GUESSER or INDICATOR."""
        return GUESSER if self.pending is None else INDICATOR


@dataclass(frozen=True)
class BoardsPlaythrough:
    """A finished K-board game: the answers, the guesses and replies in order, and whether it was won."""

    answers: tuple[int, ...]
    history: tuple[tuple[int, Reply], ...]
    won: bool
    final: BoardsState = field(repr=False)


class Boards:
    """K simultaneous boards over one pair of word lists (`rules`: Wordle's lists and pattern matrix).

    A `search.game.Game[BoardsState, int | Reply]`: the Guesser's moves are guess indices, the Indicator's replies.
    """

    maximiser = GUESSER

    def __init__(self, rules: Wordle, boards: int):
        if boards < 1:
            raise ValueError(f"a game has at least one board, got {boards}")
        self.rules, self.boards = rules, boards
        self.words = rules.words
        self.length = rules.words.length
        self.all_green = all_green(self.length)

    # -- states ------------------------------------------------------------------
    def initial_state(self, max_guesses: int, hard: bool = False) -> BoardsState:
        """Every answer possible on every board, nothing guessed."""
        if max_guesses < 1:
            raise ValueError(f"the guess limit must be at least 1, got {max_guesses}")
        if hard and self.boards != 1:
            raise ValueError("hard mode is played on one board only")
        return BoardsState(candidates=(self.rules.all_answers,) * self.boards, solved=(False,) * self.boards,
                           max_guesses=max_guesses, hard=hard)

    def to_move(self, state: BoardsState) -> str:
        """Who moves next."""
        return state.to_move

    def is_terminal(self, state: BoardsState) -> bool:
        """Every board solved, or out of guesses (only at a Guesser node)."""
        return state.pending is None and (state.won or state.guesses_left <= 0)

    def utility(self, state: BoardsState) -> float:
        """A finished game's value: max_guesses + 1 - guesses used when every board is solved, else 0."""
        if not self.is_terminal(state):
            raise ValueError("utility is defined only for terminal states")
        return float(state.max_guesses + 1 - state.guesses_used) if state.won else 0.0

    def solve_now(self, state: BoardsState) -> float:
        """The value of winning with the next guess: the guesses left (the utility scale)."""
        return float(state.guesses_left)

    # -- moves -------------------------------------------------------------------
    def history_words(self, state: BoardsState, board: int = 0) -> list[tuple[str, int]]:
        """One board's (guess word, pattern) pairs, up to the guess that solved it."""
        words = self.rules.words.guesses
        return [(words[guess], reply[board]) for guess, reply in state.history if reply[board] is not None]

    def legal_guesses(self, state: BoardsState) -> np.ndarray:
        """Every guess; in hard mode (one board) those obeying every hint."""
        if not state.hard or not state.history:
            return self.rules.all_guesses
        hints = hints_from(self.history_words(state))
        return np.flatnonzero(legal_mask(self.rules.guess_letters, self.rules.guess_counts, hints))

    def violation(self, state: BoardsState, guess: int) -> str | None:
        """Why `guess` breaks hard mode here, or None."""
        return violation(self.rules.words.guesses[guess], self.history_words(state)) if state.hard else None

    def board_replies(self, state: BoardsState, board: int) -> tuple[list[int], list[int]]:
        """The patterns the pending guess gets on an open board, ascending, and how many of its answers give each."""
        replies = self.rules.matrix[state.pending, state.candidates[board]]
        patterns, counts = np.unique(replies, return_counts=True)
        return patterns.tolist(), counts.tolist()

    def _joint(self, state: BoardsState) -> list[tuple[Reply, float]]:
        """Every reply the Indicator can give to the pending guess, with its probability, in product order."""
        per_board: list[list[tuple[int | None, float]]] = []
        for board, done in enumerate(state.solved):
            if done:
                per_board.append([(None, 1.0)])
                continue
            patterns, counts = self.board_replies(state, board)
            total = len(state.candidates[board])
            per_board.append([(pattern, count / total) for pattern, count in zip(patterns, counts)])
        if (count := math.prod(len(replies) for replies in per_board)) > MOST_REPLIES:
            raise ValueError(f"the Indicator has {count:,} replies to this guess on {len(state.open_boards)} open boards, "
                             f"more than the {MOST_REPLIES:,} a search may list")
        joint = []
        for combination in itertools.product(*per_board):
            chance = 1.0
            for _, share in combination:
                chance *= share
            joint.append((tuple(pattern for pattern, _ in combination), chance))
        return joint

    def chance_outcomes(self, state: BoardsState) -> list[tuple[Reply, float]]:
        """The Indicator's replies as chance: each board's patterns in product, each with its probability."""
        if state.pending is None:
            raise ValueError("chance outcomes exist only while a guess awaits its reply")
        return self._joint(state)

    def actions(self, state: BoardsState) -> np.ndarray | list[Reply]:
        """Legal moves: guess indices for the Guesser; for the Indicator, its replies, the likeliest first."""
        if self.is_terminal(state):
            return []
        if state.pending is None:
            return self.legal_guesses(state)
        joint = self._joint(state)
        order = sorted(range(len(joint)), key=lambda i: -joint[i][1])  # stable: ties keep the product order
        return [joint[i][0] for i in order]

    def result(self, state: BoardsState, move: int | Reply) -> BoardsState:
        """The state after `move` (a guess index while the Guesser moves, else a reply); `state` is left unchanged.

        Raises:
            IllegalMove: a guess out of range or breaking hard mode, a move after the end, or a reply
                that does not fit the boards (a pattern on a solved board, or one no possible answer gives).
        """
        if state.pending is None:
            guess = int(cast(int, move))
            if self.is_terminal(state):
                raise IllegalMove("the game is over")
            if not 0 <= guess < len(self.rules.words.guesses):
                raise IllegalMove(f"guess index {guess} is out of range")
            if state.hard and (broken := self.violation(state, guess)) is not None:
                raise IllegalMove(f"hard mode: {broken}")
            return BoardsState(state.candidates, state.solved, state.history, state.max_guesses, state.hard, guess)
        reply = tuple(cast(Reply, move))
        if len(reply) != self.boards:
            raise IllegalMove(f"a reply has one pattern a board ({self.boards}), got {len(reply)}")
        candidates, solved = list(state.candidates), list(state.solved)
        for board, pattern in enumerate(reply):
            if state.solved[board] or pattern is None:
                if state.solved[board] != (pattern is None):
                    raise IllegalMove(f"board {board + 1}: a pattern goes to every open board and none to a solved one")
                continue
            kept = candidates[board][self.rules.matrix[state.pending, candidates[board]] == pattern]
            if kept.size == 0:
                raise IllegalMove(f"board {board + 1}: no possible answer gives "
                                  f"{format_pattern(int(pattern), length=self.length)} to this guess")
            candidates[board], solved[board] = kept, int(pattern) == self.all_green
        history = state.history + ((state.pending, tuple(None if p is None else int(p) for p in reply)),)
        return BoardsState(tuple(candidates), tuple(solved), history, state.max_guesses, state.hard)

    def reply(self, state: BoardsState, answers: tuple[int, ...]) -> Reply:
        """The honest reply to the pending guess when the boards hide `answers`."""
        return tuple(None if done else int(self.rules.matrix[state.pending, answer])
                     for done, answer in zip(state.solved, answers))

    def key(self, state: BoardsState) -> tuple:
        """What a Guesser's choice depends on: each board's candidates (solved boards: none), the guesses left, hard-mode hints."""
        boards = tuple(b"" if done else cands.tobytes() for cands, done in zip(state.candidates, state.solved))
        hints = hints_from(self.history_words(state)) if state.hard else None
        return (boards, state.guesses_left, hints, state.pending)

    # -- playing -----------------------------------------------------------------
    def play(self, choose: Callable[[BoardsState], int], answers: tuple[int, ...], max_guesses: int,
             hard: bool = False) -> BoardsPlaythrough:
        """Play one game: `choose` picks each guess, the Indicator answers honestly for `answers`, one a board.

        Raises:
            IllegalMove: `choose` returned a move the rules forbid.
        """
        if len(answers) != self.boards:
            raise ValueError(f"{self.boards} boards need {self.boards} answers, got {len(answers)}")
        state = self.initial_state(max_guesses, hard)
        while not self.is_terminal(state):
            asked = self.result(state, int(choose(state)))
            state = self.result(asked, self.reply(asked, answers))
        return BoardsPlaythrough(answers=tuple(answers), history=state.history, won=state.won, final=state)
