"""Statistics of a tournament, derived from the per-game records alone.

Scores are guesses used, lower is better (the one place in the project where a figure
is not from the Guesser's "higher is better" side: it is what people quote). An unsolved
game, and a game the agent ended with an error, scores the guess limit plus one (7 for
the usual 6), and counts in every average that way.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Iterable

import numpy as np
from scipy import stats as scipy_stats

from variants.spec import MOST_GUESSES

from .records import GameRecord

CONFIDENCE = 0.95
SIGNIFICANCE = 0.05
#: Histograms show at least this many guess counts (the usual limit), more only where games took more.
HISTOGRAM_COLUMNS = 6
#: Up to this many answers with differing counts the signed-rank test is exact; above, the normal approximation.
EXACT_LIMIT = 300
EXACT = "exact"
APPROXIMATE = "normal approximation"
TEST_NAME = (f"two-sided Wilcoxon signed-rank test (answers with equal counts dropped; tied differences share "
             f"their mean rank; exact null distribution up to {EXACT_LIMIT} differing answers, "
             "normal approximation above)")


@dataclass(frozen=True)
class AgentModeStats:
    """How one agent did in one mode.

    Attributes:
        agent, mode: which.
        games: games played; solved: games solved; errors: games the agent ended by raising.
        solved_pct: 100 * solved / games.
        mean: average score (failures count as the guess limit plus one).
        ci_low, ci_high: 95% Student-t interval of the mean (None with fewer than two games).
        worst: highest score; above the guess limit means some game was not solved.
        histogram: games solved in 1, 2, ... N guesses, N the summary's `histogram_columns`.
        failures: games not solved (errors included).
        seconds_per_game: mean wall-clock seconds, or None where no timings were kept.
        nodes_per_game: mean search nodes, or None for an agent that never searched.
    """

    agent: str
    mode: str
    games: int
    solved: int
    errors: int
    solved_pct: float
    mean: float
    ci_low: float | None
    ci_high: float | None
    worst: int
    histogram: tuple[int, ...]
    failures: int
    seconds_per_game: float | None
    nodes_per_game: float | None


@dataclass(frozen=True)
class PairedComparison:
    """Hard mode against normal mode for one agent, paired by answer.

    Attributes:
        agent: which.
        answers: answers played in both modes.
        normal_mean, hard_mean: average scores over those answers.
        mean_difference: average of hard minus normal (positive: hard mode took more guesses).
        ci_low, ci_high: 95% Student-t interval of that difference (None with fewer than two answers).
        harder, easier, equal: answers where hard mode took more, fewer, the same guesses.
        same_games: answers whose two games were move for move the same (hard mode's rule
            never changed a choice); all of them means the agent only plays hard-legal guesses.
        statistic, p_value: the Wilcoxon signed-rank test of the differences (statistic:
            the smaller of the positive and negative rank sums); with no non-zero
            difference there is nothing to test: statistic None, p_value 1.0.
        test: how p_value was computed: "exact", "normal approximation", or "none".
    """

    agent: str
    answers: int
    normal_mean: float
    hard_mean: float
    mean_difference: float
    ci_low: float | None
    ci_high: float | None
    harder: int
    easier: int
    equal: int
    same_games: int
    statistic: float | None
    p_value: float
    test: str

    @property
    def finding(self) -> str:
        """'harder', 'easier' or 'no difference', at the 5% level."""
        if self.p_value < SIGNIFICANCE and self.mean_difference > 0:
            return "harder"
        if self.p_value < SIGNIFICANCE and self.mean_difference < 0:
            return "easier"
        return "no difference"


@dataclass(frozen=True)
class Summary:
    """Everything the table and the verdict show."""

    max_guesses: int
    failure_score: int
    histogram_columns: int
    results: tuple[AgentModeStats, ...]
    comparisons: tuple[PairedComparison, ...]
    verdict: str

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (findings included; tuples as lists, as JSON reads them back)."""
        data = json.loads(json.dumps(asdict(self)))
        for comparison, row in zip(self.comparisons, data["comparisons"]):
            row["finding"] = comparison.finding
        data["test"] = TEST_NAME
        data["confidence"] = CONFIDENCE
        data["significance"] = SIGNIFICANCE
        return data


