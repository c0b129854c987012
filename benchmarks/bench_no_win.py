"""Time the hard-mode "no win within 6" proofs opener by opener: with and without the endgame check, Selby's beside.

Run: python benchmarks/bench_no_win.py [--openers W,W,...] [--sample N --seed S] [--selby PATH] [--out FILE]

Each opener is asked `Solver.opener_wins` on one solver per setting (as a job's worker keeps one, the
whole-list attempt made once before the timings), with the endgame check of wordle.solver.endgames on and
off; with --selby, Alex Selby's solver (github alex1770/wordle, built by hand outside the repository,
its word lists beside it) is asked `-H -d -g6 -w WORD` of the same opener and its own CPU figure is
read. The sample is drawn with the seed from the openers the published hard run
(results/openers-exact-hard-all.jsonl) proved without a win. Writes results/bench_no_win.json with
the command, seed, word-list checksum, commit and machine; CPU seconds are the figures to read on a
shared machine.
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

from plumbing.storage import cpu_model, provenance  # noqa: E402
from wordle import Wordle  # noqa: E402
from wordle.solver import Solver  # noqa: E402
from benchmarks.selby import SELBY_INFINITE, first_guess  # noqa: E402

PUBLISHED = ROOT / "results" / "openers-exact-hard-all.jsonl"


def no_win_openers() -> list[str]:
    """The openers the published hard run proved without a win in 6, in its ranking (the first line's `openers`),
    which a re-run keeps, unlike the order its lines finished in."""
    lines = PUBLISHED.read_text().splitlines()
    rows = [json.loads(line) for line in lines[1:] if line.strip()]
    no_win = {row["opener"] for row in rows if row.get("win") is False}
    return [opener for opener in json.loads(lines[0])["openers"] if opener in no_win]


def ours(solver: Solver, opener: str) -> dict:
    """Whether the opener can win, with the CPU seconds and sets searched."""
    cpu, nodes, cuts = time.process_time(), solver.stats.nodes, solver.stats.endgame_cuts
    win = solver.opener_wins(solver.game.words.guess_index[opener])
    return {"win": win, "cpu_seconds": round(time.process_time() - cpu, 3), "nodes": solver.stats.nodes - nodes,
            "endgame_cuts": solver.stats.endgame_cuts - cuts}


def selby(binary: Path, opener: str) -> dict:
    """Selby's verdict on the opener within 6 guesses, hard mode, and its own CPU seconds."""
    found = first_guess(binary, opener, "-H", "-d", "-g6")
    if isinstance(found, str):
        return {"error": found}
    return {"win": found.total < SELBY_INFINITE, "cpu_seconds": found.cpu_seconds}


def main() -> None:
    """Time every opener asked for each way, print each, write the file after each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openers", default="", help="comma-separated openers timed first")
    parser.add_argument("--sample", type=int, default=0, help="no-win openers of the published run to draw")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--selby", type=Path, default=None, help="Selby's wordle binary (its word lists beside it)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_no_win.json")
    args = parser.parse_args()
    named = [word for word in args.openers.split(",") if word]
    pool = [word for word in no_win_openers() if word not in named]
    drawn = np.random.default_rng(args.seed).choice(pool, size=min(args.sample, len(pool)), replace=False).tolist()
    game = Wordle()
    unknown = [word for word in named if word not in game.words.guess_index]
    if unknown:
        parser.error(f"not in the guess list: {', '.join(unknown)}")
    solvers = {}
    for cut in (True, False):
        solvers[cut] = Solver(game, hard=True, max_guesses=6)
        solvers[cut].prover.endgame_cut = cut
        solvers[cut].opener_wins(game.words.guess_index["salet"])  # the whole-list attempt and compiling, untimed
    before, rows = os.getloadavg(), []
    for opener in named + drawn:
        row = {"opener": opener, "sampled": opener in drawn, "endgames": ours(solvers[True], opener),
               "no_endgames": ours(solvers[False], opener)}
        if args.selby:
            row["selby"] = selby(args.selby.resolve(), opener)
        rows.append(row)
        print(json.dumps(row), flush=True)
        write(args, game, before, rows)
    print(f"wrote {args.out}")


def write(args: argparse.Namespace, game: Wordle, before: tuple, rows: list[dict]) -> None:
    """The results file with the openers done so far, and the sums."""
    sums = {way: round(sum(row[way]["cpu_seconds"] for row in rows if "cpu_seconds" in row.get(way, {})), 3)
            for way in ("endgames", "no_endgames", "selby")}
    argv = " ".join(f"--{name} {value}" for name, value in vars(args).items()
                    if name not in ("out", "selby") and (value or name == "seed"))
    record = {"command": f"python benchmarks/bench_no_win.py {argv}" + (" --selby PATH" if args.selby else ""),
              "seed": args.seed, "word_lists_sha256": game.words.checksum, **provenance(),
              "cpu_model": cpu_model(), "cores": os.cpu_count(),
              "load_average_before": [round(x, 2) for x in before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()],
              "cpu_seconds_sum": sums, "openers": rows}
    args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
