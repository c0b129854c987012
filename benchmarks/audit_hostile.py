"""Hostile-use audit (issues 24, 31): every command and the web API fed bad values, files, paths, signals and a burst.

Each case is run and judged by one rule: bad input gets a one-line error (exit 2, or 1 where
verify reports problems) or a 4xx with a one-line JSON error, never a traceback, a 500, a
hang or a leftover process; a run killed or refused leaves its results recoverable. The
table (area | cases | held | failed) and every failure go to results/audit-hostile.json;
the web burst (memory and response times under expensive and cheap requests on 127.0.0.1)
goes to the same file. Issue 31 added cross-site requests, Host names, lone surrogates,
starvation, floods, huge files, budgets, output encodings and the Dask opener job's faults,
and checks every status the server answers against the /api page's list. Issue 49 added
scheduler addresses that are not Dask schedulers, the Variants page's games (finished games and a
flood from 500 addresses) and SIGTERM at many moments of an exact opener's proof.

Issue 49 added "dealt runs": verify and --resume on damaged runs of several boards and Fibble
(tests/damaged_runs.py), the 8- and 9-letter pattern matrices' cache read back by a second command,
and the deep board searches bounded by default.

Areas to name: paths, "results files", models, signals, "web stops", "served results",
flags, "huge files", budgets, encodings, starvation, floods, "dask faults", "scheduler addresses",
"variant games", "sigterm moments", cross-site (with Host and surrogates), web (fields, query
strings, budgets, bodies, slow clients), burst, "dealt runs".

    python benchmarks/audit_hostile.py            # about 15 minutes on 2 shared cores
    python benchmarks/audit_hostile.py paths web  # some areas only: results/audit-hostile-paths-web.json
    python benchmarks/audit_hostile.py --merge results/audit-hostile-paths.json ...  # parts into one report
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.processes import child_processes, is_alive  # noqa: E402
from plumbing.storage import provenance  # noqa: E402

OUT = ROOT / "results" / "audit-hostile.json"
#: A case that takes longer than this has hung.
HANG_SECONDS = 120
#: Hostile values for a number or word field of the web API.
HOSTILE_VALUES: list[Any] = [
    "\u00b2", "--5", "9" * 5000, "-1", "1e9", "0x10", " 7 ", "", None, True, [], {}, [1, 2], {"a": 1},
    1.5, -3, 10**30, ":x:", "[bold]x[/bold]", "a" * 100_000, "\x00", "\ud800" * 0 + "cr\u00e2ne", "crane\n",
    [[[[[[[[[[1]]]]]]]]]],
]
HOSTILE_NUMBERS_JSON = ["NaN", "Infinity", "-Infinity", "1e400", "-0", "1" + "0" * 400]
#: Every web answer the audit saw: method, path (query string dropped), status; checked against the /api page.
ANSWERS: list[tuple[str, str, int]] = []
API_PAGE = ROOT / "web" / "static" / "api.html"


def machine() -> dict[str, Any]:
    """The load while the audit ran, beside the usual provenance."""
    return {**provenance(), "load_average": os.getloadavg()}


# -- running commands -------------------------------------------------------------------------------
def run(argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> tuple[int, str, str, float]:
    """Run `python cli.py argv`; exit code (124 when it hung), stdout, stderr, seconds."""
    began = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "cli.py", *argv] if cwd == ROOT else
                              [sys.executable, str(ROOT / "cli.py"), *argv], cwd=cwd, capture_output=True,
                              text=True, errors="replace", timeout=HANG_SECONDS, env={**os.environ, **(env or {})})
        return done.returncode, done.stdout, done.stderr, time.monotonic() - began
    except subprocess.TimeoutExpired as expired:
        return 124, str(expired.stdout or ""), str(expired.stderr or ""), time.monotonic() - began


def one_line_refusal(code: int, out: str, err: str, codes: tuple[int, ...] = (2,)) -> str | None:
    """Why a refusal broke the rule, or None when it held."""
    if code == 124:
        return "hung"
    if "Traceback" in err or "Traceback" in out:
        return "traceback: " + err.strip().splitlines()[-1][:200]
    if code not in codes:
        return f"exit {code}: {err.strip()[:200]}"
    lines = [line for line in err.splitlines() if line.strip()]
    if code == 2 and len(lines) != 1:
        return f"{len(lines)} lines on stderr"
    if any(len(line) > 1000 for line in lines):
        return "a line over 1000 characters"
    return None


class Audit:
    """Cases by area, and the failures."""

    def __init__(self) -> None:
        self.areas: dict[str, list[int]] = {}
        self.failures: list[dict[str, str]] = []

    def check(self, area: str, case: str, problem: str | None) -> None:
        """Count one case; keep its problem when it failed."""
        counts = self.areas.setdefault(area, [0, 0])
        counts[0] += 1
        if problem is None:
            counts[1] += 1
        else:
            self.failures.append({"area": area, "case": case[:300], "problem": problem[:400]})
            print(f"FAILED {area}: {case[:120]}: {problem[:200]}", flush=True)

    def table(self) -> list[dict[str, Any]]:
        """area | cases | held | failed."""
        return [{"area": area, "cases": cases, "held": held, "failed": cases - held}
                for area, (cases, held) in self.areas.items()]


# -- files and paths ------------------------------------------------------------------------------------
def small_lists(folder: Path) -> list[str]:
    """--answers/--guesses over eight answers, so commands start fast."""
    words = "cigar crane slate tares salet rebut sissy humph".split()
    (folder / "ans.txt").write_text("\n".join(words) + "\n")
    return ["--answers", str(folder / "ans.txt"), "--guesses", str(folder / "ans.txt")]


def hostile_paths(folder: Path) -> dict[str, str]:
    """A FIFO, a folder, a missing file, a path under a file, a 300-character path, an unwritable place."""
    (folder / "dir.json").mkdir(exist_ok=True)
    fifo = folder / "fifo.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    (folder / "file").write_text("x")
    return {"fifo": str(fifo), "folder": str(folder / "dir.json"), "missing": str(folder / "nosuch" / "x.json"),
            "under-a-file": str(folder / "file" / "x.json"), "too-long": str(folder / ("d" * 300) / "x.json"),
            "proc": "/proc/x.json", "empty": ""}


def audit_paths(audit: Audit, folder: Path, lists: list[str], run_folder: Path) -> None:
    """Every option that names a file or folder, given each hostile path."""
    paths = hostile_paths(folder)
    options = [
        ("play --json --out", lambda p: ["play", "--agent", "random", "--answer", "cigar", "--seed", "1", "--json",
                                         "--out", p, *lists]),
        ("tree --out", lambda p: ["tree", "--agent", "entropy", "--out", p, *lists]),
        ("solve --out", lambda p: ["solve", "--opener", "slate", "--out", p, *lists]),
        ("openers --out", lambda p: ["openers", "--top", "2", "--jobs", "1", "--out", p, *lists]),
        ("openers --exact --out", lambda p: ["openers", "--exact", "--top", "2", "--jobs", "1", "--out",
                                             p.replace(".json", ".jsonl"), *lists]),
        ("tournament --out", lambda p: ["tournament", "--agents", "random", "--jobs", "1", "--out",
                                        p.removesuffix(".json"), *lists]),
        ("verify DIR", lambda p: ["verify", p.removesuffix(".json")]),
        ("train --out", lambda p: ["train", "q-learning", "--episodes", "1", "--out", p.removesuffix(".json")]),
        ("--answers", lambda p: ["play", "--agent", "random", "--answer", "cigar", "--answers", p]),
        ("--guesses", lambda p: ["assist", "--guesses", p, "tares:-y---"]),
    ]
    for name, make in options:
        for kind, path in paths.items():
            argv = make(path)
            code, out, err, _ = run(argv)
            # a command may use a path it can (a FIFO replaced by the written file, a folder made); an empty or
            # over-long path, or one it cannot use, is a one-line refusal; never a traceback or a hang
            problem = one_line_refusal(code, out, err) if code != 0 or kind == "empty" else None
            audit.check("paths", f"{name} {kind}", problem)


def audit_results_files(audit: Audit, folder: Path, lists: list[str], run_folder: Path) -> None:
    """verify and --resume on a finished run with each file made a FIFO, a folder, junk, huge, or its values edited."""
    edits: dict[str, Callable[[Path], None]] = {}
    for name in ("games.csv", "timings.csv", "summary.json", "report.md", "journal.csv", ".lock"):
        edits[f"{name} a FIFO"] = lambda run, n=name: ((run / n).unlink(missing_ok=True), os.mkfifo(run / n))
        edits[f"{name} a folder"] = lambda run, n=name: ((run / n).unlink(missing_ok=True), (run / n).mkdir())
        edits[f"{name} junk"] = lambda run, n=name: (run / n).write_bytes(b"\xff\x00junk")
        edits[f"{name} huge (sparse)"] = lambda run, n=name: (run / n).touch() or os.truncate(run / n, 300 * 2**20)
        edits[f"{name} empty"] = lambda run, n=name: (run / n).write_bytes(b"")
    for value in ("\u00b2", "9" * 5000, "-1", "1e9", "NaN", "", "1.5"):
        def nodes(run: Path, v: str = value) -> None:
            games = (run / "games.csv").read_text().split("\n")
            fields = games[2].split(",")
            fields[7] = v
            games[2] = ",".join(fields)
            (run / "games.csv").write_text("\n".join(games))
        edits[f"games.csv nodes {value[:10]}"] = nodes

        def seconds(run: Path, v: str = value) -> None:
            rows = (run / "timings.csv").read_text().split("\n")
            fields = rows[2].split(",")
            fields[-1] = v
            rows[2] = ",".join(fields)
            (run / "timings.csv").write_text("\n".join(rows))
        edits[f"timings.csv seconds {value[:10]}"] = seconds
    for name, edit in edits.items():
        for command in ("verify", "resume"):
            run_copy = folder / "copy"
            shutil.rmtree(run_copy, ignore_errors=True)
            shutil.copytree(run_folder, run_copy)
            edit(run_copy)
            argv = ["verify", str(run_copy), *lists] if command == "verify" else [
                "tournament", "--agents", "random,entropy", "--seed", "1", "--jobs", "1", *lists, "--out",
                str(run_copy), "--resume"]
            code, out, err, _ = run(argv)
            audit.check("results files", f"{command}: {name}",
                        one_line_refusal(code, out, err, (0, 1) if command == "verify" else (0, 2)))


def audit_models(audit: Audit, folder: Path) -> None:
    """play, assist, tree and a tournament with each model missing, truncated, bit-flipped at ten places, or for the
    other mode."""
    shipped = ROOT / "results" / "models" / "q-learning-normal.npz"
    data = shipped.read_bytes()
    damages: dict[str, bytes | None] = {"missing": None, "truncated": data[:len(data) // 2], "empty": b"",
                                        "other mode": (ROOT / "results/models/q-learning-hard.npz").read_bytes()}
    for tenth in range(1, 11):
        flipped = bytearray(data)
        flipped[len(data) * tenth // 11] ^= 0xFF
        damages[f"bit flip {tenth}/11"] = bytes(flipped)
    commands = {
        "play": ["play", "--agent", "q-learning", "--answer", "crane", "--seed", "0"],
        "assist": ["assist", "--agent", "q-learning", "tares:-y---"],
        "tree": ["tree", "--agent", "q-learning", "--out", str(folder / "t.json")],
        "tournament": ["tournament", "--agents", "random,q-learning", "--sample", "3", "--jobs", "1", "--out"],
    }
    models = folder / "models"
    for damage, content in damages.items():
        shutil.rmtree(models, ignore_errors=True)
        shutil.copytree(ROOT / "results" / "models", models)
        target = models / "q-learning-normal.npz"
        if content is None:
            target.unlink()
        else:
            target.write_bytes(content)
        for name, argv in commands.items():
            out_folder = folder / f"run-{name}"
            shutil.rmtree(out_folder, ignore_errors=True)
            argv = [*argv, str(out_folder)] if name == "tournament" else argv
            code, out, err, _ = run(argv, env={"WORDLE_ARENA_MODELS": str(models)})
            problem = one_line_refusal(code, out, err)
            if code == 0 and damage.startswith("bit flip"):
                problem = None  # a flip the checksum finds harmless cannot happen: the SHA-256 covers every array
            if name == "tournament" and (out_folder / "journal.csv").exists():
                problem = "a journal was begun"
            audit.check("models", f"{name}: {damage}", problem)


def audit_flags(audit: Audit, lists: list[str]) -> None:
    """Numbers and words given to every command's flags, including values that look like numbers and are not."""
    flags = {"play": ["--seed", "--max-guesses", "--depth", "--beam", "--nodes", "--answer"],
             "tournament": ["--sample", "--jobs", "--seed", "--max-guesses", "--cap"],
             "verify": ["--limit", "--sample"], "assist": ["--top", "--seed", "--max-guesses"],
             "openers": ["--top", "--jobs", "--cluster", "--max-guesses"], "solve": ["--top", "--max-guesses"],
             "serve": ["--port", "--workers"], "tree": ["--seed", "--max-guesses"]}
    values = ["\u00b2", "--5", "9" * 5000, "0x10", "", ":x:", "a" * 100_000]
    base = {"play": ["play", "--agent", "alphabeta", *lists], "tournament": ["tournament", "--agents", "random", *lists],
            "verify": ["verify", "/nonexistent"], "assist": ["assist", *lists, "tares:-y---"],
            "openers": ["openers", *lists], "solve": ["solve", *lists], "serve": ["serve", *lists],
            "tree": ["tree", "--agent", "entropy", "--out", "/tmp/x.json", *lists]}
    for command, names in flags.items():
        for flag in names:
            for value in values:
                code, out, err, _ = run([*base[command], flag, value])
                audit.check("flags", f"{command} {flag} {value[:12]}", one_line_refusal(code, out, err))
    for argv in (["openers", "--exact", "--all", "--top", "5", *lists],
                 ["tournament", "--agents", "random", "--out", "", *lists],
                 ["tournament", "--indicators", "absurdle", "--cap", "3", *lists],
                 ["tournament", "--agents", "random", "--out", "/tmp", "--resume", *lists]):
        code, out, err, _ = run(argv)
        audit.check("options", " ".join(argv[:6]), one_line_refusal(code, out, err))
    code, out, err, _ = run(["play", "--agent", "entropy", "--answer", "crane", "--seed", "0"],
                            env={"PYTHONIOENCODING": "ascii"})
    audit.check("output", "PYTHONIOENCODING=ascii play", None if code == 0 and "Traceback" not in err else err[-200:])
    code, out, err, _ = run(["play", "--agent", "entropy", "--answer", ":x:"])
    audit.check("output", "':x:' echoed literally", None if ":x:" in err else err)


