"""The command line: the play trace, a person's game, and every bad-input path (exit code, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_agent_trace_shows_tiles_counts_bits_and_outcome(capsys):
    code, out, err = run_cli(capsys, "play", "--agent", "random", "--answer", "crane", "--seed", "3")
    assert code == 0 and err == ""
    assert "random playing CRANE" in out and "Solved CRANE in" in out
    assert " C   R   A   N   E " in out and "left" in out and "bits" in out


@pytest.mark.slow
def test_same_seed_same_trace(capsys):
    first = run_cli(capsys, "play", "--agent", "random", "--answer", "slate", "--seed", "5", "--hard")
    second = run_cli(capsys, "play", "--agent", "random", "--answer", "slate", "--seed", "5", "--hard")
    assert first == second and "hard mode" in first[1]


@pytest.mark.slow
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


@pytest.mark.slow
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
        (["play", "--max-guesses", "1000000000"], "argument --max-guesses: must be at most 64, got 1000000000"),
        (["play", "--agent", "expectimax", "--answer", "cigar", "--depth", "1000000"],
         "argument --depth: depth must be at most 4, got 1000000"),
        (["play", "--agent", "expectimax", "--answer", "cigar", "--beam", "99999999999"],
         "argument --beam: beam must be at most 100, got 99999999999"),
        (["play", "--agent", "expectimax", "--mode", "zero"], "unrecognized arguments: --mode zero"),
        (["--nosuch"], "wordle-arena: error: unrecognized arguments: --nosuch"),
        ([], "wordle-arena: error: choose a command: play, tournament, verify, tree, assist, review, openers, book, solve, train, "
             "serve, absurdle"),
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
    assert listed == ["play", "tournament", "verify", "tree", "assist", "review", "openers", "book", "solve", "train", "serve", "absurdle"]


def test_tree_command_writes_a_tree_and_refuses_bad_paths(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    out = tmp_path / "tree.json"
    code, text, err = run_cli(capsys, "tree", "--agent", "expectimax", "--depth", "2", "--answers", str(answers),
                          "--guesses", str(answers), "--out", str(out))
    assert code == 0 and err == "" and out.exists() and "6 answers" in text
    code, _, err = run_cli(capsys, "tree", "--answers", str(answers), "--guesses", str(answers), "--out", str(tmp_path / "t.csv"))
    assert code == 2 and err.count("\n") == 1 and "must end in .json or .graphml" in err
    code, _, err = run_cli(capsys, "tree", "--answers", str(answers), "--guesses", str(answers),
                           "--out", str(tmp_path / "missing" / "t.json"))
    assert code == 2 and f"the folder {tmp_path / 'missing'} does not exist; make it first" in err
    assert not (tmp_path / "missing").exists()
    code, _, err = run_cli(capsys, "play", "--agent", "expectimax", "--weights", "1,2", "--answer", "crane")
    assert code == 2 and err.count("\n") == 1 and "weights takes 4 numbers separated by commas, got '1,2'" in err


def test_search_agent_trace_shows_values_and_nodes(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    code, out, err = run_cli(capsys, "play", "--agent", "alphabeta", "--answers", str(answers), "--guesses", str(answers),
                         "--answer", "parka", "--depth", "2", "--eval", "entropy")
    assert code == 0 and err == "" and "nodes" in out and "top alternatives (value)" in out
    assert "value: expected guesses to finish" in out and "nodes: positions searched" in out


def test_play_shows_each_guess_value_as_the_solver_proves_it(capsys, monkeypatch, tmp_path):
    """Hand-worked: PANEL splits the six answers into -gg-y (lanky), -y--y (black slack flask), gg--- (parka)
    and ggggg; SLACK then splits the three apart. PANEL: 1 + 2 + 2 + (2 + 3 + 3) = 13 guesses over 6 answers;
    SLACK over its three: 1 + 2 + 2 = 5 over 3; FLASK alone: 1."""
    words = tmp_path / "words.txt"
    words.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    lists = ("--answers", str(words), "--guesses", str(words), "--answer", "flask")
    code, out, _ = run_cli(capsys, "play", *lists, "--json", stdin="panel\nslack\nflask\n", monkeypatch=monkeypatch)
    turns = json.loads(out)["turns"]
    assert code == 0 and [t["value"]["text"] for t in turns] == ["2.167", "1.667", "1.000"]
    assert all(t["value"]["proved"] for t in turns) and [t["agent_value"] for t in turns] == [None, None, None]
    code, out, _ = run_cli(capsys, "play", *lists, stdin="panel\nslack\nflask\n", monkeypatch=monkeypatch)
    assert code == 0 and all(x in out for x in ("2.167", "1.667", "1.000")) and "value: expected guesses" in out


@pytest.mark.slow
def test_mode_means_normal_hard_or_both_and_only_that(capsys):
    """--mode is the tournament's game mode; the evaluation mode is --eval-mode everywhere."""
    code, out, _ = run_cli(capsys, "play", "--agent", "expectimax", "--answer", "crane", "--depth", "1",
                           "--eval-mode", "zero", "--seed", "4")
    assert code == 0 and "expectimax playing CRANE (normal mode, seed 4)" in out
    assert "Solved CRANE in 6/6." in out  # zero mode: a seeded random player
    code, _, err = run_cli(capsys, "tournament", "--mode", "zero")
    assert code == 2 and "argument --mode: invalid choice: 'zero'" in err


