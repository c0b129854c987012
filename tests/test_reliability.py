"""Issue 14's reproductions, each shown fixed: one run per folder, bounded work, one-line errors, exact tests, replay."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from wordle import load_matrix, load_words
from plumbing import storage
from wordle.matrix import cache_path
from plumbing.storage import FolderLock
from tests.conftest import run_cli, said_lines
from tests.test_tournament import finished, lists, tamper, tournament  # noqa: F401  (fixtures and helpers)
from variants import GameSpec
from tournament import summarise, verify_folder
from tournament.records import GameRecord, read_file
from tournament.runner import write_results
from tournament.stats import exact_signed_rank_p, signed_rank_test

ROOT = Path(__file__).resolve().parents[1]


def one_line_error(code: int, stderr: str, *fragments: str) -> None:
    """Exit 2, one line, no traceback, and every fragment in it."""
    assert code == 2 and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr, stderr
    for fragment in fragments:
        assert fragment in stderr, stderr


# -- one run per results folder ------------------------------------------------------------------
def test_a_second_run_or_resume_of_a_held_folder_names_the_running_one(capsys, lists, tmp_path):
    folder = tmp_path / "race"
    folder.mkdir()
    lock = FolderLock(folder)
    lock.acquire("2026-01-01T00:00:00+00:00")
    try:
        for extra in ((), ("--resume",)):
            code, _, stderr = tournament(capsys, lists, folder, *extra)
            one_line_error(code, stderr, f"is in use by another run (pid {os.getpid()}, "
                                         "started 2026-01-01T00:00:00+00:00)", "--resume")
        assert sorted(p.name for p in folder.iterdir()) == [".lock"]  # nothing was played or truncated
    finally:
        lock.release()
    assert tournament(capsys, lists, folder)[0] == 0
    assert not (folder / ".lock").exists()


def test_a_lock_left_by_a_killed_run_never_blocks_resume(capsys, lists, tmp_path):
    folder = tmp_path / "killed"
    folder.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from plumbing.storage import FolderLock; "
                               "FolderLock(sys.argv[1]).acquire('then'); print('held', flush=True); time.sleep(60)",
         str(folder)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    code, _, stderr = tournament(capsys, lists, folder)
    one_line_error(code, stderr, f"pid {holder.pid}")
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert (folder / ".lock").exists()  # the stale file stays; its lock died with the process
    assert tournament(capsys, lists, folder, "--resume")[0] == 0


def test_forked_children_do_not_keep_the_lock(tmp_path):
    lock = FolderLock(tmp_path)
    lock.acquire("now")
    child = os.fork()
    if child == 0:  # the child holds a copy of the descriptor until fork's hook closes it
        time.sleep(0.5)
        os._exit(0)
    try:
        lock.release()
        again = FolderLock(tmp_path)
        again.acquire("later")  # the child still lives: its copy must not hold the lock
        again.release()
    finally:
        os.waitpid(child, 0)


# -- bounded work ------------------------------------------------------------------------------
def game_record(mode: str, answer: str, turns: int, agent: str = "a", solved: bool = True) -> GameRecord:
    """A hand-made record: `turns` guesses of crane, solved at the last."""
    return GameRecord.of_answer(agent, mode, answer, ("crane",) * turns, (0,) * (turns - 1) + ((242,) if solved else (0,)),
                      solved, 0)


def test_statistics_do_not_loop_to_a_huge_guess_limit():
    records = [game_record("normal", "crane", 3), game_record("normal", "slate", 9)]
    summary = summarise(records, ["a"], ["normal"], 10**9)
    assert summary.histogram_columns == 9 and summary.results[0].histogram == (0, 0, 1, 0, 0, 0, 0, 0, 1)
    assert summarise(records[:1], ["a"], ["normal"], 10**9).results[0].histogram == (0, 0, 1, 0, 0, 0)


@pytest.mark.parametrize("old, new, field", [('"max_guesses": 6', '"max_guesses": 1000000000', "settings.max_guesses"),
                                             ('"sample": null', '"sample": 99999', "settings.sample")])
def test_verify_refuses_absurd_metadata_naming_its_field(capsys, finished, old, new, field):  # noqa: F811
    games = finished / "games.csv"
    first, rest = games.read_text().split("\n", 1)
    games.write_text(first.replace(old, new, 1) + "\n" + rest)
    code, _, stderr = run_cli(capsys, "verify", str(finished))
    lines = stderr.strip().splitlines()
    assert code == 1 and len(lines) == 2 and f"the metadata's {field} is" in lines[0] and "--sample" not in stderr


# -- one-line errors -----------------------------------------------------------------------------
def test_a_word_list_with_a_byte_order_mark_is_read(tmp_path):
    answers = tmp_path / "bom.txt"
    answers.write_bytes("\ufeffaback\ncrane\n".encode("utf-8"))
    assert load_words(answers, answers).answers == ("aback", "crane")


def test_a_fifo_as_a_word_list_is_refused(capsys, tmp_path):
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    one_line_error(*run_cli(capsys, "play", "--agent", "entropy", "--answers", str(fifo), "--answer", "crane")[::2],
                   "not a regular file")


def test_a_fifo_where_the_matrix_cache_belongs_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path))
    answers = tmp_path / "a.txt"
    answers.write_text("crane\nslate\n")
    os.mkfifo(cache_path(load_words(answers, answers)))
    code, _, stderr = run_cli(capsys, "play", "--agent", "entropy", "--answers", str(answers), "--guesses",
                              str(answers), "--answer", "crane")
    one_line_error(code, stderr, "is not a regular file")


def test_a_fifo_as_a_results_file_is_refused(capsys, finished):  # noqa: F811
    (finished / "games.csv").unlink()
    os.mkfifo(finished / "games.csv")
    code, _, stderr = run_cli(capsys, "verify", str(finished))
    assert code == 1 and "games.csv: not a regular file" in stderr


def test_a_folder_that_cannot_be_written_is_one_line(capsys, lists, tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    load_matrix(load_words(answers=lists[0], guesses=lists[1]))  # cached first: only the run's folder refuses
    monkeypatch.setattr(storage.tempfile, "mkstemp", refuse)
    code, _, stderr = tournament(capsys, lists, tmp_path)
    one_line_error(code, stderr, "cannot write in this folder (Permission denied)")


# -- statistics on small samples -----------------------------------------------------------------
def test_exact_signed_rank_test_with_zero_differences():
    differences = np.array([1.0] * 4 + [0.0] * 20)  # 4 answers harder by one guess, 20 equal
    assert signed_rank_test(differences) == (0.0, pytest.approx(0.125), "exact")
    # 6 harder by one, 1 harder by two: every sign pattern but the all-positive and all-negative is less extreme
    assert exact_signed_rank_p(np.array([1.0] * 6 + [2.0])) == (0.0, pytest.approx(2 / 2**7))
    # one easier, three harder, all by one: positive rank sum 7.5 of 10, P(T+ >= 7.5) = 5/16
    assert exact_signed_rank_p(np.array([1.0, 1.0, 1.0, -1.0])) == (2.5, pytest.approx(10 / 16))


def test_the_report_names_the_exact_test():
    records = [game_record("normal", f"wor{c}x", 3) for c in "abcdefghijklmnopqrstuvwx"]
    records += [game_record("hard", f"wor{c}x", 4 if c in "abcd" else 3) for c in "abcdefghijklmnopqrstuvwx"]
    summary = summarise(records, ["a"], ["normal", "hard"], 6)
    comparison = summary.comparisons[0]
    assert (comparison.harder, comparison.equal, comparison.test) == (4, 20, "exact")
    assert comparison.p_value == pytest.approx(0.125) and comparison.finding == "no difference"
    assert "p = 0.125, exact" in summary.verdict


# -- verify replays the play ------------------------------------------------------------------------
def regenerate(folder: Path, edit) -> None:
    """The audit's tampering: games edited by `edit`, then every file written again with the project's own functions."""
    from wordle import Wordle, load_matrix
    from tournament import make_plan

    loaded = read_file(folder / "games.csv", "games")
    timings = read_file(folder / "timings.csv", "timings").records
    records = tuple(edit(replace(r, seconds=t.seconds)) for r, t in zip(loaded.records, timings))
    settings = loaded.meta["settings"]
    words = load_words(settings["words"]["answers_file"], settings["words"]["guesses_file"])
    game = Wordle(words, load_matrix(words))
    plan = make_plan(game.words, GameSpec(answers=settings["words"]["answers_file"],
                                          guesses=settings["words"]["guesses_file"]),
                     agents=",".join(settings["agents"]), mode="both")
    sessions = json.loads((folder / "summary.json").read_text())["sessions"]
    write_results(folder, plan, game, records, sessions, summarise(records, plan.agents, plan.modes, 6))


def test_verify_replay_catches_games_rewritten_within_the_rules(capsys, finished):  # noqa: F811
    regenerate(finished, lambda r: replace(r, guesses=(r.answer,), replies=((242,),), solved=True))
    code, stdout, _ = run_cli(capsys, "verify", str(finished))
    assert code == 0  # every rewritten game follows the rules
    code, _, stderr = run_cli(capsys, "verify", str(finished), "--replay", "--sample", "3")
    lines = stderr.strip().splitlines()
    assert code == 1 and len(lines) == 4 and all("the replay differs in guesses" in line for line in lines[:3])


def test_verify_replay_passes_on_a_true_run_and_catches_edited_nodes(capsys, finished):  # noqa: F811
    code, stdout, _ = run_cli(capsys, "verify", str(finished), "--replay")
    assert code == 0 and "60 games replayed move for move" in stdout
    record = read_file(finished / "games.csv", "games").records[0]
    assert verify_folder(finished, replay=True, replay_sample=1).replayed == 1
    regenerate(finished, lambda r: replace(r, nodes=5) if r.answer == record.answer else r)  # one answer's nodes
    assert run_cli(capsys, "verify", str(finished))[0] == 0
    code, _, stderr = run_cli(capsys, "verify", str(finished), "--replay")
    assert code == 1 and "the replay differs in nodes" in stderr


def test_verify_checks_every_field_of_the_summary(capsys, finished):  # noqa: F811
    summary = finished / "summary.json"
    original = json.loads(summary.read_text())
    for edit in (lambda d: d["sessions"][0].update(jobs=0), lambda d: d["sessions"][0].update(extra=1),
                 lambda d: d.update(written="yesterday"), lambda d: d.update(note="hi"),
                 lambda d: d["sessions"].clear()):
        data = json.loads(json.dumps(original))
        edit(data)
        summary.write_text(json.dumps(data))
        code, _, stderr = run_cli(capsys, "verify", str(finished))
        assert code == 1 and "summary.json" in stderr
    summary.write_text(json.dumps(original))
    assert run_cli(capsys, "verify", str(finished))[0] == 0


# -- resume repairs what a crash or a slip leaves ----------------------------------------------------
@pytest.mark.parametrize("name", ["summary.json", "report.md"])
def test_resume_writes_a_deleted_summary_or_report_again(capsys, lists, finished, name):  # noqa: F811
    before = (finished / "games.csv").read_bytes()
    (finished / name).unlink()
    code, stdout, _ = tournament(capsys, lists, finished, "--resume")
    assert code == 0 and f"{name} was missing: written again" in stdout
    assert (finished / "games.csv").read_bytes() == before and run_cli(capsys, "verify", str(finished))[0] == 0


def test_resume_repairs_a_cut_off_last_line_of_games_csv(capsys, lists, finished):  # noqa: F811
    games = finished / "games.csv"
    before = games.read_bytes()
    games.write_bytes(before[:-7])  # the last row loses its end, as a crash mid-write leaves it
    code, _, stderr = run_cli(capsys, "verify", str(finished))
    assert code == 1 and "the last line is cut off" in stderr
    code, stdout, _ = tournament(capsys, lists, finished, "--resume")
    assert code == 0 and "its last line was cut off" in stdout and "1 games played" in stdout
    assert games.read_bytes() == before and run_cli(capsys, "verify", str(finished))[0] == 0


# -- issue 31: huge files, budgets, encodings, a closed stdout -------------------------------------------------
@pytest.mark.parametrize("flag", ["--answers", "--guesses", "--exclude"])
def test_a_huge_sparse_word_file_is_refused_before_it_is_read(capsys, tmp_path, flag):
    """A 1 GB sparse word list took 3.26 GB and 33 s before it was refused (3 GB: a MemoryError traceback); it is
    refused by its size, in one line, with nothing read."""
    from wordle.words import MOST_WORD_FILE_BYTES

    huge = tmp_path / "huge.txt"
    huge.touch()
    os.truncate(huge, 2**30)
    code, _, err = run_cli(capsys, "review", flag, str(huge), "--answer", "crane", "slate", "crane")
    one_line_error(code, err, str(huge), f"more than the {MOST_WORD_FILE_BYTES}")


def test_every_results_reader_refuses_a_huge_file(tmp_path):
    """The readers of the indicator matrix's files share read_regular_file's cap."""
    huge = tmp_path / "indicators.json"
    huge.touch()
    os.truncate(huge, storage.MOST_FILE_BYTES + 1)
    with pytest.raises(storage.UserError, match="more than the"):
        storage.read_text_file(huge)
    with pytest.raises(FileNotFoundError):
        storage.read_text_file(tmp_path / "missing.json")


@pytest.mark.parametrize("budget", ["1e-9s", "0.5ms", "0.0001s", "86401s", "\uff11s", "\u0661s", "1\u00b2s",
                                    "nans", "infs", "1_0s", "-1s", "0s", "1e999s", "s", "25h"])
def test_a_budget_outside_its_range_or_not_in_ascii_digits_is_refused(capsys, budget):
    code, _, err = run_cli(capsys, "solve", "crane:-----", f"--budget={budget}")
    one_line_error(code, err, "is not a budget")


@pytest.mark.slow
def test_an_ascii_only_output_spells_the_marks():
    """Under PYTHONIOENCODING=ascii the marks of a bound and an estimate were all '?'; they are spelled."""
    from cli import spell_unencodable

    assert "\u2264 3.5 \u2265 3.4 \u2248 3.45 \u00e9".encode("ascii", "wordle-arena-spell") == b"<= 3.5 >= 3.4 ~ 3.45 ?"
    assert spell_unencodable(UnicodeEncodeError("ascii", "\u2248", 0, 1, "x")) == ("~", 1)
    done = subprocess.run([sys.executable, "cli.py", "assist", "tares:-y---", "--top", "3"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONIOENCODING": "ascii"}, timeout=300)
    assert done.returncode == 0, done.stderr
    spelled = ("~ 2.", "<= 2.", ">= 2.")  # an estimate, a tree's value or a bound, whichever the values hold
    assert any(mark in done.stdout for mark in spelled) and "? 2." not in done.stdout


@pytest.mark.parametrize("redirect", [">&-", ">/dev/full"])
@pytest.mark.slow
def test_output_that_cannot_be_written_is_an_error(redirect):
    """`review ... >&-` exited 0 with nothing shown; a closed or full stdout is one line on stderr and exit non-zero."""
    done = subprocess.run(f"{sys.executable} cli.py review --answer crane slate crane {redirect}", shell=True,
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    lines = said_lines(done.stderr)
    assert done.returncode != 0 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "standard output" in lines[0] or "disk is full" in lines[0]
