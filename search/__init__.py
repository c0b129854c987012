"""wordle-arena's game engine: word lists, the rules, the pattern matrix and the game state.

The public API other code and scripts rely on:

>>> from search import feedback, format_pattern
>>> format_pattern(feedback('speed', 'abide'))
'--y-y'
"""

from .errors import UserError, clip
from .storage import keep_numba_cache

keep_numba_cache()  # before anything imports numba
from .feedback import ALL_GREEN, GREEN, GREY, PATTERN_COUNT, YELLOW, decode_colours, encode_colours, feedback
from .game import GUESSER, INDICATOR, IllegalMove, Playthrough, State, Turn, Wordle
from .hardmode import Hints, hints_from, legal_mask, violation
from .matrix import load_matrix, pattern_matrix
from .patterns import PatternError, format_pattern, parse_pattern
from .words import REMOVED_IN_2309, WordListError, Words, load_words

__all__ = [
    "ALL_GREEN", "GREEN", "GREY", "YELLOW", "PATTERN_COUNT", "GUESSER", "INDICATOR",
    "Hints", "IllegalMove", "PatternError", "Playthrough", "REMOVED_IN_2309", "State", "Turn",
    "UserError", "WordListError", "Wordle", "Words", "clip", "decode_colours", "encode_colours", "feedback",
    "format_pattern", "hints_from", "legal_mask", "load_matrix", "load_words", "parse_pattern",
    "pattern_matrix", "violation",
]
