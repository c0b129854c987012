"""Minimax, alpha-beta and expectimax on abstract game trees written out here and worked by hand."""

from __future__ import annotations

import pytest

from search.algorithms import AllMoves, Policies, alphabeta, expectimax, minimax
from search.limits import BudgetSpent, Limit
from search.table import TranspositionTable

from .toy_games import Estimates, TreeGame, WidensOnLoss, replies

#: aima-python's example tree (3 12 8 / 2 4 6 / 14 5 2), each reply with a probability.
#: Minimax: move 0 is worth min(3, 12, 8) = 3, move 1 min(2, 4, 6) = 2, move 2 min(14, 5, 2) = 2.
#: Expectimax: move 0 is worth .5 x 3 + .25 x 12 + .25 x 8 = 6.5, move 1 (2 + 4 + 6) / 3 = 4,
#: move 2 .5 x 14 + .3 x 5 + .2 x 2 = 8.9.
AIMA = {0: replies((0.5, 3.0), (0.25, 12.0), (0.25, 8.0)),
        1: replies((1 / 3, 2.0), (1 / 3, 4.0), (1 / 3, 6.0)),
        2: replies((0.5, 14.0), (0.3, 5.0), (0.2, 2.0))}

#: Two moves whose replies lead to a leaf or to a second choice of the maximiser, each of
#: whose moves has one reply, a leaf. The estimates of those second choices differ from
#: their leaves, so depth 2 (second choices valued by the estimates) and depth 3 (by the
#: leaves) disagree. After move 0, reply 0: estimates 4 and 6, leaves 4 and 0; reply 1: leaf 1.
#: After move 1, reply 0: leaf 2; reply 1: estimates 3 and 0, leaves 3 and 5.
DEEP = {0: replies((0.5, {0: replies((1.0, 4.0)), 1: replies((1.0, 0.0))}), (0.5, 1.0)),
        1: replies((0.5, 2.0), (0.5, {0: replies((1.0, 3.0)), 1: replies((1.0, 5.0))}))}
DEEP_ESTIMATES = Estimates({(0,): 7.0, (1,): 4.0, (0, 0, 0): 4.0, (0, 0, 1): 6.0, (1, 1, 0): 3.0, (1, 1, 1): 0.0})

#: A value at or below 0 is a loss. Move 0 is worth 2; move 1 leads to a second choice N of three moves, in
#: this order: N0 (replies 1 and -1: worth -1, a loss), N1 (-2, a loss) and N2 (9). A beam of two searches N0
#: and N1, sees only losses, and widens to N2: N is worth 9, and so is move 1.
WIDENS = {0: replies((1.0, 2.0)),
          1: replies((1.0, {0: replies((0.5, 1.0), (0.5, -1.0)), 1: replies((1.0, -2.0)), 2: replies((1.0, 9.0))}))}


def test_minimax_on_the_aima_tree():
    # Every node is visited: the root, three replies' nodes and nine leaves.
    result = minimax(TreeGame(AIMA), (), Estimates(), Limit(depth=2))
    assert (result.move, result.value, result.nodes, result.depth) == (0, 3.0, 13, 2)
    assert result.alternatives == ((0, 3.0), (1, 2.0), (2, 2.0))
    assert not result.budget_reached


def test_alphabeta_on_the_aima_tree_skips_what_cannot_matter():
    # Move 0 is worth 3. Move 1's first reply leaves 2 <= 3: its other two replies are skipped.
    # Move 2's replies 14 and 5 do not settle it; 2 does. Nodes: 1 + (1 + 3) + (1 + 1) + (1 + 3) = 11.
    result = alphabeta(TreeGame(AIMA), (), Estimates(), Limit(depth=2))
    assert (result.move, result.value, result.nodes) == (0, 3.0, 11)
    assert result.alternatives == ((0, 3.0), (1, 2.0), (2, 2.0))  # bounds, here equal to the values


