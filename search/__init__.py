"""wordle-arena's game-search engine, apart from any game: the algorithms and what they need.

- `game`: the `Game[State, Move]` protocol, the verbs every algorithm calls;
- `algorithms`: minimax, alpha-beta and expectimax, one maximiser with three reply rules, and the
  hooks (policies) through which a game tells a search what it knows beyond its verbs;
- `limits`: what a search may spend (one frozen `Limit`), what it returns, what it asks of an
  evaluation, and the one overrun signal;
- `table`: the transposition table;
- `ranking`: the one tie-break rule.

Nothing here imports a game (each lives in its own package) or a higher layer, and the
engine's tests run on games of their own (tests/toy_games.py); tests/test_layers.py checks both.
"""

from .algorithms import alphabeta, expectimax, minimax
from .game import Game
from .limits import BudgetSpent, Limit, SearchResult

__all__ = ["BudgetSpent", "Game", "Limit", "SearchResult", "alphabeta", "expectimax", "minimax"]