# -- dealt runs (issue 49) ----------------------------------------------------------------------------
#: A deep search over several boards or lies must end within this (it stops at its node cap, and says so).
DEEP_SEARCH_SECONDS = 300


def audit_dealt_runs(audit: Audit, folder: Path) -> None:
    """Issue 49 items 5-7 (tests/damaged_runs.py's cases: verify and --resume on damaged Fibble and Dordle runs), item 1
    (a second command reads back the 8- and 9-letter matrices' cache the first wrote) and the deep board searches that
    ran past 300 s unbounded."""
    from tests.damaged_runs import CASES, DORDLE, FIBBLE, UNFINISHED, command_of, folder_bytes, judgement, unfinished_run

    runs = {"fibble": FIBBLE, "dordle": DORDLE, "unfinished": UNFINISHED}
    made: dict[str, Path] = {}
    for name in ("fibble", "dordle"):
        code, _, err, _ = run([*runs[name], "--out", str(folder / f"dealt-{name}")])
        assert code == 0, err
        made[name] = folder / f"dealt-{name}"
    made["unfinished"] = unfinished_run(folder / "dealt-unfinished")
    for item, case, source, edit, check in CASES:
        copy = folder / "dealt-copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(made[source], copy)
        (copy / ".lock").unlink(missing_ok=True)
        edit(copy)
        before = folder_bytes(copy)
        code, out, err, _ = run(command_of(check, copy, runs[source]))
        audit.check("dealt runs", f"item {item}: {check}: {case}", judgement(check, code, out, err, copy, before))
    def long_run(argv: list[str], env: dict[str, str] | None = None) -> tuple[str | None, float]:
        """Run a command that may take minutes: why it broke the rule (None: it ended well), and its seconds."""
        began = time.monotonic()
        try:
            done = subprocess.run([sys.executable, "cli.py", *argv], cwd=ROOT, capture_output=True, text=True,
                                  errors="replace", timeout=DEEP_SEARCH_SECONDS, env={**os.environ, **(env or {})})
            code, err = done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            code, err = 124, ""
        problem = (f"ran past {DEEP_SEARCH_SECONDS} s" if code == 124 else
                   f"exit {code}: {err.strip()[-200:]}" if code != 0 or "Traceback" in err else None)
        return problem, time.monotonic() - began

    fresh = {"WORDLE_ARENA_CACHE": str(folder / "long-words-cache")}  # the first run writes the cache, the second reads
    for length in ("8", "9"):
        for attempt in ("first", "second"):
            problem, _ = long_run(["play", "--length", length, "--agent", "entropy", "--seed", "1"], fresh)
            audit.check("dealt runs", f"item 1: play --length {length} --agent entropy, {attempt} run", problem)
    for argv in (["play", "--boards", "4", "--agent", "alphabeta", "--depth", "4", "--beam", "100", "--seed", "0"],
                 ["play", "--indicator", "fibble", "--agent", "expectimax", "--depth", "4", "--seed", "0"]):
        problem, seconds = long_run(argv)
        audit.check("dealt runs", f"{' '.join(argv[:9])}: bounded ({seconds:.0f} s)", problem)


