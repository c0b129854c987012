"""Damaged runs of dealt games (several boards, Fibble): the cases of issue 49 items 5, 6 and 7, shared by
tests/test_damaged_runs.py and benchmarks/audit_hostile.py ("dealt runs").

Each case edits a copy of a run folder and says which command must then refuse it: `verify` (exit 1, one
problem a line, no traceback) or `--resume` (exit 2, one line, nothing written). The edits work on the
files as text and on their metadata as JSON, so the same cases run against the code before the one
tournament (its `variant-games` files: `settings.variant` with `fibble`) and after it (`settings.game`
with `lies`, `settings.max_guesses`).
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
#: The runs the cases damage: a finished Fibble run, a finished Dordle run, an interrupted Dordle run (a journal).
FIBBLE = ["tournament", "--indicator", "fibble", "--agents", "random", "--sample", "6"]
DORDLE = ["tournament", "--boards", "2", "--agents", "entropy,random", "--sample", "3"]
UNFINISHED = ["tournament", "--boards", "2", "--agents", "random", "--sample", "20000"]
META_FILES = ("games.csv", "timings.csv")


# -- editing ------------------------------------------------------------------------------------
def lines_of(path: Path) -> list[str]:
    """A file's lines (kept as text, invalid UTF-8 as surrogates)."""
    return path.read_bytes().decode("utf-8", errors="surrogateescape").split("\n")


def write_lines(path: Path, lines: list[str]) -> None:
    """Write lines back as `lines_of` read them."""
    path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogateescape"))


