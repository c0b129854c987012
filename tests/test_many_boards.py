"""Sixteen and thirty-two boards (Sedecordle, Duotrigordle): games worked by hand at K = 16 and K = 32, the guess limit
K + 5, solved boards stopping, the win and the loss; one board is still today's Wordle; the players at these sizes.

Values are from the Guesser's point of view, higher is better: winning with guess k is worth max_guesses + 1 - k.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_player
from agents.board_players import board_stats, information
from heuristics.partition import partition_stats
from agents.base import deal_answers
from variants import Boards, GameSpec, game_of
from variants.boards import MOST_REPLIES
from wordle import IllegalMove, Wordle, feedback, format_pattern, parse_pattern

from .conftest import run_cli

#: Sixteen answers, the first CRANE itself, so one board is solved by the first guess.
SIXTEEN = "crane cigar react nymph abbey track lemon prune ocean dwelt fuzzy album truce manor eerie knoll".split()
#: CRANE's reply on each of them, worked by hand, letter by letter (e.g. CIGAR: C green; R is CIGAR's fifth letter,
#: yellow; A is its fourth, yellow; N and E grey. EERIE: R yellow; CRANE's E is fifth, as EERIE's last E: green).
CRANE_REPLIES = "ggggg gyy-- yyg-y ---y- --y-y ygg-- ---yy -g-gg y-yyy ----y ----- --y-- yg--g -yyy- -y--g ---y-".split()


def words_of(rules: Wordle, names: list[str]) -> tuple[tuple[int, ...], list[int]]:
    """The answer indices and guess indices of `names`."""
    return tuple(rules.words.answer_id(w) for w in names), [rules.words.guess_id(w) for w in names]


def test_the_familiar_limits_at_sixteen_and_thirty_two_boards():
    assert [GameSpec(boards=k).max_guesses for k in (16, 32)] == [21, 37]
    assert [GameSpec(boards=k).name for k in (16, 32)] == ["sedecordle", "duotrigordle"]
    assert GameSpec(boards=32).describe() == "duotrigordle (32 boards, 5 letters, 37 guesses)"


def test_a_sedecordle_worked_by_hand(official_game):
    # CRANE, then each other board's answer in order: CRANE solves board 1 at once; every later guess solves the next
    # board and stops it; a solved board's replies are nothing; the sixteenth guess wins: 21 + 1 - 16 = 6.
    game = Boards(official_game, 16)
    answers, guesses = words_of(official_game, SIXTEEN)
    state = game.initial_state(GameSpec(boards=16).max_guesses)
    assert state.max_guesses == 21 and len(state.candidates) == 16
    state = game.result(game.result(state, guesses[0]), game.reply(game.result(state, guesses[0]), answers))
    assert [format_pattern(p) for p in state.history[0][1]] == CRANE_REPLIES
    assert state.solved == (True,) + (False,) * 15 and state.candidates[0].tolist() == [answers[0]]
    # CIGAR next, worked by hand on two boards: REACT - C yellow (its fourth), A yellow (its third), R yellow (its
    # first); I and G grey; EERIE - I yellow (its fourth), R yellow (its third).
    asked = game.result(state, guesses[1])
    reply = game.reply(asked, answers)
    assert reply[0] is None and reply[1] == parse_pattern("ggggg")
    assert format_pattern(reply[2]) == "y--yy" and format_pattern(reply[14]) == "-y--y"
    for board in range(16):
        assert reply[board] == (None if board == 0 else feedback("cigar", SIXTEEN[board]))
    state = game.result(asked, reply)
    for turn, guess in enumerate(guesses[2:], start=2):
        assert not game.is_terminal(state) and state.open_boards == tuple(range(turn, 16))
        asked = game.result(state, guess)
        state = game.result(asked, game.reply(asked, answers))
        assert state.history[-1][1][:turn] == (None,) * turn and state.history[-1][1][turn] == parse_pattern("ggggg")
        for board in range(turn + 1, 16):
            assert state.history[-1][1][board] == feedback(SIXTEEN[turn], SIXTEEN[board])
            assert answers[board] in state.candidates[board]
    assert state.won and game.is_terminal(state) and state.guesses_used == 16 and game.utility(state) == 6.0
    with pytest.raises(IllegalMove, match="the game is over"):
        game.result(state, guesses[0])
    played = game.play(lambda s: guesses[s.guesses_used], answers, 21)
    assert played.won and played.history == state.history


def thirty_two(official_game) -> tuple[tuple[int, ...], list[int], list[int]]:
    """Duotrigordle's answers (seed 0's first deal), their guess rows, and five guesses that are no board's answer."""
    answers = deal_answers(32, len(official_game.words.answers), 0, 0)
    rows = [int(official_game.words.answer_rows[a]) for a in answers]
    spare = [official_game.words.guess_id(w) for w in ("fuzzy", "jazzy", "pygmy", "kvell", "xylyl")]
    assert not set(spare) & set(rows)
    return answers, rows, spare


