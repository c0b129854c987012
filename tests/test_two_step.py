"""two-step: second guesses and two-step information against brute force, the ranking order, the plan cache."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from agents import game_rng, make_agent, two_step
from agents.entropy import EntropyAgent
from agents.two_step import (
    OpenerResult, best_plan, evaluate_opener, plan_cache, plan_cache_path, rank_openers, second_guesses, sort_results,
    top_openers,
)
from wordle import ALL_GREEN, load_words
from tests.conftest import small_game

OFFICIAL = load_words()
ANSWERS = list(OFFICIAL.answers[::120])  # 20 answers
GUESSES = list(OFFICIAL.guesses[5::400]) + ["soare", "raise", "salet", "crane"]


def game_fixture():
    return small_game(ANSWERS, GUESSES)


def brute_second(game, state) -> int:
    """The greedy entropy guess, by counting: max entropy, then can-win, then index."""
    n = len(state.candidates)
    rows = set(game.words.answer_rows[state.candidates].tolist())
    best = []
    for guess in game.legal_guesses(state):
        counts = Counter(game.reply(int(guess), int(a)) for a in state.candidates).values()
        entropy = -sum(c / n * math.log2(c / n) for c in counts)
        best.append((-round(entropy, 9), int(guess) not in rows, int(guess)))
    return min(best)[2]


@pytest.mark.parametrize("hard", [False, True])
def test_second_guesses_and_two_step_bits_by_brute_force(hard):
    game = game_fixture()
    opener = int(top_openers(game, 1)[0])
    seconds, bits = second_guesses(game, opener, hard)
    start = game.initial_state(hard=hard)
    for pattern, _ in game.partition(start.candidates, opener):
        if pattern != ALL_GREEN:
            assert seconds[pattern] == brute_second(game, game.step(start, opener, pattern))
    pairs = Counter()
    for answer in game.all_answers:
        first = game.reply(opener, int(answer))
        pairs[(first, None if first == ALL_GREEN else game.reply(seconds[first], int(answer)))] += 1
    n = len(game.all_answers)
    assert bits == pytest.approx(-sum(c / n * math.log2(c / n) for c in pairs.values()))


def test_measured_average_replays_the_games():
    game = game_fixture()
    opener = int(top_openers(game, 1)[0])
    result = evaluate_opener(game, opener, hard=False)
    follow = EntropyAgent(game)
    counts = []
    for answer in game.all_answers:
        state, used = game.initial_state(), 0
        while not game.is_terminal(state):
            guess = opener if used == 0 else result.seconds[state.history[0][1]] if used == 1 else \
                follow.decide(state, game_rng(0, 0)).guess
            state, used = game.step(state, guess, game.reply(guess, int(answer))), used + 1
        counts.append(used if state.solved else 7)
    assert result.total == sum(counts) and result.average == pytest.approx(np.mean(counts))
    assert result.failures == sum(c > 6 for c in counts) and result.worst == max(counts)


def fake(opener: int, total: int, bits: float) -> OpenerResult:
    return OpenerResult(opener=opener, entropy=0.0, two_step_bits=bits, seconds={}, average=total / 10,
                        worst=4, failures=0, total=total)


def test_ranking_order_average_then_bits_then_index():
    results = [fake(5, 35, 9.0), fake(3, 34, 8.0), fake(9, 35, 9.5), fake(2, 35, 9.0)]
    assert [r.opener for r in sort_results(results)] == [3, 9, 2, 5]


def test_two_processes_give_the_same_ranking():
    game = game_fixture()
    assert rank_openers(game, 3, hard=True, jobs=2) == rank_openers(game, 3, hard=True, jobs=1)


def test_plan_cache_round_trip_and_damage(tmp_path, monkeypatch):
    game = game_fixture()
    result = best_plan(game, 2, hard=False, directory=tmp_path)
    path = plan_cache_path(game, 2, False, 6, tmp_path)
    assert result == rank_openers(game, 2, hard=False)[0]
    assert plan_cache(game, 2, False, 6).read(tmp_path) is not None
    text = path.read_text()
    pattern, second = next(iter(result.seconds.items()))
    head, payload = text.split("\n", 2)[:2], text.split("\n", 2)[2]
    assert f'"{pattern}": {second}' in payload
    edited = "\n".join(head) + "\n" + payload.replace(f'"{pattern}": {second}', f'"{pattern}": {second + 1}')
    calls = []
    monkeypatch.setattr(two_step, "rank_openers", lambda *a, **k: calls.append(1) or [result])
    for damage in ("{", text[: len(text) // 2], text.replace('"seconds": {"', '"seconds": {"1000'), edited):
        path.write_text(damage)
        assert plan_cache(game, 2, False, 6).read(tmp_path) is None
        assert best_plan(game, 2, hard=False, directory=tmp_path) == result
    assert len(calls) == 4


def test_agent_plays_the_plan_then_entropy():
    game = game_fixture()
    agent = make_agent("two-step", game, openers=3)
    best = rank_openers(game, 3, hard=False)[0]
    for answer in game.all_answers:
        playthrough = game.play(lambda s: agent.decide(s, game_rng(0, int(answer))).guess, int(answer))
        assert playthrough.solved and playthrough.turns[0].guess == best.opener
        if len(playthrough.turns) > 1:
            assert playthrough.turns[1].guess == best.seconds[playthrough.turns[0].pattern]
    assert agent.settings() == {"openers": 3}


def test_openers_command_prints_and_saves_the_ranking(tmp_path, capsys):
    import json

    import cli

    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(ANSWERS) + "\n")
    guesses.write_text("\n".join(sorted(set(ANSWERS) | set(GUESSES))) + "\n")
    out = tmp_path / "openers.json"
    code = cli.main(["openers", "--top", "3", "--hard", "--jobs", "1", "--answers", str(answers),
                     "--guesses", str(guesses), "--out", str(out)])
    printed = capsys.readouterr().out
    record = json.loads(out.read_text())
    game = game_fixture()
    best = rank_openers(game, 3, hard=True)
    assert code == 0 and "ranked by measured average (hard mode)" in printed
    assert [row["opener"] for row in record["ranking"]] == [game.words.guesses[r.opener] for r in best]
    assert record["ranking"][0]["average"] == pytest.approx(best[0].average, abs=1e-6)
    assert record["command"].startswith("python cli.py openers --top 3 --hard")
    assert record["word_lists_sha256"] == game.words.checksum and record["mode"] == "hard" and "commit" in record
    assert sorted(row["two_step_rank"] for row in record["ranking"]) == [1, 2, 3]
