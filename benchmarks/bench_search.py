"""Play one agent configuration on every answer with two processes; time it and write the games.

    python benchmarks/bench_search.py --agent expectimax --depth 2 [--hard] [--jobs 2] [--eval cost] ...

Each worker plays a contiguous share of the answers with one agent, so the agent's
state caches serve every game that worker plays. Writes results/bench_search/<name>.json
with the command, seed, commit, word-list checksum, the summary (average guesses,
worst, failures, nodes, wall time, CPU time) and one entry per game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import agents  # noqa: E402
from agents import all_params, game_rng, make_agent  # noqa: E402
from agents.params import flag  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402


def play_share(agent_name: str, options: dict, answers: list[int], hard: bool, seed: int) -> tuple[list[dict], float]:
    """Play `answers` with one agent; return one record a game and the CPU seconds spent."""
    started = time.process_time()
    words = load_words()
    game = Wordle(words, load_matrix(words))
    agent = make_agent(agent_name, game, **options)
    records = []
    for answer in answers:
        rng = game_rng(seed, answer)
        nodes = 0

        def choose(state):
            nonlocal nodes
            decision = agent.decide(state, rng)
            nodes += decision.nodes
            return decision.guess

        played = game.play(choose, answer, hard=hard)
        records.append({"answer": words.answers[answer], "guesses": len(played.turns), "solved": played.solved,
                        "path": [words.guesses[turn.guess] for turn in played.turns], "nodes": nodes})
    return records, time.process_time() - started


def main() -> int:
    """Run the benchmark and write its results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", required=True)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="play only the first N answers")
    parser.add_argument("--name", default=None, help="results file name (default from the settings)")
    for name, declarations in all_params().items():
        parser.add_argument(flag(name), dest=name, type=declarations[0].parse, default=None)
    args = parser.parse_args()
    options = {name: getattr(args, name) for name in all_params() if getattr(args, name) is not None}
    words = load_words()
    answers = list(range(len(words.answers)))[: args.limit]
    shares = [answers[i * len(answers) // args.jobs:(i + 1) * len(answers) // args.jobs] for i in range(args.jobs)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        done = list(pool.map(play_share, [args.agent] * args.jobs, [options] * args.jobs, shares,
                             [args.hard] * args.jobs, [args.seed] * args.jobs))
    wall = time.perf_counter() - start
    games = [record for records, _ in done for record in records]
    max_guesses = 6
    scores = [g["guesses"] if g["solved"] else max_guesses + 1 for g in games]
    solved = [g["guesses"] for g in games if g["solved"]]
    summary = {
        "agent": args.agent, "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "mode": "hard" if args.hard else "normal", "games": len(games),
        "average": sum(scores) / len(scores), "total": sum(scores), "worst": max(solved) if solved else None,
        "failures": sum(not g["solved"] for g in games),
        "distribution": {str(k): solved.count(k) for k in sorted(set(solved))},
        "nodes": sum(g["nodes"] for g in games), "wall_s": round(wall, 2),
        "cpu_s": round(sum(cpu for _, cpu in done), 2), "jobs": args.jobs,
    }
    record = {**results_record("python " + " ".join(sys.argv), args.seed, words.checksum),
              "summary": summary, "games": games}
    name = args.name or "-".join([args.agent, summary["mode"]] + [f"{k}-{v}" for k, v in sorted(options.items())])
    out = ROOT / "results" / "bench_search" / f"{name.replace(',', '_')}.json"
    write_atomically(out, json.dumps(record, indent=1) + "\n")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
