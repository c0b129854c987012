"""The optimal tree solver: equal to brute force on small lists, admissible bounds, trees that replay."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN, Wordle, load_words
from search.limits import BudgetSpent
from wordle.solver import INFEASIBLE, SCALE, Limits, Solver, unpack
from wordle.solver import bounds
from wordle.solver.bounds import (PAIRWISE_UP_TO, ceiling_least_bound, colour_ceilings, dominated, least_lower_bound,
                                  letter_tables, lower_bounds, transposed)
from wordle.solver.costs import NEVER
from wordle.solver.kernels import fast_ceiling_least_bound, fast_least_bound, fast_lower_bounds
from wordle.hardmode import extend_hints, hints_from
from wordle.tree import build_tree

from .conftest import draw_reply, small_game

# Words from the official lists with many shared letters, so small games have real choices.
POOL_ANSWERS = ["cater", "later", "water", "hater", "eater", "rater", "taper", "caper", "paper", "baker",
                "maker", "taker", "wafer", "safer", "tamer", "lamer", "gamer", "racer", "parer", "cared"]
POOL_GUESSES = ["salet", "crate", "wimpy", "thumb", "blowy", "fight", "champ", "gawks", "pleat", "brown"]


def brute_force(game: Wordle, state, long_game: int) -> tuple[int, int] | None:
    """(total guesses, games over long_game) of the best tree, by trying every legal guess everywhere; None if none wins."""
    best = None
    for guess in game.legal_guesses(state):
        total, long, ok = 0, 0, True
        for pattern, answers in game.partition(state.candidates, int(guess)):
            if pattern == ALL_GREEN:
                number = state.guesses_used + 1
                total, long = total + number, long + (number > long_game)
                continue
            child = game.step(state, int(guess), pattern)
            sub = None if game.is_terminal(child) else brute_force(game, child, long_game)
            if sub is None:
                ok = False
                break
            total, long = total + sub[0], long + sub[1]
        if ok and (best is None or (total, long) < best):
            best = (total, long)
    return best


small_lists = st.tuples(
    st.lists(st.sampled_from(POOL_ANSWERS), min_size=3, max_size=7, unique=True),
    st.lists(st.sampled_from(POOL_GUESSES), max_size=2, unique=True),
    st.integers(min_value=2, max_value=4),
    st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(small_lists)
def test_solver_equals_brute_force(case):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    expected = brute_force(game, state, long_game=2)
    solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=2)
    if expected is None:
        with pytest.raises(Exception, match="no tree"):
            solver.solve()
        return
    solution = solver.solve()
    assert (solution.total, solution.long_games) == expected
    graph = build_tree(game, state, solver.chooser())
    assert graph.graph["total"] == expected[0] and graph.graph["failures"] == 0


@settings(max_examples=30, deadline=None)
@given(small_lists, st.data())
def test_solver_with_an_opener_equals_brute_force_after_it(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    opener = data.draw(st.integers(min_value=0, max_value=len(game.words.guesses) - 1))
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    total, long, ok = 0, 0, True
    for pattern, group in game.partition(state.candidates, opener):
        if pattern == ALL_GREEN:
            total += 1
            continue
        child = game.step(state, opener, pattern)
        sub = None if game.is_terminal(child) else brute_force(game, child, long_game=2)
        if sub is None:
            ok = False
            break
        total, long = total + sub[0], long + sub[1]
    solver = Solver(game, hard=hard, max_guesses=max_guesses, long_game=2)
    if not ok:
        with pytest.raises(Exception, match="no tree"):
            solver.solve(opener)
        return
    solution = solver.solve(opener)
    assert (solution.total, solution.long_games) == (total, long) and solution.guess == opener


@settings(max_examples=40, deadline=None)
@given(small_lists, st.integers(min_value=1, max_value=40))
def test_bounds_never_exceed_the_true_cost(case, budget_guesses):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    left = max_guesses + 1
    everything = np.arange(len(answers))
    hints = hints_from([]) if hard else None
    exact = Solver(game, hard=hard, max_guesses=left).solve_set(everything, left, hints)
    guesses, lower, rest = Solver(game, hard=hard, max_guesses=left).bounds(everything, left, hints)
    assert rest == INFEASIBLE and list(lower) == sorted(lower)
    for guess, bound in zip(guesses, lower):
        true = Solver(game, hard=hard, max_guesses=left).try_guess(everything, left, hints, int(guess), INFEASIBLE)
        assert bound <= true
    assert lower.min(initial=INFEASIBLE) <= exact
    # under a budget: the same guesses in the same order up to it, and the least bound past it
    budget = budget_guesses * SCALE
    cut_guesses, cut_lower, cut_rest = Solver(game, hard=hard, max_guesses=left).bounds(everything, left, hints, budget)
    assert list(cut_guesses) == [guess for guess, bound in zip(guesses, lower) if bound < budget]
    assert cut_rest == min((bound for bound in lower if bound >= budget), default=INFEASIBLE)
    # A budgeted search returns the exact cost below its budget, else a bound between the budget and the cost.
    cut = Solver(game, hard=hard, max_guesses=left).solve_set(everything, left, hints, budget)
    assert cut == exact if exact < budget else budget <= cut <= exact


def test_hand_worked_sets():
    game = small_game(["cater", "later", "water", "hater"], ["wimpy", "champ", "blowy"])
    solver = Solver(game)
    # one answer: one guess; two: three guesses; one guess left and two answers: no tree
    assert solver.solve_set(np.array([0]), 3) == SCALE
    assert solver.solve_set(np.array([0, 1]), 3) == 3 * SCALE
    assert solver.solve_set(np.array([0, 1]), 1) == INFEASIBLE
    # No guess tells all four apart: an answer leaves the other three together (4 + 6 = 10 guesses);
    # CHAMP leaves {cater}, {hater}, {later, water} and BLOWY {later}, {water}, {cater, hater}: 4 + 1 + 1 + 3 = 9.
    solution = solver.solve()
    assert (solution.total, solution.long_games) == (9, 0)
    assert game.words.guesses[solution.guess] in ("champ", "blowy")


def test_top_total_is_an_upper_bound_of_the_proof():
    game = small_game(POOL_ANSWERS[:12], POOL_GUESSES)
    proof = Solver(game).solve()
    for top in (1, 2, 5):
        assert Solver(game, limits=Limits(top=top)).solve().cost >= proof.cost


@pytest.mark.slow
def test_salet_normal_mode_with_the_best_ten_guesses_is_7920(official_game):
    solver = Solver(official_game, limits=Limits(top=10))
    solution = solver.solve(official_game.words.guess_index["salet"])
    assert (solution.total, solution.long_games) == (7920, 0)
    graph = build_tree(official_game, official_game.initial_state(), solver.chooser(solution.guess))
    assert graph.graph["total"] == 7920 and graph.graph["worst"] == 5


@settings(max_examples=30, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_compiled_lower_bounds_equal_the_numpy_reference(official_game, data):
    pytest.importorskip("numba")
    # up to PAIRWISE_UP_TO answers, with most of the guesses asked, the replies are counted pair by pair, else
    # marked: both ways drawn (a few guesses, or all but a few)
    answers = np.array(sorted(data.draw(st.sets(st.integers(0, 2314), min_size=1, max_size=PAIRWISE_UP_TO + 20))))
    few = data.draw(st.sets(st.integers(0, 12971), min_size=1, max_size=50))
    guesses = np.array(sorted(few if data.draw(st.booleans()) else set(range(12972)) - few))
    costs = tuple(data.draw(st.lists(st.integers(0, 1), min_size=3, max_size=3)))
    must_split = data.draw(st.booleans())
    columns = np.ascontiguousarray(official_game.matrix.T)
    fast = fast_lower_bounds()(columns, guesses, answers, costs, must_split)
    slow = lower_bounds(columns, guesses, answers, costs, must_split)
    assert fast_lower_bounds() is not lower_bounds
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])
    assert fast_least_bound()(columns, guesses, answers, costs, must_split) == int(slow[0].min())


def reply_set(game: Wordle, data) -> np.ndarray:
    """A set of answers as a search meets them: one reply's answers to a guess, from a random part of the list."""
    part = np.array(sorted(data.draw(st.sets(st.integers(0, 2314), min_size=1, max_size=1200))))
    guess = data.draw(st.integers(0, 12971))
    codes = game.matrix[guess, part]
    return part[codes == codes[data.draw(st.integers(0, len(part) - 1))]]