def test_a_duotrigordle_won_with_the_last_guess_and_one_lost(official_game):
    # Five guesses that solve nothing, then the 32 answers: the 37th guess wins, worth 37 + 1 - 37 = 1. The same
    # game one guess short (the limit 36) ends lost, worth 0, with its last board open.
    game = Boards(official_game, 32)
    answers, rows, spare = thirty_two(official_game)
    assert len(set(answers)) == 32
    order = spare + rows
    played = game.play(lambda s: order[s.guesses_used], answers, GameSpec(boards=32).max_guesses)
    state = played.final
    assert played.won and state.guesses_used == 37 and game.utility(state) == 1.0
    for turn, (guess, reply) in enumerate(state.history):
        solved_before = max(0, turn - 5)
        assert reply[:solved_before] == (None,) * solved_before
        for board in range(solved_before, 32):
            assert reply[board] == feedback(official_game.words.guesses[guess], official_game.words.answers[answers[board]])
    lost = game.play(lambda s: order[s.guesses_used], answers, 36)
    assert not lost.won and lost.final.open_boards == (31,) and game.is_terminal(lost.final)
    assert game.utility(lost.final) == 0.0 and lost.final.guesses_used == 36


def test_an_early_indicator_listing_is_refused_not_built(official_game):
    # Thirty-two open boards after one guess: the Indicator's replies number far beyond any search's reach.
    game = Boards(official_game, 32)
    asked = game.result(game.initial_state(37), official_game.words.guess_id("soare"))
    with pytest.raises(ValueError, match=f"more than the {MOST_REPLIES:,}"):
        game.chance_outcomes(asked)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hard=st.booleans())
def test_one_board_is_todays_wordle(official_game, seed, hard):
    # GameSpec(boards=1) is Wordle's own game; Boards(rules, 1) gives Wordle's replies, legal guesses and values.
    assert GameSpec(boards=1).is_wordle and game_of(GameSpec(boards=1), official_game) is official_game
    game, rng = Boards(official_game, 1), np.random.default_rng(seed)
    answer = int(rng.integers(len(official_game.words.answers)))
    today = official_game.initial_state(hard=hard, max_guesses=6)
    boards = game.initial_state(6, hard=hard)
    while not official_game.is_terminal(today):
        assert not game.is_terminal(boards)
        legal = official_game.legal_guesses(today)
        assert np.array_equal(legal, game.legal_guesses(boards))
        guess = int(official_game.words.answer_rows[answer]) if rng.random() < 0.2 else int(rng.choice(legal))
        today = official_game.result(official_game.result(today, guess),
                                     int(official_game.matrix[guess, answer]))
        asked = game.result(boards, guess)
        boards = game.result(asked, game.reply(asked, (answer,)))
        assert boards.history[-1] == (today.history[-1][0], (today.history[-1][1],))
        assert np.array_equal(boards.candidates[0], today.candidates)
    assert game.is_terminal(boards) and boards.won == today.solved
    assert game.utility(boards) == official_game.utility(today)


def test_identical_boards_share_one_computation_with_the_same_numbers(official_game):
    # board_stats hands identical boards the same statistics; the information it sums equals the plain per-board sum.
    game = Boards(official_game, 16)
    state = game.initial_state(21)
    guesses = np.arange(0, len(official_game.words.guesses), 97)
    stats = board_stats(game, list(state.candidates), guesses)
    assert all(s is stats[0] for s in stats)
    plain = partition_stats(official_game.matrix, official_game.all_answers, guesses).entropy
    total = np.zeros(len(guesses))
    for _ in range(16):
        total += plain
    assert np.array_equal(information(game, state, guesses), total)


def test_the_entropy_player_and_a_search_decide_at_thirty_two_boards(official_game):
    # After SOARE and CLINT on seed 0's first deal, both players pick a legal guess; the search's value is on the
    # utility scale (at most the guesses left).
    spec = GameSpec(boards=32)
    game = Boards(official_game, 32)
    answers, _, _ = thirty_two(official_game)
    state = game.initial_state(37)
    for word in ("soare", "clint"):
        asked = game.result(state, official_game.words.guess_id(word))
        state = game.result(asked, game.reply(asked, answers))
    rng = np.random.default_rng(0)
    for name in ("entropy", "expectimax"):
        decision = make_player(name, game, spec, strict=False).decide(state, rng)
        assert 0 <= decision.guess < len(official_game.words.guesses)
        if name == "expectimax":
            assert decision.value <= state.guesses_left


@pytest.mark.parametrize("argv, message", [
    (("--max-guesses", "21"), "argument --max-guesses: must be at most 20, got 21"),
    (("--boards", "4", "--max-guesses", "21"), "argument --max-guesses: must be at most 20, got 21"),
    (("--boards", "32", "--max-guesses", "38"), "argument --max-guesses: must be at most 37, got 38"),
    (("--boards", "32", "--max-guesses", "65"), "argument --max-guesses: must be at most 64, got 65"),
])
@pytest.mark.parametrize("command", ["play", "tournament", "assist"])
def test_a_guess_limit_past_the_games_own_is_refused_in_one_line(capsys, command, argv, message):
    code, _, err = run_cli(capsys, command, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_small_sedecordle_tournament_is_won_and_replays(capsys, tmp_path):
    # Two seeded 16-board games of the entropy player, with the limit its recorded command names (21, past the
    # one-board 20), then verify --replay plays them again move for move.
    out = tmp_path / "sedecordle"
    code, _, err = run_cli(capsys, "tournament", "--boards", "16", "--max-guesses", "21", "--agents", "entropy",
                           "--sample", "2", "--seed", "0", "--jobs", "1", "--out", str(out))
    assert code == 0, err
    rows = (out / "games.csv").read_text().splitlines()[2:]
    assert len(rows) == 2 and all(row.split(",")[7] == "1" for row in rows)
    code, report, err = run_cli(capsys, "verify", str(out), "--replay")
    assert code == 0, err
