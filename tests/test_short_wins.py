"""The compiled three-guess checks (wordle.solver.short_wins), the win and the least cost, against brute force and the
solver's own search, both modes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN, Wordle
from wordle.hardmode import Hints, extend_hints, legal_mask
from wordle.solver import INFEASIBLE, SCALE, Solver
from wordle.solver.short_wins import UNDECIDED, compiled

from .conftest import small_game
from .test_objectives import brute_wins, outcomes
from .test_optimal import brute_force

#: Families that trap hard mode (one letter apart), and a few words that split them.
TRAPS = ["batch", "catch", "hatch", "latch", "match", "patch", "watch", "baste", "caste", "haste", "paste",
         "taste", "waste", "cater", "later", "water", "hater", "eater", "tamer", "gamer"]
SPLITTERS = ["slate", "chomp", "brawl", "might", "whelp"]

games = st.tuples(st.lists(st.sampled_from(TRAPS), min_size=4, max_size=11, unique=True),
                  st.lists(st.sampled_from(SPLITTERS), max_size=3, unique=True), st.booleans())

needs_numba = pytest.mark.skipif(compiled() is None, reason="numba is not installed")


def after_opener(game: Wordle, hard: bool, opener: int, pattern: int, max_guesses: int):
    """The state after `opener` got `pattern`."""
    return game.step(game.initial_state(hard=hard, max_guesses=max_guesses), opener, pattern)


@needs_numba
@settings(max_examples=40, deadline=None)
@given(games, st.data())
def test_the_compiled_check_equals_brute_force_after_any_opener_and_reply(case, data):
    answers, extra, hard = case
    game = small_game(answers, extra)
    root = game.initial_state(hard=hard, max_guesses=3)  # the whole list within three, no hints yet
    assert Solver(game, hard=hard, max_guesses=3).can_win(game.all_answers, 3, None) == brute_wins(game, root)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1))
    replies = [int(code) for code, _ in game.partition(game.all_answers, opener) if code != ALL_GREEN]
    if not replies:
        return
    pattern = data.draw(st.sampled_from(replies))
    state = after_opener(game, hard, opener, pattern, 4)  # three guesses left
    hints = game.hints(state) if hard else None
    group = np.asarray(state.candidates)
    expected = brute_wins(game, state)
    solver = Solver(game, hard=hard, max_guesses=4)
    won = solver.prover.short_win(group, 3, hints, None)
    assert won in (expected, None)
    if won is False:  # its core: a subset lost too
        assert not brute_wins(game, dataclasses.replace(state, candidates=solver.prover.short_core))
    assert solver.can_win(group, 3, hints) == expected
    slow = Solver(game, hard=hard, max_guesses=4)
    slow.prover.short_wins = None  # the solver's own search, uncompiled
    assert slow.can_win(group, 3, hints) == expected
    for guess in game.legal_guesses(state).tolist():  # each guess as the first of the three
        child_ok = all(kind == "solved" or brute_wins(game, value)
                       for kind, value in ((("solved", None) if code == ALL_GREEN else ("open", game.step(state, guess, code)))
                                           for code, _ in game.partition(state.candidates, guess)))
        assert solver.prover.short_win(group, 3, hints, guess) == child_ok, game.words.guesses[guess]
        if not child_ok:  # the answers it names: the guess loses on them too
            core = dataclasses.replace(state, candidates=solver.prover.short_core)
            assert not all(kind == "solved" or brute_wins(game, value) for kind, value in outcomes(game, core, guess))
        assert slow.prover.wins_with(group, 3, hints, guess) == child_ok


@needs_numba
@settings(max_examples=25, deadline=None)
@given(games)
def test_an_opener_wins_in_four_exactly_when_brute_force_says_so(case):
    answers, extra, hard = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=4)
    for opener in range(len(game.words.guesses)):
        expected = all(code == ALL_GREEN or brute_wins(game, game.step(state, opener, code))
                       for code, _ in game.partition(state.candidates, opener))
        assert Solver(game, hard=hard, max_guesses=4).opener_wins(opener) == expected, game.words.guesses[opener]


def test_legal_after_equals_the_hints_of_the_hard_mode_rule():
    if compiled() is None:
        pytest.skip("numba is not installed")
    from wordle.solver import short_wins  # its functions, compiled
    game = Wordle()
    rng = np.random.default_rng(32)
    for guess in rng.choice(len(game.words.guesses), 40, replace=False).tolist():
        for pattern in rng.choice(243, 6, replace=False).tolist():
            hints = extend_hints(Hints(), game.words.guesses[guess], pattern)
            expected = legal_mask(game.guess_letters, game.guess_counts, hints)
            words = rng.choice(len(game.words.guesses), 300, replace=False)
            got = [short_wins.legal_after(game.guess_letters, game.guess_counts, guess, pattern, int(word))
                   for word in words]
            assert got == expected[words].tolist()


@pytest.mark.slow
@needs_numba
def test_the_work_cap_answers_undecided_and_the_search_then_answers():
    game = small_game(TRAPS[:7], ["chomp"])  # _ATCH: seven answers one letter apart
    solver = Solver(game, hard=True, max_guesses=3)
    answers = game.all_answers
    work = np.array([0, 5], dtype=np.int64)
    shorts = compiled()
    won = shorts.can_win3(game.matrix, game.guess_letters, game.guess_counts, True, game.all_guesses,
                          len(game.all_guesses), answers, np.sort(game.words.answer_rows[answers]),
                          game.words.answer_rows, work, np.zeros(len(game.words.answers), np.uint8))
    assert won == UNDECIDED
    assert solver.can_win(answers, 3, None) == brute_wins(game, game.initial_state(hard=True, max_guesses=3))


@needs_numba
@settings(max_examples=20, deadline=None)
@given(st.tuples(st.lists(st.sampled_from(TRAPS), min_size=5, max_size=9, unique=True),
                 st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans()), st.data())
def test_the_quick_certificate_only_claims_wins_brute_force_confirms(case, data):
    answers, extra, hard = case
    game = small_game(answers, extra)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1))
    solver = Solver(game, hard=hard, max_guesses=5)
    for code, _ in game.partition(game.all_answers, opener):
        if code == ALL_GREEN:
            continue
        state = after_opener(game, hard, opener, int(code), 5)  # four guesses left
        hints = game.hints(state) if hard else None
        group = np.asarray(state.candidates)
        expected = brute_wins(game, state)
        assert solver.prover.answers_win(group, 4, hints) in ((True, None) if expected else (None,))
        assert solver.can_win(group, 4, hints) == expected


@needs_numba
def test_a_family_no_guess_tells_apart_is_found_and_one_that_can_be_is_not():
    from wordle.solver import short_wins  # its functions, compiled
    # _ATCH: seven answers alike but for their first letter; CHOMP tells apart C, H, M and P only
    game = small_game(TRAPS[:7], ["chomp"])
    answers = game.all_answers
    work = np.array([0, 1 << 40], dtype=np.int64)
    members, starts = short_wins.unsplit_families(game.matrix, game.guess_letters, game.guess_counts, game.all_guesses,
                                                  len(game.all_guesses), answers, game.words.answer_rows, work)
    assert sorted(members.tolist()) == answers.tolist() and starts.tolist() == [0, 7]
    # three of them (BATCH, LATCH, WATCH) and a guess holding B, L and W: told apart, so no family
    game = small_game(["batch", "latch", "watch"], ["blowy"])
    members, starts = short_wins.unsplit_families(game.matrix, game.guess_letters, game.guess_counts, game.all_guesses,
                                                  len(game.all_guesses), game.all_answers, game.words.answer_rows, work)
    assert members.tolist() == [] and starts.tolist() == [0]


def three_left_costs(game: Wordle, hard: bool, long_game: int, group: np.ndarray, hints, budget: int) -> tuple[int, int]:
    """A set's cost with three guesses left under `budget`, compiled (least_cost3) and by the solver's own loop."""
    fast = Solver(game, hard=hard, max_guesses=4, long_game=long_game)
    slow = Solver(game, hard=hard, max_guesses=4, long_game=long_game)
    slow.prover.short_wins = None  # solve_set's loop in Python, each two-guess reply its own search
    return fast.solve_set(group, 3, hints, budget), slow.solve_set(group, 3, hints, budget)


@needs_numba
@settings(max_examples=40, deadline=None)
@given(games, st.data())
def test_the_compiled_three_guess_cost_equals_the_solvers_own_loop_and_brute_force(case, data):
    answers, extra, hard = case
    game = small_game(answers, extra)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1))
    replies = [int(code) for code, group in game.partition(game.all_answers, opener)
               if code != ALL_GREEN and len(group) >= 3]
    if not replies:
        return
    state = after_opener(game, hard, opener, data.draw(st.sampled_from(replies)), 4)  # three guesses left
    hints = game.hints(state) if hard else None
    group = np.asarray(state.candidates)
    long_game = data.draw(st.integers(2, 4))  # which of the three guesses count as long
    fast, slow = three_left_costs(game, hard, long_game, group, hints, INFEASIBLE)
    assert fast == slow
    expected = brute_force(game, state, long_game)  # guess numbers counted from the game's start
    if expected is None:
        assert fast >= INFEASIBLE
    else:
        assert (fast // SCALE + len(group), fast % SCALE) == expected
        # under a budget: the exact cost below it, else a bound between the budget and the cost, from both
        budget = data.draw(st.integers(fast - 3 * SCALE, fast + SCALE))
        fast_cut, slow_cut = three_left_costs(game, hard, long_game, group, hints, budget)
        for cut in (fast_cut, slow_cut):
            assert cut == fast if fast < budget else budget <= cut <= fast


@needs_numba
@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_the_compiled_three_guess_cost_equals_the_solvers_own_loop_on_the_full_lists(official_game, hard):
    game = official_game
    rng = np.random.default_rng(27 + hard)
    checked = 0
    while checked < 6:
        state = game.initial_state(hard=hard, max_guesses=6)
        for _ in range(3):  # three guesses played, three left
            guess = int(rng.choice(game.legal_guesses(state)))
            replies = [(int(code), group) for code, group in game.partition(state.candidates, guess)
                       if code != ALL_GREEN]
            state = game.step(state, guess, max(replies, key=lambda reply: len(reply[1]))[0])
        group = np.asarray(state.candidates)
        if len(group) < 3:
            continue
        hints = game.hints(state) if hard else None
        fast, slow = three_left_costs(game, hard, 5, group, hints, INFEASIBLE)
        assert fast == slow, (state.history, fast, slow)
        checked += 1
