"""Time valuing positions: the replies to common human openers, each valued by wordle.valuation within a budget.

Run: python benchmarks/bench_positions.py [--sample N] [--seed 5] [--budget 30 | --nodes default|N]
Every reply some answer gives to each of ten openers (crane, adieu, audio, stare, raise, arise,
slate, roate, fuzzy, mummy), all green left out, in normal and hard mode, is a position; with
--sample N a seeded random N of them per mode (said so in the file). Each is valued with a
fresh solver and Budget(seconds=BUDGET); the time to a proof is the valuation's own seconds
when it proves the value. Writes results/bench_positions.json with the shares proved within
1 s, 5 s and the budget, the median time to a proof, the command, seed, word-list checksum,
commit, CPU model, cores and the load average before and after (the machine is shared).
With --nodes, each position gets that node budget instead (`default`: each mode's VALUE_NODES, the
commands' own budget) and no time limit, so the shares proved are counts, the same on any machine;
it writes results/bench_positions-nodes.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import ALL_GREEN, Wordle, format_pattern  # noqa: E402
from wordle.optimal import Solver  # noqa: E402
from plumbing.storage import cpu_model, provenance  # noqa: E402
from wordle.valuation import VALUE_NODES, Budget, value_position  # noqa: E402

OPENERS = ("crane", "adieu", "audio", "stare", "raise", "arise", "slate", "roate", "fuzzy", "mummy")


def positions(game: Wordle) -> list[tuple[str, int]]:
    """Every (opener, reply) some answer gives, all green left out, in a fixed order."""
    found = []
    for word in OPENERS:
        replies = np.unique(game.matrix[game.words.guess_index[word], game.all_answers])
        found += [(word, int(reply)) for reply in replies if reply != ALL_GREEN]
    return found


def main() -> None:
    """Value each position in both modes and summarise."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=None, help="a seeded random N positions per mode (default all)")
    parser.add_argument("--seed", type=int, default=5, help="the sample's seed (default 5)")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per position (default 30)")
    parser.add_argument("--nodes", default=None,
                        help="a node budget per position instead (default: each mode's VALUE_NODES), no time limit")
    args = parser.parse_args()
    game = Wordle()
    every = positions(game)
    load_before = os.getloadavg()
    Solver(game).bounds(game.all_answers, 6, None)  # compile / load the kernel outside the timings
    record = {"command": " ".join(["python benchmarks/bench_positions.py", *([f"--sample {args.sample}"]
                                                                            if args.sample else []),
                                   f"--seed {args.seed}", f"--nodes {args.nodes}" if args.nodes else
                                   f"--budget {args.budget:g}"]),
              "seed": args.seed, "word_lists_sha256": game.words.checksum, **provenance(), "cpu_model": cpu_model(),
              "cores": os.cpu_count(), "openers": list(OPENERS), "positions_per_mode": len(every),
              "sample_note": (f"a seeded sample (numpy default_rng({args.seed})) of {args.sample} of the "
                              f"{len(every)} positions per mode" if args.sample else "every position"),
              "load_average_before": [round(x, 2) for x in load_before], "modes": {}}
    for hard in (False, True):
        rng = np.random.default_rng(args.seed + hard)
        chosen = ([every[i] for i in sorted(rng.choice(len(every), size=args.sample, replace=False))]
                  if args.sample else every)
        rows = []
        for word, reply in chosen:
            game_state = game.step(game.initial_state(hard=hard), game.words.guess_index[word], reply)
            if args.nodes is None:
                budget = Budget(seconds=args.budget)
            else:
                budget = Budget(nodes=VALUE_NODES[hard] if args.nodes == "default" else int(args.nodes))
            valuation = value_position(game, game_state, (), budget, Solver(game, hard=hard))
            row = {"position": f"{word}:{format_pattern(reply)}", "answers": len(game_state.candidates),
                   "proved": valuation.proved, "seconds": round(valuation.seconds, 3),
                   "best": game.words.guesses[valuation.best], "low": round(valuation.value.low, 5),
                   "high": round(valuation.value.high, 5) if np.isfinite(valuation.value.high) else None,
                   "sub_problems": valuation.nodes}
            rows.append(row)
            print("hard" if hard else "normal", row, flush=True)
        proved = [row["seconds"] for row in rows if row["proved"]]
        if args.nodes is not None:
            record["modes"]["hard" if hard else "normal"] = {
                "positions": len(rows), "node_budget": budget.nodes,
                "proved_within_the_node_budget": round(len(proved) / len(rows), 4),
                "median_nodes_to_proof": statistics.median(r["sub_problems"] for r in rows if r["proved"]),
                "seconds_under_load": {"median": statistics.median(r["seconds"] for r in rows),
                                       "max": max(r["seconds"] for r in rows)},
                "rows": rows}
            continue
        record["modes"]["hard" if hard else "normal"] = {
            "positions": len(rows),
            "proved_within_1s": round(sum(s <= 1 for s in proved) / len(rows), 4),
            "proved_within_5s": round(sum(s <= 5 for s in proved) / len(rows), 4),
            f"proved_within_{args.budget:g}s": round(len(proved) / len(rows), 4),
            "median_seconds_to_proof": statistics.median(proved) if proved else None,
            "rows": rows,
        }
    record["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out = ROOT / "results" / ("bench_positions.json" if args.nodes is None else "bench_positions-nodes.json")
    out.write_text(json.dumps(record, indent=1) + "\n")
    for mode, data in record["modes"].items():
        print(mode, {key: value for key, value in data.items() if key != "rows"})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
