"""Patterns as people write them: letters (`gy-..`), digits (`20100`) and emoji squares.

Reading accepts any of the three forms:
- letters: g = green, y = yellow, and `-`, `.`, `b`, `x` or `_` = grey, any case;
- digits: 2 = green, 1 = yellow, 0 = grey;
- emoji: green square, yellow square, black or white square (grey); the game's high-contrast
  squares too: orange (green) and blue (yellow).

>>> parse_pattern('g-y--') == int('20100', 3)
True
>>> format_pattern(int('20100', 3), 'digits')
'20100'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from plumbing.errors import UserError
from .feedback import GREEN, GREY, YELLOW, decode_colours, encode_colours
from .words import WORD_LENGTH

STYLES = ("letters", "digits", "emoji")
_READ = {
    "g": GREEN, "y": YELLOW, "-": GREY, ".": GREY, "b": GREY, "x": GREY, "_": GREY,
    "2": GREEN, "1": YELLOW, "0": GREY,
    "\U0001F7E9": GREEN, "\U0001F7E8": YELLOW, "\u2B1B": GREY, "\u2B1C": GREY,
    "\U0001F7E7": GREEN, "\U0001F7E6": YELLOW,  # the high-contrast squares: orange and blue
}
_WRITE = {
    "letters": {GREEN: "g", YELLOW: "y", GREY: "-"},
    "digits": {GREEN: "2", YELLOW: "1", GREY: "0"},
    "emoji": {GREEN: "\U0001F7E9", YELLOW: "\U0001F7E8", GREY: "\u2B1B"},
}


class PatternError(UserError):
    """A pattern text that is not five colour marks."""


def parse_pattern(text: str, length: int = WORD_LENGTH) -> int:
    """The pattern code of a text in any of the three forms, for words of `length` letters (default five).

    Raises:
        PatternError: not exactly `length` recognised marks.
    """
    marks = [ch for ch in text.strip().lower() if ch not in "\ufe0f"]
    if len(marks) != length or any(mark not in _READ for mark in marks):
        example = "gy-.." if length == WORD_LENGTH else "gy" + "-" * (length - 2)
        raise PatternError(
            f"'{text}' is not a pattern: write {length} marks such as '{example}' "
            f"(g green, y yellow, - . b grey), '{'2100' + '0' * (length - 4)}' or emoji squares"
        )
    return encode_colours([_READ[mark] for mark in marks])


def format_pattern(code: int, style: str = "letters", length: int = WORD_LENGTH) -> str:
    """A pattern code of `length` letters (default five) written in one of STYLES."""
    if style not in _WRITE:
        raise ValueError(f"unknown pattern style '{style}'; choose one of {', '.join(STYLES)}")
    return "".join(_WRITE[style][colour] for colour in decode_colours(code, length))


#: The share grid's palettes: the emoji squares as they are, or green and yellow as orange and blue.
SHARE_PALETTES = {"default": str.maketrans({}),
                  "contrast": str.maketrans({"\U0001F7E9": "\U0001F7E7", "\U0001F7E8": "\U0001F7E6"})}


def share_grid(patterns: list[int], solved: bool, max_guesses: int, hard: bool, palette: str = "default",
               puzzle: int | None = None) -> str:
    """The game as the emoji grid people share: a score line, a blank line, then one row of squares a guess.

    The score line names the Wordle number (`puzzle`, as the Times writes it: "Wordle 1,986 3/6") when the game
    was that day's; otherwise "wordle-arena 3/6". A `*` after it means hard mode.

    >>> from wordle.feedback import ALL_GREEN, feedback
    >>> print(share_grid([feedback("crane", "crate"), ALL_GREEN], True, 6, hard=True))
    wordle-arena 2/6*
    <BLANKLINE>
    🟩🟩🟩⬛🟩
    🟩🟩🟩🟩🟩
    >>> share_grid([ALL_GREEN], True, 6, hard=False, puzzle=1986).splitlines()[0]
    'Wordle 1,986 1/6'
    """
    score = len(patterns) if solved else "X"
    rows = [format_pattern(pattern, "emoji").translate(SHARE_PALETTES[palette]) for pattern in patterns]
    name = "wordle-arena" if puzzle is None else f"Wordle {puzzle:,}"
    return "\n".join([f"{name} {score}/{max_guesses}{'*' if hard else ''}", "", *rows])


@dataclass(frozen=True)
class ScoreLine:
    """What a share grid's score line says: the puzzle's number (if any), the guesses (None: X or absent), hard mode."""

    puzzle: int | None
    guesses: int | None
    hard: bool


def read_score_line(line: str) -> ScoreLine:
    """A share grid's score line, such as "Wordle 1,590 4/6*" (hard mode) or "Wordle 956 X/6".

    >>> read_score_line("Wordle 1,590 4/6*")
    ScoreLine(puzzle=1590, guesses=4, hard=True)
    >>> read_score_line("wordle-arena X/6")
    ScoreLine(puzzle=None, guesses=None, hard=False)
    """
    match = re.search(r"(?:(\d[\d,.\s]*?)\s+)?([\dX])/(\d+)(\*?)\s*$", line.strip())
    if match is None:
        return ScoreLine(puzzle=None, guesses=None, hard=line.strip().endswith("*"))
    number = re.sub(r"\D", "", match.group(1) or "")
    return ScoreLine(puzzle=int(number) if number else None,
                     guesses=int(match.group(2)) if match.group(2).isdigit() else None, hard=match.group(4) == "*")
