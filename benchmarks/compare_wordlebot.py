"""The review's game skill beside NYT WordleBot's on games whose WordleBot analysis was published.

Run: python benchmarks/compare_wordlebot.py
Writes results/wordlebot-comparison.json: for each game (its source named), WordleBot's skill, ours (the mean of
the guesses' skills) and the sum-of-costs figure it replaced, under the `likely` and `original` answer models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_model import load_model  # noqa: E402
from agents.review import parse_game, review_game, skill_of  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402

BLOG = "speakingincaps.blogspot.com (a player's posts of their WordleBot results)"
#: (puzzle, answer, guesses, WordleBot's skill, where it was published)
GAMES = [
    (956, "bulky", ["shone", "trail", "lumpy", "fully", "bulky"], 93, BLOG + ", 1 February 2024"),
    (983, "sense", ["shone", "since", "sense"], 93, BLOG + ", 28 February 2024"),
    (1258, "chock", ["shone", "pacer", "chock"], 97, BLOG + ", 29 November 2024"),
    (1349, "lodge", ["shone", "vogue", "lodge"], 89, BLOG + ", 28 February 2025"),
    (None, "lunch", ["shone", "caput", "lunch"], 86, "issue 29 (a player's WordleBot result)"),
]


def main() -> None:
    """Review each game under each model and write the comparison."""
    rows = []
    models = {name: load_model(name) for name in ("likely", "original")}
    for number, answer, guesses, wordlebot, source in GAMES:
        row = {"puzzle": number, "answer": answer, "guesses": guesses, "wordlebot_skill": wordlebot,
               "source": source}
        for name, model in models.items():
            review = review_game(model, parse_game(model.game, guesses, answer=answer), answer=answer)
            low, high = review.skill_range
            row[name] = {"skill": review.skill, "skill_text": review.skill_text(), "skill_low": low,
                         "skill_high": high, "cost": review.cost, "sum_of_costs_skill": skill_of(review.cost),
                         "step_skills": [s.skill_text() for s in review.steps]}
        rows.append(row)
        print(answer, wordlebot, {name: row[name]["skill_text"] for name in models})
    record = results_record("python benchmarks/compare_wordlebot.py", None, models["original"].game.words.checksum)
    record["games"] = rows
    for name in models:
        record[f"mean_absolute_difference_{name}"] = sum(abs(r[name]["skill"] - r["wordlebot_skill"])
                                                         for r in rows) / len(rows)
    write_atomically(ROOT / "results" / "wordlebot-comparison.json", json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
