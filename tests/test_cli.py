"""The command line: the play trace, a person's game, and every bad-input path (exit code, one line)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]


def test_agent_trace_shows_tiles_counts_bits_and_outcome(capsys):
    code, out, err = run_cli(capsys, "play", "--agent", "random", "--answer", "crane", "--seed", "3")
    assert code == 0 and err == ""
    assert "random playing CRANE" in out and "Solved CRANE in" in out
    assert " C   R   A   N   E " in out and "left" in out and "bits" in out


def test_same_seed_same_trace(capsys):
    first = run_cli(capsys, "play", "--agent", "random", "--answer", "slate", "--seed", "5", "--hard")
    second = run_cli(capsys, "play", "--agent", "random", "--answer", "slate", "--seed", "5", "--hard")
    assert first == second and "hard mode" in first[1]


def test_person_plays_with_refusals(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--answer", "crane", "--hard", stdin="salet\ntonic\nzzzzz\ncrane\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert "hard mode: guess must contain A (revealed in SALET)" in out
    assert "'zzzzz' is not in the list of allowed guesses" in out
    assert "Solved CRANE in 2/6" in out


def test_person_who_stops_typing_is_told_the_answer(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--answer", "crane", stdin="salet\n", monkeypatch=monkeypatch)
    assert code == 1 and "answer was CRANE" in out


def test_person_out_of_guesses(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--answer", "crane", "--max-guesses", "1", stdin="salet\n", monkeypatch=monkeypatch)
    assert code == 1 and "Not solved in 1 guesses: the answer was CRANE" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["play", "--agent", "random", "--answer", "xxxxx"], "'xxxxx' is not in the list of possible answers"),
        (["play", "--agent", "random", "--answer", "salet"], "'salet' is not in the list of possible answers"),
        (["play", "--agent", "nobody"], "invalid choice: 'nobody'"),
        (["play", "--seed", "-1"], "argument --seed: must be at least 0, got -1"),
        (["play", "--max-guesses", "1000000000"], "argument --max-guesses: must be at most 20, got 1000000000"),
        (["play", "--agent", "expectimax", "--answer", "cigar", "--depth", "1000000"],
         "argument --depth: depth must be at most 4, got 1000000"),
        (["play", "--agent", "expectimax", "--answer", "cigar", "--beam", "99999999999"],
         "argument --beam: beam must be at most 100, got 99999999999"),
        (["play", "--agent", "expectimax", "--mode", "zero"], "unrecognized arguments: --mode zero"),
        (["--nosuch"], "wordle-arena: error: unrecognized arguments: --nosuch"),
        ([], "wordle-arena: error: choose a command: play, tournament, verify, tree, assist, openers"),
        (["play", "--max-guesses", "zero"], "argument --max-guesses: must be a whole number, got 'zero'"),
        (["play", "--bogus"], "unrecognized arguments: --bogus"),
        (["dance"], "invalid choice: 'dance'"),
        (["play", "--answers", "/nonexistent/list.txt"], "/nonexistent/list.txt: no such file"),
        (["openers", "--top", "2", "--out", "tests"], "tests is a folder; give a file name"),
        (["openers", "--top", "2", "--out", "README.md/x.json"], "part of its folder path is a file"),
        (["tree", "--out", "tree.txt"], "tree.txt: the file must end in .json or .graphml"),
        (["tournament", "--agents", "random", "--out", "README.md/run"], "README.md/run: cannot make a folder there"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_word_list_names_file_line_and_word(capsys, tmp_path):
    bad = tmp_path / "answers.txt"
    bad.write_text("crane\ncran\n")
    code, _, err = run_cli(capsys, "play", "--agent", "random", "--answers", str(bad))
    assert code == 2 and f"{bad}, line 2: 'cran' is not a 5-letter word" in err


def test_own_word_lists(capsys, tmp_path):
    answers = tmp_path / "a.txt"
    answers.write_text("crane\nslate\n")
    code, out, _ = run_cli(capsys, "play", "--agent", "random", "--answers", str(answers), "--answer", "slate")
    assert code == 0 and "Solved SLATE" in out


def test_the_script_itself_exits_cleanly_on_bad_input():
    """Through a real process: no traceback, one line, exit 2."""
    finished = subprocess.run([sys.executable, "cli.py", "play", "--agent", "random", "--answer", "qqqqq"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 2
    assert finished.stderr.strip() == "wordle-arena: error: 'qqqqq' is not in the list of possible answers"


def test_help_lists_play():
    finished = subprocess.run([sys.executable, "cli.py", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0
    listed = [line.split()[0] for line in finished.stdout.splitlines() if line.startswith("    ") and line[4] != " "]
    assert listed == ["play", "tournament", "verify", "tree", "assist", "openers", "train"]


def test_tree_command_writes_a_tree_and_refuses_bad_paths(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    out = tmp_path / "tree.json"
    code, text, err = run_cli(capsys, "tree", "--agent", "expectimax", "--depth", "2", "--answers", str(answers),
                          "--guesses", str(answers), "--out", str(out))
    assert code == 0 and err == "" and out.exists() and "6 answers" in text
    code, _, err = run_cli(capsys, "tree", "--answers", str(answers), "--guesses", str(answers), "--out", str(tmp_path / "t.csv"))
    assert code == 2 and err.count("\n") == 1 and "must end in .json or .graphml" in err
    code, _, err = run_cli(capsys, "play", "--agent", "expectimax", "--weights", "1,2", "--answer", "crane")
    assert code == 2 and err.count("\n") == 1 and "weights takes 4 numbers separated by commas, got '1,2'" in err


def test_search_agent_trace_shows_values_and_nodes(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    code, out, err = run_cli(capsys, "play", "--agent", "alphabeta", "--answers", str(answers), "--guesses", str(answers),
                         "--answer", "parka", "--depth", "2", "--eval", "entropy")
    assert code == 0 and err == "" and "nodes" in out and "value" in out


def test_mode_means_normal_hard_or_both_and_only_that(capsys):
    """--mode is the tournament's game mode; the evaluation mode is --eval-mode everywhere."""
    code, out, _ = run_cli(capsys, "play", "--agent", "expectimax", "--answer", "crane", "--depth", "1",
                           "--eval-mode", "zero", "--seed", "4")
    assert code in (0, 1) and "expectimax playing CRANE (normal mode, seed 4)" in out
    code, _, err = run_cli(capsys, "tournament", "--mode", "zero")
    assert code == 2 and "argument --mode: invalid choice: 'zero'" in err


def test_play_without_a_seed_draws_a_fresh_answer_and_prints_its_seed(capsys):
    seen = set()
    for _ in range(4):
        code, out, _ = run_cli(capsys, "play", "--agent", "entropy")
        header = out.splitlines()[0]
        seen.add(header.split(" playing ")[1].split(" ")[0])
        seed = header.rsplit("seed ", 1)[1].rstrip(")")
        assert run_cli(capsys, "play", "--agent", "entropy", "--seed", seed)[1].splitlines()[0] == header
    assert len(seen) > 1


def test_an_empty_line_at_the_prompt_is_asked_again_not_called_a_word(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--answer", "crane", stdin="\n  \ncrane\n", monkeypatch=monkeypatch)
    assert code == 0 and "not in the list" not in out and "Solved CRANE in 1/6" in out
