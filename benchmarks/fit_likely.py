"""Fit the `likely` answer model on the Times' answers to the end of 2024 and measure it on 2025 and 2026.

Run: python benchmarks/fit_likely.py
Writes results/answer-model-fit.json: the coefficients, and for `original`, the `likely` model before
this fit (the wordfreq prior), the fitted `likely`, `fresh` and `all`, each held-out day's answer with its log
chance and rank, and the summaries (agents/answer_fit.py defines them). `fresh` is scored as a forecast: each
held-out day, the originals given before it weigh the repeat weight fitted on the REPEAT_WINDOW days before it.
Also the outside-the-original-list share by half year, and the repeat weight fitted on the record's last
REPEAT_WINDOW days, which `fresh` ships. The shipped coefficients and repeat weight
(agents/answer_model.LIKELY_COEFFICIENTS, FRESH_REPEAT_WEIGHT) must equal the fitted ones:
tests/test_answer_fit.py checks it.
"""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_fit import (FEATURES, PRIOR_SD, RecordDay, fit_coefficients, repeat_weight, score_days,  # noqa: E402
                               score_days_given, summary)
from agents.answer_model import UNFIT_WEIGHT, likely_features, likely_words, zipf, is_short_plural  # noqa: E402
from heuristics.prior import word_prior  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import load_words  # noqa: E402
from wordle.nyt import EDITOR_START, DailyAnswer, daily_answers  # noqa: E402

TRAIN_END = datetime.date(2024, 12, 31)
#: The repeat weight is fitted on this many recorded days before the day it serves (the Times' habits change:
#: no answer repeated before February 2026).
REPEAT_WINDOW = 365
#: The half-lives (days) of the recency-weighted fits measured beside the plain one (a training day of age a
#: counts 0.5 ** (a / half-life)).
HALF_LIVES = (365, 90)
OUTPUT = ROOT / "results" / "answer-model-fit.json"


def given_before(days: list[DailyAnswer]) -> list[frozenset[str]]:
    """For each recorded day, the answers given on the days before it."""
    given, before = set(), []
    for day in days:
        before.append(frozenset(given))
        given.add(day.word)
    return before


def record_days(days: list[DailyAnswer], before: list[frozenset[str]], originals: frozenset[str]) -> list[RecordDay]:
    """Each recorded day as the repeat weight sees it (agents/answer_fit.RecordDay)."""
    return [RecordDay(given=len(given & originals), fresh=len(originals - given),
                      repeat=day.word in given and day.word in originals) for day, given in zip(days, before)]


