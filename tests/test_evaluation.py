"""Evaluations: hand-worked values, the three modes, the threshold, order invariance, the registry."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from heuristics.cost import cost_table
from heuristics.evaluation import EVALUATIONS, Cost, Weighted, make_evaluation

from .games import ANSWERS, hand_game


def test_entropy_value_by_hand():
    # Over the six answers ACING makes three bins of 2: entropy log2 3 bits; the most possible
    # over six answers is log2 6, so the value is base - 2 + log2 3 / log2 6 with base = 6.
    game, acing, _ = hand_game()
    value = make_evaluation("entropy").values(game, game.initial_state(), np.array([acing]))[0]
    assert value == pytest.approx(4 + math.log2(3) / math.log2(6))


def test_weighted_value_by_hand():
    # LANKY over the six: bins 1 (all green), 3, 1, 1 -> entropy = log2 6 - 3 log2 3 / 6.
    # Greens: 5 + 0 x 3 + 2 + 2 = 9 over 6 answers; yellows: 0 + 3 x 3 + 1 + 0 = 10; greys: 30 - 19 = 11.
    game, _, lanky = hand_game()
    entropy = math.log2(6) - 3 * math.log2(3) / 6
    score = 0.6 * entropy + 0.2 * 9 / 6 + 0.15 * 10 / 6 + 0.05 * 11 / 6
    bound = 0.6 * math.log2(6) + 5 * (0.2 + 0.15 + 0.05)
    value = make_evaluation("weighted").values(game, game.initial_state(), np.array([lanky]))[0]
    assert value == pytest.approx(4 + score / bound)


def test_cost_value_by_hand():
    # LANKY: bins of 1 (all green, costs nothing more), 3, 1, 1: expected guesses still needed
    # 1 + (3 F(3) + 1 + 1) / 6; value = base + 1 - that, base = 6.
    game, acing, lanky = hand_game()
    f = cost_table(6)
    values = make_evaluation("cost").values(game, game.initial_state(), np.array([lanky, acing]))
    assert values[0] == pytest.approx(7 - (1 + (3 * f[3] + 2) / 6))
    # ACING: three pairs: 1 + 3 x 2 x 1.5 / 6 = 2.5 guesses.
    assert values[1] == pytest.approx(7 - 2.5)


def test_constant_mode_uses_the_full_list_and_threshold_switches_to_it():
    game, acing, lanky = hand_game()
    state = game.step(game.initial_state(), acing, game.reply(acing, game.words.answer_id("black")))
    guesses = game.all_guesses
    for name in EVALUATIONS:
        local = make_evaluation(name).values(game, state, guesses)
        constant = make_evaluation(name, "constant").values(game, state, guesses)
        full = make_evaluation(name).values(game, game.initial_state(), guesses)
        # Constant: the full-list values, shifted by the one guess used.
        assert np.allclose(constant, full - 1)
        # Two answers here: every guess gets at most 2 indications; threshold 1 lets constant stand in.
        assert np.allclose(make_evaluation(name, threshold=1).values(game, state, guesses), constant)
        assert np.allclose(make_evaluation(name, threshold=2).values(game, state, guesses), local)


def test_zero_mode_values_every_guess_alike():
    game, _, _ = hand_game()
    values = make_evaluation("weighted", "zero").values(game, game.initial_state(), game.all_guesses)
    assert np.all(values == values[0]) and make_evaluation("cost", "zero").random_ties


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(len(ANSWERS))), st.sampled_from(sorted(EVALUATIONS)))
def test_values_do_not_depend_on_candidate_order(order, name):
    game, _, _ = hand_game()
    state = game.initial_state()
    shuffled = type(state)(candidates=np.array(order), history=state.history)
    evaluation = make_evaluation(name)
    assert np.allclose(evaluation.values(game, shuffled, game.all_guesses),
                       evaluation.values(game, state, game.all_guesses), atol=1e-12)


def test_registry_and_bad_input():
    assert isinstance(make_evaluation("cost"), Cost) and isinstance(make_evaluation("greys"), Weighted)
    assert make_evaluation("weighted", weights=(1, 0, 0, 0)).weights == (1.0, 0.0, 0.0, 0.0)
    for bad in (lambda: make_evaluation("nope"), lambda: make_evaluation("cost", "sometimes"),
                lambda: make_evaluation("entropy", weights=(1, 0, 0, 0)),
                lambda: make_evaluation("weighted", weights=(0, 0, 0, 0)),
                lambda: make_evaluation("weighted", weights=(1, -1, 0, 0)),
                lambda: make_evaluation("weighted", weights=(1, 0, 0))):
        with pytest.raises(ValueError):
            bad()
