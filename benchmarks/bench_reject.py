"""Time rejecting openers: a seeded random sample of openers (not the top ones), each proved worse than a cut-off.

Run: python benchmarks/bench_reject.py [--sample 100] [--seed 20] [--hard] [--cut TOTAL] [--cap SECONDS]
                                       [--selby PATH --selby-count N] [--openers W,W,...] [--out FILE]
Writes results/bench_reject-MODE.json (or --out): per opener the seconds (wall and CPU), the bound proved
or the exact total, the sub-problems; the median and slowest; the command, seed, word-list
checksum, commit, CPU model, cores and the load average before and after (the machine is shared).
Each opener gets a fresh solver (an empty memory), so no opener is helped by another. Each is first
asked whether it can win at all, as the opener job does ("no win" is an outcome of its own).

With --selby PATH (Alex Selby's solver, github alex1770/wordle, built by hand outside the
repository with g++ -O3), the first N openers of the same sample also go through it with
the same cut-off (its -w WORD -b CUT+1), and the CPU-time ratio is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import Wordle  # noqa: E402
from wordle.hardmode import Hints  # noqa: E402
from search.limits import BudgetSpent  # noqa: E402
from wordle.solver import INFEASIBLE, SCALE, Solver, unpack  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from tournament.exact_openers import ranked_openers  # noqa: E402
from benchmarks.selby import SELBY_INFINITE, first_guess  # noqa: E402

#: The best known totals (both from SALET; results/openers-exact-*-top20.jsonl).
BEST = {False: 7920, True: 8122}
#: Openers this high in the root-bound ranking are "top ones", left out of the sample.
TOP = 100


def reject(game: Wordle, hard: bool, opener: int, cut: int, cap: float, whole: dict,
           sharpen_from: int | None = None) -> dict:
    """One opener against the cut-off, with a fresh solver: no win, rejected with a bound, solved, or out of time.

    As the opener job does: first whether it can win at all (Solver.opener_wins), then the rejection.
    `whole` is the win memory's entry for the whole answer list (proved once, outside the timings, as a
    job's worker proves it once), given to every fresh solver.
    """
    solver = Solver(game, hard=hard)
    if sharpen_from is not None:
        solver.passes.sharpen_from = sharpen_from
    solver.memory.wins.update(whole)
    solver.whole_tries = 0  # tried once for the whole run (whole_list_win), as once per worker in the job
    solver.deadline = time.perf_counter() + cap
    wall, cpu = time.perf_counter(), time.process_time()
    limit = (cut + 1) * SCALE
    win_cpu = None
    try:
        won = solver.opener_wins(opener)
        win_cpu = round(time.process_time() - cpu, 3)
        if not won:
            outcome, total = "no win", None
        else:
            cost = solver.try_guess(game.all_answers, 6, Hints() if hard else None, opener, limit, top_level=True)
            outcome = "rejected" if cost >= limit else "solved"
            total = unpack(cost)[0] if cost < INFEASIBLE else None
    except BudgetSpent:
        outcome, total = "out of time", unpack(solver.stats.bound)[0]
    return {"opener": game.words.guesses[opener], "outcome": outcome, "total" if outcome == "solved" else "bound": total,
            "seconds": round(time.perf_counter() - wall, 3), "cpu_seconds": round(time.process_time() - cpu, 3),
            "win_check_cpu_seconds": win_cpu, "sub_problems": solver.stats.nodes}


def whole_list_win(game: Wordle, hard: bool) -> tuple[dict, float]:
    """What opener_wins learns once per solver about the whole answer list within 5 guesses (within its effort),
    as the win memory's entry (empty if undecided), and the CPU seconds it took."""
    solver = Solver(game, hard=hard)
    cpu = time.process_time()
    solver.prover.win_whole_list(5)
    found = solver.memory.wins.get(solver.memory.whole_key)
    return ({solver.memory.whole_key: found} if found else {}), round(time.process_time() - cpu, 3)


def selby(binary: Path, word: str, hard: bool, cut: int) -> dict:
    """Selby's solver on one opener against the same cut-off: its verdict and its own CPU seconds."""
    started = time.perf_counter()
    found = first_guess(binary, word, "-b", str(cut + 1), *(["-H"] if hard else []))
    if isinstance(found, str):
        return {"opener": word, "error": found}
    if found.total >= SELBY_INFINITE:  # its "no tree at all": no win within the guess limit (hard mode), so above any cut
        outcome = "no win"
    else:
        outcome = "rejected" if found.bound or found.total > cut else "solved"
    return {"opener": word, "outcome": outcome, "total": None if outcome == "no win" else found.total,
            "cpu_seconds": found.cpu_seconds,
            "wall_seconds_with_start": round(time.perf_counter() - started, 3)}


