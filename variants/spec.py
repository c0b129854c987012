"""The description of a game: how many boards, how long the words, how many lies a row, the guess limit, the word
lists and the mode. Today's Wordle is one point of it (one board, five letters, no lie, six guesses).

Every command, the tournament, `verify`, the web and the players take a `GameSpec`; nothing else
says which game is played.

>>> GameSpec(boards=4).max_guesses, GameSpec(boards=2).name, GameSpec(lies=1).max_guesses
(9, 'dordle', 9)
>>> GameSpec().is_wordle, GameSpec().max_guesses, GameSpec(length=6).name, GameSpec(hard=True).mode
(True, 6, '6-letter wordle', 'hard')
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from plumbing.errors import UserError

from .words import LENGTHS

#: The most boards a game may play (Duotrigordle's 32).
MOST_BOARDS = 32
#: The most lies the Indicator may tell in a row: Fibble's one.
MOST_LIES = 1
#: The guess limit of a game that lies once a row (Fibble's own).
FIBBLE_LIMIT = 9
#: The highest guess limit a game may have (Duotrigordle's own is 37).
MOST_GUESSES = 64
#: The familiar names of the multi-board games.
BOARD_NAMES = {1: "wordle", 2: "dordle", 4: "quordle", 8: "octordle", 16: "sedecordle", 32: "duotrigordle"}
#: The keys of a shape's settings (`GameSpec.shape`), as results files record it.
SHAPE_KEYS = ("boards", "length", "lies")


class GameSpecError(UserError):
    """A combination of settings no game offers."""


def _whole(value: Any) -> bool:
    """Whether `value` is a whole number (not a bool, not a float)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class GameSpec:
    """Which game is played.

    Attributes:
        boards: boards played at once, every guess on each board not yet solved (1 to MOST_BOARDS).
        length: letters in a word (4 to 9).
        lies: tiles the Indicator changes in every row that does not win (0, or 1 for Fibble; one board only).
        max_guesses: the guess limit; None given means the game's own (`default_limit`), which is then stored.
        answers: the answer list: None for the shipped list of the word length, else a file (or, where a command
            offers it, a list's name); five-letter words only.
        guesses: the allowed-guess list, as `answers`.
        hard: hard mode: every revealed hint must be used (one honest board only).
    """

    boards: int = 1
    length: int = 5
    lies: int = 0
    max_guesses: int | None = None
    answers: str | None = None
    guesses: str | None = None
    hard: bool = False

    def __post_init__(self) -> None:
        """Refuse a game no one offers, in one line; fill in the game's own guess limit."""
        if not _whole(self.boards) or not 1 <= self.boards <= MOST_BOARDS:
            raise GameSpecError(f"--boards must be 1 to {MOST_BOARDS}, got {self.boards!r}")
        if not _whole(self.length) or self.length not in LENGTHS:
            raise GameSpecError(f"--length must be {LENGTHS.start} to {LENGTHS.stop - 1}, got {self.length!r}")
        if not _whole(self.lies) or not 0 <= self.lies <= MOST_LIES:
            raise GameSpecError(f"the Indicator tells 0 or {MOST_LIES} lie a row, not {self.lies!r}")
        if self.lies and self.boards != 1:
            raise GameSpecError("fibble plays one board: drop --boards")
        if self.lies and 3**self.length > 729:
            raise GameSpecError("fibble plays words of 4 to 6 letters")
        if not isinstance(self.hard, bool):
            raise GameSpecError(f"hard mode is on or off, not {self.hard!r}")
        if self.hard and (self.boards != 1 or self.lies):
            raise GameSpecError(f"--hard is played on one honest board only, not {self.name}")
        for kind in ("answers", "guesses"):
            given = getattr(self, kind)
            if isinstance(given, os.PathLike):
                object.__setattr__(self, kind, given := os.fspath(given))
            if given is not None and (not isinstance(given, str) or not given):
                raise GameSpecError(f"the {kind} list is named by a non-empty text, not {given!r}")
            if given is not None and self.length != 5:
                raise GameSpecError(f"--{kind} names a list of five-letter words; words of {self.length} letters "
                                    "are played on the shipped lists of their length")
        if self.max_guesses is None:
            object.__setattr__(self, "max_guesses", self.default_limit)
        elif not _whole(self.max_guesses) or not 1 <= self.max_guesses <= MOST_GUESSES:
            raise GameSpecError(f"the guess limit must be 1 to {MOST_GUESSES}, got {self.max_guesses!r}")

    @property
    def default_limit(self) -> int:
        """The game's own guess limit: Fibble's 9, else the boards plus five (Wordle 6, Dordle 7, Quordle 9, Octordle 13)."""
        return FIBBLE_LIMIT if self.lies else self.boards + 5

    @property
    def is_wordle(self) -> bool:
        """Whether this is Wordle's own shape (one board, five letters, an honest Indicator), which the solver and every
        agent play; the other shapes are played by the players that say they play them (`agents.registry`)."""
        return self.boards == 1 and self.length == 5 and not self.lies

    @property
    def mode(self) -> str:
        """"hard" or "normal"."""
        return "hard" if self.hard else "normal"

    @property
    def name(self) -> str:
        """The game's familiar name (its mode aside)."""
        game = "fibble" if self.lies else BOARD_NAMES.get(self.boards, f"{self.boards}-board wordle")
        return game if self.length == 5 else f"{self.length}-letter {game}"

    def describe(self) -> str:
        """The game in words: its name, boards, letters, guesses, lies and mode."""
        boards = f"{self.boards} board{'s' if self.boards > 1 else ''}"
        return (f"{self.name} ({boards}, {self.length} letters, {self.max_guesses} guesses"
                + (", hard mode" if self.hard else "") + ")"
                + ("; every row but a winning one holds exactly one lie" if self.lies else ""))

    def as_data(self) -> dict[str, Any]:
        """The game as JSON data for a person or a page: its name, shape, guess limit and mode."""
        return {"name": self.name, **self.shape(), "max_guesses": self.max_guesses, "mode": self.mode}

    def with_mode(self, mode: str) -> "GameSpec":
        """The same game in `mode` ("normal" or "hard")."""
        return replace(self, hard=mode == "hard")

    def shape(self) -> dict[str, int]:
        """Boards, length and lies, as results files record them (the limit, lists and modes are recorded beside)."""
        return {"boards": self.boards, "length": self.length, "lies": self.lies}

    @classmethod
    def from_shape(cls, shape: Any, **rest: Any) -> "GameSpec":
        """The game a results file recorded: its shape (`shape()`, or None for Wordle's) and the other fields.

        Raises:
            GameSpecError: a shape that is not exactly boards, length and lies as whole numbers, or no game.
        """
        if shape is None:
            shape = {"boards": 1, "length": 5, "lies": 0}
        if not isinstance(shape, dict) or set(shape) != set(SHAPE_KEYS) or not all(_whole(shape[k]) for k in SHAPE_KEYS):
            raise GameSpecError(f"the recorded game {str(shape)[:200]} is not boards, length and lies as whole numbers")
        return cls(**shape, **rest)