# -- processes -------------------------------------------------------------------------------------------
def audit_signals(audit: Audit, folder: Path) -> None:
    """SIGKILL and SIGTERM of the tournament's and openers --exact's parent at several moments: no worker outlives it
    by more than 5 s, and --resume finishes a tournament byte-identical to an uninterrupted one."""
    runs = {"tournament": ["tournament", "--agents", "entropy,letter-frequency", "--sample", "300", "--jobs", "2",
                           "--out"],
            "openers --exact": ["openers", "--exact", "--top", "20", "--jobs", "2", "--out"]}
    for name, argv in runs.items():
        for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            for delay in (2.0, 5.0):
                out = folder / f"sig-{name[:5]}-{sig}-{delay}"
                shutil.rmtree(out, ignore_errors=True)
                target = str(out) if name == "tournament" else str(out) + ".jsonl"
                parent = subprocess.Popen([sys.executable, "cli.py", *argv, target], cwd=ROOT,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                deadline = time.monotonic() + 120
                while len(workers := child_processes(parent.pid)) < 2 and time.monotonic() < deadline \
                        and parent.poll() is None:
                    time.sleep(0.2)
                time.sleep(delay)
                workers = child_processes(parent.pid) or workers
                parent.send_signal(sig)
                try:
                    parent.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    parent.kill()
                    parent.wait()
                    audit.check("signals", f"{name} {signal.Signals(sig).name} at {delay} s", "the parent did not stop")
                    continue
                end = time.monotonic() + 5
                while any(is_alive(w) for w in workers) and time.monotonic() < end:
                    time.sleep(0.1)
                left = [w for w in workers if is_alive(w)]
                for worker in left:
                    os.kill(worker, signal.SIGKILL)
                err = parent.stderr.read()
                problem = f"{len(left)} workers outlived their parent" if left else (
                    "traceback" if "Traceback" in err else None)
                audit.check("signals", f"{name} {signal.Signals(sig).name} at {delay} s", problem)


# -- the web API -------------------------------------------------------------------------------------------
class Server:
    """`serve` on a free port of 127.0.0.1, with its port and process."""

    def __init__(self, *extra: str):
        """Start it and read its port."""
        self.process = subprocess.Popen([sys.executable, "cli.py", "serve", "--port", "0", *extra], cwd=ROOT,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.log: list[str] = []  # what it prints (progress, then tracebacks of 500s), read so a full pipe never blocks
        for line in self.process.stdout:  # the answer model's progress lines come before the address
            self.log.append(line)
            if found := re.search(r"https?://[^\s]+:(\d+)/", line):
                self.port = int(found.group(1))
                break
        else:
            raise RuntimeError(f"serve ended before it served: {''.join(self.log)[-300:]}")
        threading.Thread(target=lambda: self.log.extend(self.process.stdout), daemon=True).start()

    def request(self, method: str, path: str, body: bytes | None = None, timeout: float = 120) -> tuple[int, str, float]:
        """Status, text and seconds of one request (status 0: the connection failed)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, method=method,
                                         headers={"content-type": "application/json"})
        began = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text = response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as error:
            return 0, str(error), time.monotonic() - began
        ANSWERS.append((method, path.split("?")[0], status))
        return status, text, time.monotonic() - began

    def send(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
             timeout: float = 60) -> tuple[int, dict[str, str], str, float]:
        """`raw_request` to this server: status, headers, text, seconds."""
        return raw_request(self.port, method, path, body, headers, timeout)

    def memory(self) -> int:
        """Resident bytes of the server and every process under it."""
        total, todo = 0, [self.process.pid]
        while todo:
            pid = todo.pop()
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            except OSError:
                pass
            todo += child_processes(pid)
        return total

    def stop(self, sig: int = signal.SIGTERM) -> float:
        """Signal it; seconds until it exited (None past 30 s, then killed)."""
        began = time.monotonic()
        self.process.send_signal(sig)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return float("inf")
        return time.monotonic() - began


def web_judgement(status: int, text: str, seconds: float, limit: float) -> str | None:
    """Why a web answer broke the rule, or None."""
    if status == 0:
        return f"no answer: {text[:100]}"
    if status >= 500 and status != 503:
        return f"{status}: {text[:150]}"
    if seconds > limit:
        return f"took {seconds:.1f} s"
    try:
        document = json.loads(text)
    except ValueError:
        return "not JSON"
    if status >= 400 and (not isinstance(document.get("error"), str) or "\n" in document["error"]
                          or len(document["error"]) > 1000):
        return "not a one-line error"
    return None


def audit_web(audit: Audit, server: Server) -> None:
    """Every field of every endpoint given every hostile value, hostile JSON numbers, bodies and query strings."""
    endpoints = {"/api/feedback": ["guess", "answer"], "/api/play/new": ["answer", "seed", "hard", "max_guesses",
                                                                        "indicator"],
                 "/api/watch": ["agent", "answer", "seed", "hard", "max_guesses", "options"],
                 "/api/advise": ["agent", "steps", "top", "seed", "hard", "options"]}
    base = {"/api/feedback": {"guess": "crane", "answer": "slate"}, "/api/play/new": {},
            "/api/watch": {"agent": "entropy", "answer": "crane"}, "/api/advise": {"steps": ["tares:-y---"]}}
    for path, fields in endpoints.items():
        for field in fields:
            for value in HOSTILE_VALUES:
                body = {**base[path], field: value}
                status, text, seconds = server.request("POST", path, json.dumps(body).encode())
                audit.check("web: fields", f"{path} {field}={json.dumps(value)[:30]}",
                            web_judgement(status, text, seconds, 40))
            for number in HOSTILE_NUMBERS_JSON:
                raw = json.dumps({**base[path], field: "PLACEHOLDER"}).replace('"PLACEHOLDER"', number).encode()
                status, text, seconds = server.request("POST", path, raw)
                audit.check("web: fields", f"{path} {field}={number[:20]}", web_judgement(status, text, seconds, 40))
            if path in ("/api/watch", "/api/advise"):
                for query in ("\u00b2", "--5", "9" * 5000, ""):
                    url = f"{path}?{'&'.join(f'{k}={v}' for k, v in base[path].items() if isinstance(v, str))}" \
                          f"&{field}={urllib.request.quote(query)}"
                    status, text, seconds = server.request("GET", url)
                    audit.check("web: query strings", f"GET {path} {field}={query[:10]}",
                                web_judgement(status, text, seconds, 40))
        if path not in ("/api/watch", "/api/advise"):
            continue
        for option, value in (("opener", "best"), ("nodes", 10**12), ("depth", 99), ("openers", 200),
                              ("openers", 37), ("breadth", 12972), ("beam", 100), ("pool", 12972)):
            for agent in ("optimal", "two-step", "expectimax", "alphabeta"):
                body = {"agent": agent, "answer": "crane", "hard": option == "openers" and value == 37,
                        "steps": ["fuzzy:-----"], "options": {option: value}}
                status, text, seconds = server.request("POST", path, json.dumps(body).encode())
                # the budget, plus a replaced worker's start on a shared machine
                audit.check("web: budgets", f"{path} {agent} {option}={value}",
                            web_judgement(status, text, seconds, 20 + 35))


def audit_bodies(audit: Audit, send: Sender) -> None:
    """Bodies too deep, too large, not UTF-8, not an object, cut short; query strings too long: one-line 4xx."""
    for name, body in (("deep array", ("[" * 30000 + "]" * 30000).encode()),
                       ("deep options", json.dumps({"agent": "entropy", "answer": "crane",
                                                    "options": {"a": [[[[[[[[[[[1]]]]]]]]]]]}}).encode()),
                       ("65 KB", b" " * (65 * 1024)), ("not UTF-8", b"\xff\xfe"), ("a list", b"[1]"),
                       ("a string", b'"x"'), ("truncated", b'{"guess": "cra')):
        for path in ("/api/feedback", "/api/watch", "/api/advise", "/api/play/new", "/api/play/guess"):
            status, _, text, seconds = send("POST", path, body, JSON_HEADERS)
            audit.check("web: bodies", f"{path} {name}", web_judgement(status, text, seconds, 10))
    for size in (10_000, 1_000_000):
        status, _, text, seconds = send("GET", "/api/feedback?x=" + "q" * size)
        audit.check("web: bodies", f"query string of {size} bytes",
                    None if status == 414 else f"status {status}")


def audit_slow_client(audit: Audit, server: Server) -> None:
    """A client that sends its headers a byte at a time is cut off; one that sends half a body is answered 408."""
    import socket

    sock = socket.create_connection(("127.0.0.1", server.port))
    began = time.monotonic()
    closed = False
    try:
        for byte in f"GET /api/agents HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode() * 10:
            sock.send(bytes([byte]))
            time.sleep(0.3)
            if time.monotonic() - began > 30:
                break
    except OSError:
        closed = True
    sock.close()
    audit.check("web: slow clients", "headers a byte at a time", None if closed else "never cut off")
    sock = socket.create_connection(("127.0.0.1", server.port))
    # a Host the server answers to: another is refused (421) before the body is waited for
    sock.send(f"POST /api/feedback HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
              "Content-Length: 100\r\n\r\n{\"gu".encode())
    sock.settimeout(40)
    try:
        answer = sock.recv(4096)
    except OSError:
        answer = b""
    sock.close()
    audit.check("web: slow clients", "half a body", None if b" 408 " in answer.split(b"\r\n")[0] else str(answer[:80]))


def audit_results_served(audit: Audit, folder: Path, run_folder: Path) -> None:
    """serve --results over summary.json damaged each way: the results and charts answer a one-line 404."""
    edits = {
        "missing key": lambda s: s["results"][0].pop("mean"), "text mean": lambda s: s["results"][0].update(mean="x"),
        "NaN mean": lambda s: s["results"][0].update(mean=float("nan")),
        "max_guesses 10**9": lambda s: s.update(max_guesses=10**9), "histogram long": lambda s: s["results"][0].update(
            histogram=[1] * 10**6), "results not a list": lambda s: s.update(results=5),
        "negative count": lambda s: s["results"][0].update(failures=-1),
        "huge verdict": lambda s: s.update(verdict="v" * 10**6)}
    for name, edit in edits.items():
        copy = folder / f"served-{len(name)}-{abs(hash(name)) % 1000}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(run_folder, copy)
        document = json.loads((copy / "summary.json").read_text())
        edit(document["summary"])
        (copy / "summary.json").write_text(json.dumps(document))
        server = Server("--results", str(copy), "--workers", "1")
        for path in ("/api/results", "/api/charts/histograms.svg", "/api/charts/hard-vs-normal.svg"):
            status, text, seconds = server.request("GET", path, timeout=60)
            audit.check("web: served results", f"{name} {path}",
                        None if status == 404 and "\n" not in text else f"status {status}: {text[:100]}")
        server.stop()
    for kind in ("fifo", "folder"):
        copy = folder / f"served-{kind}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(run_folder, copy)
        (copy / "summary.json").unlink()
        os.mkfifo(copy / "summary.json") if kind == "fifo" else (copy / "summary.json").mkdir()
        server = Server("--results", str(copy), "--workers", "1")
        status, text, seconds = server.request("GET", "/api/results", timeout=30)
        audit.check("web: served results", f"summary.json a {kind}", None if status == 404 else f"status {status}")
        server.stop()
    elsewhere = Path(tempfile.mkdtemp())
    server = Server.__new__(Server)
    server.process = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--port", "0", "--workers", "1"],
                                      cwd=elsewhere, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for _ in range(50):  # progress lines may come before the address
        if found := re.search(r"https?://[^\s:]+:(\d+)/", server.process.stdout.readline()):
            server.port = int(found.group(1))
            break
    status, _, _ = server.request("GET", "/api/results")
    audit.check("web: served results", "started in another folder", None if status == 200 else f"status {status}")
    server.stop()


def audit_stops(audit: Audit) -> None:
    """One SIGINT or SIGTERM stops the server within 5 s, mid-search, its workers with it."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        for during in ("idle", "mid-search"):
            server = Server("--workers", "2")
            time.sleep(3)
            workers = child_processes(server.process.pid)
            if during == "mid-search":
                body = json.dumps(EXPENSIVE_ADVICE).encode()
                threading.Thread(target=server.request, args=("POST", "/api/advise", body), daemon=True).start()
                time.sleep(3)
            seconds = server.stop(sig)
            time.sleep(2)
            left = [w for w in workers if is_alive(w)]
            problem = f"took {seconds:.1f} s" if seconds > 5 else f"{len(left)} workers left" if left else None
            audit.check("web: stopping", f"{signal.Signals(sig).name} {during}", problem)


#: An advice request with no bound of its own: the optimal agent from another opener solves that opener's whole tree
#: first (a named optimal advisor without options is the solver's 1 s valuation, which answers in time).
EXPENSIVE_ADVICE = {"agent": "optimal", "options": {"opener": "fuzzy"}, "steps": ["fuzzy:-----"]}


def web_burst() -> dict[str, Any]:
    """Memory and response times of `serve --workers 2` under 8 expensive and 60 cheap requests sent at once."""
    server = Server("--workers", "2")
    time.sleep(5)
    idle_memory = server.memory()
    expensive = [("POST", "/api/advise", EXPENSIVE_ADVICE),
                 ("POST", "/api/watch", {"agent": "two-step", "answer": "crane", "options": {"openers": 200}}),
                 ("POST", "/api/watch", {"agent": "expectimax", "answer": "crane", "hard": True,
                                         "options": {"depth": 3}}),
                 ("POST", "/api/advise", {"agent": "alphabeta", "steps": ["fuzzy:-----"], "options": {"depth": 3}})] * 2
    cheap = [("GET", "/api/feedback?guess=crane&answer=slate", None), ("GET", "/api/agents", None),
             ("POST", "/api/play/new", {"seed": 3}), ("GET", "/api/results", None)] * 15
    peak = [idle_memory]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.5):
            peak.append(server.memory())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    timings: dict[str, list[tuple[int, float]]] = {"expensive": [], "cheap": []}

    def send(kind: str, method: str, path: str, body: Any) -> None:
        status, _, seconds = server.request(method, path, json.dumps(body).encode() if body is not None else None)
        timings[kind].append((status, round(seconds, 3)))

    began = time.monotonic()
    with ThreadPoolExecutor(len(expensive) + 8) as pool:
        for request in expensive:
            pool.submit(send, "expensive", *request)
        time.sleep(1)
        for request in cheap:
            pool.submit(send, "cheap", *request)
    wall = time.monotonic() - began
    stop.set()
    sampler.join()
    after = server.memory()
    stopped = server.stop()

    def described(rows: list[tuple[int, float]]) -> dict[str, Any]:
        seconds = sorted(s for _, s in rows)
        statuses: dict[str, int] = {}
        for status, _ in rows:
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        return {"requests": len(rows), "statuses": statuses, "median_s": seconds[len(seconds) // 2],
                "p95_s": seconds[int(len(seconds) * 0.95) - 1], "max_s": seconds[-1]}

    return {"workers": 2, "expensive": described(timings["expensive"]), "cheap": described(timings["cheap"]),
            "memory_mb": {"idle": round(idle_memory / 2**20), "peak": round(max(peak) / 2**20),
                          "after": round(after / 2**20)},
            "burst_wall_s": round(wall, 1), "stop_after_burst_s": round(stopped, 2),
            "requests": {"expensive": [f"{m} {p} {json.dumps(b)}" for m, p, b in expensive[:4]],
                         "cheap": [f"{m} {p}" for m, p, _ in cheap[:4]]}}


# -- issue 31: cross-site, Host, surrogates, starvation, floods, huge files, budgets, encodings -----------------
def raw_request(port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                timeout: float = 60) -> tuple[int, dict[str, str], str, float]:
    """One request with exactly these headers (Host among them, default 127.0.0.1:port): status, headers, text,
    seconds (status 0: no answer)."""
    import http.client

    headers = {"Host": f"127.0.0.1:{port}", **(headers or {})}
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        ANSWERS.append((method, path.split("?")[0], response.status))
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text, time.monotonic() - began
    except (OSError, http.client.HTTPException) as error:
        return 0, {}, str(error), time.monotonic() - began
    finally:
        connection.close()


#: What the audit's web sections send requests with: method, path, body, headers -> status, headers, text, seconds.
Sender = Callable[..., tuple[int, dict[str, str], str, float]]
JSON_HEADERS = {"Content-Type": "application/json"}


#: State-changing and expensive requests a page on another origin must not make: method, path, JSON body.
GUARDED = [("POST", "/api/play/new", {}), ("POST", "/api/play/guess", {"game": "x", "guess": "crane"}),
           ("POST", "/api/advise", {"steps": ["tares:-y---"], "top": 1}),
           ("POST", "/api/watch", {"agent": "random", "answer": "crane"}),
           ("POST", "/api/review", {"answer": "crane", "words": ["slate", "crane"]}),
           ("GET", "/api/advise?steps=tares:-y---&top=1", None), ("GET", "/api/watch?agent=random&answer=crane", None)]


def one_line_json_error(status: int, text: str, wanted: tuple[int, ...]) -> str | None:
    """Why an answer is not a one-line JSON error of one of the `wanted` statuses, or None."""
    if status not in wanted:
        return f"status {status}: {text[:120]}"
    try:
        error = json.loads(text).get("error")
    except (ValueError, AttributeError):
        return f"not JSON: {text[:80]}"
    return None if isinstance(error, str) and "\n" not in error else f"not a one-line error: {text[:80]}"


def audit_cross_site(audit: Audit, send: Sender, port: int) -> None:
    """Requests another origin's page could make: refused (403 by origin, 415 by content type); the page's own are
    served; every answer forbids framing and sets a CSP; redirects never use the request's Host; no server path."""
    json_type = {"Content-Type": "application/json"}
    foreign = {"Origin http://evil.example": {"Origin": "http://evil.example"}, "Origin null": {"Origin": "null"},
               "Origin of another port": {"Origin": f"http://127.0.0.1:{port + 1}"},
               "Origin https same host": {"Origin": f"https://127.0.0.1:{port}"},
               "Sec-Fetch-Site cross-site": {"Sec-Fetch-Site": "cross-site"},
               "Sec-Fetch-Site same-site": {"Sec-Fetch-Site": "same-site"}}
    for method, path, body in GUARDED:
        data = json.dumps(body).encode() if body is not None else None
        for name, headers in foreign.items():
            status, _, text, _ = send(method, path, data, {**json_type, **headers})
            audit.check("cross-site", f"{method} {path.split('?')[0]} {name}", one_line_json_error(status, text, (403,)))
        if method == "POST":
            for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
                status, _, text, _ = send(method, path, data, {"Content-Type": kind} if kind else {})
                audit.check("cross-site", f"{path} as {kind}", one_line_json_error(status, text, (415,)))
        own = {**json_type, "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
        status, _, text, _ = send(method, path, data, own)
        audit.check("cross-site", f"{method} {path.split('?')[0]} from the page itself",  # served: not refused
                    None if status not in (403, 415, 421) and (status < 500 or status == 503) else
                    f"status {status}: {text[:120]}")
    form = b'{"seed":7,"x":"="}'
    status, _, text, _ = send("POST", "/api/play/new", form, {"Content-Type": "text/plain",
                                                                           "Origin": "http://evil.example"})
    audit.check("cross-site", "a text/plain form making a game", one_line_json_error(status, text, (403, 415)))
    for path in ("/", "/play", "/static/common.js", "/api/agents", "/api/feedback?guess=zzzzz&answer=crane",
                 "/api/nothing", "/api/charts/none.svg", "/static"):
        status, headers, _, _ = send("GET", path)
        policy = headers.get("content-security-policy", "")
        problem = None if "frame-ancestors 'none'" in policy and "default-src" in policy and \
            headers.get("x-frame-options", "").upper() == "DENY" else f"CSP {policy!r}, frames {headers.get('x-frame-options')}"
        audit.check("cross-site", f"headers of GET {path} ({status})", problem)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "evil.example"):
        status, headers, _, _ = send("GET", "/static", headers={"Host": host})
        location = headers.get("location", "")
        audit.check("cross-site", f"redirect of /static with Host {host}",
                    f"location {location}" if "evil" in location or "://" in location else None)
    status, _, text, _ = send("GET", "/api/results")
    audit.check("cross-site", "/api/results shows no server path",
                f"shows {str(ROOT)}" if str(ROOT) in text or '"/' in text else None)


def audit_hosts(audit: Audit, send: Sender, port: int) -> None:
    """Host headers outside the allowlist (DNS rebinding) are refused with a one-line 421 on every kind of path; the
    allowlist's own names are served."""
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1.evil.example:{port}", f"localhost.evil:{port}",
                 "0.0.0.0", f"127.0.0.2:{port}", "", f"127.0.0.1:{port}@evil.example", "[::2]"):
        for method, path, body in (("GET", "/", None), ("GET", "/static/common.js", None),
                                   ("GET", "/api/agents", None), ("POST", "/api/feedback",
                                                                  b'{"guess": "crane", "answer": "slate"}')):
            status, _, text, _ = send(method, path, body, {"Host": host,
                                                                        "Content-Type": "application/json"})
            audit.check("Host", f"{method} {path} Host {host!r}", one_line_json_error(status, text, (400, 421)))
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "127.0.0.1", "localhost", "LOCALHOST"):
        status, _, text, _ = send("GET", "/api/agents", headers={"Host": host})
        audit.check("Host", f"allowed Host {host}", None if status == 200 else f"status {status}: {text[:80]}")