def test_expectimax_on_the_aima_tree_takes_the_gamble():
    result = expectimax(TreeGame(AIMA, chance=True), (), Estimates(), Limit(depth=2))
    assert result.move == 2 and result.value == pytest.approx(8.9) and result.nodes == 13
    assert [move for move, _ in result.alternatives] == [2, 0, 1]
    assert [value for _, value in result.alternatives] == pytest.approx([8.9, 6.5, 4.0])


def test_depth_one_values_each_move_by_the_evaluation():
    estimates = Estimates({(0,): 5.0, (1,): 9.0, (2,): 1.0})
    for search in (minimax, alphabeta, expectimax):
        result = search(TreeGame(AIMA, chance=search is expectimax), (), estimates, Limit(depth=1))
        assert (result.move, result.value, result.nodes, result.depth) == (1, 9.0, 1, 1)
        assert result.alternatives == ((1, 9.0), (0, 5.0), (2, 1.0))


def test_the_beam_searches_the_best_estimated_moves_only():
    # Estimates order the moves 1, 2, 0. A beam of one searches move 1 alone (minimax 2, expectimax 4);
    # a beam of two adds move 2 (minimax 2 again: the first found is kept; expectimax 8.9).
    estimates = Estimates({(0,): 1.0, (1,): 9.0, (2,): 5.0})
    def beam(width: int, chance: bool = False) -> tuple[TreeGame, Policies]:
        game = TreeGame(AIMA, chance=chance)
        return game, Policies(moves=AllMoves(game, estimates, beam=width))

    game, one_move = beam(1)
    assert minimax(game, (), estimates, Limit(depth=2), one_move).alternatives == ((1, 2.0),)
    game, one_move = beam(1, chance=True)
    one = expectimax(game, (), estimates, Limit(depth=2), one_move)
    assert (one.move, one.value) == (1, pytest.approx(4.0))
    game, two_moves = beam(2)
    assert minimax(game, (), estimates, Limit(depth=2), two_moves).move == 1
    game, two_moves = beam(2, chance=True)
    assert expectimax(game, (), estimates, Limit(depth=2), two_moves).move == 2


def test_the_horizon_values_second_choices_by_their_estimates():
    # Depth 2: after (0, 0) the best estimate is 6, after (1, 1) it is 3.
    #   minimax: move 0 min(6, 1) = 1, move 1 min(2, 3) = 2 -> move 1, 2.
    #   expectimax: move 0 (6 + 1) / 2 = 3.5, move 1 (2 + 3) / 2 = 2.5 -> move 0, 3.5.
    # Depth 3: the leaves: after (0, 0) max(4, 0) = 4, after (1, 1) max(3, 5) = 5.
    #   minimax: move 0 min(4, 1) = 1, move 1 min(2, 5) = 2 -> move 1, 2.
    #   expectimax: move 0 (4 + 1) / 2 = 2.5, move 1 (2 + 5) / 2 = 3.5 -> move 1, 3.5.
    game, chance = TreeGame(DEEP), TreeGame(DEEP, chance=True)
    for search in (minimax, alphabeta):
        for depth in (2, 3):
            result = search(game, (), DEEP_ESTIMATES, Limit(depth=depth))
            assert (result.move, result.value, result.depth) == (1, 2.0, depth)
    two = expectimax(chance, (), DEEP_ESTIMATES, Limit(depth=2))
    three = expectimax(chance, (), DEEP_ESTIMATES, Limit(depth=3))
    assert (two.move, two.value, two.depth) == (0, 3.5, 2)
    assert (three.move, three.value, three.depth) == (1, 3.5, 3)
    # Minimax at depth 3 visits the root, two replies' nodes, four nodes below them and four more
    # replies' nodes with a leaf each: 1 + 2 + 4 + 2 x 2 x 2 = 15.
    assert minimax(game, (), DEEP_ESTIMATES, Limit(depth=3)).nodes == 15


