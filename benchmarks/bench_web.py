"""Load check of the web page's API on loopback: many assistant requests and games at once, every answer checked.

Run: python benchmarks/bench_web.py [--advice 50] [--games 20] [--agent entropy] [--seed 0] [--workers N]

It starts `python cli.py serve --host 127.0.0.1 --port 0` as its own process (a free port
on this machine only), waits for it to say where it listens, and then:

1. warms it up with one assistant request and one game (timed apart, not in the figures);
2. sends `--advice` assistant requests at the same moment (one thread each), each for the
   steps of a different seeded answer, and checks each reply against the assistant run
   in this process (answers left, and the suggestions in order);
3. plays `--games` whole games at the same moment (one thread each), each against a seeded
   answer: it starts the game, then guesses TARES and then always the first answer still
   possible, and checks every reply's pattern and count against the engine.

Every request has a 120 s time-out and every game at most six guesses, so it stops by itself.
It stops the server with Ctrl-C's signal and checks that it said it stopped. Writes
results/bench_web.json: latency p50/p95/max per kind, the number answered correctly, the
command, seed, word-list checksum, commit, versions, CPU model and cores, and the load
average when it started (the figures are wall-clock latencies: other work on the machine
shows in them).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.assistant import advice_data, advise  # noqa: E402
from wordle import Wordle, format_pattern  # noqa: E402
from plumbing.storage import cpu_model, write_atomically  # noqa: E402
from plumbing.storage import provenance  # noqa: E402

TIMEOUT = 120.0




def start_server(workers: int | None) -> tuple[subprocess.Popen, str]:
    """`cli.py serve` on a free loopback port; returns the process and its base URL once it listens."""
    command = [sys.executable, str(ROOT / "cli.py"), "serve", "--host", "127.0.0.1", "--port", "0"]
    if workers:
        command += ["--workers", str(workers)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + TIMEOUT
    assert server.stdout is not None
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            raise SystemExit(f"the server stopped before listening (exit {server.wait()})")
        if "serving on " in line:
            return server, line.split("serving on ", 1)[1].split()[0].rstrip("/")
    server.kill()
    raise SystemExit("the server did not say where it listens within 120 s")


def post(url: str, body: dict) -> tuple[float, int, dict]:
    """POST JSON; returns (seconds, status, reply)."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, reply = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        status, reply = error.code, json.loads(error.read() or b"{}")
    return time.perf_counter() - began, status, reply


def percentiles(seconds: list[float]) -> dict:
    """p50, p95 and max of latencies, in milliseconds."""
    values = np.array(seconds) * 1000
    return {"count": len(values), "p50_ms": round(float(np.percentile(values, 50)), 1),
            "p95_ms": round(float(np.percentile(values, 95)), 1), "max_ms": round(float(values.max()), 1)}


def at_once(count: int, work) -> tuple[list, float]:
    """Run work(i) for i < count on as many threads, released together; returns the results and the wall time."""
    barrier = threading.Barrier(count)

    def run(index: int):
        """Wait for every thread, then work."""
        barrier.wait(timeout=TIMEOUT)
        return work(index)

    began = time.perf_counter()
    with ThreadPoolExecutor(count) as pool:
        results = list(pool.map(run, range(count)))
    return results, time.perf_counter() - began


