"""best_first: the one tie-break rule (keys in turn, then index), with float keys rounded."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

from search.ranking import DECIMALS, best_first, rounded


def test_keys_in_turn_then_the_lower_move():
    moves = np.array([9, 4, 7, 2])
    values = np.array([1.0, 2.0, 2.0, 2.0])
    can_win = np.array([True, False, True, False])
    # Value 2 first (4, 7, 2); among them the one that can win (7), then by index (2, 4); 9 last.
    assert moves[best_first(moves, -values, ~can_win)].tolist() == [7, 2, 4, 9]


def test_sums_equal_in_real_arithmetic_tie():
    moves = np.array([5, 3])
    values = np.array([0.1 + 0.2, 0.3])  # 0.30000000000000004 and 0.3
    assert values[0] != values[1] and moves[best_first(moves, -values)].tolist() == [3, 5]
    assert rounded(0.1 + 0.2) == 0.3 and DECIMALS == 9


def test_a_generator_breaks_the_last_tie_instead_of_the_index():
    moves = np.arange(6)
    values = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 2.0])
    orders = {tuple(best_first(moves, -values, rng=np.random.default_rng(seed)).tolist()) for seed in range(20)}
    assert all(order[0] == 5 for order in orders) and len(orders) > 1
    again = best_first(moves, -values, rng=np.random.default_rng(3)).tolist()
    assert again == best_first(moves, -values, rng=np.random.default_rng(3)).tolist()


@given(st.lists(st.tuples(st.integers(0, 3), st.booleans()), min_size=1, max_size=30))
def test_the_order_is_the_sorted_order_of_the_keys(rows):
    moves = np.arange(len(rows))
    values = np.array([float(v) for v, _ in rows])
    can_win = np.array([c for _, c in rows])
    expected = sorted(moves.tolist(), key=lambda m: (-values[m], not can_win[m], m))
    assert moves[best_first(moves, -values, ~can_win)].tolist() == expected
