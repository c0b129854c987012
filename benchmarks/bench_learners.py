"""The learners' shipped models on every answer, in normal and hard mode: solved, average, worst, and how they were trained.

Run: python benchmarks/bench_learners.py [--agents q-learning ppo ppo-imitation] [--modes normal hard]
Plays each learner as the tournament does (built once per mode, greedy from its own
table or weights) and writes results/bench_learners.json: per learner and mode the
solved share, average guesses (an unsolved game counts as the limit + 1), worst game,
failures and seconds of play, with the model's training command, seed, episodes,
training seconds and machine, and this run's command, word-list checksum and commit.
`ppo-imitation` is the ppo player with --init imitation, reported apart. Also draws every
model's learning curve (average guesses against training episodes) in results/learning-curves.png.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.models import load_model, machine, model_path  # noqa: E402
from agents.training import plot_curves  # noqa: E402
from bench_players import bench  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import write_atomically  # noqa: E402
from plumbing.storage import provenance  # noqa: E402

#: Benchmark name -> (agent, its settings).
LEARNERS = {"q-learning": ("q-learning", {}), "ppo": ("ppo", {"init": "scratch"}),
            "ppo-imitation": ("ppo", {"init": "imitation"})}
#: What a benchmark row keeps of the model's header.
TRAINING = ("command", "seed", "episodes", "seconds", "machine", "words_checksum", "arrays_sha256", "config",
            "imitation", "framework")


def main() -> None:
    """Benchmark the learners' shipped models and write results/bench_learners.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", choices=list(LEARNERS), default=list(LEARNERS))
    parser.add_argument("--modes", nargs="+", choices=("normal", "hard"), default=["normal", "hard"])
    args = parser.parse_args()
    words = load_words()
    game = Wordle(words, load_matrix(words))
    rows, curves = [], {}
    for name in args.agents:
        for mode in args.modes:
            hard = mode == "hard"
            _, header = load_model(model_path(name, hard), name, hard, words.checksum, 6)
            agent, settings = LEARNERS[name]
            row = bench(game, agent, hard, 0, **settings)
            row["benchmark"] = name
            curves[f"{name}, {mode}"] = header["curve"]
            row["solved"] = 1.0 - row["failures"] / row["games"]
            row["training"] = {key: header.get(key) for key in TRAINING}
            rows.append(row)
            print(f"{name:11} {mode:6}  solved {row['solved']:.2%}  average {row['average']:.4f}  worst "
                  f"{row['worst']}  failures {row['failures']:3}  trained {header['episodes']} episodes in "
                  f"{header['seconds']:.0f} s  play {row['seconds']:.1f} s", flush=True)
    figures = {"command": "python benchmarks/bench_learners.py " + " ".join(sys.argv[1:]),
               "word_lists_sha256": words.checksum, "machine": machine(), "cpu_count": os.cpu_count(),
               **provenance(), "runs": rows}
    out = ROOT / "results" / "bench_learners.json"
    write_atomically(out, json.dumps(figures, indent=1) + "\n")
    print(f"-> {out.relative_to(ROOT)}")
    plot = ROOT / "results" / "learning-curves.png"
    if plot_curves(curves, plot, "Is hard mode harder? Greedy play on all answers while training"):
        print(f"-> {plot.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
