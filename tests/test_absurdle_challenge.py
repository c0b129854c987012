"""Absurdle's challenge mode: the search, its compiled kernels and the command, against a slow readable oracle."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.absurdle_challenge import Challenge, ChallengeLimit
from agents.indicators import TIE_RANK, make_indicator
from wordle import State, Wordle, encode_colours, feedback

from .conftest import run_cli, small_game
from .test_indicators import ANSWER_POOL


# -- the slow readable oracle ----------------------------------------------------------
def absurdle_keeps(game: Wordle, answers: frozenset[str], guess: str) -> frozenset[str]:
    """Absurdle's bucket, written out: group the answers by reply, keep the largest, ties to the lowest TIE_RANK."""
    buckets: dict[int, set[str]] = {}
    for answer in answers:
        buckets.setdefault(feedback(guess, answer), set()).add(answer)
    pattern = min(buckets, key=lambda code: (-len(buckets[code]), TIE_RANK[code]))
    return frozenset(buckets[pattern])


def fewest_guesses(game: Wordle, target: str) -> int | None:
    """Breadth-first over every line of guesses: the fewest that leave `target` alone, plus the final guess of it
    (None: no line does). A guess whose bucket loses the target is a lost game, never followed."""
    start = frozenset(game.words.answers)
    depth_of = {start: 0}
    queue = deque([start])
    while queue:
        answers = queue.popleft()
        if answers == {target}:
            return depth_of[answers] + 1
        for guess in game.words.guesses:
            kept = absurdle_keeps(game, answers, guess)
            if target in kept and kept not in depth_of:
                depth_of[kept] = depth_of[answers] + 1
                queue.append(kept)
    return None


def proved(challenge: Challenge, target: int) -> tuple[int | None, tuple[int, ...]]:
    """The challenge's answer for a small list, searched up to as many guesses as there are answers (enough: each
    useful guess keeps fewer answers): the fewest guesses (None: none) and the line."""
    proof = challenge.prove(target, ChallengeLimit(nodes=None))
    assert proof.cut == ""
    if proof.high is None:
        assert proof.low == len(challenge.answers) + 1
        return None, ()
    assert proof.proved
    return proof.high, proof.line


# -- worked by hand ----------------------------------------------------------------------
def test_two_answers_each_forced_in_two():
    # CIGAR from REBUT gets ----y... : REBUT's R is in CIGAR elsewhere, so guessing REBUT leaves
    # y---- (CIGAR) against ggggg (REBUT): one answer each, and an all-green reply loses every tie.
    game = small_game(["cigar", "rebut"])
    challenge = Challenge(game)
    assert feedback("rebut", "cigar") == encode_colours([1, 0, 0, 0, 0])
    for target, other in ((0, "rebut"), (1, "cigar")):
        fewest, line = proved(challenge, target)
        assert fewest == 2 and game.words.guesses[line[0]] == other


def test_guessing_the_target_too_early_loses_it():
    game = small_game(["cigar", "rebut"])
    challenge = Challenge(game)
    step = challenge.step(challenge.answers, game.words.guess_id("cigar"))
    assert step.kept.tolist() == [game.words.answer_id("rebut")]


def test_three_rhymes_each_need_three():
    # BASTE, CASTE, HASTE: any guess gets -gggg from the other two and ggggg from itself, so
    # Absurdle keeps the other two; the next guess splits them, and the -gggg bucket wins the tie.
    game = small_game(["baste", "caste", "haste"])
    challenge = Challenge(game)
    for target, word in enumerate(game.words.answers):
        fewest, line = proved(challenge, target)
        assert fewest == 3
        assert word not in [game.words.guesses[g] for g in line[:-1]]


def test_qntms_scrum_example_misses_the_target(official_game):
    # qntm.org/challenge: target SCRUM, guess PLEAT; all grey would keep 255 answers with SCRUM,
    # --y-- keeps 263 without it, so Absurdle answers --y-- and the target is missed.
    challenge = Challenge(official_game)
    scrum = official_game.words.answer_id("scrum")
    step = challenge.step(challenge.answers, official_game.words.guess_id("pleat"))
    assert step.pattern == encode_colours([0, 0, 1, 0, 0]) and len(step.kept) == 263
    assert np.count_nonzero(official_game.matrix[official_game.words.guess_id("pleat")] == 0) == 255
    assert scrum not in step.kept


# -- against the oracle ------------------------------------------------------------------
def check_against_brute_force(words: list[str], extra: list[str]) -> None:
    """Every target's fewest guesses and line on a small list, against the breadth-first oracle."""
    game = small_game(sorted(words), extra)
    challenge = Challenge(game)
    for target, word in enumerate(game.words.answers):
        fewest, line = proved(challenge, target)
        assert fewest == fewest_guesses(game, word)
        if fewest is not None:
            assert challenge.wins(target, list(line))


EXTRA_GUESSES = ["acing", "slate", "crony", "ghoul", "pudgy"]


