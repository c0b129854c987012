"""The post-game review: each guess's cost against the best guess (skill) and the reply it got (luck).

Values are expected guesses to finish (lower is better), from agents/model_value.py, so the
review shows the numbers assist and the web show for the same positions.

For each guess, at the position before it:

- the order: answers lost first, guesses second, as every surface ranks guesses
  (`wordle.valuation.rank_key`). A guess proved to lose more answers with best play after it
  than the best guess (`lost`: at least one more, or under a weighted model a higher chance of
  losing) scores skill 0, whatever its guesses; where both lose the same answers, their
  expected guesses compare (a loss counted as max_guesses + 1, the fewest-losses objective's
  second criterion);
- skill: cost = (your guess's expected guesses) - (the best guess's), at least 0;
  skill = round(99 * (1 - min(cost / SKILL_ZERO_COST, 1))): 99 for the best guess, 0 for one
  that costs SKILL_ZERO_COST guesses or more on average (or loses an answer the best keeps), the
  slope fitted to NYT WordleBot's published reviews (benchmarks/calibrate_skill.py);
- luck: where the reply you got falls among the replies the guess could have got, ranked by
  the share of the answers they leave (the green reply leaves none, the best): the chance of a
  reply leaving more, plus half the chance of one leaving as much (yours included);
  luck = round(99 * that). A reply leaving the most answers scores near 0, one leaving the
  fewest near 99, and a guess that could get only one reply 50 (nothing to be lucky about).

A skill is exact when both values it compares are proved. Otherwise it is one number, the skill
of the values shown (the real trees found, or the model's estimates), marked "≈85"; the range the
proved bounds allow (`skill_low`, `skill_high`) is kept for the JSON and the docs, never shown as
the skill on a page. A guess whose value no real tree backs (under a weighted model, an
opener the weighted opening book lacks whose bounded search completed no tree: only its proved
bound is known) is not scored: its skill reads NOT_SCORED, a note names it, and the game's skill
and cost are those of the other guesses.

The game's skill is the mean of its guesses' skills (marked "≈" when any is): on the scale
players know from NYT WordleBot, a game whose every guess was as good as the best scores 99
whatever its length, and one guess among four that wastes a third of a guess costs about 5 points. The
exact cost stays: the game's cost is the sum of its guesses' costs, in expected guesses, over
the guesses that lost no answer the best keeps; those that did are named with the answers
they gave up (`Review.lost_text`), never summed as an infinite cost. Its
luck is the mean of the luck of the guesses that could get more than one reply (50 if none
could). Both are monotone (a costlier guess never raises the skill, a luckier reply never
lowers the luck) and reproducible (the values come from the solver, the chances from the
model: no randomness).

The best guess shown is the best found, unless it is a word people rarely know and a word a player
knows has a real tree within NEAR_BEST expected guesses of the best's (`wordle.familiarity`: known
means wordfreq's Zipf frequency at least KNOWN_ZIPF): then the commonest such word is shown, and the
step says so (`best_known`, the margin by real trees). The cost is always against the best found.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from wordle import ALL_GREEN, State, Turn, Words, Wordle, feedback, format_pattern, parse_pattern
from wordle.nyt import recorded_answer
from wordle.patterns import ScoreLine, read_score_line, share_grid
from wordle.valuation import Value, order_key
from wordle.familiarity import NEAR_BEST, commonness, is_known, near_best
from plumbing.errors import UserError
from plumbing.numbers import fixed, rounded_plain

from .answer_model import AnswerModel
from .assistant import guess_stats, read_step, settle_model
from .model_value import GuessValue, Valuer

#: The skill and luck scale's top.
TOP = 99
#: A guess costing this many expected guesses more than the best scores skill 0 (linearly from 99 at no cost):
#: fitted to NYT WordleBot's published reviews, so the game's skill reads on its scale
#: (`python benchmarks/calibrate_skill.py`, results/skill-calibration.json: mean absolute difference 1.7 points over
#: 11 games, 2.5 left out of the fit in turn; 4.2 with the earlier 1.0).
SKILL_ZERO_COST = 1.75
#: How far the game's skill may read from WordleBot's: the mean absolute difference on the published games, each left
#: out of the fit in turn (results/skill-calibration.json). Given in the JSON, never shown as a range on a page.
SKILL_WORDLEBOT_DIFFERENCE = 2.5
#: How many common words, the cost-to-go model's best, are valued beside the best found.
COMMON_SHORTLIST = 3
#: A step's skill where its guess has no real tree (only a proved bound): it is not scored.
NOT_SCORED = "—"


@dataclass(frozen=True)
class ReviewStep:
    """One guess reviewed.

    Attributes:
        number: the guess's number, 1 first.
        guess, pattern: what was played and the reply it got.
        before, after: answers possible before the guess and after its reply.
        played: the guess's expected guesses to finish (this one included).
        best_guess, best: the best guess found at the position, and its value.
        cost: played - best, in expected guesses (at least 0); math.inf where the guess lost answers the best
            keeps (`lost_low` above 0), which no count of guesses weighs.
        skill, luck: 0 to 99 (skill from the values' estimates).
        reply_chance: the chance of the reply the guess got.
        forced: whether the guess could get only one reply.
        skill_low, skill_high: the skill's range from the values' proved bounds (both `skill` when settled).
        best_known: the best found, when `best_guess` is a word a player knows within NEAR_BEST of it (else None);
            best_known_margin: by how much its real tree is better (expected guesses, at least 0).
        lost_low, lost_high: the answers the guess loses beyond the best's (under a weighted model, the chance of
            losing), the least and the most the values' bounds allow (0 and 0 when it loses none the best keeps).
        cost_low: the least cost in expected guesses the bounds allow (finite; 0 where answers were lost).
        scored: whether the step has a skill: False where no real tree backs the guess's value (an opener the
            weighted opening book lacks whose bounded effort completed none: only its proved bound is known); its
            skill is then left out of the game's, and the review's notes say so.
    """

    number: int
    guess: int
    pattern: int
    before: int
    after: int
    played: GuessValue
    best_guess: int
    best: GuessValue
    cost: float
    skill: int
    luck: int
    reply_chance: float
    forced: bool
    skill_low: int = 0
    skill_high: int = TOP
    best_known: int | None = None
    best_known_margin: float = 0.0
    lost_low: float = 0.0
    lost_high: float = 0.0
    cost_low: float = 0.0
    scored: bool = True

    @property
    def settled(self) -> bool:
        """Whether the skill is exact: both values it compares are proved (or the guess was the best found); a step
        not scored has no skill to be exact (it counts as settled, so the game's figures are those of the others)."""
        return not self.scored or (self.played.proved and self.best.proved) or (
            self.skill_low == self.skill_high == self.skill and not self.modelled)

    @property
    def modelled(self) -> bool:
        """Whether the skill comes from the answer model's estimates."""
        return bool(self.played.modelled or self.best.modelled)

    def skill_text(self) -> str:
        """The skill as every surface shows it: "85" exact, "≈85" where a value it compares is not proved (one number,
        never a range), NOT_SCORED where the guess has no tree."""
        if not self.scored:
            return NOT_SCORED
        return skill_text(self.skill, self.skill_low, self.skill_high, self.settled, self.modelled)


@dataclass(frozen=True)
class Review:
    """A game reviewed: the model it was valued under, why it was widened, the steps and the game's figures."""

    model: AnswerModel = field(repr=False)
    notes: tuple[str, ...]
    steps: tuple[ReviewStep, ...]
    skill: int
    luck: int
    solved: bool
    answer: str | None
    hard: bool
    max_guesses: int
    seconds: float
    puzzle: int | None = None
    ultra: bool = False  # played in ultra-hard mode

    @property
    def finished(self) -> bool:
        """Whether the game is over: solved, or every guess the limit allows played (else it is unfinished)."""
        return self.solved or len(self.steps) >= self.max_guesses

    def ending_text(self) -> str:
        """How the game ended, as every surface says it: "solved CIGAR in 3/6", "not solved after 6 guesses (the
        answer: CIGAR)", or "unfinished after 1 guess (the answer: CIGAR)" for a game still going."""
        used = len(self.steps)
        answer = f" (the answer: {self.answer.upper()})" if self.answer else ""
        if self.solved:
            return f"solved {self.answer.upper()} in {used}/{self.max_guesses}"
        if self.finished:
            return f"not solved after {used} guesses{answer}"
        return (f"unfinished after {used} guess{'es' if used != 1 else ''} of {self.max_guesses}{answer}: "
                "no share grid until it is over")

    @property
    def values(self) -> list[GuessValue]:
        """Every value shown: each guess's and each best guess's."""
        return [v for s in self.steps for v in (s.played, s.best)]

    @property
    def settled(self) -> bool:
        """Whether the game's skill is exact: every guess's is."""
        return all(step.settled for step in self.steps)

    @property
    def modelled(self) -> bool:
        """Whether any guess's skill comes from the answer model's estimates."""
        return any(step.modelled for step in self.steps)

    @property
    def scored(self) -> tuple[ReviewStep, ...]:
        """The steps with a skill (those whose guess has a real tree): the game's skill is theirs."""
        return tuple(step for step in self.steps if step.scored)

    @property
    def skill_range(self) -> tuple[int, int]:
        """The game's skill range: the mean of its scored guesses' lows and of their highs."""
        return game_skill([s.skill_low for s in self.scored]), game_skill([s.skill_high for s in self.scored])

    @property
    def cost(self) -> float:
        """The game's exact cost in expected guesses: the sum of its guesses' costs, over the guesses that lost no
        answer the best play keeps (those are counted in answers: `lost_text`)."""
        return sum(step.cost for step in self.scored if math.isfinite(step.cost))

    def cost_text(self) -> str:
        """The game's cost as shown: exact, "≈" from the model's estimates, or "≥" the least the bounds allow."""
        if self.settled:
            return f"{self.cost:.3f}"
        if self.modelled:
            return f"≈ {self.cost:.3f}"
        return f"≥ {sum(step.cost if step.settled and math.isfinite(step.cost) else step.cost_low for step in self.scored):.3f}"

    def lost_text(self) -> str:
        """What the game gave up against the best play, as a phrase every surface shows: the guesses, then where it
        lost answers the best play keeps (those guesses' costs are not counted in guesses)."""
        guesses = f"{self.cost_text()} guesses lost to the best play"
        given_up = [lost_phrase(step, self.model.uniform) for step in self.steps if step.lost_low > 0]
        if not given_up:
            return guesses
        if self.cost_text() in ("0.000", "≥ 0.000"):
            return "; ".join(given_up)
        return f"{guesses}; {'; '.join(given_up)}"

    def skill_text(self) -> str:
        """The game's skill as every surface shows it (see ReviewStep.skill_text)."""
        low, high = self.skill_range
        return skill_text(self.skill, low, high, self.settled, self.modelled)

    @property
    def proved_share(self) -> float:
        """The share of the values shown that are proved."""
        values = self.values
        return sum(v.proved for v in values) / len(values) if values else 1.0


def lost_phrase(step: ReviewStep, uniform: bool) -> str:
    """Where one guess lost answers the best keeps, in words: "a certain win given up at guess 1 (1 of 2315 answers
    lost)" where the best wins them all, else "1 more of 2 answers lost at guess 6" (a count; under a weighted
    model a chance: "a 4.6% higher chance of losing at guess 2"); "≥" where the bounds allow more.

    >>> from wordle.valuation import Value
    >>> lose = GuessValue(Value(math.inf, math.inf, math.inf, 1, 1, 4.0))
    >>> step = ReviewStep(6, 0, 0, 2, 2, lose, 1, lose, math.inf, 0, 50, 1.0, True, 0, 0, lost_low=1.0, lost_high=1.0)
    >>> lost_phrase(step, True)
    '1 more of 2 answers lost at guess 6'
    """
    more = "≥ " if step.lost_high > step.lost_low else ""
    if uniform:
        count = f"{more}{step.lost_low:g} of {step.before} answer{'s' if step.before != 1 else ''}"
    else:
        count = f"{more}a {step.lost_low:.1%} chance of losing"
    if step.best.value.losses_high == 0:
        return f"a certain win given up at guess {step.number} ({count}{' lost' if uniform else ''})"
    if uniform:
        return f"{more}{step.lost_low:g} more of {step.before} answers lost at guess {step.number}"
    return f"{more}a {step.lost_low:.1%} higher chance of losing at guess {step.number}"


def lost_range(played: Value, best: Value) -> tuple[float, float]:
    """The answers `played` loses beyond `best` (or, under a weighted model, its higher chance of losing): the least
    and the most the values' bounds allow, each at least 0.

    >>> lost_range(Value(math.inf, math.inf, math.inf, 2, 2), Value(math.inf, math.inf, math.inf, 1, 1))
    (1.0, 1.0)
    >>> lost_range(Value(math.inf, math.inf, math.inf, 1, math.inf), Value(3.5, 3.5, 3.5))
    (1.0, inf)
    >>> lost_range(Value(3.6, 3.6, 3.6), Value(3.5, 3.5, 3.5))
    (0.0, 0.0)
    """
    return (max(0.0, float(played.losses_low) - float(best.losses_high)),
            max(0.0, float(played.losses_high) - float(best.losses_low)))


def guess_figures(value: Value) -> tuple[float, float, float]:
    """A value's expected guesses for comparing two guesses that lose the same answers: (low, estimate, high).

    A guess that wins every answer: its own bounds. One that loses answers: the expected guesses of its
    fewest-losses tree, a loss counted as max_guesses + 1 (exact where the losses are settled, else unknown:
    from 1 to math.inf).
    """
    if value.losses_low >= 1:
        settled = math.isfinite(value.losing_guesses)
        guesses = value.losing_guesses
        return (guesses, guesses, guesses) if settled else (1.0, math.inf, math.inf)
    return value.low, value.estimate, value.high


def skill_of(cost: float) -> int:
    """0-99 from a cost in expected guesses, on WordleBot's scale: 99 at 0, falling linearly to 0 at SKILL_ZERO_COST.

    >>> skill_of(0.0), skill_of(0.25), skill_of(1.0), skill_of(SKILL_ZERO_COST), skill_of(float("inf"))
    (99, 85, 42, 0, 0)
    """
    return int(round(TOP * (1.0 - min(max(cost, 0.0) / SKILL_ZERO_COST, 1.0))))


def skill_text(skill: int, low: int, high: int, settled: bool, modelled: bool) -> str:
    """A skill as every page shows it: one number, exact, or marked "≈" where a value it compares is not proved
    (it is then the skill of the trees found: the range the bounds allow, `low` to `high`, lives in the JSON and the
    docs, never on the page).

    >>> skill_text(85, 85, 85, True, False), skill_text(85, 0, 99, False, True), skill_text(60, 44, 79, False, False)
    ('85', '≈85', '≈60')
    """
    return str(skill) if settled else f"≈{skill}"


def skill_range(played: GuessValue, best: GuessValue) -> tuple[int, int]:
    """The skills the values' proved bounds allow: (lowest, highest). Answers lost come first: a guess proved to lose
    more than the best scores 0; one that may lose more can score 0.

    >>> from wordle.valuation import Value
    >>> skill_range(GuessValue(Value(3.5, 3.75, 3.75)), GuessValue(Value(3.25, 3.5, 3.5)))
    (71, 99)
    """
    lost_low, lost_high = lost_range(played.value, best.value)
    if lost_low > 0:
        return 0, 0
    played_low, _, played_high = guess_figures(played.value)
    best_low, _, best_high = guess_figures(best.value)
    worst = played_high - best_low
    least = max(0.0, played_low - best_high)
    return (0 if lost_high > 0 else skill_of(worst)), skill_of(least)


def luck_of(replies: dict[int, float], got: int) -> int:
    """0-99 from the chances of the replies a guess could get (pattern -> chance) and the one it got.

    Replies are ranked by the share of answers they leave: a reply's chance, except the green one, which leaves none.

    >>> luck_of({0: 0.5, 1: 0.25, 242: 0.25}, 242), luck_of({0: 0.5, 1: 0.25, 242: 0.25}, 0), luck_of({7: 1.0}, 7)
    (87, 25, 50)
    """
    left = {pattern: 0.0 if pattern == ALL_GREEN else chance for pattern, chance in replies.items()}
    mine = left[got]
    more = sum(chance for pattern, chance in replies.items() if left[pattern] > mine)
    same = sum(chance for pattern, chance in replies.items() if left[pattern] == mine)
    return int(round(TOP * (more + same / 2)))


def game_skill(skills: list[int]) -> int:
    """The game's skill: the mean of its guesses' skills (99 with none).

    >>> game_skill([99, 66, 79, 99]), game_skill([99, 99, 99, 99, 99])
    (86, 99)
    """
    return int(round(sum(skills) / len(skills))) if skills else TOP


def game_luck(lucks: list[int]) -> int:
    """The game's luck: the mean luck of the guesses that could get more than one reply (50 with none)."""
    return int(round(sum(lucks) / len(lucks))) if lucks else 50


def reply_chances(model: AnswerModel, state: State, guess: int) -> dict[int, float]:
    """The replies `guess` can get at `state`, each with its chance under the model."""
    patterns = model.game.matrix[guess, state.candidates]
    chances = np.bincount(patterns, weights=model.chances(state.candidates), minlength=243)
    return {int(p): float(chances[p]) for p in np.flatnonzero(np.bincount(patterns, minlength=243))}


def steps_from_answer(words: Words, answer: str, texts: list[str]) -> list[tuple[int, int]]:
    """Steps from the answer and the guesses (`word`, or `word:pattern` checked against the answer)."""
    if answer.strip().lower() not in words.guess_index:
        raise UserError(f"'{answer}' is not in the list of allowed guesses, so it cannot be the answer")
    steps = []
    for number, text in enumerate(texts, start=1):
        word, _, typed = text.replace(" ", ":").partition(":")
        guess = words.guess_id(word)
        pattern = feedback(words.guesses[guess], answer.strip().lower())
        if typed and parse_pattern(typed) != pattern:
            raise UserError(f"step {number} ({text}): {word.upper()} gets {format_pattern(pattern)} from "
                            f"{answer.upper()}, not {format_pattern(parse_pattern(typed))}")
        steps.append((guess, pattern))
    return steps


def grid_lines(grid: str) -> tuple[ScoreLine | None, list[str]]:
    """A pasted share grid's score line (None if it has none) and its rows, blank lines dropped."""
    lines = [line.strip() for line in grid.strip().splitlines() if line.strip()]
    first_is_row = bool(lines) and _is_row(lines[0])
    return (None, lines) if first_is_row or not lines else (read_score_line(lines[0]), lines[1:])


def _is_row(line: str) -> bool:
    """Whether a line reads as a row of five squares."""
    try:
        parse_pattern(line)
    except UserError:
        return False
    return True


def grid_score(grid: str | None) -> ScoreLine | None:
    """What a pasted grid's score line says (puzzle number, guesses, hard mode: a `*`), or None."""
    return grid_lines(grid)[0] if grid else None


def steps_from_grid(words: Words, grid: str, texts: list[str]) -> list[tuple[int, int]]:
    """Steps from a pasted share grid (a score line such as `Wordle 1,234 4/6*`, then rows of squares, the
    high-contrast orange and blue ones too) and the words.

    Raises:
        UserError: rows that are not five squares, or a number of rows that is not the number of words (or the score).
    """
    score, lines = grid_lines(grid)
    rows = []
    for line in lines:
        try:
            rows.append(parse_pattern(line))
        except UserError:
            raise UserError(f"the share grid's row '{line}' is not five squares") from None
    if not rows:
        raise UserError("the share grid has no rows of squares")
    if len(rows) != len(texts):
        raise UserError(f"the share grid has {len(rows)} rows but {len(texts)} words were given: give one word a row")
    if score is not None and score.guesses is not None and score.guesses != len(rows):
        raise UserError(f"the share grid's score line says {score.guesses} guesses but it has {len(rows)} rows")
    steps = [(words.guess_id(text), row) for text, row in zip(texts, rows)]
    if score is not None and score.puzzle is not None:
        check_recorded_day(words, steps, score.puzzle)
    return steps


def check_recorded_day(words: Words, steps: list[tuple[int, int]], puzzle: int) -> None:
    """Refuse a game named as Wordle `puzzle` that the recorded answer of that day contradicts (wordle/nyt.py):
    a row whose colours that answer would not give. A day the record lacks is not checked.

    Raises:
        UserError: the first row that answer contradicts, with the colours it gives.
    """
    answer = recorded_answer(puzzle)
    if answer is None:
        return
    for number, (guess, pattern) in enumerate(steps, start=1):
        word = words.guesses[guess]
        if (expected := feedback(word, answer)) != pattern:
            raise UserError(f"Wordle {puzzle:,} was {answer.upper()}, which gives guess {number} ({word.upper()}) "
                            f"{format_pattern(expected)}, not {format_pattern(pattern)}: a word mistyped, or "
                            "another day's grid? (to review it as it is, leave out the score line)")


def steps_from_grid_and_answer(words: Words, grid: str, answer: str, texts: list[str]) -> list[tuple[int, int]]:
    """Steps from a share grid given with the answer: the grid's day (its score line, when the record holds it) must
    have had that answer, and each row must be the colours the answer gives.

    Raises:
        UserError: another day's answer, or a row the answer would not give (one line each).
    """
    answer = answer.strip().lower()
    score = grid_score(grid)
    if score is not None and score.puzzle is not None:
        day = recorded_answer(score.puzzle)
        if day is not None and day != answer:
            raise UserError(f"Wordle {score.puzzle:,} was {day.upper()}, not {answer.upper()}: give that day's "
                            "answer, or leave out --answer (the grid's day gives it)")
    steps = steps_from_grid(words, grid, texts)
    for number, ((guess, row), (_, expected)) in enumerate(zip(steps, steps_from_answer(words, answer, texts)), 1):
        if row != expected:
            raise UserError(f"{answer.upper()} gives guess {number} ({words.guesses[guess].upper()}) "
                            f"{format_pattern(expected)}, but the grid shows {format_pattern(row)}")
    return steps


def grid_answer(grid: str | None, answer: str | None = None) -> str | None:
    """The answer a review of a pasted grid knows: the one given, else the recorded answer of the day its score line
    names (wordle/nyt.py), else None."""
    if answer is not None or not grid:
        return answer
    score = grid_score(grid)
    return recorded_answer(score.puzzle) if score is not None and score.puzzle is not None else None


def parse_game(game: Wordle, texts: list[str], answer: str | None = None,
               grid: str | None = None) -> list[tuple[int, int]]:
    """A game's steps from any of the three forms: `word:pattern` steps, the answer and the words, or a share grid."""
    return read_game(game.words, texts, answer, grid)


def read_game(words: Words, texts: list[str], answer: str | None = None,
              grid: str | None = None) -> list[tuple[int, int]]:
    """parse_game against word lists alone (no pattern matrix needed): a game's text checked before any is built."""
    if not texts:
        raise UserError("no guesses to review: give the steps (word:pattern), or --answer and the words")
    if answer is not None and grid is not None:
        return steps_from_grid_and_answer(words, grid, answer, texts)
    if answer is not None:
        return steps_from_answer(words, answer, texts)
    if grid is not None:
        return steps_from_grid(words, grid, texts)
    return [read_step(words, text) for text in texts]


def guess_cost(played: GuessValue, best: GuessValue) -> float:
    """What a guess cost against the best, in expected guesses, by their estimates (at least 0): math.inf where it
    is proved to lose answers the best keeps; where both lose the same answers, the difference of their
    fewest-losses trees' guesses (0 when neither is known).

    >>> from wordle.valuation import Value
    >>> guess_cost(GuessValue(Value(3.5, 3.5, 3.5)), GuessValue(Value(3.25, 3.25, 3.25)))
    0.25
    >>> guess_cost(GuessValue(Value(math.inf, math.inf, math.inf, 2, 2, 6.5)),
    ...            GuessValue(Value(math.inf, math.inf, math.inf, 1, 1, 4.0)))
    inf
    """
    if lost_range(played.value, best.value)[0] > 0:
        return math.inf
    mine, theirs = guess_figures(played.value)[1], guess_figures(best.value)[1]
    if mine == theirs or not math.isfinite(mine - theirs):
        return 0.0
    return max(0.0, mine - theirs)


def common_shortlist(game: Wordle, state: State, played: int) -> list[int]:
    """The COMMON_SHORTLIST words a player knows (`wordle.familiarity.is_known`) that the cost-to-go model rates best
    at the state (legal ones)."""
    pool = game.legal_guesses(state)
    common = np.array([g for g in pool.tolist() if g != played and is_known(game.words.guesses[g])], dtype=np.int64)
    if common.size == 0:
        return []
    expected = guess_stats(game, np.asarray(state.candidates), common)[1]
    return [int(g) for g in common[np.argsort(expected, kind="stable")[:COMMON_SHORTLIST]]]


def known_best(game: Wordle, values: dict[int, GuessValue], best: int, played: int) -> tuple[int, int | None]:
    """The best guess to show, and the best found when that is a word a player knows within NEAR_BEST of it (by
    real trees' values: `wordle.familiarity.near_best`), else None.

    Your own guess is shown when it is near the best and a word you know (you did know it); else the commonest known
    word near the best.
    """
    words = game.words.guesses
    if best == played or is_known(words[best]):  # yours is the best found, or the best is a word a player knows
        return best, None
    near = [g for g, v in values.items() if g != best and is_known(words[g])
            and near_best(v.value, values[best].value)]
    if not near:
        return best, None
    chosen = played if played in near else max(near, key=lambda g: (commonness(words[g]), -values[g].value.high, -g))
    return chosen, best


def known_best_note(words: tuple[str, ...], step: ReviewStep) -> str:
    """The note of a step whose best shown is a word a player knows, not the exact best (every surface's): by how
    much the exact best's real tree is shorter, never a negative zero."""
    return (f"† guess {step.number}: {words[step.best_guess].upper()} is shown, a word players know within "
            f"{NEAR_BEST} of the best; the best found, {words[step.best_known].upper()}, is "
            f"{fixed(step.best_known_margin, 4)} guesses better.")


def ranked_best(game: Wordle, state: State, values: dict[int, GuessValue], found: int) -> int:
    """The best of the valued guesses in the one order every surface ranks by (`wordle.valuation.order_key`:
    answers lost first, then guesses), the valuation's own best winning ties."""
    candidates = set(game.words.answer_rows[state.candidates].tolist())
    return min(values, key=lambda g: (order_key(values[g].value, g in candidates, g)[:-2], g != found,
                                      g not in candidates, g))


def review_game(model: AnswerModel, steps: list[tuple[int, int]], hard: bool = False, max_guesses: int = 6,
                answer: str | None = None, valuer: Valuer | None = None,
                make_game: Callable[[Words], Wordle] = Wordle,
                progress: Callable[[int, int], None] | None = None, puzzle: int | None = None,
                ultra: bool = False, partial: Callable[[Review, tuple[Turn, ...]], None] | None = None) -> Review:
    """Review a finished or abandoned game.

    Args:
        model: the answer model (widened if the game contradicts it).
        steps: (guess index, pattern code) pairs, first first.
        hard: hard mode; max_guesses: the guess limit.
        answer: the answer, when known (the model is widened until it holds it).
        valuer: reuses solvers across reviews (it must be the final model's; a fresh one otherwise).
        make_game: builds a wider model's game.
        progress: called with (guesses valued, guesses in all) as the review goes.
        puzzle: the Wordle number of the game, when it was that day's (its share grid names it).
        ultra: the game was played in ultra-hard mode (each guess checked, values under its rule).
        partial: called with the review so far (its first steps, each final, the game's figures over them) and
            every turn replayed, once before the first guess is valued and after each (the web page shows it).

    Returns:
        The Review.
    """
    started = time.perf_counter()
    model, state, turns, notes = settle_model(model, steps, hard, max_guesses, answer, make_game, ultra)
    if valuer is None or valuer.model is not model:
        valuer = Valuer(model)
    position = model.initial_state(hard, max_guesses, ultra)
    reviewed: list[ReviewStep] = []
    solved = bool(turns) and turns[-1].pattern == ALL_GREEN
    answer_word = answer.strip().lower() if answer else (model.game.words.guesses[turns[-1].guess] if solved else None)

    def so_far(extra_notes: list[str]) -> Review:
        """The review of the steps valued so far (all of them at the end)."""
        return Review(model=model, notes=tuple(notes + extra_notes), steps=tuple(reviewed),
                      skill=game_skill([s.skill for s in reviewed if s.scored]),
                      luck=game_luck([s.luck for s in reviewed if not s.forced]), solved=solved,
                      answer=answer_word, hard=hard, max_guesses=max_guesses,
                      seconds=time.perf_counter() - started, puzzle=puzzle, ultra=ultra)

    for number, turn in enumerate(turns, start=1):
        if progress is not None:
            progress(number - 1, len(turns))
        if partial is not None:
            partial(so_far([]), turns)
        book = valuer.opening_shortlist(position, len(model.game.words.guesses))
        common = ([g for g in book if g != turn.guess and is_known(model.game.words.guesses[g])][:COMMON_SHORTLIST]
                  if book else common_shortlist(model.game, position, turn.guess))  # at the opening: the book's
        found = valuer.value(position, [turn.guess, *common])
        best_guess = ranked_best(model.game, position, found.guesses, found.best)
        played, best = found.guesses[turn.guess], found.guesses[best_guess]
        scored = played.has_tree or played.modelled
        cost = guess_cost(played, best) if scored else 0.0
        lost_low, lost_high = lost_range(played.value, best.value)
        if turn.guess == best_guess or (cost == 0.0 and lost_high == 0 and played.proved and best.proved):
            best_guess = turn.guess  # as good as the best: name yours
            low = high = skill_of(0.0)
            lost_low = lost_high = 0.0
        elif played.modelled or best.modelled:
            low = high = skill_of(cost)
        else:
            low, high = skill_range(played, best)
        least = 0.0 if lost_low > 0 else max(0.0, guess_figures(played.value)[0] - guess_figures(best.value)[2])
        shown, known = known_best(model.game, found.guesses, best_guess, turn.guess)
        replies = reply_chances(model, position, turn.guess)
        reviewed.append(ReviewStep(number=number, guess=turn.guess, pattern=turn.pattern, before=turn.remaining_before,
                                   after=turn.remaining_after, played=played, best_guess=shown,
                                   best=found.guesses[shown], cost=cost, skill=skill_of(cost),
                                   luck=luck_of(replies, turn.pattern), reply_chance=replies[turn.pattern],
                                   forced=len(replies) == 1, skill_low=low, skill_high=high, best_known=known,
                                   best_known_margin=0.0 if known is None else
                                   max(0.0, found.guesses[shown].value.high - found.guesses[known].value.high),
                                   lost_low=lost_low, lost_high=lost_high, cost_low=least, scored=scored))
        position = model.game.step(position, turn.guess, turn.pattern)
    return so_far([unscored_note(model.game, step, valuer.opener_nodes) for step in reviewed if not step.scored])


def unscored_note(game: Wordle, step: ReviewStep, opener_nodes: int) -> str:
    """The note of a step not scored: why, what is shown instead, and that the game's skill is the others'."""
    where = "the weighted opening book lacks it" if step.number == 1 else \
        f"at {step.before:,} possible answers it is valued as an opener the weighted book lacks"
    return (f"Guess {step.number} ({game.words.guesses[step.guess].upper()}) is not scored: {where}, and its search "
            f"completed no tree within {opener_nodes:,} sets, so only its proved bound ({step.played.text()}) is "
            "shown; the game's skill is that of the other guesses.")


def share_text(review: Review) -> str | None:
    """The game's share grid, with its Wordle number when it was that day's game; None for a game not over (a grid
    scoring it X, lost, would be false)."""
    if not review.finished:
        return None
    return share_grid([s.pattern for s in review.steps], review.solved, review.max_guesses, review.hard,
                      puzzle=review.puzzle)


def review_data(review: Review) -> dict:
    """The review as plain data (review --json and the web's /api/review)."""
    words = review.model.game.words
    return {
        "model": review.model.name, "model_description": review.model.describe(), "notes": list(review.notes),
        "hard": review.hard, "ultra": review.ultra, "max_guesses": review.max_guesses, "answer": review.answer, "solved": review.solved,
        "finished": review.finished, "ending": review.ending_text(),
        "skill": review.skill, "skill_exact": review.settled, "skill_wordlebot_difference": SKILL_WORDLEBOT_DIFFERENCE,
        "skill_low": review.skill_range[0],
        "skill_high": review.skill_range[1], "skill_text": review.skill_text(), "cost": round(review.cost, 6), "cost_text": review.cost_text(), "lost_text": review.lost_text(), "luck": review.luck,
        "proved_share": round(review.proved_share, 6), "puzzle": review.puzzle, "share": share_text(review),
        "seconds": round(review.seconds, 3),
        "steps": [{"number": s.number, "guess": words.guesses[s.guess], "pattern": format_pattern(s.pattern),
                   "before": s.before, "after": s.after, "played": s.played.data(),
                   "best_guess": words.guesses[s.best_guess], "best": s.best.data(),
                   "cost": round(s.cost, 6) if math.isfinite(s.cost) and s.scored else None,
                   "skill": s.skill if s.scored else None,
                   "answers_lost_beyond_best": {"at_least": round(s.lost_low, 6),
                                                "at_most": round(s.lost_high, 6) if math.isfinite(s.lost_high)
                                                else None},
                   "skill_exact": s.settled, "skill_low": s.skill_low, "skill_high": s.skill_high,
                   "skill_text": s.skill_text(), "scored": s.scored, "luck": s.luck,
                   "best_known": words.guesses[s.best_known] if s.best_known is not None else None,
                   "best_known_margin": rounded_plain(s.best_known_margin, 6),
                   "best_known_note": known_best_note(words.guesses, s) if s.best_known is not None else None,
                   "reply_chance": round(s.reply_chance, 6), "forced": s.forced} for s in review.steps],
    }


__all__ = ["Review", "ReviewStep", "game_luck", "game_skill", "known_best", "luck_of", "skill_range",
           "skill_text", "grid_answer", "grid_score", "share_text", "parse_game", "review_data", "review_game",
           "guess_cost", "known_best_note", "SKILL_ZERO_COST", "skill_of", "steps_from_answer", "steps_from_grid", "check_recorded_day"]
