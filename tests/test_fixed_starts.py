"""Fixed starts: hand-worked totals, the sum over the positions a start leaves (brute force), the swap rule, hard mode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordle import ALL_GREEN, Wordle, load_matrix
from wordle.fixed_starts import (StartError, left_positions, parse_start, start_violation, swapped_total,
                                 value_start)
from wordle.solver import Solver

from .conftest import run_cli, small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES, brute_force


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels(session_cache):
    """The solver's compiled kernels (the three-guess search, the win checks) built once into the session's cache,
    before these tests run: a test's own time is then its own (a fresh test session compiles them anew)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORDLE_ARENA_CACHE", str(session_cache))
        game = small_game(POOL_ANSWERS[:12], POOL_GUESSES)
        Solver(game).solve()
        Solver(game, hard=True).solve()
        # the solver `solve --start` builds (agents.optimal.make_solver), over a matrix read from the cache as the
        # commands read it (a read-only array is another type to the compiler)
        Solver(Wordle(game.words, load_matrix(game.words)), dead_letters=False).solve()


def start_by_brute_force(game, hard: bool, max_guesses: int, words: tuple[int, ...]):
    """(total, games over 5) of the fixed words then best play, answer by answer: each reply sequence's position
    solved by brute force over every tree (tests.test_optimal), None where one cannot be won."""
    total, long = 0, 0
    start = game.initial_state(hard=hard, max_guesses=max_guesses)
    leaves = {}
    for answer in start.candidates.tolist():
        state = start
        for number, word in enumerate(words, start=1):
            code = game.reply(word, answer)
            if code == ALL_GREEN:
                total, long = total + number, long + (number > 5)
                break
            state = game.step(state, word, code)
        else:
            leaves[state.history] = state
    for state in leaves.values():
        if state.guesses_left < 1:
            return None
        found = brute_force(game, state, 5)
        if found is None:
            return None
        total, long = total + found[0], long + found[1]
    return total, long


def test_hand_worked_pair_triple_and_swap():
    # CRANE and CRATE are the answers; LOFTY's T splits them (crane -----, crate ---g-)
    game = small_game(["crane", "crate"], ["lofty"])
    lofty, crane, crate = (game.words.guess_index[w] for w in ("lofty", "crane", "crate"))
    solver = Solver(game)
    # LOFTY, CRANE: crane 2, crate 3 (CRANE at 2 tells it, CRATE at 3)
    pair = value_start(solver, (lofty, crane))
    assert (pair.total, pair.long_games, pair.exact, pair.positions) == (5, 0, True, 1)
    # CRANE, LOFTY: crane 1, crate 3 (LOFTY is played whatever CRANE's reply was)
    assert value_start(Solver(game), (crane, lofty)).total == 4 == swapped_total(game, lofty, crane, 5)
    # LOFTY, CRANE, CRATE: crane 2, crate 3
    assert value_start(Solver(game), (lofty, crane, crate)).total == 5
    # two guesses: crate needs a third after LOFTY, CRANE: no win
    assert value_start(Solver(game, max_guesses=2), (lofty, crane)).total == -1
    # the best opener alone does better: CRANE 1, CRATE 2
    assert Solver(game).solve().total == 3


def test_a_limit_gives_a_bound_at_least_it():
    game = small_game(POOL_ANSWERS[:12], POOL_GUESSES)
    words = parse_start(game, "wimpy,thumb")
    exact = value_start(Solver(game), words)
    cut = value_start(Solver(game), words, limit=(exact.total - 1) * 4096)
    assert exact.exact and not cut.exact and exact.total - 1 <= cut.total <= exact.total


small_starts = st.tuples(
    st.lists(st.sampled_from(POOL_ANSWERS), min_size=3, max_size=8, unique=True),
    st.lists(st.sampled_from(POOL_GUESSES), max_size=3, unique=True),
    st.integers(min_value=3, max_value=5),
    st.data(),
)


@settings(max_examples=30, deadline=None)
@given(small_starts)
def test_a_fixed_start_is_the_sum_of_the_optima_of_the_positions_it_leaves(case):
    answers, extra, max_guesses, data = case
    game = small_game(answers, extra)
    count = data.draw(st.integers(2, 3), label="fixed words")
    words = tuple(data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=count, max_size=count,
                                     unique=True), label="words"))
    value = value_start(Solver(game, max_guesses=max_guesses), words)
    expected = start_by_brute_force(game, False, max_guesses, words)
    assert (value.total, value.long_games) == (expected if expected is not None else (-1, -1))
    if len(words) == 2 and expected is not None:  # the swap rule
        other = value_start(Solver(game, max_guesses=max_guesses), words[::-1])
        assert other.total == swapped_total(game, words[0], words[1], value.total)


@settings(max_examples=30, deadline=None)
@given(small_starts)
def test_hard_mode_starts_are_refused_or_the_sum_of_their_positions(case):
    answers, extra, max_guesses, data = case
    game = small_game(answers, extra)
    words = tuple(data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=2, max_size=2,
                                     unique=True), label="words"))
    start = game.initial_state(hard=True, max_guesses=max_guesses)
    broken = start_violation(game, start, words)
    # the rule, directly: the second word is legal after every reply of the first that leaves a game to play
    legal = all(game.violation(game.step(start, words[0], code), words[1]) is None
                for code, _ in game.partition(start.candidates, words[0]) if code != ALL_GREEN)
    assert (broken is None) == legal
    if legal:
        value = value_start(Solver(game, hard=True, max_guesses=max_guesses), words)
        expected = start_by_brute_force(game, True, max_guesses, words)
        assert (value.total, value.long_games) == (expected if expected is not None else (-1, -1))


