"""The likely model's fit: hand-worked weights and likelihoods, the shipped fit against its results file, and
names far below the Times' real answers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from agents.answer_fit import (FEATURES, RecordDay, fit_coefficients, mid_ranks, negative_log_likelihood,
                               repeat_weight, score_days, score_days_given, summary)
from agents.answer_model import FRESH_REPEAT_WEIGHT, LIKELY_COEFFICIENTS, likely_words, load_model, recorded_answers
from wordle.nyt import daily_answers
from wordle import Words, load_words

RESULTS = Path(__file__).resolve().parents[1] / "results" / "answer-model-fit.json"
#: The fit before issue 50's taste list and lexicon (the same command at the commit it names).
BEFORE = RESULTS.with_name("answer-model-fit-before.json")
#: Words the Times would never pick (issue 50): offensive and vulgar words, slang contractions, fragments and
#: British spellings (wordle/data/word-taste.tsv), and -S forms of shorter words (the lexicon's plural column).
NEVER = ("gonna", "wanna", "gotta", "kinda", "sorta", "dunno", "gimme", "lemme", "outta", "bitch", "pussy", "whore",
         "penis", "porno", "boner", "vulva", "labia", "dildo", "nigga", "chink", "squaw", "negro", "jihad", "raped",
         "calif", "xviii", "versa", "metre", "litre", "mould", "odour")
SHORT_PLURALS = ("tries", "menus", "taxis", "kiwis", "gurus", "carbs", "flies", "fries", "spies", "cries", "elves",
                 "tales", "boxes")


def sigmoid(x: float) -> float:
    """The logistic function, written out for the hand-worked figures."""
    return 1 / (1 + math.exp(-x))


def test_weights_on_a_tiny_list_by_hand():
    words = Words.build(("crane", "slate"), ("baked", "colin", "crane", "guano", "slate", "tales"))
    coefficients = {"intercept": 0.0, "zipf": 1.0, "known": 0.0, "name": -1.0, "rare": -2.0, "past": -1.0}
    answers, weights = likely_words(words, coefficients)
    # TALES is a plural of a dictionary word: ruled out. The originals weigh 1; BAKED (common, Zipf 3.92, a
    # past tense): sigmoid(0.92 - 1); COLIN (a name: its frequency not counted): sigmoid(-1); GUANO (common,
    # Zipf 2.61): sigmoid(2.61 - 3).
    assert answers == ("crane", "slate", "baked", "colin", "guano")
    assert weights == pytest.approx([1, 1, sigmoid(0.92 - 1), sigmoid(-1), sigmoid(2.61 - 3)])


def test_given_originals_weigh_the_repeat_weight_after_the_others_on_a_tiny_list():
    words = Words.build(("crane", "slate"), ("colin", "crane", "slate"))
    coefficients = {"intercept": 0.0, "zipf": 1.0, "known": 0.0, "name": -1.0, "rare": -2.0, "past": -1.0}
    answers, weights = likely_words(words, coefficients, given=frozenset({"crane"}), repeat_weight=0.1)
    assert answers == ("slate", "crane", "colin")
    assert weights == pytest.approx([1, 0.1, sigmoid(-1)])


def test_the_repeat_weight_by_hand():
    # 3 days, 4 originals given and 6 not, outside weight 2, no repeat: 0.5 / rho = 3 * 4 / (6 + 4 rho + 2), so
    # 0.5 (8 + 4 rho) = 12 rho: rho = 4 / 10.
    days = [RecordDay(given=4, fresh=6, repeat=False)] * 3
    assert repeat_weight(days, 2.0) == pytest.approx(0.4)


def test_the_fit_by_hand_one_word_outside_the_tier():
    # One tier word seen 3 days, one other word seen 1 day, only an intercept (no prior on it): the likelihood
    # is best where the other word's chance w / (1 + w) is 1/4, so w = 1/3 and the intercept is log(1/2).
    features = np.array([[1.0]])
    coefficients = fit_coefficients(features, tier=1, counts=np.array([3.0, 1.0]))
    assert coefficients[0] == pytest.approx(math.log(0.5), abs=1e-5)


def test_the_gradient_matches_finite_differences():
    rng = np.random.default_rng(0)
    features = np.column_stack([np.ones(6), rng.normal(size=(6, 2))])
    counts = np.array([4.0, 3.0, 0.0, 1.0, 0.0, 2.0, 0.0, 1.0])
    theta = np.array([-1.0, 0.3, -0.2])
    value, gradient = negative_log_likelihood(theta, features, 2, counts)
    for i in range(3):
        step = np.zeros(3)
        step[i] = 1e-6
        numeric = (negative_log_likelihood(theta + step, features, 2, counts)[0] - value) / 1e-6
        assert gradient[i] == pytest.approx(numeric, rel=1e-3, abs=1e-4)


def test_ranks_and_summaries_by_hand():
    assert mid_ranks(np.array([1.0, 1.0, 0.5])).tolist() == [1.5, 1.5, 3.0]
    scores = score_days(("a", "b", "c"), np.array([2.0, 1.0, 0.0]), ["a", "b", "c", "d"])
    assert [s.rank for s in scores] == [1.0, 2.0, None, None]
    assert scores[0].log_chance == pytest.approx(math.log(2 / 3))
    figures = summary(scores)
    assert figures["impossible"] == 2 and figures["mean_log_chance"] is None
    assert figures["mean_log_chance_possible"] == pytest.approx((math.log(2 / 3) + math.log(1 / 3)) / 2)


def test_the_shipped_fit_is_the_results_files_and_its_held_out_figures_recompute():
    record = json.loads(RESULTS.read_text())
    assert record["coefficients"].keys() == set(FEATURES)
    for name, value in record["coefficients"].items():
        assert LIKELY_COEFFICIENTS[name] == pytest.approx(value, abs=1e-6)
    words = load_words()
    assert record["word_lists_sha256"] == words.checksum
    model_answers, weights = likely_words(words)
    scores = score_days(model_answers, weights, record["held_out"]["answers"])
    fitted = record["models"]["likely fitted"]
    assert [s.log_chance for s in scores] == pytest.approx(fitted["log_chances"], abs=1e-6)
    assert [s.rank for s in scores] == fitted["ranks"]
    assert summary(scores)["mean_log_chance"] == pytest.approx(fitted["summary"]["mean_log_chance"], abs=1e-6)
    for model in record["models"].values():  # each summary is its days' figures
        logs = [x for x in model["log_chances"] if x is not None]
        assert model["summary"]["mean_log_chance_possible"] == pytest.approx(sum(logs) / len(logs))
        assert model["summary"]["impossible"] == model["log_chances"].count(None)
    # the fitted model beats the one before it and the uniform lists on the held-out days
    models = record["models"]
    assert models["likely fitted"]["summary"]["impossible"] == 0 < models["original"]["summary"]["impossible"]
    assert fitted["summary"]["mean_log_chance"] > models["all"]["summary"]["mean_log_chance"]
    assert fitted["summary"]["mean_rank"] < models["likely before this fit"]["summary"]["mean_rank"]


@pytest.mark.slow
def test_freshs_repeat_weight_and_held_out_forecasts_recompute_from_the_record():
    record = json.loads(RESULTS.read_text())
    assert FRESH_REPEAT_WEIGHT == pytest.approx(record["fresh_repeat_weight"], abs=1e-6)
    words, days = load_words(), daily_answers()
    originals = frozenset(words.answers)
    given, before, seen = set(), [], []
    for day in days:
        before.append(frozenset(given))
        seen.append(RecordDay(given=len(given & originals), fresh=len(originals - given),
                              repeat=day.word in given and day.word in originals))
        given.add(day.word)
    model_answers, weights = likely_words(words)
    outside, window = float(weights[len(originals):].sum()), record["repeat_window_days"]
    assert repeat_weight(seen[-window:], outside) == pytest.approx(record["fresh_repeat_weight"])
    fresh, held = record["models"]["fresh"], record["held_out"]["answers"]
    first = len(days) - len(held)
    assert [day.word for day in days[first:]] == held
    for i in (first, first + 400, len(days) - 1):  # each day's repeat weight from the days before it alone
        assert fresh["repeat_weights"][i - first] == pytest.approx(repeat_weight(seen[max(0, i - window):i], outside))
    scores = score_days_given(model_answers, weights, len(originals), held, before[first:], fresh["repeat_weights"])
    assert [s.log_chance for s in scores] == pytest.approx(fresh["log_chances"], abs=1e-6)
    assert [s.rank for s in scores] == fresh["ranks"]
    likely = record["models"]["likely fitted"]["summary"]
    assert fresh["summary"]["mean_log_chance"] > likely["mean_log_chance"] + 0.5
    assert fresh["summary"]["mean_rank"] < likely["mean_rank"] / 2


def test_the_fresh_model_puts_its_full_weight_on_the_originals_not_given():
    model = load_model("fresh")
    answers = model.game.words.answers
    given = {day.word for day in daily_answers()}
    assert model.tier == len(set(load_words().answers) - given) and not given & set(answers[:model.tier])
    weight = dict(zip(answers, model.weights / model.weights.max()))
    assert weight["cigar"] == pytest.approx(FRESH_REPEAT_WEIGHT)  # given in 2021 and again in 2026
    for name in ("bantu", "otaku", "liang", "sodom", "colin", "hakim"):
        assert weight[name] < min(weight[w] for w in ("snafu", "guano", "cigar")) / 5, name


def test_names_and_non_words_fall_far_below_the_times_real_answers():
    words = load_words()
    model_answers, weights = likely_words(words)
    weight = dict(zip(model_answers, weights))
    real = min(weight[w] for w in ("snafu", "guano", "balsa", "kazoo", "squid"))
    for name in ("bantu", "otaku", "liang", "sodom", "colin", "hakim", "japan", "peter", "roman", "maria", "jimmy"):
        assert weight[name] < real / 5, name
    assert weight["bayou"] == weight["gland"] == 1.0  # original answers keep full weight


@pytest.mark.parametrize("guesses", [None, "nyt"])
def test_offensive_slang_and_short_plural_words_rank_below_every_recorded_answer(guesses):
    words, given = load_words(guesses=guesses), recorded_answers()
    for model in (likely_words(words), likely_words(words, given=given, repeat_weight=FRESH_REPEAT_WEIGHT)):
        weight = dict(zip(*model))
        lowest = min(weight[word] for word in given)  # every recorded answer is possible
        assert lowest > 0
        for word in NEVER + SHORT_PLURALS:
            assert weight.get(word, 0.0) < lowest, word
        assert not set(SHORT_PLURALS) & set(weight)  # ruled out, not merely light


def test_the_held_out_days_fare_better_than_before_the_taste_list():
    after, before = json.loads(RESULTS.read_text()), json.loads(BEFORE.read_text())
    assert after["held_out"]["answers"] == before["held_out"]["answers"]
    for name in ("likely fitted", "fresh"):
        now, then = after["models"][name]["summary"], before["models"][name]["summary"]
        assert now["impossible"] == 0 and now["mean_log_chance"] > then["mean_log_chance"]
        assert now["mean_rank"] < then["mean_rank"]
