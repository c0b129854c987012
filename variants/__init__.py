"""Wordle's variants as games of the engine's protocol: several boards at once, other word lengths, a lying Indicator.

Each variant is a game of `search.game.Game` built on Wordle's rules (`wordle`): `Boards` plays K
boards that share every guess (K = 1 is one board, of any length 4 to 9), `Fibble` one board whose
Indicator tells exactly one lie a row. `Variant` names a variant and its guess limit; `variant_words`
the word lists of each length. Values are from the Guesser's point of view, higher is better.
"""

from .boards import Boards, BoardsState
from .fibble import Fibble, FibbleState, draw_lie, lies_of
from .spec import Variant, VariantError
from .words import LENGTHS, variant_words

__all__ = ["Boards", "BoardsState", "Fibble", "FibbleState", "LENGTHS", "Variant", "VariantError", "draw_lie",
           "lies_of", "variant_words"]
