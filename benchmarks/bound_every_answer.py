"""A proved lower bound on the optimal total when every allowed word can be the answer (12972 answers, normal mode).

Run: python benchmarks/bound_every_answer.py [--jobs N] [--openers W,W,...] [--out FILE]
     python benchmarks/bound_every_answer.py --raise-to TOTAL --from FILE [--jobs N] [--out FILE]

Any tree's total is at least its opener's bound, so the least bound over all 12972 openers bounds the
optimum from below. The first pass bounds each opener by `BoundPasses.guess_bound` with no limit: its
replies bounded by the solver's floors, then every reply of 3 answers or more raised to the least
one-step bound over every allowed guess there (the bound the exact search refutes openers with).

The second pass (--raise-to) reads a complete first pass (its word lists checked) and searches every
opener bounded there below TOTAL, least first, with the exact engine's `Solver.try_guess` under the
limit TOTAL: each returns a proved bound of at least TOTAL (or, were there one, a tree below it). The
least bound is then the least of those and of the first pass's bounds for the openers not searched,
so a pass stopped early still proves what it says.

The bounds are on trees that solve every answer within six guesses (the solver's guess limit). The solver
counts a cost as total × SCALE + the games taking six guesses, and a bound is read as cost // SCALE: that
is a bound on the total as long as fewer than SCALE (4096) games take six, and a tree with 4096 or more
such games takes at least 1 + 2·242 + 3·8633 + 6·4096 = 50,960 guesses in all (one game solved in one, at
most 242 in two, the rest in three at best). So the least bound (and any up to 50,960) is one on the total;
an opener's bound above that may be up to 3 over (the games taking six are at most 12,972 < 4 × SCALE).

Alex Selby's best known tree for this game opens with LANTS and takes 52,896 guesses (4.0777 a game;
github alex1770/wordle, lants.bighidden.origwords.tree); the gap is stated against it. Writes
results/bound-every-answer.json (the second pass: results/bound-every-answer-raised-TOTAL.json; or --out)
with the command, word-list checksum, commit and machine,
CPU and wall seconds, the least bound and its openers, and every opener's bound, rewritten as the
openers finish.
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

from plumbing.storage import cpu_model, results_record  # noqa: E402
from wordle import Wordle, load_matrix  # noqa: E402
from wordle.solver import SCALE, Limits, Solver, unpack  # noqa: E402
from wordle.words import Words, load_guesses  # noqa: E402

#: Selby's best known tree when every allowed word can be the answer: LANTS, 52,896 guesses.
SELBY_BEST_TOTAL = 52_896
#: Replies of this many answers or more get the least one-step bound (two answers or fewer: the floor is exact).
SHARPEN_FROM = 3

GAME: Wordle | None = None  # set before the workers fork
RAISE_TO: int | None = None
_SOLVER: Solver | None = None


def bound_of(opener: int) -> tuple[int, int, float]:
    """One opener's proved bound on the total (the first pass, or the search under RAISE_TO) and its CPU seconds."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver(GAME, hard=False, max_guesses=6, limits=Limits())
        _SOLVER.passes.sharpen_from = SHARPEN_FROM
    cpu = time.process_time()
    answers = np.asarray(GAME.all_answers)
    if RAISE_TO is None:
        cost = _SOLVER.passes.guess_bound(answers, 6, None, opener)[0]
    else:
        cost = _SOLVER.try_guess(answers, 6, None, opener, RAISE_TO * SCALE)
    return opener, unpack(cost)[0], time.process_time() - cpu


def first_pass(path: Path, words: Words) -> dict[str, int]:
    """Every opener's bound from a complete first pass over these word lists, every allowed guess bounded once
    (exits 1 with one line if not)."""
    try:
        record = json.loads(path.read_text())
        bounds = {str(word): int(bound) for word, bound in record["bounds"].items()}
        ok = (record.get("complete") is True and record.get("raise_to") is None and record.get("mode") == "normal"
              and record.get("max_guesses") == 6 and record.get("answers") == len(words.guesses)
              and record.get("word_lists_sha256") == words.checksum and set(bounds) == set(words.guesses))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        sys.exit(f"bound_every_answer.py: {path}: not a first pass ({error.__class__.__name__})")
    if not ok:
        sys.exit(f"bound_every_answer.py: {path}: not a complete first pass over these word lists")
    return bounds