#: Each endpoint's text fields (a path into the body: names and list indices), with a body that is valid otherwise.
TEXT_FIELDS: dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]] = {
    "/api/feedback": ({"guess": "crane", "answer": "slate"}, [("guess",), ("answer",)]),
    "/api/play/new": ({}, [("answer",), ("indicator",), ("seed",), ("hard",), ("max_guesses",)]),
    "/api/play/guess": ({"game": "x", "guess": "crane"}, [("game",), ("guess",)]),
    "/api/watch": ({"agent": "random", "answer": "crane", "options": {"seed": "1"}},
                   [("agent",), ("answer",), ("seed",), ("hard",), ("max_guesses",), ("options", "seed")]),
    "/api/advise": ({"steps": ["tares:-y---", {"guess": "crane", "pattern": "-----"}], "exclude": ["cigar"],
                     "agent": "entropy", "options": {"beam": "3"}},
                    [("agent",), ("steps", 0), ("steps", 1, "guess"), ("steps", 1, "pattern"), ("top",), ("seed",),
                     ("hard",), ("answers",), ("exclude", 0), ("only_answers",), ("max_guesses",),
                     ("options", "beam")]),
    "/api/review": ({"answer": "crane", "words": ["slate", "crane"], "exclude": ["cigar"]},
                    [("answer",), ("grid",), ("words", 0), ("answers",), ("exclude", 0), ("hard",), ("max_guesses",)]),
}


