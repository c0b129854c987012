"""Valuing a position within a budget: hand-worked values, brute force as the oracle, bounds that hold when cut short."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN
from wordle.solver import Solver
from commands.budgets import parse_budget
from wordle.valuation import GUESS_SHARE, SAFETY_SECONDS, VALUE_NODES, Budget, Value, default_budget, maybe_better, order_key, rank_key, value_position

from .conftest import run_cli, small_game
from .test_optimal import brute_force, small_lists

UNLIMITED = Budget(seconds=None)


def hand_game():
    """Four answers no guess tells apart, and two guesses that split them into 1 + 1 + 2."""
    return small_game(["cater", "later", "water", "hater"], ["wimpy", "champ", "blowy"])


def test_hand_worked_values():
    game = hand_game()
    index = game.words.guess_index
    state = game.initial_state()
    valuation = value_position(game, state, [index["cater"], index["wimpy"]], UNLIMITED)
    # CHAMP: 4 guesses, then {cater} and {hater} 1 each, {later, water} 3: 9 over 4 answers
    assert game.words.guesses[valuation.best] in ("champ", "blowy") and valuation.proved
    assert valuation.value == Value(2.25, 2.25, 2.25) and valuation.value.text() == "2.250"
    # CATER: itself once, then {later, water, hater} by an answer each time: 1 + 3 + 5 = 4 + 6 = 10
    assert valuation.guesses[index["cater"]] == Value(2.5, 2.5, 2.5)
    # WIMPY picks out WATER (its W), then CHAMP tells the other three apart: 4 + 1 + (3 + 3) = 11
    assert valuation.guesses[index["wimpy"]] == Value(2.75, 2.75, 2.75)


def test_out_of_guesses_is_infinite_and_one_answer_is_one_guess():
    game = hand_game()
    index = game.words.guess_index
    # two guesses for four answers: the second must be the answer, and no guess tells all four apart
    valuation = value_position(game, game.initial_state(max_guesses=2), [index["champ"], index["cater"]], UNLIMITED)
    assert valuation.proved and valuation.value.low == math.inf
    # past "no win", the fewest answers lost: CHAMP (or BLOWY) splits off CATER and HATER, then one of LATER and
    # WATER is lost: champ 1 + (2 + 2 + 2 + a loss counted 3) = 9 guesses, 2.25 an answer
    assert game.words.guesses[valuation.best] in ("champ", "blowy") and valuation.value.text() == "loses 1"
    assert valuation.guesses[index["champ"]] == Value(math.inf, math.inf, math.inf, 1, 1, 2.25)
    # CATER first: right once, else one guess for three answers its reply cannot tell apart: 1 + 2 + 3 + 3
    assert valuation.guesses[index["cater"]] == Value(math.inf, math.inf, math.inf, 2, 2, 2.25)
    assert valuation.guesses[index["cater"]].text() == "loses 2"
    state = game.step(game.initial_state(), index["champ"], game.reply(index["champ"], 0))  # cater's reply: alone
    valuation = value_position(game, state, [index["later"]], UNLIMITED)
    assert game.words.guesses[valuation.best] == "cater" and valuation.value == Value(1.0, 1.0, 1.0)
    assert valuation.guesses[index["later"]] == Value(2.0, 2.0, 2.0)


def test_bad_requests_are_refused():
    game = hand_game()
    index = game.words.guess_index
    with pytest.raises(ValueError, match="game is over"):
        value_position(game, game.step(game.initial_state(), index["cater"], ALL_GREEN))
    with pytest.raises(ValueError, match="exact one"):
        value_position(game, game.initial_state(), solver=Solver(game, hard=True))
    hard = game.step(game.initial_state(hard=True), index["cater"], game.reply(index["cater"], 1))
    with pytest.raises(ValueError, match="hard mode"):
        value_position(game, hard, [index["wimpy"]])
    with pytest.raises(ValueError):
        Budget(seconds=0)


def exact_value(game, state, guess, long_game):
    """A guess's brute-force value per answer (math.inf if it cannot win every game), from brute_force."""
    total, ok = 0, True
    for pattern, answers in game.partition(state.candidates, guess):
        if pattern == ALL_GREEN:
            total += state.guesses_used + 1
            continue
        child = game.step(state, guess, pattern)
        sub = None if game.is_terminal(child) else brute_force(game, child, long_game)
        if sub is None:
            return math.inf
        total += sub[0]
    return (total - state.guesses_used * len(state.candidates)) / len(state.candidates)


