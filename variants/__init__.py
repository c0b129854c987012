"""Every game as one description (`GameSpec`): several boards at once, other word lengths, a lying Indicator, and
today's Wordle as one point of it.

Each shape other than Wordle's is a game of `search.game.Game` built on Wordle's rules (`wordle`):
`Boards` plays K boards that share every guess (K = 1 is one board, of any length 4 to 9), `Fibble`
one board whose Indicator tells exactly one lie a row. `GameSpec` describes a game (boards, length,
lies, guess limit, word lists, mode); `spec_words` loads its lists, `game_of` builds its game and
`play_out` plays one to its end. Values are from the Guesser's point of view, higher is better.
"""

from .boards import Boards, BoardsState
from .fibble import Fibble, FibbleState, draw_lie, lies_of
from .games import AnyGame, AnyState, Reply, game_of, initial_state, is_won, play_out, replies_of
from .spec import GameSpec, GameSpecError
from .words import LENGTHS, spec_words, variant_words

__all__ = ["AnyGame", "AnyState", "Boards", "BoardsState", "Fibble", "FibbleState", "GameSpec", "GameSpecError",
           "LENGTHS", "Reply", "draw_lie", "game_of", "initial_state", "is_won", "lies_of", "play_out", "replies_of",
           "spec_words", "variant_words"]