def with_value(body: Any, where: tuple[Any, ...], value: Any) -> Any:
    """A deep copy of `body` with the field at `where` set to `value`."""
    body = json.loads(json.dumps(body))
    inner = body
    for key in where[:-1]:
        inner = inner[key]
    inner[where[-1]] = value
    return body


def audit_surrogates(audit: Audit, send: Sender) -> None:
    """A lone surrogate (and one inside a word, and an option's name) in every text field of every endpoint, as JSON
    and in query strings: a one-line 400."""
    for path, (base, fields) in TEXT_FIELDS.items():
        for where in fields:
            for value in ("\ud800", "cr\udfffne", "\udc00\ud800"):
                body = json.dumps(with_value(base, where, value)).encode()  # ensure_ascii: sent as \ud800 escapes
                status, _, text, _ = send("POST", path, body, JSON_HEADERS)
                audit.check("surrogates", f"{path} {'.'.join(map(str, where))}={value.encode('unicode_escape')!r}",
                            one_line_json_error(status, text, (400,)))
    for path in ("/api/watch", "/api/advise"):
        status, _, text, _ = send("POST", path, json.dumps({"agent": "entropy", "answer": "crane",
                                                             "options": {"\ud800": "1"}}).encode(), JSON_HEADERS)
        audit.check("surrogates", f"{path} an option named \\ud800", one_line_json_error(status, text, (400,)))
    for query in ("guess=%ED%A0%80&answer=crane", "guess=crane&answer=%ED%A0%80", "guess=%F0%9F%98%80&answer=crane",
                  "guess=%ff&answer=crane"):
        status, _, text, _ = send("GET", f"/api/feedback?{query}")
        audit.check("surrogates", f"GET /api/feedback?{query}", one_line_json_error(status, text, (400,)))


