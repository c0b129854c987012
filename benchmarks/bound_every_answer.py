"""A proved lower bound on the optimal total when every allowed word can be the answer (12972 answers, normal mode).

Run: python benchmarks/bound_every_answer.py [--jobs N] [--openers W,W,...] [--out FILE]

Any tree's total is at least its opener's bound, so the least bound over all 12972 openers bounds the
optimum from below. Each opener's bound is `Solver.guess_bound` with no limit: its replies bounded by
the solver's floors, then every reply of 3 answers or more raised to the least one-step bound over
every allowed guess there (the bound the exact search refutes openers with). Alex Selby's best known
tree for this game opens with LANTS and takes 52,896 guesses (4.0777 a game; github alex1770/wordle,
lants.bighidden.origwords.tree); the gap is stated against it. Writes results/bound-every-answer.json
(or --out) with the command, word-list checksum, commit and machine, CPU and wall seconds, the least
bound and its openers, and every opener's bound; it is rewritten as the openers finish.
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

from plumbing.storage import cpu_model, provenance  # noqa: E402
from wordle import Wordle, load_matrix  # noqa: E402
from wordle.optimal import SCALE, Limits, Solver, unpack  # noqa: E402
from wordle.words import load_guesses  # noqa: E402

#: Selby's best known tree when every allowed word can be the answer: LANTS, 52,896 guesses.
SELBY_BEST_TOTAL = 52_896
CHUNK = 50
#: Replies of this many answers or more get the least one-step bound (two answers or fewer: the floor is exact).
SHARPEN_FROM = 3

GAME: Wordle | None = None  # set before the workers fork
_SOLVER: Solver | None = None


def bounds_of(openers: list[int]) -> tuple[list[tuple[int, int]], float]:
    """Each opener's proved bound on the total (in the worker's solver), and the CPU seconds they took."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver(GAME, hard=False, max_guesses=6, limits=Limits())
        _SOLVER.sharpen_from = SHARPEN_FROM
    cpu = time.process_time()
    answers = np.asarray(GAME.all_answers)
    found = [(opener, unpack(_SOLVER.guess_bound(answers, 6, None, opener)[0])[0]) for opener in openers]
    return found, time.process_time() - cpu


def main() -> None:
    """Bound every opener (or those named) across the worker processes, writing the file as they finish."""
    global GAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    parser.add_argument("--openers", default="", help="comma-separated openers only (default: all 12972)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bound-every-answer.json")
    args = parser.parse_args()
    words = load_guesses()  # every allowed guess is an answer too
    GAME = Wordle(words, load_matrix(words))
    named = [word.strip().lower() for word in args.openers.split(",") if word.strip()]
    unknown = [word for word in named if word not in words.guess_index]
    if unknown:
        parser.error(f"not in the guess list: {', '.join(unknown)}")
    openers = [words.guess_index[word] for word in named] or [int(guess) for guess in GAME.all_guesses]
    chunks = [openers[start:start + CHUNK] for start in range(0, len(openers), CHUNK)]
    started, before = time.perf_counter(), os.getloadavg()
    found: dict[str, int] = {}
    cpu = 0.0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for done, (bounds, seconds) in enumerate(pool.imap_unordered(bounds_of, chunks), 1):
            found.update((words.guesses[opener], bound) for opener, bound in bounds)
            cpu += seconds
            least = min(found.values())
            print(f"{len(found)}/{len(openers)} openers, least bound so far {least}, {time.perf_counter() - started:.0f} s",
                  flush=True)
            if done % 20 == 0 or done == len(chunks):
                write(args, GAME, found, cpu, time.perf_counter() - started, before, complete=not named and done == len(chunks))
    print(f"wrote {args.out}")


def write(args: argparse.Namespace, game: Wordle, found: dict[str, int], cpu: float, wall: float, before: tuple,
          complete: bool) -> None:
    """The results file with the openers bounded so far."""
    least = min(found.values())
    values = np.array(list(found.values()))
    argv = f" --openers {args.openers}" if args.openers else ""
    record = {
        "command": f"python benchmarks/bound_every_answer.py --jobs {args.jobs}{argv}",
        "seed": None, "seed_note": "no random choice", "word_lists_sha256": game.words.checksum,
        "answers": len(game.all_answers), "mode": "normal", "max_guesses": 6, **provenance(),
        "cpu_model": cpu_model(), "cores": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "openers_bounded": len(found), "complete": complete,
        "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
        "least_bound": least, "least_bound_per_game": round(least / len(game.all_answers), 4),
        "least_bound_openers": sorted(word for word, bound in found.items() if bound == least),
        "proved": "every tree's total is at least least_bound" if complete else "only the openers listed are bounded",
        "selby_best_total": SELBY_BEST_TOTAL, "gap": SELBY_BEST_TOTAL - least,
        "bound_quantiles": {f"{q}%": int(np.percentile(values, q)) for q in (0, 1, 10, 50, 90, 100)},
        "bounds": dict(sorted(found.items(), key=lambda item: (item[1], item[0]))),
        "scale_note": f"bounds are on the total over all answers (solver units / {SCALE}, rounded down)",
    }
    args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
