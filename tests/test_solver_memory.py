"""The solver's memory (wordle.solver.memory.Memory) on its own and in a search: what is forgotten together, the size
limits, and what a bound or a verdict kept may claim (never more than is true)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle.hardmode import Hints, hints_from, legal_mask
from wordle import feedback
from wordle.solver import INFEASIBLE, SCALE, Limits, Solver
from wordle.solver import memory as memory_module
from wordle.solver.costs import NO_LIMIT
from wordle.solver.memory import Forgetful, Memory

from .conftest import small_game
from .games import TRAP
from .test_lost_cores import brute_wins_under
from .test_optimal import POOL_ANSWERS, POOL_GUESSES, brute_force
from .test_short_wins import SPLITTERS, TRAPS

GAME = small_game(POOL_ANSWERS[:12], POOL_GUESSES[:4])


def answers_of(*indices: int) -> np.ndarray:
    """An ascending set of answer indices."""
    return np.array(sorted(indices), dtype=np.int64)


def filled(memory: Memory) -> None:
    """Something in every cache the memory keeps."""
    memory.remember(memory.key(answers_of(0, 1, 2), 4, None), 9 * SCALE, -1, -1)
    memory.keep_guess_floors(memory.key(answers_of(0, 1, 2), 4, None), {3: 10 * SCALE, 4: 11 * SCALE})
    memory.record_verdict(memory.win_key(answers_of(3, 4, 5), None), 2, False, answers_of(3, 4), 3)
    memory.record_verdict(memory.win_key(answers_of(6, 7, 8), None), 3, True, answers_of(), 3)
    memory.lost_cores.add(answers_of(3, 4), 0b1, 4)
    memory.three_cores.add(answers_of(3, 4), 0b1, 3)
    memory.remember_winner((3, None), 5)
    memory.allowed(Hints(fixed=((0, "c"),)))
    memory.legal_bits(None)


# -- what is forgotten together -----------------------------------------------------------------------------
def test_forget_memory_forgets_the_sub_problems_and_their_guess_floors_and_nothing_of_the_wins():
    memory = Memory(GAME, 100)
    filled(memory)
    wins, cores, winners = dict(memory.wins), dict(memory.cores), dict(memory.winners)
    memory.forget_memory()
    assert memory.memo == {} and memory.guess_floors == {} and memory.guess_floor_count == 0
    assert memory.wins == wins and memory.cores.keys() == cores.keys() and memory.winners == winners
    assert len(memory.lost_cores) == len(memory.three_cores) == 1


def test_forget_wins_forgets_verdicts_cores_and_winners_and_nothing_of_the_sub_problems():
    memory = Memory(GAME, 100)
    filled(memory)
    memo, floors = dict(memory.memo), dict(memory.guess_floors)
    memory.forget_wins()
    assert memory.wins == {} and memory.cores == {} and memory.winners == {}
    assert len(memory.lost_cores) == len(memory.three_cores) == 0
    assert memory.memo == memo and memory.guess_floors == floors and memory.guess_floor_count == 2


def test_a_bound_kept_never_falls_and_an_exact_cost_replaces_it():
    memory = Memory(GAME, 100)
    key = memory.key(answers_of(0, 1, 2), 4, None)
    memory.remember(key, 10 * SCALE, -1, -1)
    memory.remember(key, 8 * SCALE, -1, -1)  # a weaker bound found later (under a lower budget)
    assert memory.memo[key] == (10 * SCALE, -1, -1)
    memory.remember(key, 11 * SCALE, 11 * SCALE, 2)  # solved: the exact cost, whatever was kept
    assert memory.memo[key] == (11 * SCALE, 11 * SCALE, 2)
    assert key[0] in memory.seen_sets


def test_a_full_memory_forgets_its_sub_problems_and_floors_together_and_rebuilds_the_seen_sets():
    memory = Memory(GAME, 2)
    filled(memory)  # one sub-problem, two guess floors, two verdicts
    first = memory.key(answers_of(0, 1, 2), 4, None)
    assert memory.remember(memory.key(answers_of(0, 1), 3, None), 5 * SCALE, -1, -1) == 0  # room for a second
    assert memory.remember(first, 12 * SCALE, -1, -1) == 0  # a key already held: nothing forgotten, bound raised
    assert memory.memo[first] == (12 * SCALE, -1, -1)
    new = memory.key(answers_of(9, 10, 11), 4, None)
    assert memory.remember(new, 6 * SCALE, 6 * SCALE, 1) == 2  # full: both forgotten first
    assert memory.memo == {new: (6 * SCALE, 6 * SCALE, 1)}
    assert memory.guess_floors == {} and memory.guess_floor_count == 0
    win_sets = {key[0] for key in memory.wins}
    assert memory.seen_sets == {memory.whole_key[0], new[0]} | win_sets
    assert len(memory.wins) == 2  # the win memory is not the sub-problems'


def test_a_full_win_memory_forgets_its_verdicts_and_cores_together():
    memory = Memory(GAME, 2)
    lost, won = memory.win_key(answers_of(3, 4, 5), None), memory.win_key(answers_of(6, 7, 8), None)
    memory.record_verdict(lost, 2, False, answers_of(3, 4), 3)
    memory.record_verdict(won, 3, True, answers_of(), 3)
    memory.record_verdict(lost, 3, False, answers_of(3, 4), 3)  # a key already held: nothing forgotten
    assert memory.wins == {lost: (3, NO_LIMIT), won: (0, 3)} and lost in memory.cores
    third = memory.win_key(answers_of(0, 1, 2), None)
    memory.record_verdict(third, 2, True, answers_of(), 3)
    assert memory.wins == {third: (0, 2)} and memory.cores == {}


def test_a_verdict_keeps_its_core_only_where_it_is_a_proper_subset_and_the_limits_only_tighten():
    memory = Memory(GAME, 100)
    key = memory.win_key(answers_of(3, 4, 5), None)
    memory.record_verdict(key, 2, False, answers_of(3, 4), 3)
    assert memory.lost_core(key, answers_of(3, 4, 5)).tolist() == [3, 4]
    memory.record_verdict(key, 3, False, answers_of(3, 4, 5), 3)  # lost within 3, the whole set its core
    assert key not in memory.cores and memory.lost_core(key, answers_of(3, 4, 5)).tolist() == [3, 4, 5]
    memory.record_verdict(key, 1, False, answers_of(3), 3)  # an older, weaker verdict: the limit stays at 3
    memory.record_verdict(key, 5, True, answers_of(), 3)
    memory.record_verdict(key, 6, True, answers_of(), 3)
    assert memory.win_limits(key) == (3, 5)
    assert memory.lost_within(key, 3) and not memory.lost_within(key, 4)
    assert key[0] in memory.seen_sets


def test_use_memo_forgets_the_guess_floors_and_makes_its_sets_seen_again():
    memory = Memory(GAME, 100)
    filled(memory)
    saved = {memory.key(answers_of(5, 6, 7), 3, None): (4 * SCALE, -1, -1)}
    memory.use_memo(saved)
    assert memory.memo is saved and memory.guess_floors == {} and memory.guess_floor_count == 0
    assert all(key[0] in memory.seen_sets for key in saved)


def test_the_guess_floors_count_what_they_hold_and_are_forgotten_all_at_once_past_their_limit(monkeypatch):
    monkeypatch.setattr(memory_module, "GUESS_FLOORS_KEPT", 5)
    memory = Memory(GAME, 100)
    one, two = memory.key(answers_of(0, 1, 2), 4, None), memory.key(answers_of(3, 4, 5), 4, None)
    memory.keep_guess_floors(one, {1: 1, 2: 2, 3: 3})
    assert memory.take_guess_floors(one) == {1: 1, 2: 2, 3: 3} and memory.guess_floor_count == 0
    assert memory.take_guess_floors(one) == {}
    memory.keep_guess_floors(one, {1: 1, 2: 2, 3: 3})
    memory.keep_guess_floors(two, {1: 1, 2: 2})
    assert memory.guess_floor_count == 5
    memory.keep_guess_floors(one, {4: 4})  # past 5: every floor forgotten first
    assert memory.guess_floors == {one: {4: 4}} and memory.guess_floor_count == 1


def test_the_pure_caches_keep_at_most_their_size():
    forgetful = Forgetful(2)
    for key in "abc":
        forgetful.keep(key, key.upper())
    assert forgetful == {"c": "C"}
    forgetful.keep("d", "D")
    forgetful.keep("d", "E")  # a key already held: nothing forgotten
    assert forgetful == {"c": "C", "d": "E"}
    memory = Memory(GAME, 100)
    assert (memory.legal.most, memory.legal_bits_kept.most) == (memory_module.LEGAL_KEPT,) * 2
    assert (memory.ceilings.most, memory.parts.most) == (memory_module.CEILINGS_KEPT, memory_module.PARTS_KEPT)
    assert memory.winners.most == memory_module.WINNER_KEYS


def test_the_legal_guesses_remembered_are_the_hints_own(monkeypatch):
    monkeypatch.setattr(memory_module, "LEGAL_KEPT", 2)
    game = small_game(TRAP, ["slate", "salet", "taces"])
    memory = Memory(game, 100)
    hints = [hints_from([(word, feedback(word, "waste"))]) for word in ("slate", "taces", "salet")]
    for asked in hints + hints[::-1] + [None, Hints()]:
        expected = (np.arange(len(game.words.guesses)) if not asked
                    else np.flatnonzero(legal_mask(game.guess_letters, game.guess_counts, asked)))
        assert memory.allowed(asked).tolist() == expected.tolist()
        assert memory.legal_bits(asked) == sum(1 << int(guess) for guess in expected)
        assert len(memory.legal) <= 2 and len(memory.legal_bits_kept) <= 2


def test_a_winner_kept_is_the_latest_few_per_key_and_the_keys_are_forgotten_past_their_limit(monkeypatch):
    monkeypatch.setattr(memory_module, "WINNER_KEYS", 2)
    memory = Memory(GAME, 100)
    for guess in (1, 2, 3, 4, 5, 2):
        memory.remember_winner((3, None), guess)
    assert memory.winners[(3, None)] == [2, 5, 4, 3][:memory_module.WINNERS_KEPT]
    memory.remember_winner((4, None), 1)
    memory.remember_winner((5, None), 1)  # a third key: the others are forgotten
    assert memory.winners == {(5, None): [1]}
    assert memory.winners_first([7, 1, 8], (5, None)) == [1, 7, 8]


def test_a_tier_shares_the_win_memory_but_keeps_its_own_sub_problems():
    solver = Solver(GAME, objective="worst", max_guesses=4)
    tier = solver.tier(3)
    for name in ("wins", "cores", "lost_cores", "three_cores", "seen_sets"):
        assert getattr(tier.memory, name) is getattr(solver.memory, name), name
    for name in ("memo", "guess_floors", "winners", "legal"):
        assert getattr(tier.memory, name) is not getattr(solver.memory, name), name
    assert tier.stats is solver.stats


# -- what a search keeps ------------------------------------------------------------------------------------
def search_case():
    """A small game, a mode, a guess limit, and budgets for solve_set."""
    return st.tuples(st.lists(st.sampled_from(TRAPS), min_size=5, max_size=9, unique=True),
                     st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(),
                     st.integers(3, 5), st.lists(st.integers(0, 6), min_size=1, max_size=4))


@settings(max_examples=25, deadline=None)
@given(search_case(), st.integers(2, 40))
def test_every_bound_kept_is_at_most_the_true_value_and_every_cost_kept_is_it(case, size):
    """Searches under budgets rising and falling, on one solver with a small memory (so that it fills): every
    sub-problem the memory holds has a bound at most its true least cost, and an exact cost equal to it; every guess
    floor kept is at most that guess's true cost; the memory never holds more than its size."""
    answers, extra, hard, left, steps = case
    game = small_game(answers, extra)
    solver = Solver(game, hard=hard, max_guesses=left, limits=Limits(memo=size))
    everything, hints = game.all_answers, (Hints() if hard else None)
    floor = solver.floor(len(everything), left)
    for step in steps:
        solver.solve_set(everything, left, hints, floor + step * SCALE)
        assert len(solver.memo) <= size and len(solver.memory.wins) <= size
    truth = Solver(game, hard=hard, max_guesses=left)
    for (stored, known_left, known_hints), (bound, exact, guess) in solver.memo.items():
        group = np.frombuffer(stored, dtype=np.uint16).astype(np.int64)
        true = truth.solve_set(group, known_left, known_hints)
        assert bound <= true
        if exact >= 0:
            assert exact == true and 0 <= guess < len(game.words.guesses)
    for (stored, known_left, known_hints), cut in solver.memory.guess_floors.items():
        group = np.frombuffer(stored, dtype=np.uint16).astype(np.int64)
        for guess, bound in cut.items():
            assert bound <= truth.try_guess(group, known_left, known_hints, guess, INFEASIBLE)


