"""Limit refuses a budget no search can run under, Strategy a Wordle search no policy can follow;
SearchResult says what the search found."""

from __future__ import annotations

import pytest

from search.limits import Limit, SearchResult
from wordle.strategy import Strategy


@pytest.mark.parametrize("fields, message", [
    ({"depth": 0}, "depth must be at least 1, got 0"),
    ({"nodes": 0}, "the node budget must be at least 1, got 0"),
])
def test_bad_limits_are_refused_with_the_field_named(fields, message):
    with pytest.raises(ValueError) as error:
        Limit(**fields)
    assert str(error.value) == message


@pytest.mark.parametrize("fields, message", [
    ({"beam": 0}, "beam must be at least 1, got 0"),
    ({"pool": 0}, "pool must be at least 1, got 0"),
    ({"opening": -1}, "opening must be at least 0, got -1"),
    ({"widen": -1}, "widen must be at least 0, got -1"),
    ({"loss": -0.5}, "loss must be at least 0, got -0.5"),
])
def test_bad_strategies_are_refused_with_the_field_named(fields, message):
    with pytest.raises(ValueError) as error:
        Strategy(**fields)
    assert str(error.value) == message


def test_defaults_and_a_result_that_ran_out_of_budget():
    assert Limit() == Limit(depth=2, nodes=None, stop=False)
    assert Strategy() == Strategy(beam=10, pool=300, widen=500, loss=10.0, endgame=3, endgame_answers=30, opening=0,
                                  opening_top=0)
    result = SearchResult(move=1, value=2.0, nodes=3, depth=1, budget_reached=True)
    assert result.budget_reached and result.alternatives == ()


def test_the_shallow_strategy_keeps_the_rankings_and_drops_the_rest():
    deep = Strategy(beam=7, pool=50, loss=50.0, endgame_answers=100, opening=3, opening_top=3)
    assert deep.shallow() == Strategy(beam=7, pool=50, widen=0, loss=50.0, endgame=0, endgame_answers=0)


def test_a_budget_says_when_it_stops_a_search_and_when_it_cuts_it_to_the_horizon():
    stopping, soft = Limit(nodes=10, stop=True), Limit(nodes=10)
    assert not stopping.overrun(10) and stopping.overrun(11) and not stopping.horizon_now(11)
    assert soft.horizon_now(10) and not soft.horizon_now(9) and not soft.overrun(11)
    assert Limit().keeps_values and stopping.keeps_values and not soft.keeps_values
