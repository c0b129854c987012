"""Time the search agent that finds a 4-guess win against Absurdle by itself, in normal and hard mode.

Run: python benchmarks/bench_absurdle_win.py [--agent alphabeta] [--depth 4] [--repeat 3]
Each repeat builds a fresh agent (`--opponent absurdle`, nothing cached) and plays one game per mode
against the `absurdle` Indicator, timing every decision. The first decision is the search for the
win: iterative deepening over horizons 1 to `--depth`, each searched to its end. Writes
results/bench_absurdle_win.json: the game, the answers Absurdle kept, each decision's seconds and
nodes, with the command, word-list checksum, commit, versions and machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents import make_agent  # noqa: E402
from agents.indicators import make_indicator, play_with  # noqa: E402
from wordle import Wordle  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402


def timed_game(game: Wordle, agent_name: str, depth: int, hard: bool) -> dict:
    """One game of a fresh agent against Absurdle: its guesses, what Absurdle kept, each decision's seconds and nodes."""
    agent = make_agent(agent_name, game, opponent="absurdle", depth=depth)
    rng = np.random.default_rng(0)
    seconds, nodes = [], []

    def choose(state) -> int:
        start = time.perf_counter()
        decision = agent.decide(state, rng)
        seconds.append(round(time.perf_counter() - start, 3))
        nodes.append(decision.nodes)
        return decision.guess

    played = play_with(game, choose, make_indicator("absurdle", game), rng, hard=hard)
    return {"guesses": [game.words.guesses[turn.guess] for turn in played.turns],
            "kept": [turn.remaining_after for turn in played.turns], "solved": played.solved,
            "seconds": seconds, "nodes": nodes, "settings": agent.settings()}


def main() -> int:
    """Play the games, print them and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", choices=("alphabeta", "minimax"), default="alphabeta")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = Wordle()
    result = results_record("python benchmarks/bench_absurdle_win.py " + " ".join(sys.argv[1:]), None,
                            game.words.checksum)
    result["note"] = "2-core machine shared with other work while it ran: the seconds are noisy"
    for mode in ("normal", "hard"):
        runs = [timed_game(game, args.agent, args.depth, mode == "hard") for _ in range(args.repeat)]
        if any(run["guesses"] != runs[0]["guesses"] for run in runs):
            raise SystemExit(f"{mode} mode: the repeats played different games")
        firsts = [run["seconds"][0] for run in runs]
        games = [sum(run["seconds"]) for run in runs]
        result[mode] = {**{key: runs[0][key] for key in ("guesses", "kept", "solved", "nodes", "settings")},
                        "first_decision_seconds": firsts, "game_seconds": [round(s, 3) for s in games],
                        "first_decision_median": statistics.median(firsts), "game_median": statistics.median(games),
                        "decision_seconds": [run["seconds"] for run in runs]}
        print(f"{mode}: {' '.join(w.upper() for w in runs[0]['guesses'])} (kept {runs[0]['kept']}); first decision "
              f"{statistics.median(firsts):.2f} s, game {statistics.median(games):.2f} s (median of {args.repeat})")
    out = ROOT / "results" / "bench_absurdle_win.json"
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