def brute_cost(game, hard: bool, left: int) -> int:
    """The least packed cost of a tree for the whole answer list within `left` guesses, by trying every legal guess
    everywhere (`test_optimal.brute_force`); INFEASIBLE where none wins every answer."""
    best = brute_force(game, game.initial_state(hard=hard, max_guesses=left), long_game=5)
    return INFEASIBLE if best is None else best[0] * SCALE + best[1]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(TRAPS), min_size=5, max_size=6, unique=True),
       st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(),
       st.lists(st.integers(1, SCALE), min_size=2, max_size=5))
def test_a_search_raised_just_above_its_last_bound_on_one_solver_answers_as_promised(answers, extra, hard, raises):
    """solve_set's promise on one solver whose memory is carried from search to search: below the budget, the exact
    least cost (brute force), kept in the memory as the set's cost with its guess; else a bound between the budget
    and the cost. The first budget lies just below the cost (so the search tries guesses and keeps each one's cut as
    a guess floor), each next one just above the last answer (1 to SCALE more): a remembered bound or a guess floor
    taken for a cut while below the budget would come back as a cost, or be kept as a bound (issue 47's mutations:
    both survived every other test)."""
    game = small_game(answers, extra)
    everything, hints, left = game.all_answers, (Hints() if hard else None), 4
    true = brute_cost(game, hard, left)
    solver = Solver(game, hard=hard, max_guesses=left)
    key = solver.key(everything, left, hints)
    budget = (true if true < INFEASIBLE else solver.floor(len(everything), left) + SCALE) - raises[0]
    for raised in raises[1:] + [INFEASIBLE]:
        value = solver.solve_set(everything, left, hints, budget)
        if value < budget:
            assert value == true, (budget, value, true)
            bound, exact, guess = solver.memo[key]
            assert bound == exact == true and 0 <= guess < len(game.words.guesses)
            break
        assert budget <= value <= true, (budget, value, true)
        budget = min(value + raised, INFEASIBLE)
    assert solver.solve_set(everything, left, hints) == true


