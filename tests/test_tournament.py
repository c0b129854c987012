"""The tournament end to end on small word lists: files, verify, resume, determinism, agent errors, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import agents.registry as registry
from agents.random_guesser import RandomGuesser
from wordle import Wordle, load_matrix, load_words
from variants import GameSpec
from tournament import make_plan, run_tournament, summarise, verify_folder
from tests.conftest import run_cli
from tournament.records import read_file

SMALL_ANSWERS = 30
SMALL_EXTRA_GUESSES = 30


@pytest.fixture()
def lists(tmp_path) -> tuple[Path, Path]:
    """~30 answers and ~60 guesses drawn from the official lists, written as word-list files."""
    official = load_words()
    answers = list(official.answers[::77][:SMALL_ANSWERS])
    extra = [w for w in official.guesses[::397] if w not in answers][:SMALL_EXTRA_GUESSES]
    answer_file, guess_file = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answer_file.write_text("\n".join(answers) + "\n")
    guess_file.write_text("\n".join(sorted(answers + extra)) + "\n")
    return answer_file, guess_file


@pytest.fixture()
def small_game(lists) -> Wordle:
    """The game over the small lists."""
    words = load_words(answers=lists[0], guesses=lists[1])
    return Wordle(words, load_matrix(words))


def tournament(capsys, lists, out: Path, *extra: str) -> tuple[int, str, str]:
    """`tournament --agents random` on the small lists into `out`."""
    return run_cli(capsys, "tournament", "--agents", "random", "--answers", str(lists[0]), "--guesses",
                   str(lists[1]), "--out", str(out), *extra)


# -- end to end ----------------------------------------------------------------------------
def test_small_tournament_writes_files_whose_summary_follows_from_the_games(capsys, lists, tmp_path):
    out = tmp_path / "run"
    code, stdout, stderr = tournament(capsys, lists, out, "--jobs", "2")
    assert code == 0, stderr
    assert {p.name for p in out.iterdir()} == {"games.csv", "timings.csv", "summary.json", "report.md",
                                              "histograms.svg", "hard-vs-normal.svg"}
    games = read_file(out / "games.csv", "games")
    assert len(games.records) == 2 * SMALL_ANSWERS
    words = load_words(answers=lists[0], guesses=lists[1])
    assert [(r.mode, r.answer) for r in games.records] == [(m, a) for m in ("normal", "hard") for a in words.answers]
    assert all(r.solved and 1 <= r.turns <= 6 and r.patterns[-1] == 242 for r in games.records)
    # every file records command, seed, checksum, versions and commit
    summary = json.loads((out / "summary.json").read_text())
    for meta in (games.meta, read_file(out / "timings.csv", "timings").meta, summary):
        assert meta["settings"]["seed"] == 0 and meta["settings"]["words"]["word_lists_sha256"] == words.checksum
        assert meta["command"].startswith("python cli.py tournament --agents random")
        assert meta["provenance"][0]["commit"] and "numpy" in meta["provenance"][0]["versions"]
    report = (out / "report.md").read_text()
    assert words.checksum in report and "## Verdict" in report and summary["command"] in report
    # the summary is what the per-game lines give
    mean = np.mean([r.turns for r in games.records if r.mode == "normal"])
    normal = next(row for row in summary["summary"]["results"] if row["mode"] == "normal")
    assert normal["mean"] == pytest.approx(mean) and normal["games"] == SMALL_ANSWERS
    assert sum(normal["histogram"]) + normal["failures"] == SMALL_ANSWERS
    # random plays the same candidates in both modes, so the paired comparison is all "equal"
    comparison = summary["summary"]["comparisons"][0]
    assert comparison["equal"] == SMALL_ANSWERS and comparison["p_value"] == 1.0
    assert "Is hard mode harder?" in stdout and "random" in stdout
    code, stdout, _ = run_cli(capsys, "verify", str(out))
    assert code == 0 and f"all {2 * SMALL_ANSWERS} games follow the rules" in stdout


def test_same_seed_gives_byte_identical_games_file_and_another_seed_does_not(capsys, lists, tmp_path):
    assert tournament(capsys, lists, tmp_path / "a", "--jobs", "2")[0] == 0
    assert tournament(capsys, lists, tmp_path / "b", "--jobs", "1")[0] == 0
    assert tournament(capsys, lists, tmp_path / "c", "--seed", "1")[0] == 0
    first, second = (tmp_path / "a" / "games.csv").read_bytes(), (tmp_path / "b" / "games.csv").read_bytes()
    assert first == second
    assert (tmp_path / "c" / "games.csv").read_bytes() != first


def test_searching_agents_games_and_node_counts_do_not_depend_on_the_workers(capsys, lists, tmp_path):
    """Search caches are shared across a worker's games; the moves and nodes recorded must not show it."""
    common = ["tournament", "--agents", "expectimax,alphabeta,decision-tree", "--depth", "2",
              "--answers", str(lists[0]), "--guesses", str(lists[1])]
    assert run_cli(capsys, *common, "--jobs", "1", "--out", str(tmp_path / "one"))[0] == 0
    assert run_cli(capsys, *common, "--jobs", "2", "--out", str(tmp_path / "two"))[0] == 0
    one = (tmp_path / "one" / "games.csv").read_text()
    assert one == (tmp_path / "two" / "games.csv").read_text()
    assert any(int(line.split(",")[7]) > 0 for line in one.splitlines()[2:])  # nodes were counted


