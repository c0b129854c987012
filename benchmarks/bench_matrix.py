"""Time the pattern matrix: a fresh build, and a load from the disk cache.

Run: python benchmarks/bench_matrix.py [--repeat N] [--model likely]
The first load reads an empty cache folder (build and write); then each repetition times a bare build and a read
back. The 1-minute load average before and after says how busy the machine was.
Writes results/bench_matrix.json (the official lists) or results/bench_matrix-likely.json (the `likely` answer
model's 12972 guesses x 10681 answers, which serve prepares before it takes requests) with the command,
word-list checksum, commit and versions.
"""

from __future__ import annotations

import argparse
import json
import os
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
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        load_matrix(words, directory=Path(folder))  # an empty cache: build and write the file
        empty_cache = time.perf_counter() - start
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
        "empty_cache_seconds": empty_cache,
        "build_seconds": {"median": statistics.median(builds), "min": min(builds), "max": max(builds)},
        "cache_load_seconds": {"median": statistics.median(loads), "min": min(loads), "max": max(loads)},
        "repeat": args.repeat,
        "load_average_1min": {"before": load_before, "after": os.getloadavg()[0]},
    }
    out = ROOT / "results" / ("bench_matrix.json" if args.model == "official" else "bench_matrix-likely.json")
    write_atomically(out, json.dumps(figures, indent=2) + "\n")
    print(f"empty cache: {empty_cache:.3f} s; build: median {figures['build_seconds']['median']:.3f} s; "
          f"cache load: median {figures['cache_load_seconds']['median']:.3f} s  ->  {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
