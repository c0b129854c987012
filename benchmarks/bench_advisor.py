"""The default advisor: follow its advice on every answer, or time it on awkward states.

Run: python benchmarks/bench_advisor.py [--mode hard|normal] [--sample N] [--agent NAME] [--seed 0]
Each game starts from no steps and takes, at every turn, the first suggestion that
`assist` shows (agents.assistant.advise_steps), as a person following the advice would.
One advisor serves every game, as an interactive session does (its decisions are kept by
state, and a state's advice does not depend on which games came before). Writes
results/bench_advisor-MODE.json: average guesses (an unsolved game counts as the limit
+ 1), worst game, failures, how many decisions came from the shallower fallback search,
seconds, every game's guesses, and how many games differ from the same agent's games in
results/published/tournament-depth-2/games.csv, with the command, seed, word-list
checksum, commit, versions and machine.

Run: python benchmarks/bench_advisor.py --states [--unbounded] [--agent NAME]
Times one piece of advice (`advise_steps`, as `assist STEPS` gives it) on each of a fixed
list of awkward states (openers far from the advisor's own) in normal and hard mode, each
with a fresh advisor whose opening plan is on disk (searched first, untimed, if missing):
wall-clock and CPU seconds, nodes, the guess advised and whether the fallback gave it.
--unbounded times the full search with no node budget (the advisor as it was before the
budget). Writes results/bench_advisor.json (or results/bench_advisor-unbounded.json).
Wall-clock seconds include whatever else the machine runs; CPU seconds less so.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents.assistant import ADVICE_NODES, advise_steps, make_advisor, parse_step  # noqa: E402
from wordle import Wordle  # noqa: E402
from plumbing.storage import cpu_model, provenance, results_record, write_atomically  # noqa: E402

PUBLISHED = ROOT / "results" / "published" / "tournament-depth-2" / "games.csv"


def follow_advice(game: Wordle, agent, answer: int, hard: bool, seed: int, max_guesses: int = 6) -> list[str]:
    """The guesses of one game that always plays the advisor's first suggestion."""
    steps: list[tuple[int, int]] = []
    while True:
        advice = advise_steps(game, agent, steps, hard=hard, top=1, seed=seed, max_guesses=max_guesses)
        if advice.solved or not advice.suggestions:
            return [game.words.guesses[guess] for guess, _ in steps]
        guess = advice.suggestions[0].guess
        steps.append((guess, game.reply(guess, answer)))


def published_games(agent: str, mode: str) -> dict[str, str]:
    """answer -> guesses of the agent's published tournament games in one mode."""
    with PUBLISHED.open(encoding="utf-8") as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        return {row["answer"]: row["guesses"] for row in rows if row["agent"] == agent and row["mode"] == mode}




#: The awkward states timed by --states: openers that share no letter with the answers' commonest.
STATES = ("", "fuzzy:-----", "fuzzy:----- jumbo:-----", "fuzzy:----- jumbo:----- vivid:-----", "xylyl:-----",
          "qajaq:-----", "crwth:-----", "mamma:-----")


def time_states(game: Wordle, name: str, bounded: bool) -> list[dict]:
    """One timed piece of advice per state and mode, each from a fresh advisor (its plan read from disk)."""
    rows = []
    for mode in ("normal", "hard"):
        hard = mode == "hard"
        make_advisor(name, game).decide(game.initial_state(hard=hard), np.random.default_rng(0))  # the plan, on disk
        for text in STATES:
            steps = [parse_step(game, step) for step in text.split()]
            agent = make_advisor(name, game, bounded=bounded)
            wall, cpu = time.perf_counter(), time.process_time()
            advice = advise_steps(game, agent, steps, hard=hard, top=1)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            decision = agent.decide(advice.state, np.random.default_rng(0))  # kept: the same decision
            rows.append({"mode": mode, "steps": text, "remaining": advice.remaining,
                         "guess": game.words.guesses[advice.suggestions[0].guess], "nodes": decision.nodes,
                         "fallback": advice.fallback, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3)})
            print(f"{mode:6} {text or '(no steps)':38} {advice.remaining:5} left  {rows[-1]['guess']}  "
                  f"{decision.nodes:7} nodes{' (fallback)' if advice.fallback else '':11}  {wall:6.2f} s wall  "
                  f"{cpu:6.2f} s CPU", flush=True)
    return rows


