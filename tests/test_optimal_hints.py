"""The optimal solver's memory tells hard-mode sub-problems apart by their hints (wordle/solver/memory.py `Memory.key`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordle import feedback, hints_from
from wordle.hardmode import legal_mask
from wordle.solver import INFEASIBLE, SCALE, Limits, Solver

from .conftest import draw_reply, small_game
from .games import TRAP
from .test_short_wins import needs_numba


def test_the_same_answers_under_other_hints_are_another_sub_problem():
    # The six _ASTE answers with five guesses to go. With no hints TACES is legal: it splits TASTE and
    # CASTE from the other four (see tests/test_policies.py), so some tree solves all six. After SLATE
    # (y-ygg: T and E fixed at 4 and 5, S and A revealed) only the six answers are legal, each testing
    # one first letter: five guesses solve five of them at most, and no tree solves all six.
    game = small_game(TRAP, ["slate", "salet", "taces"])
    answers = np.arange(len(TRAP))
    free, bound = hints_from([]), hints_from([("slate", feedback("slate", "waste"))])
    alone = {name: Solver(game, hard=True).solve_set(answers, 5, hints) for name, hints in (("free", free),
                                                                                          ("bound", bound))}
    assert alone["free"] < 5 * len(TRAP) * SCALE <= alone["bound"]
    # One solver asked both ways, in either order, answers each as a fresh one does: a memory keyed
    # without the hints would give the second question the first one's answer.
    for first, second in (("free", "bound"), ("bound", "free")):
        solver = Solver(game, hard=True)
        hints = {"free": free, "bound": bound}
        assert solver.solve_set(answers, 5, hints[first]) == alone[first]
        assert solver.solve_set(answers, 5, hints[second]) == alone[second]


def test_the_remembered_legal_guesses_are_the_hints_own_even_past_the_memory_s_size(monkeypatch):
    # Memory.allowed keeps each hints' legal guesses; with room for one, asking under alternating hints
    # forgets and recomputes, and every answer is still that of legal_mask, and read-only.
    monkeypatch.setattr("wordle.solver.memory.LEGAL_KEPT", 1)
    game = small_game(TRAP, ["slate", "salet", "taces"])
    solver = Solver(game, hard=True)
    after_taces, after_slate = hints_from([("taces", feedback("taces", "waste"))]), hints_from([("slate", feedback("slate", "waste"))])
    for hints in (after_taces, after_slate, after_taces, after_slate, after_slate):
        expected = np.flatnonzero(legal_mask(game.guess_letters, game.guess_counts, hints))
        legal = solver.memory.allowed(hints)
        assert legal.tolist() == expected.tolist()
        assert not legal.flags.writeable
    assert len(solver.memory.legal) == 1


class _EverySet:
    """A `Memory.seen_sets` that holds every set: known_floor then builds every reply's hints, as before the index."""

    def __contains__(self, stored: bytes) -> bool:
        return True

    def add(self, stored: bytes) -> None:
        pass


@pytest.mark.slow
def test_replies_left_without_hints_change_no_search(official_game):
    # A reply in neither memory under any hints is bounded without building its hints (known_floor): the same
    # search, node for node, as one that builds them all, on hard-mode positions of the full lists (205 and 746
    # answers; 1,720 and 293 sub-problems)
    game = official_game
    for opener, answer in (("jazzy", "batch"), ("frump", "sassy")):
        guess = game.words.guess_index[opener]
        state = game.step(game.initial_state(hard=True), guess, int(game.matrix[guess, game.words.answers.index(answer)]))
        answers, hints = np.asarray(state.candidates), game.hints(state)
        lazy, eager = Solver(game, hard=True), Solver(game, hard=True)
        eager.memory.seen_sets = _EverySet()
        assert lazy.solve_set(answers, 5, hints) == eager.solve_set(answers, 5, hints)
        assert (lazy.stats.nodes, lazy.stats.memo_hits) == (eager.stats.nodes, eager.stats.memo_hits)
        assert lazy.memo == eager.memo


@needs_numba  # the sets counted include the compiled checks' work
@pytest.mark.slow
def test_the_win_search_builds_reply_hints_only_where_needed(official_game):
    # wins_with looks a reply up in the win memory only where `seen_sets` holds its set, and builds its hints only
    # then, or when the reply is searched: the same proofs, set for set, as a solver that builds every reply's
    # hints. Openers one after another on one solver, as a job's worker asks them, so that later ones meet sets
    # the earlier ones proved. The count pins the search: a change to it is a change of the search, to be explained
    # (4,712 became 4,708 when wins_with's last undecided reply came to be searched within the caller's effort, and
    # 4,623 when can_win came to ask the quick certificate before the endgame, and the compiled check alone with three
    # guesses left, and 14,227 when opener_wins came to try, once per solver, every answer meeting a reply's single
    # demand: a cost paid once for the many openers of a job, most of it in these six; and 15,799 when a refuted
    # guess's small lost core came to be tried again under the hints before that guess, its sets counted)
    game = official_game
    openers = ("joker", "coder", "poker", "boner", "corer", "salet")
    lazy, eager = Solver(game, hard=True), Solver(game, hard=True)
    eager.memory.seen_sets = _EverySet()
    verdicts = {}
    for name, solver in (("lazy", lazy), ("eager", eager)):
        solver.whole_tries = 0  # no whole-list attempt first: the openers' own proofs
        verdicts[name] = [solver.opener_wins(game.words.guess_index[opener]) for opener in openers]
    assert verdicts["lazy"] == verdicts["eager"] == [False, False, True, False, True, True]
    assert lazy.stats.nodes == eager.stats.nodes == 15799
    assert lazy.memory.wins == eager.memory.wins
    assert lazy.memory.cores.keys() == eager.memory.cores.keys()
    assert all(np.array_equal(lazy.memory.cores[key], eager.memory.cores[key]) for key in lazy.memory.cores)