def test_a_node_budget_that_runs_out_says_so():
    # A budget of one node: the root is valued at the horizon, by its moves' estimates 7 and 4.
    cut = minimax(TreeGame(DEEP), (), DEEP_ESTIMATES, Limit(depth=3, nodes=1))
    assert (cut.move, cut.value, cut.nodes, cut.depth, cut.budget_reached) == (0, 7.0, 1, 1, True)
    # Three nodes: the root, move 0's replies' node and the choice after (0, 0), valued by its estimates (6).
    partly = minimax(TreeGame(DEEP), (), DEEP_ESTIMATES, Limit(depth=3, nodes=3))
    assert partly.budget_reached and dict(partly.alternatives)[0] == 1.0
    enough = minimax(TreeGame(DEEP), (), DEEP_ESTIMATES, Limit(depth=3, nodes=1000))
    assert (enough.move, enough.value, enough.nodes, enough.budget_reached) == (1, 2.0, 15, False)


def test_a_stopping_budget_gives_the_full_result_or_stops():
    # The full search needs 15 nodes (above): a stopping budget of 15 returns exactly its result;
    # 14 stops it, saying how many nodes it had visited when it stopped.
    game = TreeGame(DEEP)
    full = minimax(game, (), DEEP_ESTIMATES, Limit(depth=3))
    assert minimax(game, (), DEEP_ESTIMATES, Limit(depth=3, nodes=15, stop=True)) == full
    with pytest.raises(BudgetSpent) as spent:
        minimax(game, (), DEEP_ESTIMATES, Limit(depth=3, nodes=14, stop=True))
    assert spent.value.nodes == 15


def test_a_table_answers_repeated_nodes_and_reports_the_depth_they_reached():
    # Asked for depth 5, the search reaches level 3 (the leaves). The second search from the root
    # finds the two second choices in the table: each counts one node, and says it reached one level below.
    game, table = TreeGame(DEEP), TranspositionTable()
    first = minimax(game, (), DEEP_ESTIMATES, Limit(depth=5), table=table)
    second = minimax(game, (), DEEP_ESTIMATES, Limit(depth=5), table=table)
    assert (first.move, first.value, first.depth, first.nodes) == (1, 2.0, 3, 15)
    assert (second.move, second.value, second.depth, second.nodes) == (1, 2.0, 3, 15 - 2 * 4)
    assert len(table) == 2


def test_searches_start_where_the_maximiser_moves():
    game = TreeGame(AIMA)
    for state in ((0,), (0, 1)):  # the opponent to move; a leaf
        with pytest.raises(ValueError):
            minimax(game, state, Estimates(), Limit())


def test_a_beam_widens_while_every_move_it_searched_shows_a_loss():
    game = TreeGame(WIDENS)
    narrow = minimax(game, (), Estimates(), Limit(depth=3), Policies(moves=AllMoves(game, Estimates(), beam=2)))
    widening = Policies(moves=WidensOnLoss(game, Estimates(), beam=2, widen=4, chance=False))
    wide = minimax(game, (), Estimates(), Limit(depth=3), widening)
    assert (narrow.move, narrow.value) == (0, 2.0)  # N0 and N1 only: N is worth -1
    assert (wide.move, wide.value) == (1, 9.0)


def test_alphabeta_searches_below_the_loss_line_until_a_move_shows_no_loss():
    # With move 0's 2 as alpha, N0's first reply (1 <= 2) would cut it short at 1, which is not a loss, so N would
    # not widen and move 1 would be worth 1. The floor searches N0 with alpha 0: its -1 shows, and N widens as
    # in minimax.
    game = TreeGame(WIDENS)
    widening = WidensOnLoss(game, Estimates(), beam=2, widen=4, chance=False)
    pruned = alphabeta(game, (), Estimates(), Limit(depth=3), Policies(moves=widening))
    assert (pruned.move, pruned.value) == (1, 9.0)
    widening.floor = lambda alpha: alpha  # no floor
    unfloored = alphabeta(game, (), Estimates(), Limit(depth=3), Policies(moves=widening))
    assert (unfloored.move, unfloored.value) == (0, 2.0)
