"""Fitting the `likely` answer model to the Times' real answers, and measuring any model on held-out days.

The model (agents/answer_model.py): an original answer weighs 1; a word the Times' taste rules
out (offensive, vulgar, slang, a fragment) weighs a fixed UNFIT_WEIGHT, not fitted; any other
allowed word the plural rule leaves weighs sigmoid(coefficients · features(word)), below 1, where the features
are a word's kind from wordle/data/word-kinds.tsv: its Zipf frequency less 3 (for a dictionary
word only: a name's or a non-word's frequency counts other uses), whether a larger dictionary
than the common one is needed (`known`), whether it is only a capitalised name (`name`) or in no
dictionary (`rare`), and whether it is a past tense (plurals of dictionary words are ruled out
before). A day's answer has chance weight / total weight.

The fit maximises the log-likelihood of the Times' answers over the training days (from
7 November 2022, when its editor began choosing them), with a Gaussian prior of standard
deviation PRIOR_SD on each coefficient but the intercept (a kind never seen among the answers,
such as a name, then gets a large but finite penalty rather than minus infinity).

The `fresh` model also weighs an original answer already given at rho (`repeat_weight`): its
maximum-likelihood value over some days, where each day's answer was a repeat with chance
rho * given / (not given + rho * given + outside weight), with half a repeat added so that days
without any give a small rho rather than 0.

Measures of a model on some days (higher log-likelihood is better, lower rank is better):
the mean natural log of the chance it gave the real answer at the start of the day, and the
answer's rank among the possible answers by weight (1: the likeliest; tied words share the
mean of their ranks, so a uniform list of n puts each at (n + 1) / 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wordle.words import WordKind

#: The features, in the coefficients' order.
FEATURES = ("intercept", "zipf", "known", "name", "rare", "past")
#: The prior's standard deviation on every coefficient but the intercept.
PRIOR_SD = 3.0


def feature_vector(kind: WordKind) -> np.ndarray:
    """A word's features (FEATURES' order)."""
    dictionary_word = kind.kind in ("common", "known")
    return np.array([1.0, (kind.zipf - 3.0) * dictionary_word, kind.kind == "known", kind.kind == "name",
                     kind.kind == "rare", kind.past], dtype=np.float64)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, 1 / (1 + exp(-x))."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -700.0, 700.0)))


def negative_log_likelihood(coefficients: np.ndarray, features: np.ndarray, tier: int, counts: np.ndarray,
                            prior_sd: float = PRIOR_SD, fixed: float = 0.0) -> tuple[float, np.ndarray]:
    """The penalised negative log-likelihood of the answers seen, and its gradient.

    Args:
        coefficients: one per feature.
        features: one row per fitted word outside the tier (the words tier .. end of the model).
        tier: how many words weigh 1.
        counts: how many training days each model word (tier first) was the answer.
        prior_sd: the Gaussian prior's standard deviation (the intercept has none).
        fixed: the total weight of the model's words of a fixed weight, not fitted (never an answer seen).
    """
    weights = sigmoid(features @ coefficients)
    total = tier + weights.sum() + fixed
    days = counts.sum()
    outside = counts[tier:]
    value = -(outside @ np.log(weights)) + days * math.log(total)
    # d log w / d theta = (1 - w) x; d total / d theta = sum w (1 - w) x
    gradient = -(outside * (1.0 - weights)) @ features + days * ((weights * (1.0 - weights)) @ features) / total
    penalty = coefficients[1:] / prior_sd ** 2
    value += 0.5 * float(coefficients[1:] @ penalty)
    gradient[1:] += penalty
    return float(value), gradient


def fit_coefficients(features: np.ndarray, tier: int, counts: np.ndarray, prior_sd: float = PRIOR_SD,
                     fixed: float = 0.0) -> np.ndarray:
    """The coefficients that maximise the penalised likelihood (see negative_log_likelihood)."""
    from scipy.optimize import minimize  # imported here: only the fit needs it

    start = np.zeros(features.shape[1])
    start[0] = -3.0
    result = minimize(negative_log_likelihood, start, args=(features, tier, counts, prior_sd, fixed), jac=True,
                      method="L-BFGS-B", options={"maxiter": 1000, "gtol": 1e-9})
    if not result.success:
        raise RuntimeError(f"the fit did not converge: {result.message}")
    return result.x


def mid_ranks(weights: np.ndarray) -> np.ndarray:
    """Each word's rank by descending weight, 1 for the heaviest, tied words sharing the mean of their ranks.

    >>> mid_ranks(np.array([1.0, 0.5, 1.0, 0.0])).tolist()
    [1.5, 3.0, 1.5, 4.0]
    """
    order = np.sort(weights)[::-1]
    first = np.searchsorted(-order, -weights, side="left")  # heavier words than this one
    last = np.searchsorted(-order, -weights, side="right")  # heavier or as heavy
    return (first + last + 1) / 2.0


@dataclass(frozen=True)
class DayScore:
    """One day's answer under one model: its log chance (-inf if impossible) and rank (None if impossible)."""

    word: str
    log_chance: float
    rank: float | None


