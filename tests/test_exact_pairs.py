"""The fixed-pair job: on small lists it equals brute force over every ordered pair; its bounds are bounds; resumed
and verified files."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plumbing.errors import UserError
from wordle import Wordle, load_matrix
from wordle.fixed_starts import value_start
from wordle.solver import SCALE, Solver
from tournament.exact_pairs import (judged_order, pair_bounds, pairs_summary, plan_pairs, read_pairs, run_pairs,
                                    space_words, verify_pairs, word_bound)

from .conftest import run_cli, small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels(session_cache):
    """The solver's compiled kernels built once into the session's cache before these tests (setup, not a test's
    own time)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORDLE_ARENA_CACHE", str(session_cache))
        game = small_game(POOL_ANSWERS[:12], POOL_GUESSES)
        Solver(game).solve()
        Solver(Wordle(game.words, load_matrix(game.words))).solve()


def brute_force_best(game: Wordle, firsts: list[str]) -> tuple[int, int]:
    """(total, games over 5) of the best ordered pair whose first word is one of `firsts`, every one valued."""
    solver = Solver(game)
    values = []
    for a in (game.words.guess_index[w] for w in firsts):
        for b in range(len(game.words.guesses)):
            if a != b:
                value = value_start(solver, (a, b))
                if value.total >= 0:
                    values.append((value.total, value.long_games))
    return min(values)


@pytest.mark.parametrize("answers, guesses, top", [
    (8, 4, None), (9, 5, 3), pytest.param(12, 10, None, marks=pytest.mark.slow)])
def test_the_job_equals_brute_force_and_its_lines_are_true(tmp_path, answers, guesses, top):
    game = small_game(POOL_ANSWERS[:answers], POOL_GUESSES[:guesses])
    words = space_words(game, top)
    plan = plan_pairs(game, 6, words, None, tmp_path / "pairs.jsonl")
    results = run_pairs(game, plan, "test", jobs=1, every_guess=top is None)
    head, _ = read_pairs(plan.out)
    proved = pairs_summary(head, results)
    assert proved["proved_best_over_space"] and proved["proved_best_over_every_pair"] == (top is None)
    assert (proved["best"]["total"], proved["best"]["long_games"]) == brute_force_best(game, words)
    solver = Solver(game)
    index = game.words.guess_index
    for result in results:
        for second, total, long_games, exact in result.pairs:
            value = value_start(solver, (index[result.first], index[second]))
            if exact:
                assert (value.total, value.long_games) == (total, long_games)
            else:  # a bound above the cut-off (a pair with no win at all may be rejected by a bound too)
                assert plan.settings.cut < total and (value.total < 0 or total <= value.total)
    judged = sum(len(r.pairs) + r.bound_cut for r in results)
    assert judged <= proved["ordered_pairs"]
    problems, checked = verify_pairs(game, plan.out)
    assert problems == [] and checked


def test_a_killed_job_resumes_and_a_forged_line_is_refused(tmp_path):
    game = small_game(POOL_ANSWERS[:10], POOL_GUESSES)
    words = space_words(game, 8)
    plan = plan_pairs(game, 6, words, None, tmp_path / "pairs.jsonl")
    first = run_pairs(game, plan, "test", jobs=1)
    lines = plan.out.read_text().splitlines()
    plan.out.write_text("\n".join(lines[:2]) + "\n" + lines[2][:15])  # torn mid-write
    again = run_pairs(game, plan, "test", jobs=1)
    assert [r.pairs for r in again] == [r.pairs for r in first]
    records = [json.loads(line) for line in plan.out.read_text().splitlines()]
    assert sum("session" in r for r in records) == 1
    exact = next((n, r) for n, r in enumerate(records) if "pairs" in r and any(p[3] for p in r["pairs"]))
    number, record = exact
    pair = next(p for p in record["pairs"] if p[3])
    pair[1] -= 1  # an exact total one below the truth: the lines still parse, the proof again disagrees
    records[number] = record
    plan.out.write_text("".join(json.dumps(r) + "\n" for r in records))
    problems, _ = verify_pairs(game, plan.out)
    assert problems and "proved again" in problems[0]
    pair[1] = plan.settings.cut + 5  # an exact total above the cut-off: no line this job writes
    plan.out.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(UserError, match="above the cut-off"):
        read_pairs(plan.out)


small_lists = st.tuples(
    st.lists(st.sampled_from(POOL_ANSWERS), min_size=3, max_size=9, unique=True),
    st.lists(st.sampled_from(POOL_GUESSES), max_size=4, unique=True),
    st.data(),
)


@settings(max_examples=25, deadline=None)
@given(small_lists)
def test_the_cuts_are_lower_bounds(case):
    answers, extra, data = case
    game = small_game(answers, extra)
    solver = Solver(game)
    count = len(game.words.guesses)
    a = data.draw(st.integers(0, count - 1), label="first")
    seconds = np.array([b for b in range(count) if b != a], dtype=np.int64)
    bounds = pair_bounds(solver, a, seconds)
    try:
        opener = Solver(game).solve(a)
    except UserError:  # no tree opening with it wins every answer
        opener = None
    if opener is not None:
        assert word_bound(Solver(game), a, 10**9 * SCALE) <= opener.total * SCALE + opener.long_games
    for b, bound in zip(seconds.tolist(), bounds.tolist()):
        value = value_start(Solver(game), (a, b))
        if value.total >= 0:
            assert bound <= value.total * SCALE + value.long_games
            # the order rule: the other order's total differs only by the two words' own answers
            other = value_start(Solver(game), (b, a))
            one, two = (bool(np.any(game.words.answer_rows == w)) for w in (a, b))
            assert other.total == value.total + one - two
            if judged_order(game, a, b):
                assert value.total <= other.total


def test_pairs_refuses_hard_mode_and_other_flags(capsys):
    for extra, said in [(("--hard",), "normal mode only"), (("--top", "3"), "--words"), (("--words", "5"), None)]:
        argv = ["openers", "--exact", "--pairs", *extra] if said else ["openers", *extra]
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert said is None or said in err
