"""The variant flags on the command line: play, a tournament and its verify, bad flags refused in one line."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def test_play_a_dordle_as_json(capsys):
    code, out, _ = run_cli(capsys, "play", "--boards", "2", "--agent", "entropy", "--answer", "crate,slate",
                           "--seed", "0", "--json")
    game = json.loads(out)
    assert code == 0 and game["won"] and game["answers"] == ["crate", "slate"]
    assert game["game"] == {"name": "dordle", "boards": 2, "length": 5, "lies": 0, "max_guesses": 7, "mode": "normal"}
    solved_at = game["guesses"].index("crate")  # board 1 stops once solved: no pattern after it
    assert all(reply[0] is None for reply in game["replies"][solved_at + 1:])


def test_play_fibble_with_an_answer(capsys):
    code, out, _ = run_cli(capsys, "play", "--indicator", "fibble", "--agent", "entropy", "--answer", "lanky",
                           "--seed", "4", "--json")
    game = json.loads(out)
    assert code == 0 and game["won"] and game["game"]["max_guesses"] == 9 and game["guesses"][-1] == "lanky"


@pytest.mark.parametrize("argv, message", [
    (("play", "--boards", "2", "--agent", "optimal"), "agent 'optimal' plays one honest board of five-letter words"),
    (("play", "--boards", "2", "--agent", "q-learning"), "dordle is played by random, entropy, minimax"),
    (("play", "--boards", "2", "--hard", "--agent", "entropy"), "--hard is played on one honest board only"),
    (("play", "--boards", "2", "--agent", "entropy", "--answer", "crate"), "dordle needs 2 answers"),
    (("play", "--boards", "2", "--indicator", "absurdle", "--agent", "entropy"), "--indicator absurdle replies"),
    (("play", "--length", "7", "--agent", "expectimax", "--eval", "greens"), "with --length 7 use cost or entropy"),
    (("play", "--indicator", "fibble", "--boards", "2", "--agent", "entropy"), "fibble plays one board"),
    (("tournament", "--boards", "2", "--mode", "hard"), "dordle is played in normal mode only"),
    (("tournament", "--boards", "2", "--indicators", "absurdle"), "--indicators plays the Guesser x Indicator"),
    (("tournament", "--length", "6", "--answers", "x.txt"), "--answers names a list of five-letter words"),
])
def test_bad_variant_flags_are_refused_in_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_variant_tournament_verifies_and_tampering_is_caught(capsys, tmp_path):
    folder = tmp_path / "dordle"
    code, out, _ = run_cli(capsys, "tournament", "--boards", "2", "--agents", "entropy,random", "--sample", "3",
                           "--out", str(folder))
    assert code == 0 and "entropy  normal    100.0" in out
    header = (folder / "games.csv").read_text().splitlines()[0]
    assert '"game": {"boards": 2, "length": 5, "lies": 0}' in header and '"max_guesses": 7' in header
    code, out, _ = run_cli(capsys, "verify", str(folder), "--replay")
    assert code == 0 and "all 6 dordle games follow the rules" in out and "6 games replayed" in out
    lines = (folder / "games.csv").read_text().splitlines()
    lines[2] = lines[2].replace("ggggg", "gggg-", 1)
    (folder / "games.csv").write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(capsys, "verify", str(folder))
    assert code == 1 and "FAILED" in err


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_dealt_tournament_resumes_to_the_same_games(capsys, tmp_path, jobs):
    from commands.games import load_spec_game
    from tournament import TournamentError, make_plan, run_tournament
    from tournament.verify import JOURNAL_FILE
    from variants import GameSpec

    described = GameSpec(boards=2)
    rules, game = load_spec_game(described)
    plan = make_plan(rules.words, described, agents="entropy,random", seed=3, sample=4)
    run_tournament(plan, game, tmp_path / "whole", jobs=jobs)
    finished = []

    def stop_after_three(record):
        finished.append(record)
        if len(finished) == 3:
            raise KeyboardInterrupt

    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(plan, game, cut, jobs=jobs, on_game=stop_after_three)
    journal = (cut / JOURNAL_FILE).read_text()
    assert len(journal.splitlines()) >= 2 + 3 and not (cut / "games.csv").exists()
    (cut / JOURNAL_FILE).write_text(journal + "entropy,normal,3,cra")  # a line cut off by a crash is played again
    with pytest.raises(TournamentError, match="add --resume"):
        run_tournament(plan, game, cut, jobs=jobs)
    other = make_plan(rules.words, described, agents="entropy,random", seed=3, sample=5)
    with pytest.raises(TournamentError, match="other settings"):
        run_tournament(other, game, cut, jobs=jobs, resume=True)
    resumed = run_tournament(plan, game, cut, jobs=jobs, resume=True)
    assert resumed.played + resumed.resumed == 8 and resumed.resumed >= 3
    rows = lambda folder: (folder / "games.csv").read_text().splitlines()[1:]
    assert rows(cut) == rows(tmp_path / "whole") and not (cut / JOURNAL_FILE).exists()
    code, out, _ = run_cli(capsys, "verify", str(cut), "--replay")
    assert code == 0 and "8 games replayed" in out


def test_a_variant_resume_of_nothing_is_refused_in_one_line(capsys, tmp_path):
    code, _, err = run_cli(capsys, "tournament", "--boards", "2", "--agents", "random", "--sample", "2", "--resume",
                           "--out", str(tmp_path / "none"))
    assert code == 2 and "holds no tournament to resume" in err and len(err.strip().splitlines()) == 1


def test_assist_a_dordle_step_by_step_patterns(capsys):
    code, out, _ = run_cli(capsys, "assist", "--boards", "2", "crane:--g-y,g----", "--json", "--top", "3")
    advice = json.loads(out)
    assert code == 0 and advice["name"] == "dordle" and advice["guesses_left"] == 6
    assert [board["possible"] for board in advice["boards"]] == [18, 25] and len(advice["suggestions"]) == 3
    # a solved board: '.' in its place, or left out
    for steps in (("crate:ggggg,--ggg", "slate:.,ggggg"), ("crate:ggggg,--ggg", "slate:ggggg")):
        code, out, _ = run_cli(capsys, "assist", "--boards", "2", *steps, "--json")
        advice = json.loads(out)
        assert code == 0 and advice["won"] and advice["over"] and advice["suggestions"] == []


def test_assist_fibble_reads_the_rows_as_shown(capsys):
    rows = ("soare:--yg-", "taira:-gg--", "cling:-y-yy", "mangy:-gggg")  # play --indicator fibble --answer lanky --seed 4
    code, out, _ = run_cli(capsys, "assist", "--indicator", "fibble", *rows, "--json")
    advice = json.loads(out)
    assert code == 0 and "lanky" in advice["boards"][0]["answers"] and advice["guesses_left"] == 5


def test_review_a_dordle_from_its_answers_and_words(capsys):
    code, out, _ = run_cli(capsys, "review", "--boards", "2", "--answer", "crate,slate", "soare", "crate", "slate",
                           "--json")
    review = json.loads(out)
    assert code == 0 and review["won"] and [s["guess"] for s in review["steps"]] == ["soare", "crate", "slate"]
    assert review["steps"][1]["after"][0] == 0 and review["steps"][2]["reply"][0] is None
    assert review["steps"][0]["before"] == [2315, 2315]


@pytest.mark.parametrize("argv, message", [
    (("assist", "--boards", "2", "crane:--g-y"), "dordle needs 2 patterns"),
    (("assist", "--boards", "4", "crane:--g-y,-----"), "quordle needs 4 patterns"),
    (("assist", "--length", "6", "crane:--g-y"), "'crane' has 5 letters; this game's words have 6"),
    (("assist", "--boards", "2", "crane:--g-y,ggggg", "salet:-----"), "board 1: no possible answer gives -----"),
    (("assist", "--boards", "2", "--only-answers", "crane:--g-y,-----"), "--only-answers is not offered with dordle"),
    (("assist", "--indicator", "fibble", "--agent", "optimal"), "agent 'optimal' plays one honest board"),
    (("review", "--boards", "2", "--answer", "crate", "soare"), "dordle needs 2 answers"),
    (("review", "--indicator", "fibble", "--answer", "lanky", "soare"), "fibble's rows hold lies"),
    (("review", "--boards", "2", "--grid", "x", "soare"), "--grid and --puzzle read one board"),
    (("review", "--agent", "entropy", "crane:-----"), "--agent goes with a game of several boards"),
    (("tree", "--boards", "2", "--out", "x.json"), "tree follows every answer of one five-letter board"),
])
def test_bad_variant_assist_and_review_input_is_refused_in_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