def test_sample_is_seeded_and_named_in_the_default_folder(small_game):
    plan = make_plan(small_game.words, agents="random", sample=7, seed=3)
    assert len(plan.games) == 7 and plan.games == make_plan(small_game.words, agents="random", sample=7, seed=3).games
    assert plan.games != make_plan(small_game.words, agents="random", sample=7, seed=4).games
    from tournament import default_folder
    assert default_folder(plan) == Path("results/tournament-sample-7-seed-3")


# -- verify catches tampering ----------------------------------------------------------------
@pytest.fixture()
def finished(capsys, lists, tmp_path) -> Path:
    """A finished small run folder."""
    out = tmp_path / "done"
    assert tournament(capsys, lists, out, "--jobs", "2")[0] == 0
    return out


def tamper(path: Path, old: str, new: str) -> None:
    """Replace the first `old` after the header lines by `new`."""
    head, body = path.read_text().split("\n", 2)[:2], path.read_text().split("\n", 2)[2]
    assert old in body
    path.write_text("\n".join(head) + "\n" + body.replace(old, new, 1))


def failed_lines(capsys, folder: Path, *extra: str) -> list[str]:
    """Run verify, expect failure, return its stderr lines."""
    code, _, stderr = run_cli(capsys, "verify", str(folder), *extra)
    assert code == 1 and "Traceback" not in stderr
    return stderr.strip().splitlines()


def test_verify_catches_a_wrong_pattern(capsys, finished):
    games = finished / "games.csv"
    record = read_file(games, "games").records[0]
    first = ",".join([record.agent, record.mode, record.answer, str(record.turns), " ".join(record.guesses)])
    from wordle import format_pattern
    patterns = " ".join(format_pattern(p) for p in record.patterns)
    wrong = "ggggg" if record.patterns[0] != 242 else "-----"
    tamper(games, f"{first},{patterns}", f"{first},{wrong}{patterns[5:]}")
    lines = failed_lines(capsys, finished)
    assert any(f"random normal {record.answer}: guess 1" in line and "the file says" in line for line in lines)
    assert lines[-1].endswith("FAILED (" + lines[-1].split("(")[1])


def test_verify_catches_a_changed_summary_and_unlisted_word(capsys, finished, small_game):
    summary = finished / "summary.json"
    data = json.loads(summary.read_text())
    data["summary"]["results"][0]["mean"] += 0.5
    summary.write_text(json.dumps(data))
    assert any("summary.results[0].mean" in line for line in failed_lines(capsys, finished))
    # a guess outside the lists
    record = read_file(finished / "games.csv", "games").records[3]
    tamper(finished / "games.csv", " ".join(record.guesses), " ".join(("zzzzz",) + record.guesses[1:]))
    assert any("'zzzzz' is not an allowed word" in line for line in failed_lines(capsys, finished))


