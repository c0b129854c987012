"""The win prover (wordle.solver.win_prover.WinProver) on its own: made from its parts without a Solver, its verdicts
equal brute force in both modes (with and without the compiled checks, the endgames and the lost cores), what it
names (a winning guess, a refutation's core) is true, its effort caps answer the same from any memory, and a core
found under hard mode's hints condemns no set with more legal guesses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN
from wordle.hardmode import Hints, extend_hints, legal_mask
from wordle.solver import Limits, Objective
from wordle.solver.budget import Spending
from wordle.solver.costs import Costs
from wordle.solver.memory import Memory
from wordle.solver.passes import BoundPasses
from wordle.solver.win_prover import WinProver

from .conftest import small_game
from .test_lost_cores import brute_wins_under
from .test_short_wins import SPLITTERS, TRAPS, needs_numba

games = st.tuples(st.lists(st.sampled_from(TRAPS), min_size=5, max_size=10, unique=True),
                  st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(), st.integers(2, 4))
#: The prover's switches: the compiled checks, the endgame cut, and from how many guesses left the lost cores count.
switches = st.tuples(st.booleans(), st.booleans(), st.sampled_from([2, 4]))


def prover_for(game, hard: bool, max_guesses: int, compiled: bool = True, endgames: bool = True,
               core_from: int = 4, memory_size: int = 10**6) -> WinProver:
    """A WinProver over `game` made from its own parts (a memory, the bound passes, a budget), no Solver around it."""
    memory, spending = Memory(game, memory_size), Spending()
    passes = BoundPasses(game, hard, Limits(memo=memory_size), Costs(max_guesses, 5, False), Objective.TOTAL, memory,
                         spending)
    prover = WinProver(game, hard, max_guesses, False, memory, passes, spending)
    prover.endgame_cut, prover.core_from = endgames, core_from
    if not compiled:
        prover.short_wins = None
    return prover


def every_guess(game) -> frozenset[int]:
    """Every guess of the game (the legal guesses before any hint)."""
    return frozenset(range(len(game.words.guesses)))


def after(game, hard: bool, opener: int, code: int) -> tuple[np.ndarray, Hints | None, frozenset[int]]:
    """A reply to `opener`: its answers, its hints (hard mode) and the guesses legal there."""
    answers = np.array([answer for answer in game.all_answers.tolist() if int(game.matrix[opener, answer]) == code])
    if not hard:
        return answers, None, every_guess(game)
    hints = extend_hints(Hints(), game.words.guesses[opener], code)
    return answers, hints, game_legal(game, hints)


@settings(max_examples=30, deadline=None)
@given(games, switches, st.data())
def test_can_win_equals_brute_force_on_every_reply_of_an_opener(case, switch, data):
    """Every reply of a drawn opener, with every number of guesses up to the limit, on one prover (so that later
    questions meet what earlier ones kept): can_win is brute force's verdict, and known_lost never claims more."""
    answers, extra, hard, left = case
    compiled, endgames, core_from = switch
    game = small_game(answers, extra)
    prover = prover_for(game, hard, left + 1, compiled, endgames, core_from)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1), label="opener")
    for code in sorted({int(game.matrix[opener, answer]) for answer in game.all_answers.tolist()} - {ALL_GREEN}):
        group, hints, legal = after(game, hard, opener, code)
        for guesses in range(1, left + 1):
            expected = brute_wins_under(game, hard, tuple(group.tolist()), legal, guesses)
            assert prover.can_win(group, guesses, hints) == expected, (code, guesses)
            assert prover.known_lost(group, guesses, hints) <= (not expected)


@settings(max_examples=30, deadline=None)
@given(games, switches)
def test_the_winning_guess_found_wins_and_a_refuted_sets_core_is_lost(case, switch):
    """search_win's guess starts a winning tree (brute force, after that guess); where it finds none, the core it
    leaves (`search_core`) is lost too."""
    answers, extra, hard, left = case
    compiled, endgames, core_from = switch
    game = small_game(answers, extra)
    prover = prover_for(game, hard, left, compiled, endgames, core_from)
    everything, hints = game.all_answers, (Hints() if hard else None)
    guess = prover.search_win(everything, left, hints)
    expected = brute_wins_under(game, hard, tuple(everything.tolist()), every_guess(game), left)
    assert (guess >= 0) == expected
    if guess >= 0:
        assert wins_with_brute(game, hard, everything, guess, left)
    elif left > 2:
        assert not brute_wins_under(game, hard, tuple(prover.search_core.tolist()), every_guess(game), left)


