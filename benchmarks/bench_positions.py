"""Time valuing positions: the replies to common human openers, each valued by wordle.valuation within a budget.

Run: python benchmarks/bench_positions.py [--sample N] [--seed 5] [--budget 30 | --nodes default|N]
        [--opener-sample K --opener-seed S] [--only OPENER:REPLY,...] [--selby PATH --selby-count N --selby-cap S]
        [--out FILE]
Every reply some answer gives to each of the named openers (crane, adieu, audio, stare, raise, arise,
slate, roate, fuzzy, mummy, and the poor ones baccy, quill, deeds), and to K more drawn from every
allowed guess with numpy default_rng(S) (--opener-sample), all green left out, in normal and hard
mode, is a position; with --sample N a seeded random N of them per mode (said so in the file); with
--only just those. Each is valued with a fresh solver and Budget(seconds=BUDGET); the time to a proof
is the valuation's own seconds when it proves the value, and each row has its CPU seconds too (the
machine is shared: the budget is wall time, so a loaded machine proves less within it). With --selby,
Alex Selby's solver (built outside the repository; its word lists beside it) is asked the same question
of the N largest positions of each mode, each within a wall cap, its own CPU figure recorded. Writes
results/bench_positions.json (or --out) with the shares proved within 1 s, 5 s and the budget, the
median time to a proof, the command, seed, word-list checksum, commit, CPU model, cores and the load
average before and after.
With --nodes, each position gets that node budget instead (`default`: each mode's VALUE_NODES, the
commands' own budget) and no time limit, so the shares proved are counts, the same on any machine;
it writes results/bench_positions-nodes.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import ALL_GREEN, Wordle, format_pattern, parse_pattern  # noqa: E402
from wordle.solver import Solver  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from wordle.valuation import VALUE_NODES, Budget, value_position  # noqa: E402

OPENERS = ("crane", "adieu", "audio", "stare", "raise", "arise", "slate", "roate", "fuzzy", "mummy",
           "baccy", "quill", "deeds")


def sampled_openers(game: Wordle, count: int, seed: int) -> list[str]:
    """`count` openers drawn from every allowed guess (not among OPENERS) with numpy default_rng(seed)."""
    others = [word for word in game.words.guesses if word not in OPENERS]
    rng = np.random.default_rng(seed)
    return [others[i] for i in sorted(rng.choice(len(others), size=count, replace=False))]


def positions(game: Wordle, openers: list[str]) -> list[tuple[str, int]]:
    """Every (opener, reply) some answer gives, all green left out, in a fixed order."""
    found = []
    for word in openers:
        replies = np.unique(game.matrix[game.words.guess_index[word], game.all_answers])
        found += [(word, int(reply)) for reply in replies if reply != ALL_GREEN]
    return found


def selby(binary: Path, position: str, hard: bool, cap: float) -> dict:
    """Selby's solver on one position (-w OPENER.REPLY, its colours b/y/g) within a wall cap: its total and CPU."""
    word, reply = position.split(":")
    argv = [str(binary), "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden", "-w",
            f"{word}.{reply.replace('-', 'b')}", *(["-H"] if hard else [])]
    started = time.perf_counter()
    try:
        run = subprocess.run(argv, cwd=binary.parent, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return {"finished": False, "wall_cap_seconds": cap}
    total = re.search(r"Best first guess score\s+=\s+(\d+)", run.stdout)
    taken = re.search(r"Time taken = ([\d.]+)s", run.stdout)
    if not total or not taken:
        return {"finished": False, "error": (run.stdout + run.stderr)[-300:]}
    return {"finished": True, "total": int(total.group(1)), "cpu_seconds": float(taken.group(1)),
            "wall_seconds": round(time.perf_counter() - started, 2)}


def main() -> None:
    """Value each position in both modes and summarise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=None, help="a seeded random N positions per mode (default all)")
    parser.add_argument("--seed", type=int, default=5, help="the sample's seed (default 5)")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per position (default 30)")
    parser.add_argument("--nodes", default=None,
                        help="a node budget per position instead (default: each mode's VALUE_NODES), no time limit")
    parser.add_argument("--opener-sample", type=int, default=0, help="K more openers drawn from every allowed guess")
    parser.add_argument("--opener-seed", type=int, default=32, help="their seed (default 32)")
    parser.add_argument("--only", default=None, help="just these positions, e.g. fuzzy:-----,mummy:-----")
    parser.add_argument("--selby", type=Path, default=None, help="Selby's wordle binary (its word lists beside it)")
    parser.add_argument("--selby-count", type=int, default=3, help="the largest positions of each mode Selby is asked")
    parser.add_argument("--selby-cap", type=float, default=60.0, help="Selby's wall cap per position, seconds")
    parser.add_argument("--out", type=Path, default=None, help="the results file (default results/bench_positions.json)")
    args = parser.parse_args()
    game = Wordle()
    openers = list(OPENERS) + sampled_openers(game, args.opener_sample, args.opener_seed)
    every = positions(game, openers)
    if args.only:
        every = [(word, parse_pattern(reply)) for word, reply in (item.split(":") for item in args.only.split(","))]
    load_before = os.getloadavg()
    for hard in (False, True):  # compile / load the kernels outside the timings: the bounds, the three-guess search
        salet, crane = game.words.guess_index["salet"], game.words.answers.index("crane")
        state = game.step(game.initial_state(hard=hard), salet, int(game.matrix[salet, crane]))  # A and E shown
        Solver(game, hard=hard).solve_set(np.asarray(state.candidates)[:30], 3, game.hints(state) if hard else None)
    record = {"command": " ".join(["python benchmarks/bench_positions.py", *([f"--sample {args.sample}"]
                                                                            if args.sample else []),
                                   f"--seed {args.seed}", f"--nodes {args.nodes}" if args.nodes else
                                   f"--budget {args.budget:g}",
                                   *([f"--opener-sample {args.opener_sample} --opener-seed {args.opener_seed}"]
                                     if args.opener_sample else []),
                                   *([f"--only {args.only}"] if args.only else []),
                                   *([f"--selby PATH --selby-count {args.selby_count} --selby-cap {args.selby_cap:g}"]
                                     if args.selby else []),
                                   *([f"--out {args.out}"] if args.out else [])]),
              "seed": args.seed, "word_lists_sha256": game.words.checksum, **provenance(), "cpu_model": cpu_model(),
              "cores": os.cpu_count(), "openers": [word for word, _ in every[:1]] if args.only else openers,
              "opener_seed": args.opener_seed if args.opener_sample else None, "positions_per_mode": len(every),
              "sample_note": (f"a seeded sample (numpy default_rng({args.seed})) of {args.sample} of the "
                              f"{len(every)} positions per mode" if args.sample else "every position"),
              "load_average_before": [round(x, 2) for x in load_before], "modes": {}}
    for hard in (False, True):
        rng = np.random.default_rng(args.seed + hard)
        chosen = ([every[i] for i in sorted(rng.choice(len(every), size=args.sample, replace=False))]
                  if args.sample else every)
        rows = []
        for word, reply in chosen:
            game_state = game.step(game.initial_state(hard=hard), game.words.guess_index[word], reply)
            if args.nodes is None:
                budget = Budget(seconds=args.budget)
            else:
                budget = Budget(nodes=VALUE_NODES[hard] if args.nodes == "default" else int(args.nodes))
            cpu = time.process_time()
            valuation = value_position(game, game_state, (), budget, Solver(game, hard=hard))
            cpu = time.process_time() - cpu
            row = {"position": f"{word}:{format_pattern(reply)}", "answers": len(game_state.candidates),
                   "proved": valuation.proved, "seconds": round(valuation.seconds, 3), "cpu_seconds": round(cpu, 3),
                   "best": game.words.guesses[valuation.best], "low": round(valuation.value.low, 5),
                   "high": round(valuation.value.high, 5) if np.isfinite(valuation.value.high) else None,
                   "sub_problems": valuation.nodes}
            rows.append(row)
            print("hard" if hard else "normal", row, flush=True)
        proved = [row["seconds"] for row in rows if row["proved"]]
        if args.nodes is not None:
            record["modes"]["hard" if hard else "normal"] = {
                "positions": len(rows), "node_budget": budget.nodes,
                "proved_within_the_node_budget": round(len(proved) / len(rows), 4),
                "median_nodes_to_proof": statistics.median(r["sub_problems"] for r in rows if r["proved"]),
                "seconds_under_load": {"median": statistics.median(r["seconds"] for r in rows),
                                       "max": max(r["seconds"] for r in rows)},
                "rows": rows}
            continue
        if args.selby is not None:
            biggest = sorted(rows, key=lambda row: -row["answers"])[:args.selby_count]
            for row in biggest:
                row["selby"] = selby(args.selby.resolve(), row["position"], hard, args.selby_cap)
                print("selby", row["position"], row["selby"], flush=True)
        record["modes"]["hard" if hard else "normal"] = {
            "positions": len(rows),
            "proved_within_1s": round(sum(s <= 1 for s in proved) / len(rows), 4),
            "proved_within_5s": round(sum(s <= 5 for s in proved) / len(rows), 4),
            f"proved_within_{args.budget:g}s": round(len(proved) / len(rows), 4),
            "median_seconds_to_proof": statistics.median(proved) if proved else None,
            "rows": rows,
        }
    record["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out = args.out or ROOT / "results" / ("bench_positions.json" if args.nodes is None else "bench_positions-nodes.json")
    out.write_text(json.dumps(record, indent=1) + "\n")
    for mode, data in record["modes"].items():
        print(mode, {key: value for key, value in data.items() if key != "rows"})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