def main() -> None:
    """Sample, reject, summarise, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=100, help="openers in the sample (default 100)")
    parser.add_argument("--seed", type=int, default=20, help="the sample's seed (default 20)")
    parser.add_argument("--hard", action="store_true", help="hard mode (cut-off 8122)")
    parser.add_argument("--cut", type=int, default=None, help="the cut-off total (default: 7920 normal, 8122 hard)")
    parser.add_argument("--cap", type=float, default=120.0, help="seconds allowed per opener (default 120)")
    parser.add_argument("--selby", type=Path, default=None, help="Selby's wordle binary (its word lists beside it)")
    parser.add_argument("--selby-count", type=int, default=10, help="openers of the sample for Selby's (default 10)")
    parser.add_argument("--openers", default=None, help="these openers (comma-separated) instead of a sample")
    parser.add_argument("--sharpen-from", type=int, default=None,
                        help="replies of at least this many answers get their one-step bound (default: the solver's)")
    parser.add_argument("--out", type=Path, default=None, help="where to write (default results/bench_reject-MODE.json)")
    args = parser.parse_args()
    game = Wordle()
    cut = args.cut if args.cut is not None else BEST[args.hard]
    ranked = ranked_openers(game, args.hard, 6)
    pool = sorted(ranked[TOP:])
    rng = np.random.default_rng(args.seed)
    sample = ([str(word) for word in rng.choice(pool, size=args.sample, replace=False)] if args.openers is None
              else args.openers.split(","))
    load_before = os.getloadavg()
    Solver(game).bounds(game.all_answers, 6, None)  # compile / load the kernel outside the timings
    whole, whole_cpu = whole_list_win(game, args.hard)
    rows = []
    for word in sample:
        row = reject(game, args.hard, game.words.guess_index[word], cut, args.cap, whole, args.sharpen_from)
        rows.append(row)
        print(row, flush=True)
    load_after = os.getloadavg()
    seconds = [row["seconds"] for row in rows]
    mode = "hard" if args.hard else "normal"
    command = " ".join(["python benchmarks/bench_reject.py",
                        f"--openers {args.openers}" if args.openers else f"--sample {args.sample} --seed {args.seed}",
                        *(["--hard"] if args.hard else []), f"--cut {cut}", f"--cap {args.cap:g}",
                        *([f"--selby {args.selby} --selby-count {args.selby_count}"] if args.selby else []),
                        *([f"--sharpen-from {args.sharpen_from}"] if args.sharpen_from is not None else []),
                        *([f"--out {args.out}"] if args.out else [])])
    record = {
        "command": command, "seed": args.seed, "word_lists_sha256": game.words.checksum, **provenance(),
        "cpu_model": cpu_model(), "cores": os.cpu_count(), "mode": mode, "cut": cut,
        "sample_note": "the openers given" if args.openers else f"{args.sample} openers drawn with numpy default_rng({args.seed}) from the guesses outside the "
                       f"top {TOP} by the root bound (tournament.exact_openers.ranked_openers), each with a fresh solver",
        "load_average_before": [round(x, 2) for x in load_before], "load_average_after": [round(x, 2) for x in load_after],
        "median_seconds": statistics.median(seconds), "slowest_seconds": max(seconds),
        "slowest": max(rows, key=lambda row: row["seconds"])["opener"],
        "median_cpu_seconds": statistics.median(row["cpu_seconds"] for row in rows),
        "outcomes": {name: sum(row["outcome"] == name for row in rows)
                     for name in ("no win", "rejected", "solved", "out of time")},
        "total_cpu_seconds": round(sum(row["cpu_seconds"] for row in rows), 3),
        "whole_list_win_cpu_seconds": whole_cpu,
        "whole_list_note": "once per run, as once per worker in the job: the whole answer list proved winnable within 5 "
                           "guesses without hints, so every reply without hints is too; not in the per-opener seconds",
        "openers": rows,
    }
    if args.selby is not None:
        theirs = [selby(args.selby.resolve(), word, args.hard, cut) for word in sample[:args.selby_count]]
        for row in theirs:
            print("selby", row, flush=True)
        ours = {row["opener"]: row for row in rows}
        paired = [(ours[row["opener"]]["cpu_seconds"], row["cpu_seconds"]) for row in theirs if "cpu_seconds" in row]
        record["selby"] = {
            "note": "Alex Selby's C++ solver (github alex1770/wordle at 8fd3f1b, g++ -O3, built outside the repository), "
                    "its -w WORD -b CUT+1 with the original word lists; its own per-opener CPU seconds (dCPU), "
                    "without its start-up",
            "openers": theirs,
            "total_cpu_ours": round(sum(a for a, _ in paired), 3), "total_cpu_selby": round(sum(b for _, b in paired), 3),
            "ratio_ours_to_selby": round(sum(a for a, _ in paired) / max(1e-9, sum(b for _, b in paired)), 2),
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        }
    out = args.out or ROOT / "results" / f"bench_reject-{mode}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"median {record['median_seconds']:.2f} s, slowest {record['slowest_seconds']:.2f} s ({record['slowest']}), "
          f"{record['outcomes']}; wrote {out}")


if __name__ == "__main__":
    main()
