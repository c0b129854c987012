"""Limit refuses a budget no search can run under; SearchResult says what the search found."""

from __future__ import annotations

import pytest

from search.limits import Limit, SearchResult


@pytest.mark.parametrize("fields, message", [
    ({"depth": 0}, "depth must be at least 1, got 0"),
    ({"beam": 0}, "beam must be at least 1, got 0"),
    ({"pool": 0}, "pool must be at least 1, got 0"),
    ({"opening": -1}, "opening must be at least 0, got -1"),
    ({"widen": -1}, "widen must be at least 0, got -1"),
    ({"loss": -0.5}, "loss must be at least 0, got -0.5"),
    ({"nodes": 0}, "the node budget must be at least 1, got 0"),
])
def test_bad_limits_are_refused_with_the_field_named(fields, message):
    with pytest.raises(ValueError) as error:
        Limit(**fields)
    assert str(error.value) == message


def test_defaults_and_a_result_that_ran_out_of_budget():
    assert Limit() == Limit(depth=2, beam=10, threshold=100, nodes=None, pool=300, endgame=3, endgame_answers=30,
                            loss=10.0, opening=0, opening_top=0, widen=500)
    result = SearchResult(move=1, value=2.0, nodes=3, depth=1, budget_reached=True)
    assert result.budget_reached and result.alternatives == ()
