"""A variant by name: how many boards, how long the words, whether the Indicator lies, and the guess limit.

>>> Variant(boards=4).limit, Variant(boards=2).name, Variant(fibble=True).limit
(9, 'dordle', 9)
>>> Variant().plain, Variant(length=6).name
(True, '6-letter wordle')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from plumbing.errors import UserError

from .words import LENGTHS

#: The most boards a game may play (Duotrigordle's 32).
MOST_BOARDS = 32
#: The guess limit of a game that lies once a row (Fibble's own).
FIBBLE_LIMIT = 9
#: The familiar names of the multi-board games.
BOARD_NAMES = {1: "wordle", 2: "dordle", 4: "quordle", 8: "octordle", 16: "sedecordle", 32: "duotrigordle"}


class VariantError(UserError):
    """A combination of variant settings no game offers."""


@dataclass(frozen=True)
class Variant:
    """Which game is played.

    Attributes:
        boards: boards played at once, every guess on each board not yet solved (1 to MOST_BOARDS).
        length: letters in a word (4 to 9).
        fibble: whether the Indicator tells exactly one lie a row (one board only).
        max_guesses: the guess limit; None for the variant's own (`limit`).
    """

    boards: int = 1
    length: int = 5
    fibble: bool = False
    max_guesses: int | None = None

    def __post_init__(self) -> None:
        """Refuse a variant no game offers, in one line."""
        if not 1 <= self.boards <= MOST_BOARDS:
            raise VariantError(f"--boards must be 1 to {MOST_BOARDS}, got {self.boards}")
        if self.length not in LENGTHS:
            raise VariantError(f"--length must be {LENGTHS.start} to {LENGTHS.stop - 1}, got {self.length}")
        if self.fibble and self.boards != 1:
            raise VariantError("fibble plays one board: drop --boards")
        if self.fibble and 3**self.length > 729:
            raise VariantError("fibble plays words of 4 to 6 letters")
        if self.max_guesses is not None and self.max_guesses < 1:
            raise VariantError(f"the guess limit must be at least 1, got {self.max_guesses}")

    @property
    def limit(self) -> int:
        """The guess limit: the one given, else Fibble's 9, else the boards plus five (Wordle 6, Dordle 7, Quordle 9, Octordle 13)."""
        if self.max_guesses is not None:
            return self.max_guesses
        return FIBBLE_LIMIT if self.fibble else self.boards + 5

    @property
    def plain(self) -> bool:
        """Whether this is today's game (one board, five letters, an honest Indicator)."""
        return self.boards == 1 and self.length == 5 and not self.fibble

    @property
    def name(self) -> str:
        """The variant's familiar name."""
        game = "fibble" if self.fibble else BOARD_NAMES.get(self.boards, f"{self.boards}-board wordle")
        return game if self.length == 5 else f"{self.length}-letter {game}"

    def settings(self) -> dict[str, Any]:
        """What a results file records to replay the variant."""
        return {"boards": self.boards, "length": self.length, "fibble": self.fibble, "max_guesses": self.limit}

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> "Variant":
        """The variant a results file recorded (see `settings`).

        Raises:
            VariantError: settings that name no variant.
        """
        try:
            return cls(boards=int(settings["boards"]), length=int(settings["length"]), fibble=bool(settings["fibble"]),
                       max_guesses=int(settings["max_guesses"]))
        except (KeyError, TypeError, ValueError):
            raise VariantError(f"the recorded variant {settings!r} names no game") from None
