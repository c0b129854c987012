"""Wordle, as a game of the engine in `search`: word lists, the rules, the pattern matrix, the state, the exact solver.

The public API other code and scripts rely on:

>>> from wordle import feedback, format_pattern
>>> format_pattern(feedback('speed', 'abide'))
'--y-y'
"""

from .feedback import ALL_GREEN, GREEN, GREY, PATTERN_COUNT, YELLOW, decode_colours, encode_colours, feedback
from .game import GUESSER, INDICATOR, IllegalMove, Playthrough, State, Turn, Wordle
from .hardmode import Hints, hints_from, legal_mask, violation
from .matrix import load_matrix, pattern_matrix
from .patterns import PatternError, format_pattern, parse_pattern
from .words import REMOVED_IN_2309, WordListError, Words, load_words

__all__ = [
    "ALL_GREEN", "GREEN", "GREY", "YELLOW", "PATTERN_COUNT", "GUESSER", "INDICATOR",
    "Hints", "IllegalMove", "PatternError", "Playthrough", "REMOVED_IN_2309", "State", "Turn",
    "WordListError", "Wordle", "Words", "decode_colours", "encode_colours", "feedback",
    "format_pattern", "hints_from", "legal_mask", "load_matrix", "load_words", "parse_pattern",
    "pattern_matrix", "violation",
]