def audit_starvation(audit: Audit, expensive_count: int = 60) -> None:
    """With `expensive_count` unbounded advice requests queued on 2 workers, cheap requests and static files each
    answer within a second."""
    server = Server("--workers", "2")
    time.sleep(3)
    body = json.dumps(EXPENSIVE_ADVICE).encode()
    threads = [threading.Thread(target=server.request, args=("POST", "/api/advise", body, 200), daemon=True)
               for _ in range(expensive_count)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    cheap = [("GET", "/api/feedback?guess=crane&answer=slate", None),
             ("POST", "/api/feedback", b'{"guess": "crane", "answer": "slate"}'), ("GET", "/static/common.js", None),
             ("GET", "/", None), ("GET", "/api/agents", None), ("POST", "/api/play/new", b"{}")]
    answers: list[tuple[str, int, float]] = []

    def send(case: str, method: str, path: str, data: bytes | None) -> None:
        status, _, seconds = server.request(method, path, data, timeout=120)
        answers.append((case, status, seconds))

    senders = []
    for round_ in range(3):  # each round sent at once, 3 s apart, whatever the rounds before are waiting for
        for method, path, data in cheap:
            case = f"{method} {path} behind {expensive_count} expensive (round {round_ + 1})"
            senders.append(threading.Thread(target=send, args=(case, method, path, data), daemon=True))
            senders[-1].start()
        time.sleep(3)
    for sender in senders:
        sender.join(130)
    for case, status, seconds in sorted(answers):
        audit.check("starvation", case, None if status == 200 and seconds < 1.0 else f"status {status} in {seconds:.1f} s")
    server.stop()


def audit_floods(audit: Audit) -> None:
    """10,200 new games from one client leave a real player's game playable; 24 advice requests, each with its own
    exclude list, keep the server's memory bounded."""
    server = Server("--workers", "2")
    time.sleep(3)
    status, text, _ = server.request("POST", "/api/play/new", b'{"answer": "crane"}')
    game = json.loads(text)["game"]
    status, text, _ = server.request("POST", "/api/play/new", b'{"indicator": "adversary", "seed": 1}')
    against = json.loads(text).get("game")  # made before the flood: the flood may use up this address's games
    statuses: dict[int, int] = {}

    def flood(count: int) -> None:
        for _ in range(count):
            code, _, _ = server.request("POST", "/api/play/new", b"{}", timeout=30)
            statuses[code] = statuses.get(code, 0) + 1

    with ThreadPoolExecutor(12) as pool:
        for _ in range(12):
            pool.submit(flood, 850)
    status, text, _ = server.request("POST", "/api/play/guess", json.dumps({"game": game, "guess": "slate"}).encode())
    audit.check("floods", "a real player's game after 10,200 new games", None if status == 200 else
                f"status {status}: {text[:100]}")
    audit.check("floods", "the flood answered 200 or 429, never 5xx",
                None if set(statuses) <= {200, 429} else f"statuses {statuses}")
    idle = server.memory()
    words = "cigar rebut sissy humph awake blush focal evade naval serve heath dwarf model karma stink grade quiet " \
            "bench abate feign major death fresh crust stool colon abase marry react batty pride floss helix".split()
    answers = []
    for index in range(24):
        body = {"steps": ["tares:-y---"], "top": 1, "exclude": words[index:index + 8]}
        answers.append(server.request("POST", "/api/advise", json.dumps(body).encode(), timeout=120))
    grown = (server.memory() - idle) / 2**20
    audit.check("floods", "24 advice requests with their own exclude lists answered 200 or one-line 503",
                None if all(a[0] == 200 or (a[0] == 503 and "\n" not in a[1]) for a in answers)
                else str([a[0] for a in answers]))
    audit.check("floods", "their memory stays bounded", None if grown < 1500 else f"grew {grown:.0f} MB")
    status, text, seconds = server.request("POST", "/api/play/guess", json.dumps({"game": against,
                                                                                  "guess": "fuzzy"}).encode())
    audit.check("floods", "a guess against the searching adversary is answered", None if status in (200, 503) else
                f"status {status}: {text[:100]}")
    server.stop()


def audit_huge_files(audit: Audit, folder: Path) -> None:
    """Sparse word files of 1 GB and 3 GB, and a sparse 1 GB model: refused in one line by their size, unread."""
    for size in (2**30, 3 * 2**30):
        huge = folder / f"huge-{size}.txt"
        huge.touch()
        os.truncate(huge, size)
        for name, argv in (("review --answers", ["review", "--answers", str(huge), "--answer", "crane", "crane"]),
                           ("play --answers", ["play", "--agent", "random", "--answers", str(huge)]),
                           ("assist --guesses", ["assist", "--guesses", str(huge), "tares:-y---"]),
                           ("solve --answers", ["solve", "--answers", str(huge), "crane:-----"])):
            code, out, err, seconds = run(argv)
            # refused by its size, so nothing was read (the time is the interpreter's start, long on a loaded machine)
            problem = one_line_refusal(code, out, err) or (None if "more than the" in err else
                                                           f"refused after reading it, in {seconds:.0f} s: {err[:100]}")
            audit.check("huge files", f"{name} a sparse {size >> 30} GB file", problem)
        huge.unlink()
    models = folder / "huge-models"
    shutil.rmtree(models, ignore_errors=True)
    shutil.copytree(ROOT / "results" / "models", models)
    os.truncate(models / "q-learning-normal.npz", 2**30)
    code, out, err, seconds = run(["play", "--agent", "q-learning", "--answer", "crane"],
                                  env={"WORDLE_ARENA_MODELS": str(models)})
    audit.check("huge files", "a sparse 1 GB model", one_line_refusal(code, out, err))


def audit_budgets(audit: Audit) -> None:
    """--budget outside 1 ms to 24 h, or in digits other than ASCII: refused in one line."""
    for value in ("1e-9s", "0.5ms", "0.0001s", "25h", "86401s", "\uff11s", "\u0661s", "1\u00b2s", "nans", "infs",
                  "-1s", "0s", "1e999s"):
        code, out, err, _ = run(["solve", "crane:-----", "--budget", value])
        audit.check("budgets", f"solve --budget {value}", one_line_refusal(code, out, err))


def audit_encodings(audit: Audit) -> None:
    """Under an ASCII-only output encoding the marks are spelled (<=, >=, ~), never '?'; a closed stdout is an error."""
    for argv in (["solve", "crane:-----", "--budget", "1s"], ["review", "--answer", "crane", "slate", "crane"],
                 ["assist", "tares:-y---", "--top", "3"]):
        code, out, err, _ = run(argv, env={"PYTHONIOENCODING": "ascii"})
        problem = f"exit {code}: {err[-150:]}" if code != 0 else "'?' where a mark belongs" if re.search(
            r"\?\s*[0-9]", out) else None
        audit.check("encodings", f"PYTHONIOENCODING=ascii {' '.join(argv)}", problem)
    for argv in (["review", "--answer", "crane", "slate", "crane"], ["play", "--agent", "random", "--answer", "crane"],
                 ["solve", "crane:-----", "--budget", "1s"]):
        done = subprocess.run(f"{sys.executable} cli.py {' '.join(argv)} >&-", shell=True, cwd=ROOT,
                              capture_output=True, text=True, timeout=HANG_SECONDS)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        problem = "exit 0" if done.returncode == 0 else "traceback" if "Traceback" in done.stderr else \
            f"{len(lines)} lines" if len(lines) != 1 else None
        audit.check("encodings", f"{' '.join(argv)} with stdout closed", problem)


# -- the Dask opener job: stops, a lost scheduler, a killed worker, the dashboard's port, a second job -------------
def dask_slice(folder: Path, answers: int = 150, guesses: int = 800) -> list[str]:
    """--answers/--guesses over the first official words: an all-opener job of about 900 openers that runs long
    enough to stop part-way."""
    from wordle.words import load_words

    words = load_words()
    (folder / "dask-answers.txt").write_text("\n".join(words.answers[:answers]) + "\n")
    (folder / "dask-guesses.txt").write_text(
        "\n".join(sorted(set(words.answers[:answers]) | set(words.guesses[:guesses]))) + "\n")
    return ["--answers", str(folder / "dask-answers.txt"), "--guesses", str(folder / "dask-guesses.txt")]


def proved_part(path: Path) -> dict[str, Any]:
    """A job's summary without what differs between runs of the same job (command, commit, machine, times); a job
    that wrote none (it hung, or failed) gives a record of that, which equals no other job's summary."""
    summary = path.with_name(path.name.removesuffix(".jsonl") + ".summary.json")
    if not summary.is_file():
        return {"no summary": str(summary)}
    digest = json.loads(summary.read_text())
    return {key: value for key, value in digest.items()
            if key not in ("command", "commit", "dirty", "created", "versions", "machine", "timing")}


def dask_noise(err: str) -> str | None:
    """What a Dask job printed that it should not have: a traceback, Dask's own log lines, the dashboard."""
    for mark in ("Traceback", "CommClosedError", "distributed.", "dashboard", "8787", "Error"):
        if mark in err:
            return f"stderr holds {mark!r}: {err.strip().splitlines()[-1][:150]}"
    return None


def started_job(argv: list[str], out: Path, lines: int = 4) -> subprocess.Popen:
    """`python cli.py argv --out out` started, once `lines` lines are in its results file (or it ended)."""
    job = subprocess.Popen([sys.executable, "cli.py", *argv, "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + HANG_SECONDS
    while job.poll() is None and time.monotonic() < deadline and \
            (not out.exists() or len(out.read_text().splitlines()) < lines):
        time.sleep(0.05)
    return job


def stopped_in_one_line(job: subprocess.Popen, out: Path, codes: tuple[int, ...], within: float = 60) -> str | None:
    """Why a stopped job broke the rule (it must end within `within` s, in one line naming the file and how to resume,
    with no traceback, and its results file must hold part of the job), or None."""
    try:
        _, err = job.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        job.communicate()
        return f"it did not stop within {within:g} s"
    lines = [line for line in err.splitlines() if line.strip()]
    if job.returncode not in codes:
        return f"exit {job.returncode}: {err.strip()[-150:]}"
    if len(lines) != 1 or "Traceback" in err:
        return f"{len(lines)} lines on stderr: {err.strip()[-150:]}"
    if "resumes" not in err or str(out) not in err:
        return f"no resume advice: {err.strip()[:150]}"
    return None


def resumed_same(argv: list[str], out: Path, whole: Path) -> str | None:
    """Why resuming `out` broke the rule (it must finish quietly with the uninterrupted job's summary), or None."""
    code, _, err, _ = run([*argv, "--out", str(out)])
    if code != 0:
        return f"the resume: exit {code}: {err.strip()[-150:]}"
    return dask_noise(err) or (None if proved_part(out) == proved_part(whole) else "the resume's summary differs")


def audit_dask(audit: Audit, folder: Path) -> None:
    """The all-opener job on a local 2-worker Dask cluster: three clean runs (one with the dashboard's port taken)
    print nothing of Dask's; SIGTERM and Ctrl-C stop it in one line that says how to resume, and the resume gives
    the uninterrupted summary; a killed worker is survived; a lost scheduler (one started apart, --scheduler) is
    one line; a second job into the same file is refused in one line."""
    import socket

    if importlib.util.find_spec("distributed") is None:
        audit.check("dask faults", "the distributed extra", "not installed: pip install -e '.[distributed]'")
        return
    argv = ["openers", "--exact", "--all", "--cluster", "2", *dask_slice(folder)]
    whole = folder / "dask-whole.jsonl"
    for index in range(3):
        out = whole if index == 0 else folder / f"dask-clean-{index}.jsonl"
        taken = socket.socket()
        if index == 2:  # the dashboard's port taken: nothing may start there or warn about it
            with contextlib.suppress(OSError):
                taken.bind(("127.0.0.1", 8787))
                taken.listen()
        code, _, err, _ = run([*argv, "--out", str(out)])
        taken.close()
        problem = f"exit {code}: {err.strip()[-150:]}" if code != 0 else dask_noise(err) or (
            None if out == whole or proved_part(out) == proved_part(whole) else "its summary differs from the first")
        audit.check("dask faults", f"a clean run ({'port 8787 taken' if index == 2 else f'run {index + 1}'})",
                    problem)
    for sig in (signal.SIGTERM, signal.SIGINT):
        out = folder / f"dask-{signal.Signals(sig).name}.jsonl"
        job = started_job(argv, out)
        if job.poll() is not None:
            audit.check("dask faults", f"{signal.Signals(sig).name} mid-job", "the job ended before it was stopped")
            continue
        os.kill(job.pid, sig)
        audit.check("dask faults", f"{signal.Signals(sig).name} mid-job", stopped_in_one_line(job, out, (130,)))
        audit.check("dask faults", f"the resume after {signal.Signals(sig).name}", resumed_same(argv, out, whole))
    out = folder / "dask-worker-killed.jsonl"
    job = started_job(argv, out)
    nannies = child_processes(job.pid)  # each worker process runs under a nanny, which would restart it
    victim = max([pid for nanny in nannies for pid in child_processes(nanny)] or nannies, default=None)
    if victim is not None:
        os.kill(victim, signal.SIGKILL)
    try:
        _, err = job.communicate(timeout=HANG_SECONDS * 3)
        problem = f"exit {job.returncode}: {err.strip()[-150:]}" if job.returncode not in (0, 2) else \
            "traceback" if "Traceback" in err else (
                None if job.returncode == 2 else dask_noise(err) or
                (None if proved_part(out) == proved_part(whole) else "its summary differs"))
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        job.communicate()
        problem = "hung after its worker was killed"
    audit.check("dask faults", "a worker killed mid-job", problem if victim is not None else "no worker found")
    out = folder / "dask-second.jsonl"
    first = started_job(argv, out, lines=2)
    os.killpg(first.pid, signal.SIGSTOP)  # held mid-job (the slice's job takes seconds): the second meets its lock
    code, _, err, _ = run([*argv, "--out", str(out)])
    os.killpg(first.pid, signal.SIGCONT)
    audit.check("dask faults", "a second job into the same file", one_line_refusal(code, "", err)
                or (None if "another run" in err else f"refused for another reason: {err.strip()[:150]}"))
    os.killpg(first.pid, signal.SIGTERM)
    first.communicate(timeout=60)
    scheduler_file = folder / "scheduler.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard", "--port",
                                  "0", "--scheduler-file", str(scheduler_file)], cwd=ROOT, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    deadline, address = time.monotonic() + 60, None
    while address is None and time.monotonic() < deadline:  # the file may be there, not yet written
        time.sleep(0.2)
        with contextlib.suppress(OSError, ValueError, KeyError):
            address = json.loads(scheduler_file.read_text())["address"]
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--nworkers", "2", "--nthreads",
                               "1", "--no-dashboard", "--scheduler-file", str(scheduler_file)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    out = folder / "dask-scheduler-lost.jsonl"
    job = started_job(["openers", "--exact", "--all", "--scheduler", address, *argv[5:]], out)
    os.killpg(scheduler.pid, signal.SIGKILL)
    # the client waits up to its connect timeout (120 s) for a scheduler to come back
    audit.check("dask faults", "the scheduler lost mid-job", stopped_in_one_line(job, out, (2,), within=200))
    for process in (worker, scheduler):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


# -- issue 49: a scheduler that is not one, the Variants page's games, SIGTERM at any moment --------------------
def not_schedulers() -> tuple[dict[str, str], Callable[[], None]]:
    """Loopback listeners that are not Dask schedulers, by case name, and what closes them: one answering an HTTP
    400 to anything, one that accepts and never speaks, http.server (started as `python -m http.server`), and one
    whose accept queue is full (its SYNs go unanswered, as an address that does not route: nothing leaves the
    machine)."""
    import socket

    def serve(listener: socket.socket, answer: bytes | None) -> None:
        held = []
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            if answer is None:
                held.append(connection)
            else:
                with contextlib.suppress(OSError):
                    connection.sendall(answer)
                connection.close()

    def listener(backlog: int = 16) -> socket.socket:
        made = socket.socket()
        made.bind(("127.0.0.1", 0))
        made.listen(backlog)
        return made

    answering, silent, full = listener(), listener(), listener(0)
    threading.Thread(target=serve, args=(answering, b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"),
                     daemon=True).start()
    threading.Thread(target=serve, args=(silent, None), daemon=True).start()
    fillers = [socket.socket() for _ in range(3)]
    for filler in fillers:
        filler.setblocking(False)
        filler.connect_ex(full.getsockname())
    probe = listener()
    http_port = probe.getsockname()[1]
    probe.close()
    http_server = subprocess.Popen([sys.executable, "-m", "http.server", str(http_port), "--bind", "127.0.0.1"],
                                   cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2)

    def close() -> None:
        for made in (answering, silent, full, *fillers):
            made.close()
        http_server.kill()
        http_server.wait()

    port = {"answering": answering.getsockname()[1], "silent": silent.getsockname()[1],
            "full": full.getsockname()[1]}
    return ({"a server that answers HTTP 400": f"tcp://127.0.0.1:{port['answering']}",
             "a listener that never speaks": f"tcp://127.0.0.1:{port['silent']}",
             "python -m http.server": f"tcp://127.0.0.1:{http_port}",
             "an unanswered address (accept queue full)": f"tcp://127.0.0.1:{port['full']}",
             "a closed port": "tcp://127.0.0.1:1",
             "ucx://127.0.0.1:1": "ucx://127.0.0.1:1",
             "tls:// to the HTTP 400 server": f"tls://127.0.0.1:{port['answering']}",
             "inproc://": "inproc://127.0.0.1/1/1",
             "an unknown scheme": "bogus://127.0.0.1:1"}, close)


def audit_scheduler_addresses(audit: Audit, lists: list[str], folder: Path) -> None:
    """openers --exact --all --scheduler ADDRESS, ADDRESS no Dask scheduler (every one on 127.0.0.1): one line, exit
    2, within 90 s (the check's 20 s and the command's start on a busy machine), no results file; and a real
    scheduler started apart is let through (the job runs to exit 0)."""
    if importlib.util.find_spec("distributed") is None:
        audit.check("scheduler addresses", "the distributed extra", "not installed: pip install -e '.[distributed]'")
        return
    addresses, close = not_schedulers()
    try:
        for case, address in addresses.items():
            out = folder / "not-a-scheduler.jsonl"
            out.unlink(missing_ok=True)
            code, stdout, err, seconds = run(["openers", "--exact", "--all", "--scheduler", address, *lists,
                                              "--out", str(out)])
            problem = one_line_refusal(code, stdout, err) or (f"took {seconds:.0f} s" if seconds > 90 else None) or (
                "a results file was begun" if out.exists() else None)
            print(f"scheduler {case}: exit {code} in {seconds:.0f} s: {err.strip()[-300:]}", flush=True)
            audit.check("scheduler addresses", f"{case}: {address} (exit {code} in {seconds:.0f} s)", problem)
    finally:
        close()
    scheduler_file = folder / "scheduler-real.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard", "--host",
                                  "127.0.0.1", "--port", "0", "--scheduler-file", str(scheduler_file)], cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline, address = time.monotonic() + 90, None
    while address is None and time.monotonic() < deadline:
        time.sleep(0.2)
        with contextlib.suppress(OSError, ValueError, KeyError):
            address = json.loads(scheduler_file.read_text())["address"]
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--nworkers", "1", "--nthreads",
                               "1", "--no-dashboard", "--host", "127.0.0.1", "--scheduler-file", str(scheduler_file)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        out = folder / "real-scheduler.jsonl"
        code, _, err, _ = run(["openers", "--exact", "--all", "--scheduler", str(address), *lists, "--out", str(out)])
        audit.check("scheduler addresses", "a real scheduler on 127.0.0.1 is let through",
                    None if code == 0 and out.exists() else f"exit {code}: {err.strip()[-200:]}")
    finally:
        for process in (worker, scheduler):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def request_from(port: int, source: str, path: str, body: dict[str, Any],
                 timeout: float = 60) -> tuple[int, str]:
    """POST `body` as JSON to the server on 127.0.0.1:`port` from the loopback address `source`: status, text (status
    0: no answer)."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = json.dumps(body).encode()
        connection.request("POST", path, data, {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        ANSWERS.append(("POST", path, response.status))
        return response.status, text
    except (OSError, http.client.HTTPException) as error:
        return 0, str(error)
    finally:
        connection.close()


def audit_variant_games(audit: Audit) -> None:
    """The Variants page: 25 Dordle games started and won from one address, then one more is answered 200 (finished
    games counted toward the 20 a client may hold, for an hour); 10,000 new games from 500 loopback addresses leave a
    game played just before playable (it was evicted), are answered 200, 429 or a one-line 503, and keep the
    server's memory bounded."""
    from agents.base import deal_answers
    from wordle import load_words

    answers = load_words().answers
    server = Server("--workers", "2")
    time.sleep(3)
    won = 0
    for _ in range(25):
        status, text = request_from(server.port, "127.0.0.1", "/api/variant/new", {"boards": 2, "seed": 5})
        if status != 200:
            break
        game = json.loads(text)["game"]
        for answer in deal_answers(2, len(answers), 5, 0):
            status, text = request_from(server.port, "127.0.0.1", "/api/variant/guess",
                                        {"game": game, "guess": answers[answer]})
        won += status == 200 and json.loads(text).get("won") is True
    status, text = request_from(server.port, "127.0.0.1", "/api/variant/new", {"boards": 2, "seed": 5})
    print(f"variant games: {won} of 25 won, then a new game: {status}", flush=True)
    audit.check("variant games", "a new game after 25 started and won from one address",
                None if won == 25 and status == 200 else f"won {won}, then status {status}: {text[:150]}")
    status, text = request_from(server.port, "127.0.0.2", "/api/variant/new", {"boards": 2, "seed": 1})
    mine = json.loads(text).get("game") if status == 200 else None
    request_from(server.port, "127.0.0.2", "/api/variant/guess", {"game": mine, "guess": "doilt"})  # no answer:
    # the game stays unfinished (a finished game is the first to make room) through its six guesses
    idle = server.memory()
    statuses: dict[int, int] = {}
    bad_errors: list[str] = []
    lock = threading.Lock()

    def flood(first: int) -> None:
        for number in range(first, 10_000, 12):
            source = f"127.0.{1 + number % 500 // 250}.{2 + number % 250}"
            code, answer = request_from(server.port, source, "/api/variant/new", {"boards": 2, "seed": number},
                                        timeout=30)
            with lock:
                statuses[code] = statuses.get(code, 0) + 1
                if code >= 400 and one_line_json_error(code, answer, (429, 503)) is not None:
                    bad_errors.append(f"{code}: {answer[:100]}")
            if number % 2500 == 0:  # the player plays on during the flood (four guesses)
                request_from(server.port, "127.0.0.2", "/api/variant/guess", {"game": mine, "guess": "doilt"})

    began = time.monotonic()
    with ThreadPoolExecutor(12) as pool:
        list(pool.map(flood, range(12)))
    flooded = time.monotonic() - began
    status, text = request_from(server.port, "127.0.0.2", "/api/variant/guess", {"game": mine, "guess": "qajaq"})
    audit.check("variant games", f"a game played during 10,000 new games from 500 addresses ({flooded:.0f} s)",
                None if mine is not None and status == 200
                else f"status {status}: {text[:120]}")
    audit.check("variant games", "the flood answered 200, 429 or a one-line 503, never 5xx otherwise",
                None if set(statuses) <= {200, 429, 503} and not bad_errors else f"statuses {statuses} {bad_errors[:2]}")
    grown = (server.memory() - idle) / 2**20
    print(f"variant flood: {flooded:.0f} s, statuses {statuses}, the player's guess after it: {status}, memory grew "
          f"{grown:.0f} MB", flush=True)
    audit.check("variant games", f"memory bounded through the flood (grew {grown:.0f} MB; statuses {statuses})",
                None if grown < 1500 else f"grew {grown:.0f} MB")
    server.stop()


def audit_sigterm_moments(audit: Audit, folder: Path, moments: int = 16) -> None:
    """SIGTERM to `openers --exact --opener qajaq --hard` at `moments` moments from 0.5 s to about 40 s after it
    starts, half of them with an empty numba cache (its kernels compiled then, where the stop was dropped): each run
    ends within 30 s, with exit 130 and 'interrupted' (or killed by the signal before the command began), and no
    traceback."""
    for index in range(moments):
        moment = 0.5 + 2.5 * index
        env = {**os.environ, **({"NUMBA_CACHE_DIR": str(folder / f"numba-{index}")} if index % 2 == 0 else {})}
        job = subprocess.Popen([sys.executable, "cli.py", "openers", "--exact", "--opener", "qajaq", "--hard"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(moment)
        job.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        try:
            _, err = job.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            job.kill()
            job.communicate()
            audit.check("sigterm moments", f"SIGTERM at {moment:.1f} s", "still running 30 s after SIGTERM")
            continue
        took = time.monotonic() - sent
        case = f"SIGTERM at {moment:.1f} s ({'numba compiling' if index % 2 == 0 else 'numba cached'})"
        if job.returncode == -signal.SIGTERM:
            problem = None  # before the command began: the signal's own action
        elif job.returncode != 130:
            problem = f"exit {job.returncode}: {err.strip()[-200:]}"
        else:
            problem = None if err.strip() == "interrupted" else f"printed {err.strip()[-200:]!r}"
        print(f"sigterm {case}: exit {job.returncode} in {took:.1f} s: {err.strip()[-200:]!r}", flush=True)
        audit.check("sigterm moments", f"{case}, stopped in {took:.1f} s", problem)
        shutil.rmtree(folder / f"numba-{index}", ignore_errors=True)


def documented_statuses(page: Path = API_PAGE) -> tuple[dict[str, set[int]], set[int], set[int]]:
    """The /api page's statuses: each route's own (keyed by its first cell, as 'GET|POST /api/feedback'), those every
    route can answer, and those its Statuses table explains."""
    text = page.read_text()
    routes = {name: {int(code) for code in re.findall(r"\d{3}", codes)} for name, codes in re.findall(
        r'<tr><td class="name"><code>([^<]*)</code></td>.*?<td class="name statuses">([^<]*)</td></tr>', text)}
    every = {int(code) for code in re.findall(r"\d{3}", re.search(r'<span id="every-route">([^<]*)</span>', text)[1])}
    explained_table = text[text.index('id="status-meanings"'):]
    explained = {int(code) for code in re.findall(r'<tr><td class="name">(\d{3})</td>', explained_table)}
    return routes, every, explained


def documented_route(path: str, routes: dict[str, set[int]]) -> str:
    """The /api page's row for a request's path: the route naming it, a NAME or FILE pattern's prefix, or 'other'."""
    fallback = ""
    for name in routes:
        for pattern in name.split(" ", 1)[1].split(", "):
            if pattern == "other path":
                fallback = name
            elif pattern == path:
                return name
            elif (parts := pattern.split("/"))[-1].isupper():
                prefix = "/".join(parts[:-1])
                if path == prefix or path.startswith(prefix + "/"):
                    return name
    return fallback


def audit_documented(audit: Audit, answers: list[tuple[str, str, int]] = ANSWERS) -> None:
    """Every status the server answered the audit's requests with is listed on the /api page for that route (its own
    statuses or every route's) and explained there."""
    routes, every, explained = documented_statuses()
    seen: dict[tuple[str, int], str] = {}
    for method, path, status in answers:
        if status:  # 0: no answer at all, judged by its own case
            seen.setdefault((documented_route(path, routes), status), f"{method} {path[:60]}")
    for (route, status), example in sorted(seen.items()):
        problem = None if status in (routes.get(route, set()) | every) and status in explained else \
            f"{status} is not among the statuses /api lists for {route or 'this path'}"
        audit.check("web: documented statuses", f"{route} answered {status} (first: {example})", problem)


def merge(reports: list[Path], target: Path = OUT) -> dict[str, Any]:
    """One report from the reports of runs over parts of the areas (each run under 10 minutes on a shared machine):
    their tables, totals and failures together, and each run's command, seconds and machine."""
    documents = [json.loads(path.read_text()) for path in reports]
    counts: dict[str, list[int]] = {}
    for document in documents:
        for row in document["table"]:
            cases, held = counts.setdefault(row["area"], [0, 0])
            counts[row["area"]] = [cases + row["cases"], held + row["held"]]
    table = [{"area": area, "cases": cases, "held": held, "failed": cases - held}
             for area, (cases, held) in counts.items()]
    merged = {"command": "python benchmarks/audit_hostile.py --merge " + " ".join(str(p) for p in reports),
              "runs": [{"command": d["command"], "seconds": d["seconds"], "machine": d["machine"]} for d in documents],
              "seconds": sum(d["seconds"] for d in documents), "table": table,
              "total": {"cases": sum(r["cases"] for r in table), "held": sum(r["held"] for r in table),
                        "failed": sum(r["failed"] for r in table)},
              "failures": [failure for d in documents for failure in d["failures"]],
              "web_burst": next((d["web_burst"] for d in documents if d.get("web_burst")), None)}
    target.write_text(json.dumps(merged, indent=2) + "\n")
    return merged


#: The areas main can run, in the order it runs them.
AREAS = ("paths", "results files", "models", "signals", "web stops", "served results", "flags", "dealt runs",
         "huge files", "budgets", "encodings", "starvation", "floods", "dask faults", "scheduler addresses",
         "variant games", "sigterm moments", "cross-site", "web", "burst")


def main() -> None:
    """Run every area (or those named) and write the table; with --merge REPORT..., merge reports into OUT."""
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return
    unknown = [name for name in sys.argv[1:] if name not in AREAS] if sys.argv[1:2] != ["--merge"] else []
    if unknown:
        print(f"audit_hostile: no area named {unknown[0]!r} (areas: {', '.join(AREAS)}; or --merge REPORT...)",
              file=sys.stderr)
        sys.exit(2)
    if sys.argv[1:2] == ["--merge"]:
        merged = merge([Path(name) for name in sys.argv[2:]])
        print(json.dumps({"table": merged["table"], "total": merged["total"]}, indent=1))
        return
    # started in the background (`... &`), the audit inherits SIGINT ignored, and so would every command it starts:
    # they must take the SIGINT the audit sends them as Ctrl-C from a terminal
    signal.signal(signal.SIGINT, signal.default_int_handler)
    audit = Audit()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        lists = small_lists(folder)
        run_folder = folder / "run"
        code, _, err, _ = run(["tournament", "--agents", "random,entropy", "--seed", "1", "--jobs", "1", *lists,
                               "--out", str(run_folder)])
        assert code == 0, err
        sections = [("paths", lambda: audit_paths(audit, folder, lists, run_folder)),
                    ("results files", lambda: audit_results_files(audit, folder, lists, run_folder)),
                    ("models", lambda: audit_models(audit, folder)),
                    ("signals", lambda: audit_signals(audit, folder)),
                    ("web stops", lambda: audit_stops(audit)),
                    ("served results", lambda: audit_results_served(audit, folder, run_folder)),
                    ("flags", lambda: audit_flags(audit, lists)),
                    ("dealt runs", lambda: audit_dealt_runs(audit, folder))]
        only = set(sys.argv[1:])
        for name, section in sections:
            if not only or name in only:
                print(f"-- {name}", flush=True)
                section()
                print(json.dumps(audit.table()), flush=True)
        for name, section in (("huge files", lambda: audit_huge_files(audit, folder)),
                              ("budgets", lambda: audit_budgets(audit)), ("encodings", lambda: audit_encodings(audit)),
                              ("starvation", lambda: audit_starvation(audit)), ("floods", lambda: audit_floods(audit)),
                              ("dask faults", lambda: audit_dask(audit, folder)),
                              ("scheduler addresses", lambda: audit_scheduler_addresses(audit, lists, folder)),
                              ("variant games", lambda: audit_variant_games(audit)),
                              ("sigterm moments", lambda: audit_sigterm_moments(audit, folder))):
            if not only or name in only:
                print(f"-- {name}", flush=True)
                section()
                print(json.dumps(audit.table()), flush=True)
        if not only or "cross-site" in only:
            server = Server("--workers", "2")
            audit_cross_site(audit, server.send, server.port)
            audit_hosts(audit, server.send, server.port)
            audit_surrogates(audit, server.send)
            server.stop()
        burst = None
        if not only or "web" in only:
            server = Server("--workers", "2")
            audit_web(audit, server)
            audit_bodies(audit, server.send)
            audit_slow_client(audit, server)
            server.stop()
        if not only or "burst" in only:
            burst = web_burst()
        if ANSWERS:
            audit_documented(audit)
    table = audit.table()
    document = {"command": "python benchmarks/audit_hostile.py " + " ".join(sys.argv[1:]), "machine": machine(),
                "seconds": round(time.monotonic() - began), "table": table,
                "total": {"cases": sum(r["cases"] for r in table), "held": sum(r["held"] for r in table),
                          "failed": sum(r["failed"] for r in table)},
                "failures": audit.failures, "web_burst": burst}
    target = OUT if not only else OUT.with_name(f"audit-hostile-{'-'.join(sorted(only)).replace(' ', '_')}.json")
    target.write_text(json.dumps(document, indent=2) + "\n")
    print(json.dumps({"table": table, "total": document["total"], "web_burst": burst}, indent=1))


if __name__ == "__main__":
    main()