def test_colour_ceilings_on_a_hand_worked_pair(official_game):
    game = official_game
    answers = np.array([game.words.answers.index(word) for word in ("crane", "crate")])
    letters = game.guess_letters[game.words.answer_rows]
    # CRANE: C, R, A and E green in both, N green or grey (CRATE has no N): 2, the replies it gets; FUZZY: no letter
    # in either, every position grey: 1; TENOR: O grey, each other letter held by some answer away from its
    # position, so yellow or grey (the ceiling does not look at copies): 2 * 2 * 2 * 1 * 2
    guesses = np.array([game.words.guess_index[word] for word in ("crane", "fuzzy", "tenor")])
    assert colour_ceilings(letters, game.guess_letters, guesses, answers).tolist() == [2, 1, 16]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_colour_ceilings_are_at_least_the_replies(official_game, data):
    game = official_game
    answers = reply_set(game, data)
    guesses = np.array(sorted(data.draw(st.sets(st.integers(0, 12971), min_size=1, max_size=200))))
    ceilings = colour_ceilings(game.guess_letters[game.words.answer_rows], game.guess_letters, guesses, answers)
    replies = np.array([len(np.unique(game.matrix[guess, answers])) for guess in guesses])
    assert (ceilings >= replies).all()


@settings(max_examples=40, deadline=None)
@given(st.data())
@pytest.mark.slow
def test_the_least_bound_read_through_ceilings_equals_every_guess_read(official_game, data):
    pytest.importorskip("numba")
    game = official_game
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bounds, "PRUNE_FIRST", data.draw(st.sampled_from([1, 7, 256])))  # the chunk read at a time
        least_read_through_ceilings_is_every_guess_read(game, data)