@settings(max_examples=6, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=1, max_size=5, unique=True),
       extra=st.lists(st.sampled_from(EXTRA_GUESSES), max_size=1, unique=True))
def test_fewest_guesses_equal_brute_force(words, extra):
    check_against_brute_force(words, extra)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=5, max_size=11, unique=True),
       extra=st.lists(st.sampled_from(EXTRA_GUESSES), max_size=3, unique=True))
def test_fewest_guesses_equal_brute_force_larger_lists(words, extra):
    check_against_brute_force(words, extra)


@settings(max_examples=15, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=2, max_size=10, unique=True))
def test_the_lines_keep_the_target_at_every_guess(words):
    game = small_game(sorted(words), ["acing"])
    challenge = Challenge(game)
    for target in range(len(game.words.answers)):
        fewest, line = proved(challenge, target)
        if fewest is None:
            continue
        steps = challenge.play(list(line))
        assert all(target in step.kept for step in steps)  # Absurdle never left the target out along the line
        assert len(steps[-2].kept) == 1 if len(steps) > 1 else len(game.words.answers) == 1


@settings(max_examples=15, deadline=None)
@given(words=st.lists(st.sampled_from(ANSWER_POOL), min_size=3, max_size=12, unique=True))
def test_reached_in_three_equals_brute_force(words):
    game = small_game(sorted(words), ["acing", "slate"])
    challenge = Challenge(game)
    lines, finished = challenge.reached_in_three()
    assert finished.all()
    for target, word in enumerate(game.words.answers):
        fewest = fewest_guesses(game, word)
        # marked when at most 3 guesses leave the target alone (its line then has 3, a guess that keeps it alone at most)
        assert (lines[target, 0] >= 0) == (fewest is not None and fewest <= 4)
        if lines[target, 0] >= 0:
            line = [int(g) for g in lines[target] if g >= 0] + [int(game.words.answer_rows[target])]
            assert challenge.wins(target, line)


def test_the_replies_are_absurdles():
    game = small_game(ANSWER_POOL, ["acing", "slate"])
    challenge, absurdle = Challenge(game), make_indicator("absurdle", game)
    rng = np.random.default_rng(3)
    for _ in range(30):
        members = np.sort(rng.choice(len(game.words.answers), rng.integers(1, 15), replace=False)).astype(np.int64)
        patterns, sizes = challenge.replies(members)
        for guess in map(int, game.all_guesses):
            assert patterns[guess] == absurdle.pattern(State(candidates=members, pending=guess))
            assert sizes[guess] == np.count_nonzero(game.matrix[guess, members] == patterns[guess])
        order, ceilings, rows = challenge.layout(members)
        assert sorted(order.tolist()) == list(range(len(game.words.guesses)))
        for guess, ceiling, row in zip(order, ceilings, rows):
            assert ceiling == len(set(game.matrix[guess, members].tolist()))
            assert row.tolist() == game.matrix[guess, members].tolist()


def test_a_spent_budget_gives_the_interval_proved():
    game = small_game(ANSWER_POOL, ["acing"])
    challenge = Challenge(game)
    target = game.words.answer_id("cigar")
    full = challenge.prove(target, ChallengeLimit(nodes=None))
    cut = Challenge(game).prove(target, ChallengeLimit(nodes=1))
    assert cut.cut == "node budget" and not cut.proved
    assert cut.low <= full.low and (cut.high is None or cut.high >= full.high)


def test_the_greedy_line_wins(official_game):
    challenge = Challenge(official_game)
    target = official_game.words.answer_id("scrum")
    line = challenge.greedy_line(target)
    assert line is not None and challenge.wins(target, line)


# -- the command ---------------------------------------------------------------------------
@pytest.fixture
def lists(tmp_path):
    """A small answer list and guess list on disk."""
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(ANSWER_POOL[:8]) + "\n")
    guesses.write_text("\n".join(sorted(set(ANSWER_POOL[:8]) | {"acing", "slate"})) + "\n")
    return ["--answers", str(answers), "--guesses", str(guesses)]


def test_command_plays_and_proves(capsys, lists):
    code, out, err = run_cli(capsys, "absurdle", "--target", "flask", *lists)
    assert code == 0 and "FLASK ggggg  won" in out
    code, out, err = run_cli(capsys, "absurdle", "--target", "FLASK", "--prove", *lists)
    assert code == 0 and "FLASK: proved, the fewest guesses that force it is" in out and "won" in out


@pytest.mark.parametrize("argv, message", [
    (("--target", "zzzzz"), "'zzzzz' is not in the list of possible answers"),
    (("--prove",), "--prove belongs to the challenge: add --target WORD"),
    (("--nodes", "5"), "--nodes belongs to the challenge: add --target WORD"),
    (("--target", "flask", "--beam", "3"), "--beam belongs to the 4-guess search"),
    (("--target", "flask", "--prove", "--nodes", "0"), "--nodes"),
])
def test_command_refuses_in_one_line(capsys, lists, argv, message):
    code, out, err = run_cli(capsys, "absurdle", *argv, *lists)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
