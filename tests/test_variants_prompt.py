"""A person plays Dordle, Quordle and Fibble at the prompt (`play --boards K`, `play --indicator fibble`, no --agent):
hand-worked games typed on stdin, every board shown, bad words refused in one line, a clean end (won, lost, Ctrl-D,
Ctrl-C) with the answers told, and a review command that runs as printed."""

from __future__ import annotations

import json
import shlex

import pytest
from rich.cells import cell_len
from rich.console import Console

from agents.base import deal_answers
from commands.render import board_trace
from tests.conftest import run_cli
from variants import GameSpec
from wordle import parse_pattern

#: CIGAR and ETUDE, worked by hand: the reply each of these guesses gets from each.
#: CRANE on CIGAR: C right place, R and A elsewhere; on ETUDE only the final E.
#: FUROS on ETUDE: only U, elsewhere (ETUDE's U is third); on CIGAR only R, elsewhere; SLOTH on ETUDE only T.
WORKED = {("crane", "cigar"): "gyy--", ("crane", "etude"): "----g", ("furos", "etude"): "-y---",
          ("furos", "cigar"): "--y--", ("cigar", "etude"): "-----", ("sloth", "cigar"): "-----",
          ("sloth", "etude"): "---y-", ("crane", "sloth"): "-----"}


def last_view(out: str) -> list[str]:
    """The boards as last shown, and what follows them (the prompt before them cut off: typed input is not echoed)."""
    lines = out.splitlines()
    start = max(number for number, line in enumerate(lines) if "board 1" in line)
    return [lines[start].split("> ", 1)[-1]] + lines[start + 1:]


@pytest.fixture(autouse=True)
def todays_lists(today_game):
    """The game of today's lists built once (a person plays every word the Times accepts, FUROS among them)."""
    return today_game