def least_read_through_ceilings_is_every_guess_read(game: Wordle, data) -> None:
    answers = reply_set(game, data)
    hard = data.draw(st.booleans())  # a hard-mode set's guesses: those its hints allow
    hints = hints_from([(game.words.guesses[data.draw(st.integers(0, 12971))], data.draw(st.integers(0, 241)))])
    solver = Solver(game, hard=hard)
    guesses = solver.memory.allowed(hints if hard else None)
    # the total objective's costs, or the losses objective's with two guesses left (a lost answer costs 2**32 more)
    costs = data.draw(st.sampled_from([tuple(data.draw(st.lists(st.integers(0, 1), min_size=3, max_size=3))),
                                       Solver(game, objective="losses").costs.step_costs(2)]))
    must_split = data.draw(st.booleans())
    columns = transposed(game)
    # a parent's ceilings (the replies each guess gets from a set holding these), or none
    parent = np.union1d(answers, np.array(sorted(data.draw(st.sets(st.integers(0, 2314), max_size=300))), np.int64))
    ceiling = solver.passes.ceilings(parent, None) if data.draw(st.booleans()) else None
    expected = least_lower_bound(columns, guesses, answers, costs, must_split)
    assert ceiling_least_bound(columns, guesses, answers, costs, must_split, solver.passes.letters, ceiling) == expected
    assert fast_ceiling_least_bound() is not ceiling_least_bound
    assert fast_ceiling_least_bound()(columns, guesses, answers, costs, must_split, solver.passes.letters, ceiling) == expected


def published_totals(mode: str) -> dict[str, int]:
    """The exact totals of the top 20 openers the exact job published (-1: no tree wins every game)."""
    lines = (Path(__file__).resolve().parents[1] / "results" / f"openers-exact-{mode}-top20.jsonl").read_text().splitlines()
    return {record["opener"]: record["total"] for record in map(json.loads, lines[1:]) if "opener" in record}


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_a_rejected_openers_bound_never_exceeds_its_published_total(official_game, hard):
    game = official_game
    totals = published_totals("hard" if hard else "normal")
    cut = min(total for total in totals.values() if total >= 0)
    assert cut == (8122 if hard else 7920)
    for opener, total in totals.items():
        solver = Solver(game, hard=hard)
        solver.node_limit = 60  # the bound as it stands after a short search, sharpened replies and all
        try:
            cost = solver.try_guess(game.all_answers, 6, hints_from([]) if hard else None, game.words.guess_index[opener],
                                    (cut + 1) * SCALE, top_level=True)
        except BudgetSpent:
            cost = solver.stats.bound
        if total >= 0:
            assert unpack(cost)[0] <= total, opener


