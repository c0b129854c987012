"""Lost cores (wordle.solver.lost_cores): the query's rule, every core a solver keeps lost by brute force, and a solver
that keeps its cores from opener to opener still equal to brute force, both modes."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN, Wordle
from wordle.hardmode import Hints, extend_hints, legal_mask
from wordle.solver import Solver
from wordle.solver.lost_cores import LostCores, bits

from .conftest import small_game
from .test_objectives import brute_wins
from .test_short_wins import SPLITTERS, TRAPS

games = st.tuples(st.lists(st.sampled_from(TRAPS), min_size=8, max_size=12, unique=True),
                  st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(), st.integers(2, 4),
                  st.booleans())


def test_a_core_is_found_only_inside_the_set_with_no_more_guesses_left_and_no_more_legal():
    cores = LostCores(answers=10, kept=2)
    cores.add(np.array([2, 3, 5]), legal=0b0110, left=3)
    found = cores.find(np.array([1, 2, 3, 5, 8]), legal=0b0110, left=3)
    assert found.tolist() == [2, 3, 5]
    assert cores.find(np.array([1, 2, 3, 5]), legal=0b0010, left=2) is not None  # fewer legal, fewer left
    assert cores.find(np.array([1, 2, 3, 8]), legal=0b0110, left=3) is None  # 5 missing
    assert cores.find(np.array([2, 3, 5]), legal=0b1110, left=3) is None  # a guess the core's proof did not allow
    assert cores.find(np.array([2, 3, 5]), legal=0b0110, left=4) is None  # more guesses than it was proved for
    cores.add(np.array([7, 8, 9]), legal=0b1, left=5)
    cores.add(np.array([7, 8, 9]), legal=0b1, left=5)  # the same core twice; past `kept`: the oldest is forgotten
    assert len(cores) == 2 and cores.find(np.array([1, 2, 3, 5, 8]), legal=0b0110, left=3) is None
    assert cores.find(np.array([7, 8, 9]), legal=0b1, left=5).tolist() == [7, 8, 9]
    cores.add(np.array([0, 1]), legal=0b1, left=5)
    assert cores.find(np.array([7, 8, 9]), legal=0b1, left=5).tolist() == [7, 8, 9]  # the later copy is kept
    assert bits(np.array([0, 3]), 10) == 0b1001


def brute_wins_under(game: Wordle, hard: bool, answers: tuple[int, ...], legal: frozenset[int], left: int) -> bool:
    """Whether some tree wins every one of `answers` within `left` guesses, each guess from `legal` (in hard mode,
    and also obeying what the replies since revealed): the readable oracle of a kept core."""

    @functools.cache
    def wins(group: tuple[int, ...], allowed: frozenset[int], left: int) -> bool:
        if left == 0:
            return False
        for guess in allowed:
            replies = game.partition(np.array(group), guess)
            if all(code == ALL_GREEN or wins(tuple(part.tolist()), after(allowed, guess, int(code)), left - 1)
                   for code, part in replies):
                return True
        return False

    def after(allowed: frozenset[int], guess: int, code: int) -> frozenset[int]:
        if not hard:
            return allowed
        mask = legal_mask(game.guess_letters, game.guess_counts, extend_hints(Hints(), game.words.guesses[guess], code))
        return frozenset(word for word in allowed if mask[word])

    return wins(answers, legal, left)


@settings(max_examples=40, deadline=None)
@given(games, st.randoms(use_true_random=False))
@pytest.mark.slow
def test_a_solver_keeping_its_cores_from_opener_to_opener_equals_brute_force(case, random):
    answers, extra, hard, left, compiled = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=left + 1)
    solver = Solver(game, hard=hard, max_guesses=left + 1)
    solver.prover.core_from = 2  # keep and ask cores from two guesses left, as small games have few deeper sets
    if not compiled:
        solver.prover.short_wins = None  # the solver's own search, uncompiled, builds every core
    openers = list(range(len(game.words.guesses)))
    random.shuffle(openers)
    for opener in openers:
        expected = all(code == ALL_GREEN or brute_wins(game, game.step(state, opener, code))
                       for code, _ in game.partition(state.candidates, opener))
        assert solver.opener_wins(opener) == expected, game.words.guesses[opener]
    for legal, (core_left, _, _, core) in solver.memory.lost_cores.order:
        assert not brute_wins_under(game, hard, tuple(core.tolist()), allowed(game, legal), core_left)


@pytest.mark.slow
def test_a_core_proved_under_hard_modes_hints_does_not_condemn_the_same_answers_without_them():
    """BATCH, CATCH, HATCH, LATCH, MATCH, PATCH within three: lost once -ATCH is green (every guess then ends in
    ATCH and tells one answer apart), won without hints (BLIMP first); the core kept from the first proof must not
    answer the second question."""
    game = small_game(TRAPS[:6], ["blimp", "watch"])
    family = game.all_answers
    reply = int("02222", 3)  # WATCH: W grey, ATCH green
    hints = extend_hints(Hints(), "watch", reply)
    state = game.initial_state(hard=True, max_guesses=4)
    assert not brute_wins(game, game.step(state, game.words.guess_index["watch"], reply))
    assert brute_wins(game, game.initial_state(hard=True, max_guesses=3))
    solver = Solver(game, hard=True, max_guesses=4)
    solver.prover.core_from = 3
    solver.prover.endgame_cut = False  # the search proves it, and keeps the core
    assert not solver.can_win(family, 3, hints)
    assert len(solver.memory.lost_cores) == 1
    assert solver.can_win(family, 3, None)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(TRAPS), min_size=6, max_size=12, unique=True),
       st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(), st.booleans())
@pytest.mark.slow
def test_the_core_remembered_for_a_set_is_lost_within_every_limit_it_was_proved_lost(answers, extra, compiled,
                                                                                      endgames):
    """Normal mode (no hints, so one set meets every limit): asked with one guess more each time, the set's
    remembered core must be lost within the latest limit proved lost, not only an earlier one's (an endgame's
    core within two, say, and the whole set within three)."""
    game = small_game(answers, extra)
    solver = Solver(game, max_guesses=5)
    solver.prover.endgame_cut = endgames
    if not compiled:
        solver.prover.short_wins = None
    group = game.all_answers
    for left in range(2, 5):
        if solver.can_win(group, left, None):
            break
        core = solver.prover.lost_core(group, None)
        assert not brute_wins(game, dataclasses.replace(game.initial_state(max_guesses=left), candidates=core))


@pytest.mark.parametrize("hoisting", [True, False])
@pytest.mark.parametrize("compiled", [True, False])
def test_a_reply_s_small_core_is_proved_again_under_the_hints_before_the_guess(hoisting, compiled):
    """Hard mode, SLATE's reply with A, T and E present (CATER, WATER, HATER, EATER, TAMER): BASTE turns A green and
    keeps the five in one reply, whose lost core within three is CATER, WATER, HATER and EATER. Hoisted, that core is
    proved lost under the hints before BASTE too (more guesses legal, brute force agrees) and kept there; not hoisted,
    it is kept only under BASTE's reply's own hints. Either way the refutation left for the caller is one BASTE loses
    on, not one the hoist's own search met (uncompiled, that search refutes guesses of its own)."""
    game = small_game(TRAPS[13:], SPLITTERS + ["watch", "baste"])
    index = game.words.guess_index
    slate, baste = index["slate"], index["baste"]
    code = int(game.matrix[slate, game.words.answers.index("cater")])
    reply = game.all_answers[game.matrix[slate, game.all_answers] == code]
    hints = extend_hints(Hints(), "slate", code)
    solver = Solver(game, hard=True, max_guesses=6)
    solver.prover.core_from = 3
    solver.prover.endgame_cut = False  # the search proves it, and keeps the core
    solver.prover.hoist_most = 32 if hoisting else 0
    if not compiled:
        solver.prover.short_wins = None
    assert sorted(game.words.answers[answer] for answer in reply) == ["cater", "eater", "hater", "tamer", "water"]
    assert not solver.prover.wins_with(reply, 4, hints, baste)
    refutation = solver.prover.refutation
    baste_code = int(game.matrix[baste, refutation[0]])
    after_baste = solver.memory.legal_bits(extend_hints(hints, "baste", baste_code))
    assert (game.matrix[baste, refutation] == baste_code).all()
    assert not brute_wins_under(game, True, tuple(refutation.tolist()), allowed(game, after_baste), 3)
    assert solver.memory.lost_cores.find(reply, after_baste, 3) is not None
    legal = solver.memory.legal_bits(hints)
    core = solver.memory.lost_cores.find(reply, legal, 3)
    if not hoisting:
        assert core is None
        return
    assert sorted(game.words.answers[answer] for answer in core) == ["cater", "eater", "hater", "water"]
    assert not brute_wins_under(game, True, tuple(core.tolist()), allowed(game, legal), 3)


def allowed(game: Wordle, legal: int) -> frozenset[int]:
    """The guesses whose bits `legal` holds (LostCores' form)."""
    return frozenset(word for word in range(len(game.words.guesses)) if legal >> word & 1)


def test_a_later_proof_for_more_guesses_replaces_the_core_remembered_for_fewer():
    """Within two guesses the -ATCH endgame is the set's core; a proof within three whose core is the whole set
    must not leave the endgame standing as the core for three guesses (it was proved lost only within two)."""
    game = small_game(TRAPS[:7] + ["baste", "caste", "haste"])
    group = game.all_answers
    solver = Solver(game, max_guesses=5)
    assert not solver.can_win(group, 2, None)
    assert len(solver.prover.lost_core(group, None)) == 7  # BATCH, CATCH, ... WATCH
    solver.prover.endgame_core = lambda answers, left, hints: None

    def whole_set_lost(answers, left, hints, guess):  # a three-guess proof that names the whole set
        solver.prover.short_core = answers
        return False

    solver.prover.short_win = whole_set_lost
    assert not solver.can_win(group, 3, None)
    assert solver.prover.lost_core(group, None).tolist() == group.tolist()