def score_days(words: tuple[str, ...], weights: np.ndarray, answers: list[str]) -> list[DayScore]:
    """Each day's answer's log chance and rank under a model of `words` with raw `weights` (0: impossible)."""
    index = {word: i for i, word in enumerate(words)}
    chances = weights / weights.sum()
    possible = weights > 0
    ranks = mid_ranks(weights[possible])
    rank_of = dict(zip(np.flatnonzero(possible).tolist(), ranks.tolist()))
    scores = []
    for word in answers:
        i = index.get(word)
        if i is None or not possible[i]:
            scores.append(DayScore(word, -math.inf, None))
        else:
            scores.append(DayScore(word, math.log(chances[i]), rank_of[i]))
    return scores


def summary(scores: list[DayScore]) -> dict:
    """A model's figures over some days: mean log chance (of all, None if any is impossible, and of the possible
    ones), median and mean rank of the possible ones, and how many answers it could not produce."""
    possible = [s for s in scores if s.rank is not None]
    logs = [s.log_chance for s in possible]
    ranks = [s.rank for s in possible]
    return {
        "days": len(scores),
        "impossible": len(scores) - len(possible),
        "mean_log_chance": (sum(logs) / len(logs)) if logs and len(possible) == len(scores) else None,
        "mean_log_chance_possible": sum(logs) / len(logs) if logs else None,
        "median_rank": float(np.median(ranks)) if ranks else None,
        "mean_rank": float(np.mean(ranks)) if ranks else None,
    }



@dataclass(frozen=True)
class RecordDay:
    """One recorded day as the repeat weight sees it: how many originals were given before it and not, and
    whether its answer was an original given before."""

    given: int
    fresh: int
    repeat: bool


def repeat_weight(days: list[RecordDay], outside: float) -> float:
    """The maximum-likelihood weight of an original answer already given, against 1 for one not given.

    Args:
        days: the days to fit on.
        outside: the total weight of the words outside the original answers.

    Returns:
        rho where (repeats + 1/2) / rho = sum over days of given / (fresh + rho * given + outside).

    Two days of 10 given and 10 not, one a repeat: 1.5 = 2 rho / (1 + rho), so rho = 3.

    >>> round(repeat_weight([RecordDay(given=10, fresh=10, repeat=r) for r in (True, False)], 0.0), 6)
    3.0
    """
    from scipy.optimize import brentq  # imported here: only the fit needs it

    repeats = sum(day.repeat for day in days) + 0.5

    def slope(log_rho: float) -> float:
        """The log-likelihood's derivative in rho (times rho), at exp(log_rho)."""
        rho = math.exp(log_rho)
        return repeats - rho * sum(day.given / (day.fresh + rho * day.given + outside) for day in days)

    return math.exp(brentq(slope, -30.0, 10.0))



def score_days_given(words: tuple[str, ...], weights: np.ndarray, originals: int, answers: list[str],
                     given: list[frozenset[str]], rhos: list[float]) -> list[DayScore]:
    """score_days with the weights of each day: the original answers (the first `originals` words) given before it
    weigh that day's rho instead of their weight."""
    scores = []
    for answer, before, rho in zip(answers, given, rhos, strict=True):
        day_weights = weights.copy()
        day_weights[:originals][np.fromiter((word in before for word in words[:originals]), bool, originals)] = rho
        scores.extend(score_days(words, day_weights, [answer]))
    return scores


__all__ = ["DayScore", "FEATURES", "PRIOR_SD", "RecordDay", "repeat_weight", "score_days_given", "feature_vector", "fit_coefficients", "mid_ranks",
           "negative_log_likelihood", "score_days", "sigmoid", "summary"]
