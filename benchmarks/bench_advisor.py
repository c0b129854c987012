"""Play the assistant's advice: follow the default advisor's first suggestion on every answer.

Run: python benchmarks/bench_advisor.py [--mode hard|normal] [--sample N] [--agent NAME] [--seed 0]
Each game starts from no steps and takes, at every turn, the first suggestion that
`assist` shows (agents.assistant.advise_steps), as a person following the advice would.
One advisor serves every game, as an interactive session does (its decisions are kept by
state, and a state's advice does not depend on which games came before). Writes
results/bench_advisor-MODE.json: average guesses (an unsolved game counts as the limit
+ 1), worst game, failures, seconds, every game's guesses, and how many games differ
from the same agent's games in results/published/tournament-depth-2/games.csv, with the
command, seed, word-list checksum, commit, versions and machine.
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

from agents.assistant import advise_steps, make_advisor  # noqa: E402
from search import Wordle  # noqa: E402
from search.storage import cpu_model, write_atomically  # noqa: E402
from search.storage import provenance  # noqa: E402

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




def main() -> int:
    """Run the games, print the outcome and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("normal", "hard"), default="hard")
    parser.add_argument("--agent", default="expectimax")
    parser.add_argument("--sample", type=int, default=None, help="play a seeded sample of this many answers")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = Wordle()
    hard = args.mode == "hard"
    answers = game.all_answers
    if args.sample is not None:
        answers = np.sort(np.random.default_rng(args.seed).choice(answers, args.sample, replace=False))
    start = time.perf_counter()
    agent = make_advisor(args.agent, game)
    played = {game.words.answers[a]: follow_advice(game, agent, int(a), hard, args.seed) for a in answers}
    seconds = time.perf_counter() - start
    counts = np.array([len(g) if g[-1:] == [w] else 7 for w, g in played.items()])
    published = published_games(args.agent, args.mode)
    differ = [w for w, g in played.items() if w in published and published[w] != " ".join(g)]
    result = {
        "command": "python benchmarks/bench_advisor.py " + " ".join(sys.argv[1:]),
        "seed": args.seed, "agent": args.agent, "settings": agent.settings(), "mode": args.mode,
        "word_lists_sha256": game.words.checksum, **provenance(),
        "machine": {"cpu": cpu_model(), "cpu_count": os.cpu_count(), "note": "shared with other work while it ran"},
        "games": len(counts), "average": round(float(counts.mean()), 6), "worst": int(counts.max()),
        "failures": int((counts > 6).sum()), "seconds": round(seconds, 1),
        "differ_from_published": len(differ), "differing": differ[:20],
        "guesses": {w: " ".join(g) for w, g in played.items()},
    }
    out = ROOT / "results" / f"bench_advisor-{args.mode}{'' if args.sample is None else f'-sample{args.sample}'}.json"
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"{args.agent} advice, {args.mode} mode: {len(counts)} games, average {result['average']:.4f}, "
          f"worst {'X' if result['failures'] else result['worst']}, failures {result['failures']}, "
          f"{len(differ)} differ from the published games; {seconds:.0f} s; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
