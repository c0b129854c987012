"""The post-game review's speed and how many of its values are proved, over realistic games.

Run: python benchmarks/bench_review.py [--answers-sampled 70] [--seed 0] [--model original] [--guesses nyt] [--out FILE]

Games: a seeded sample of the 2315 answers (those the model holds at full weight), each played by three players:
- person: a person-like player: a common opener (one of PERSON_OPENERS, drawn per game), then each
  time one of the three commonest words (by the wordfreq prior) that can still be the answer;
- entropy and optimal: the published tournament's games of those agents
  (results/published/tournament-depth-2/games.csv).
Each game is reviewed as `review --answer ...` does it (agents.review.review_game), each with a fresh
Valuer (nothing carried over from the game before), under the chosen answer model over the chosen guess
list (`--guesses nyt`: the Times' 14855 of today; the games, played on the 2022 list, are all allowed
there). Writes results/bench_review-MODEL.json (results/bench_review-GUESSES-MODEL.json with --guesses,
or --out): the time per review (median, p95, max; wall and CPU seconds: the process's user and system
time, which a busy machine inflates far less than wall time), the share of values
proved (each guess's and each best guess's), the mean skill and luck per player, every game's
figures (with what its review shows: each step's values, best guess and skill), with the command, seed,
word-list checksum, commit, machine and the load average sampled during the run (the machine is shared: wall times include whatever else runs).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents.answer_model import MODELS, load_model  # noqa: E402
from agents.model_value import VALUE_BUDGET, Valuer, budget_text  # noqa: E402
from agents.review import review_game  # noqa: E402
from heuristics.prior import word_prior  # noqa: E402
from wordle import Wordle  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle.book import opening_book  # noqa: E402
from wordle.words import NAMED_GUESSES  # noqa: E402

PUBLISHED = ROOT / "results" / "published" / "tournament-depth-2" / "games.csv"
#: Openers people commonly use.
PERSON_OPENERS = ("crane", "slate", "adieu", "audio", "stare", "raise", "arise", "house", "trace", "crate")


def person_game(game: Wordle, answer: int, rng: np.random.Generator, prior: np.ndarray) -> list[str]:
    """A person-like game: a common opener, then one of the three commonest words still possible."""
    words = game.words
    guess = words.guess_index[PERSON_OPENERS[rng.integers(len(PERSON_OPENERS))]]
    state = game.initial_state()
    played = []
    while True:
        played.append(words.guesses[guess])
        pattern = int(game.matrix[guess, answer])
        if pattern == 242 or len(played) == 6:
            return played
        state = game.step(state, guess, pattern)
        rows = words.answer_rows[state.candidates]
        commonest = rows[np.argsort(-prior[rows], kind="stable")[:3]]
        guess = int(commonest[rng.integers(len(commonest))])


def shown(review) -> list[dict]:
    """What the review shows of each step: the played guess's value, the best guess and its value, the skill (the
    figures a faster review must keep identical)."""
    words = review.model.game.words.guesses
    return [{"played": step.played.data(), "best_guess": words[step.best_guess], "best": step.best.data(),
             "skill": step.skill_text(), "skill_range": [step.skill_low, step.skill_high]} for step in review.steps]


def published_games(agent: str) -> dict[str, list[str]]:
    """answer -> guesses of an agent's published normal-mode tournament games."""
    with PUBLISHED.open(encoding="utf-8") as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        return {row["answer"]: row["guesses"].split() for row in rows if row["agent"] == agent
                and row["mode"] == "normal"}


class LoadSampler:
    """Samples the 1-minute load average every few seconds in a background thread."""

    def __init__(self, every: float = 5.0):
        self.samples: list[float] = []
        self.every = every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        """Sample until stopped."""
        while not self.stop.is_set():
            self.samples.append(os.getloadavg()[0])
            self.stop.wait(self.every)


def weighted_books(model) -> dict[str, list[str] | None]:
    """Per mode, the openers of the weighted opening book the review reads for this model (None: none is read)."""
    if model.uniform:
        return {"normal": None, "hard": None}
    valuer = Valuer(model)
    found = {}
    for mode in ("normal", "hard"):
        book = valuer.book(model.initial_state(mode == "hard"))
        found[mode] = None if book is None else sorted(model.game.words.guesses[g] for g in book.high)
    return found


