"""What the all-opener job costs, slice by slice: CPU seconds per opener at several ranks of the root-bound ranking.

Run: python benchmarks/bench_opener_slices.py [--hard] [--cut TOTAL]
     python benchmarks/bench_opener_slices.py --compare-clusters 1,2 [--ranks 100:160] [--rounds 2]
Each slice of the ranked openers (tournament.exact_openers.ranked_openers) is judged against the
cut-off exactly as the job's workers judge them (solve_opener, one solver kept through the slice),
and its CPU seconds per opener are recorded; a projection of the whole job's CPU time follows by
spreading each slice's rate over the ranks up to the next slice. Writes
results/bench_opener_slices-MODE.json with the command, word-list checksum, commit, CPU model,
cores and the load average before and after (the machine is shared).

With --compare-clusters, one slice of the ranking goes through the job's own Dask path (run_dask) on
a local cluster of each size in turn, alternating, `--rounds` times, so the sizes are measured in the
same window of the machine's load; each opener's own CPU seconds (its worker's process time) are summed
per run, with the wall time and this process's user and system CPU. Writes
results/bench_opener_slices-clusters-MODE.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from wordle import Wordle  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from tournament.exact_openers import _SOLVERS, JobSettings, ranked_openers, run_dask, solve_opener  # noqa: E402

#: (first rank, ranks timed): the slices, best-ranked first; each stands for the ranks up to the next one.
SLICES = ((0, 10), (20, 10), (100, 30), (300, 30), (1000, 60), (3000, 100), (6000, 100), (9000, 100), (12500, 100))
#: The best known totals (both from SALET).
BEST = {False: 7920, True: 8122}


def main() -> None:
    """Time each slice, project the whole job, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard", action="store_true", help="hard mode (cut-off 8122)")
    parser.add_argument("--cut", type=int, default=None, help="the cut-off total (default 7920 normal, 8122 hard)")
    parser.add_argument("--compare-clusters", default=None, help="local Dask cluster sizes to compare, e.g. 1,2")
    parser.add_argument("--ranks", default="100:160", help="the slice --compare-clusters runs (default 100:160)")
    parser.add_argument("--rounds", type=int, default=2, help="times each cluster size runs, alternating (default 2)")
    args = parser.parse_args()
    game = Wordle()
    cut = args.cut if args.cut is not None else BEST[args.hard]
    ranked = ranked_openers(game, args.hard, 6)
    settings = JobSettings(hard=args.hard, max_guesses=6, word_lists_sha256=game.words.checksum, cut=cut)
    lists = (game.words.answers, game.words.guesses)
    if args.compare_clusters:
        compare_clusters(args, game, ranked, settings, lists, cut)
        return
    load_before = os.getloadavg()
    rows = []
    for start, count in SLICES:
        _SOLVERS.clear()  # a fresh worker for each slice
        spent = time.process_time()
        results = [solve_opener(lists, settings, word) for word in ranked[start:start + count]]
        spent = time.process_time() - spent
        rows.append({"ranks": [start, start + count], "cpu_seconds_per_opener": round(spent / count, 4),
                     "rejected": sum(not r.exact for r in results),
                     "solved": [[r.opener, r.total] for r in results if r.exact]})
        print(rows[-1], flush=True)
    ends = [start for start, _ in SLICES[1:]] + [len(ranked)]
    projected = sum(row["cpu_seconds_per_opener"] * (end - start)
                    for row, (start, _), end in zip(rows, SLICES, ends))
    mode = "hard" if args.hard else "normal"
    record = {"command": " ".join(["python benchmarks/bench_opener_slices.py", *(["--hard"] if args.hard else []),
                                   f"--cut {cut}"]),
              "seed": None, "seed_note": "no random choice", "word_lists_sha256": game.words.checksum, **provenance(),
              "cpu_model": cpu_model(), "cores": os.cpu_count(), "mode": mode, "cut": cut, "openers": len(ranked),
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "slices": rows,
              "projected_cpu_seconds": round(projected),
              "projection_note": "each slice's CPU seconds per opener spread over the ranks up to the next slice "
                                 "(a step function: the rates fall steeply with rank, so this overstates the tail)"}
    out = ROOT / "results" / f"bench_opener_slices-{mode}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"projected {projected / 60:.0f} CPU minutes for all {len(ranked)} openers; wrote {out}")


def compare_clusters(args, game: Wordle, ranked: list[str], settings: JobSettings, lists, cut: int) -> None:
    """One slice through run_dask on each local cluster size, alternating, `rounds` times; write the figures."""
    sizes = [int(size) for size in args.compare_clusters.split(",")]
    start, end = (int(part) for part in args.ranks.split(":"))
    openers = ranked[start:end]
    load_before = os.getloadavg()
    runs = []
    for round_number in range(args.rounds):
        for workers in sizes:
            own = resource.getrusage(resource.RUSAGE_SELF)
            wall, load = time.perf_counter(), os.getloadavg()[0]
            results = list(run_dask(lists, settings, openers, workers=workers))
            wall = time.perf_counter() - wall
            after = resource.getrusage(resource.RUSAGE_SELF)
            cpu = sum(result.cpu_seconds for result in results)
            firsts = {}  # each worker's first opener carries its one-off start (the matrix, the whole-list win proof)
            for result in results:
                firsts.setdefault(result.worker, result)
            later = [result.cpu_seconds for result in results if firsts[result.worker] is not result]
            runs.append({"round": round_number, "workers": workers, "openers": len(results),
                         "worker_cpu_seconds": round(cpu, 2), "cpu_seconds_per_opener": round(cpu / len(results), 4),
                         "cpu_seconds_per_opener_after_each_workers_first": round(sum(later) / max(1, len(later)), 4),
                         "median_cpu_seconds": round(float(np.median([r.cpu_seconds for r in results])), 4),
                         "wall_seconds": round(wall, 2), "load_average_1min_at_start": round(load, 2),
                         "scheduler_process_user_seconds": round(after.ru_utime - own.ru_utime, 2),
                         "scheduler_process_system_seconds": round(after.ru_stime - own.ru_stime, 2),
                         "workers_seen": len({result.worker for result in results}),
                         "rejected": sum(not result.exact for result in results)})
            print(runs[-1], flush=True)
    mode = "hard" if args.hard else "normal"
    record = {"command": " ".join(["python benchmarks/bench_opener_slices.py", *(["--hard"] if args.hard else []),
                                   f"--cut {cut} --compare-clusters {args.compare_clusters} --ranks {args.ranks}",
                                   f"--rounds {args.rounds}"]),
              "seed": None, "seed_note": "no random choice", "word_lists_sha256": game.words.checksum, **provenance(),
              "cpu_model": cpu_model(), "cores": os.cpu_count(), "mode": mode, "cut": cut, "ranks": [start, end],
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "runs": runs,
              "note": "worker_cpu_seconds: the openers' own process time in their workers (each worker keeps one "
                      "solver through its openers, as the job does, so more workers also means less reuse)"}
    out = ROOT / "results" / f"bench_opener_slices-clusters-{mode}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