def main_states(args: argparse.Namespace) -> int:
    """Time the advisor on the awkward states and write the results file."""
    game = Wordle()
    rows = time_states(game, args.agent, bounded=not args.unbounded)
    result = {**results_record("python benchmarks/bench_advisor.py " + " ".join(sys.argv[1:]), None,
                               game.words.checksum),
              "load_average_at_start": list(os.getloadavg()), "agent": args.agent,
              "advice_nodes": None if args.unbounded else list(ADVICE_NODES),
              "note": "one decision each, fresh advisor, opening plan on disk; the machine was shared with other work",
              "worst_wall_s": max(row["wall_s"] for row in rows), "worst_cpu_s": max(row["cpu_s"] for row in rows),
              "states": rows}
    out = ROOT / "results" / f"bench_advisor{'-unbounded' if args.unbounded else ''}.json"
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"worst {result['worst_wall_s']:.2f} s wall, {result['worst_cpu_s']:.2f} s CPU; wrote {out}")
    return 0


def main() -> int:
    """Run the games (or time the states), print the outcome and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("normal", "hard"), default="hard")
    parser.add_argument("--agent", default="expectimax")
    parser.add_argument("--sample", type=int, default=None, help="play a seeded sample of this many answers")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--states", action="store_true", help="time the advice on the awkward states instead")
    parser.add_argument("--unbounded", action="store_true", help="with --states: the full search, no node budget")
    args = parser.parse_args()
    if args.states:
        return main_states(args)
    game = Wordle()
    hard = args.mode == "hard"
    answers = game.all_answers
    if args.sample is not None:
        answers = np.sort(np.random.default_rng(args.seed).choice(answers, args.sample, replace=False))
    start = time.perf_counter()
    agent = make_advisor(args.agent, game)
    played = {game.words.answers[a]: follow_advice(game, agent, int(a), hard, args.seed) for a in answers}
    seconds = time.perf_counter() - start
    fallbacks = sum(decision.fallback for decision in agent.decisions.values())
    counts = np.array([len(g) if g[-1:] == [w] else 7 for w, g in played.items()])
    published = published_games(args.agent, args.mode)
    differ = [w for w, g in played.items() if w in published and published[w] != " ".join(g)]
    result = {
        "command": "python benchmarks/bench_advisor.py " + " ".join(sys.argv[1:]),
        "seed": args.seed, "agent": args.agent, "settings": agent.settings(), "mode": args.mode,
        "word_lists_sha256": game.words.checksum, **provenance(),
        "machine": {"cpu": cpu_model(), "cpu_count": os.cpu_count(), "note": "shared with other work while it ran"},
        "games": len(counts), "average": round(float(counts.mean()), 6), "worst": int(counts.max()),
        "failures": int((counts > 6).sum()), "decisions": len(agent.decisions), "fallbacks": fallbacks,
        "advice_nodes": list(ADVICE_NODES), "seconds": round(seconds, 1),
        "differ_from_published": len(differ), "differing": differ[:20],
        "guesses": {w: " ".join(g) for w, g in played.items()},
    }
    out = ROOT / "results" / f"bench_advisor-{args.mode}{'' if args.sample is None else f'-sample{args.sample}'}.json"
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"{args.agent} advice, {args.mode} mode: {len(counts)} games, average {result['average']:.4f}, "
          f"worst {'X' if result['failures'] else result['worst']}, failures {result['failures']}, "
          f"{fallbacks} of {len(agent.decisions)} decisions from the fallback, "
          f"{len(differ)} differ from the published games; {seconds:.0f} s; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