@settings(max_examples=40, deadline=None)
@given(small_lists, st.data())
def test_values_equal_brute_force_and_bounds_hold_under_any_budget(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    if data.draw(st.booleans()):  # a position after one step
        first = data.draw(st.integers(0, len(game.words.guesses) - 1))
        answer = data.draw(st.integers(0, len(answers) - 1))
        if game.reply(first, answer) == ALL_GREEN or max_guesses < 3:
            return
        state = game.step(state, first, game.reply(first, answer))
    legal = [int(guess) for guess in game.legal_guesses(state)]
    asked = data.draw(st.lists(st.sampled_from(legal), max_size=3, unique=True))
    best = brute_force(game, state, long_game=2)
    best_value = math.inf if best is None else (best[0] - state.guesses_used * len(state.candidates)) / len(state.candidates)
    full = value_position(game, state, asked, UNLIMITED, Solver(game, hard=hard, max_guesses=max_guesses, long_game=2))
    assert full.proved and full.value.low == pytest.approx(best_value) if math.isfinite(best_value) else full.value.low == math.inf
    for guess in asked:
        expected = exact_value(game, state, guess, long_game=2)
        assert full.guesses[guess].proved and full.guesses[guess].low == pytest.approx(expected)
    if math.isfinite(best_value):
        assert exact_value(game, state, full.best, long_game=2) == pytest.approx(best_value)
    # cut short after a few nodes: the truth lies between the bounds, and the estimate too
    cut = value_position(game, state, asked, Budget(seconds=None, nodes=data.draw(st.integers(1, 4))),
                         Solver(game, hard=hard, max_guesses=max_guesses, long_game=2))
    for guess, value in [(cut.best, cut.value), *cut.guesses.items()]:
        truth = best_value if value is cut.value else exact_value(game, state, guess, long_game=2)
        assert value.low <= truth + 1e-9 and truth <= value.high + 1e-9
        assert value.low <= value.estimate <= value.high
    if cut.proved:
        assert cut.value.low == pytest.approx(best_value) if math.isfinite(best_value) else cut.value.low == math.inf


@pytest.mark.slow
def test_official_position_within_a_budget(official_game):
    game = official_game
    state = game.step(game.initial_state(), game.words.guess_index["fuzzy"], 0)
    valuation = value_position(game, state, [game.words.guess_index["crane"]], Budget(seconds=None, nodes=200))
    # the node limit is checked at every node: the position's 200, then the asked guess's own share of them
    assert not valuation.proved and valuation.nodes <= 200 + 1 + int(200 * GUESS_SHARE) + 1
    assert valuation.value.low <= valuation.value.estimate <= valuation.value.high
    assert valuation.guesses[game.words.guess_index["crane"]].low >= valuation.value.low


@pytest.mark.parametrize("argv, message", [
    (("solve", "crane:-----", "--budget", "5x"), "argument --budget: '5x' is not a budget: write nodes"),
    (("solve", "crane:-----", "--budget", "0s"), "argument --budget: '0s' is not a budget"),
    (("solve", "crane:-----", "--budget", "１s"), "argument --budget: '１s' is not a budget"),
    (("solve", "crane:-----", "--budget", "2000M"), "argument --budget: '2000M' is not a budget"),
    (("solve", "crane:-----", "--budget", "1e5"), "argument --budget: '1e5' is not a budget"),
    (("solve", "crane:-----", "--opener", "salet"), "--opener, --top, --prove and --out solve the whole tree"),
    (("solve", "crane:-----", "sloth:ggggg", "--budget", "9"), "the game is over after these steps"),
    (("solve", "crane-----"), "'crane-----' is not a step"),
    (("solve", "crane:ggggg", "--budget", "9"), "the game is over after these steps"),
    (("solve", "crane:-----", "--nodes", "9"), "solve takes its node budget as --budget N (here --budget 9)"),
    (("solve", "--nodes", "0"), "solve takes its node budget as --budget N (here --budget 0)"),
    (("solve", "crane:g----", "--guess", "sloth", "--hard"), "sloth: hard mode"),
])
def test_solve_refuses_bad_positions_in_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("text, budget", [
    ("5000", Budget(nodes=5000)), ("200k", Budget(nodes=200_000)), ("1.5M", Budget(nodes=1_500_000)),
    ("5s", Budget(seconds=5.0)), ("500ms", Budget(seconds=0.5)), (" 2K ", Budget(nodes=2000)),
])
def test_budgets_read_both_forms(text, budget):
    assert parse_budget(text) == budget


def test_the_default_budget_counts_nodes_and_only_caps_time():
    for hard in (False, True):
        budget = default_budget(hard)
        assert budget.nodes == VALUE_NODES[hard] and budget.seconds == SAFETY_SECONDS


def test_solve_values_a_position_from_steps(capsys):
    code, out, err = run_cli(capsys, "solve", "crane:-----", "--guess", "slate", "--budget", "100000")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("after crane:----- (263 answers left, normal mode, 5 guesses left)")
    # SLOTH proved optimal there (2.795 per answer, 735 guesses over 263); SLATE proved at 3.171
    assert lines[1] == "best SLOTH: 2.795 guesses per answer, proved optimal"
    assert lines[2] == "guess SLATE: 3.171 guesses per answer, proved"


# -- the ranking rule: what is achieved first, never a lower bound --------------------------------------------


def test_a_proved_value_ranks_above_a_lower_bound_with_no_tree():
    proved, bound_only, tree = Value(3.508, 3.508, 3.508), Value(2.935, math.inf, 2.935), Value(3.4, 3.6, 3.6)
    ranked = sorted([bound_only, tree, proved], key=rank_key)
    assert ranked == [proved, tree, bound_only]
    assert maybe_better(bound_only, proved) and not maybe_better(tree, proved)
    assert not maybe_better(Value(3.9, math.inf, 3.9), proved)  # its bound is past the leader: not better
    assert not maybe_better(bound_only, Value(3.0, math.inf, 3.1))  # nor when the leader has no tree either
    # fewer achievable losses first, whatever the guesses
    assert sorted([Value(3.0, 3.0, 3.0, 1, 1), Value(3.9, 3.9, 3.9)], key=rank_key)[0].low == 3.9
    # a tighter interval first among equal highs; then an answer, then the lower index
    assert order_key(Value(3.6, 3.6, 3.6), False, 9) < order_key(Value(3.5, 3.6, 3.6), True, 1)
    assert order_key(Value(3.6, 3.6, 3.6), True, 9) < order_key(Value(3.6, 3.6, 3.6), False, 1)


def test_losses_read_as_losses_not_guesses():
    assert Value(math.inf, math.inf, math.inf, 2, 2).text() == "loses 2"
    assert Value(math.inf, math.inf, math.inf, 1, 3).text() == "loses ≥ 1"


def first_of(game, state, valuation):
    """The first suggestion of a valuation by the house order (as assist ranks its suggestions)."""
    found = [*valuation.guesses.items(), (valuation.best, valuation.value)]
    wins = game.can_win(state.candidates, np.array([guess for guess, _ in found]))
    return min(((guess, value) for guess, value in found),
               key=lambda item: order_key(item[1], bool(wins[[g for g, _ in found].index(item[0])]), item[0]))


@settings(max_examples=30, deadline=None)
@given(small_lists, st.data())
@pytest.mark.slow
def test_more_budget_never_suggests_a_worse_guess(case, data):
    answers, extra, max_guesses, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    legal = [int(guess) for guess in game.legal_guesses(state)]
    more_budget_never_suggests_worse(game, state, data.draw(st.lists(st.sampled_from(legal), max_size=4, unique=True)))


def test_an_asked_guess_proved_worse_than_the_unfound_best_ranks_first_within_the_floor():
    """Found by the test above: SALET, asked, is proved at 2.33 within 1 node and ranks first, the best (2.17) not yet
    found; its regret is within the gap from its proved cost to the position's floor, not within its own interval."""
    game = small_game(["safer", "water", "lamer", "cater", "maker", "caper"], ["salet", "crate"])
    state = game.initial_state(hard=False, max_guesses=3)
    more_budget_never_suggests_worse(game, state, [game.words.guess_index["salet"]])


def more_budget_never_suggests_worse(game, state, asked: list[int]) -> None:
    """From 1 to 15 nodes: the first suggestion never gets worse, and is never worse than the best by more than the
    distance from its proved cost to the position's proved floor."""
    hard, max_guesses = state.hard, state.max_guesses
    best = brute_force(game, state, long_game=2)
    if best is None:
        return
    best_value = (best[0] - state.guesses_used * len(state.candidates)) / len(state.candidates)
    before = math.inf
    for nodes in range(1, 16):
        valuation = value_position(game, state, asked, Budget(seconds=None, nodes=nodes),
                                   Solver(game, hard=hard, max_guesses=max_guesses, long_game=2))
        guess, shown = first_of(game, state, valuation)
        truth = exact_value(game, state, guess, long_game=2)
        assert truth <= before + 1e-9, f"{nodes} nodes suggest a worse guess than {nodes - 1}"
        if shown.has_tree:  # the suggestion is at most its proved cost above the position's proved floor
            assert truth - best_value <= shown.high - min(shown.low, valuation.value.low) + 1e-9
        before = truth


def busy_processes(count: int) -> list:
    """Start `count` processes that only spin (the caller stops each one by its handle)."""
    import subprocess
    import sys
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


@pytest.mark.slow
def test_the_same_advice_on_a_busy_machine_and_an_idle_one(official_game):
    """A node budget gives the same values, bounds and best guess whatever else the machine runs."""
    game = official_game
    index = game.words.guess_index
    state = game.step(game.initial_state(), index["fuzzy"], 0)
    asked = [index["crane"], index["slate"]]
    budget = Budget(nodes=60, seconds=SAFETY_SECONDS)
    solver = Solver(game)
    idle = value_position(game, state, asked, budget, solver)
    spinning = busy_processes(4)
    try:
        busy = value_position(game, state, asked, budget, Solver(game))
    finally:
        for process in spinning:
            process.kill()
            process.wait()
    assert not idle.proved and not idle.capped and not busy.capped
    assert (busy.best, busy.value, busy.guesses, busy.nodes) == (idle.best, idle.value, idle.guesses, idle.nodes)
    value_position(game, game.step(game.initial_state(), index["mummy"], 0), (), budget, solver)
    again = value_position(game, state, asked, budget, solver)  # what the solver valued before changes nothing
    assert (again.best, again.guesses, again.nodes) == (idle.best, idle.guesses, idle.nodes)
    alone = value_position(game, state, asked[1:], budget, solver)  # nor what else was asked
    assert alone.value == idle.value and alone.guesses[asked[1]] == idle.guesses[asked[1]]
    assert not idle.guesses[asked[1]].proved


@pytest.mark.slow
def test_a_result_cut_by_the_time_cap_says_so(official_game, capsys):
    game = official_game
    state = game.step(game.initial_state(), game.words.guess_index["fuzzy"], 0)
    cut = value_position(game, state, (), Budget(nodes=10**6, seconds=0.001), Solver(game))
    assert cut.capped and not cut.proved
    code, out, err = run_cli(capsys, "solve", "fuzzy:-----", "--budget", "1ms")
    assert code == 0 and "cut by the time cap; the result may differ on another machine" in out


def test_a_position_with_no_win_advises_the_guess_losing_fewest_on_every_surface(capsys):
    """After TRACE in hard mode, y-yg- leaves seven ?ATCH words and five guesses: every legal guess must keep ATCH
    (its greens and yellows), so each tells one answer apart and two are lost whatever is played."""
    code, out, _ = run_cli(capsys, "solve", "--hard", "trace:y-yg-", "--guess", "bract")
    assert code == 0
    assert "best BATCH: no tree wins every game within the guess limit: 2 answers are lost" in out
    assert "guess BRACT: no tree wins" in out and out.count("shown as loses 2") == 2
    code, out, _ = run_cli(capsys, "assist", "--hard", "--answers", "original", "--json", "--top", "3", "trace:y-yg-")
    first = json.loads(out)["suggestions"][0]
    assert code == 0 and first["guess"] == "batch" and first["value"]["text"] == "loses 2"
    assert first["value"]["answers_lost"] == {"at_least": 2, "at_most": 2}


@pytest.mark.slow
def test_a_solver_that_valued_before_values_as_a_fresh_one(official_game):
    """The guess bounds an unsolved set keeps (`Solver.guess_floors`) go with the memory: a valuation that empties
    the memory empties them too, so a solver valuing a state again, under a node budget that leaves it unproved,
    gives a fresh solver's bounds (kept across, they let the second search skip guesses and reach further)."""
    game = official_game
    index = game.words.guess_index
    state = game.step(game.initial_state(), index["fuzzy"], 0)
    budget = Budget(nodes=400, seconds=SAFETY_SECONDS)
    solver = Solver(game)
    first = value_position(game, state, [index["slate"]], budget, solver)
    again = value_position(game, state, [index["slate"]], budget, solver)
    fresh = value_position(game, state, [index["slate"]], budget, Solver(game))
    assert not first.proved
    assert (again.value, again.guesses, again.nodes) == (first.value, first.guesses, first.nodes)
    assert (fresh.value, fresh.guesses, fresh.nodes) == (first.value, first.guesses, first.nodes)