def wins_with_brute(game, hard: bool, answers: np.ndarray, guess: int, left: int) -> bool:
    """Whether `guess` starts a tree winning every one of `answers` within `left` guesses (brute force)."""
    for code in {int(game.matrix[guess, answer]) for answer in answers.tolist()} - {ALL_GREEN}:
        group, _, legal = after(game, hard, guess, code)
        group = np.intersect1d(group, answers)
        if not brute_wins_under(game, hard, tuple(group.tolist()), legal, left - 1):
            return False
    return True


@settings(max_examples=25, deadline=None)
@given(games, st.integers(1, 60), st.booleans())
def test_an_effort_capped_answer_is_true_where_given_and_restores_the_effort_cap(case, effort, compiled):
    """winning_guess and wins_within within a small effort: a guess named wins, a verdict given is brute force's, and
    the prover's own effort cap is what it was before the call (none)."""
    answers, extra, hard, left = case
    game = small_game(answers, extra)
    prover = prover_for(game, hard, left + 1, compiled)
    everything, hints = game.all_answers, (Hints() if hard else None)
    guess = prover.winning_guess(everything, left, hints, effort)
    assert prover.win_limit is None
    if guess is not None:
        assert wins_with_brute(game, hard, everything, guess, left)
    for opener in range(len(game.words.guesses)):
        verdict = prover.wins_within(everything, left, hints, opener, effort)
        assert prover.win_limit is None
        if verdict is not None:
            assert verdict == wins_with_brute(game, hard, everything, opener, left)


def test_a_core_lost_within_three_under_hints_condemns_no_set_with_more_legal_guesses():
    """BATCH, CATCH, HATCH, LATCH, MATCH, PATCH within three: lost once -ATCH is green (every legal guess then ends
    in ATCH and tells one answer apart), won without hints (BLIMP first). The core kept from the first answer
    (`three_cores`) proves the same answers lost only where no more guesses are legal: with no hints they are won."""
    game = small_game(TRAPS[:6], ["blimp", "watch"])
    family = game.all_answers
    hints = extend_hints(Hints(), "watch", int("02222", 3))  # WATCH: W grey, ATCH green
    every = every_guess(game)
    assert not brute_wins_under(game, True, tuple(family.tolist()), game_legal(game, hints), 3)
    assert brute_wins_under(game, True, tuple(family.tolist()), every, 3)
    prover = prover_for(game, True, 4)
    assert prover.lost_within_three(family, hints)
    assert len(prover.memory.three_cores) == 1
    assert not prover.lost_within_three(family, None)
    assert not prover.lost_within_three(family, Hints())
    assert prover.lost_within_three(family, hints)  # asked again: the core answers


def test_the_whole_list_won_without_hints_says_nothing_of_the_same_answers_under_hints():
    """The whole list won within three without hints (BLIMP first) settles every set without hints at once, and no
    set under hints: BATCH, CATCH, HATCH, LATCH, MATCH, PATCH under -ATCH green are lost within three (each legal
    guess ends in ATCH and tells one answer apart), as brute force says, though the whole list is the same answers."""
    game = small_game(TRAPS[:6], ["blimp", "watch"])
    family = game.all_answers
    hints = extend_hints(Hints(), "watch", int("02222", 3))
    assert not brute_wins_under(game, True, tuple(family.tolist()), game_legal(game, hints), 3)
    prover = prover_for(game, True, 4)
    prover.memory.note_won(prover.memory.whole_key, 3)  # as win_whole_list(3) leaves it
    assert prover.can_win(family[:4], 3, None)
    assert not prover.can_win(family, 3, hints)


def game_legal(game, hints: Hints) -> frozenset[int]:
    """The guesses `hints` allow."""
    return frozenset(np.flatnonzero(legal_mask(game.guess_letters, game.guess_counts, hints)).tolist())


@needs_numba
def test_the_compiled_checks_count_their_work_as_sets_searched():
    """A compiled three-guess check counts the patterns it read (`short_work`) and the sets they are worth."""
    game = small_game(TRAPS[:10], SPLITTERS)
    prover = prover_for(game, True, 3)
    assert prover.short_win(game.all_answers, 3, Hints(), None) in (True, False)
    stats = prover.spending.stats
    assert stats.short_work > 0 and stats.nodes == stats.short_work // 20_000


