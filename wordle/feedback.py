"""The Indicator's reply to a guess, as the game computes it: the readable scalar reference.

A pattern code is an integer 0-242: the five colours read left to right as a base-3
number, grey 0, yellow 1, green 2, so the first letter is the most significant digit.

>>> int('20100', 3) == encode_colours([GREEN, GREY, YELLOW, GREY, GREY])
True
>>> decode_colours(feedback('speed', 'abide'))
(0, 0, 1, 0, 1)
>>> decode_colours(feedback('hello', 'alley'))
(0, 1, 2, 1, 0)
"""

from __future__ import annotations

from collections import Counter

from .words import WORD_LENGTH

GREY, YELLOW, GREEN = 0, 1, 2
PATTERN_COUNT = 3**WORD_LENGTH
#: The reply that ends the game: every letter green.
ALL_GREEN = PATTERN_COUNT - 1
#: Place value of each position in a pattern code, first letter first.
PLACE_VALUES = tuple(3 ** (WORD_LENGTH - 1 - i) for i in range(WORD_LENGTH))


def encode_colours(colours: list[int] | tuple[int, ...]) -> int:
    """The pattern code of five colours (0 grey, 1 yellow, 2 green), first letter first."""
    return sum(colour * place for colour, place in zip(colours, PLACE_VALUES, strict=True))


def decode_colours(code: int) -> tuple[int, ...]:
    """The five colours of a pattern code, first letter first."""
    if not 0 <= code < PATTERN_COUNT:
        raise ValueError(f"pattern code {code} is outside 0-{PATTERN_COUNT - 1}")
    return tuple((code // place) % 3 for place in PLACE_VALUES)


def feedback(guess: str, answer: str) -> int:
    """The pattern the game shows for `guess` when the hidden word is `answer`.

    Greens first; then, left to right, a letter is yellow while copies of it in the
    answer remain unused by greens and earlier yellows, otherwise grey.
    """
    if len(guess) != WORD_LENGTH or len(answer) != WORD_LENGTH:
        raise ValueError(f"feedback needs two {WORD_LENGTH}-letter words, got '{guess}' and '{answer}'")
    colours = [GREY] * WORD_LENGTH
    unused: Counter[str] = Counter()
    for position, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            colours[position] = GREEN
        else:
            unused[a] += 1
    for position, g in enumerate(guess):
        if colours[position] != GREEN and unused[g] > 0:
            colours[position] = YELLOW
            unused[g] -= 1
    return encode_colours(colours)


def is_consistent(answer: str, history: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> bool:
    """Whether `answer` would have produced every (guess, pattern) seen so far."""
    return all(feedback(guess, answer) == pattern for guess, pattern in history)
