"""Fit the `likely` answer model on the Times' answers to the end of 2024 and measure it on 2025 and 2026.

Run: python benchmarks/fit_likely.py
Writes results/answer-model-fit.json: the coefficients, and for `original`, the `likely` model before
this fit (the wordfreq prior), the fitted `likely` and `all`, each held-out day's answer with its log chance
and rank, and the summaries (agents/answer_fit.py defines them). The shipped coefficients
(agents/answer_model.LIKELY_COEFFICIENTS) must equal the fitted ones: tests/test_answer_fit.py checks it.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_fit import FEATURES, PRIOR_SD, fit_coefficients, score_days, summary  # noqa: E402
from agents.answer_model import likely_features, likely_words, zipf, is_short_plural  # noqa: E402
from heuristics.prior import word_prior  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import load_words  # noqa: E402
from wordle.nyt import EDITOR_START, daily_answers  # noqa: E402

TRAIN_END = datetime.date(2024, 12, 31)
OUTPUT = ROOT / "results" / "answer-model-fit.json"


def before_this_fit(words) -> tuple[tuple[str, ...], np.ndarray]:
    """The likely model as it was before this fit: the wordfreq-rank prior, and the wordfreq plural rule."""
    answers = set(words.answers)
    rest = [word for word in words.guesses if word not in answers and not is_short_plural(word, zipf)]
    prior = word_prior(words.guesses)
    weights = np.concatenate([np.ones(len(words.answers)), prior[[words.guess_index[w] for w in rest]]])
    return tuple(words.answers) + tuple(rest), weights


def main() -> None:
    """Fit, measure, write."""
    import json

    words = load_words()
    train = daily_answers(EDITOR_START, TRAIN_END)
    held_out = daily_answers(TRAIN_END + datetime.timedelta(days=1))
    model_words, features = likely_features(words)
    index = {word: i for i, word in enumerate(model_words)}
    counts = np.zeros(len(model_words))
    for day in train:
        counts[index[day.word]] += 1
    tier = len(words.answers)
    coefficients = fit_coefficients(features, tier, counts)
    fitted_words, fitted_weights = likely_words(words, coefficients=dict(zip(FEATURES, coefficients)))
    models = {
        "original": (tuple(words.answers), np.ones(tier)),
        "likely before this fit": before_this_fit(words),
        "likely fitted": (fitted_words, fitted_weights),
        "all": (tuple(words.guesses), np.ones(len(words.guesses))),
    }
    answers = [day.word for day in held_out]
    record = results_record("python benchmarks/fit_likely.py", None, words.checksum)
    record.update({
        "train": {"from": EDITOR_START.isoformat(), "to": TRAIN_END.isoformat(), "days": len(train),
                  "outside_original": sorted({d.word for d in train} - set(words.answers))},
        "held_out": {"from": held_out[0].date.isoformat(), "to": held_out[-1].date.isoformat(),
                     "days": len(held_out), "dates": [d.date.isoformat() for d in held_out], "answers": answers,
                     "outside_original": sorted(set(answers) - set(words.answers))},
        "prior_sd": PRIOR_SD,
        "coefficients": {name: float(value) for name, value in zip(FEATURES, coefficients)},
        "outside_share": float(fitted_weights[tier:].sum() / fitted_weights.sum()),
        "models": {},
    })
    for name, (model_words_, weights) in models.items():
        scores = score_days(model_words_, weights, answers)
        outside = [s.rank for s in scores if s.word not in words.answer_index and s.rank is not None]
        record["models"][name] = {
            "answers": int(np.count_nonzero(weights)),
            "summary": summary(scores),
            "median_rank_outside_original": float(np.median(outside)) if outside else None,
            "log_chances": [s.log_chance if s.rank is not None else None for s in scores],
            "ranks": [s.rank for s in scores],
        }
        print(name, summary(scores), record["models"][name]["median_rank_outside_original"])
    print("coefficients", record["coefficients"])
    write_atomically(OUTPUT, (json.dumps(record, indent=1, allow_nan=True) + "\n").encode())


if __name__ == "__main__":
    main()
