"""Time the win check ("can this opener win at all?") with and without the compiled three-guess check, opener by opener.

Run: python benchmarks/bench_win_check.py [--seed 7] [--hard] [--cap SECONDS] [--named W,W,...] [--out FILE]
A seeded sample spread over the root-bound ranking (a few openers from each rank band) plus the named
openers; each opener is judged by `Solver.opener_wins` with a fresh solver twice, once with the compiled
check (wordle.solver.short_wins) and once with the solver's own search alone, one right after the other so both
see the same load. Writes results/bench_win_check-MODE.json (or --out): per opener the verdict, CPU seconds
and sets searched of both, the command, seed, word-list checksum, commit, CPU model, cores and the load
average before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import Wordle  # noqa: E402
from search.limits import BudgetSpent  # noqa: E402
from wordle.solver import Solver  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from tournament.exact_openers import ranked_openers  # noqa: E402

#: (first rank, last rank + 1, openers drawn): the bands of the ranking the sample is spread over.
BANDS = ((0, 100, 3), (100, 1000, 5), (1000, 3000, 6), (3000, 8000, 6), (8000, 12972, 5))
#: Openers known to be slow or without a win (docs/speed.md's hard-mode figures).
NAMED = "tater,treed,drupe,faugh,endue,sargo,ratch"


def check(game: Wordle, hard: bool, opener: int, compiled: bool, cap: float) -> dict:
    """One opener's win check with a fresh solver: the verdict ("win", "no win", "out of time"), CPU, sets."""
    solver = Solver(game, hard=hard)
    solver.whole_tries = 0  # the whole-list attempt is once per worker in the job, not per opener
    if not compiled:
        solver.prover.short_wins = None
    solver.deadline = time.perf_counter() + cap
    cpu = time.process_time()
    try:
        verdict = "win" if solver.opener_wins(opener) else "no win"
    except BudgetSpent:
        verdict = "out of time"
    return {"verdict": verdict, "cpu_seconds": round(time.process_time() - cpu, 3), "sets": solver.stats.nodes}


def main() -> None:
    """Sample, check both ways, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the sample's seed (default 7)")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds allowed per check (default 60)")
    parser.add_argument("--named", default=NAMED, help=f"openers added to the sample (default {NAMED})")
    parser.add_argument("--out", type=Path, default=None, help="where to write (default results/bench_win_check-MODE.json)")
    args = parser.parse_args()
    game = Wordle()
    ranked = ranked_openers(game, args.hard, 6)
    rng = np.random.default_rng(args.seed)
    sample = []
    for first, end, count in BANDS:
        sample += [ranked[rank] for rank in sorted(rng.choice(np.arange(first, min(end, len(ranked))), count, replace=False))]
    sample += [word for word in args.named.split(",") if word and word not in sample]
    load_before = os.getloadavg()
    check(game, args.hard, 0, True, args.cap)  # compile / load the kernels outside the timings
    rows = []
    for word in sample:
        opener = game.words.guess_index[word]
        row = {"opener": word, "rank": ranked.index(word), "compiled": check(game, args.hard, opener, True, args.cap),
               "search_only": check(game, args.hard, opener, False, args.cap)}
        rows.append(row)
        print(row, flush=True)
    mode = "hard" if args.hard else "normal"
    ours = sum(row["compiled"]["cpu_seconds"] for row in rows)
    theirs = sum(row["search_only"]["cpu_seconds"] for row in rows)
    record = {
        "command": " ".join(["python benchmarks/bench_win_check.py", f"--seed {args.seed}", *(["--hard"] if args.hard else []),
                             f"--cap {args.cap:g}", f"--named {args.named}", *([f"--out {args.out}"] if args.out else [])]),
        "seed": args.seed, "word_lists_sha256": game.words.checksum, **provenance(), "cpu_model": cpu_model(),
        "cores": os.cpu_count(), "mode": mode,
        "sample_note": f"numpy default_rng({args.seed}) draws per rank band {BANDS} of ranked_openers, plus the named",
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "agree": all(row["compiled"]["verdict"] == row["search_only"]["verdict"] for row in rows
                     if "out of time" not in (row["compiled"]["verdict"], row["search_only"]["verdict"])),
        "cpu_seconds_compiled": round(ours, 3), "cpu_seconds_search_only": round(theirs, 3),
        "openers": rows,
    }
    out = args.out or ROOT / "results" / f"bench_win_check-{mode}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"CPU {ours:.1f} s compiled against {theirs:.1f} s search only; verdicts agree: {record['agree']}; wrote {out}")


if __name__ == "__main__":
    main()
