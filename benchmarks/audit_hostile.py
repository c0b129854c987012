"""Hostile-use audit (issue 24): every command and the web API fed bad values, bad files and paths, signals and a burst.

Each case is run and judged by one rule: bad input gets a one-line error (exit 2, or 1 where
verify reports problems) or a 4xx with a one-line JSON error, never a traceback, a 500, a
hang or a leftover process; a run killed or refused leaves its results recoverable. The
table (area | cases | held | failed) and every failure go to results/audit-hostile.json;
the web burst (memory and response times under expensive and cheap requests on 127.0.0.1)
goes to the same file.

    python benchmarks/audit_hostile.py            # about 15 minutes on 2 shared cores
"""

from __future__ import annotations

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
        line = self.process.stdout.readline()
        self.port = int(re.search(r":(\d+)/", line).group(1))

    def request(self, method: str, path: str, body: bytes | None = None, timeout: float = 120) -> tuple[int, str, float]:
        """Status, text and seconds of one request (status 0: the connection failed)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=body, method=method,
                                         headers={"content-type": "application/json"})
        began = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, response.read().decode("utf-8", "replace"), time.monotonic() - began
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace"), time.monotonic() - began
        except (urllib.error.URLError, OSError) as error:
            return 0, str(error), time.monotonic() - began

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
    for name, body in (("deep array", ("[" * 30000 + "]" * 30000).encode()),
                       ("deep options", json.dumps({"agent": "entropy", "answer": "crane",
                                                    "options": {"a": [[[[[[[[[[[1]]]]]]]]]]]}}).encode()),
                       ("65 KB", b" " * (65 * 1024)), ("not UTF-8", b"\xff\xfe"), ("a list", b"[1]"),
                       ("a string", b'"x"'), ("truncated", b'{"guess": "cra')):
        for path in ("/api/feedback", "/api/watch", "/api/advise", "/api/play/new", "/api/play/guess"):
            status, text, seconds = server.request("POST", path, body)
            audit.check("web: bodies", f"{path} {name}", web_judgement(status, text, seconds, 10))
    for size in (10_000, 1_000_000):
        status, text, seconds = server.request("GET", "/api/feedback?x=" + "q" * size)
        audit.check("web: bodies", f"query string of {size} bytes",
                    None if status == 414 else f"status {status}")


def audit_slow_client(audit: Audit, server: Server) -> None:
    """A client that sends its headers a byte at a time is cut off; one that sends half a body is answered 408."""
    import socket

    sock = socket.create_connection(("127.0.0.1", server.port))
    began = time.monotonic()
    closed = False
    try:
        for byte in b"GET /api/agents HTTP/1.1\r\nHost: x\r\n" * 10:
            sock.send(bytes([byte]))
            time.sleep(0.3)
            if time.monotonic() - began > 30:
                break
    except OSError:
        closed = True
    sock.close()
    audit.check("web: slow clients", "headers a byte at a time", None if closed else "never cut off")
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.send(b"POST /api/feedback HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"gu")
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
    server.port = int(re.search(r":(\d+)/", server.process.stdout.readline()).group(1))
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


def main() -> None:
    """Run every area and write the table."""
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
                    ("flags", lambda: audit_flags(audit, lists))]
        only = set(sys.argv[1:])
        for name, section in sections:
            if not only or name in only:
                print(f"-- {name}", flush=True)
                section()
                print(json.dumps(audit.table()), flush=True)
        burst = None
        if not only or "web" in only:
            server = Server("--workers", "2")
            audit_web(audit, server)
            audit_slow_client(audit, server)
            server.stop()
        if not only or "burst" in only:
            burst = web_burst()
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
