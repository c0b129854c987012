"""Value every large position after one guess: each distinct reply of at least MIN answers to any of the 12972 openers.

Run: python benchmarks/sweep_big_replies.py [--min-answers 700] [--max-answers N] [--modes normal,hard]
        [--jobs N] [--cap 120] [--stop-after SECONDS] [--out results/sweep_big_replies.jsonl]

Issue 32 asks that every position after one guess, both modes, be proved within 30 s of CPU. The positions that
decide it are the largest replies, and every reply of 700 answers or more is an all-grey one (2284 replies, 1638
distinct answer sets; 517 sets of 900 or more). An all-grey reply constrains no later guess in hard mode, so a
distinct set is one position in each mode; positions are told apart by their answers and, in hard mode, their
hints, and each is valued once, under the first opener (by guess index) that leaves it.

Each position is valued as `solve STEP` values it (wordle.valuation.value_position), with a fresh solver and a
wall cap of --cap seconds, but with the shipped position table set aside, so every position is solved here and
none is read from the table. Positions are sent largest first to --jobs processes (default: every core), forked from one
that built the matrix and compiled the kernels, so no timing carries a one-off start. A row per position is
appended to --out as it finishes (a stopped sweep keeps what it finished, and the same command resumes it,
skipping rows already there), with its CPU seconds (the process's own, so other work on the machine does not
count) and wall seconds; --stop-after stops sending positions after that many seconds and ends the run cleanly.
The summary beside it (.summary.json) gives, per mode, the positions valued, how many were proved and how many
took over 30 s of CPU, the slowest, and the command, word-list checksum, commit and machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import ALL_GREEN, Wordle, format_pattern  # noqa: E402
from wordle import valuation  # noqa: E402
from wordle.solver import Solver  # noqa: E402
from wordle.solver.passes import CEILINGS_FROM  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from search.limits import Budget  # noqa: E402

#: CPU seconds a position may take under the issue's goal.
GOAL_SECONDS = 30.0

_GAME: Wordle | None = None


def large_positions(game: Wordle, least: int, most: int | None, modes: list[bool]) -> list[tuple[int, int, bool, int]]:
    """Every distinct (opener, reply, hard) with least..most answers, largest first: (opener, reply, hard, size)."""
    found: dict[tuple, tuple[int, int, bool, int]] = {}
    answers = game.matrix[:, game.all_answers]
    for opener in range(answers.shape[0]):
        counts = np.bincount(answers[opener], minlength=ALL_GREEN + 1)
        for reply in np.nonzero((counts >= least) & ((counts <= most) if most else True))[0]:
            if reply == ALL_GREEN:
                continue
            members = np.nonzero(answers[opener] == reply)[0].tobytes()
            for hard in modes:
                hints = game.hints(game.step(game.initial_state(hard=True), opener, int(reply))) if hard else None
                found.setdefault((members, hard, hints), (opener, int(reply), hard, int(counts[reply])))
    return sorted(found.values(), key=lambda item: (-item[3], item[2], item[0], item[1]))


def value_one(task: tuple[int, int, bool, int, float]) -> dict:
    """Value one position with a fresh solver (in a worker process): its row."""
    opener, reply, hard, size, cap = task
    game = _GAME
    state = game.step(game.initial_state(hard=hard), opener, reply)
    cpu, wall = time.process_time(), time.perf_counter()
    result = valuation.value_position(game, state, (), Budget(seconds=cap), Solver(game, hard=hard))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"position": f"{game.words.guesses[opener]}:{format_pattern(reply)}", "mode": "hard" if hard else "normal",
            "answers": size, "proved": bool(result.proved), "cpu_seconds": round(cpu, 3),
            "wall_seconds": round(wall, 3), "best": game.words.guesses[result.best],
            "total": round(result.value.low * size) if result.proved else None,
            "low": round(result.value.low, 5),
            "high": round(result.value.high, 5) if np.isfinite(result.value.high) else None,
            "sub_problems": result.nodes}


def warm(game: Wordle) -> None:
    """Compile (or load) every kernel a large position uses in the parent, before the workers fork: a position of
    about 300 answers (CRANE's all-grey reply) valued in each mode, and the ceilings a big set's parts lend (only
    a set of CEILINGS_FROM answers or more has them)."""
    crane = game.words.guess_index["crane"]
    for hard in (False, True):
        state = game.step(game.initial_state(hard=hard), crane, 0)
        solver = Solver(game, hard=hard)
        valuation.value_position(game, state, (), Budget(seconds=300), solver)
        big = game.all_answers[:CEILINGS_FROM]
        solver.passes.reply_ceilings(big[big % 2 == 0], (big, None))


def summarise(rows: list[dict], record: dict) -> dict:
    """Per mode: positions, proved, over the goal, the slowest ten."""
    for mode in ("normal", "hard"):
        mine = [row for row in rows if row["mode"] == mode]
        if not mine:
            continue
        slowest = sorted(mine, key=lambda row: -row["cpu_seconds"])
        record["modes"][mode] = {
            "positions": len(mine), "answers": [min(r["answers"] for r in mine), max(r["answers"] for r in mine)],
            "proved": sum(r["proved"] for r in mine),
            f"over_{GOAL_SECONDS:g}_cpu_seconds": sum(r["cpu_seconds"] > GOAL_SECONDS or not r["proved"] for r in mine),
            "median_cpu_seconds": float(np.median([r["cpu_seconds"] for r in mine])),
            "cpu_seconds_total": round(sum(r["cpu_seconds"] for r in mine), 1),
            "slowest": [{key: row[key] for key in ("position", "answers", "proved", "cpu_seconds", "total")}
                        for row in slowest[:10]]}
    return record


def main() -> None:
    """Sweep the large positions in parallel, appending rows, then summarise."""
    global _GAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-answers", type=int, default=700, help="the least answers a position keeps (default 700)")
    parser.add_argument("--max-answers", type=int, default=None, help="the most (default: no limit)")
    parser.add_argument("--modes", default="normal,hard", help="normal, hard or both (default normal,hard)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="worker processes (default: every core)")
    parser.add_argument("--cap", type=float, default=120.0, help="wall seconds a position may take (default 120)")
    parser.add_argument("--stop-after", type=float, default=None, help="send no position after this many seconds")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "sweep_big_replies.jsonl",
                        help="the rows (default results/sweep_big_replies.jsonl); .summary.json beside it")
    args = parser.parse_args()
    names = [mode.strip() for mode in args.modes.split(",")]
    if not names or any(mode not in ("normal", "hard") for mode in names):
        parser.error("--modes takes normal, hard or normal,hard")
    if args.jobs < 1 or args.cap <= 0 or args.min_answers < 1:
        parser.error("--jobs, --cap and --min-answers must be positive")
    started = time.perf_counter()
    valuation.table_value = lambda game, state: None  # every position solved here, none read from the shipped table
    _GAME = game = Wordle()
    tasks = large_positions(game, args.min_answers, args.max_answers, [mode == "hard" for mode in names])
    done = []
    if args.out.exists():  # a sweep resumed: its rows so far, each checked before it is believed
        for number, line in enumerate(args.out.read_text(errors="replace").splitlines(), 1):
            try:
                row = json.loads(line) if line.strip() else None
                if row is not None and not {"position", "mode", "answers", "cpu_seconds", "proved"} <= row.keys():
                    raise ValueError
            except (ValueError, AttributeError):
                parser.error(f"{args.out}: line {number} is not a row of this sweep "
                             "(move the file aside to start again)")
            if row is not None:
                done.append(row)
    finished = {(row["position"], row["mode"]) for row in done}
    todo = [task + (args.cap,) for task in tasks
            if (f"{game.words.guesses[task[0]]}:{format_pattern(task[1])}", "hard" if task[2] else "normal")
            not in finished]
    print(f"{len(tasks)} positions of {args.min_answers}+ answers, {len(todo)} to value on {args.jobs} processes",
          flush=True)
    warm(game)
    load_before = os.getloadavg()
    rows = list(done)
    pool = multiprocessing.get_context("fork").Pool(args.jobs)
    stopped = False
    try:
        with args.out.open("a") as out:
            for row in pool.imap_unordered(value_one, todo, chunksize=1):
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(f"[{len(rows)}/{len(tasks)} {time.perf_counter() - started:.0f}s] {row['mode']} {row['position']}"
                      f" {row['answers']} {'proved' if row['proved'] else 'NOT proved'} {row['total']}"
                      f" cpu {row['cpu_seconds']:.1f}s", flush=True)
                if args.stop_after and time.perf_counter() - started > args.stop_after:
                    stopped = True
                    break
    except KeyboardInterrupt:
        stopped = True
    finally:
        pool.terminate()
    record = {"command": "python benchmarks/sweep_big_replies.py " + " ".join(sys.argv[1:]),
              "word_lists_sha256": game.words.checksum, **provenance(), "cpu_model": cpu_model(),
              "cores": os.cpu_count(), "jobs": args.jobs, "positions": len(tasks), "valued": len(rows),
              "stopped_early": stopped, "wall_seconds": round(time.perf_counter() - started, 1),
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "modes": {}}
    summary = args.out.with_name(args.out.name.removesuffix(".jsonl") + ".summary.json")
    summary.write_text(json.dumps(summarise(rows, record), indent=1) + "\n")
    for mode, data in record["modes"].items():
        print(mode, {key: value for key, value in data.items() if key != "slowest"})
    print(f"wrote {args.out} and {summary}")


if __name__ == "__main__":
    main()
