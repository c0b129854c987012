"""Time the pattern matrix: a fresh build, and a load from the disk cache.

Run: python benchmarks/bench_matrix.py [--repeat N] [--model likely]
Writes results/bench_matrix.json (the official lists) or results/bench_matrix-likely.json (the `likely` answer
model's 12972 guesses x 10681 answers, which serve prepares before it takes requests) with the command,
word-list checksum, commit and versions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle import load_words, pattern_matrix  # noqa: E402
from wordle.matrix import load_matrix  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402


def main() -> None:
    """Measure build and cache-load times and write them to results/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions of each measurement (default 5)")
    parser.add_argument("--model", choices=["official", "likely"], default="official",
                        help="whose matrix: the official lists' or the likely answer model's (default official)")
    args = parser.parse_args()
    words = load_words()
    if args.model == "likely":
        from agents.answer_model import model_words
        words = model_words("likely")[0]
    builds, loads = [], []
    with tempfile.TemporaryDirectory() as folder:
        load_matrix(words, directory=Path(folder))  # warm the cache file
        for _ in range(args.repeat):
            start = time.perf_counter()
            pattern_matrix(words.guesses, words.answers)
            builds.append(time.perf_counter() - start)
            start = time.perf_counter()
            load_matrix(words, directory=Path(folder))
            loads.append(time.perf_counter() - start)
    figures = {
        **results_record("python benchmarks/bench_matrix.py " + " ".join(sys.argv[1:]), None, words.checksum),
        "shape": [len(words.guesses), len(words.answers)],
        "build_seconds": {"median": statistics.median(builds), "min": min(builds), "max": max(builds)},
        "cache_load_seconds": {"median": statistics.median(loads), "min": min(loads), "max": max(loads)},
        "repeat": args.repeat,
    }
    out = ROOT / "results" / ("bench_matrix.json" if args.model == "official" else "bench_matrix-likely.json")
    write_atomically(out, json.dumps(figures, indent=2) + "\n")
    print(f"build: median {figures['build_seconds']['median']:.3f} s; "
          f"cache load: median {figures['cache_load_seconds']['median']:.3f} s  ->  {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