#: What every row of a stored summary holds, by key: "int" a count, "number" a finite number, "number?" one or
#: null, "text" a short string; the charts, report and web page read these.
RESULT_FIELDS = {"agent": "text", "mode": "text", "games": "int", "solved": "int", "failures": "int", "errors": "int",
                 "worst": "int", "mean": "number?", "ci_low": "number?", "ci_high": "number?", "solved_pct": "number?",
                 "seconds_per_game": "number?", "nodes_per_game": "number?"}
COMPARISON_FIELDS = {"agent": "text", "answers": "int", "mean_difference": "number", "ci_low": "number?",
                     "ci_high": "number?", "normal_mean": "number", "hard_mean": "number", "p_value": "number?",
                     "finding": "text"}
#: The most games a stored count may claim and the longest text a summary field may hold.
MOST_COUNT = 10**9
MOST_TEXT = 10_000


def summary_problem(summary: Any, most_guesses: int = MOST_GUESSES) -> str | None:
    """What is wrong with a stored summary (summary.json's "summary"), or None when the charts and pages can use it.

    Every value is checked for its kind and range, so a hand-edited file (a missing key,
    a text mean, a NaN, a guess limit of 10**9) is refused in one line, not drawn.
    """
    if not isinstance(summary, dict):
        return "the summary is not a JSON object"

    def wrong(value: Any, kind: str, least: float = 0) -> bool:
        """Whether `value` is not of `kind`."""
        if kind == "text":
            return not isinstance(value, str) or len(value) > MOST_TEXT
        if kind.endswith("?") and value is None:
            return False
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return True
        return kind == "int" and (not isinstance(value, int) or not least <= value <= MOST_COUNT)

    limit, columns = summary.get("max_guesses"), summary.get("histogram_columns")
    if wrong(limit, "int", 1) or limit > most_guesses:
        return f"max_guesses must be a whole number from 1 to {most_guesses}"
    if wrong(columns, "int", 1) or columns > limit:
        return "histogram_columns must be a whole number from 1 to max_guesses"
    for name, fields in (("results", RESULT_FIELDS), ("comparisons", COMPARISON_FIELDS)):
        rows = summary.get(name)
        if not isinstance(rows, list) or len(rows) > MOST_COUNT:
            return f"'{name}' is not a list"
        for number, row in enumerate(rows, start=1):
            if not isinstance(row, dict):
                return f"{name} row {number} is not an object"
            for key, kind in fields.items():
                if key not in row or wrong(row[key], kind):
                    return f"{name} row {number}: '{key}' is missing or not a {kind.rstrip('?')}"
            if name == "results":
                histogram = row.get("histogram")
                if not isinstance(histogram, list) or len(histogram) != columns or any(
                        wrong(count, "int") for count in histogram):
                    return f"results row {number}: 'histogram' is not {columns} counts"
    if wrong(summary.get("verdict", ""), "text") or wrong(summary.get("confidence", CONFIDENCE), "number"):
        return "the verdict or confidence is not of its kind"
    return None


def mean_interval(values: np.ndarray) -> tuple[float | None, float | None]:
    """The 95% Student-t confidence interval of the mean of `values` (None, None below two values).

    >>> mean_interval(np.array([3.0, 3.0, 3.0]))
    (3.0, 3.0)
    """
    if len(values) < 2:
        return None, None
    mean = float(values.mean())
    spread = float(values.std(ddof=1)) / math.sqrt(len(values))
    if spread == 0.0:
        return mean, mean
    half = float(scipy_stats.t.ppf(0.5 + CONFIDENCE / 2, len(values) - 1)) * spread
    return mean - half, mean + half


def histogram_columns(records: Iterable[GameRecord], max_guesses: int) -> int:
    """How many guess counts the histograms show: the guess limit, but above 6 no more than the most any solved game took.

    The work stays bounded by the games, whatever the limit:

    >>> histogram_columns([], 1_000_000_000), histogram_columns([], 4)
    (6, 4)
    """
    most = max((record.turns for record in records if record.solved), default=0)
    return min(max_guesses, max(HISTOGRAM_COLUMNS, most))


