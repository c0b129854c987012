"""Fixed starts measured beside Alex Selby's published two-word totals (issue 51 item 2).

Selby's file `twowords-nyt20220316-best11099.txt` (github alex1770/wordle, commit e298e35 of 25 March 2022, "Top
11099 starting word pairs, using NYT 2022-03-16 wordlists") lists pairs with their average and total guesses over
the 2309 answers of that list, with the 12972 allowed guesses. Here those lists are `--answers nyt --guesses
original` (the original 2315 less the six the Times dropped; the 12972 of 2022). Only the facts (pairs and totals)
are taken from it, typed in below.

    python benchmarks/fixed_starts.py [--out results/fixed-starts-selby.json]

It also counts the ordered pairs hard mode lets a player keep as a fixed start on both lists. Each pair is valued
as `python cli.py solve --start A,B --answers nyt` does (one solver for the whole run, so later
pairs reuse what earlier ones proved: the seconds are this run's, in this order).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import Wordle, load_matrix  # noqa: E402
from wordle.fixed_starts import hard_mode_pairs, parse_start, value_start  # noqa: E402
from wordle.solver import Solver  # noqa: E402
from wordle.words import named_words  # noqa: E402

#: (pair, Selby's total, his rank in the file) from twowords-nyt20220316-best11099.txt.
SELBY_PAIRS = [
    ("parse,clint", 8302, 1), ("crane,spilt", 8313, 2), ("crine,spalt", 8316, 3), ("slant,price", 8321, 4),
    ("larnt,spice", 8321, 5), ("slant,cripe", 8323, 6), ("crane,slipt", 8323, 7), ("crise,plant", 8327, 8),
    ("crine,plast", 8328, 9), ("prase,clint", 8328, 10), ("soare,clint", 8330, 11), ("salet,corni", 8399, 367),
    ("salet,porch", 8445, 2101), ("salet,corny", 8459, 3355), ("store,linac", 8499, 11097),
]
#: Starts with no published figure, measured for the docs: the same pair on the original 2315 answers, and triples.
OTHERS = [("original", "parse,clint"), ("original", "salet,crony"), ("nyt", "salet,crony,build"),
          ("nyt", "parse,clint,dough")]


def measure(game: Wordle, solver: Solver, start: str, answers: str) -> dict:
    """One start's value as a record: the total, games over 5, positions, work, and the command that shows it."""
    started = time.perf_counter()
    value = value_start(solver, parse_start(game, start))
    return {"start": start, "command": f"python cli.py solve --start {start} --answers {answers}",
            "total": value.total, "average": value.average, "long_games": value.long_games,
            "positions": value.positions, "nodes": value.nodes, "seconds": round(time.perf_counter() - started, 2)}


def main() -> int:
    """Measure every pair and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results/fixed-starts-selby.json")
    parser.add_argument("--quick", action="store_true", help="the first three Selby pairs only")
    args = parser.parse_args()
    games = {name: Wordle(words, load_matrix(words)) for name, words in
             (("nyt", named_words("nyt", "original")), ("original", named_words("original", "original")))}
    solvers = {name: Solver(game) for name, game in games.items()}
    rows, others = [], []
    for start, total, rank in SELBY_PAIRS[:3] if args.quick else SELBY_PAIRS:
        row = measure(games["nyt"], solvers["nyt"], start, "nyt")
        row.update(selby_total=total, selby_rank=rank, agrees=row["total"] == total)
        rows.append(row)
        print(json.dumps(row), flush=True)
    for answers, start in [] if args.quick else OTHERS:
        row = measure(games[answers], solvers[answers], start, answers)
        others.append(dict(row, answers=answers))
        print(json.dumps(others[-1]), flush=True)
    hard = {}
    for name, game in games.items():  # how many ordered pairs hard mode lets a player keep as a fixed start
        started = time.perf_counter()
        pairs = hard_mode_pairs(game)
        hard[name] = {"pairs": len(pairs), "examples": [",".join(game.words.guesses[w] for w in pair)
                                                        for pair in pairs[:10]],
                      "seconds": round(time.perf_counter() - started, 1)}
        print(name, json.dumps(hard[name]), flush=True)
    record = {
        **results_record("python benchmarks/fixed_starts.py" + (" --quick" if args.quick else ""), None,
                         games["nyt"].words.checksum),
        "seed_note": "no random choice",
        "word_lists": {name: {"answers": len(g.words.answers), "guesses": len(g.words.guesses),
                              "sha256": g.words.checksum} for name, g in games.items()},
        "mode": "normal", "max_guesses": 6,
        "source": "Selby's published totals: github alex1770/wordle, twowords-nyt20220316-best11099.txt (commit "
                  "e298e35), lists nyt20220316 = --answers nyt --guesses original",
        "machine_note": "a 2-core machine shared with other jobs (load average 5 to 10): seconds are wall time",
        "selby": rows, "agree": sum(row["agrees"] for row in rows), "of": len(rows),
        "others": others,
        "hard_mode_pairs": hard,
        "hard_mode_note": "ordered pairs of different words whose second word is legal in hard mode after every reply "
                          "of the first that some answer gives (wordle.fixed_starts.hard_mode_pairs)",
    }
    write_atomically(Path(args.out), json.dumps(record, indent=1) + "\n")
    print(f"{record['agree']} of {record['of']} of Selby's totals reproduced; wrote {args.out}")
    return 0 if record["agree"] == record["of"] else 1


if __name__ == "__main__":
    sys.exit(main())