def test_verify_catches_other_word_lists_and_garbage(capsys, finished, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("\n".join(load_words().answers[:40]) + "\n")
    lines = failed_lines(capsys, finished, "--answers", str(other), "--guesses", str(other))
    assert any("checksum" in line for line in lines)
    (finished / "games.csv").write_bytes(b"\x00garbage")
    lines = failed_lines(capsys, finished)
    assert any("games.csv" in line for line in lines)


def test_verify_catches_an_edited_report(capsys, finished):
    report = finished / "report.md"
    assert run_cli(capsys, "verify", str(finished))[0] == 0
    text = report.read_text()
    report.write_text(text.replace("| random | normal | ", "| random | normal | 4", 1))
    assert any("report.md: missing, or not the report" in line for line in failed_lines(capsys, finished))
    report.unlink()
    assert any("report.md" in line for line in failed_lines(capsys, finished))


@pytest.mark.parametrize("old, new", [('"seed": 0', '"seed": -1'), ('"sample": null', '"sample": "20"'),
                                      ('"agents": ["random"]', '"agents": [1]'), ('"max_guesses": 6', '"max_guesses": true')])
def test_verify_refuses_metadata_no_tournament_writes_in_one_line(capsys, finished, old, new):
    games = finished / "games.csv"
    first, rest = games.read_text().split("\n", 1)
    assert old in first
    games.write_text(first.replace(old, new, 1) + "\n" + rest)
    lines = failed_lines(capsys, finished)
    assert any("holds values it never writes" in line for line in lines)


def test_verify_refuses_a_folder_without_results(capsys, tmp_path):
    code, _, stderr = run_cli(capsys, "verify", str(tmp_path))
    assert code == 2 and len(stderr.strip().splitlines()) == 1 and "no games.csv" in stderr


def test_hard_mode_breach_is_caught(small_game):
    from tournament.records import GameRecord
    from tournament.verify import rule_problems
    from wordle import feedback
    words = small_game.words
    answer = words.answers[0]
    first = next(w for w in words.guesses if feedback(w, answer) not in (0, 242) and w != answer)
    # a second guess sharing no letter with a revealed one breaks hard mode
    revealed = {c for c, colour in zip(first, __import__("wordle").decode_colours(feedback(first, answer))) if colour}
    second = next(w for w in words.guesses if not revealed & set(w))
    guesses = (first, second, answer)
    record = GameRecord.of_answer("random", "hard", answer, guesses, tuple(feedback(g, answer) for g in guesses), True,
                                  0)
    assert any("breaks hard mode" in p for p in rule_problems(record, GameSpec(hard=True), words, 0, "x"))
    normal = GameRecord.of_answer("random", "normal", answer, guesses, record.patterns, True, 0)
    assert rule_problems(normal, GameSpec(), words, 0, "x") == []


# -- interrupt and resume ----------------------------------------------------------------------
class Stop(KeyboardInterrupt):
    """Raised from the progress hook to interrupt a run after some games."""


@pytest.mark.parametrize("jobs", [1, 2])
def test_resume_after_interrupt_gives_the_uninterrupted_results(small_game, lists, tmp_path, jobs):
    plan = make_plan(small_game.words, GameSpec(answers=lists[0], guesses=lists[1]), agents="random")
    whole = run_tournament(plan, small_game, tmp_path / "whole", jobs=jobs)
    seen = []

    def interrupt(record):
        seen.append(record)
        if len(seen) == 17:
            raise Stop()

    folder = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(plan, small_game, folder, jobs=jobs, on_game=interrupt)
    journal = read_file(folder / "journal.csv", "journal")
    # Every game reported is saved: the 17 seen before the interrupt and, with workers, the
    # games they had already sent when they were stopped.
    assert [r.key for r in journal.records] == [r.key for r in seen] and not (folder / "games.csv").exists()
    assert len(seen) == 17 if jobs == 1 else len(seen) >= 17
    with open(folder / "journal.csv", "a") as out:
        out.write("random,hard,cig")  # a crash in the middle of a line
    resumed = run_tournament(plan, small_game, folder, jobs=jobs, resume=True)
    assert resumed.resumed == len(seen) and resumed.played == whole.played - len(seen)
    assert (folder / "games.csv").read_bytes() == (tmp_path / "whole" / "games.csv").read_bytes()
    assert not (folder / "journal.csv").exists()
    assert verify_folder(folder).ok
    summary = json.loads((folder / "summary.json").read_text())
    assert len(summary["sessions"]) == 2
    # resuming a finished folder plays nothing and rewrites nothing
    before = (folder / "summary.json").read_bytes()
    again = run_tournament(plan, small_game, folder, jobs=jobs, resume=True)
    assert again.played == 0 and (folder / "summary.json").read_bytes() == before


def test_resume_refuses_other_settings_and_tampered_journal(capsys, lists, small_game, tmp_path):
    plan = make_plan(small_game.words, GameSpec(answers=lists[0], guesses=lists[1]), agents="random")
    folder = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(plan, small_game, folder, jobs=1, on_game=lambda r: (_ for _ in ()).throw(Stop()))
    journal_bytes = (folder / "journal.csv").read_bytes()
    code, _, stderr = tournament(capsys, lists, folder, "--resume", "--seed", "5")
    assert code == 2 and "seed differ (0 there, 5 here)" in stderr and len(stderr.strip().splitlines()) == 1
    code, _, stderr = tournament(capsys, lists, folder)
    assert code == 2 and "already holds a tournament; add --resume" in stderr
    assert (folder / "journal.csv").read_bytes() == journal_bytes  # refused runs leave the results alone
    record = read_file(folder / "journal.csv", "journal").records[0]
    tamper(folder / "journal.csv", f",{record.answer},", ",zzzzz,")
    code, _, stderr = tournament(capsys, lists, folder, "--resume")
    assert code == 2 and "refusing to resume" in stderr and "Traceback" not in stderr


# -- an agent that raises ------------------------------------------------------------------------
class Flaky(RandomGuesser):
    """Random, but raises whenever the first answer of the list is still possible after a guess."""

    def decide(self, state, rng):
        """Raise on some games, play randomly on the others."""
        if state.history and 0 in state.candidates:
            raise RuntimeError("boom, on purpose")
        return super().decide(state, rng)


def test_an_agent_error_is_recorded_and_the_tournament_goes_on(capsys, lists, tmp_path, monkeypatch):
    monkeypatch.setitem(registry.AGENTS, "flaky", registry.AgentSpec("flaky", "raises on purpose", Flaky, ()))
    out = tmp_path / "run"
    code, stdout, stderr = run_cli(capsys, "tournament", "--agents", "random,flaky", "--answers", str(lists[0]),
                                   "--guesses", str(lists[1]), "--out", str(out), "--jobs", "2")
    assert code == 0, stderr
    records = read_file(out / "games.csv", "games").records
    errors = [r for r in records if r.error]
    assert errors and all(r.agent == "flaky" and not r.solved and "boom, on purpose" in r.error for r in errors)
    assert len(records) == 4 * SMALL_ANSWERS and any(r.agent == "flaky" and r.solved for r in records)
    summary = json.loads((out / "summary.json").read_text())["summary"]
    assert sum(row["errors"] for row in summary["results"]) == len(errors)
    assert "agent error" in summary["verdict"]
    assert verify_folder(out).ok


# -- statistics, hand-checked --------------------------------------------------------------------
def test_paired_statistics_by_hand():
    from tournament.records import GameRecord

    def game(mode: str, answer: str, turns: int, solved: bool = True) -> GameRecord:
        return GameRecord.of_answer("a", mode, answer, ("crane",) * turns, (0,) * (turns - 1) + ((242,) if solved else (0,)),
                          solved, 0)

    answers = [f"wor{c}{d}" for c in "abcdefg" for d in "x"]
    normal = [game("normal", w, 3) for w in answers]
    hard = [game("hard", w, 4) for w in answers[:6]] + [game("hard", answers[6], 6, solved=False)]
    summary = summarise(normal + hard, ["a"], ["normal", "hard"], 6)
    hard_stats = summary.results[1]
    assert hard_stats.mean == pytest.approx((6 * 4 + 7) / 7) and hard_stats.worst == 7
    assert hard_stats.histogram == (0, 0, 0, 6, 0, 0) and hard_stats.failures == 1
    comparison = summary.comparisons[0]
    assert (comparison.harder, comparison.easier, comparison.equal) == (7, 0, 0)
    assert comparison.mean_difference == pytest.approx((6 * 1 + 4) / 7)
    # all seven differences positive: the exact two-sided Wilcoxon p is 2 / 2**7
    assert comparison.p_value == pytest.approx(2 / 2**7) and comparison.finding == "harder"
    assert "significantly harder for a" in summary.verdict
    assert comparison.same_games == 0 and "never binds" not in summary.verdict


def test_agents_whose_games_never_change_are_named_as_unbound_by_the_rule():
    from tournament.records import GameRecord

    def game(agent: str, mode: str, answer: str, guesses: tuple[str, ...]) -> GameRecord:
        return GameRecord.of_answer(agent, mode, answer, guesses, (0,) * (len(guesses) - 1) + (242,), True, 0)

    records = [game("same", mode, "crane", ("salet", "crane")) for mode in ("normal", "hard")]
    # Same number of guesses, different second guess: equal, but not the same game.
    records += [game("other", "normal", "crane", ("salet", "crane")), game("other", "hard", "crane", ("trace", "crane"))]
    summary = summarise(records, ["same", "other"], ["normal", "hard"], 6)
    same, other = summary.comparisons
    assert (same.equal, same.same_games) == (1, 1) and (other.equal, other.same_games) == (1, 0)
    assert "same played move for move the same game on every answer" in summary.verdict
    assert "other played" not in summary.verdict
    assert summary.verdict.endswith("So no agent here (2 compared) found hard mode significantly harder.")


# -- bad input: one line, exit 2, no traceback ------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--agents", "nope"], "unknown agent 'nope'"),
    (["--agents", "random,,random"], "empty name"),
    (["--agents", "random,random"], "more than once"),
    (["--mode", "sideways"], "invalid choice"),
    (["--sample", "0"], "argument --sample: must be at least 1, got 0"),
    (["--sample", "31"], "more than the 30 answers"),
    (["--jobs", "zero"], "argument --jobs: must be a whole number, got 'zero'"),
    (["--agents", "random,entropy", "--depth", "2"], "none of the agents played takes --depth"),
])
def test_bad_input_is_one_line(capsys, lists, tmp_path, argv, message):
    code, _, stderr = run_cli(capsys, "tournament", "--answers", str(lists[0]), "--guesses", str(lists[1]),
                              "--out", str(tmp_path / "x"), *argv)
    assert code == 2 and message in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert not (tmp_path / "x").exists()


