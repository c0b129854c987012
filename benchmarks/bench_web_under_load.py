"""WordleBot's two games reviewed in full on the web page with busy processes beside the server.

Run: python benchmarks/bench_web_under_load.py [--busy 2] [--no-cli]

It starts `python cli.py serve --host 127.0.0.1 --port 0` (as bench_web.py does), starts `--busy`
processes spinning (`python -c 'while 1: pass'`), and reviews each game as the Review page does:
POST /api/review with wait 1.5 s, then GET /api/jobs/ID?wait=4 until the whole review comes. For each
game it records when the first report came (what the page shows first), each later report's steps
valued, and the whole review's time; then, with the spinners stopped, it runs `python cli.py review
--json` on the same game and checks every step's shown values (yours and the best's) are the CLI's.

The games (the answer model the page uses by default, `likely`, over the served game's guesses):
SHONE TRAIL LUMPY FULLY BULKY (answer bulky) and SHONE CAPUT LUNCH (answer lunch).

Writes results/bench_web-under-load.json: per game the times, the steps' values and whether they match
the CLI's, with the command, word-list checksum, commit, CPU model and cores and the load average at
the start (wall-clock figures: other work on the machine shows in them).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import provenance, write_atomically  # noqa: E402
from wordle import load_words  # noqa: E402

GAMES = [("bulky", ["shone", "trail", "lumpy", "fully", "bulky"]), ("lunch", ["shone", "caput", "lunch"])]
#: The longest one request may take (a job's look waits at most a few seconds).
TIMEOUT = 120.0
#: The page's waits (web/static/common.js: JOB_FIRST_WAIT, JOB_LOOK_WAIT).
FIRST_WAIT, LOOK_WAIT = 1.5, 4
#: The longest a whole review may take before the benchmark gives up on it.
GIVE_UP = 900.0


def start_server() -> tuple[subprocess.Popen, str]:
    """`cli.py serve` on a free loopback port; returns the process and its base URL once it listens."""
    server = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--host", "127.0.0.1", "--port", "0"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert server.stdout is not None
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            raise SystemExit(f"the server stopped before listening (exit {server.wait()})")
        if "serving on " in line:
            return server, line.split("serving on ", 1)[1].split()[0].rstrip("/")
    server.kill()
    raise SystemExit("the server did not say where it listens within 120 s")


def call(url: str, body: dict | None = None) -> tuple[int, dict]:
    """GET (no body) or POST JSON; returns (status, reply)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def review_on_the_web(base: str, answer: str, words: list[str]) -> dict:
    """One game reviewed as the page does it: the first report's time, each report, the whole review's time."""
    began = time.perf_counter()
    status, reply = call(f"{base}/api/review", {"answer": answer, "words": words, "wait": FIRST_WAIT})
    reports = []
    while status == 202 and time.perf_counter() - began < GIVE_UP:
        reports.append({"seconds": round(time.perf_counter() - began, 2),
                        "steps_valued": len(reply["steps"]) if "steps" in reply else None})
        status, reply = call(f"{base}/api/jobs/{reply['job']}?wait={LOOK_WAIT}")
    total = time.perf_counter() - began
    if status != 200:
        return {"status": status, "error": reply.get("error"), "seconds": round(total, 2), "reports": reports}
    first_known = next((r["seconds"] for r in reports if r["steps_valued"] is not None), round(total, 2))
    return {"status": status, "seconds": round(total, 2), "first_report_seconds": first_known, "reports": reports,
            "skill": reply["skill_text"], "steps": [{"guess": s["guess"], "yours": s["played"]["text"],
                                                     "best_guess": s["best_guess"], "best": s["best"]["text"],
                                                     "proved": s["played"]["proved"] and s["best"]["proved"]}
                                                    for s in reply["steps"]]}


def review_on_the_cli(answer: str, words: list[str]) -> dict:
    """The same game by `python cli.py review --json`, and its time."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "review", "--json", "--answer", answer, *words],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    return {"seconds": round(time.perf_counter() - began, 2), "skill": data["skill_text"],
            "steps": [{"guess": s["guess"], "yours": s["played"]["text"], "best_guess": s["best_guess"],
                       "best": s["best"]["text"], "proved": s["played"]["proved"] and s["best"]["proved"]}
                      for s in data["steps"]]}


def main() -> int:
    """Run the benchmark and write its results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=2, help="processes spinning beside the server (default 2)")
    parser.add_argument("--no-cli", action="store_true", help="skip the command line's reviews")
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_web-under-load.json"))
    args = parser.parse_args()
    load_before = os.getloadavg()
    server, base = start_server()
    spinners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    games = []
    try:
        call(f"{base}/api/agents")
        for answer, words in GAMES:
            games.append({"answer": answer, "words": words, "web": review_on_the_web(base, answer, words)})
            print(answer, json.dumps(games[-1]["web"])[:400], flush=True)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    if not args.no_cli:
        for game in games:
            game["cli"] = review_on_the_cli(game["answer"], game["words"])
            web_steps = game["web"].get("steps")
            game["same_as_cli"] = web_steps == game["cli"]["steps"] and game["web"].get("skill") == game["cli"]["skill"]
            print(game["answer"], "cli", game["cli"]["seconds"], "s; same as the web:", game["same_as_cli"], flush=True)
    figures = {"command": " ".join(["python", "benchmarks/bench_web_under_load.py", *sys.argv[1:]]),
               "busy_processes": args.busy, "busy_command": "python -c 'while 1: pass'",
               "page_waits": {"first": FIRST_WAIT, "look": LOOK_WAIT},
               "answer_model": "likely (the page's default)", "word_lists_sha256": load_words(guesses="nyt").checksum,
               "load_average_at_start": [round(x, 2) for x in load_before],
               "note": "wall-clock seconds on a machine shared with other work (load average above); the values are "
                       "decided by node budgets, not the clock",
               **provenance(), "games": games}
    write_atomically(Path(args.out), json.dumps(figures, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
