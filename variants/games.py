"""The game a description names, and one game of it played to its end, its replies one pattern a board.

Wordle's own shape is played by `wordle.Wordle` itself (the game every agent and the solver know);
several boards and other lengths by `Boards`, a lying Indicator by `Fibble`. Whatever the game, a
played game reads the same: each guess with its reply, one pattern a board (None on a board solved
before that guess), so the tournament, `play` and `verify` handle every description one way.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from wordle import State, Wordle

from .boards import Boards, BoardsState
from .fibble import Fibble, FibbleState
from .spec import GameSpec

#: A game of any description.
AnyGame = Wordle | Boards | Fibble
#: A position of any description's game.
AnyState = State | BoardsState | FibbleState
#: One guess's reply: one pattern a board, None on a board solved before it.
Reply = tuple[int | None, ...]


def game_of(spec: GameSpec, rules: Wordle) -> AnyGame:
    """The game `spec` describes over `rules` (the word lists of its length and their pattern matrix)."""
    if spec.is_wordle:
        return rules
    if spec.lies:
        return Fibble(rules)
    return Boards(rules, spec.boards)


def initial_state(game: AnyGame, spec: GameSpec) -> AnyState:
    """The start of a game of `spec`: every answer possible on every board, nothing guessed."""
    if isinstance(game, Wordle):
        return game.initial_state(hard=spec.hard, max_guesses=spec.max_guesses)
    if isinstance(game, Fibble):
        return game.initial_state(spec.max_guesses)
    return game.initial_state(spec.max_guesses, hard=spec.hard)


def replies_of(state: AnyState) -> tuple[tuple[int, Reply], ...]:
    """A state's history, each guess with its reply as one pattern a board."""
    if isinstance(state, BoardsState):
        return tuple(state.history)
    return tuple((guess, (pattern,)) for guess, pattern in state.history)


def is_won(state: AnyState) -> bool:
    """Whether every board of the game is solved."""
    return bool(state.solved) if isinstance(state, State) else bool(state.won)


def play_out(game: AnyGame, spec: GameSpec, choose: Callable[[AnyState], int], answers: tuple[int, ...],
             lies: np.random.Generator | None = None) -> tuple[tuple[tuple[int, Reply], ...], bool]:
    """Play one game of `spec` to its end: `choose` picks each guess, the Indicator replies for `answers` (one a
    board), lying with draws from `lies` where the game lies.

    Returns:
        The guesses with their replies (one pattern a board), and whether the game was won.

    Raises:
        IllegalMove: `choose` returned a move the rules forbid. ValueError: answers that do not fit the boards.
    """
    if len(answers) != spec.boards:
        raise ValueError(f"{spec.name} hides {spec.boards} answers, got {len(answers)}")
    if isinstance(game, Wordle):
        played = game.play(choose, answers[0], hard=spec.hard, max_guesses=spec.max_guesses)
        return replies_of(played.final), played.solved
    if isinstance(game, Fibble):
        if lies is None:
            raise ValueError("a lying Indicator needs a generator to draw its lies from")
        shown = game.play(choose, answers[0], lies, spec.max_guesses)
        return replies_of(shown.final), shown.won
    boards = game.play(choose, answers, spec.max_guesses, hard=spec.hard)
    return replies_of(boards.final), boards.won
