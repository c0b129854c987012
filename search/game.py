"""The game protocol, `Game[State, Move]`: the verbs every algorithm in this package calls, and nothing more.

A game is an object; its states are values of one type (`State`), its moves of another (`Move`).
The verbs are aima-python's and OpenSpiel's: whose turn it is, the moves there, the state a
move leads to, whether the game is over and what it was worth to the maximiser (higher is
better), and, for expectimax, the opponent's moves as chance outcomes with their probabilities.
Turns alternate: the maximiser moves, then the opponent (or chance) replies.

Two things the engine asks beyond the verbs' types:

- a state is hashable (the transposition table keys a state, or the key a game's policies make of it);
- the maximiser's moves are whole numbers (an index into a list of moves, a count of stones to take),
  because the engine ranks them in numpy arrays and breaks ties by the lower one. The opponent's
  moves may be any `Move` (a game of several boards may reply with a tuple, one part a board).

The hooks a search takes (search/algorithms.py) are typed by the same `State`; a hook that knows
nothing of the game takes any state (`object`) and so serves every game.

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

from typing import Hashable, Iterable, Protocol, TypeVar, runtime_checkable

#: A game's state: any hashable value the game hands back from `result`.
State = TypeVar("State", bound=Hashable)
#: A game's move, either player's (the maximiser's are whole numbers, see the module docstring).
Move = TypeVar("Move")
#: A state as a hook receives it and hands it to nothing (a hook for any state serves every game).
StateIn = TypeVar("StateIn", bound=Hashable, contravariant=True)


@runtime_checkable
class Game(Protocol[State, Move]):
    """A two-player game with chance, as the search algorithms see it."""

    @property
    def maximiser(self) -> Hashable:
        """The player whose value the search maximises (`to_move` returns it on that player's turns)."""
        ...

    def to_move(self, state: State) -> Hashable:
        """The player to move in `state`."""
        ...

    def actions(self, state: State) -> Iterable[Move]:
        """The moves the player to move may make."""
        ...

    def result(self, state: State, move: Move) -> State:
        """The state `move` leads to."""
        ...

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""
        ...

    def utility(self, state: State) -> float:
        """A finished game's value to the maximiser, higher is better."""
        ...

    def chance_outcomes(self, state: State) -> Iterable[tuple[Move, float]]:
        """The opponent's moves as chance outcomes, each with its probability (for expectimax)."""
        ...