def main() -> int:
    """Review every sampled game by every player and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers-sampled", type=int, default=70, help="answers sampled (default 70: 210 games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", choices=tuple(MODELS), default="original")
    parser.add_argument("--guesses", choices=tuple(NAMED_GUESSES), default=None,
                        help="the guess list the model is over (default: the 12972 of 2022)")
    parser.add_argument("--out", type=Path, default=None, help="the results file (default: named by model and list)")
    args = parser.parse_args()
    model = load_model(args.model, args.guesses)
    # the provenance (commit, uncommitted changes) as the run starts, so later edits do not mislabel it
    record = results_record("python benchmarks/bench_review.py " + " ".join(sys.argv[1:]), args.seed,
                            model.game.words.checksum)
    base = load_model("original")
    game = base.game
    prior = word_prior(game.words.guesses)
    rng = np.random.default_rng(args.seed)
    held = set(model.game.words.answers[:model.tier])  # the original answers the model holds at full weight
    pool = [answer for answer, word in enumerate(game.words.answers) if word in held]
    sample = sorted(pool[i] for i in rng.choice(len(pool), args.answers_sampled, replace=False).tolist())
    published = {agent: published_games(agent) for agent in ("entropy", "optimal")}
    sampler = LoadSampler()
    sampler.thread.start()
    rows = []
    started = time.perf_counter()
    for number, answer in enumerate(sample, start=1):
        word = game.words.answers[answer]
        players = {"person": person_game(game, answer, rng, prior), "entropy": published["entropy"][word],
                   "optimal": published["optimal"][word]}
        for player, guesses in players.items():
            steps = [(model.game.words.guess_index[g], int(model.game.matrix[model.game.words.guess_index[g],
                                                                            model.game.words.answer_index[word]]))
                     for g in guesses]
            cpu = time.process_time()
            review = review_game(model, steps, answer=word)
            cpu = time.process_time() - cpu
            values = review.values
            rows.append({"player": player, "answer": word, "guesses": " ".join(guesses),
                         "seconds": round(review.seconds, 3), "cpu_s": round(cpu, 3), "values": len(values),
                         "proved": sum(v.proved for v in values), "skill": review.skill, "luck": review.luck,
                         "step_skills": [s.skill for s in review.steps], "shown": shown(review)})
        done = rows[-3:]
        print(f"{number:3}/{len(sample)} {word}: " + "  ".join(
            f"{r['player']} {r['seconds']:.2f} s ({r['cpu_s']:.2f} s CPU) {r['proved']}/{r['values']} proved "
            f"skill {r['skill']}"
            for r in done), flush=True)
    sampler.stop.set()
    seconds = np.array([r["seconds"] for r in rows])
    cpu_seconds = np.array([r["cpu_s"] for r in rows])
    proved = sum(r["proved"] for r in rows) / sum(r["values"] for r in rows)
    players = {p: {"games": sum(r["player"] == p for r in rows),
                   "median_s": round(float(np.median([r["seconds"] for r in rows if r["player"] == p])), 3),
                   "cpu_median_s": round(float(np.median([r["cpu_s"] for r in rows if r["player"] == p])), 3),
                   "proved_share": round(sum(r["proved"] for r in rows if r["player"] == p)
                                         / sum(r["values"] for r in rows if r["player"] == p), 4),
                   "mean_skill": round(float(np.mean([r["skill"] for r in rows if r["player"] == p])), 1),
                   "mean_luck": round(float(np.mean([r["luck"] for r in rows if r["player"] == p])), 1)}
               for p in ("person", "entropy", "optimal")}
    result = {**record, "model": args.model, "guesses": args.guesses or "original",
              "word_lists": {"answers": model.tier, "guesses": len(model.game.words.guesses)},
              "book": {mode: opening_book(tuple(model.tier_game.words.guesses), model.tier_game.words.checksum,
                                          mode == "hard", 6).best is not None for mode in ("normal", "hard")},
              "weighted_book": weighted_books(model),
              "note": "the machine (2 cores) is shared with other jobs: wall times include whatever else ran",
              "budget_per_position": {"normal": budget_text(VALUE_BUDGET, False), "hard": budget_text(VALUE_BUDGET, True)},
              "load_average": {"min": min(sampler.samples), "mean": round(float(np.mean(sampler.samples)), 2),
                               "max": max(sampler.samples), "samples": len(sampler.samples)},
              "games": len(rows), "wall_s": round(time.perf_counter() - started, 1),
              "median_s": round(float(np.median(seconds)), 3), "p95_s": round(float(np.percentile(seconds, 95)), 3),
              "max_s": round(float(seconds.max()), 3), "cpu_median_s": round(float(np.median(cpu_seconds)), 3),
              "cpu_p95_s": round(float(np.percentile(cpu_seconds, 95)), 3),
              "cpu_max_s": round(float(cpu_seconds.max()), 3), "cpu_s": round(float(cpu_seconds.sum()), 1),
              "proved_share": round(proved, 4), "players": players,
              "rows": rows}
    out = args.out or ROOT / "results" / (f"bench_review-{args.model}.json" if args.guesses is None
                                          else f"bench_review-{args.guesses}-{args.model}.json")
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"{len(rows)} reviews: median {result['median_s']} s (CPU {result['cpu_median_s']} s), p95 {result['p95_s']} s, {proved:.1%} of values "
          f"proved; load average {result['load_average']['mean']} (max {result['load_average']['max']}); wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
