"""The game protocol: the verbs every algorithm in this package calls, and nothing more.

A game is an object, a state is whatever value it hands back (hashable where a table keys it).
The verbs are aima-python's and OpenSpiel's: whose turn it is, the moves there, the state a
move leads to, whether the game is over and what it was worth to the maximiser (higher is
better), and, for expectimax, the opponent's moves as chance outcomes with their probabilities.
Turns alternate: the maximiser moves, then the opponent (or chance) replies.

>>> class Pick:
...     maximiser = "max"
...     def to_move(self, state): return "max" if len(state) % 2 == 0 else "min"
...     def actions(self, state): return [0, 1]
...     def result(self, state, move): return state + (move,)
...     def is_terminal(self, state): return len(state) == 2
...     def utility(self, state): return float(state[0] == state[1])
...     def chance_outcomes(self, state): return [(0, 0.5), (1, 0.5)]
>>> isinstance(Pick(), Game)
True
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, Protocol, TypeVar, runtime_checkable

#: A game's state: any value the game hands back from `result`.
S = TypeVar("S")


@runtime_checkable
class Game(Protocol[S]):
    """A two-player game with chance, as the search algorithms see it.

    Attributes:
        maximiser: the player whose value the search maximises (`to_move` returns it on that player's turns).
    """

    maximiser: Hashable

    def to_move(self, state: S) -> Hashable:
        """The player to move in `state`."""
        ...

    def actions(self, state: S) -> Iterable[Any]:
        """The moves the player to move may make."""
        ...

    def result(self, state: S, move: Any) -> S:
        """The state `move` leads to."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        ...

    def utility(self, state: S) -> float:
        """A finished game's value to the maximiser, higher is better."""
        ...

    def chance_outcomes(self, state: S) -> Iterable[tuple[Any, float]]:
        """The opponent's moves as chance outcomes, each with its probability (for expectimax)."""
        ...
