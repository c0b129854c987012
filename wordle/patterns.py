"""Patterns as people write them: letters (`gy-..`), digits (`20100`) and emoji squares.

Reading accepts any of the three forms:
- letters: g = green, y = yellow, and `-`, `.`, `b`, `x` or `_` = grey, any case;
- digits: 2 = green, 1 = yellow, 0 = grey;
- emoji: green square, yellow square, black or white square (grey).

>>> parse_pattern('g-y--') == int('20100', 3)
True
>>> format_pattern(int('20100', 3), 'digits')
'20100'
"""

from __future__ import annotations

from plumbing.errors import UserError
from .feedback import GREEN, GREY, YELLOW, decode_colours, encode_colours
from .words import WORD_LENGTH

STYLES = ("letters", "digits", "emoji")
_READ = {
    "g": GREEN, "y": YELLOW, "-": GREY, ".": GREY, "b": GREY, "x": GREY, "_": GREY,
    "2": GREEN, "1": YELLOW, "0": GREY,
    "\U0001F7E9": GREEN, "\U0001F7E8": YELLOW, "\u2B1B": GREY, "\u2B1C": GREY,
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


def share_grid(patterns: list[int], solved: bool, max_guesses: int, hard: bool, palette: str = "default") -> str:
    """The game as the emoji grid people share: a score line, a blank line, then one row of squares a guess.

    >>> from wordle.feedback import ALL_GREEN, feedback
    >>> print(share_grid([feedback("crane", "crate"), ALL_GREEN], True, 6, hard=True))
    wordle-arena 2/6*
    <BLANKLINE>
    🟩🟩🟩⬛🟩
    🟩🟩🟩🟩🟩
    """
    score = len(patterns) if solved else "X"
    rows = [format_pattern(pattern, "emoji").translate(SHARE_PALETTES[palette]) for pattern in patterns]
    return "\n".join([f"wordle-arena {score}/{max_guesses}{'*' if hard else ''}", "", *rows])
