"""Time the hard all-opener job's Dask engine with Dask's own watchers on (its defaults) and off (`LEAN_DASK`).

Run: python benchmarks/bench_dask_watchers.py [--step 16] [--repeats 2] [--jobs 2] [--out FILE]

A local Dask cluster runs, besides the tasks, a statistical profiler in every worker (the task's stack sampled every
10 ms) and system and memory monitors polling in the workers and the scheduler; the job reads none of them.
This judges a sample of the hard job on today's lists (every STEP-th opener after the 100 best ranked, against the
shipped run's cut-off 8097) on a fresh local cluster of JOBS workers, once with Dask's defaults and once with
`tournament.exact_openers.LEAN_DASK`, alternating, REPEATS times each, every run in a process of its own, and
writes each run's wall time and CPU (the parent's, the workers', the tasks') to
results/bench_dask_watchers.json (or --out) with the command, word-list checksum, commit and machine. The machine
should be otherwise idle: the runs share its cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance  # noqa: E402

CUT = 8097  # the shipped hard run's cut-off (results/openers-exact-hard-all-nyt-scratch.summary.json)


def one_run(watchers: str, step: int, jobs: int) -> dict:
    """One timed run of the sample in this process, with Dask's watchers as `watchers` says."""
    from commands.games import game_over, spec_words
    from tournament import exact_openers
    from tournament.exact_openers import ranked_openers, run_job

    if watchers == "default":
        exact_openers.LEAN_DASK = {}
    game = game_over(spec_words(5, "nyt", "nyt", True))
    openers = ranked_openers(game, True, 6)[100::step]
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        results = run_job(game, True, 6, openers, Path(folder) / "run.jsonl", "bench", engine="dask", jobs=jobs,
                          cut=CUT)
        wall = time.perf_counter() - began
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"watchers": watchers, "openers": len(openers), "wall_seconds": round(wall, 1),
            "parent_cpu_seconds": round(own.ru_utime + own.ru_stime, 1),
            "workers_cpu_seconds": round(workers.ru_utime + workers.ru_stime, 1),
            "tasks_cpu_seconds": round(sum(result.cpu_seconds for result in results), 1),
            # a rejected opener's bound depends on what its worker had proved before it: only the verdicts and the
            # exact totals are the same from run to run
            "verdicts": sorted((r.opener, r.win, r.exact, r.total if r.exact else None) for r in results)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--one", choices=("default", "lean"), help=argparse.SUPPRESS)  # a child's single run
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one, args.step, args.jobs)))
        return
    runs = []
    for repeat in range(args.repeats):
        for watchers in ("default", "lean"):
            child = subprocess.run([sys.executable, __file__, "--one", watchers, "--step", str(args.step),
                                    "--jobs", str(args.jobs)], capture_output=True, text=True, check=True)
            run = json.loads(child.stdout.splitlines()[-1])
            runs.append(run)
            print(f"{watchers:8} wall {run['wall_seconds']:6.1f} s  parent CPU {run['parent_cpu_seconds']:5.1f} s  "
                  f"workers CPU {run['workers_cpu_seconds']:6.1f} s  tasks CPU {run['tasks_cpu_seconds']:6.1f} s",
                  flush=True)
    if len({json.dumps(run.pop("verdicts")) for run in runs}) != 1:
        raise SystemExit("the runs' verdicts differ")
    medians = {watchers: statistics.median(run["wall_seconds"] for run in runs if run["watchers"] == watchers)
               for watchers in ("default", "lean")}
    from wordle.words import named_words
    record = {"command": "python " + " ".join(sys.argv), "seed": None, "seed_note": "no random choice",
              "word_lists_sha256": named_words("nyt", "nyt").checksum, "cut": CUT, "step": args.step,
              "jobs": args.jobs, "runs": runs, "median_wall_seconds": medians,
              "lean_over_default": round(medians["lean"] / medians["default"], 3),
              **provenance(), "cpu_model": cpu_model(), "cores": os.cpu_count()}
    out = args.out or ROOT / "results" / "bench_dask_watchers.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"median wall: default {medians['default']:.1f} s, lean {medians['lean']:.1f} s "
          f"(lean/default {record['lean_over_default']})")


if __name__ == "__main__":
    main()
