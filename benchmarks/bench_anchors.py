"""Reproduce the solver's anchors under each objective, with the CPU each proof took.

Run: python benchmarks/bench_anchors.py [--only NAME,...] [--out FILE]
Anchors (published values, Selby's among them):
  palet-hard-5    hard mode within 5 guesses, PALET first: total 8206 (Selby), proved with every guess a node
  salet-worst     normal mode, SALET first, the worst objective: worst case 5 (no SALET tree within 4), total 7920
  no-win-hard     hard mode within 6: SARGO, GOAFS, RATCH, TRACE, SLATE, CARTE, SOARE have no win (Selby -H -d -g6)
  salet-hard-win  hard mode within 6: SALET can win every answer (its optimum is 8122)
Writes results/bench_anchors.json: per anchor the value found, the expected one, CPU and wall seconds,
sub-problems, the command, word-list checksum, commit, CPU model, cores and the load average before and after
(the machine is shared: prefer the CPU seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance  # noqa: E402
from wordle import Wordle  # noqa: E402
from wordle.solver import Objective, Solver  # noqa: E402

NO_WIN_HARD = ("sargo", "goafs", "ratch", "trace", "slate", "carte", "soare")


def timed(work) -> tuple[object, float, float]:
    """What `work()` returns, with its CPU and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    value = work()
    return value, round(time.process_time() - cpu, 3), round(time.perf_counter() - wall, 3)


def palet_hard_5(game: Wordle) -> dict:
    """Hard mode within 5 guesses, PALET first: the proved optimum."""
    solver = Solver(game, hard=True, max_guesses=5)
    solution, cpu, wall = timed(lambda: solver.solve(game.words.guess_index["palet"]))
    return {"found": {"total": solution.total, "long_games": solution.long_games, "proved": solution.proved},
            "expected": {"total": 8206}, "agrees": solution.total == 8206 and solution.proved,
            "cpu_seconds": cpu, "wall_seconds": wall, "sub_problems": solver.stats.nodes}


def salet_worst(game: Wordle) -> dict:
    """Normal mode, SALET first, least worst case: 5 (no tree within 4), then its least total 7920."""
    solver = Solver(game, objective=Objective.WORST)
    solution, cpu, wall = timed(lambda: solver.solve(game.words.guess_index["salet"]))
    return {"found": {"worst": solution.worst, "total": solution.total}, "expected": {"worst": 5, "total": 7920},
            "agrees": (solution.worst, solution.total) == (5, 7920), "cpu_seconds": cpu, "wall_seconds": wall,
            "sub_problems": solver.stats.nodes}


def no_win_hard(game: Wordle) -> dict:
    """Each named opener proved without a win within 6 in hard mode (one solver, as a job's worker keeps)."""
    solver = Solver(game, hard=True)
    rows = []
    for word in NO_WIN_HARD:
        nodes = solver.stats.nodes
        won, cpu, wall = timed(lambda: solver.opener_wins(game.words.guess_index[word]))
        rows.append({"opener": word, "win": won, "cpu_seconds": cpu, "wall_seconds": wall,
                     "sub_problems": solver.stats.nodes - nodes})
    return {"found": rows, "expected": "no win for each", "agrees": not any(row["win"] for row in rows),
            "cpu_seconds": round(sum(row["cpu_seconds"] for row in rows), 3)}


def salet_hard_win(game: Wordle) -> dict:
    """SALET can win every answer within 6 in hard mode."""
    solver = Solver(game, hard=True)
    won, cpu, wall = timed(lambda: solver.opener_wins(game.words.guess_index["salet"]))
    return {"found": {"win": won}, "expected": {"win": True}, "agrees": won, "cpu_seconds": cpu,
            "wall_seconds": wall, "sub_problems": solver.stats.nodes}


ANCHORS = {"palet-hard-5": palet_hard_5, "salet-worst": salet_worst, "no-win-hard": no_win_hard,
           "salet-hard-win": salet_hard_win}


def main() -> None:
    """Run the anchors asked for, print each, write the file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None, help=f"comma-separated anchors (default all: {', '.join(ANCHORS)})")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_anchors.json")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(ANCHORS)
    game = Wordle()
    Solver(game).bounds(game.all_answers, 6, None)  # compile / load the kernel outside the timings
    before = os.getloadavg()
    found = {}
    for name in names:  # the file is written after each anchor, so a run cut short keeps what it proved
        found[name] = ANCHORS[name](game)
        print(name, found[name], flush=True)
        write(args, game, before, found)
    print(f"wrote {args.out}")


def write(args: argparse.Namespace, game: Wordle, before: tuple, found: dict) -> None:
    """The results file with the anchors done so far."""
    record = {"command": "python benchmarks/bench_anchors.py" + (f" --only {args.only}" if args.only else ""),
              "seed": None, "seed_note": "no random choice", "word_lists_sha256": game.words.checksum,
              **provenance(), "cpu_model": cpu_model(), "cores": os.cpu_count(),
              "load_note": "the 2-core machine was shared with other helpers' jobs: the CPU seconds are the figure to "
                           "read, the wall seconds are not",
              "load_average_before": [round(x, 2) for x in before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "anchors": found}
    args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
