"""The engine on a game that is not Wordle: a take-away game (Nim with one pile), values worked by hand.

It imports nothing but `search` (and tests/toy_games.py, which imports nothing but `search` either): minimax,
alpha-beta and expectimax play any game of the protocol, and the engine's policies serve it as they serve Wordle.
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

The engine's ideas for games that can be lost, on the same game (`PileEnds`, `WidensOnLoss`): a pile of one or
two is won at once (`settled`); a pile of three is worth, in closed form, 0 against a minimiser and E(3) = 0.5
against chance, with a chance of a loss of 1/2 (take one: chance takes the other two half the time), both
only where the search would look ahead (`closed_form`); a loss is a value of 0 or less (minimax) or any chance
of a loss (expectimax), and a beam of one widens to two while its move shows one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from search.algorithms import Node, Policies, alphabeta, expectimax, minimax
from search.game import Game
from search.limits import Limit
from search.table import TranspositionTable

from .toy_games import WidensOnLoss

MAX, MIN = "max", "min"

#: A take-away state: stones left, the player to move, who took the last stone (None: nobody yet).
Pile = tuple[int, str, str | None]


class TakeAway:
    """One pile, take one or two, the last stone wins: a `search.game.Game[Pile, int]`."""

    maximiser = MAX

    def to_move(self, state: Pile) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: Pile) -> list[int]:
        """How many stones may be taken: one or two, never more than are left; on an empty pile, pass (0)."""
        return [take for take in (1, 2) if take <= state[0]] or [0]

    def result(self, state: Pile, move: int) -> Pile:
        """The pile after `move` stones are taken, the other player to move."""
        stones, player, last = state
        return stones - move, MIN if player == MAX else MAX, (player if move and move == stones else last)

    def is_terminal(self, state: Pile) -> bool:
        """No stones left, the maximiser to move."""
        return state[0] == 0 and state[1] == MAX

    def utility(self, state: Pile) -> float:
        """1 when the maximiser took the last stone, else 0."""
        return 1.0 if state[2] == MAX else 0.0

    def chance_outcomes(self, state: Pile) -> list[tuple[int, float]]:
        """Chance takes each possible number of stones with equal probability (or passes on an empty pile)."""
        moves = self.actions(state)
        return [(move, 1 / len(moves)) for move in moves]


class Horizon:
    """The evaluation at the horizon: a move that takes the last stone is worth 1, any other an unknown 0.5."""

    key = ("horizon",)
    random_ties = False

    def values(self, game: TakeAway, state: Pile, moves: np.ndarray) -> np.ndarray:
        """1 for a winning last take, else 0.5."""
        return np.where(np.asarray(moves) == state[0], 1.0, 0.5)


class PileEnds:
    """The take-away game's exact values (its `Shortcuts`): small piles, each with its chance of a loss."""

    def __init__(self, chance: bool):
        self.chance = chance

    def settled(self, state: Pile, among: np.ndarray | None, rng: np.random.Generator | None) -> Node | None:
        """A pile of one or two: take it all and win, for sure."""
        if among is not None or not 1 <= state[0] <= 2:
            return None
        return Node(1.0, state[0], ((state[0], 1.0),), risk=0.0)

    def closed_form(self, state: Pile, root: bool, among: np.ndarray | None,
                    rng: np.random.Generator | None) -> Node | None:
        """A pile of three: lost against a minimiser; against chance, take one for 0.5 and a loss one time in two."""
        if among is not None or state[0] != 3:
            return None
        if self.chance:
            return Node(0.5, 1, ((1, 0.5), (2, 0.0)), risk=0.5)
        return Node(0.0, 1, ((1, 0.0), (2, 0.0)), risk=1.0)


def knowing_losses(chance: bool, widen: int = 2) -> Policies[Pile]:
    """The toy's policies: its exact values, and a beam of one (take one first) widened to `widen` on a loss."""
    return Policies(moves=WidensOnLoss(TakeAway(), Horizon(), beam=1, widen=widen, chance=chance),
                    exact=PileEnds(chance))


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


@pytest.mark.parametrize("stones", range(1, 9))
def test_exact_values_change_no_value_only_the_work(stones):
    # A beam of two never widens: the toy's exact values stand in for searches that find the same.
    depth = (stones + 1) // 2
    for search, chance in ((minimax, False), (alphabeta, False), (expectimax, True)):
        plain = search(TakeAway(), (stones, MAX, None), Horizon(), Limit(depth=depth))
        exact = search(TakeAway(), (stones, MAX, None), Horizon(), Limit(depth=depth),
                       Policies(exact=PileEnds(chance)))
        assert exact.value == pytest.approx(plain.value) and exact.nodes <= plain.nodes


def test_a_closed_form_answers_only_where_the_search_looks_ahead():
    # Three stones, depth 1: the horizon's 0.5 for each move; depth 2: the closed form's 0 against a minimiser,
    # found without expanding (one node), and counted as reaching the level below.
    shallow = minimax(TakeAway(), (3, MAX, None), Horizon(), Limit(depth=1), Policies(exact=PileEnds(False)))
    deep = minimax(TakeAway(), (3, MAX, None), Horizon(), Limit(depth=2), Policies(exact=PileEnds(False)))
    assert (shallow.value, shallow.depth) == (0.5, 1)
    assert (deep.value, deep.nodes, deep.depth, deep.alternatives) == (0.0, 1, 2, ((1, 0.0), (2, 0.0)))


def test_a_beam_widens_on_a_sure_loss_against_the_worst_reply():
    # Five stones, depth 3, a beam of one: take one (the evaluation's first) leaves four; the minimiser takes one
    # and leaves the lost three (0). That shows a loss, so the beam widens to take two: three left for the
    # minimiser, whose replies leave one or two, both won (1).
    for search in (minimax, alphabeta):
        narrow = search(TakeAway(), (5, MAX, None), Horizon(), Limit(depth=3), knowing_losses(False, widen=0))
        wide = search(TakeAway(), (5, MAX, None), Horizon(), Limit(depth=3), knowing_losses(False))
        assert (narrow.move, narrow.value) == (1, 0.0)
        assert (wide.move, wide.value, wide.alternatives) == (2, 1.0, ((2, 1.0), (1, 0.0)))


def test_a_beam_widens_on_any_chance_of_a_loss_against_chance():
    # Five stones against chance: take one is worth (E(3) + E(2)) / 2 = 0.75, a value no loss line could tell
    # from a win's, but its chance of a loss is (0.5 + 0) / 2 = 0.25: the beam widens to take two (1, no loss).
    narrow = expectimax(TakeAway(), (5, MAX, None), Horizon(), Limit(depth=3), knowing_losses(True, widen=0))
    wide = expectimax(TakeAway(), (5, MAX, None), Horizon(), Limit(depth=3), knowing_losses(True))
    assert (narrow.move, narrow.value) == (1, 0.75)
    assert (wide.move, wide.value, wide.alternatives) == (2, 1.0, ((2, 1.0), (1, 0.75)))


def test_the_table_keeps_each_node_with_its_chance_of_a_loss():
    # The pile of three, valued in closed form two moves deep, is kept as exact with its chance of a loss.
    table = TranspositionTable()
    expectimax(TakeAway(), (5, MAX, None), Horizon(), Limit(depth=3), knowing_losses(True), table=table)
    kept = table.probe((3, MAX, None), 2, -math.inf, math.inf)
    assert kept is not None and (kept.value, kept.move, kept.risk, kept.below) == (0.5, 1, 0.5, 1)