@pytest.mark.slow
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


def test_piped_trace_spells_the_feedback_out(capsys):
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "1")
    assert code == 0 and "\x1b[" not in out
    rows = [line.split() for line in out.splitlines() if line[:1].isdigit()]
    assert [(row[6], row[7]) for row in rows] == [("--gyg", "19"), ("--gy-", "3"), ("yy---", "1"), ("ggggg", "1")]
    assert "reply: g right letter, right place; y in the word, elsewhere; - not in the word" in out


@pytest.mark.slow
def test_no_color_keeps_the_feedback_and_drops_the_colours(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLORTERM", "truecolor")
    _, coloured, _ = run_cli(capsys, "assist", "tares:-y--g", "--palette", "contrast")
    assert "48;2;245;121;58" in coloured or "48;2;133;192;249" in coloured  # orange or blue tiles
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(capsys, "assist", "tares:-y--g", "--palette", "contrast")
    assert code == 0 and "48;2;" not in out and "-y--g" in out


def test_a_repeated_guess_is_refused_with_its_reason(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--answer", "crane", stdin="salet\nSALET\ncrane\n", monkeypatch=monkeypatch)
    assert code == 0 and "'salet' was already guessed (guess 1); it would tell you nothing new" in out
    assert "Solved CRANE in 2/6" in out


def test_the_keyboard_names_each_used_letter_in_words(capsys, monkeypatch):
    _, out, _ = run_cli(capsys, "play", "--answer", "crane", stdin="salet\nacorn\n", monkeypatch=monkeypatch)
    assert "right place: (none); elsewhere: A E; not in the word: L S T; unused: B C D F G H I J K M N O P Q R " \
           "U V W X Y Z" in out
    assert "right place: (none); elsewhere: A C E N R; not in the word: L O S T; unused: B D F G H I J K M P Q U " \
           "V W X Y Z" in out


@pytest.mark.slow
def test_the_share_grid_ends_the_game(capsys):
    _, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "1", "--hard")
    grid, offer = out.rsplit("\n", 2)[0], out.rsplit("\n", 2)[1]  # then the one-line offer of the review
    assert grid.endswith("wordle-arena 3/6*\n\n⬛⬛🟩🟨🟩\n🟩🟩🟩⬛🟩\n🟩🟩🟩🟩🟩")
    assert offer == ("Review this game: python cli.py review --answer crane soare crate crane --hard --answers original "
                     "--guesses original")
    _, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "1", "--hard",
                        "--palette", "contrast")
    assert out.rsplit("\n", 2)[0].endswith("wordle-arena 3/6*\n\n⬛⬛🟧🟦🟧\n🟧🟧🟧⬛🟧\n🟧🟧🟧🟧🟧")


@pytest.mark.slow
def test_play_json_is_the_game_for_scripts(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "1", "--json")
    game = json.loads(out)
    assert code == 0 and (game["agent"], game["answer"], game["seed"], game["solved"]) == ("entropy", "crane", 1, True)
    assert [(t["guess"], t["pattern"], t["remaining_after"]) for t in game["turns"]] == [
        ("soare", "--gyg", 19), ("diact", "--gy-", 3), ("anvil", "yy---", 1), ("crane", "ggggg", 1)]
    code, out, err = run_cli(capsys, "play", "--answer", "crane", "--json", stdin="salet\ncrane\n",
                             monkeypatch=monkeypatch)
    game = json.loads(out)
    assert (game["agent"], game["guesses"], game["turns"][0]["pattern"]) == (None, 2, "-y-y-")
    assert "Solved CRANE in 2/6" in err


def test_answer_lists_by_name_or_file(capsys):
    code, out, _ = run_cli(capsys, "assist", "--agent", "entropy", "--answers", "nyt", "salet:-----", "--json")
    assert code == 0 and json.loads(out)["remaining"] == 221  # as in the original: each dropped word shares a letter
    code, _, err = run_cli(capsys, "assist", "--answers", "nytimes")
    assert code == 2 and "nytimes: no such file, nor an answer model's name (likely, fresh, original, nyt, played, all)" in err