def main() -> None:
    """Bound every opener (or those named, or raise the lowest) across the worker processes, writing as they finish."""
    global GAME, RAISE_TO
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    parser.add_argument("--openers", default="", help="comma-separated openers only (default: all 12972)")
    parser.add_argument("--raise-to", type=int, default=None, help="search the openers bounded below this total")
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        help="the first pass's file (with --raise-to)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the results file (default results/bound-every-answer.json, "
                             "with --raise-to results/bound-every-answer-raised-TOTAL.json)")
    args = parser.parse_args()
    if (args.raise_to is None) != (args.source is None) or (args.raise_to is not None and args.openers):
        parser.error("--raise-to and --from go together, without --openers")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    name = "bound-every-answer.json" if args.raise_to is None else f"bound-every-answer-raised-{args.raise_to}.json"
    args.out = args.out or ROOT / "results" / name
    if not args.out.parent.is_dir():
        parser.error(f"--out: no folder {args.out.parent}")
    if args.source is not None and args.out.resolve() == args.source.resolve():
        parser.error("--out would replace the first pass it reads (--from)")
    words = load_guesses()  # every allowed guess is an answer too
    GAME, RAISE_TO = Wordle(words, load_matrix(words)), args.raise_to
    named = [word.strip().lower() for word in args.openers.split(",") if word.strip()]
    unknown = [word for word in named if word not in words.guess_index]
    if unknown:
        parser.error(f"not in the guess list: {', '.join(unknown)}")
    earlier = first_pass(args.source, words) if args.source else {}
    if earlier:
        least_first = sorted(earlier.items(), key=lambda item: (item[1], item[0]))
        openers = [words.guess_index[word] for word, bound in least_first if bound < args.raise_to]
    else:
        openers = [words.guess_index[word] for word in named] or [int(guess) for guess in GAME.all_guesses]
    if earlier and not openers:
        write(args, GAME, earlier, {}, 0.0, 0.0, os.getloadavg(), complete=True)
        print(f"no opener is bounded below {args.raise_to} in {args.source}; wrote {args.out}")
        return
    started, before = time.perf_counter(), os.getloadavg()
    found: dict[str, int] = {}
    cpu = 0.0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.imap(bound_of, openers, chunksize=1 if earlier else 50)  # in order: least first
        for done, (opener, bound, seconds) in enumerate(results, 1):
            found[words.guesses[opener]] = bound
            cpu += seconds
            if done % (1 if earlier else 250) == 0 or done == len(openers):
                least = min({**earlier, **found}.values())
                print(f"{done}/{len(openers)} openers, least bound {least}, {time.perf_counter() - started:.0f} s",
                      flush=True)
                write(args, GAME, earlier, found, cpu, time.perf_counter() - started, before,
                      complete=not named and done == len(openers))
    print(f"wrote {args.out}")


def write(args: argparse.Namespace, game: Wordle, earlier: dict[str, int], found: dict[str, int], cpu: float,
          wall: float, before: tuple, complete: bool) -> None:
    """The results file with the openers bounded so far."""
    every = {**earlier, **found}
    least = min(every.values())
    values = np.array(list(every.values()))
    argv = (f" --openers {args.openers}" if args.openers else "") + (
        f" --raise-to {args.raise_to} --from {args.source}" if args.source else "")
    whole = complete or bool(earlier)  # a second pass's least bound holds however far it got
    record = {
        **results_record(f"python benchmarks/bound_every_answer.py --jobs {args.jobs}{argv}", None,
                         game.words.checksum),
        "seed_note": "no random choice", "answers": len(game.all_answers), "mode": "normal", "max_guesses": 6,
        "cpu_model": cpu_model(), "cores": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "raise_to": args.raise_to, "openers_searched" if earlier else "openers_bounded": len(found),
        "complete": complete, "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1),
        "least_bound": least, "least_bound_per_game": round(least / len(game.all_answers), 4),
        "least_bound_openers": sorted(word for word, bound in every.items() if bound == least),
        "proved": ("every tree solving each answer within six guesses has a total of at least least_bound" if whole
                   else "only the openers listed are bounded"),
        "selby_best_total": SELBY_BEST_TOTAL, "gap": SELBY_BEST_TOTAL - least,
        "bound_quantiles": {f"{q}%": int(np.percentile(values, q)) for q in (0, 1, 10, 50, 90, 100)},
        "searched": found if earlier else None,
        "bounds": dict(sorted(every.items(), key=lambda item: (item[1], item[0]))),
        "scale_note": (f"bounds are on the total over all answers of any tree within six guesses (solver units / "
                       f"{SCALE}, rounded down: a bound on the total while fewer than {SCALE} games take six, and a "
                       f"tree with more takes at least 50,960 guesses: so any bound up to 50,960, the least among "
                       f"them, is one on the total; a higher opener's bound may be up to 3 over)"),
    }
    partial = args.out.with_name(args.out.name + ".partial")
    partial.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(partial, args.out)  # a run stopped mid-write leaves the last whole file


if __name__ == "__main__":
    main()