def test_hard_mode_names_the_reply_that_breaks_the_start():
    game = small_game(["crane", "crate", "lofty"])
    crane, lofty = game.words.guess_index["crane"], game.words.guess_index["lofty"]
    problem = start_violation(game, game.initial_state(hard=True), (lofty, crane))
    assert problem is not None and problem.startswith("CRANE after LOFTY")
    assert start_violation(game, game.initial_state(), (lofty, crane)) is None  # normal mode binds nothing


def test_bad_starts_are_refused():
    game = small_game(["crane", "crate"], ["lofty"])
    for text, said in [("crane", "2 or 3 words"), ("crane,crane", "given twice"), ("crane,zzzzz", "not an allowed"),
                       ("crane,crate,lofty,crane", "2 or 3 words")]:
        with pytest.raises(StartError, match=said):
            parse_start(game, text)


def test_left_positions_counts_reply_sequences():
    game = small_game(["crane", "crate", "grace"], ["lofty"])
    words = parse_start(game, "lofty,crane")
    # LOFTY: crane -----, crate and grace ---g-; CRANE then: crane hit, crate and grace apart
    assert left_positions(game, words) == 2


def small_lists(tmp_path) -> tuple[str, ...]:
    """--answers and --guesses files of ten -ER answers and the pool's guesses."""
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("\n".join(POOL_ANSWERS[:10]) + "\n")
    guesses.write_text("\n".join(sorted(set(POOL_ANSWERS[:10]) | set(POOL_GUESSES))) + "\n")
    return "--answers", str(answers), "--guesses", str(guesses)


@pytest.mark.slow  # the command's process compiles the solver's kernels for its own matrix
def test_cli_start_total(capsys, tmp_path):
    code, out, err = run_cli(capsys, "solve", "--start", "wimpy,thumb", *small_lists(tmp_path))
    game = small_game(POOL_ANSWERS[:10], POOL_GUESSES)
    expected = start_by_brute_force(game, False, 6, parse_start(game, "wimpy,thumb"))
    assert code == 0 and f"WIMPY,THUMB then best play (normal mode): total {expected[0]} over 10 answers" in out


def test_cli_start_errors(capsys, tmp_path):
    lists = small_lists(tmp_path)
    for start, extra, said in [("wimpy,wimpy", (), "given twice"), ("wimpy,qqqqq", (), "not an allowed guess"),
                               ("cater,later", ("--hard",), "not playable in hard mode"),
                               ("cater,later", ("--ultra",), "not playable in ultra-hard mode"),
                               ("wimpy", (), "2 or 3 words"), ("wimpy,thumb", ("--max-guesses", "2"), "leave no guess"),
                               ("wimpy,thumb", ("--opener", "salet"), "--start"),
                               ("wimpy,thumb", ("--top", "3"), "--start")]:
        code, out, err = run_cli(capsys, "solve", "--start", start, *lists, *extra)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, start


def test_a_review_start_is_computed_or_says_why_not():
    from wordle.fixed_starts import start_against_best

    game = small_game(POOL_ANSWERS[:10], POOL_GUESSES)
    words = parse_start(game, "wimpy,thumb")
    none = start_against_best(game, words)  # no shipped book for these lists: the best opener's optimum unknown
    assert none.value is None and "no opening book" in none.reason and none.extra is None
    assert "not computed" in none.text() and not any(ch.isdigit() for ch in none.text().split("(")[0])
    hard = start_against_best(game, parse_start(game, "cater,later"), hard=True)
    assert hard.value is None and "hard mode" in hard.reason
    assert start_against_best(game, words, ultra=True).reason.startswith("ultra-hard")
    assert none.data()["computed"] is False and none.data()["total"] is None


@pytest.mark.slow
def test_a_review_start_against_the_shipped_book(official_game):
    from wordle.fixed_starts import start_against_best

    words = parse_start(official_game, "parse,clint")
    cost = start_against_best(official_game, words)
    # PARSE,CLINT on the original lists: 8325 (benchmarks/fixed_starts.py); SALET's proved optimum 7920
    assert (cost.value.total, cost.best_opener, cost.best_total, cost.extra) == (8325, "salet", 7920, 405)
    assert "405 more than SALET's proved optimum 7920" in cost.text()
    tight = start_against_best(official_game, words, nodes=1)
    assert tight.value is None and "not settled within 1 sub-problems" in tight.reason


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(POOL_ANSWERS), min_size=2, max_size=6, unique=True),
       st.lists(st.sampled_from(POOL_GUESSES + ["xylyl", "ovoid", "jujus"]), max_size=4, unique=True))
def test_hard_mode_pairs_are_every_pair_the_rule_allows(answers, extra):
    from wordle.fixed_starts import hard_mode_pairs

    game = small_game(answers, extra)
    state = game.initial_state(hard=True)
    count = len(game.words.guesses)
    every = [(a, b) for a in range(count) for b in range(count)
             if a != b and start_violation(game, state, (a, b)) is None]
    assert hard_mode_pairs(game) == every
