"""Time the one-step players on every answer, in normal and hard mode.

Run: python benchmarks/bench_players.py [--agents entropy demarcate ...] [--modes normal hard] [--seed 0]
Each agent is built once per mode (as the tournament does) and plays all answers in one
process; the seconds include its start-up (opening move, caches, a two-step plan).
Writes results/bench_players.json: per agent and mode, the average guesses (an unsolved
game counts as the limit + 1), worst solved game, failures and seconds, plus the guess
count of every game, with the command, seed, word-list checksum, commit and versions.
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

import numpy as np  # noqa: E402

from agents import game_rng, make_agent  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402

PLAYERS = ("letter-frequency", "demarcate", "entropy", "entropy-prior", "two-step")


def bench(game: Wordle, name: str, hard: bool, seed: int, max_guesses: int = 6, **settings) -> dict:
    """One agent (with the given parameters, the rest at their defaults) on every answer in one mode."""
    start = time.perf_counter()
    agent = make_agent(name, game, strict=False, **settings)
    counts = []
    for answer in game.all_answers:
        rng = game_rng(seed, int(answer))
        playthrough = game.play(lambda state: agent.decide(state, rng).guess, int(answer), hard=hard,
                                max_guesses=max_guesses)
        counts.append(len(playthrough.turns) if playthrough.solved else max_guesses + 1)
    seconds = time.perf_counter() - start
    counts_array = np.array(counts)
    solved = counts_array <= max_guesses
    return {
        "agent": name,
        "mode": "hard" if hard else "normal",
        "settings": agent.settings(),
        "games": len(counts),
        "average": float(counts_array.mean()),
        "total": int(counts_array.sum()),
        "worst": int(counts_array[solved].max()) if solved.any() else None,
        "failures": int((~solved).sum()),
        "seconds": round(seconds, 2),
        "guesses": counts,
    }


def main() -> None:
    """Benchmark the chosen players and write results/bench_players.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=list(PLAYERS), help="agents to time (default: the five players)")
    parser.add_argument("--modes", nargs="+", choices=("normal", "hard"), default=["normal", "hard"])
    parser.add_argument("--seed", type=int, default=0, help="run seed (the players are deterministic; recorded)")
    parser.add_argument("--cold", action="store_true",
                        help="use an empty cache folder, so cached plans and frequencies are rebuilt and timed")
    args = parser.parse_args()
    if args.cold:
        os.environ["WORDLE_ARENA_CACHE"] = tempfile.mkdtemp(prefix="bench-players-")
    words = load_words()
    game = Wordle(words, load_matrix(words))
    rows = []
    for name in args.agents:
        for mode in args.modes:
            row = bench(game, name, mode == "hard", args.seed)
            rows.append(row)
            print(f"{name:17} {mode:6}  average {row['average']:.4f}  worst {row['worst']}  "
                  f"failures {row['failures']:3}  {row['seconds']:7.1f} s", flush=True)
    figures = {
        **results_record("python benchmarks/bench_players.py " + " ".join(sys.argv[1:]), args.seed, words.checksum),
        "cold_cache": args.cold,
        "runs": rows,
    }
    out = ROOT / "results" / "bench_players.json"
    write_atomically(out, json.dumps(figures, indent=1) + "\n")
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
