"""Time PPO's training iteration (a batch of games played to the end plus the update), compiled by JAX, on this machine.

Run: python benchmarks/bench_ppo_step.py [--games 256] [--repeats 3] [--hard]
Writes results/bench_ppo_step.json: compile seconds, then the median seconds of an
iteration and the games per second it gives, with the configuration, JAX version,
machine, word-list checksum and commit. Needs the learn extra.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from agents.models import machine  # noqa: E402
from agents.ppo.learn import Learner, PPOConfig  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import write_atomically  # noqa: E402
from plumbing.storage import provenance  # noqa: E402


def main() -> None:
    """Time the iteration and write results/bench_ppo_step.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=PPOConfig.games)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--hard", action="store_true")
    args = parser.parse_args()
    words = load_words()
    game = Wordle(words, load_matrix(words))
    learner = Learner(game, PPOConfig(hard=args.hard, games=args.games), seed=0)
    key = jax.random.PRNGKey(0)
    start = time.perf_counter()
    state = jax.block_until_ready(learner._iterate(learner.params, learner.opt_state, key, jnp.float32(1.0)))
    compile_s = time.perf_counter() - start
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        state = jax.block_until_ready(learner._iterate(state[0], state[1], key, jnp.float32(1.0)))
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    figures = {"command": "python benchmarks/bench_ppo_step.py " + " ".join(sys.argv[1:]),
               "config": vars(PPOConfig(hard=args.hard, games=args.games)), "jax": jax.__version__,
               "devices": [str(device) for device in jax.devices()], "machine": machine(),
               "cpu_count": os.cpu_count(), "load_average": os.getloadavg(), "word_lists_sha256": words.checksum,
               **provenance(), "compile_and_first_s": round(compile_s, 2), "iteration_s": [round(t, 3) for t in times],
               "median_iteration_s": round(median, 3), "games_per_second": round(args.games / median, 1)}
    out = ROOT / "results" / "bench_ppo_step.json"
    write_atomically(out, json.dumps(figures, indent=1) + "\n")
    print(f"compile + first {compile_s:.1f} s; iteration {median:.2f} s median = {args.games / median:.0f} games/s "
          f"(load average {os.getloadavg()[0]:.1f}) -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
