"""Nodes alpha-beta visits against minimax's, with one shared cache each, on the states after SALET.

Run: python benchmarks/bench_alphabeta.py [--depths 2 3] [--min-answers 16] [--states N] [--label after]
Writes results/bench_alphabeta-<label>.json with the command, word-list checksum, commit, machine,
and per depth and algorithm: states searched, nodes, seconds, and whether alpha-beta's moves and
values equal minimax's. The states are SALET's replies that leave at least --min-answers answers
(16: 38 states), normal mode, the searchers' default evaluation (cost, local) and limit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heuristics.evaluation import make_evaluation  # noqa: E402
from wordle import Wordle, load_words  # noqa: E402
from search.algorithms import alphabeta, minimax  # noqa: E402
from search.limits import Limit  # noqa: E402
from wordle.policies import wordle_policies  # noqa: E402
from wordle.strategy import Strategy  # noqa: E402
from plumbing.storage import cpu_model, provenance, write_atomically  # noqa: E402
from search.table import TranspositionTable  # noqa: E402


def searcher(search, game, evaluation, limit):
    """A function state -> SearchResult that keeps one table and one set of policies (the default strategy)."""
    policies, table = wordle_policies(game, evaluation, Strategy(), chance=False), TranspositionTable()
    return lambda state: search(game, state, evaluation, limit, policies=policies, table=table)




def main() -> int:
    """Search every state with both algorithms at each depth and write the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--min-answers", type=int, default=16)
    parser.add_argument("--states", type=int, default=None, help="search only the first N states (largest first)")
    parser.add_argument("--label", default="after",
                        help="results file suffix (results/bench_alphabeta-before.json was written by this script's "
                             "version of 7c83f74's engine, run on that commit)")
    args = parser.parse_args()
    words = load_words()
    game = Wordle(words)
    start = game.initial_state()
    opener = words.guesses.index("salet")
    pending = game.result(start, opener)
    replies = sorted(((len(group), pattern) for pattern, group in game.partition(start.candidates, opener)
                      if len(group) >= args.min_answers), reverse=True)[: args.states]
    states = [game.result(pending, pattern) for _, pattern in replies]
    evaluation = make_evaluation("cost", "local")
    runs = []
    for depth in args.depths:
        found = {}
        for name, search in (("minimax", minimax), ("alphabeta", alphabeta)):
            run, nodes, moves = searcher(search, game, evaluation, Limit(depth=depth)), 0, []
            began = time.perf_counter()
            for state in states:
                result = run(state)
                nodes += result.nodes
                moves.append((result.move, result.value))
            seconds = time.perf_counter() - began
            found[name] = moves
            runs.append({"depth": depth, "algorithm": name, "states": len(states), "nodes": nodes,
                         "seconds": round(seconds, 2)})
            print(json.dumps(runs[-1]), flush=True)
        runs[-1]["same_moves_and_values_as_minimax"] = found["alphabeta"] == found["minimax"]
    record = {"command": "python " + " ".join(sys.argv), **provenance(), "checksum": words.checksum,
              "machine": {"cpu": cpu_model(), "cores": os.cpu_count()},
              "note": "the machine was shared with other jobs: seconds are noisy, nodes are exact", "runs": runs}
    out = ROOT / "results" / f"bench_alphabeta-{args.label}.json"
    write_atomically(out, json.dumps(record, indent=1) + "\n")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
