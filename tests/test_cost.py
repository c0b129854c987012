"""The cost-to-go table: exact for one and two answers, never below the lower bound, rising with n."""

from __future__ import annotations

import numpy as np

from heuristics.cost import FITTED, CostModel, cost_table


def test_exact_small_sizes_and_floor():
    table = cost_table(3000)
    assert table[0] == 0.0 and table[1] == 1.0 and table[2] == 1.5
    sizes = np.arange(3, 3001)
    assert np.all(table[3:] >= 1 + (sizes - 1) / sizes)


def test_fitted_model_rises_and_matches_the_measured_opening():
    table = cost_table(2315)
    assert np.all(np.diff(table[2:]) >= 0)
    # The games it was fitted on took 3.42 guesses from the full list (results/cost_fit.json).
    assert 3.3 < table[2315] < 3.55


def test_a_floor_only_model_gives_the_lower_bound():
    table = CostModel(0.0, 0.0, 0.0).table(10)
    assert table[3] == 1 + 2 / 3 and table[10] == 1 + 9 / 10
    assert FITTED.table(5)[4] == cost_table(5)[4]


def test_fitted_coefficients_are_the_committed_fit():
    # heuristics.cost.FITTED must be results/cost_fit.json's fit, made from results/cost_fit_games.json.
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    fit = json.loads((root / "results" / "cost_fit.json").read_text())
    assert fit["games_file"] == "results/cost_fit_games.json" and (root / fit["games_file"]).is_file()
    assert abs(FITTED.intercept - fit["coefficients"]["a"]) < 5e-5
    assert abs(FITTED.slope - fit["coefficients"]["b"]) < 5e-5
    assert abs(FITTED.curve - fit["coefficients"]["c"]) < 5e-7