class Crashing(RandomGuesser):
    """Random, but the process dies outright when the first answer is still possible after a guess."""

    def decide(self, state, rng):
        """Kill the worker on some games."""
        if state.history and 0 in state.candidates:
            import os
            os._exit(3)
        return super().decide(state, rng)


def test_a_dead_worker_stops_the_run_with_one_line_and_keeps_the_journal(capsys, lists, tmp_path, monkeypatch):
    monkeypatch.setitem(registry.AGENTS, "crashing", registry.AgentSpec("crashing", "dies on purpose", Crashing, ()))
    out = tmp_path / "run"
    code, _, stderr = run_cli(capsys, "tournament", "--agents", "random,crashing", "--answers", str(lists[0]),
                              "--guesses", str(lists[1]), "--out", str(out), "--jobs", "2")
    assert code == 2 and "worker process died (exit code 3)" in stderr and len(stderr.strip().splitlines()) == 1
    assert read_file(out / "journal.csv", "journal", allow_partial_last_line=True).records


def test_without_fork_the_games_are_played_in_one_process_with_one_warning(capsys, lists, tmp_path, monkeypatch):
    from tournament import runner

    monkeypatch.setattr(runner, "can_fork", lambda: False)
    forked = run_cli(capsys, "tournament", "--agents", "random,entropy", "--answers", str(lists[0]),
                     "--guesses", str(lists[1]), "--out", str(tmp_path / "one"), "--jobs", "2")
    assert forked[0] == 0
    assert forked[2].strip() == ("wordle-arena: warning: this system cannot fork worker processes; the games are played "
                                 "in this one process (the same games, on one core)")
    monkeypatch.undo()
    assert run_cli(capsys, "tournament", "--agents", "random,entropy", "--answers", str(lists[0]),
                   "--guesses", str(lists[1]), "--out", str(tmp_path / "two"), "--jobs", "2")[0] == 0
    games = [(tmp_path / name / "games.csv").read_text().split("\n", 1)[1] for name in ("one", "two")]
    assert games[0] == games[1]