def main() -> None:
    """Start the server, load it, check every answer, write results/bench_web.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--advice", type=int, default=50, help="assistant requests sent at once (default 50)")
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--agent", default="entropy", help="the advising agent (default entropy)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the answers drawn (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="the server's --workers (default: its own)")
    args = parser.parse_args()

    game = Wordle()
    words = game.words
    rng = np.random.default_rng(args.seed)
    advice_answers = rng.choice(len(words.answers), size=args.advice, replace=False)
    game_answers = rng.choice(len(words.answers), size=args.games, replace=False)
    opener, second = words.guess_id("tares"), words.guess_id("colin")

    def steps_for(answer: int, index: int) -> list[str]:
        """One or two real steps towards `answer` (odd requests take two)."""
        chosen = [opener] if index % 2 == 0 else [opener, second]
        return [f"{words.guesses[g]}:{format_pattern(game.reply(g, answer))}" for g in chosen]

    advisor = make_agent(args.agent, game)
    expected = [advice_data(game, advise(game, advisor, steps_for(int(a), i), top=10))
                for i, a in enumerate(advice_answers)]
    load = os.getloadavg()
    server, base = start_server(args.workers)
    print(f"server at {base}; load average {load[0]:.2f}", flush=True)
    try:
        warm_advice, _, _ = post(f"{base}/api/advise", {"steps": [], "agent": args.agent})
        warm_game, _, started = post(f"{base}/api/play/new", {"answer": "crane"})
        post(f"{base}/api/play/guess", {"game": started["game"], "guess": "crane"})

        def ask(index: int) -> tuple[float, bool]:
            """One assistant request, checked against the assistant run here."""
            answer = int(advice_answers[index])
            seconds, status, reply = post(f"{base}/api/advise", {"steps": steps_for(answer, index), "agent": args.agent})
            want = expected[index]
            right = (status == 200 and reply["remaining"] == want["remaining"]
                     and [s["guess"] for s in reply["suggestions"]] == [s["guess"] for s in want["suggestions"]])
            return seconds, right

        def play(index: int) -> tuple[list[float], bool]:
            """One whole game, each reply checked against the engine."""
            answer = int(game_answers[index])
            latencies = []
            seconds, status, started = post(f"{base}/api/play/new", {"answer": words.answers[answer]})
            latencies.append(seconds)
            right = status == 200
            state = game.initial_state()
            guess = opener
            while right and not game.is_terminal(state):
                seconds, status, reply = post(f"{base}/api/play/guess", {"game": started["game"], "guess": words.guesses[guess]})
                latencies.append(seconds)
                state = game.step(state, guess, game.reply(guess, answer))
                right = (status == 200 and reply["pattern"] == format_pattern(state.history[-1][1])
                         and reply["remaining"] == len(state.candidates) and reply["over"] == game.is_terminal(state))
                guess = int(words.answer_rows[state.candidates[0]])
            return latencies, right and state.solved

        asked, advice_wall = at_once(args.advice, ask)
        print(f"{args.advice} assistant requests at once: {sum(r for _, r in asked)} right, {advice_wall:.2f} s wall", flush=True)
        played, games_wall = at_once(args.games, play)
        print(f"{args.games} games at once: {sum(r for _, r in played)} right, {games_wall:.2f} s wall", flush=True)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            rest, _ = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            rest, _ = server.communicate()
    advice_figures = {**percentiles([s for s, _ in asked]), "right": sum(r for _, r in asked), "wall_s": round(advice_wall, 3)}
    request_latencies = [s for latencies, _ in played for s in latencies]
    game_figures = {"games": args.games, "right": sum(r for _, r in played), "wall_s": round(games_wall, 3),
                    "requests": percentiles(request_latencies),
                    "whole_game": percentiles([sum(latencies) for latencies, _ in played])}
    figures = {
        "command": "python benchmarks/bench_web.py " + " ".join(sys.argv[1:]),
        "seed": args.seed,
        "word_lists_sha256": words.checksum,
        "machine": {"cpu_model": cpu_model(), "cpu_count": os.cpu_count(), "load_average_at_start": [round(x, 2) for x in load]},
        **provenance(),
        "server": {"url": base, "workers": args.workers or os.cpu_count(), "stopped_cleanly": server.returncode == 0
                   and "stopped" in rest, "warm_up_ms": {"advice": round(warm_advice * 1000, 1), "new_game": round(warm_game * 1000, 1)}},
        "agent": args.agent,
        "advice": advice_figures,
        "games": game_figures,
    }
    out = ROOT / "results" / "bench_web.json"
    write_atomically(out, json.dumps(figures, indent=1) + "\n")
    print(f"advice p50 {advice_figures['p50_ms']} ms, p95 {advice_figures['p95_ms']} ms; game requests p50 "
          f"{game_figures['requests']['p50_ms']} ms, p95 {game_figures['requests']['p95_ms']} ms; "
          f"server stopped cleanly: {figures['server']['stopped_cleanly']}")
    print(f"-> {out.relative_to(ROOT)}")
    if advice_figures["right"] != args.advice or game_figures["right"] != args.games:
        raise SystemExit("some replies were wrong")


if __name__ == "__main__":
    main()
