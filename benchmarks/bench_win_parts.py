"""Time the two checks of the hard-mode all-opener job apart, on one solver as a job's worker keeps one.

Run: python benchmarks/bench_win_parts.py [--rejected 400] [--no-win 40] [--seed 1] [--demand-effort N] [--out FILE]

The job judges each opener by two checks: can it win at all (`Solver.opener_wins`), and, where it can, is its
total above the cut-off (`Solver.try_guess` under the cut). This takes a seeded sample, from the openers in
alphabetical order (a file's lines are in the order they finished), of those the shipped from-scratch run
(results/openers-exact-hard-all-nyt-scratch.jsonl) rejected and of those it found without a win, shuffled, and
judges them in that order on one solver (after SALET, as the job's cut-off is found), timing each check's CPU
apart; every verdict must be the run's. --demand-effort sets the win prover's effort on the answers
meeting a reply's single demand (`WinProver.prove_demand_sets`; 0 turns it off). Writes
results/bench_win_parts-EFFORT.json (or --out) with the command, seed, word-list checksum, commit and machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance  # noqa: E402
from tournament.exact_openers import JobSettings, judge, solver_for  # noqa: E402
from wordle.solver.costs import SCALE  # noqa: E402
from wordle.solver.win_prover import DEMAND_EFFORT  # noqa: E402
from wordle.words import named_words  # noqa: E402

RUN = ROOT / "results" / "openers-exact-hard-all-nyt-scratch.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rejected", type=int, default=400)
    parser.add_argument("--no-win", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--demand-effort", type=int, default=DEMAND_EFFORT)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = RUN.read_text().splitlines()
    head = json.loads(lines[0])
    rows = sorted((json.loads(line) for line in lines[1:] if line.strip()), key=lambda row: row["opener"])
    rng = random.Random(args.seed)
    sample = (rng.sample([row for row in rows if row["win"] and not row["exact"]], args.rejected)
              + rng.sample([row for row in rows if not row["win"]], args.no_win))
    rng.shuffle(sample)
    words = named_words("nyt", "nyt")
    settings = JobSettings(hard=True, max_guesses=6, word_lists_sha256=words.checksum, cut=head["cut"])
    solver = solver_for((words.answers, words.guesses), settings)
    solver.prover.demand_effort = args.demand_effort
    judge(solver, settings, "salet")  # the job's cut-off opener, and each worker's whole-list proof
    answers = np.asarray(solver.game.initial_state(hard=True, max_guesses=6).candidates)
    limit = (settings.cut + 1) * SCALE
    seconds = {"win_check": 0.0, "rejection": 0.0, "no_win_openers": 0.0, "rejected_openers": 0.0}
    for row in sample:
        guess = solver.game.words.guess_index[row["opener"]]
        solver.root = None
        began = time.process_time()
        win = solver.opener_wins(guess)
        checked = time.process_time()
        if win:
            solver.try_guess(answers, 6, solver.prover.root_hints, guess, limit, top_level=True)
        ended = time.process_time()
        if win != row["win"]:
            raise SystemExit(f"{row['opener']}: win {win}, the run's {row['win']}")
        seconds["win_check"] += checked - began
        seconds["rejection"] += ended - checked
        seconds["rejected_openers" if win else "no_win_openers"] += ended - began
    record = {"command": "python " + " ".join(sys.argv), "seed": args.seed, "word_lists_sha256": words.checksum,
              "rejected": args.rejected, "no_win": args.no_win, "demand_effort": args.demand_effort,
              "cpu_seconds": {name: round(value, 2) for name, value in seconds.items()},
              "demands_tried": len(solver.memory.demands_tried), "demands_won": len(solver.memory.demand_wins),
              **provenance(), "cpu_model": cpu_model(), "cores": os.cpu_count()}
    out = args.out or ROOT / "results" / f"bench_win_parts-{args.demand_effort}.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record["cpu_seconds"]), "demands won", record["demands_won"], "of", record["demands_tried"])


if __name__ == "__main__":
    main()