def edit_meta(run: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply `change` to the metadata of games.csv and timings.csv and to summary.json's copy of it."""
    for name in META_FILES:
        lines = lines_of(run / name)
        head, _, text = lines[0].partition(" {")
        meta = json.loads("{" + text)
        change(meta)
        lines[0] = f"{head} {json.dumps(meta, sort_keys=True)}"
        write_lines(run / name, lines)
    summary = json.loads((run / "summary.json").read_text())
    change(summary)
    (run / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")


def edit_summary(run: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Apply `change` to summary.json as JSON (NaN written as NaN)."""
    summary = json.loads((run / "summary.json").read_text())
    change(summary)
    (run / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")


def shape(meta: dict[str, Any]) -> dict[str, Any]:
    """The recorded game's shape: `settings.game` (one tournament) or `settings.variant` (before it)."""
    settings = meta["settings"]
    return settings["game"] if "game" in settings else settings["variant"]


def set_limit(meta: dict[str, Any], value: Any) -> None:
    """The recorded guess limit, wherever the format keeps it."""
    if "variant" in meta["settings"]:
        meta["settings"]["variant"]["max_guesses"] = value
    else:
        meta["settings"]["max_guesses"] = value


def set_lies(meta: dict[str, Any], value: Any) -> None:
    """Whether (or how much) the recorded Indicator lies, wherever the format keeps it."""
    if "variant" in meta["settings"]:
        meta["settings"]["variant"]["fibble"] = value
    else:
        meta["settings"]["game"]["lies"] = value


def row_field(name: str, column: int, value: str | Callable[[str], str], row: int = 2) -> Callable[[Path], None]:
    """An edit of one field of one games.csv row (column by position: the same in both formats)."""
    def edit(run: Path) -> None:
        lines = lines_of(run / name)
        fields = lines[row].split(",")
        fields[column] = value(fields[column]) if callable(value) else value
        lines[row] = ",".join(fields)
        write_lines(run / name, lines)
    return edit


def summary_entry(change: Callable[[Any], Any]) -> Callable[[dict[str, Any]], None]:
    """An edit of the summary's first entry: results[0] (one tournament) or its first key (before)."""
    def edit(summary: dict[str, Any]) -> None:
        figures = summary["summary"]
        if isinstance(figures, dict) and "results" in figures:
            figures["results"][0] = change(figures["results"][0])
        else:
            key = next(iter(figures))
            figures[key] = change(figures[key])
    return edit


def with_seconds(value: float) -> Callable[[Any], Any]:
    """An entry whose seconds a game is `value`."""
    return lambda entry: {**entry, "seconds_per_game": value}


def journal_row(change: Callable[[list[str]], list[str]], keep: bool = True) -> Callable[[Path], None]:
    """An edit appending (or, `keep` False, replacing the last with) a changed copy of the journal's last game."""
    def edit(run: Path) -> None:
        lines = [line for line in lines_of(run / "journal.csv") if line]
        rows = [i for i, line in enumerate(lines) if i >= 2 and not line.startswith("#")]
        last = lines[rows[-1]].split(",")
        changed = ",".join(change(list(last)))
        if keep:
            lines.append(changed)
        else:
            lines[rows[-1]] = changed
        write_lines(run / "journal.csv", lines + [""])
    return edit


def with_field(column: int, value: str) -> Callable[[list[str]], list[str]]:
    """A row with field `column` set to `value`."""
    return lambda fields: fields[:column] + [value] + fields[column + 1:]


def false_reply(fields: list[str]) -> list[str]:
    """A row whose first reply is changed to one the answers never give."""
    replies = fields[6].split(" ")
    replies[0] = "/".join("gyyyy" for _ in replies[0].split("/"))
    return fields[:6] + [" ".join(replies)] + fields[7:]


def append_line(name: str, text: str) -> Callable[[Path], None]:
    """An edit appending one line to a file."""
    def edit(run: Path) -> None:
        with open(run / name, "a", encoding="utf-8") as out:
            out.write(text + "\n")
    return edit


def duplicate_row(name: str) -> Callable[[Path], None]:
    """An edit repeating a file's first row."""
    def edit(run: Path) -> None:
        lines = lines_of(run / name)
        write_lines(run / name, lines[:3] + [lines[2]] + lines[3:])
    return edit


# -- the cases ----------------------------------------------------------------------------------
#: (item, case, run: "fibble" | "dordle" | "unfinished", edit, the command that must refuse: "verify",
#: "verify --replay" or "resume").
CASES: list[tuple[str, str, str, Callable[[Path], None], str]] = [
    # item 5: verify on a damaged run printed a traceback
    ("5", "a Fibble reply written as '.'", "fibble", row_field("games.csv", 6, lambda r: "." + r[5:]), "verify"),
    ("5", "a game number of -1", "fibble", row_field("games.csv", 2, "-1"), "verify"),
    ("5", "settings.seed 'x'", "dordle", lambda run: edit_meta(run, lambda m: m["settings"].update(seed="x")), "verify"),
    ("5", "settings.seed -1", "dordle", lambda run: edit_meta(run, lambda m: m["settings"].update(seed=-1)), "verify"),
    ("5", "settings.seed null", "dordle", lambda run: edit_meta(run, lambda m: m["settings"].update(seed=None)),
     "verify"),
    ("5", "provenance missing", "dordle", lambda run: edit_meta(run, lambda m: m.pop("provenance")), "verify"),
    ("5", "provenance a string", "dordle", lambda run: edit_meta(run, lambda m: m.update(provenance="x")), "verify"),
    ("5", "summary a list", "dordle", lambda run: edit_summary(run, lambda s: s.update(summary=[1])), "verify"),
    ("5", "summary NaN", "dordle", lambda run: edit_summary(run, lambda s: s.update(summary=math.nan)), "verify"),
    ("5", "a summary entry a number", "dordle", lambda run: edit_summary(run, summary_entry(lambda e: 5)), "verify"),
    ("5", "an agent missing from agent_settings", "dordle",
     lambda run: edit_meta(run, lambda m: m["settings"]["agent_settings"].pop("random")), "verify --replay"),
    ("5", "agent_settings missing", "dordle", lambda run: edit_meta(run, lambda m: m["settings"].pop("agent_settings")),
     "verify --replay"),
    ("5", "agent_settings a list", "dordle",
     lambda run: edit_meta(run, lambda m: m["settings"].update(agent_settings=[1])), "verify --replay"),
    ("5", "an agent_settings entry a list", "dordle",
     lambda run: edit_meta(run, lambda m: m["settings"]["agent_settings"].update(entropy=[1])), "verify --replay"),
    # item 6: --resume printed a traceback on a damaged journal or timings file
    ("6", "a journal row of game 999", "unfinished", journal_row(with_field(2, "999")), "resume"),
    ("6", "a journal row of game -3", "unfinished", journal_row(with_field(2, "-3")), "resume"),
    ("6", "a journal row of agent zebra", "unfinished", journal_row(with_field(0, "zebra")), "resume"),
    ("6", "a journal row in hard mode of a normal run", "unfinished", journal_row(with_field(1, "hard")), "resume"),
    ("6", "invalid UTF-8 in a journal row's agent", "unfinished", journal_row(with_field(0, "ran\udcffdom")), "resume"),
    ("6", "a timings.csv row entropy,normal,x,abc", "dordle", append_line("timings.csv", "entropy,normal,x,abc"),
     "resume"),
    ("6", "a timings.csv row of game 999", "dordle", append_line("timings.csv", "entropy,normal,999,0.5"), "resume"),
    # item 7: false values written or passed
    ("7", "a duplicated journal row", "unfinished", journal_row(lambda fields: fields), "resume"),
    ("7", "a journal row's seconds nan", "unfinished", journal_row(with_field(10, "nan"), keep=False), "resume"),
    ("7", "a journal row's seconds 1e400", "unfinished", journal_row(with_field(10, "1e400"), keep=False), "resume"),
    ("7", "a journal row with a false reply", "unfinished", journal_row(false_reply, keep=False), "resume"),
    ("7", "a duplicated games.csv row", "dordle", duplicate_row("games.csv"), "verify --replay"),
    ("7", "summary seconds a game NaN", "dordle", lambda run: edit_summary(run, summary_entry(with_seconds(math.nan))),
     "verify"),
    ("7", "a Fibble row with two patterns", "fibble", row_field("games.csv", 6, lambda r: r[:5] + "/-----" + r[5:]),
     "verify"),
    ("7", "negative nodes", "dordle", row_field("games.csv", 8, "-5"), "verify"),
    ("7", "oversized nodes", "dordle", row_field("games.csv", 8, "9" * 30), "verify"),
    ("7", "lies (fibble) 'no'", "fibble", lambda run: edit_meta(run, lambda m: set_lies(m, "no")), "verify"),
    ("7", "boards 2.9", "dordle", lambda run: edit_meta(run, lambda m: shape(m).update(boards=2.9)), "verify"),
    ("7", "max_guesses 10**9", "dordle", lambda run: edit_meta(run, lambda m: set_limit(m, 10**9)), "verify"),
    ("7", "a garbage timings.csv", "dordle", lambda run: (run / "timings.csv").write_text("x,y\n\x00garbage\n"),
     "verify"),
]


# -- the runs and the judgement -------------------------------------------------------------------
def run_cli(argv: list[str], env: dict[str, str] | None = None, timeout: float = 600) -> tuple[int, str, str]:
    """`python cli.py argv` in its own process: exit code (124 when it hung), stdout, stderr."""
    try:
        done = subprocess.run([sys.executable, str(ROOT / "cli.py"), *argv], cwd=ROOT, capture_output=True, text=True,
                              errors="replace", timeout=timeout, env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        return 124, "", "hung"
    return done.returncode, done.stdout, done.stderr


def unfinished_run(folder: Path, env: dict[str, str] | None = None, rows: int = 30) -> Path:
    """An interrupted run: UNFINISHED started, stopped by SIGINT (Ctrl-C) once its journal holds `rows` games."""
    job = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), *UNFINISHED, "--out", str(folder)], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    journal, began = folder / "journal.csv", time.monotonic()
    while time.monotonic() - began < 300 and job.poll() is None:
        if journal.exists() and journal.read_bytes().count(b"\n") >= rows + 2:
            break
        time.sleep(0.2)
    job.send_signal(signal.SIGINT)
    job.wait(timeout=120)
    if not journal.exists():
        raise RuntimeError(f"no journal in {folder}: the run ended with {job.returncode} before it was stopped")
    return folder


def command_of(check: str, run: Path, run_argv: list[str]) -> list[str]:
    """The command a case runs on its damaged copy."""
    if check == "resume":
        return [*run_argv, "--out", str(run), "--resume"]
    return ["verify", str(run), *(["--replay"] if check.endswith("--replay") else [])]


def judgement(check: str, code: int, out: str, err: str, run: Path, before: dict[str, bytes]) -> str | None:
    """Why a case broke the rule, or None: verify exits 1 with one problem a line; --resume exits 2 in one line and
    writes nothing; neither prints a traceback nor hangs."""
    if code == 124:
        return "hung"
    if "Traceback" in err or "Traceback" in out:
        return "traceback: " + err.strip().splitlines()[-1][:200]
    lines = [line for line in err.splitlines() if line.strip()]
    if check.startswith("verify"):
        if code != 1:
            return f"verify exit {code} (passed a damaged run)" if code == 0 else f"verify exit {code}: {err[:200]}"
        if not lines or not all(line.startswith("wordle-arena: verify: ") for line in lines):
            return f"not one problem a line: {err[:200]}"
        return None
    if code != 2:
        return f"--resume exit {code}: {(err or out)[-200:]}"
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    after = {name: (run / name).read_bytes() for name in before if (run / name).exists()}
    if after != before or (run / "games.csv").exists() and "games.csv" not in before:
        return "--resume refused but changed the folder"
    return None


def folder_bytes(run: Path) -> dict[str, bytes]:
    """Every file of a run folder, by name."""
    return {path.name: path.read_bytes() for path in run.iterdir() if path.is_file() and path.name != ".lock"}