def outside_by_half_year(days: list[DailyAnswer], originals: frozenset[str]) -> dict[str, dict]:
    """Per half year since the editor began: days, answers outside the original list, repeats."""
    halves: dict[str, dict] = {}
    for day, given in zip(days, given_before(daily_answers())[-len(days):]):
        half = halves.setdefault(f"{day.date.year}H{1 + (day.date.month - 1) // 6}",
                                 {"days": 0, "outside_original": 0, "repeats": 0})
        half["days"] += 1
        half["outside_original"] += day.word not in originals
        half["repeats"] += day.word in given
    return halves


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
    model_words, features, unfit = likely_features(words)
    index = {word: i for i, word in enumerate(model_words)}
    tier = len(words.answers)
    fitted_rows = np.concatenate([np.ones(tier, dtype=bool), ~unfit])  # the unfit words weigh UNFIT_WEIGHT
    fixed = UNFIT_WEIGHT * float(unfit.sum())

    def fit(half_life: float | None = None) -> np.ndarray:
        """The coefficients fitted on the training days, each counting 1 or, with a half-life, by its age."""
        counts = np.zeros(len(model_words))
        for day in train:
            counts[index[day.word]] += 1.0 if half_life is None else 0.5 ** ((TRAIN_END - day.date).days / half_life)
        if counts[~fitted_rows].any():
            raise SystemExit("an answer of the training days is a word the taste list rules out")
        return fit_coefficients(features[~unfit], tier, counts[fitted_rows], fixed=fixed)

    coefficients = fit()
    recency = {f"likely fitted, half-life {days} days": fit(days) for days in HALF_LIVES}
    fitted_words, fitted_weights = likely_words(words, coefficients=dict(zip(FEATURES, coefficients)))
    originals = frozenset(words.answers)
    record = daily_answers()
    before = given_before(record)
    seen = record_days(record, before, originals)
    outside = float(fitted_weights[tier:].sum())
    first_held = len(record) - len(held_out)
    held_rhos = [repeat_weight(seen[max(0, i - REPEAT_WINDOW):i], outside) for i in range(first_held, len(record))]
    shipped_rho = repeat_weight(seen[-REPEAT_WINDOW:], outside)
    given = frozenset(day.word for day in record)
    models = {
        "original": (tuple(words.answers), np.ones(tier)),
        "likely before this fit": before_this_fit(words),
        "likely fitted": (fitted_words, fitted_weights),
        "fresh": (fitted_words, fitted_weights),
        "all": (tuple(words.guesses), np.ones(len(words.guesses))),
        **{name: likely_words(words, coefficients=dict(zip(FEATURES, theta))) for name, theta in recency.items()},
    }
    answers = [day.word for day in held_out]
    assert [day.word for day in record[first_held:]] == answers
    result = results_record("python benchmarks/fit_likely.py", None, words.checksum)
    result.update({
        "train": {"from": EDITOR_START.isoformat(), "to": TRAIN_END.isoformat(), "days": len(train),
                  "outside_original": sorted({d.word for d in train} - set(words.answers))},
        "held_out": {"from": held_out[0].date.isoformat(), "to": held_out[-1].date.isoformat(),
                     "days": len(held_out), "dates": [d.date.isoformat() for d in held_out], "answers": answers,
                     "outside_original": sorted(set(answers) - set(words.answers))},
        "prior_sd": PRIOR_SD,
        "unfit_weight": UNFIT_WEIGHT,
        "unfit_words": int(unfit.sum()),
        "coefficients": {name: float(value) for name, value in zip(FEATURES, coefficients)},
        "recency_weighted_coefficients": {name: dict(zip(FEATURES, map(float, theta))) for name, theta in recency.items()},
        "outside_share": float(fitted_weights[tier:].sum() / fitted_weights.sum()),
        "by_half_year": outside_by_half_year(daily_answers(EDITOR_START), originals),
        "repeat_window_days": REPEAT_WINDOW,
        "fresh_repeat_weight": shipped_rho,
        "fresh_outside_share_at_record_end": outside / (len(originals - given) + shipped_rho * len(originals & given)
                                                        + outside),
        "models": {},
    })
    for name, (model_words_, weights) in models.items():
        scores = score_days(model_words_, weights, answers)
        if name == "fresh":
            scores = score_days_given(model_words_, weights, tier, answers, before[first_held:], held_rhos)
        outside = [s.rank for s in scores if s.word not in words.answer_index and s.rank is not None]
        result["models"][name] = {
            "answers": int(np.count_nonzero(weights)),
            "summary": summary(scores),
            "median_rank_outside_original": float(np.median(outside)) if outside else None,
            "log_chances": [s.log_chance if s.rank is not None else None for s in scores],
            "ranks": [s.rank for s in scores],
            **({"repeat_weights": held_rhos} if name == "fresh" else {}),
        }
        print(name, summary(scores), result["models"][name]["median_rank_outside_original"])
    print("coefficients", result["coefficients"], "fresh repeat weight", shipped_rho,
          "fresh outside share", result["fresh_outside_share_at_record_end"])
    write_atomically(OUTPUT, (json.dumps(result, indent=1, allow_nan=True) + "\n").encode())


if __name__ == "__main__":
    main()
