"""The parts of a big set (wordle.solver.parts.Parts): ceilings that never fall below a guess's real count of replies,
compiled helpers equal to their readable references, and Selby's peak floor below the least one-step bound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordle import ALL_GREEN, Wordle
from wordle.hardmode import extend_hints
from wordle.solver import INFEASIBLE, SCALE, Solver
from wordle.solver.bounds import group_features, least_lower_bound, least_rows, transposed
from wordle.solver.costs import NEVER, NO_ROOM
from wordle.solver.kernels import fast_parts
from wordle.solver.parts import Parts
from wordle.solver.passes import CEILINGS_FROM

from .conftest import draw_reply


def big_set(game: Wordle, data, hard: bool):
    """A reply of at least 100 answers to a drawn opener, and its hints (None in normal mode)."""
    while True:
        found = draw_reply(game, data, hard, 100)
        if found is not None:
            return found


def inner_set(game: Wordle, data, answers: np.ndarray, hints, hard: bool):
    """A set inside `answers`: a reply to a drawn guess there (one or two steps down), or a drawn subset of one."""
    group, group_hints = answers, hints
    for _ in range(data.draw(st.integers(1, 2), label="depth")):
        guess = data.draw(st.integers(0, len(game.words.guesses) - 1), label="guess")
        code, inner = max(((int(code), g) for code, g in game.partition(group, guess)), key=lambda r: len(r[1]))
        group_hints = extend_hints(group_hints, game.words.guesses[guess], code) if hard else None
        group = np.asarray(inner)
    if data.draw(st.booleans(), label="thin") and len(group) > 3:
        keep = data.draw(st.lists(st.booleans(), min_size=len(group), max_size=len(group)), label="keep")
        group = group[np.asarray(keep, bool)] if any(keep) else group[:1]
    return group, group_hints


def nested_sets(game: Wordle, data, hard: bool):
    """A big set and its hints (`big_set`), and a set inside it and its hints (`inner_set`)."""
    answers, hints = big_set(game, data, hard)
    return (answers, hints, *inner_set(game, data, answers, hints, hard))


@settings(max_examples=40, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_a_part_ceiling_is_never_below_the_replies_a_guess_gets(official_game, data):
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    solver = Solver(game, hard=hard)
    answers, hints, group, _ = nested_sets(game, data, hard)
    parts = Parts(solver.passes, answers, hints)
    ceiling, top = parts.ceilings_of(group)
    guesses = solver.memory.allowed(hints)
    replies = np.array([len(np.unique(game.matrix[guess, group])) for guess in guesses])
    assert (ceiling[guesses] >= replies).all()
    assert top == ceiling[guesses].max() >= replies.max()
    # each feature it used really holds every answer of the group
    for feature in parts.holding(group).tolist():
        letters = solver.passes.letters[0][group]
        if feature < 26:
            assert (letters == feature).any(axis=1).all()
        elif feature < 52:
            assert not (letters == feature - 26).any()
        else:
            place, letter = divmod(feature - 52, 26)
            assert (letters[:, place] == letter).all()


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_least_bound_through_part_ceilings_equals_every_guess_read(official_game, data):
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    solver = Solver(game, hard=hard)
    answers, hints, group, group_hints = nested_sets(game, data, hard)
    left = data.draw(st.integers(2, 5), label="left")
    expected = least_lower_bound(transposed(game), solver.memory.allowed(group_hints), group, solver.costs.step_costs(left),
                                 left == 2)
    expected = INFEASIBLE if expected >= NEVER else expected
    ceiling, _ = Parts(solver.passes, answers, hints).ceilings_of(group)
    assert solver.passes.least_bound(group, left, group_hints, ceiling) == expected


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_compiled_part_helpers_equal_their_references(official_game, data):
    pytest.importorskip("numba")
    game = official_game
    solver = Solver(game)
    features, rows_least = fast_parts()
    assert features is not group_features and rows_least is not least_rows
    group = np.array(sorted(data.draw(st.sets(st.integers(0, 2314), min_size=1, max_size=60), label="group")))
    if data.draw(st.booleans(), label="one family"):  # answers sharing letters, so that features hold
        letter = data.draw(st.integers(0, 25), label="letter")
        holders = np.flatnonzero((solver.passes.letters[0] == letter).any(axis=1))
        group = np.intersect1d(group, holders) if len(np.intersect1d(group, holders)) else holders[:5]
    worth = np.array(data.draw(st.lists(st.booleans(), min_size=52 + 130, max_size=52 + 130), label="worth"))
    assert features(solver.passes.letters[0], group, worth).tolist() == group_features(solver.passes.letters[0], group,
                                                                                worth).tolist()
    rng = np.random.default_rng(data.draw(st.integers(0, 1000), label="seed"))
    rows = rng.integers(0, 300, size=(8, 50))
    first = rng.integers(0, 300, size=50)
    first[rng.random(50) < 0.3] = NO_ROOM  # guesses the set does not allow: left out of the most
    rows[:, rng.random(50) < 0.2] = NO_ROOM
    chosen = np.array(sorted(data.draw(st.sets(st.integers(0, 7), max_size=8), label="rows")), np.int64)
    fast_out, slow_out = np.empty(50, np.int64), np.empty(50, np.int64)
    most = rows_least(first, rows, chosen, fast_out)
    assert most == least_rows(first, rows, chosen, slow_out) == slow_out[slow_out < NO_ROOM].max(initial=0)
    assert fast_out.tolist() == slow_out.tolist()


def test_features_of_a_hand_worked_group(official_game):
    game = official_game
    solver = Solver(game)
    group = np.array([game.words.answers.index(word) for word in ("fight", "light", "night")])
    found = group_features(solver.passes.letters[0], group, np.ones(52 + 130, bool)).tolist()
    letter = {c: i for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")}
    held = sorted(letter[c] for c in "ight")
    lacked = sorted(26 + i for c, i in letter.items() if c not in "fighlnt")
    places = [52 + 26 * place + letter[c] for place, c in ((1, "i"), (2, "g"), (3, "h"), (4, "t"))]
    assert found == held + lacked + places


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_peak_floor_is_never_above_the_least_one_step_bound(official_game, data):
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    limit = data.draw(st.sampled_from([5, 6]), label="max guesses")
    solver = Solver(game, hard=hard, max_guesses=limit, objective=data.draw(st.sampled_from(["total", "losses"])))
    answers, hints, group, group_hints = nested_sets(game, data, hard)
    left = data.draw(st.integers(2, limit - 1), label="left")
    least = solver.passes.least_bound(group, left, group_hints)
    parts = Parts(solver.passes, answers, hints)
    _, most = parts.ceilings_of(group)  # the set's peak, and the part ceilings' most
    for peak in (parts.peak, most):
        assert solver.floor(len(group), left) <= solver.costs.peak_floor(len(group), left, peak) <= least


@settings(max_examples=30, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_hard_mode_replies_are_bounded_as_known_floor_bounds_them(official_game, data):
    # guess_bound writes hard mode's common case out (a reply of one or two answers, or one no memory holds): with a
    # limit of 0 it stops before sharpening, so every reply's (floor, hints) is known_floor's, memory or not
    game = official_game
    solver = Solver(game, hard=True)
    answers, hints = big_set(game, data, True)
    answers = answers[:600]  # below the big sets whose replies get peak floors
    left = data.draw(st.integers(2, 6), label="left")
    guesses = solver.memory.allowed(hints)
    for _ in range(data.draw(st.integers(0, 3), label="solved first")):  # some sets in the memory
        guess = int(guesses[data.draw(st.integers(0, len(guesses) - 1), label="guess")])
        solver.try_guess(answers, left, hints, guess, INFEASIBLE)
    guess = int(guesses[data.draw(st.integers(0, len(guesses) - 1), label="guess")])
    _, replies = solver.passes.guess_bound(answers, left, hints, guess, 0)
    for group, code, bound in replies:
        assert bound == solver.passes.known_floor(group, left - 1, hints, code, guess)


@settings(max_examples=4, deadline=None)
@given(st.data())
def test_a_big_sets_guess_bound_is_every_reply_at_its_least_one_step_bound(official_game, data):
    # a set of 700+ answers (peak floors, part ceilings, bounds from ceilings alone, then the passes): with no limit
    # every reply of six or more answers ends at the least one-step bound over every guess there, read in full
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    solver = Solver(game, hard=hard)
    state = game.initial_state(hard=hard)
    opener = data.draw(st.sampled_from(["fuzzy", "mummy", "quill", "jujus", "kudzu"]), label="opener")
    answers = np.asarray(game.step(state, game.words.guess_index[opener], 0).candidates)
    assert len(answers) >= CEILINGS_FROM
    hints = None if not hard else game.hints(game.step(state, game.words.guess_index[opener], 0))
    guess = data.draw(st.integers(0, len(game.words.guesses) - 1), label="guess")
    left = data.draw(st.integers(4, 5), label="left")  # no reply with two guesses left: none is lost
    total, replies = solver.passes.guess_bound(answers, left, hints, guess)
    expected = len(answers) * SCALE
    columns = transposed(game)
    for code, group in game.partition(answers, guess):
        if code == ALL_GREEN:
            expected += solver.costs.hit(left) - SCALE
            continue
        floor = solver.floor(len(group), left - 1)
        if len(group) >= solver.passes.sharpen_from:
            group_hints = extend_hints(hints, game.words.guesses[guess], int(code)) if hard else None
            least = least_lower_bound(columns, solver.memory.allowed(group_hints), np.asarray(group),
                                      solver.costs.step_costs(left - 1), left - 1 == 2)
            floor = max(floor, INFEASIBLE if least >= NEVER else least)
        expected += floor
    assert total == expected


@settings(max_examples=12, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_every_remembered_bound_is_at_least_the_one_step_bound(official_game, data):
    """`sharpen` takes a remembered bound as already sharpened: every bound the memory holds, exact or not, is at
    least the least one-step bound of its set (what sharpen would read). Checked over a search cut by a budget,
    so that bounds short of exact are remembered too, under both objectives that sum replies."""
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    objective = data.draw(st.sampled_from(["total", "losses"]), label="objective")
    solver = Solver(game, hard=hard, objective=objective)
    found = draw_reply(game, data, hard, 20, 150)
    if found is None:
        return
    answers, hints = found
    left = data.draw(st.integers(3, 5), label="left")
    floor = solver.floor(len(answers), left)
    budget = floor + data.draw(st.integers(0, 4 * len(answers)), label="slack") * SCALE // 2
    solver.solve_set(answers, left, hints, budget)
    assert solver.memo
    width = np.uint16 if solver.memory.narrow else np.int64
    for (stored, remembered_left, remembered_hints), (bound, exact, _) in solver.memo.items():
        group = np.frombuffer(stored, dtype=width).astype(np.int64)
        one_step = solver.passes.least_bound(group, remembered_left, remembered_hints)
        assert bound >= one_step
        assert exact < 0 or exact >= one_step