def agent_mode_stats(agent: str, mode: str, records: list[GameRecord], max_guesses: int,
                     columns: int | None = None) -> AgentModeStats:
    """The statistics of one agent's games in one mode (at least one game), with `columns` histogram entries."""
    columns = histogram_columns(records, max_guesses) if columns is None else columns
    failure_score = max_guesses + 1
    scores = np.array([record.score(failure_score) for record in records], dtype=float)
    solved = sum(record.solved for record in records)
    low, high = mean_interval(scores)
    solved_in = Counter(record.turns for record in records if record.solved)
    histogram = tuple(solved_in[n] for n in range(1, columns + 1))
    seconds = [record.seconds for record in records]
    nodes = sum(record.nodes for record in records)
    return AgentModeStats(
        agent=agent, mode=mode, games=len(records), solved=solved,
        errors=sum(1 for record in records if record.error),
        solved_pct=100.0 * solved / len(records), mean=float(scores.mean()), ci_low=low, ci_high=high,
        worst=int(scores.max()), histogram=histogram, failures=len(records) - solved,
        seconds_per_game=None if any(s is None for s in seconds) else float(np.mean(seconds)),
        nodes_per_game=nodes / len(records) if nodes else None,
    )


def exact_signed_rank_p(differences: np.ndarray) -> tuple[float, float]:
    """Two-sided exact Wilcoxon signed-rank test of non-zero differences: (statistic, p).

    Under the null hypothesis each difference is as likely positive as negative, so the
    positive rank sum is a sum of independent coin flips times the ranks (mean ranks for
    tied sizes); its distribution is built one rank at a time over doubled ranks, which
    are whole numbers. The p-value is twice the smaller tail, at most 1.

    >>> exact_signed_rank_p(np.array([1.0, 1.0, 1.0, 1.0]))  # 4 answers harder by one: 2 / 2**4
    (0.0, 0.125)
    """
    doubled = np.rint(2 * scipy_stats.rankdata(np.abs(differences))).astype(np.int64)
    total = int(doubled.sum())
    chance = np.zeros(total + 1)
    chance[0] = 1.0
    for rank in doubled:
        shifted = np.zeros_like(chance)
        shifted[rank:] = chance[:-rank]
        chance = (chance + shifted) / 2
    positive = int(doubled[differences > 0].sum())
    low, high = float(chance[: positive + 1].sum()), float(chance[positive:].sum())
    return min(positive, total - positive) / 2, min(1.0, 2 * min(low, high))


def signed_rank_test(differences: np.ndarray) -> tuple[float | None, float, str]:
    """The paired test of hard minus normal: (statistic, p-value, how it was computed); see TEST_NAME."""
    nonzero = differences[differences != 0]
    if nonzero.size == 0:
        return None, 1.0, "none"
    if nonzero.size <= EXACT_LIMIT:
        statistic, p_value = exact_signed_rank_p(nonzero)
        return statistic, p_value, EXACT
    test = scipy_stats.wilcoxon(differences, zero_method="wilcox", alternative="two-sided", method="approx")
    return float(test.statistic), float(test.pvalue), APPROXIMATE


def paired_comparison(agent: str, normal: dict[str, GameRecord], hard: dict[str, GameRecord],
                      failure_score: int) -> PairedComparison | None:
    """Hard against normal over the games both modes played, by their name (None if they share none)."""
    shared = sorted(set(normal) & set(hard))
    if not shared:
        return None
    normal_scores = np.array([normal[a].score(failure_score) for a in shared], dtype=float)
    hard_scores = np.array([hard[a].score(failure_score) for a in shared], dtype=float)
    differences = hard_scores - normal_scores
    low, high = mean_interval(differences)
    statistic, p_value, test = signed_rank_test(differences)
    return PairedComparison(
        agent=agent, answers=len(shared), normal_mean=float(normal_scores.mean()),
        hard_mean=float(hard_scores.mean()), mean_difference=float(differences.mean()), ci_low=low, ci_high=high,
        harder=int((differences > 0).sum()), easier=int((differences < 0).sum()),
        equal=int((differences == 0).sum()), same_games=sum(normal[a].guesses == hard[a].guesses for a in shared),
        statistic=statistic, p_value=p_value, test=test,
    )


