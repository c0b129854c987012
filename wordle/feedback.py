"""The Indicator's reply to a guess, as the game computes it: the readable scalar reference.

A pattern code is an integer 0-242: the five colours read left to right as a base-3
number, grey 0, yellow 1, green 2, so the first letter is the most significant digit.
Words of another length (the variants' 4 to 9 letters) read the same way: n colours,
codes 0 to 3**n - 1 (`pattern_count`), all green the highest (`all_green`).

>>> int('20100', 3) == encode_colours([GREEN, GREY, YELLOW, GREY, GREY])
True
>>> decode_colours(feedback('speed', 'abide'))
(0, 0, 1, 0, 1)
>>> decode_colours(feedback('hello', 'alley'))
(0, 1, 2, 1, 0)
>>> decode_colours(feedback('letter', 'settle'), 6), all_green(6)
((1, 2, 2, 2, 1, 0), 728)
"""

from __future__ import annotations

from collections import Counter

from .words import WORD_LENGTH

GREY, YELLOW, GREEN = 0, 1, 2
PATTERN_COUNT = 3**WORD_LENGTH
#: The reply that ends the game: every letter green.
ALL_GREEN = PATTERN_COUNT - 1
#: The word lengths the game knows how to score (the variants play 4 to 9).
LENGTHS = range(1, 10)


def place_values(length: int = WORD_LENGTH) -> tuple[int, ...]:
    """Place value of each position in a pattern code of `length` letters, first letter first."""
    return tuple(3 ** (length - 1 - i) for i in range(length))


def pattern_count(length: int = WORD_LENGTH) -> int:
    """How many pattern codes words of `length` letters have: 3**length."""
    return 3**length


def all_green(length: int = WORD_LENGTH) -> int:
    """The code of the reply that ends the game for words of `length` letters."""
    return 3**length - 1


#: Place value of each position in a pattern code, first letter first.
PLACE_VALUES = place_values(WORD_LENGTH)


def encode_colours(colours: list[int] | tuple[int, ...]) -> int:
    """The pattern code of a word's colours (0 grey, 1 yellow, 2 green), first letter first; five unless more are given."""
    places = PLACE_VALUES if len(colours) == WORD_LENGTH else place_values(len(colours))
    return sum(colour * place for colour, place in zip(colours, places, strict=True))


def decode_colours(code: int, length: int = WORD_LENGTH) -> tuple[int, ...]:
    """The colours of a pattern code of `length` letters (default five), first letter first."""
    count = 3**length
    if not 0 <= code < count:
        raise ValueError(f"pattern code {code} is outside 0-{count - 1}")
    places = PLACE_VALUES if length == WORD_LENGTH else place_values(length)
    return tuple((code // place) % 3 for place in places)


def feedback(guess: str, answer: str) -> int:
    """The pattern the game shows for `guess` when the hidden word is `answer`.

    Greens first; then, left to right, a letter is yellow while copies of it in the
    answer remain unused by greens and earlier yellows, otherwise grey.
    """
    length = len(answer)
    if len(guess) != length or length not in LENGTHS:
        raise ValueError(f"feedback needs two words of one length (1 to 9 letters), got '{guess}' and '{answer}'")
    colours = [GREY] * length
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