@settings(max_examples=40, deadline=None)
@given(small_lists, st.data())
def test_sharpened_bounds_guess_bounds_and_rounds_never_exceed_the_true_cost(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    left = max_guesses + 1
    hints = hints_from([]) if hard else None
    everything = np.arange(len(answers))
    group = np.array(sorted(data.draw(st.sets(st.integers(0, len(answers) - 1), min_size=3))))
    exact = Solver(game, hard=hard, max_guesses=left).solve_set(group, left, hints)
    assert Solver(game, hard=hard, max_guesses=left).passes.sharpen(group, left, hints, 0) <= exact
    # a given opener under any limit, one reply at a time or in rounds: exact below it, a true bound past it
    guess = data.draw(st.integers(0, len(game.words.guesses) - 1))
    true = Solver(game, hard=hard, max_guesses=left).try_guess(everything, left, hints, guess, INFEASIBLE)
    # the guess's bound with every reply of 3 answers or more sharpened (benchmarks/bound_every_answer.py's)
    solver = Solver(game, hard=hard, max_guesses=left)
    solver.passes.sharpen_from = 3
    bound, replies = solver.passes.guess_bound(everything, left, hints, guess)
    assert bound <= true
    assert sum(len(group) for group, _, _ in replies) == len(answers) - int(ALL_GREEN in game.matrix[guess, everything])
    assert [len(group) for group, _, _ in replies] == sorted((len(group) for group, _, _ in replies), reverse=True)
    plain = Solver(game, hard=hard, max_guesses=left)  # sharpening only raises: no reply sharpened is at most this
    plain.passes.sharpen_from = len(answers) + 1
    assert plain.passes.guess_bound(everything, left, hints, guess)[0] <= bound
    limit = data.draw(st.integers(1, 40)) * SCALE
    for rounds in (0, 1, 3):
        solver = Solver(game, hard=hard, max_guesses=left)
        solver.rounds, solver.passes.sharpen_from = rounds, data.draw(st.integers(3, 12))
        cost = solver.try_guess(everything, left, hints, guess, limit, top_level=True)
        assert cost == true if true < limit else limit <= cost <= true


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_dead_letter_rule_keeps_the_least_bound_and_a_refining_guess(official_game, data):
    game = official_game
    answers = np.array(sorted(data.draw(st.sets(st.integers(0, 2314), min_size=1, max_size=40))))
    guesses = np.array(sorted(data.draw(st.sets(st.integers(0, 12971), min_size=1, max_size=400))))
    columns, tables = transposed(game), letter_tables(game)
    costs = tuple(data.draw(st.lists(st.integers(0, 1), min_size=3, max_size=3)))
    plain, _ = lower_bounds(columns, guesses, answers, costs, False)
    pruned, _ = lower_bounds(columns, guesses, answers, costs, False, tables)
    assert np.array_equal(fast_lower_bounds()(columns, guesses, answers, costs, False, tables)[0], pruned)
    everyone = game.all_guesses
    full_plain, _ = lower_bounds(columns, everyone, answers, costs, False)
    full_pruned, _ = lower_bounds(columns, everyone, answers, costs, False, tables)
    assert full_pruned.min() == full_plain.min()  # the least bound over every guess is kept
    rows = columns[answers]
    for guess in guesses[dominated(tables, guesses, answers)][:20]:
        # a guess one letter away splits these answers (and so any subset) at least as finely, and it is no answer here
        near = np.flatnonzero((tables.guess_letters != tables.guess_letters[guess]).sum(axis=1) == 1)
        finer = [other for other in near
                 if len(set(zip(rows[:, guess], rows[:, other]))) == len(set(rows[:, other].tolist()))]
        assert finer and ALL_GREEN not in rows[:, guess]


def test_dead_letter_rule_on_hand_picked_words():
    game = small_game(["cater", "later", "water"], ["wimpy"])
    tables = letter_tables(game)
    index = game.words.guess_index
    # no answer has c at all: CATER is LATER with a dead first letter; neither is redundant while c can be the answer
    assert list(dominated(tables, np.array([index["cater"]]), np.array([1, 2]))) == [True]
    assert list(dominated(tables, np.array([index["cater"], index["later"]]), np.array([0, 1, 2]))) == [False, False]


@pytest.mark.slow
def test_the_whole_list_is_proved_winnable_within_5_once_per_solver_in_normal_mode(official_game):
    """opener_wins' one whole-list attempt succeeds within its effort, which makes every later opener's win check
    free in normal mode (the attempt failed silently for a while once the compiled checks counted their work)."""
    pytest.importorskip("numba", reason="the effort is sized for the compiled checks (the `fast` extra)")
    solver = Solver(official_game, hard=False, max_guesses=6)
    assert solver.prover.win_whole_list(5) is True
    nodes = solver.stats.nodes
    assert solver.opener_wins(official_game.words.guess_index["fuzzy"])
    assert solver.stats.nodes == nodes  # every reply inherits the win: no set searched


@pytest.mark.slow
def test_sharpening_raises_salets_bound_strictly_and_stays_within_its_proved_total(official_game):
    """SALET's one-step bound at the root, then guess_bound's with every reply of 3 or more sharpened: strictly
    higher, and still at most the 7920 the published run proved (results/openers-exact-normal-top20.jsonl)."""
    game = official_game
    salet = game.words.guess_index["salet"]
    solver = Solver(game, hard=False, max_guesses=6)
    guesses, lower, _ = solver.bounds(game.all_answers, 6, None)
    root = int(lower[list(guesses).index(salet)])
    solver.passes.sharpen_from = 3
    sharpened = solver.passes.guess_bound(game.all_answers, 6, None, salet)[0]
    assert root < sharpened <= published_totals("normal")["salet"] * SCALE


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("first", [1, 256])
def test_the_least_bound_read_through_ceilings_equals_the_full_pass(official_game, hard, first, monkeypatch):
    monkeypatch.setattr(bounds, "PRUNE_FIRST", first)  # 1: the ceilings alone decide which guesses are read
    game = official_game
    rng = np.random.default_rng(41 + hard)
    solver = Solver(game, hard=hard)
    checked = 0
    while checked < 30:
        state = game.initial_state(hard=hard, max_guesses=6)
        opener = int(rng.integers(len(game.words.guesses)))
        code, parent = max(((int(code), group) for code, group in game.partition(state.candidates, opener)
                            if code != ALL_GREEN), key=lambda reply: len(reply[1]))
        if len(parent) < 200:
            continue
        parent_hints = game.hints(game.step(state, opener, code)) if hard else None
        for guess in rng.choice(solver.memory.allowed(parent_hints), 3, replace=False).tolist():
            for reply, group in game.partition(np.asarray(parent), guess):
                if reply == ALL_GREEN or len(group) < 6:  # as sharpening asks
                    continue
                hints = extend_hints(parent_hints, game.words.guesses[guess], int(reply)) if hard else None
                left = int(rng.integers(2, 6))
                expected = least_lower_bound(transposed(game), solver.memory.allowed(hints), group, solver.costs.step_costs(left),
                                             left == 2)  # every allowed guess read
                expected = INFEASIBLE if expected >= NEVER else expected  # no guess worth trying
                assert solver.passes.least_bound(group, left, hints) == expected
                for ceiling in (solver.passes.ceilings(np.asarray(parent), parent_hints),
                                solver.passes.ceilings(group, hints)):  # its own: the ceilings are exact, no slack
                    assert solver.passes.least_bound(group, left, hints, ceiling) == expected
                checked += 1


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.data())
def test_a_set_searched_again_under_rising_budgets_keeps_its_value_and_true_guess_floors(official_game, data):
    """A set searched under budgets rising a step at a time (as raise_in_rounds does), on one solver, skips the
    guesses an earlier search cut above the new budget (`Solver.guess_floors`): it ends at the value a fresh
    solver finds at once, and every guess floor kept is at most that guess's true cost."""
    game = official_game
    hard = data.draw(st.booleans(), label="hard")
    found = draw_reply(game, data, hard, 15, 80)
    if found is None:
        return
    answers, hints = found
    left = data.draw(st.integers(4, 5), label="left")  # 3 is the compiled search's, which keeps no floors
    exact = Solver(game, hard=hard).solve_set(answers, left, hints)
    if exact >= INFEASIBLE:  # lost within `left`: no budget below INFEASIBLE solves it
        return
    solver, fresh = Solver(game, hard=hard), Solver(game, hard=hard)
    budget, step = solver.floor(len(answers), left), data.draw(st.integers(1, 3), label="step") * SCALE
    while True:
        budget += step
        value = solver.solve_set(answers, left, hints, budget)
        if value < budget:
            break
        assert value <= exact
        for (stored, floors_left, floors_hints), cut in solver.memory.guess_floors.items():
            group = np.frombuffer(stored, dtype=np.uint16).astype(np.int64)
            for guess, bound in cut.items():
                truth = fresh.try_guess(group, floors_left, floors_hints, guess, INFEASIBLE)
                # at or above INFEASIBLE the guess wins no tree: any floor there is true (try_guess returns
                # only a bound at its limit, not the exact cost)
                assert bound <= truth or truth >= INFEASIBLE
    assert value == exact
