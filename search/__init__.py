"""wordle-arena's game-search engine, apart from any game: the algorithms and what they need.

- `game`: the `Game` protocol, the verbs every algorithm calls;
- `algorithms`: minimax, alpha-beta and expectimax, one maximiser with three reply rules;
- `limits`: what a search may spend (one frozen `Limit`) and the one overrun signal;
- `table`: the transposition table;
- `ranking`: the one tie-break rule.

Nothing here imports a game (Wordle lives in `wordle`) or a higher layer; tests/test_layers.py checks it.
"""

from .algorithms import alphabeta, expectimax, minimax
from .game import Game
from .limits import BudgetSpent, Limit, SearchResult

__all__ = ["BudgetSpent", "Game", "Limit", "SearchResult", "alphabeta", "expectimax", "minimax"]
