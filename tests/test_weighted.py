"""The weighted solver: equal to brute force on small weighted sets, both modes; trees that replay to their value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle.hardmode import Hints, extend_hints
from wordle.solver import Limits, Objective, Solver
from wordle.solver.bounds import letter_tables, transposed
from wordle.solver.weighted import (WeightedSolver, brute_force, fast_reply_weights, integer_weights, reply_weights,
                             tree_cost)

from .conftest import small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES

weighted_cases = st.tuples(
    st.lists(st.sampled_from(POOL_ANSWERS), min_size=3, max_size=6, unique=True),
    st.lists(st.sampled_from(POOL_GUESSES), max_size=2, unique=True),
    st.integers(min_value=2, max_value=4),
    st.booleans(),
    st.lists(st.integers(min_value=1, max_value=9), min_size=6, max_size=6),
    st.booleans(),
)


def weights_of(answers: list[str], drawn: list[int], tier: bool) -> np.ndarray:
    """The drawn weights for these answers; with `tier`, every other answer at the heaviest weight (a tier of them)."""
    weights = np.array(drawn[:len(answers)], dtype=np.int64)
    if tier:
        weights[::2] = 20
    return weights


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(weighted_cases)
def test_weighted_solver_equals_brute_force(case):
    answers, extra, max_guesses, hard, drawn, tier = case
    game = small_game(answers, extra)
    weights = weights_of(answers, drawn, tier)
    solver = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    every, hints = np.asarray(state.candidates), solver.state_hints(state)
    cost = solver.solve_set(every, max_guesses, hints)
    assert cost == solver.pack(*brute_force(game, weights, every, max_guesses, hard, hints))
    # the tree it names replays to exactly that cost
    tree = solver.tree(every, max_guesses, hints)
    assert tree_cost(game, weights, tree, every, max_guesses, solver.loss_unit) == cost


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(weighted_cases)
def test_a_breadth_limited_solve_is_a_real_tree_no_better_than_the_optimum(case):
    answers, extra, max_guesses, hard, drawn, tier = case
    game = small_game(answers, extra)
    weights = weights_of(answers, drawn, tier)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    every = np.asarray(state.candidates)
    exact = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses)
    quick = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses, limits=Limits(top=1))
    hints = exact.state_hints(state)
    high = quick.solve_set(every, max_guesses, hints)
    assert high >= exact.solve_set(every, max_guesses, hints)
    assert tree_cost(game, weights, quick.tree(every, max_guesses, hints), every, max_guesses, quick.loss_unit) == high


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(weighted_cases)
def test_the_tier_bound_changes_no_value(case):
    answers, extra, max_guesses, hard, drawn, _ = case
    game = small_game(answers, extra)
    weights = weights_of(answers, drawn, True)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    every = np.asarray(state.candidates)
    with_tier = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses)
    without = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses, tier=False)
    hints = with_tier.state_hints(state)
    assert with_tier.solve_set(every, max_guesses, hints) == without.solve_set(every, max_guesses, hints)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(weighted_cases)
def test_equal_weights_give_the_uniform_solvers_losses_then_total(case):
    answers, extra, max_guesses, hard, _, _ = case
    game = small_game(answers, extra)
    weights = np.ones(len(answers), dtype=np.int64)
    solver = WeightedSolver(game, weights, hard=hard, max_guesses=max_guesses)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    found = solver.unpack(solver.solve_set(np.asarray(state.candidates), max_guesses, solver.state_hints(state)))
    uniform = Solver(game, hard=hard, max_guesses=max_guesses, objective=Objective.LOSSES).solve()
    assert (found.lost, found.guesses) == (uniform.losses, uniform.total)


def test_the_compiled_pass_equals_the_reference(official_game):
    rng = np.random.default_rng(0)
    columns = transposed(official_game)
    guesses = np.sort(rng.choice(len(official_game.words.guesses), 60, replace=False))
    for size in (2, 9, 48, 300):
        answers = np.sort(rng.choice(len(official_game.words.answers), size, replace=False))
        weights = rng.integers(1, 1 << 24, len(official_game.words.answers))
        for tables in (None, letter_tables(official_game)):  # with the dead-letter rule and without
            expected = reply_weights(columns, guesses, answers, weights, tables)
            found = fast_reply_weights()(columns, guesses, answers, weights, tables)
            for wanted, got in zip(expected, found):
                assert wanted.tolist() == got.tolist()


def test_hand_worked_a_heavy_answer_is_guessed_first():
    # CATER holds 95% of the weight: guessing it costs 0.95 * 1 + 0.05 * 2 (each other told apart by then)
    # where a guess telling all three apart first costs 2 for each
    game = small_game(["cater", "hater", "water"], ["wimpy", "thumb"])
    weights = np.array([95, 4, 1])
    solver = WeightedSolver(game, weights, max_guesses=6)
    every = np.arange(3)
    assert solver.solve_set(every, 6) == 95 * 1 + 4 * 2 + 1 * 3
    assert game.words.guesses[solver.best_guess_for(every, 6, None)] == "cater"
    # with two guesses left, CATER then one of the others: one of them is lost (the lighter, WATER)
    assert solver.unpack(solver.solve_set(every, 2)) == solver.unpack(solver.pack(1, 95 + 4 * 2 + 1 * 3))


def test_integer_weights_keep_order_and_the_heaviest_at_the_scale():
    weights = integer_weights(np.array([0.3, 0.3, 1e-9, 0.1, 0.0]))
    assert weights.tolist()[:2] == [1 << 24, 1 << 24] and weights[2] == 1 and weights[4] == 0
    assert weights[3] == round((1 << 24) / 3)


@pytest.mark.parametrize("hard", [False, True])
def test_the_two_left_search_names_guess_bounds_first_guess(official_game, hard):
    # the compiled search with two guesses left (pairwise for few answers, marked for more) against its readable
    # reference, guess_bounds' first guess and bound; weights drawn with ties (a tier at the heaviest) and without
    rng = np.random.default_rng(1)
    weights = rng.integers(1, 1 << 24, len(official_game.words.answers))
    weights[rng.random(len(weights)) < 0.5] = 1 << 24
    solver = WeightedSolver(official_game, weights, hard=hard, tier=False)
    for size in (2, 3, 5, 9, 14, 30, 48, 49, 120):
        for _ in range(3):
            if hard:  # a set the hints of one guess leave, so that the allowed guesses are few
                guess = int(rng.integers(len(official_game.words.guesses)))
                codes = official_game.matrix[guess]
                code = int(rng.choice(codes))
                answers = np.flatnonzero(codes == code)[:size]
                hints = extend_hints(Hints(), official_game.words.guesses[guess], code)
            else:
                answers = np.sort(rng.choice(len(official_game.words.answers), size, replace=False))
                hints = None
            if len(answers) < 2:
                continue
            guesses, bounds, _ = solver.guess_bounds(answers, 2, hints)
            assert solver.best_with_two_left(answers, hints) == (int(guesses[0]), bounds[0])