@pytest.mark.parametrize("hard", [False, True])
def test_the_whole_list_won_with_a_guess_fewer_settles_every_reply_without_hints(hard):
    """opener_wins tries the whole list once with one guess fewer; where it is won, the win is remembered for the
    whole list and no set without hints is searched again."""
    game = small_game(TRAPS[:8], SPLITTERS)
    prover = prover_for(game, hard, 5)
    assert prover.win_whole_list(4) is True
    assert prover.memory.win_limits(prover.memory.whole_key)[1] == 4
    nodes = prover.spending.stats.nodes
    assert prover.can_win(game.all_answers[:5], 4, None)
    assert prover.spending.stats.nodes == nodes


@settings(max_examples=30, deadline=None)
@given(games, st.booleans())
def test_the_whole_list_in_rounds_is_won_exactly_where_brute_force_wins_it(case, compiled):
    """win_whole_list's later rounds (every guess, each within a growing effort, the compiled checks held to it): True
    exactly where brute force wins the whole list within `left` guesses without hints (on a small game every guess
    is decided within the spend), and the prover's effort cap and strictness are what they were."""
    answers, extra, hard, left = case
    game = small_game(answers, extra)
    prover = prover_for(game, hard, left + 1, compiled)
    won = prover.whole_list_in_rounds(list(range(len(game.words.guesses))), left)
    assert prover.win_limit is None and not prover.strict_effort
    assert won == brute_wins_under(game, hard, tuple(game.all_answers.tolist()), every_guess(game), left)


@needs_numba
def test_a_strict_effort_stops_the_compiled_check_at_the_round_s_limit():
    """With strict_effort, the compiled three-guess check reads no further than the round's effort left and says
    Undecided (not None, which would send can_win to its slower search); without it, the same call answers."""
    from wordle.solver.win_prover import Undecided

    game = small_game(TRAPS[:10], SPLITTERS)
    prover = prover_for(game, True, 3)
    prover.strict_effort, prover.win_limit = True, prover.spending.stats.nodes - 1  # no room left
    with pytest.raises(Undecided):
        prover.short_win(game.all_answers, 3, Hints(), None)
    prover.strict_effort = False
    assert prover.short_win(game.all_answers, 3, Hints(), None) in (True, False)


def test_the_whole_list_is_proved_won_with_a_guess_fewer_where_brute_force_wins_it():
    """win_whole_list proves the whole list won within a guess fewer where brute force wins it, and remembers it."""
    game = small_game(TRAPS[:8], SPLITTERS)
    assert brute_wins_under(game, True, tuple(game.all_answers.tolist()), every_guess(game), 4)
    prover = prover_for(game, True, 5)
    assert prover.win_whole_list(4) is True
    assert prover.memory.win_limits(prover.memory.whole_key)[1] == 4


@settings(max_examples=25, deadline=None)
@given(st.tuples(st.lists(st.sampled_from(TRAPS), min_size=5, max_size=9, unique=True),
                 st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True)), st.booleans(), st.data())
def test_every_answer_meeting_one_demand_is_won_where_the_prover_says_so_and_no_opener_changes_its_verdict(
        case, compiled, data):
    """Hard mode: what prove_demand_sets keeps is true (brute force wins every answer meeting the hints, under them,
    within the guesses kept), and opener_wins, which reads it, equals brute force opener after opener on one prover
    (the demands of earlier openers kept)."""
    answers, extra = case
    game = small_game(answers, extra)
    prover = prover_for(game, True, 4, compiled)
    prover.whole_tries = 0  # the whole-list proof would settle the hint-free replies first
    openers = data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=1, max_size=4), label="openers")
    for opener in openers:
        replies = [(code, after(game, True, opener, code)) for code in sorted({int(c) for c in
                                                                               game.matrix[opener, game.all_answers]})]
        expected = all(code == ALL_GREEN or brute_wins_under(game, True, tuple(group.tolist()), legal, 3)
                       for code, (group, _, legal) in replies)
        assert prover.opener_wins(opener) == expected, game.words.guesses[opener]
    for hints, (left, meets) in prover.memory.demand_wins.items():
        assert brute_wins_under(game, True, tuple(np.flatnonzero(meets).tolist()), game_legal(game, hints), left)
