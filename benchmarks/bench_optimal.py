"""Time the optimal solver: its hot loop in numpy and compiled, and whole solves from SALET.

Run: python benchmarks/bench_optimal.py [--repeat N] [--skip-numpy-proof]
Writes results/bench_optimal.json with the command, word-list checksum, commit, versions,
CPU model and cores. Each solve is a fresh solver (an empty memory) in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model  # noqa: E402
from wordle import Wordle  # noqa: E402
from wordle.solver import Limits, Solver  # noqa: E402
from wordle.solver.bounds import lower_bounds, transposed  # noqa: E402
from wordle.solver.kernels import fast_lower_bounds  # noqa: E402
from plumbing.storage import provenance  # noqa: E402




def time_kernel(kernel, game: Wordle, answers: np.ndarray, repeat: int) -> float:
    """Median seconds of one call of a lower-bound kernel over every guess."""
    columns = transposed(game)  # made once, outside the timings (a copy of the whole matrix)
    kernel(columns, game.all_guesses, answers, (0, 0, 0), False)  # compile / warm
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        kernel(columns, game.all_guesses, answers, (0, 0, 0), False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def solve(game: Wordle, hard: bool, top: int | None, opener: str | None, numpy_only: bool = False) -> dict:
    """One fresh solve: total, games over 5, sub-problems, seconds."""
    solver = Solver(game, hard=hard, limits=Limits(top=top))
    if numpy_only:
        solver.passes.lower_bounds = lower_bounds
    start = time.perf_counter()
    solution = solver.solve(game.words.guess_index[opener] if opener else None)
    return {"mode": "hard" if hard else "normal", "breadth": top or "all", "opener": opener or "best",
            "kernel": "numpy" if numpy_only or fast_lower_bounds() is lower_bounds else "numba",
            "found": game.words.guesses[solution.guess], "total": solution.total,
            "long_games": solution.long_games, "proved": solution.proved, "sub_problems": solution.nodes,
            "seconds": round(time.perf_counter() - start, 3), "remembered": len(solver.memo),
            "peak_rss_mib_so_far": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


def main() -> None:
    """Measure the kernel and the solves and write them to results/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed calls of each kernel measurement (default 5)")
    parser.add_argument("--skip-numpy-proof", action="store_true", help="do not time the SALET proof with the bounds in numpy")
    args = parser.parse_args()
    load_before = os.getloadavg()
    game = Wordle()
    rng = np.random.default_rng(0)
    kernel = []
    for size in (5, 20, 100, 2315):
        answers = np.sort(rng.choice(len(game.words.answers), size, replace=False))
        row = {"answers": size, "numpy_seconds": time_kernel(lower_bounds, game, answers, args.repeat)}
        if fast_lower_bounds() is not lower_bounds:
            row["numba_seconds"] = time_kernel(fast_lower_bounds(), game, answers, args.repeat)
            row["speedup"] = round(row["numpy_seconds"] / row["numba_seconds"], 1)
        kernel.append(row)
        print(row, flush=True)
    solves = []
    plan = [(False, None, "salet", False), (True, None, "salet", False), (False, 10, "salet", False),
            (False, 10, None, False), (True, 10, "salet", False)]
    if not args.skip_numpy_proof:
        plan.append((False, None, "salet", True))
    for hard, top, opener, numpy_only in plan:
        solves.append(solve(game, hard, top, opener, numpy_only))
        print(solves[-1], flush=True)
    figures = {
        "command": "python benchmarks/bench_optimal.py " + " ".join(sys.argv[1:]),
        "seed": 0,
        "seed_note": "the seed picks the kernel's random answer sets; the solves make no random choice",
        "word_lists_sha256": game.words.checksum,
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in load_before],  # what else shared the machine, if anything
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "kernel": kernel,
        "solves": solves,
        **provenance(),
    }
    out = ROOT / "results" / "bench_optimal.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
