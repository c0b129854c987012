"""Bad input, command by command: each case exits 2 (1 where verify reports problems) with one exact line on stderr."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

import cli

from wordle import load_words
from wordle.matrix import cache_path
from tests.conftest import run_cli

#: Cases of a command that needs an optional extra skip, saying why, where it is not installed.
NEEDS_WEB = pytest.mark.skipif(not importlib.util.find_spec("starlette"), reason="serve needs the web extra")
NEEDS_DASK = pytest.mark.skipif(not importlib.util.find_spec("distributed"),
                                reason="--scheduler needs the distributed extra")

ANSWERS = "cigar crane slate tares salet rebut sissy humph".split()
#: The word lists every case plays on, so no case builds the official 12972 x 2315 matrix.
LISTS = ("--answers", "{ans}", "--guesses", "{gue}")
#: The tiny tournament the corrupt-folder cases start from, and the command that resumes it.
TOURNAMENT = ("tournament", "--agents", "random,entropy", "--seed", "1", "--jobs", "1", *LISTS)
RESUME = (*TOURNAMENT, "--out", "{run}", "--resume")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Good and bad word lists, odd paths and a finished tiny tournament, made once for the module."""
    root = tmp_path_factory.mktemp("bad-input")
    lists = {
        "ans": "\n".join(ANSWERS) + "\n",
        "gue": "\n".join(ANSWERS) + "\n",
        "empty": "",
        "short": "cigar\ncrane\nabcd\n",
        "long": "cigar\ncranes\n",
        "dup": "cigar\ncrane\ncigar\n",
        "bomdup": "\ufeffcigar\ncigar\n",
        "nonascii": "cigar\ncrâne\n",
        "digits": "cigar\nc1gar\n",
        "outside": "cigar\nzebra\n",
    }
    paths = {}
    for name, text in lists.items():
        (root / f"{name}.txt").write_text(text, encoding="utf-8")
        paths[name] = str(root / f"{name}.txt")
    (root / "folder").mkdir()
    (root / "folder.json").mkdir()
    os.mkfifo(root / "fifo")
    paths.update(folder=str(root / "folder"), folderjson=str(root / "folder.json"), fifo=str(root / "fifo"),
                 missing=str(root / "missing.txt"), nodir=str(root / "nodir"), root=str(root))
    run = root / "run"
    argv = [part.format(**paths) for part in TOURNAMENT] + ["--out", str(run)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(argv) == 0, err.getvalue()
    paths["source_run"] = str(run)
    return paths


# -- corruptions of a finished run folder ---------------------------------------------------
def remove(name: str) -> Callable[[Path], None]:
    """Delete one file of the run."""
    return lambda run: (run / name).unlink()


def write(name: str, data: str | bytes) -> Callable[[Path], None]:
    """Replace one file of the run by `data`."""
    def apply(run: Path) -> None:
        (run / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return apply


def into_folder(name: str) -> Callable[[Path], None]:
    """Put a folder where one file of the run belongs."""
    return lambda run: ((run / name).unlink(), (run / name).mkdir())


def into_fifo(name: str) -> Callable[[Path], None]:
    """Put a FIFO where one file of the run belongs."""
    return lambda run: ((run / name).unlink(), os.mkfifo(run / name))


def lines(edit: Callable[[list[str]], list[str]]) -> Callable[[Path], None]:
    """Edit games.csv line by line."""
    def apply(run: Path) -> None:
        path = run / "games.csv"
        path.write_text("\n".join(edit(path.read_text().split("\n"))))
    return apply


def row(old: str, new: str) -> Callable[[Path], None]:
    """Edit the first game row of games.csv (random, normal, cigar)."""
    return lines(lambda rows: rows[:2] + [rows[2].replace(old, new, 1)] + rows[3:])


def metadata(*path: str, value: object = None, drop: bool = False) -> Callable[[Path], None]:
    """Set (or drop) one field of games.csv's metadata line."""
    def edit(rows: list[str]) -> list[str]:
        head, text = rows[0].split(" {", 1)
        data = json.loads("{" + text)
        node = data
        for key in path[:-1]:
            node = node[key]
        if drop:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return [f"{head} {json.dumps(data)}", *rows[1:]]
    return lines(edit)


def torn_middle(rows: list[str]) -> list[str]:
    """Cut the third game row short."""
    return rows[:3] + [rows[3][:12]] + rows[4:]


NOT_SETTINGS = "{run}/games.csv: the metadata line lacks the tournament's settings or holds values it never writes"
NOT_GAMES = "{run}/games.csv, line 1: not a wordle-arena games file (format v1)"
HEADER = "{run}/games.csv, line 2: the column header should be agent,mode,answer,turns,guesses,patterns,solved,nodes,error"

#: (name, corruption, the line verify reports, the line tournament --resume refuses with).
CORRUPT_RUNS = [
    ("timings missing", remove("timings.csv"), "{run}/timings.csv: no such file", "{run}/timings.csv: no such file"),
    ("games empty", write("games.csv", ""), NOT_GAMES, NOT_GAMES),
    ("games a folder", into_folder("games.csv"), "{run}/games.csv: not a regular file", "{run}/games.csv: not a regular file"),
    ("games a FIFO", into_fifo("games.csv"), "{run}/games.csv: not a regular file", "{run}/games.csv: not a regular file"),
    ("games not UTF-8", write("games.csv", b"\xff\xfe\x00junk"), "{run}/games.csv: is not UTF-8 text",
     "{run}/games.csv: is not UTF-8 text"),
    ("metadata junk", lines(lambda rows: ["# wordle-arena games v1 {junk", *rows[1:]]),
     "{run}/games.csv, line 1: the metadata is not valid JSON", "{run}/games.csv, line 1: the metadata is not valid JSON"),
    ("metadata missing", lines(lambda rows: rows[1:]), NOT_GAMES, NOT_GAMES),
    ("format version", lines(lambda rows: [rows[0].replace(" v1 ", " v9 "), *rows[1:]]), NOT_GAMES, NOT_GAMES),
    ("sample negative", metadata("settings", "sample", value=-3), NOT_SETTINGS, NOT_SETTINGS),
    ("sample a string", metadata("settings", "sample", value="x"), NOT_SETTINGS, NOT_SETTINGS),
    ("guess limit zero", metadata("settings", "max_guesses", value=0), NOT_SETTINGS, NOT_SETTINGS),
    ("seed negative", metadata("settings", "seed", value=-1), NOT_SETTINGS, NOT_SETTINGS),
    ("seed a string", metadata("settings", "seed", value="abc"), NOT_SETTINGS, NOT_SETTINGS),
    ("modes unknown", metadata("settings", "modes", value=["sideways"]), NOT_SETTINGS, NOT_SETTINGS),
    ("settings not an object", metadata("settings", value=5), NOT_SETTINGS, NOT_SETTINGS),
    ("column header", lines(lambda rows: [rows[0], "a,b,c", *rows[2:]]), HEADER, HEADER),
    ("torn middle line", lines(torn_middle), "{run}/games.csv, line 4: 2 fields, expected 9",
     "{run}/games.csv, line 4: 2 fields, expected 9"),
    ("extra field", row(",1,0,", ",1,0,,extra"), "{run}/games.csv, line 3: 10 fields, expected 9",
     "{run}/games.csv, line 3: 10 fields, expected 9"),
    ("turns edited", row(",2,", ",9,"), "{run}/games.csv, line 3: turns says 9 but 2 guesses are listed",
     "{run}/games.csv, line 3: turns says 9 but 2 guesses are listed"),
    ("turns not a number", row(",2,", ",x,"), "{run}/games.csv, line 3: turns says x but 2 guesses are listed",
     "{run}/games.csv, line 3: turns says x but 2 guesses are listed"),
    ("nodes negative", row(",1,0,", ",1,-5,"), "{run}/games.csv, line 3: nodes '-5' is not a whole number",
     "{run}/games.csv, line 3: nodes '-5' is not a whole number"),
    ("mode edited", row("normal", "weird"), "{run}/games.csv, line 3: mode 'weird' is not normal or hard",
     "{run}/games.csv, line 3: mode 'weird' is not normal or hard"),
    ("guess edited", row("tares", "zzzzz"), "games.csv: random normal cigar: guess 1 'zzzzz' is not an allowed word",
     "refusing to resume: {run}/games.csv: random normal cigar: guess 1 'zzzzz' is not an allowed word"),
    ("non-ASCII guess", row("tares", "tarés"), "games.csv: random normal cigar: guess 1 'tarés' is not an allowed word",
     "refusing to resume: {run}/games.csv: random normal cigar: guess 1 'tarés' is not an allowed word"),
    ("pattern edited", row("-yy--", "ggggg"), "games.csv: random normal cigar: guess 1 'tares' gets -yy--, the file says ggggg",
     "refusing to resume: {run}/games.csv: random normal cigar: guess 1 'tares' gets -yy--, the file says ggggg"),
    ("solved flag edited", row(",1,0,", ",0,0,"), "games.csv: random normal cigar: marked unsolved but the replies say solved",
     "refusing to resume: {run}/games.csv: random normal cigar: marked unsolved but the replies say solved"),
    ("agent edited", row("random", "nosuch"), "games.csv: nosuch normal cigar is not a game of this tournament",
     "{run}/timings.csv: does not list the same games as games.csv"),
    ("answer edited", row(",cigar,", ",zzzzz,"), "games.csv: random normal zzzzz: 'zzzzz' is not in the answer list",
     "{run}/timings.csv: does not list the same games as games.csv"),
    ("row duplicated", lines(lambda rows: rows[:3] + [rows[2]] + rows[3:]),
     "games.csv: random normal cigar appears more than once", "{run}/timings.csv: does not list the same games as games.csv"),
    ("sample absurd", metadata("settings", "sample", value=10**9),
     "games.csv: the metadata's settings.sample is 1000000000, more than the 8 answers",
     "cannot resume {run}: it was played with other settings: sample differ (1000000000 there, none here)"),
    ("guess limit absurd", metadata("settings", "max_guesses", value=10**6),
     "games.csv: the metadata's settings.max_guesses is 1000000, more than the 8 allowed guesses (a game never needs more)",
     "cannot resume {run}: it was played with other settings: guess limit differ (1000000 there, 6 here)"),
    ("word-list checksum", metadata("settings", "words", "word_lists_sha256", value="0" * 64),
     "games.csv: word-list checksum 0000000000000000... does not match the lists given (",
     "cannot resume {run}: it was played with other settings: word lists differ (checksum 000000000000 there, "),
    ("answers played", metadata("settings", "answers_played", value=99), "summary.json: 'settings' differs from games.csv's metadata",
     "cannot resume {run}: it was played with other settings: answers played differ (99 there, 8 here)"),
    ("agent settings", metadata("settings", "agent_settings", value={"random": {"depth": 3}, "entropy": {}}),
     "summary.json: 'settings' differs from games.csv's metadata",
     "cannot resume {run}: it was played with other settings: agent settings differ (random={{'depth': 3}}, entropy={{}} there, "
     "random={{}}, entropy={{}} here)"),
    ("agents edited", metadata("settings", "agents", value=["random", "nosuch"]),
     "games.csv: entropy normal cigar is not a game of this tournament",
     "cannot resume {run}: it was played with other settings: agents differ (random,nosuch there, random,entropy here)"),
    ("nodes a superscript", row(",1,0,", ",1,\u00b2,"), "{run}/games.csv, line 3: nodes '\u00b2' is not a whole number",
     "{run}/games.csv, line 3: nodes '\u00b2' is not a whole number"),
    ("nodes 5000 digits", row(",1,0,", ",1," + "9" * 5000 + ","), "{run}/games.csv, line 3: nodes '99999",
     "{run}/games.csv, line 3: nodes '99999"),
    ("timings junk", write("timings.csv", "junk\n1,2\n"), "{run}/timings.csv, line 1: not a wordle-arena timings file (format v1)",
     "{run}/timings.csv, line 1: not a wordle-arena timings file (format v1)"),
]
#: Corruptions only --resume meets (verify names no run without games.csv).
RESUME_ONLY = [
    ("games missing", remove("games.csv"), "{run}/games.csv: no such file"),
    ("lock a folder", lambda run: (run / ".lock").mkdir(), "{run}/.lock is a folder where the run's lock file belongs"),
    ("lock a FIFO", lambda run: os.mkfifo(run / ".lock"), "{run}/.lock is not a regular file (a FIFO, device or socket)"),
]
#: Corruptions only verify reports (resume recomputes or never reads these files).
VERIFY_ONLY = [
    ("summary missing", remove("summary.json"), "summary.json: no such file"),
    ("summary junk", write("summary.json", "{not json"), "summary.json: not valid JSON"),
    ("summary a list", write("summary.json", "[1, 2]"), "summary.json: not a JSON object"),
    ("summary a FIFO", into_fifo("summary.json"), "{run}/summary.json: not a regular file"),
    ("summary a folder", into_folder("summary.json"), "{run}/summary.json: not a regular file"),
    ("report a FIFO", into_fifo("report.md"), "report.md: missing, or not the report"),
    ("report a folder", into_folder("report.md"), "report.md: missing, or not the report"),
    ("report missing", remove("report.md"), "report.md: missing, or not the report that summary.json and the games make"),
    ("torn last line", lines(lambda rows: rows[:-2] + [rows[-2][:12]]), "{run}/games.csv: the last line is cut off"),
]

# -- the table: (command line, exit code, the one line on stderr, or a precise part of it) ---------------------
WORD_LIST_ERRORS = [
    ("missing", "{missing}: no such file"),
    ("empty", "{empty}: the word list is empty"),
    ("short", "{short}, line 3: 'abcd' is not a 5-letter word"),
    ("long", "{long}, line 2: 'cranes' is not a 5-letter word"),
    ("dup", "{dup}, line 3: 'cigar' is a duplicate of line 1"),
    ("bomdup", "{bomdup}, line 2: 'cigar' is a duplicate of line 1"),
    ("nonascii", "{nonascii}, line 2: 'crâne' has a character that is not a letter a-z"),
    ("folder", "{folder}: not a regular file"),
    ("fifo", "{fifo}: not a regular file"),
]
#: Each command with the arguments that would make it run, less the word lists.
RUNNABLE = {
    "play": ("play", "--agent", "random", "--answer", "cigar", "--seed", "1"),
    "tournament": ("tournament", "--agents", "random", "--jobs", "1", "--out", "{tmp}/run"),
    "verify": ("verify", "{source_run}"),
    "tree": ("tree", "--agent", "entropy", "--out", "{tmp}/tree.json"),
    "assist": ("assist", "--agent", "entropy", "tares:-y---"),
    "openers": ("openers", "--top", "2", "--jobs", "1", "--out", "{tmp}/openers.json"),
    "solve": ("solve", "--opener", "slate"),
    "serve": ("serve", "--port", "0"),
}


def word_list_cases() -> list:
    """Every bad word list, as --answers and as --guesses, for every command that reads lists."""
    cases = []
    for command, argv in RUNNABLE.items():
        for name, message in WORD_LIST_ERRORS:
            missing = ("{missing}: no such file, nor an answer model's name (likely, fresh, original, nyt, played, all)"
                       if command == "assist" else "{missing}: no such file, nor an answer list's name (original, nyt, played, all)")
            named = command in ("play", "assist") and name == "missing"
            cases.append(pytest.param((*argv, "--answers", "{%s}" % name, "--guesses", "{gue}"), 2,
                                      missing if named else message, id=f"{command}-answers-{name}",
                                      marks=NEEDS_WEB if command == "serve" else ()))
        for name, message in WORD_LIST_ERRORS[:3] + WORD_LIST_ERRORS[7:]:
            cases.append(pytest.param((*argv, "--answers", "{ans}", "--guesses", "{%s}" % name), 2, message,
                                      id=f"{command}-guesses-{name}", marks=NEEDS_WEB if command == "serve" else ()))
    return cases


def number_cases() -> list:
    """Every numeric flag below its least and above its most, and not a number."""
    table = [
        ("play", "--seed", "-1", "must be at least 0, got -1"),
        ("play", "--seed", "4294967296", "must be at most 4294967295, got 4294967296"),
        ("play", "--seed", "abc", "must be a whole number, got 'abc'"),
        ("play", "--max-guesses", "0", "must be at least 1, got 0"),
        ("tournament", "--sample", "0", "must be at least 1, got 0"),
        ("tournament", "--sample", "100001", "must be at most 100000, got 100001"),
        ("tournament", "--jobs", "0", "must be at least 1, got 0"),
        ("tournament", "--jobs", "65", "must be at most 64, got 65"),
        ("tournament", "--seed", "4294967296", "must be at most 4294967295, got 4294967296"),
        ("verify", "--limit", "0", "must be at least 1, got 0"),
        ("verify", "--limit", "10001", "must be at most 10000, got 10001"),
        ("verify", "--sample", "0", "must be at least 1, got 0"),
        ("verify", "--sample", "100001", "must be at most 100000, got 100001"),
        ("tree", "--seed", "-1", "must be at least 0, got -1"),
        ("tree", "--max-guesses", "0", "must be at least 1, got 0"),
        ("tree", "--max-guesses", "21", "must be at most 20, got 21"),
        ("assist", "--top", "0", "must be at least 1, got 0"),
        ("assist", "--top", "101", "must be at most 100, got 101"),
        ("assist", "--seed", "1.5", "must be a whole number, got '1.5'"),
        ("openers", "--top", "0", "must be at least 1, got 0"),
        ("openers", "--top", "501", "must be at most 500, got 501"),
        ("openers", "--jobs", "65", "must be at most 64, got 65"),
        ("openers", "--cluster", "0", "must be at least 1, got 0"),
        ("openers", "--cluster", "65", "must be at most 64, got 65"),
        ("openers", "--max-guesses", "0", "must be at least 1, got 0"),
        ("solve", "--top", "0", "must be at least 1, got 0"),
        ("solve", "--top", "12973", "must be at most 12972, got 12973"),
        ("solve", "--max-guesses", "21", "must be at most 20, got 21"),
        ("serve", "--port", "-1", "must be at least 0, got -1"),
        ("serve", "--port", "65536", "must be at most 65535, got 65536"),
        ("serve", "--port", "http", "must be a whole number, got 'http'"),
        ("serve", "--workers", "0", "must be at least 1, got 0"),
        ("serve", "--workers", "65", "must be at most 64, got 65"),
    ]
    return [pytest.param((command, *(["{source_run}"] if command == "verify" else []), flag, value), 2,
                         f"wordle-arena {command}: error: argument {flag}: {message}",
                         id=f"{command}{flag}={value}") for command, flag, value, message in table]


def agent_option_cases() -> list:
    """Agent parameters out of range, unknown values, unknown agents and options the agent does not take."""
    table = [
        ("--depth", "0", "depth must be at least 1, got 0"),
        ("--depth", "5", "depth must be at most 4, got 5"),
        ("--beam", "101", "beam must be at most 100, got 101"),
        ("--threshold", "244", "threshold must be at most 243, got 244"),
        ("--pool", "12973", "pool must be at most 12972, got 12973"),
        ("--nodes", "1000000001", "nodes must be at most 1000000000, got 1000000001"),
        ("--openers", "201", "openers must be at most 200, got 201"),
        ("--breadth", "12973", "breadth must be at most 12972, got 12973"),
        ("--weights", "1,2", "weights takes 4 numbers separated by commas, got '1,2'"),
        ("--weights", "a,b,c,d", "weights takes 4 numbers separated by commas, got 'a,b,c,d'"),
        ("--eval", "nosuch", "unknown eval 'nosuch'; choose one of weighted, entropy, greens, yellows, greys, cost"),
        ("--eval-mode", "nosuch", "unknown eval_mode 'nosuch'; choose one of local, constant, zero"),
        ("--combine", "nosuch", "unknown combine 'nosuch'; choose one of sum, product, squares, ratio"),
        ("--candidates-only", "maybe", "candidates_only must be yes or no, got 'maybe'"),
        ("--prior-answers", "some", "unknown prior_answers 'some'; choose one of list, all"),
        ("--opener", "12", "opener must be a five-letter word or 'best', got '12'"),
    ]
    agents = "random, letter-frequency, demarcate, entropy, entropy-prior, two-step, minimax, alphabeta, expectimax, " \
             "decision-tree, optimal, advisor, q-learning, ppo"
    cases = []
    for command in ("play", "tree", "assist", "tournament"):
        for flag, value, message in table[::2] if command != "play" else table:
            cases.append(pytest.param((command, flag, value), 2, f"wordle-arena {command}: error: argument {flag}: {message}",
                                      id=f"{command}{flag}={value}"))
    for command in ("play", "tree", "assist"):
        cases.append(pytest.param((command, "--agent", "nosuch"), 2,
                                  f"wordle-arena {command}: error: argument --agent: invalid choice: 'nosuch' (choose from "
                                  + ", ".join(f"'{name}'" for name in agents.split(", ")) + ")", id=f"{command}-unknown-agent"))
        cases.append(pytest.param((*RUNNABLE[command], *LISTS, "--agent", "random", "--depth", "2"), 2,
                                  "wordle-arena: error: agent 'random' does not take --depth", id=f"{command}-random-depth"))
        cases.append(pytest.param((*RUNNABLE[command], *LISTS, "--agent", "entropy", "--beam", "3"), 2,
                                  "wordle-arena: error: agent 'entropy' does not take --beam", id=f"{command}-entropy-beam"))
        cases.append(pytest.param((*RUNNABLE[command], *LISTS, "--agent", "optimal", "--opener", "zzzzz"), 2,
                                  "wordle-arena: error: optimal: opener 'zzzzz' is not in the guess list",
                                  id=f"{command}-optimal-opener-not-listed"))
    cases += [
        pytest.param(("tournament", "--agents", "nosuch"), 2,
                     f"wordle-arena: error: unknown agent 'nosuch'; choose one of: {agents}", id="tournament-unknown-agent"),
        pytest.param(("tournament", "--agents", "random,nosuch"), 2,
                     f"wordle-arena: error: unknown agent 'nosuch'; choose one of: {agents}", id="tournament-one-unknown"),
        pytest.param(("tournament", "--agents", ","), 2,
                     "wordle-arena: error: --agents ',' has an empty name; write names separated by commas",
                     id="tournament-empty-agent-name"),
        pytest.param(("tournament", "--agents", "random,random", *LISTS), 2,
                     "wordle-arena: error: --agents names 'random' more than once", id="tournament-agent-twice"),
        pytest.param((*RUNNABLE["tournament"], *LISTS, "--depth", "2"), 2,
                     "wordle-arena: error: none of the agents played takes --depth", id="tournament-option-nobody-takes"),
    ]
    return cases


OTHER_CASES = [
    # the top level
    pytest.param(("--nosuch",), 2, "wordle-arena: error: unrecognized arguments: --nosuch", id="top-unknown-flag"),
    pytest.param((), 2, "wordle-arena: error: choose a command: play, tournament, verify, tree, assist, review, openers, book, solve, train, serve, absurdle "
                        "(see --help)", id="top-no-command"),
    pytest.param(("nosuch",), 2, "wordle-arena: error: argument COMMAND: invalid choice: 'nosuch' (choose from 'play', "
                                 "'tournament', 'verify', 'tree', 'assist', 'review', 'openers', 'book', 'solve', 'train', 'serve', 'absurdle')", id="top-unknown-command"),
    pytest.param(("play", "--nosuch"), 2, "wordle-arena: error: unrecognized arguments: --nosuch", id="play-unknown-flag"),
    pytest.param(("serve", "--nosuch"), 2, "wordle-arena: error: unrecognized arguments: --nosuch", id="serve-unknown-flag"),
    # play
    pytest.param((*RUNNABLE["play"], *LISTS, "--answer", "zzzzz"), 2,
                 "wordle-arena: error: 'zzzzz' is not in the list of possible answers", id="play-answer-not-listed"),
    pytest.param((*RUNNABLE["play"], *LISTS, "--answer", "cig"), 2,
                 "wordle-arena: error: 'cig' is not in the list of possible answers", id="play-answer-short"),
    pytest.param(("play", "--palette", "neon"), 2,
                 "wordle-arena play: error: argument --palette: invalid choice: 'neon' (choose from 'default', 'contrast')",
                 id="play-palette"),
    pytest.param((*RUNNABLE["play"], "--answers", "nosuchname"), 2,
                 "wordle-arena: error: nosuchname: no such file, nor an answer list's name (original, nyt, played, all)",
                 id="play-answers-unknown-name"),
    pytest.param((*RUNNABLE["play"], "--answers", "{ans}", "--guesses", "{outside}"), 2,
                 "{ans}, line 2: answer 'crane' is not in the guess list", id="play-answer-outside-guesses"),
    pytest.param((*RUNNABLE["play"], "--answers", "{digits}", "--guesses", "{gue}"), 2,
                 "{digits}, line 2: 'c1gar' has a character that is not a letter a-z", id="play-answers-digit"),
    # tournament
    pytest.param(("tournament", "--mode", "zero"), 2,
                 "wordle-arena tournament: error: argument --mode: invalid choice: 'zero' (choose from 'normal', 'hard', 'both')",
                 id="tournament-mode"),
    pytest.param((*RUNNABLE["tournament"], *LISTS, "--sample", "9"), 2,
                 "wordle-arena: error: --sample 9 is more than the 8 answers", id="tournament-sample-over-answers"),
    pytest.param(("tournament", "--agents", "random", *LISTS, "--out", "{ans}"), 2,
                 "wordle-arena: error: {ans} exists and is not a folder", id="tournament-out-a-file"),
    pytest.param(("tournament", "--agents", "random", *LISTS, "--out", "{ans}/run"), 2,
                 "wordle-arena: error: {ans}/run: cannot make a folder there (Not a directory)", id="tournament-out-under-a-file"),
    # verify
    pytest.param(("verify",), 2, "wordle-arena: error: name the run folder to verify (or give --book to re-check the "
                                 "shipped opening book)", id="verify-no-folder"),
    pytest.param(("verify", "--book", "{source_run}"), 2, "wordle-arena: error: --book checks the shipped opening "
                 "book; it takes no run folder, --replay or --jobs", id="verify-book-and-folder"),
    pytest.param(("verify", "{source_run}", "--seed", "3"), 2, "wordle-arena: error: --seed goes with --book (it draws "
                 "the entries re-proved)", id="verify-seed-without-book"),
    # book
    pytest.param(("book", "build", "--from", "{ans}", *LISTS), 2,
                 "wordle-arena: error: {ans}: not an exact-openers run (wordle-arena exact openers v1)", id="book-not-a-run"),
    pytest.param(("book", "build", "--from", "{nodir}", *LISTS), 2, "wordle-arena: error: {nodir}: missing or empty",
                 id="book-missing-run"),
    pytest.param(("book",), 2, "wordle-arena book: error: the following arguments are required: STEP", id="book-no-step"),
    pytest.param(("verify", "{nodir}"), 2, "wordle-arena: error: {nodir}: no such folder", id="verify-missing-folder"),
    pytest.param(("verify", "{ans}"), 2, "wordle-arena: error: {ans}: no such folder", id="verify-a-file"),
    pytest.param(("verify", "{source_run}", *LISTS, "--sample", "3"), 2,
                 "wordle-arena: error: --sample goes with --replay (it is how many games to replay) or --book",
                 id="verify-sample-without-replay"),
    pytest.param(("verify", "{folder}"), 2, "wordle-arena: error: {folder}: no games.csv here; give a tournament's run folder",
                 id="verify-empty-folder"),
    # tree
    pytest.param(("tree", *LISTS), 2, "wordle-arena tree: error: the following arguments are required: --out", id="tree-no-out"),
    pytest.param(("tree", *LISTS, "--out", "{tmp}/tree.csv"), 2,
                 "wordle-arena: error: {tmp}/tree.csv: the file must end in .json or .graphml", id="tree-out-suffix"),
    pytest.param(("tree", *LISTS, "--out", "{folder}"), 2,
                 "wordle-arena: error: {folder}: the file must end in .json or .graphml", id="tree-out-folder"),
    pytest.param(("tree", *LISTS, "--out", "{folderjson}"), 2,
                 "wordle-arena: error: {folderjson} is a folder; give a file name", id="tree-out-folder-named-json"),
    pytest.param(("tree", *LISTS, "--out", "{nodir}/tree.json"), 2,
                 "wordle-arena: error: {nodir}/tree.json: the folder {nodir} does not exist; make it first",
                 id="tree-out-missing-parent"),
    pytest.param(("tree", *LISTS, "--out", "{ans}/tree.json"), 2,
                 "wordle-arena: error: {ans}/tree.json: part of its folder path is a file, not a folder",
                 id="tree-out-under-a-file"),
    pytest.param(("tree", *LISTS, "--out", "/proc/tree.json"), 2,
                 "wordle-arena: error: /proc: cannot write in this folder", id="tree-out-unwritable"),
    # assist
    *[pytest.param(("assist", *LISTS, step), 2, f"wordle-arena: error: '{step}' is not a step: write the guess and the "
                   "colours the game showed, e.g. 'tares:-y--g'", id=f"assist-step-{step}")
      for step in ("tares", "tares:", ":-y--g", "tares:-y--g:x")],
    *[pytest.param(("assist", *LISTS, f"tares:{pattern}"), 2, f"wordle-arena: error: '{pattern}' is not a pattern: write 5 "
                   "marks such as 'gy-..' (g green, y yellow, - . b grey), '21000' or emoji squares",
                   id=f"assist-pattern-{pattern}") for pattern in ("-y--q", "-y-", "-y--g-", "33333")],
    pytest.param(("assist", *LISTS, "zzzzz:-----"), 2, "wordle-arena: error: 'zzzzz' is not in the list of allowed guesses",
                 id="assist-word-not-listed"),
    pytest.param(("assist", *LISTS, "tares:-----", "--hard", "zzzzz:-----"), 2,
                 "wordle-arena: error: 'zzzzz' is not in the list of allowed guesses", id="assist-step-after-an-option"),
    pytest.param(("assist", "tares:-----", "--nosuch", "cigar:-----"), 2,
                 "wordle-arena: error: unrecognized arguments: --nosuch", id="assist-unknown-flag-between-steps"),
    pytest.param(("assist", *LISTS, "tare:-----"), 2, "wordle-arena: error: 'tare' is not in the list of allowed guesses",
                 id="assist-word-short"),
    pytest.param(("assist", *LISTS, "tares:ggggg", "cigar:-----"), 2,
                 "wordle-arena: error: step 2 (cigar:-----): the game was already solved at step 1", id="assist-after-solved"),
    pytest.param(("assist", *LISTS, "tares:yyyyy"), 2,
                 "wordle-arena: error: step 1 (tares:yyyyy) made the game impossible: no answer fits; this pattern is not what "
                 "TARES gets from any answer", id="assist-impossible-pattern"),
    pytest.param(("assist", "--answers", "nosuchname", "tares:-----"), 2,
                 "wordle-arena: error: nosuchname: no such file, nor an answer model's name (likely, fresh, original, nyt, played, all)",
                 id="assist-answers-unknown-name"),
    # openers
    *[pytest.param(("openers", *flags), 2, "wordle-arena: error: --all, --against, --opener, --pairs, --words, --scheduler "
                                           "and --cluster go with --exact",
                   id=f"openers{flags[0]}-without-exact")
      for flags in (("--all",), ("--against", "7920"), ("--scheduler", "tcp://x:1"), ("--cluster", "2"), ("--pairs",),
                    ("--words", "5"))],
    pytest.param(("openers", "--exact", "--words", "5"), 2, "wordle-arena: error: --words goes with --pairs (the space "
                 "of the pair job)", id="openers-words-without-pairs"),
    pytest.param(("openers", "--exact", "--pairs", "--hard"), 2, "wordle-arena: error: --pairs is normal mode only: in "
                 "hard mode a fixed second word is illegal after some reply of almost every first word (solve --start "
                 "checks one pair in any mode)", id="openers-pairs-hard"),
    pytest.param(("solve", "--start", "salet,salet"), 2, "wordle-arena: error: --start: SALET is given twice: a fixed "
                 "start's words are different", id="solve-start-twice"),
    pytest.param(("solve", "--start", "parse,clint", "--hard"), 2, "wordle-arena: error: --start: not playable in hard "
                 "mode: CLINT after PARSE ----y: guess must contain E (revealed in PARSE)", id="solve-start-hard"),
    pytest.param((*RUNNABLE["openers"][:5], *LISTS, "--out", "{folder}"), 2,
                 "wordle-arena: error: {folder} is a folder; give a file name", id="openers-out-folder"),
    pytest.param(("openers", "--exact", "--top", "2", *LISTS, "--out", "{folder}"), 2,
                 "wordle-arena: error: {folder} is a folder; give a file name", id="openers-exact-out-folder"),
    pytest.param(("openers", "--exact", "--top", "2", *LISTS, "--out", "{tmp}/o.jsonl", "--scheduler", "notanaddress"), 2,
                 "wordle-arena: error: cannot reach the Dask scheduler at notanaddress: missing port number in address "
                 "'notanaddress'", id="openers-scheduler-not-an-address", marks=NEEDS_DASK),
    # options that did less than they said (issue 24)
    pytest.param(("openers", "--exact", "--all", "--top", "5", *LISTS), 2,
                 "wordle-arena: error: --all proves every opener; it takes no --top", id="openers-all-and-top"),
    pytest.param((*RUNNABLE["tournament"][:-1], "", *LISTS), 2,
                 "wordle-arena tournament: error: argument --out: an empty path; name a file or folder",
                 id="tournament-out-empty"),
    *[pytest.param((command, *LISTS, "--out", ""), 2, f"wordle-arena {command}: error: argument --out: an empty path",
                   id=f"{command}-out-empty") for command in ("tree", "solve", "openers", "train")],
    pytest.param((*RUNNABLE["tournament"][:-2], "--out", "{folder}", "--resume", *LISTS), 2,
                 "wordle-arena: error: {folder} holds no tournament to resume; leave out --resume", id="tournament-resume-nothing"),
    pytest.param(("tournament", "--indicators", "absurdle", "--cap", "3", *LISTS, "--out", "{tmp}/m"), 2,
                 "wordle-arena: error: --cap 3 is below the guess limit (6)", id="tournament-cap-below-limit"),
    # echoed input: literal, cut short
    pytest.param((*RUNNABLE["play"], *LISTS, "--answer", ":x:"), 2,
                 "wordle-arena: error: ':x:' is not in the list of possible answers", id="play-answer-emoji-code"),
    pytest.param((*RUNNABLE["play"], *LISTS, "--answer", "a" * 100_000), 2,
                 "a... (100", id="play-answer-100k"),
    # over-long paths
    *[pytest.param(argv, 2, "the path is too long for this system", id=f"{argv[0]}-path-too-long") for argv in (
        ("tournament", "--agents", "random", *LISTS, "--out", "{root}/" + "d" * 300),
        ("verify", "{root}/" + "d" * 300),
        ("tree", "--agent", "entropy", *LISTS, "--out", "{root}/" + "d" * 300 + "/t.json"),
        ("openers", "--top", "2", "--jobs", "1", *LISTS, "--out", "{root}/" + "d" * 300 + "/o.json"),
        ("solve", "--opener", "slate", *LISTS, "--out", "{root}/" + "d" * 300 + "/s.json"),
        ("play", "--answers", "{root}/" + "d" * 300, "--answer", "cigar"),
        ("train", "q-learning", "--episodes", "1", "--out", "{root}/" + "d" * 300))],
    # solve
    *[pytest.param(("solve", *LISTS, "--opener", word), 2, f"wordle-arena: error: opener '{word}' is not in the guess list",
                   id=f"solve-opener-{word}") for word in ("zzzzz", "cig", "12345", "")],
    pytest.param(("solve", *LISTS, "--top", "3", "--prove"), 2,
                 "wordle-arena solve: error: argument --prove: not allowed with argument --top", id="solve-top-and-prove"),
    pytest.param(("solve", *LISTS, "--out", "{tmp}/tree.csv"), 2,
                 "wordle-arena: error: {tmp}/tree.csv: the file must end in .json or .graphml", id="solve-out-suffix"),
    pytest.param(("solve", *LISTS, "--out", "{folderjson}"), 2,
                 "wordle-arena: error: {folderjson} is a folder; give a file name", id="solve-out-folder"),
    *[pytest.param((*argv, *LISTS, "--max-guesses", "1"), 2, "wordle-arena: error: no tree solves every answer within 1 guesses",
                   id=f"{argv[0]}-optimal-opener-within-one-guess")
      for argv in (("play", "--agent", "optimal", "--answer", "humph", "--json"), ("tree", "--agent", "optimal", "--out", "{tmp}/t.json"),
                   ("assist", "--agent", "optimal", "--opener", "cigar", "--json"), ("solve", "--opener", "slate"))],
    pytest.param(("solve", *LISTS, "--max-guesses", "1"), 2,
                 "wordle-arena: error: no tree solves every answer within 1 guesses", id="solve-no-tree-within-limit"),
    # serve
    pytest.param(("serve", *LISTS, "--port", "0", "--host", "999.1.1.1"), 2,
                 "wordle-arena: error: cannot listen on 999.1.1.1:0: ", id="serve-bad-host", marks=NEEDS_WEB),
]


def fill(argv: tuple[str, ...], paths: dict[str, str]) -> list[str]:
    """The command line with the case's paths put in."""
    return [part.format(**paths) for part in argv]


def one_line(code: int, out: str, err: str, expected_code: int, message: str) -> None:
    """The exit code, no traceback, one line on stderr holding `message`, and no results on stdout."""
    assert code == expected_code, err
    assert "Traceback" not in err and "Traceback" not in out
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert message in err, err
    assert err.startswith("wordle-arena"), err
    assert out.strip() == "", out


@pytest.mark.parametrize("argv, code, message",
                         word_list_cases() + number_cases() + agent_option_cases() + OTHER_CASES)
def test_bad_input_is_one_line(argv, code, message, files, tmp_path, capsys):
    """Every command refuses bad input with its exit code and one exact line, and prints no results."""
    paths = {**files, "tmp": str(tmp_path)}
    one_line(*run_cli(capsys, *fill(argv, paths)), code, message.format(**paths))


def snapshot(folder: Path) -> dict[str, str]:
    """The SHA-256 of each file in the folder."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def corrupted(files: dict[str, str], tmp_path: Path, corrupt: Callable[[Path], None]) -> tuple[dict[str, str], Path]:
    """A copy of the finished run with one corruption applied, and the paths to fill in."""
    run = tmp_path / "run"
    shutil.copytree(files["source_run"], run)
    corrupt(run)
    return {**files, "run": str(run), "tmp": str(tmp_path)}, run


@pytest.mark.parametrize("corrupt, message", [pytest.param(c, v, id=n) for n, c, v, _ in CORRUPT_RUNS]
                         + [pytest.param(c, v, id=n) for n, c, v in VERIFY_ONLY])
def test_verify_reports_a_corrupt_run_in_one_line_each(corrupt, message, files, tmp_path, capsys):
    """verify exits 1, each problem one line, the last line the verdict; it changes nothing."""
    paths, run = corrupted(files, tmp_path, corrupt)
    before = snapshot(run)
    code, out, err = run_cli(capsys, "verify", str(run), *fill(LISTS, paths))
    assert code == 1, err
    assert "Traceback" not in err
    problems = err.splitlines()
    assert all(line.startswith("wordle-arena: verify: ") for line in problems), err
    assert problems[-1].startswith(f"wordle-arena: verify: {run} FAILED ("), err
    assert any(message.format(**paths) in line for line in problems[:-1]), err
    assert snapshot(run) == before


@pytest.mark.parametrize("corrupt, message", [pytest.param(c, r, id=n) for n, c, _, r in CORRUPT_RUNS]
                         + [pytest.param(c, r, id=n) for n, c, r in RESUME_ONLY])
def test_resume_refuses_a_corrupt_run_and_leaves_it_alone(corrupt, message, files, tmp_path, capsys):
    """tournament --resume on a damaged run exits 2 with one line and writes nothing into the folder."""
    paths, run = corrupted(files, tmp_path, corrupt)
    before = snapshot(run)
    one_line(*run_cli(capsys, *fill(RESUME, paths)), 2, "wordle-arena: error: " + message.format(**paths))
    assert snapshot(run) == before


@pytest.mark.parametrize("make", [pytest.param(os.mkfifo, id="fifo"), pytest.param(os.mkdir, id="folder")])
@pytest.mark.parametrize("argv", [pytest.param(RUNNABLE["play"], id="play"), pytest.param(RUNNABLE["solve"], id="solve")])
def test_a_cache_that_is_not_a_regular_file_is_refused(make, argv, files, tmp_path, capsys, monkeypatch):
    """A FIFO or a folder where the pattern matrix cache belongs: one line naming it, never a hang."""
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path))
    path = cache_path(load_words(answers=files["ans"], guesses=files["gue"]))
    make(path)
    kind = "is not a regular file (a FIFO, device or socket)" if make is os.mkfifo else "is a folder where a file belongs"
    one_line(*run_cli(capsys, *fill((*argv, *LISTS), files)), 2, f"wordle-arena: error: {path} {kind}; remove it")


def test_a_run_without_games_is_not_played_over_without_resume(files, tmp_path, capsys):
    """A folder left with timings.csv and summary.json but no games.csv still holds a run: refused, not overwritten."""
    paths, run = corrupted(files, tmp_path, remove("games.csv"))
    before = snapshot(run)
    argv = [part for part in RESUME if part != "--resume"]
    one_line(*run_cli(capsys, *fill(tuple(argv), paths)), 2,
             f"wordle-arena: error: {run} already holds a tournament; add --resume to continue it, "
             "or choose another folder with --out")
    assert snapshot(run) == before


def test_resume_writes_a_junk_summary_again_from_the_games(files, tmp_path, capsys):
    """summary.json that is not a JSON object is repaired by --resume, and the run then verifies."""
    paths, run = corrupted(files, tmp_path, write("summary.json", "{not json"))
    code, out, err = run_cli(capsys, *fill(RESUME, paths))
    assert code == 0, err
    assert f"{run}/summary.json was not a JSON object: written again from the games" in out
    assert run_cli(capsys, "verify", str(run), *fill(LISTS, paths))[0] == 0


@NEEDS_DASK
def test_a_scheduler_never_reached_leaves_no_openers_file(files, tmp_path, capsys):
    """openers --exact with a scheduler address Dask cannot use: one line, and no results file begun."""
    out = tmp_path / "openers.jsonl"
    one_line(*run_cli(capsys, "openers", "--exact", "--top", "2", *fill(LISTS, files), "--out", str(out),
                      "--scheduler", "notanaddress"), 2,
             "wordle-arena: error: cannot reach the Dask scheduler at notanaddress: ")
    assert not out.exists()


@pytest.mark.parametrize("junk", [pytest.param(b"", id="empty"), pytest.param(b"junk", id="junk"),
                                  pytest.param(b"\x00" * 64, id="zeros")])
def test_a_corrupt_cache_is_computed_again_not_trusted(junk, files, tmp_path, capsys, monkeypatch):
    """Junk in the pattern matrix and optimal tree caches: the same game as from clean caches, and the caches mended."""
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path))
    argv = fill(("play", "--agent", "optimal", "--answer", "humph", "--seed", "1", *LISTS), files)
    code, clean, _ = run_cli(capsys, *argv)
    assert code == 0
    caches = sorted(tmp_path.iterdir())
    assert {path.name.split("-")[0] for path in caches} == {"patterns", "optimal"}
    for path in caches:
        path.write_bytes(junk)
    code, again, err = run_cli(capsys, *argv)
    assert (code, again) == (0, clean), err
    assert "Traceback" not in err
    assert all(path.read_bytes() != junk for path in caches)


def test_answers_all_with_an_own_guess_list_is_that_list_not_a_refusal(files, capsys):
    """--answers all --guesses FILE plays over the file's words (it was refused: official answers not in FILE)."""
    code, out, err = run_cli(capsys, *fill(("play", "--agent", "random", "--answers", "all", "--guesses", "{gue}",
                                            "--answer", "humph", "--seed", "1"), files))
    assert code == 0, err
    assert "HUMPH" in out


# -- the web API: every bad request a 4xx with one line, never a 500 -----------------------------------
DEEP = "[" * 30_000 + "]" * 30_000
#: (method, path, body: a JSON value, raw bytes or None, status, a precise part of the one-line error).
HTTP_CASES = [
    ("GET", "/api/watch?agent=entropy&answer=crane&seed=%C2%B2", None, 400, "'seed' must be a whole number, got"),
    ("GET", "/api/watch?agent=entropy&answer=crane&seed=--5", None, 400, "'seed' must be a whole number, got \"--5\""),
    ("GET", "/api/watch?agent=entropy&answer=crane&seed=" + "9" * 5000, None, 400, "(5002 characters)"),
    ("GET", "/api/watch?agent=entropy&answer=crane&max_guesses=%C2%B2", None, 400, "'max_guesses' must be a whole number"),
    ("GET", "/api/new?x=" + "q" * 20_000, None, 414, "the query string is 20002 bytes; the API reads at most 8192"),
    ("POST", "/api/feedback", DEEP.encode(), 400, "the request body is not JSON (nested too deeply)"),
    ("POST", "/api/watch", {"agent": "entropy", "answer": "crane", "options": {"x": [[[[[[[[[[[1]]]]]]]]]]]}}, 400,
     "the request body nests arrays and objects over 8 deep"),
    ("POST", "/api/watch", b'{"agent": "alphabeta", "answer": "crane", "options": {"depth": NaN}}', 400,
     "depth must be a whole number, got nan"),
    ("POST", "/api/watch", b'{"agent": "alphabeta", "answer": "crane", "options": {"depth": Infinity}}', 400,
     "depth must be a whole number, got inf"),
    ("POST", "/api/watch", {"agent": "alphabeta", "answer": "crane", "options": {"depth": "\u00b2"}}, 400,
     "depth must be a whole number, got '\u00b2'"),
    ("POST", "/api/watch", {"agent": "optimal", "answer": "crane", "options": {"opener": "best"}}, 400,
     "--opener best: solving for the best opener takes far longer than the web page's"),
    ("POST", "/api/feedback", b" " * (65 * 1024), 413, "the API reads at most 65536"),
    ("POST", "/api/feedback", {"guess": "x" * 60_000, "answer": "crane"}, 400, "... (600"),
    ("POST", "/api/feedback", {"guess": ":x:", "answer": "crane"}, 400, "':x:' is not in the list of allowed guesses"),
]


@pytest.fixture(scope="module")
def web_client(files):
    """A test client over the small lists (its agents work in worker processes, as `serve`'s do)."""
    testclient = pytest.importorskip("starlette.testclient")
    from wordle import Wordle
    from web.app import create_app

    game = Wordle(load_words(answers=files["ans"], guesses=files["gue"]))
    with testclient.TestClient(create_app(game, results=files["source_run"], workers=1), base_url="http://localhost",
                               raise_server_exceptions=False) as client:
        yield client


@NEEDS_WEB
@pytest.mark.parametrize("method, path, body, status, message",
                         [pytest.param(*case, id=f"{case[0]} {case[1][:60]} {str(case[2])[:40]}") for case in HTTP_CASES])
def test_a_bad_request_is_a_4xx_with_one_line(web_client, method, path, body, status, message):
    """Each bad request: its status, one JSON line holding `message`, no 500."""
    kind = {"json": body} if isinstance(body, (dict, list)) else \
        {"content": body, "headers": {"content-type": "application/json"}} if body is not None else {}
    response = web_client.request(method, path, **kind)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error and len(error) < 600, error
    assert message in error, error


def summary_edit(change: Callable[[dict], None]) -> Callable[[Path], None]:
    """Edit summary.json's "summary" and write it back (NaN allowed, as a hand edit could leave)."""
    def apply(run: Path) -> None:
        document = json.loads((run / "summary.json").read_text())
        change(document["summary"])
        (run / "summary.json").write_text(json.dumps(document))
    return apply


#: (name, corruption of a served run's summary.json, a precise part of the one line the results and charts answer).
SERVED_SUMMARIES = [
    ("key missing", summary_edit(lambda s: s["results"][0].pop("mean")), "results row 1: 'mean' is missing or not a number"),
    ("text mean", summary_edit(lambda s: s["results"][0].update(mean="3.5")), "results row 1: 'mean' is missing"),
    ("NaN mean", summary_edit(lambda s: s["results"][0].update(mean=float("nan"))), "results row 1: 'mean' is missing"),
    ("guess limit 10**9", summary_edit(lambda s: s.update(max_guesses=10**9)), "max_guesses must be a whole number from 1 to 64"),
    ("histogram short", summary_edit(lambda s: s["results"][0].update(histogram=[1])), "'histogram' is not"),
    ("FIFO", into_fifo("summary.json"), "summary.json: not a regular file"),
    ("folder", into_folder("summary.json"), "summary.json: not a regular file"),
    ("huge (sparse)", lambda run: os.truncate(run / "summary.json", 300 * 1024 * 1024), "more than the"),
]


@NEEDS_WEB
@pytest.mark.parametrize("corrupt, message", [pytest.param(c, m, id=n) for n, c, m in SERVED_SUMMARIES])
def test_serve_refuses_a_damaged_summary_in_one_line(corrupt, message, files, tmp_path):
    """serve --results over a damaged summary.json: the results and every chart are a one-line 404, never a 500 or a hang."""
    from wordle import Wordle
    from web.service import NotFound, Service

    paths, run = corrupted(files, tmp_path, corrupt)
    service = Service(Wordle(load_words(answers=files["ans"], guesses=files["gue"])), results=run)
    for call in (service.results, lambda: service.chart("histograms.svg")):
        with pytest.raises(NotFound) as refused:
            call()
        assert message in str(refused.value) and "\n" not in str(refused.value), refused.value
        assert len(str(refused.value)) < 600


def test_the_default_results_folder_does_not_depend_on_the_working_folder(monkeypatch, tmp_path):
    """serve started elsewhere still shows the published run."""
    pytest.importorskip("starlette")
    from wordle import Wordle
    from web.service import Service

    monkeypatch.chdir(tmp_path)
    assert Service(Wordle()).results()["summary"]["results"]


@pytest.mark.parametrize("step, message", [("crane:gxyz-", "'gxyz-' is not a pattern"), ("crane", "'crane' is not a step"),
                                           ("xxxxx:-----", "'xxxxx' is not in the list of allowed guesses")])
@pytest.mark.parametrize("command", ["assist", "review"])
def test_a_bad_step_is_refused_before_any_matrix_is_built(command, step, message, tmp_path, capsys, monkeypatch):
    """assist or review on an empty cache with a typo: refused in one line, and no pattern matrix built first."""
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path))
    one_line(*run_cli(capsys, command, "salet:-----", step), 2, message)
    assert list(tmp_path.iterdir()) == []
