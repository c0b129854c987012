"""The remembered winners (Memory.winners): search_win tries the latest guess that won a set with the same guesses
left and hints first; the order changes no verdict, a remembered guess not legal or not useful there is never
tried, and forget_wins forgets them, so an effort-capped answer (what advice shows) does not depend on what the
solver searched before."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import ALL_GREEN
from wordle.hardmode import Hints
from wordle.solver import Solver
from wordle.solver.memory import WINNERS_KEPT

from .conftest import small_game
from .test_objectives import brute_wins
from .test_short_wins import SPLITTERS, TRAPS

games = st.tuples(st.lists(st.sampled_from(TRAPS), min_size=8, max_size=12, unique=True),
                  st.lists(st.sampled_from(SPLITTERS), max_size=2, unique=True), st.booleans(), st.integers(2, 4),
                  st.booleans())


class AnyWinners(dict):
    """Remembered winners made up on the spot: every key answers a few guesses at random, legal there or not."""

    def __init__(self, guesses: int, seed: int):
        super().__init__()
        self.rng = np.random.default_rng(seed)
        self.guesses = guesses

    def get(self, key, default=None):
        """A few distinct guesses drawn afresh for any key."""
        return self.rng.choice(self.guesses, size=min(WINNERS_KEPT, self.guesses), replace=False).tolist()


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**16))
@pytest.mark.slow
def test_any_remembered_winners_change_no_verdict(case, seed):
    """Whatever guesses the memory puts first, each opener's win check still equals brute force."""
    answers, extra, hard, left, compiled = case
    game = small_game(answers, extra)
    state = game.initial_state(hard=hard, max_guesses=left + 1)
    solver = Solver(game, hard=hard, max_guesses=left + 1)
    solver.memory.winners = AnyWinners(len(game.words.guesses), seed)
    if not compiled:
        solver.prover.short_wins = None  # the solver's own search reaches search_win with three guesses left too
    for opener in range(len(game.words.guesses)):
        expected = all(code == ALL_GREEN or brute_wins(game, game.step(state, opener, code))
                       for code, _ in game.partition(state.candidates, opener))
        assert solver.opener_wins(opener) == expected, game.words.guesses[opener]


def test_a_set_searched_again_tries_the_guess_that_won_it_first():
    """Hard mode, ten -ATCH, -ASTE and -ATER answers within three guesses: the search tries the answers first, each
    losing on a family it cannot split, then wins with WHELP; asked again with the win memory forgotten but the
    winners kept, its first guess is WHELP."""
    game = small_game(["caste", "hatch", "hater", "latch", "later", "patch", "tamer", "taste", "waste", "watch"],
                      ["slate", "might", "whelp"])
    solver = Solver(game, hard=True, max_guesses=3)
    solver.prover.short_wins = None  # the pure-Python search, so every guess it tries passes through wins_with
    tried: list[int] = []
    wins_with = solver.prover.wins_with

    def spy(answers, left, hints, guess):
        if left == 3:
            tried.append(guess)
        return wins_with(answers, left, hints, guess)

    solver.prover.wins_with = spy
    won = solver.prover.search_win(game.all_answers, 3, Hints())
    assert game.words.guesses[won] == "whelp" and len(set(tried)) == 11 and tried[-1] == won
    assert solver.memory.winners[(3, Hints())] == [won]
    solver.memory.wins.clear()
    solver.forget_memory()
    tried.clear()
    assert solver.prover.search_win(game.all_answers, 3, Hints()) == won
    assert tried == [won]
    solver.memory.forget_wins()
    assert solver.memory.winners == {}


def test_a_remembered_winner_not_legal_here_is_never_tried():
    """The winners remembered under other hints are another key's; a guess of the key's own list that these hints
    forbid (hard mode) is dropped from the front, not tried."""
    game = small_game(TRAPS[:6], ["chomp", "brawl", "might", "whelp"])
    solver = Solver(game, hard=True, max_guesses=3)
    hints = Hints(fixed=((1, "a"),), at_least=(("a", 1),))
    illegal = game.words.guess_index["chomp"]  # no A: not a hard-mode guess under these hints
    ordered = solver.memory.allowed(hints).tolist()
    assert illegal not in ordered
    solver.memory.winners[(3, hints)] = [illegal, ordered[-1]]
    assert solver.memory.winners_first(ordered, (3, hints)) == [ordered[-1]] + ordered[:-1]
    assert solver.memory.winners_first(ordered, (2, hints)) == ordered  # another number of guesses left: another key


def test_the_winners_kept_per_key_are_the_latest_few():
    """The latest first, a guess won again moves to the front, and only WINNERS_KEPT are kept."""
    game = small_game(TRAPS[:6], SPLITTERS)
    solver = Solver(game, hard=False, max_guesses=3)
    played = [0, 1, 2, 3, 4, 5, 6, 2]
    for guess in played:
        solver.memory.remember_winner((3, None), guess)
    latest = list(dict.fromkeys(reversed(played)))
    assert solver.memory.winners[(3, None)] == latest[:WINNERS_KEPT]


@settings(max_examples=25, deadline=None)
@given(games, st.integers(1, 40))
def test_an_effort_capped_answer_does_not_depend_on_earlier_searches(case, effort):
    """winning_guess and wins_within (what advice asks, within a count of sets) give the same answer, at the same
    count, from a solver that has already searched every opener and these very questions (its win memory, kept
    cores and winners full) as from a fresh one."""
    answers, extra, hard, left, compiled = case
    game = small_game(answers, extra)
    hints = Hints() if hard else None

    def solver() -> Solver:
        made = Solver(game, hard=hard, max_guesses=left + 1)
        made.prover.core_from = 2
        if not compiled:
            made.prover.short_wins = None
        return made

    used = solver()
    for opener in range(len(game.words.guesses)):  # every opener, then the very questions asked below, uncapped
        used.opener_wins(opener)
        used.prover.wins_with(game.all_answers, left, hints, opener)
    used.can_win(game.all_answers, left, hints)
    for guess in (None, *range(len(game.words.guesses))):
        asked = []
        for asking in (solver(), used):  # a fresh solver for each question
            nodes = asking.stats.nodes
            if guess is None:
                answer = asking.winning_guess(game.all_answers, left, hints, effort)
            else:
                answer = asking.wins_within(game.all_answers, left, hints, guess, effort)
            asked.append((answer, asking.stats.nodes - nodes))
        assert asked[0] == asked[1], (guess, asked)