@settings(max_examples=25, deadline=None)
@given(search_case(), st.integers(2, 40))
def test_every_win_verdict_kept_is_true(case, size):
    """After openers' win checks on one solver with a small memory, each set's remembered limits are true: lost
    within the most guesses known too few, won within the fewest known enough (brute force)."""
    answers, extra, hard, left, _ = case
    game = small_game(answers, extra)
    solver = Solver(game, hard=hard, max_guesses=left, limits=Limits(memo=size))
    solver.prover.core_from = 2
    for opener in range(len(game.words.guesses)):
        solver.opener_wins(opener)
        assert len(solver.memory.wins) <= size
    for (stored, hints), (too_few, enough) in solver.memory.wins.items():
        group = np.frombuffer(stored, dtype=np.uint16).astype(np.int64)
        legal = frozenset(solver.memory.allowed(hints).tolist())
        if too_few:
            core = solver.memory.lost_core((stored, hints), group)
            assert set(core.tolist()) <= set(group.tolist())
            assert not brute_wins_under(game, hard, tuple(core.tolist()), legal, too_few)
        if enough < NO_LIMIT:
            assert brute_wins_under(game, hard, tuple(group.tolist()), legal, enough)


@pytest.mark.parametrize("hard, answers, guesses, steps", [(False, POOL_ANSWERS, POOL_GUESSES, 16),
                                                          (True, POOL_ANSWERS[:12], POOL_GUESSES[:4], 12)])
def test_after_forget_memory_and_forget_wins_a_search_spends_what_a_fresh_solver_does(hard, answers, guesses, steps):
    """What `winning_guess`, `wins_within` and the valuation rely on: a search after forgetting does not depend on
    what came before, node for node. A search under a budget it cannot meet leaves guess floors (the guesses it cut,
    each at the bound it was cut at); forgotten with the memory, they must not cut the same search asked again
    (here they would cut every guess unread: 1 node, not 3 or 32)."""
    game = small_game(answers, guesses)
    everything, hints, left = game.all_answers, (Hints() if hard else None), 5
    used, fresh = Solver(game, hard=hard, max_guesses=left), Solver(game, hard=hard, max_guesses=left)
    budget = used.floor(len(everything), left) + steps * SCALE
    used.solve_set(everything, left, hints, budget)
    assert used.memory.guess_floors  # the root's cut guesses
    used.forget_memory()
    used.memory.forget_wins()
    searched = []
    for solver in (fresh, used):
        before = (solver.stats.nodes, solver.stats.memo_hits)
        value = solver.solve_set(everything, left, hints, budget)
        searched.append((value, solver.stats.nodes - before[0], solver.stats.memo_hits - before[1], solver.memo))
    assert searched[0] == searched[1]