def test_a_memory_put_back_after_the_memory_filled_is_looked_up_again():
    # value_position puts a saved memory back after each guess it weighs (Solver.use_memo). Where the memory filled
    # up meanwhile, `seen_sets` was rebuilt without the saved sets; put back, they are looked up again
    game = small_game(TRAP, ["slate", "salet", "taces"])
    answers = np.arange(len(TRAP))
    solver = Solver(game, hard=True, limits=Limits(memo=3))
    solver.solve_set(answers, 5, hints_from([]))
    saved = dict(solver.memo)
    solver.solve_set(answers, 5, hints_from([("slate", feedback("slate", "waste"))]))  # fills and empties it again
    assert solver.stats.forgotten and not all(key[0] in solver.memory.seen_sets for key in saved)
    solver.use_memo(saved)
    assert solver.memo is saved and all(key[0] in solver.memory.seen_sets for key in saved)


@needs_numba  # the question is asked from inside the compiled three-guess search's rounds
def test_a_hard_mode_set_with_three_guesses_left_is_asked_whether_it_can_be_won(monkeypatch):
    # The six _ASTE answers after SLATE (T and E fixed, S and A revealed) with three guesses to go: every legal
    # guess tests one first letter, so no tree solves all six. Past THREE_ASK_WIN patterns read, the cost search
    # asks the win check (a lost set would otherwise cost a refutation of every guess): INFEASIBLE either way, and
    # where it asked, the set is remembered as lost
    game = small_game(TRAP, ["slate", "salet", "taces"])
    answers = np.arange(len(TRAP))
    bound = hints_from([("slate", feedback("slate", "waste"))])
    searched = Solver(game, hard=True)
    assert searched.solve_set(answers, 3, bound) >= INFEASIBLE and not searched.prover.known_lost(answers, 3, bound)
    monkeypatch.setattr("wordle.solver.branch_and_bound.THREE_ASK_WIN", 0)
    asked = Solver(game, hard=True)
    assert asked.solve_set(answers, 3, bound) >= INFEASIBLE and asked.prover.known_lost(answers, 3, bound)


@needs_numba  # the cores are kept where the compiled three-guess search asks whether a set can be won
def test_a_set_holding_a_core_lost_within_three_is_lost_at_once():
    # The _ASTE six after SLATE are lost within three guesses; asked first, their core is kept (`three_cores`), and
    # a bigger set under the same hints that holds them (FEAST, no legal guess there) is then lost without a win check
    game = small_game(TRAP + ["feast"], ["slate", "salet", "taces"])
    bound = hints_from([("slate", feedback("slate", "waste"))])
    six = np.array([game.words.answer_index[word] for word in TRAP])
    every = np.arange(len(game.words.answers))
    solver = Solver(game, hard=True)
    assert solver.prover.lost_within_three(six, bound)
    assert len(solver.memory.three_cores) == 1
    checks = solver.stats.nodes
    assert solver.prover.lost_within_three(every, bound)
    assert solver.stats.nodes == checks  # no win check: the core answered
    # the core holds under fewer legal guesses (stricter hints), never under more (none)
    stricter = hints_from([("slate", feedback("slate", "waste")), ("taces", feedback("taces", "waste"))])
    assert solver.memory.three_cores.find(every, solver.memory.legal_bits(stricter), 3) is not None
    assert solver.memory.three_cores.find(every, solver.memory.legal_bits(hints_from([])), 3) is None


@needs_numba
@settings(max_examples=6, deadline=None)
@given(st.data())
def test_every_set_lost_within_three_by_a_core_is_lost(official_game, data):
    """Hard mode, with every three-guess set asked whether it can be won: each answer `lost_within_three` gives,
    from a kept core or from the win check, is a fresh solver's win check's; and the value is unchanged."""
    found = draw_reply(official_game, data, True, 20, 70)
    if found is None:
        return
    answers, hints = found
    solver, fresh, asked = Solver(official_game, hard=True), Solver(official_game, hard=True), []
    ask = solver.prover.lost_within_three

    def record(group, where):
        lost = ask(group, where)
        asked.append((group, where, lost))
        return lost

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("wordle.solver.branch_and_bound.THREE_ASK_WIN", 0)
        patch.setattr(solver.prover, "lost_within_three", record)
        value = solver.solve_set(answers, 4, hints)
    for group, where, lost in asked:
        assert lost == (not fresh.can_win(group, 3, where))
    assert value == Solver(official_game, hard=True).solve_set(answers, 4, hints)
