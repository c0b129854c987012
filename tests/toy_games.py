"""The games the engine's tests share, none of them Wordle: abstract game trees written out by hand, and a chooser
that widens its beam on a loss, for any game. This module imports nothing but the engine (`search`).

Values are from the maximiser's point of view, higher is better.
"""

from __future__ import annotations

import numpy as np

from search.algorithms import AllMoves
from search.game import Game, Move, State
from search.limits import Evaluator

MAX, MIN, CHANCE = "max", "min", "chance"


#: A TreeGame's state: the path of moves from the root.
TreePath = tuple[int, ...]


class TreeGame:
    """A game written out as a tree, a `search.game.Game[TreePath, int]`.

    A maximiser's node is a dict move -> opponent's node; an opponent's node is a dict
    reply -> (probability, maximiser's node); a leaf (a number) is a terminal maximiser's
    node worth that much. A state is the path of moves from the root. The opponent is MIN,
    or CHANCE when `chance` is set; either way `chance_outcomes` gives the probabilities.
    """

    maximiser = MAX

    def __init__(self, tree: dict, chance: bool = False):
        self.tree, self.opponent = tree, CHANCE if chance else MIN

    def node(self, state: TreePath) -> dict | float:
        """The subtree at the end of a path."""
        node = self.tree
        for depth, move in enumerate(state):
            node = node[move] if depth % 2 == 0 else node[move][1]
        return node

    def to_move(self, state: TreePath) -> str:
        """MAX after an even number of moves, else the opponent."""
        return MAX if len(state) % 2 == 0 else self.opponent

    def is_terminal(self, state: TreePath) -> bool:
        """A leaf."""
        return not isinstance(self.node(state), dict)

    def utility(self, state: TreePath) -> float:
        """The leaf's number."""
        return float(self.node(state))

    def actions(self, state: TreePath) -> np.ndarray:
        """The node's moves, in the order the tree lists them."""
        return np.array(list(self.node(state)), dtype=np.int64)

    def result(self, state: TreePath, move: int) -> TreePath:
        """The path one move longer."""
        return state + (int(move),)

    def chance_outcomes(self, state: TreePath) -> list[tuple[int, float]]:
        """The replies with their probabilities."""
        return [(reply, probability) for reply, (probability, _) in self.node(state).items()]


class Estimates:
    """An evaluation over a TreeGame: each move's estimate, by the path it ends (default 0)."""

    random_ties = False
    key = ("estimates",)

    def __init__(self, estimates: dict[TreePath, float] | None = None):
        self.estimates = estimates or {}

    def values(self, game: TreeGame, state: TreePath, moves: np.ndarray) -> np.ndarray:
        """The estimate of each move."""
        return np.array([self.estimates.get(state + (int(move),), 0.0) for move in moves])


class WidensOnLoss(AllMoves[State, Move]):
    """A test chooser for any game: AllMoves's order and beam, widened up to `widen` moves while every move searched
    shows a loss: against chance, any chance of a loss; against the worst reply, a value at or below `lost`."""

    def __init__(self, game: Game[State, Move], evaluation: Evaluator[State], beam: int, widen: int,
                 chance: bool, lost: float = 0.0):
        super().__init__(game, evaluation, beam)
        self.widen, self.chance, self.lost = widen, chance, lost

    def shows_loss(self, value: float, risk: float) -> bool:
        """Some chance of a loss (chance), or a value at or below `lost` (the worst reply)."""
        return risk != 0.0 if self.chance else value <= self.lost

    def floor(self, alpha: float) -> float:
        """No higher than `lost`, so that alpha-beta's bound on a pruned move still says whether it shows a loss."""
        return min(alpha, self.lost)


def replies(*leaves: tuple[float, float | dict]) -> dict:
    """An opponent's node whose replies 0, 1, ... (probability, leaf or maximiser's node) are as listed."""
    return {reply: leaf for reply, leaf in enumerate(leaves)}
