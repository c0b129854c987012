"""The two-player game: states, moves, chance outcomes, terminals and a full playthrough."""

from __future__ import annotations

import numpy as np
import pytest

from wordle import ALL_GREEN, GUESSER, INDICATOR, IllegalMove, feedback, parse_pattern
from tests.conftest import small_game


@pytest.fixture
def game():
    return small_game(["crane", "crate", "trace", "slate", "abide"], ["salet", "speed"])


def test_initial_state(game):
    state = game.initial_state()
    assert game.to_move(state) == GUESSER and not game.is_terminal(state)
    assert state.candidates.tolist() == [0, 1, 2, 3, 4] and state.guesses_left == 6


def test_result_is_pure_and_alternates_players(game):
    state = game.initial_state()
    salet = game.words.guess_id("salet")
    waiting = game.result(state, salet)
    assert game.to_move(waiting) == INDICATOR and state.pending is None
    pattern = feedback("salet", "crate")
    after = game.result(waiting, pattern)
    assert after.history == ((salet, pattern),) and state.history == ()
    # SALET vs CRATE: S grey, A, E and T yellow, L grey; TRACE answers the same.
    assert [game.words.answers[a] for a in after.candidates] == ["crate", "trace"]


def test_chance_outcomes_are_the_bins(game):
    waiting = game.result(game.initial_state(), game.words.guess_id("salet"))
    outcomes = dict(game.chance_outcomes(waiting))
    expected: dict[int, float] = {}
    for answer in game.words.answers:
        code = feedback("salet", answer)
        expected[code] = expected.get(code, 0) + 1 / 5
    assert outcomes == pytest.approx(expected)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert sorted(game.actions(waiting).tolist()) == sorted(expected)


def test_partition_matches_feedback(game):
    for guess in range(len(game.words.guesses)):
        for pattern, group in game.partition(game.all_answers, guess):
            assert all(feedback(game.words.guesses[guess], game.words.answers[a]) == pattern for a in group)


def test_impossible_pattern_and_bad_guess_are_illegal(game):
    waiting = game.result(game.initial_state(), game.words.guess_id("salet"))
    with pytest.raises(IllegalMove, match="no possible answer"):
        game.result(waiting, parse_pattern("yyyyy"))
    with pytest.raises(IllegalMove, match="out of range"):
        game.result(game.initial_state(), 99)


def test_hard_mode_moves_and_refusal(game):
    state = game.initial_state(hard=True)
    state = game.step(state, game.words.guess_id("salet"), feedback("salet", "crate"))
    legal = {game.words.guesses[g] for g in game.legal_guesses(state)}
    assert legal == {"crate", "trace", "salet", "slate"}  # A, E and T revealed: all three must appear
    with pytest.raises(IllegalMove, match="hard mode: .*"):
        game.result(state, game.words.guess_id("abide"))


def test_terminal_and_utility(game):
    state = game.initial_state(max_guesses=2)
    crate = game.words.guess_id("crate")
    won = game.step(state, crate, ALL_GREEN)
    assert game.is_terminal(won) and won.solved and game.utility(won) == 2.0
    lost = game.step(game.step(state, game.words.guess_id("abide"), feedback("abide", "crane")),
                      game.words.guess_id("crate"), feedback("crate", "crane"))
    assert game.is_terminal(lost) and not lost.solved and game.utility(lost) == 0.0
    with pytest.raises(IllegalMove, match="over"):
        game.result(won, crate)
    with pytest.raises(ValueError):
        game.utility(state)
    assert game.actions(won).size == 0


def test_play_records_turns_and_bits(game):
    guesses = iter(["salet", "crane", "crate"])
    playthrough = game.play(lambda state: game.words.guess_id(next(guesses)), game.words.answer_id("crate"))
    assert playthrough.solved and [t.remaining_after for t in playthrough.turns] == [2, 1, 1]
    assert playthrough.turns[0].bits == pytest.approx(np.log2(5 / 2))
    assert playthrough.turns[2].bits == 0.0


def test_state_key_separates_what_matters(game):
    start = game.initial_state()
    assert game.state_key(start) == game.state_key(game.initial_state())
    assert game.state_key(start) != game.state_key(game.initial_state(hard=True))
    assert game.state_key(start) != game.state_key(game.initial_state(max_guesses=5))