def test_a_dordle_typed_at_the_prompt_is_won_with_refusals_in_one_line(capsys, monkeypatch):
    typed = "crane\n\nxyzzy\ncranes\ncrane\nFUROS\ncigar\netude\n"
    code, out, err = run_cli(capsys, "play", "--boards", "2", "--answer", "cigar,etude", stdin=typed,
                             monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert out.startswith("You play dordle (2 boards, 5 letters, 7 guesses). End with Ctrl-D.\n")
    assert "'xyzzy' is not in the list of allowed guesses\n" in out
    assert "'cranes' has 6 letters; dordle's words have 5\n" in out
    assert "'crane' was already guessed (guess 1); it would tell you nothing new\n" in out
    final = last_view(out)
    assert final[0] == "    board 1           board 2"
    assert final[1] == f" 1. C R A N E  {WORKED['crane', 'cigar']}  C R A N E  {WORKED['crane', 'etude']}"
    assert final[2] == f" 2. F U R O S  {WORKED['furos', 'cigar']}  F U R O S  {WORKED['furos', 'etude']}"
    assert final[3] == f" 3. C I G A R  ggggg  C I G A R  {WORKED['cigar', 'etude']}"
    assert final[4] == " 4.                   E T U D E  ggggg"  # board 1 was solved: nothing more on it
    assert final[5] == "    solved in 3       solved in 4"
    assert final[6] == "Solved every board in 4/7: CIGAR, ETUDE."
    assert final[7] == "Review this game: python cli.py review --answer cigar,etude crane furos cigar etude --boards 2 " \
                       "--guesses nyt"


def test_after_each_guess_the_open_boards_say_what_is_left(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--boards", "2", "--answer", "cigar,etude", stdin="cigar\nsloth\n",
                           monkeypatch=monkeypatch)
    assert code == 1  # the input ended: abandoned
    after_sloth = last_view(out)
    assert after_sloth[2] == f" 2.                   S L O T H  {WORKED['sloth', 'etude']}"
    assert after_sloth[3].startswith("    solved in 1       ") and after_sloth[3].endswith(" left")
    # grey on ETUDE's board, the only one open: CIGAR's letters, and SLOTH's but for its T
    assert "grey on every open board: A C G H I L O R S" in out
    assert out.rstrip().endswith("Game abandoned; the answers were CIGAR, ETUDE.")


def test_a_lost_quordle_tells_every_answer_and_how_many_boards_were_solved(capsys, monkeypatch):
    answers = "cigar,etude,sloth,crane"
    code, out, _ = run_cli(capsys, "play", "--boards", "4", "--max-guesses", "2", "--answer", answers,
                           stdin="cigar\nfuros\n", monkeypatch=monkeypatch)
    assert code == 1
    assert "Not solved in 2 guesses (1 of 4 boards solved): the answers were CIGAR, ETUDE, SLOTH, CRANE." in out
    offer = out.strip().splitlines()[-1]
    assert offer == ("Review this game: python cli.py review --answer cigar,etude,sloth,crane cigar furos --boards 4 "
                     "--max-guesses 2 --guesses nyt")


def test_quordle_reads_in_80_columns_without_colour(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal's output, but NO_COLOR asks for none
    code, out, _ = run_cli(capsys, "play", "--boards", "4", "--answer", "cigar,etude,sloth,crane",
                           stdin="crane\nsloth\n", monkeypatch=monkeypatch)
    assert code == 1
    assert "\x1b[4" not in out and "\x1b[3" not in out  # no background nor text colour
    lines = [line for line in out.replace("\x1b[1m", "").replace("\x1b[0m", "").replace("\x1b[2m", "").splitlines()]
    assert max(cell_len(line) for line in lines) <= 80
    row = next(line for line in lines if line.startswith(" 1. "))
    assert row == (f" 1. C R A N E  {WORKED['crane', 'cigar']}  C R A N E  {WORKED['crane', 'etude']}  "
                   f"C R A N E  {WORKED['crane', 'sloth']}  C R A N E  ggggg")  # four boards across, each reply in letters
    assert any(line.split("> ", 1)[-1].split() == ["board", "1", "board", "2", "board", "3", "board", "4"] for line in lines)


def test_octordle_at_80_columns_is_two_bands_of_four(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_cli(capsys, "play", "--boards", "8", "--seed", "2", stdin="crane\n", monkeypatch=monkeypatch)
    lines = out.splitlines()[:-1]  # the boards, before the answers told at the end (a terminal wraps that line)
    assert code == 1 and max(cell_len(line) for line in lines) <= 80
    heads = [line.split("> ", 1)[-1].split() for line in lines if "board 1 " in line or "board 5 " in line]
    assert heads == [["board", "1", "board", "2", "board", "3", "board", "4"],
                     ["board", "5", "board", "6", "board", "7", "board", "8"]]


def test_the_boards_are_coloured_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, _ = run_cli(capsys, "play", "--boards", "2", "--answer", "cigar,etude", stdin="crane\n",
                           monkeypatch=monkeypatch)
    assert code == 1 and "\x1b[" in out and ";4" in out  # tiles on coloured backgrounds


def test_fibble_at_the_prompt_tells_its_lies_at_the_end(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "play", "--indicator", "fibble", "--answer", "cigar", "--seed", "4",
                           stdin="crane\ncrane\ncigar\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Solved CIGAR in 3/9." in out
    lies = out[out.index("The lies:"):].splitlines()
    shown = [line.split()[2] for line in lies[1:3]]
    truth = WORKED["crane", "cigar"]  # a repeat is allowed: Fibble lies afresh each row
    for row, line in zip(shown, lies[1:3]):
        assert line.endswith(f"lied: truly {truth}")
        assert sum(a != b for a, b in zip(row, truth)) == 1  # exactly one tile lied
    assert lies[3] == " 3. CIGAR  ggggg  true (it won)"
    assert "The lies were drawn with seed 4: --seed 4 draws them again." in out
    assert out.strip().splitlines()[-1] == (f"Review this game: python cli.py review crane:{shown[0]} crane:{shown[1]} "
                                            "cigar:ggggg --indicator fibble --guesses nyt")


def test_a_seeded_game_deals_the_answers_the_agent_and_the_web_get(capsys, monkeypatch, today_game):
    code, out, _ = run_cli(capsys, "play", "--boards", "2", "--seed", "11", stdin="", monkeypatch=monkeypatch)
    dealt = deal_answers(2, len(today_game.words.answers), 11, 0)
    names = ", ".join(today_game.words.answers[a].upper() for a in dealt)
    assert code == 1 and out.rstrip().endswith(f"Game abandoned; the answers were {names}.")


def test_ctrl_c_at_the_prompt_ends_the_game_cleanly(capsys, monkeypatch):
    def interrupt(self, prompt=""):
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    code, out, err = run_cli(capsys, "play", "--boards", "2", "--answer", "cigar,etude")
    assert code == 130 and "Traceback" not in err
    assert out.rstrip().endswith("Game abandoned; the answers were CIGAR, ETUDE.")


def test_json_of_a_persons_game_leaves_stdout_to_the_json(capsys, monkeypatch):
    code, out, err = run_cli(capsys, "play", "--boards", "2", "--answer", "cigar,etude", "--json",
                             stdin="cigar\netude\n", monkeypatch=monkeypatch)
    game = json.loads(out)
    assert code == 0 and game["won"] and game["agent"] is None and game["guesses"] == ["cigar", "etude"]
    assert game["replies"] == [["ggggg", "-----"], [None, "ggggg"]]
    assert "Solved every board in 2/7" in err


@pytest.mark.parametrize("argv, message", [
    (("play", "--boards", "2", "--answer", "cigar"), "dordle needs 2 answers, comma-separated; got 1"),
    (("play", "--boards", "2", "--answer", "cigar,etude", "--seed", "3"), "--seed: you against the --answer given"),
    (("play", "--boards", "2", "--indicator", "absurdle"), "--indicator absurdle replies to five-letter Wordle"),
    (("play", "--boards", "2", "--hard"), "--hard is played on one honest board only"),
])
def test_bad_flags_for_a_persons_game_are_refused_in_one_line(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_review_a_persons_dordle_and_fibble_offer_runs_as_printed(capsys, monkeypatch):
    """FUROS is on today's list, not 2022's: the review must be told the lists the game was played on."""
    for argv, typed in ((("--boards", "2", "--answer", "cigar,etude"), "crane\nfuros\ncigar\netude\n"),
                        (("--indicator", "fibble", "--answer", "cigar", "--seed", "4"), "crane\nfuros\ncigar\n")):
        code, out, _ = run_cli(capsys, "play", *argv, stdin=typed, monkeypatch=monkeypatch)
        command = shlex.split(out.strip().splitlines()[-1].removeprefix("Review this game: "))
        assert code == 0 and command[:2] == ["python", "cli.py"]
        code, out, err = run_cli(capsys, *command[2:], "--json")
        review = json.loads(out)
        assert code == 0 and review["won"] and [s["guess"] for s in review["steps"]][1] == "furos", err


# -- the trace of an agent's game ---------------------------------------------------------------
def test_a_solved_boards_column_lines_up_with_the_patterns_beside_it():
    """The squares are two columns wide: '(solved)' takes the width of a pattern and its squares."""
    spec = GameSpec(boards=3)
    open_reply = (parse_pattern("-y-yy"), parse_pattern("----g"), parse_pattern("-----"))
    later = (None, parse_pattern("-yy--"), parse_pattern("g----"))
    console = Console(width=120, record=True, color_system=None)
    board_trace(console, spec, ["soare", "cutin"], [open_reply, later], "default")
    rows = console.export_text().splitlines()
    assert rows[1].startswith(" 2. CUTIN  (solved)          -yy-- ")
    assert cell_len(rows[0][:rows[0].index("----g")]) == cell_len(rows[1][:rows[1].index("-yy--")])


# -- the review a game of several boards is offered ----------------------------------------------
def test_a_boards_review_takes_the_lists_the_game_was_played_on(capsys):
    code, out, err = run_cli(capsys, "review", "--boards", "2", "--answers", "original", "--guesses", "nyt",
                             "--answer", "cigar,etude", "furos", "--json")
    review = json.loads(out)
    assert code == 0, err
    assert [s["guess"] for s in review["steps"]] == ["furos"]  # FUROS: on today's list, not on 2022's
    assert review["steps"][0]["reply"] == [WORKED["furos", "cigar"], WORKED["furos", "etude"]]


@pytest.mark.parametrize("argv, message", [
    (("--answers", "fresh"), "--answers fresh weighs the answers; dordle's review takes every answer of a list alike"),
    (("--length", "6", "--guesses", "nyt"), "--guesses names a list of five-letter words"),
    (("--answers", "nope.txt"), "nope.txt: no such file, nor an answer list's name"),
])
def test_a_boards_review_refuses_lists_it_cannot_use_in_one_line(capsys, argv, message):
    code, _, err = run_cli(capsys, "review", "--boards", "2", *argv, "--answer", "cigar,etude", "furos")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
