"""The engine on a game that is not Wordle: a take-away game (Nim with one pile), values worked by hand.

It imports nothing but `search`: minimax, alpha-beta and expectimax play any game of the protocol.
Values are from the maximiser's point of view, higher is better.

The game: a pile of stones; the players take one or two stones in turn, the maximiser first; whoever
takes the last stone wins (utility 1 to the maximiser, 0 otherwise). The engine's turns alternate and a
game ends with the maximiser to move (as Wordle's ends after the Indicator's all-green reply), so when
the maximiser takes the last stone the opponent's one reply is to pass. Against a minimiser, the player
to move loses exactly when the pile is a multiple of three. Against chance (one or two stones, each
equally likely when both are possible), with E(n) the maximiser's value at its turn and C(n) at
chance's turn:

    E(1) = 1, E(2) = 1 (take two)              C(1) = 0, C(2) = (E(1) + 0) / 2 = 0.5
    E(3) = max(C(2), C(1)) = 0.5 (take one)    C(3) = (E(2) + E(1)) / 2 = 1
    E(4) = max(C(3), C(2)) = 1 (take one)      C(4) = (E(3) + E(2)) / 2 = 0.75
    E(5) = max(C(4), C(3)) = 1 (take two)      C(5) = (E(4) + E(3)) / 2 = 0.75
    E(6) = max(C(5), C(4)) = 0.75 (tie: take one, the first in the evaluation's order)
"""

from __future__ import annotations

import numpy as np
import pytest

from search.algorithms import alphabeta, expectimax, minimax
from search.game import Game
from search.limits import Limit

MAX, MIN = "max", "min"


class TakeAway:
    """One pile, take one or two, the last stone wins; a state is (stones left, player to move, who took the last)."""

    maximiser = MAX

    def to_move(self, state: tuple[int, str, str | None]) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: tuple[int, str, str | None]) -> list[int]:
        """How many stones may be taken: one or two, never more than are left; on an empty pile, pass (0)."""
        return [take for take in (1, 2) if take <= state[0]] or [0]

    def result(self, state: tuple[int, str, str | None], move: int) -> tuple[int, str, str | None]:
        """The pile after `move` stones are taken, the other player to move."""
        stones, player, last = state
        return stones - move, MIN if player == MAX else MAX, (player if move and move == stones else last)

    def is_terminal(self, state: tuple[int, str, str | None]) -> bool:
        """No stones left, the maximiser to move."""
        return state[0] == 0 and state[1] == MAX

    def utility(self, state: tuple[int, str, str | None]) -> float:
        """1 when the maximiser took the last stone, else 0."""
        return 1.0 if state[2] == MAX else 0.0

    def chance_outcomes(self, state: tuple[int, str, str | None]) -> list[tuple[int, float]]:
        """Chance takes each possible number of stones with equal probability (or passes on an empty pile)."""
        moves = self.actions(state)
        return [(move, 1 / len(moves)) for move in moves]


class Horizon:
    """The evaluation at the horizon: a move that takes the last stone is worth 1, any other an unknown 0.5."""

    key = ("horizon",)
    random_ties = False

    def values(self, game: TakeAway, state: tuple[int, str, str | None], moves: np.ndarray) -> np.ndarray:
        """1 for a winning last take, else 0.5."""
        return np.where(np.asarray(moves) == state[0], 1.0, 0.5)


#: Pile size: (minimax value, a move that achieves it), worked in the module docstring.
MINIMAX = {1: (1.0, 1), 2: (1.0, 2), 3: (0.0, 1), 4: (1.0, 1), 5: (1.0, 2), 6: (0.0, 1), 7: (1.0, 1)}
#: Pile size: (expectimax value, its move).
EXPECTIMAX = {1: (1.0, 1), 2: (1.0, 2), 3: (0.5, 1), 4: (1.0, 1), 5: (1.0, 2), 6: (0.75, 1)}


def test_the_toy_is_a_game_of_the_protocol():
    assert isinstance(TakeAway(), Game)


@pytest.mark.parametrize("stones", sorted(MINIMAX))
def test_minimax_and_alphabeta_agree_with_the_hand_worked_values(stones):
    value, move = MINIMAX[stones]
    depth = (stones + 1) // 2  # the maximiser moves at most this many times: every line reaches the end
    plain = minimax(TakeAway(), (stones, MAX, None), Horizon(), Limit(depth=depth))
    pruned = alphabeta(TakeAway(), (stones, MAX, None), Horizon(), Limit(depth=depth))
    assert (plain.value, pruned.value) == (value, value)
    if value == 1.0:  # a won pile has one winning move; a lost pile's moves all lose
        assert plain.move == pruned.move == move
    assert pruned.nodes <= plain.nodes


@pytest.mark.parametrize("stones", sorted(EXPECTIMAX))
def test_expectimax_agrees_with_the_hand_worked_values(stones):
    value, move = EXPECTIMAX[stones]
    result = expectimax(TakeAway(), (stones, MAX, None), Horizon(), Limit(depth=(stones + 1) // 2))
    assert result.value == pytest.approx(value) and result.move == move


def test_expectimax_gambles_where_minimax_sees_a_loss():
    # Six stones: a minimiser always wins (0), chance lets the maximiser win three times in four.
    assert minimax(TakeAway(), (6, MAX, None), Horizon(), Limit(depth=3)).value == 0.0
    assert expectimax(TakeAway(), (6, MAX, None), Horizon(), Limit(depth=3)).value == pytest.approx(0.75)


def test_a_shallow_search_stops_at_the_horizon():
    # Four stones, one maximiser move deep: no move ends the game, so both are worth the horizon's 0.5.
    result = minimax(TakeAway(), (4, MAX, None), Horizon(), Limit(depth=1))
    assert (result.value, result.move, result.nodes) == (0.5, 1, 1)
