"""The transposition table: entries by (key, depth), flagged exact, lower or upper bound."""

from __future__ import annotations

import math

from search.table import EXACT, LOWER, UPPER, Entry, TranspositionTable


def test_a_value_inside_its_window_is_exact_and_answers_every_window():
    table = TranspositionTable()
    table.store("s", 2, Entry(5.0, move=3, below=1, risk=0.25), alpha=1.0, beta=9.0)
    entry = table.probe("s", 2, alpha=6.0, beta=7.0)
    assert entry == Entry(5.0, move=3, below=1, risk=0.25, flag=EXACT)
    assert table.probe("s", 2, -math.inf, math.inf) == entry


def test_a_fail_low_is_an_upper_bound_and_settles_only_lower_windows():
    # Searched with alpha 5, the node came out at 4: it is worth at most 4.
    table = TranspositionTable()
    table.store("s", 2, Entry(4.0, move=1), alpha=5.0, beta=9.0)
    assert table.probe("s", 2, alpha=4.0, beta=9.0).flag == UPPER  # 4 <= alpha: settled, cut
    assert table.probe("s", 2, alpha=3.0, beta=9.0) is None  # the true value may be above 3


def test_a_fail_high_is_a_lower_bound_and_settles_only_higher_windows():
    # Searched with beta 5, the node came out at 6: it is worth at least 6.
    table = TranspositionTable()
    table.store("s", 2, Entry(6.0, move=1), alpha=1.0, beta=5.0)
    assert table.probe("s", 2, alpha=1.0, beta=6.0).flag == LOWER
    assert table.probe("s", 2, alpha=1.0, beta=8.0) is None


def test_entries_answer_only_their_own_depth_and_key():
    table = TranspositionTable()
    table.store("s", 2, Entry(5.0, move=3), alpha=-math.inf, beta=math.inf)
    assert table.probe("s", 3, -math.inf, math.inf) is None
    assert table.probe("t", 2, -math.inf, math.inf) is None
    assert len(table) == 1
