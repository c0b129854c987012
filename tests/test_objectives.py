"""The solver's objectives (total, losses, worst) and its win search, against a slow readable brute force.

Costs are guesses (lower is better); a lost answer counts max_guesses + 1 guesses.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from plumbing.errors import UserError
from wordle import ALL_GREEN, Wordle
from wordle.hardmode import hints_from
from wordle.solver import FIRST, SCALE, Limits, Objective, Solver
from wordle.tree import build_tree

from .conftest import small_game
from .test_optimal import small_lists

LONG_GAME = 2


def outcomes(game: Wordle, state, guess: int):
    """Each reply of `guess` at `state`: ("solved", guess number) or ("open", the state after it)."""
    for pattern, _ in game.partition(state.candidates, guess):
        if pattern == ALL_GREEN:
            yield "solved", state.guesses_used + 1
        else:
            yield "open", game.step(state, guess, pattern)


def brute_losses(game: Wordle, state) -> tuple[int, int, int]:
    """(answers lost, total guesses, games over LONG_GAME) of the best tree, trying every legal guess everywhere."""
    size = len(state.candidates)
    if game.is_terminal(state):  # no guess left: every answer still possible is lost
        number = state.max_guesses + 1
        return size, size * number, size * (number > LONG_GAME)
    best = None
    for guess in game.legal_guesses(state):
        lost, total, long = 0, 0, 0
        for kind, value in outcomes(game, state, int(guess)):
            if kind == "solved":
                total, long = total + value, long + (value > LONG_GAME)
            else:
                sub = brute_losses(game, value)
                lost, total, long = lost + sub[0], total + sub[1], long + sub[2]
        if best is None or (lost, total, long) < best:
            best = (lost, total, long)
    return best


def brute_worst(game: Wordle, state) -> tuple[int, int, int] | None:
    """(most guesses an answer needs, total guesses, games over LONG_GAME) of the best tree; None if none wins."""
    if game.is_terminal(state):
        return None
    best = None
    for guess in game.legal_guesses(state):
        worst, total, long, won = 0, 0, 0, True
        for kind, value in outcomes(game, state, int(guess)):
            if kind == "solved":
                worst, total, long = max(worst, value), total + value, long + (value > LONG_GAME)
                continue
            sub = brute_worst(game, value)
            if sub is None:
                won = False
                break
            worst, total, long = max(worst, sub[0]), total + sub[1], long + sub[2]
        if won and (best is None or (worst, total, long) < best):
            best = (worst, total, long)
    return best


def brute_wins(game: Wordle, state) -> bool:
    """Whether some tree solves every answer still possible within the guesses left."""
    if game.is_terminal(state):
        return False
    return any(all(kind == "solved" or brute_wins(game, value) for kind, value in outcomes(game, state, int(guess)))
               for guess in game.legal_guesses(state))


@settings(max_examples=40, deadline=None)
@given(small_lists)
def test_the_losses_objective_equals_brute_force_and_its_tree_replays(case):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    expected = brute_losses(game, state)
    solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME, objective="losses")
    solution = solver.solve()
    assert (solution.losses, solution.total, solution.long_games) == expected
    assert Objective.LOSSES.unpack(solution.cost)[:3] == expected
    graph = build_tree(game, state, solver.chooser())
    assert graph.graph["total"] == expected[1] and graph.graph["failures"] == expected[0]


@settings(max_examples=40, deadline=None)
@given(small_lists)
@pytest.mark.slow
def test_the_worst_objective_equals_brute_force_and_its_tree_replays(case):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    expected = brute_worst(game, state)
    solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME, objective=Objective.WORST)
    if expected is None:
        with pytest.raises(UserError, match="no tree"):
            solver.solve()
        return
    solution = solver.solve()
    assert (solution.worst, solution.total, solution.long_games) == expected
    graph = build_tree(game, state, solver.chooser())
    assert (graph.graph["worst"], graph.graph["total"], graph.graph["failures"]) == (expected[0], expected[1], 0)


@settings(max_examples=30, deadline=None)
@given(small_lists, st.data())
def test_every_objective_with_an_opener_equals_brute_force_after_it(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1))
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    lost, total, long, worst, won = 0, 0, 0, 0, True
    for kind, value in outcomes(game, state, opener):
        if kind == "solved":
            total, long, worst = total + value, long + (value > LONG_GAME), max(worst, value)
            continue
        sub = brute_losses(game, value)
        lost, total, long = lost + sub[0], total + sub[1], long + sub[2]
        deepest = brute_worst(game, value)
        won = won and deepest is not None
        worst = max(worst, deepest[0]) if deepest else worst
    solution = Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME, objective="losses").solve(opener)
    assert (solution.losses, solution.total, solution.long_games) == (lost, total, long)
    solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME)
    assert solver.opener_wins(opener) == won == (lost == 0)
    worst_solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME, objective="worst")
    if not won:
        with pytest.raises(UserError, match="no tree"):
            worst_solver.solve(opener)
        return
    assert worst_solver.solve(opener).worst == worst
    assert (solver.solve(opener).total, solution.total) == (total, total)


@settings(max_examples=60, deadline=None)
@given(small_lists, st.data())
def test_can_win_equals_brute_force_in_both_modes(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    group = np.array(sorted(data.draw(st.sets(st.integers(0, len(answers) - 1), min_size=1))))
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    state = type(state)(candidates=group, hard=hard, max_guesses=max_guesses)
    solver = Solver(game, hard=hard, max_guesses=max_guesses)
    hints = hints_from([]) if hard else None
    for left in range(1, max_guesses + 1):  # one solver throughout: its win memory must stay right
        expected = brute_wins(game, type(state)(candidates=group, hard=hard, max_guesses=left))
        assert solver.can_win(group, left, hints) == expected, left
        assert Solver(game, hard=hard, max_guesses=left).can_win(group, left, hints) == expected


def test_a_hard_mode_trap_is_no_win_in_every_objective():
    # _ASTE: six answers; after SLATE in hard mode every guess must be ?ASTE-like, one answer a guess
    game = small_game(["baste", "caste", "haste", "paste", "taste", "waste"], ["slate"])
    slate = game.words.guess_index["slate"]
    for max_guesses in (4, 5):
        solver = Solver(game, hard=True, max_guesses=max_guesses)
        assert not solver.opener_wins(slate)
        with pytest.raises(UserError, match=f"no tree solves every answer within {max_guesses} guesses"):
            solver.solve(slate)
        lost = Solver(game, hard=True, max_guesses=max_guesses, objective="losses").solve(slate)
        # SLATE then one ?ASTE word a guess: max_guesses - 1 answers found, the rest lost
        assert lost.losses == 6 - (max_guesses - 1)
    assert Solver(game, hard=True, max_guesses=7).opener_wins(slate)


def test_a_breadth_limited_search_that_finds_no_tree_says_so_rather_than_claiming_none_exists():
    game = small_game(["baste", "caste", "haste", "paste", "taste", "waste"], ["slate"])
    with pytest.raises(UserError) as error:
        Solver(game, max_guesses=3, limits=Limits(top=1)).solve()
    assert "was found among the best 1 guesses a node" in str(error.value)


def test_packed_costs_stay_ints_and_order_lexicographically():
    solver = Solver(small_game(["cater", "later", "water"]), max_guesses=3, objective="losses")
    one_loss = FIRST + 3 * SCALE
    assert isinstance(solver.costs.lost(1), int) and solver.costs.lost(1) > 100 * 6 * SCALE
    assert Objective.LOSSES.unpack(one_loss + 7 * SCALE + 2) == (1, 10, 2, None)


@settings(max_examples=30, deadline=None)
@given(small_lists, st.data())
def test_the_valuation_counts_losses_past_no_win_as_brute_force_does(case, data):
    """Where a guess has no win, every surface's value says how many answers it loses with best play after it
    ("loses N"), and when nothing wins the position's best guess is one losing fewest, then fewest guesses."""
    from search.limits import Budget
    from wordle.valuation import value_position

    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    guess = data.draw(st.integers(0, len(game.words.guesses) - 1))
    valuation = value_position(game, state, [guess], Budget(nodes=None, seconds=None),
                               Solver(game, hard=hard, max_guesses=max_guesses, long_game=LONG_GAME))
    lost = sum(brute_losses(game, value)[0] for kind, value in outcomes(game, state, guess) if kind == "open")
    value = valuation.guesses[guess]
    assert (value.losses_low, value.losses_high) == ((lost, lost) if lost else (0, 0))
    assert value.text() == (f"loses {lost}" if lost else value.text())
    best = brute_losses(game, state)
    if best[0]:  # nothing wins: the best guess loses the fewest, and its tree's guesses are the fewest among those
        assert valuation.value.losses_high == best[0]
        assert valuation.value.losing_guesses * len(state.candidates) == best[1]
    else:
        assert valuation.value.losses_high == 0 and valuation.proved