def test_a_large_matrix_is_announced_before_it_is_cached(capsys, tmp_path, monkeypatch):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("commands.games.ANNOUNCE_BYTES", 10)
    argv = ("play", "--agent", "entropy", "--answer", "lanky", "--answers", str(answers), "--guesses", str(answers))
    code, _, err = run_cli(capsys, *argv)
    cached = list((tmp_path / "cache").glob("patterns-*.bin"))
    assert code == 0 and len(cached) == 1
    assert err == (f"wordle-arena: building the pattern matrix of 6 guesses x 6 answers (0 MB) once; it is kept in "
                   f"{cached[0]} (delete it to free the space)\n")
    assert run_cli(capsys, *argv)[2] == ""  # read back: nothing to say


def test_waits_show_what_they_do_on_a_terminal(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, _, err = run_cli(capsys, "assist", "--agent", "entropy", "tares:-y--g")
    assert code == 0 and "entropy: choosing guess 2" in err
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path / "cache"))
    code, _, err = run_cli(capsys, "assist", "--answers", str(answers), "--guesses", str(answers), "--json")
    assert code == 0 and "optimal: valuing guesses (up to 300 nodes" in err  # the default advisor
    argv = ("assist", "--answers", str(answers), "--guesses", str(answers), "--hard", "--json", "--agent", "expectimax")
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "expectimax: searching its first move for hard mode and its" in err
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "expectimax: choosing guess 1" in err  # kept on disk: no long wait announced


def test_the_tournament_says_when_an_agent_prepares_before_its_games(capsys, tmp_path):
    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    code, out, _ = run_cli(capsys, "tournament", "--agents", "two-step,entropy", "--mode", "hard", "--jobs", "2",
                           "--answers", str(answers), "--guesses", str(answers), "--out", str(tmp_path / "run"))
    assert code == 0
    assert "two-step: preparing for hard mode once, before its games (what it keeps on disk is read back by later runs)" in out
    assert "entropy: one-time" not in out


def test_a_tournament_stopped_before_its_first_game_says_there_is_nothing_to_resume(capsys, tmp_path, monkeypatch):
    """Stopped while an agent still prepared (before the run's first file), it said every finished game was saved and
    to run again with --resume, which then answered that the folder held no tournament to resume."""
    import tournament

    answers = tmp_path / "answers.txt"
    answers.write_text("lanky\nblack\nslack\nflask\npanel\nparka\n")
    argv = ["tournament", "--agents", "entropy", "--mode", "normal", "--jobs", "1", "--answers", str(answers),
            "--guesses", str(answers), "--out", str(tmp_path / "run")]

    def stopped(*args, **kwargs):
        """Ctrl-C before anything is written."""
        raise KeyboardInterrupt
    with monkeypatch.context() as patch:
        patch.setattr(tournament, "run_tournament", stopped)
        code, _, err = run_cli(capsys, *argv)
    assert code == 130 and err.strip() == (f"interrupted before the first game: nothing was saved in {tmp_path / 'run'}; "
                                           "run the same command again to start")
    code, out, _ = run_cli(capsys, *argv)  # as it says: the same command starts the run
    assert code == 0 and "6 games played, 0 resumed" in out


@pytest.mark.slow
def test_a_node_budget_that_cuts_the_search_short_says_so(capsys):
    code, out, _ = run_cli(capsys, "play", "--agent", "expectimax", "--answer", "crane", "--nodes", "50", "--seed", "0")
    first = next(line for line in out.splitlines() if line.startswith("1 "))
    assert code == 0 and first.rstrip().endswith("(budget reached)")
    code, out, _ = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "0")
    assert "budget reached" not in out


def test_an_agents_illegal_move_is_an_internal_error_not_bad_input(capsys, monkeypatch):
    # A player that breaks the rules is a bug: the game raises IllegalMove (no UserError), and the
    # command line says so in one line with exit 70, not as the user's bad input (exit 2).
    from agents.base import Decision
    from agents.entropy import EntropyAgent
    from plumbing.errors import UserError
    from wordle import IllegalMove

    assert not issubclass(IllegalMove, UserError)
    monkeypatch.setattr(EntropyAgent, "decide", lambda self, state, rng: Decision(guess=10**6))
    code, _, err = run_cli(capsys, "play", "--agent", "entropy", "--answer", "crane", "--seed", "1")
    assert code == 70 and "internal error: a player made an illegal move" in err and "out of range" in err


@pytest.mark.slow
def test_the_assistant_at_the_prompt_says_its_legends_once(capsys, monkeypatch):
    """Interactive `assist` reprinted its long explanation after every step: now the reply's letters and the
    suggestion columns are explained at the first table that has them, not again."""
    code, out, _ = run_cli(capsys, "assist", "--answers", "original", "--guesses", "original",
                           stdin="crane:gyy--\nacrid:yyyy-\n", monkeypatch=monkeypatch)
    assert code == 0 and "1  cigar" in out  # both steps advised
    assert out.count("reply: g right letter, right place") == 1
    assert out.count("Ordered by what a known tree achieves") <= 2  # the opening table's, then the first step's
