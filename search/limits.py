"""What a search may spend (one frozen Limit) and what it returns (a SearchResult).

Values are from the Guesser's point of view, higher is better, on the scale of
`Wordle.utility`: solving with guess k is worth max_guesses + 1 - k, a lost game 0.

>>> Limit(depth=2, beam=8).depth
2
>>> Limit(beam=0)
Traceback (most recent call last):
...
ValueError: beam must be at least 1, got 0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .game import State, Wordle


@dataclass(frozen=True)
class Limit:
    """The budget of one search.

    Attributes:
        depth: Guesser moves looked ahead; depth 1 values each guess by the evaluation alone.
        beam: how many of the best-valued guesses are expanded at each Guesser node.
        threshold: the indication threshold handed to the evaluation (local mode only).
        nodes: node budget: once this many nodes are visited, unexpanded Guesser nodes
            are valued by the evaluation as at the horizon (None: no budget).
        stop: with a node budget, a search that needs more than `nodes` nodes stops (it
            raises BudgetSpent) instead of valuing the rest at the horizon; one that needs
            no more returns what the search without a budget returns.
        pool: below the root, the guesses valued at a node are its possible answers plus
            the `pool` guesses the evaluation values best on the full answer list (in hard
            mode, every legal guess when there are at most `pool` of them).
        endgame: a Guesser node with at most this many guesses left is searched to the
            end of the game, whatever the depth (0: never).
        endgame_answers: so is a hard-mode node (or any node of a search whose Guesser
            guesses only possible answers) with at most this many possible answers and at
            most endgame + 1 guesses left (0: never). Hard mode's traps (_OUND,
            _ASTE, _ATCH) are sets whose legal guesses test one letter at a time; searched
            to the end they show their losses a guess before they are entered.
        loss: how far below 0 (the utility of a lost game) the search values a loss, so
            that it prefers a longer win to a gamble on the last guess.
        opening: the depth of a search from a game's first move (no guess made yet), when
            deeper than `depth` (0: `depth`). Every game shares its opening, so a player can
            afford to look further there, far enough to see the traps an opener leads into.
        opening_top: when above 0 and `opening` is deeper than `depth`, the first move is
            searched `depth` deep over the whole beam, and only its `opening_top` best
            guesses are searched again `opening` deep to choose among them (0: the whole
            beam is searched `opening` deep).
        widen: when every guess of a node's beam shows a loss (expectimax: some chance of
            one; minimax: a value at or below -loss), the node searches further guesses, a
            beam at a time in the evaluation's order, until one shows none or it has
            searched this many (at most `beam`: never widen).
    """

    depth: int = 2
    beam: int = 10
    threshold: int = 100
    nodes: int | None = None
    stop: bool = False
    pool: int = 300
    endgame: int = 3
    endgame_answers: int = 30
    loss: float = 10.0
    opening: int = 0
    opening_top: int = 0
    widen: int = 500

    def __post_init__(self) -> None:
        """Refuse a limit no search can run under."""
        for name in ("endgame", "endgame_answers", "loss", "opening", "opening_top", "widen"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)}")
        for name in ("depth", "beam", "threshold", "pool"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"the node budget must be at least 1, got {self.nodes}")


class BudgetSpent(Exception):
    """A search under a stopping node budget (`Limit.stop`) spent it before it finished."""

    def __init__(self, nodes: int):
        """Say how many nodes the search had visited when it stopped."""
        super().__init__(f"the node budget ran out after {nodes} nodes")
        self.nodes = nodes


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    Attributes:
        move: the guess index to play.
        value: its value on the utility scale.
        nodes: nodes visited (Guesser and Indicator nodes; a cache hit counts as one).
        depth: the deepest Guesser level reached, the root being 1 (a node answered from
            the cache counts the levels its own search reached).
        alternatives: (guess, value) of the guesses weighed at the root, best first,
            `move` included. Alpha-beta's values other than the move's are upper bounds.
        budget_reached: whether the node budget (`Limit.nodes`) ran out, so that some
            nodes were valued at the horizon before the depth asked for.
    """

    move: int
    value: float
    nodes: int
    depth: int
    alternatives: tuple[tuple[int, float], ...] = ()
    budget_reached: bool = False


class Evaluator(Protocol):
    """What the search needs of an evaluation (heuristics.evaluation implements it)."""

    key: tuple
    random_ties: bool

    def values(self, game: Wordle, state: State, guesses: np.ndarray, threshold: int) -> np.ndarray:
        """Values of `guesses` at a Guesser state with 3 or more answers and 2 or more guesses left."""
        ...