def summarise(records: Iterable[GameRecord], agents: Iterable[str], modes: Iterable[str], max_guesses: int) -> Summary:
    """The tournament's statistics and verdict from its per-game records.

    Args:
        records: the games (any order).
        agents, modes: the order the tables list them in.
        max_guesses: the guess limit; failures score one more.

    Returns:
        The Summary: one AgentModeStats per agent and mode that has games, one
        PairedComparison per agent played in both modes, and the verdict paragraph.
    """
    agents, modes = list(agents), list(modes)
    by_key: dict[tuple[str, str], dict[str, GameRecord]] = {}
    for record in records:
        by_key.setdefault((record.agent, record.mode), {})[record.game] = record
    columns = histogram_columns((r for games in by_key.values() for r in games.values()), max_guesses)
    results = tuple(
        agent_mode_stats(agent, mode, list(by_key[(agent, mode)].values()), max_guesses, columns)
        for agent in agents for mode in modes if by_key.get((agent, mode))
    )
    comparisons = tuple(
        comparison for agent in agents
        if (comparison := paired_comparison(agent, by_key.get((agent, "normal"), {}), by_key.get((agent, "hard"), {}),
                                            max_guesses + 1)) is not None
    )
    errors = sum(result.errors for result in results)
    return Summary(max_guesses=max_guesses, failure_score=max_guesses + 1, histogram_columns=columns, results=results,
                   comparisons=comparisons, verdict=verdict(comparisons, modes, max_guesses + 1, errors))


def _signed(value: float | None) -> str:
    """A difference with its sign, to three decimals."""
    return "n/a" if value is None else f"{value:+.3f}"


def _describe(comparison: PairedComparison) -> str:
    """One agent's comparison in a clause."""
    interval = "" if comparison.ci_low is None else f", 95% CI {_signed(comparison.ci_low)} to {_signed(comparison.ci_high)}"
    return (f"{comparison.agent} ({_signed(comparison.mean_difference)} guesses a game{interval}; "
            f"{comparison.harder} answers harder, {comparison.easier} easier, {comparison.equal} equal; "
            f"p = {comparison.p_value:.3g}, {comparison.test})")


def _join(clauses: list[str]) -> str:
    """Clauses joined with commas and a final 'and'."""
    return clauses[0] if len(clauses) == 1 else "; ".join(clauses[:-1]) + "; and " + clauses[-1]


def verdict(comparisons: tuple[PairedComparison, ...], modes: list[str], failure_score: int, errors: int) -> str:
    """The one-paragraph answer to "is hard mode harder?"."""
    if not comparisons:
        return (f"Only {' and '.join(modes)} mode was played, so there is no hard-versus-normal comparison; "
                "run with --mode both to make one.")
    groups = {finding: [c for c in comparisons if c.finding == finding] for finding in ("harder", "easier", "no difference")}
    answers = sorted({c.answers for c in comparisons})
    count = str(answers[0]) if len(answers) == 1 else f"{answers[0]} to {answers[-1]}"
    sentences = [
        f"Is hard mode harder? Each agent played the same {count} answers in both modes; "
        "the differences in guesses (hard minus normal) "
        f"were tested answer by answer with a {TEST_NAME} at the {SIGNIFICANCE:.0%} level, "
        f"counting an unsolved game as {failure_score} guesses."
    ]
    if groups["harder"]:
        sentences.append(f"Hard mode was significantly harder for {_join([_describe(c) for c in groups['harder']])}.")
    if groups["easier"]:
        sentences.append(f"It was significantly easier for {_join([_describe(c) for c in groups['easier']])}.")
    if groups["no difference"]:
        sentences.append(f"It made no significant difference for {_join([_describe(c) for c in groups['no difference']])}.")
    unbound = [c.agent for c in comparisons if c.same_games == c.answers]
    if unbound:
        names = unbound[0] if len(unbound) == 1 else ", ".join(unbound[:-1]) + " and " + unbound[-1]
        sentences.append(f"{names} played move for move the same game on every answer in both modes: "
                         "every guess they choose already keeps the revealed hints, so the rule never binds them "
                         "and their result says nothing about hard mode itself.")
    harder, total = len(groups["harder"]), len(comparisons)
    bound = total - len(unbound)
    if harder == total:
        sentences.append(f"So yes: hard mode is harder for every agent compared ({total}).")
    elif harder == 0:
        sentences.append(f"So no agent here ({total} compared) found hard mode significantly harder.")
    elif harder == bound:
        sentences.append(f"So yes: hard mode is harder for every agent its rule binds ({harder} of the {total} compared).")
    else:
        sentences.append(f"So hard mode is harder for {harder} of the {bound} agents its rule binds "
                         f"({total} compared), not for all.")
    if errors:
        sentences.append(f"{errors} games ended in an agent error and count as unsolved.")
    return " ".join(sentences)
