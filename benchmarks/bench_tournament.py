"""Time the tournament per agent and mode: games per second, wall clock, with the workers it runs on.

Run: python benchmarks/bench_tournament.py [--agents a,b] [--sample N] [--jobs N] [--depth D ...]
Each (agent, mode) is a separate tournament over the same seeded sample of answers (default:
all 2315), played into a temporary folder, so agent build time and its search cache warming
are part of the figure. Writes results/bench_tournament.json with the command, seed,
word-list checksum, commit and versions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cli import add_agent_options, agent_options, positive_int  # noqa: E402
from search import Wordle, load_matrix, load_words  # noqa: E402
from tournament import make_plan, run_tournament  # noqa: E402
from tournament.plan import parse_agents  # noqa: E402
from tournament.provenance import provenance  # noqa: E402


def main() -> None:
    """Play one tournament per agent and mode, time each, and write the figures to results/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", help="comma-separated agents (default: every registered agent)")
    parser.add_argument("--sample", type=positive_int, help="answers per (agent, mode), seeded (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--jobs", type=positive_int, default=os.cpu_count(), help="worker processes (default: CPUs)")
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_tournament.json"), help="figures file")
    add_agent_options(parser)
    args = parser.parse_args()
    words = load_words()
    game = Wordle(words, load_matrix(words))
    rows = []
    for agent in parse_agents(args.agents):
        for mode in ("normal", "hard"):
            plan = make_plan(game, agents=agent, mode=mode, seed=args.seed, options=agent_options(args),
                             sample=args.sample)
            with tempfile.TemporaryDirectory() as folder:
                start = time.perf_counter()
                outcome = run_tournament(plan, game, Path(folder) / "run", jobs=args.jobs)
                wall = time.perf_counter() - start
            stats = outcome.summary.results[0]
            rows.append({
                "agent": agent, "mode": mode, "games": stats.games, "wall_seconds": wall,
                "games_per_second": stats.games / wall, "seconds_per_game_in_worker": stats.seconds_per_game,
                "nodes_per_game": stats.nodes_per_game, "mean_guesses": stats.mean, "solved_pct": stats.solved_pct,
            })
            print(f"{agent:>16} {mode:>6}: {stats.games} games in {wall:.2f} s = {stats.games / wall:,.1f} games/s "
                  f"(avg {stats.mean:.4f} guesses)")
    figures = {
        "command": "python benchmarks/bench_tournament.py " + " ".join(sys.argv[1:]),
        "seed": args.seed, "sample": args.sample, "jobs": args.jobs, "cpu_count": os.cpu_count(),
        "options": {k: v for k, v in agent_options(args).items() if v is not None},
        "word_lists_sha256": words.checksum, "results": rows, **provenance(),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
