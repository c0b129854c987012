"""Calibrate the review's skill to NYT WordleBot's scale on every published WordleBot review found.

Run: python benchmarks/calibrate_skill.py
Writes results/skill-calibration.json: each game (its source URL), WordleBot's skill, each guess's cost against the
best found (expected guesses, under the default `likely` model and today's guesses, the review's own figures), the
game's skill by the old linear scale and by the shipped one (`agents.review.skill_of`), the mean absolute difference
from WordleBot of each, and the fit: which curve maps a guess's cost to WordleBot's 0-99, chosen by the least mean
absolute difference over the games, and that choice's leave-one-out difference (the whole choice refitted without
each game in turn, then scored on it): what to expect on a game not used to fit.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_model import load_model  # noqa: E402
from agents.review import TOP, parse_game, review_game  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402

BLOG = "speakingincaps.blogspot.com, a player's posts of their daily WordleBot results: "
#: (puzzle, answer, guesses, WordleBot's skill, the page it was published on). Every WordleBot review found published
#: with its words (searched 28 November 2026); the page is the one holding the post (a month's or the blog's front).
GAMES = [
    (940, "lunch", ["shone", "caput", "lunch"], 86,
     BLOG + "http://speakingincaps.blogspot.com/2024/01/one-in-17-million.html (16 January 2024; also issue 29)"),
    (949, "relic", ["shone", "trail", "relic"], 99,
     BLOG + "http://speakingincaps.blogspot.com/2024/01 (post of 25 January 2024)"),
    (950, "block", ["shone", "fraud", "wooly", "block"], 87,
     BLOG + "http://speakingincaps.blogspot.com/2024/01 (post of 26 January 2024)"),
    (956, "bulky", ["shone", "trail", "lumpy", "fully", "bulky"], 93,
     BLOG + "http://speakingincaps.blogspot.com/2024/02/ (post of 1 February 2024)"),
    (983, "sense", ["shone", "since", "sense"], 93,
     BLOG + "http://speakingincaps.blogspot.com/2024/02/ (post of 28 February 2024)"),
    (1005, "lingo", ["shone", "gator", "bingo", "lingo"], 99,
     BLOG + "http://speakingincaps.blogspot.com/2024/03 (post of 21 March 2024)"),
    (1006, "shade", ["shone", "plead", "shade"], 99,
     BLOG + "http://speakingincaps.blogspot.com/2024/03 (post of 22 March 2024)"),
    (1049, "ebony", ["shone", "ebony"], 99,
     BLOG + "https://speakingincaps.blogspot.com (post of 4 May 2024)"),
    (1196, "faith", ["shone", "laity", "faith"], 99,
     BLOG + "https://speakingincaps.blogspot.com (post of 28 September 2024)"),
    (1258, "chock", ["shone", "pacer", "chock"], 97,
     BLOG + "http://speakingincaps.blogspot.com/2024/11/my-thank-sgiving-wordle.html (29 November 2024)"),
    (1349, "lodge", ["shone", "vogue", "lodge"], 89,
     BLOG + "https://speakingincaps.blogspot.com (post of 28 February 2025)"),
]


def linear(cost: float, zero: float) -> int:
    """0-99 falling linearly from 99 at no cost to 0 at `zero` expected guesses (the old scale: zero = 1)."""
    return int(round(TOP * (1.0 - min(max(cost, 0.0) / zero, 1.0)))) if math.isfinite(cost) else 0


def exponential(cost: float, scale: float) -> int:
    """0-99 as 99 * exp(-cost / scale)."""
    return int(round(TOP * math.exp(-max(cost, 0.0) / scale))) if math.isfinite(cost) else 0


CURVES = {"linear": (linear, [round(0.5 + 0.05 * i, 2) for i in range(71)]),
          "exponential": (exponential, [round(0.1 + 0.02 * i, 2) for i in range(95)])}


def game_score(costs: list[float | None], curve, parameter: float, first: bool) -> int:
    """A game's skill under a curve: the mean of its scored guesses' (None: not scored; "lost": answers given up,
    skill 0), the first left out unless `first`."""
    skills = [curve(math.inf if c == "lost" else c, parameter) for i, c in enumerate(costs)
              if c is not None and (first or i > 0)]
    return int(round(sum(skills) / len(skills))) if skills else TOP


def mean_difference(rows: list[dict], curve, parameter: float, first: bool) -> float:
    """The mean absolute difference from WordleBot over the rows."""
    return sum(abs(game_score(r["costs"], curve, parameter, first) - r["wordlebot_skill"]) for r in rows) / len(rows)


def fit(rows: list[dict]) -> tuple[str, float, bool, float]:
    """The curve, parameter and first-guess rule with the least mean absolute difference (ties: the linear curve,
    the first guess counted, the parameter nearest the old scale's)."""
    best = None
    for name, (curve, grid) in CURVES.items():
        for first in (True, False):
            for parameter in grid:
                key = (round(mean_difference(rows, curve, parameter, first), 9), name != "linear", not first,
                       abs(parameter - 1.0))
                if best is None or key < best[0]:
                    best = (key, name, parameter, first)
    _, name, parameter, first = best
    return name, parameter, first, mean_difference(rows, CURVES[name][0], parameter, first)


def main() -> None:
    """Review each game, fit the curve, and write the calibration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="likely")
    parser.add_argument("--guesses", default="nyt")
    args = parser.parse_args()
    model = load_model(args.model, args.guesses)
    rows = []
    for number, answer, guesses, wordlebot, source in GAMES:
        started = time.perf_counter()
        review = review_game(model, parse_game(model.game, guesses, answer=answer), answer=answer, puzzle=number)
        costs = [(s.cost if math.isfinite(s.cost) else "lost") if s.scored else None for s in review.steps]
        rows.append({"puzzle": number, "answer": answer, "guesses": guesses, "wordlebot_skill": wordlebot,
                     "source": source, "costs": costs, "skill_shipped": review.skill,
                     "skill_shipped_range": list(review.skill_range),
                     "skill_linear_before": game_score(costs, linear, 1.0, True),
                     "step_skills_shipped": [s.skill if s.scored else None for s in review.steps],
                     "best_found": [model.game.words.guesses[s.best_known if s.best_known is not None
                                                             else s.best_guess] for s in review.steps],
                     "best_shown": [model.game.words.guesses[s.best_guess] for s in review.steps],
                     "scored": [s.scored for s in review.steps],
                     "seconds": round(time.perf_counter() - started, 1)})
        print(number, answer, wordlebot, rows[-1]["skill_linear_before"], review.skill, flush=True)
    name, parameter, first, difference = fit(rows)
    held_out = []
    for i, row in enumerate(rows):
        rest = rows[:i] + rows[i + 1:]
        n, p, f, _ = fit(rest)
        held_out.append(abs(game_score(row["costs"], CURVES[n][0], p, f) - row["wordlebot_skill"]))
    shipped = [abs(r["skill_shipped"] - r["wordlebot_skill"]) for r in rows]
    before = [abs(r["skill_linear_before"] - r["wordlebot_skill"]) for r in rows]
    record = results_record(f"python benchmarks/calibrate_skill.py --model {args.model} --guesses {args.guesses}",
                            None, model.game.words.checksum)
    record.update({
        "note": "the machine (2 cores) was shared with other work; the figures do not depend on it (node budgets)",
        "model": args.model, "guesses": args.guesses, "games": rows,
        "fit": {"curve": name, "parameter": parameter, "first_guess_counted": first,
                "mean_absolute_difference": round(difference, 3),
                "leave_one_out_mean_absolute_difference": round(sum(held_out) / len(held_out), 3),
                "leave_one_out_differences": held_out},
        "mean_absolute_difference_linear_before": round(sum(before) / len(before), 3),
        "mean_absolute_difference_shipped": round(sum(shipped) / len(shipped), 3),
        "largest_difference_shipped": max(shipped),
    })
    write_atomically(ROOT / "results" / "skill-calibration.json", json.dumps(record, indent=1) + "\n")
    print(json.dumps(record["fit"]), record["mean_absolute_difference_linear_before"],
          record["mean_absolute_difference_shipped"])


if __name__ == "__main__":
    main()
