"""Values under a weighted answer model: real trees that replay to their value, bounds below brute force, and a 95%
answer ranked first in assist, review and the web (not a proved but slower guess)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from agents.answer_model import AnswerModel, load_model
from agents.assistant import advise_model, parse_step
from agents.model_value import Valuer
from agents.review import parse_game, review_game
from wordle.solver.weighted import brute_force, tree_cost
from wordle.weighted_value import WeightedValuer

from .conftest import run_cli, small_game
from .test_weighted import weighted_cases, weights_of


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(weighted_cases, st.integers(min_value=1, max_value=30))
def test_every_value_is_a_real_tree_above_a_proved_bound(case, nodes):
    """Whatever the budget, each valued guess's tree replays to its high, its low is at most brute force's best
    with that guess first, and a proved position is brute force's optimum."""
    from search.limits import Budget
    answers, extra, max_guesses, hard, drawn, tier = case
    game = small_game(answers, extra)
    weights = weights_of(answers, drawn, tier)
    valuer = WeightedValuer(game, weights, hard, max_guesses)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    asked = [int(g) for g in game.legal_guesses(state)][:3]
    found = valuer.value(state, asked, Budget(nodes=nodes))
    every = np.asarray(state.candidates)
    hints = valuer.exact.state_hints(state)
    unit = valuer.exact.loss_unit
    for guess, interval in found.intervals.items():
        tree = valuer.tree(state, guess, found.sources[guess])
        assert tree.guess == guess
        assert tree_cost(game, weights, tree, every, max_guesses, unit) == interval.high
        # brute force after this guess: every reply's best tree
        cost = int(weights[every].sum())
        for code, group in game.partition(every, guess):
            if code != 242:
                child = game.step(state, guess, code)
                lost, guessed = brute_force(game, weights, np.asarray(group), max_guesses - 1, hard,
                                            valuer.exact.state_hints(child) if hard else None)
                cost += lost * unit + guessed
        assert interval.low <= cost <= interval.high
    optimum = valuer.exact.pack(*brute_force(game, weights, every, max_guesses, hard, hints))
    assert found.intervals[found.best].high >= optimum
    if found.proved:
        assert found.intervals[found.best].high == optimum


def likely_answer_model() -> AnswerModel:
    """CATER at 95% of the weight, HATER and WATER sharing the rest: guessing CATER costs 0.95 * 1 + 0.05 * 2 at
    best (1.05), where WIMPY-like splitters cost 2 for every answer (proved 2.000, the slower)."""
    answers = ("cater", "hater", "water")
    game = small_game(list(answers), ["thumb", "wight"])
    weights = np.array([0.95, 0.03, 0.02])
    tier_game = small_game(["cater"], ["hater", "water", "thumb", "wight"])
    return AnswerModel(name="hand", game=game, weights=weights, tier=1, tier_game=tier_game)


def test_hand_worked_the_95_percent_answer_ranks_first_in_assist_and_review():
    model = likely_answer_model()
    words = model.game.words
    advice = advise_model(model, [], top=5)
    first = advice.suggestions[0]
    assert words.guesses[first.guess] == "cater"
    # CATER, then THUMB-free play: HATER and WATER told apart by guessing HATER (the heavier) next
    assert first.value.text() == "1.070" and first.value.proved  # 0.95 * 1 + 0.03 * 2 + 0.02 * 3
    others = {words.guesses[s.guess]: s.value for s in advice.suggestions[1:]}
    assert all(value.value.high > first.value.value.high for value in others.values())
    # the review of a game opened with WIGHT (which tells all three apart: 2.000, proved) names CATER the best
    review = review_game(model, parse_game(model.game, ["wight", "cater"], answer="cater"), answer="cater")
    step = review.steps[0]
    assert words.guesses[step.best_guess] == "cater" and step.best.text() == "1.070"
    assert step.played.text() == "2.000" and step.skill < 99


@pytest.mark.slow
def test_squids_game_suggests_undid_first_in_assist_and_on_the_web(capsys):
    """After ADIEU -yy-y and LURID -y-gg under the likely model: UNDID is 95% likely. It is suggested first at
    its proved 1.090 (a real tree: UNDID, then SQUID), where ABASK-like splitters are a proved 2.000."""
    code, out, _ = run_cli(capsys, "assist", "adieu:-yy-y", "lurid:-y-gg", "--json")
    assert code == 0
    advice = json.loads(out)
    first = advice["suggestions"][0]
    assert first["guess"] == "undid" and first["value"]["text"] == "1.090" and first["value"]["proved"]
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from web.app import create_app
    model = load_model("likely")
    with TestClient(create_app(model.game), base_url="http://localhost") as client:
        web = client.post("/api/advise", json={"steps": ["adieu:-yy-y", "lurid:-y-gg"]}).json()
    assert web["suggestions"][0]["guess"] == "undid"
    assert web["suggestions"][0]["value"] == first["value"]


@pytest.mark.slow
def test_the_valuer_names_undid_and_its_tree(official_game):
    model = load_model("likely")
    valuer = Valuer(model)
    game = model.game
    state = model.initial_state()
    for text in ("adieu:-yy-y", "lurid:-y-gg"):
        guess, pattern = parse_step(game, text)
        state = game.step(state, guess, pattern)
    found = valuer.value(state, [game.words.guess_index["abask"]])
    assert game.words.guesses[found.best] == "undid" and found.value.proved
    assert found.guesses[game.words.guess_index["abask"]].text() == "2.000"
    assert found.value.value.high < 1.1
