"""Time the tournament per agent and mode: games per second, wall clock, with the workers it runs on.

Run: python benchmarks/bench_tournament.py [--agents a,b] [--sample N] [--jobs N] [--set depth=2 ...]
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

from agents import all_params  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from tournament import make_plan, run_tournament  # noqa: E402
from tournament.plan import parse_agents  # noqa: E402


def positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of at least 1")
    return int(text)


def agent_setting(text: str) -> tuple[str, object]:
    """argparse type: NAME=VALUE, an agent option parsed as the agent declares it."""
    name, _, value = text.partition("=")
    if name not in all_params() or not value:
        raise argparse.ArgumentTypeError(f"'{text}': give NAME=VALUE with NAME one of {', '.join(all_params())}")
    try:
        return name, all_params()[name][0].parse(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main() -> None:
    """Play one tournament per agent and mode, time each, and write the figures to results/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", help="comma-separated agents (default: every registered agent)")
    parser.add_argument("--sample", type=positive, help="answers per (agent, mode), seeded (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--jobs", type=positive, default=os.cpu_count(), help="worker processes (default: CPUs)")
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_tournament.json"), help="figures file")
    parser.add_argument("--set", type=agent_setting, action="append", default=[], metavar="NAME=VALUE",
                        help="an agent option, e.g. depth=2 (repeatable)")
    args = parser.parse_args()
    options = dict(args.set)
    words = load_words()
    game = Wordle(words, load_matrix(words))
    rows = []
    for agent in parse_agents(args.agents):
        for mode in ("normal", "hard"):
            plan = make_plan(game.words, agents=agent, mode=mode, seed=args.seed, options=options,
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
        **results_record("python benchmarks/bench_tournament.py " + " ".join(sys.argv[1:]), args.seed, words.checksum),
        "sample": args.sample, "jobs": args.jobs, "options": options, "results": rows,
    }
    out = Path(args.out)
    write_atomically(out, json.dumps(figures, indent=2) + "\n")
    print(f"-> {out}")


if __name__ == "__main__":
    main()
