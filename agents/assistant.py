"""The assistant: replay the guesses and colours a person saw in a real game, then advise the next guess.

Values are from the Guesser's point of view: higher is better. A step is a guess and
the pattern the game showed for it, shown everywhere as `tares:-y--g`; typed, a space may
stand for the colon (`tares -y--g`) and the pattern may take any form `search.parse_pattern`
reads. After the steps the assistant reports how many answers remain and how many bits of
uncertainty that is, what the last guess gained, and the advising agent's best guesses in
its order (among guesses it values the same, possible answers first), each with why it is
good, on one scale for every agent: the largest group of answers a reply can leave (the
worst case), the answers left on average (none when the guess is the answer), its chance
of being the answer (1/remaining when it is still possible, else 0) and the expected
guesses to finish, this one included, by the cost-to-go model F of heuristics/cost.py:
1 + sum over the replies other than all green of P(reply) * F(answers the reply leaves)
(a count of guesses: there, lower is better).

The default advisor (ADVISOR, the same in the terminal and on the web) is the optimal solver:
`advise_model` values a shortlist of guesses (the cost-to-go model's best, and the solver's
own best) with agents/model_value.py under the answer model, within about a second, and
orders them by those values; a value the solver did not settle is printed as a bound or an
estimate, and the Advice says whether the first suggestion is proved optimal. A game that
contradicts the answer model widens it (`settle_model`), with one line saying so.

A searching advisor answers within a bounded number of nodes (ADVICE_NODES): past the plan
of its first two moves, a state whose full search needs more gets the suggestions of a
shallower search, and the Advice says so (`fallback`).

Replies that no answer can give together are a ContradictionError naming the step that
made the game impossible; unknown words and malformed patterns are UserErrors too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from heuristics.cost import cost_table, guesses_to_go, to_go_stats
from heuristics.partition import PartitionStats
from wordle import State, Turn, Wordle, Words, format_pattern, parse_pattern
from plumbing.errors import UserError
from plumbing.numbers import rounded_plain
from wordle.game import DEFAULT_MAX_GUESSES

from .answer_model import AnswerModel, widen
from .base import Agent, Decision
from wordle.familiarity import NEAR_BEST, WORD_ORDERS, is_known, known_first
from wordle.valuation import MAYBE_BETTER, maybe_better, order_key

from .model_value import SPLIT_FROM, GuessValue, Valuer
from .registry import make_agent, spec


class ContradictionError(UserError):
    """Steps that no answer fits; the message names the step that made it impossible."""


class NoAnswerFits(ContradictionError):
    """Steps after which no answer of the list is left: the answer may be outside the list."""


class StepError(UserError):
    """A step that is not written as a word and a pattern."""


@dataclass(frozen=True)
class Suggestion:
    """A guess the agent recommends, with what it would bring.

    Attributes:
        guess: the guess index.
        information: expected information of the reply, bits.
        chance: the chance that the guess is the answer.
        score: the agent's own value of the guess (its scale), if it gives one.
        worst: the largest group of answers one reply can leave.
        expected_left: answers left after the reply, on average (0 when the guess is the answer).
        expected_guesses: guesses to finish, this one included: the solver's value's estimate when `value` is
            given, else the cost-to-go model's.
        value: the solver's value under the answer model (the default advisor's suggestions).
    """

    guess: int
    information: float
    chance: float
    score: float | None
    worst: int = 0
    expected_left: float = 0.0
    expected_guesses: float = 0.0
    value: GuessValue | None = None


@dataclass(frozen=True)
class Advice:
    """Where the game stands after the steps, and the agent's suggestions.

    Attributes:
        agent: the advising agent's name.
        state: the game state after the steps.
        steps: the steps replayed, first first.
        suggestions: best first; empty once the game is solved or out of guesses.
        fallback: whether they are the advisor's shallower search's, its full search having
            needed more nodes than its budget (see make_advisor).
        model: the answer model advised under (None: the game's answer list, all equally likely).
        notes: one line per widening of the model.
        proved: with the default advisor, whether the first suggestion is proved optimal (None otherwise).
        capped: with the default advisor, whether the time cap (not the node budget) cut its search.
        exact_best: the best by value, where a commoner word within NEAR_BEST of it is shown first (else None).
    """

    agent: str
    state: State = field(repr=False)
    steps: tuple[Turn, ...]
    suggestions: tuple[Suggestion, ...]
    fallback: bool = False
    model: AnswerModel | None = field(default=None, repr=False)
    notes: tuple[str, ...] = ()
    proved: bool | None = None
    capped: bool = False
    exact_best: Suggestion | None = None

    @property
    def remaining(self) -> int:
        """How many answers still fit every reply."""
        return len(self.state.candidates)

    @property
    def bits_left(self) -> float:
        """The uncertainty left: log2 of the answers remaining."""
        return math.log2(self.remaining)

    @property
    def last_bits(self) -> float | None:
        """What the last guess gained, in bits (None before the first step)."""
        return self.steps[-1].bits if self.steps else None

    @property
    def solved(self) -> bool:
        """Whether the last pattern was all green."""
        return self.state.solved

    def maybe_better(self, suggestion: Suggestion) -> bool:
        """Whether a suggestion with no tree has a bound below the first suggestion's value (shown as such)."""
        if suggestion.value is None or not self.suggestions or self.suggestions[0].value is None:
            return False
        return maybe_better(suggestion.value.value, self.suggestions[0].value.value)

    @property
    def all_proved(self) -> bool:
        """Whether every suggestion's value is proved (the solver's advice only)."""
        return all(s.value is not None and s.value.proved for s in self.suggestions)


#: The advisor assist and the web use unless told otherwise: the optimal solver within the valuation budget.
ADVISOR = "optimal"
#: How many guesses the cost-to-go model shortlists for the default advisor's solver to value (besides its best).
SHORTLIST = 12
#: Up to this many candidates the cost-to-go model shortlists over all of them; above, over the model's full-weight
#: tier among them (a pass over every guess and every candidate costs more than the valuation it feeds).
SHORTLIST_OVER_MOST = 3000
#: For a player's advice (assist, the web), this many words a player knows, the cost-to-go model's best, join the
#: shortlist, so a known word near the best can be found and shown first (`wordle.familiarity`).
KNOWN_SHORTLIST = 4
#: Under a weighted model, this many of the likeliest answers join the shortlist.
LIKELIEST = 3
#: A weighted position too big for one game (`agents.model_value.SPLIT_FROM`) that the weighted book does not cover
#: values this many of the shortlist (each a tree built reply by reply, about a minute on the shared machine).
SPLIT_SHORTLIST = 2

#: Node budgets of an advisor's decisions outside its opening plan, (second move, later moves): past
#: them a shallower search advises. Searched from an empty table, the default plan's second moves take
#: at most 41,469 nodes (hard mode; 712 in normal), so the first budget covers them: a second move's advice
#: is the same whether or not the plan is on disk. Following its own advice on every answer, expectimax
#: then needs at most 2,463 nodes a decision (normal mode; 2,187 in hard). Off that path the full search
#: can take 800,000 nodes (half a minute in hard mode). Measured by benchmarks/bench_advisor.py.
ADVICE_NODES = (50_000, 10_000)


def make_advisor(name: str, game: Wordle, bounded: bool = True, **settings) -> Agent:
    """The agent that advises: `make_agent`'s, keeping its first move on disk and bounding the rest when it searches.

    A searching advisor's decisions after its opening plan are the full search's when that
    needs at most ADVICE_NODES nodes, else a shallower search's, marked `Decision.fallback`
    (none when the settings name a node budget of their own, or without `bounded`: then it
    plays every move as the tournament does).
    """
    advice = {"keep_opening": True, "advice_nodes": list(ADVICE_NODES) if bounded else None}
    return make_agent(name, game, **settings, **{key: value for key, value in advice.items() if spec(name).advises(key)})


def parse_step(game: Wordle, text: str) -> tuple[int, int]:
    """A step written `word:pattern` or `word pattern` as (guess index, pattern code).

    Raises:
        StepError: not a word and a pattern.
        WordListError: the word is not an allowed guess.
        PatternError: the pattern is malformed.
    """
    return read_step(game.words, text)


def read_step(words: Words, text: str) -> tuple[int, int]:
    """A step read against word lists alone (no pattern matrix needed): `parse_step` before any game is built.

    Raises:
        StepError, WordListError, PatternError: as parse_step.
    """
    parts = text.replace(":", " ").split()
    if len(parts) != 2:
        raise StepError(f"'{text}' is not a step: write the guess and the colours the game showed, e.g. 'tares:-y--g'")
    word, pattern = parts
    return words.guess_id(word), parse_pattern(pattern)


def _describe(game: Wordle, number: int, guess: int, pattern: int) -> str:
    """A step as the messages name it, written as steps are typed: `step 2 (goary:-y---)`."""
    return f"step {number} ({format_step(game, guess, pattern)})"


def format_step(game: Wordle, guess: int, pattern: int) -> str:
    """A step in the one form the assistant shows: `tares:-y--g` (parse_step reads it back)."""
    return f"{game.words.guesses[guess]}:{format_pattern(pattern)}"


def replay(game: Wordle, steps: list[tuple[int, int]], hard: bool = False,
           max_guesses: int = DEFAULT_MAX_GUESSES, start: State | None = None,
           ultra: bool = False) -> tuple[State, tuple[Turn, ...]]:
    """Apply the steps from the start of a game, checking each one.

    Args:
        game: the game (its answer list says which answers are possible).
        steps: (guess index, pattern code) pairs, first first.
        hard: whether each guess must obey hard mode.
        max_guesses: the guess limit.
        start: the state to start from (default: the game's, every answer possible).
        ultra: whether each guess after the first must be a possible answer (ultra-hard mode; not with `hard`).

    Returns:
        (the state after the last step, the Steps with their counts).

    Raises:
        ContradictionError: a step after the game was solved or out of guesses, a guess
            that breaks hard mode, or a pattern no remaining answer gives (naming the step).
    """
    state = game.initial_state(hard=hard, max_guesses=max_guesses, ultra=ultra) if start is None else start
    done: list[Turn] = []
    for number, (guess, pattern) in enumerate(steps, start=1):
        described = _describe(game, number, guess, pattern)
        if state.solved:
            raise ContradictionError(f"{described}: the game was already solved at step {number - 1}")
        if state.guesses_left <= 0:
            raise ContradictionError(f"{described}: the game allows only {max_guesses} guesses")
        if (broken := game.violation(state, guess)) is not None:
            raise ContradictionError(f"{described}: {'ultra-hard' if state.ultra else 'hard'} mode: {broken}")
        before = len(state.candidates)
        after = int(np.count_nonzero(game.matrix[guess, state.candidates] == pattern))
        if after == 0:
            earlier = "any answer" if number == 1 else f"any of the {before} answers left after step {number - 1}"
            raise NoAnswerFits(
                f"{described} made the game impossible: no answer fits; this pattern is not what "
                f"{game.words.guesses[guess].upper()} gets from {earlier}")
        state = game.step(state, guess, pattern)
        done.append(Turn(guess=guess, pattern=pattern, remaining_before=before, remaining_after=after))
    return state, tuple(done)


def guess_stats(game: Wordle, candidates: np.ndarray, guesses: np.ndarray) -> tuple[PartitionStats, np.ndarray]:
    """The partition statistics of `guesses` over the candidates, and each one's expected guesses to finish.

    Expected guesses count this guess too, by the cost-to-go model F of heuristics/cost.py:
    1 + sum over the replies other than all green of P(reply) * F(answers the reply leaves)
    (a count of guesses: lower is better). Every command that shows expected guesses takes them from here.
    """
    stats = to_go_stats(game.matrix, candidates, np.asarray(guesses, dtype=np.int64), game.words.answer_rows,
                        cost_table(len(candidates)))
    return stats, guesses_to_go(stats)


def suggest(game: Wordle, decision: Decision, state: State, top: int = 10) -> tuple[Suggestion, ...]:
    """The advising agent's best guesses for the state, best first, with why each is good.

    Args:
        game: the game.
        decision: the advising agent's decision for the state (its alternatives are the
            ranking; its choice alone if it lists none).
        state: the Guesser-to-move state it decided.
        top: at most this many suggestions.

    Returns:
        Suggestions, best first.
    """
    ranked = list(decision.alternatives) or [(decision.guess, decision.value)]
    if all(guess != decision.guess for guess, _ in ranked):
        ranked.insert(0, (decision.guess, decision.value))
    n = len(state.candidates)
    stats, expected = guess_stats(game, state.candidates, np.array([guess for guess, _ in ranked]))
    suggestions = [
        Suggestion(guess=int(guess), information=float(stats.entropy[i]),
                   chance=(1.0 / n) if stats.can_win[i] else 0.0, score=None if value is None else float(value),
                   worst=int(stats.largest[i]), expected_left=float(stats.expected_size[i] - stats.can_win[i] / n),
                   expected_guesses=float(expected[i]))
        for i, (guess, value) in enumerate(ranked)
    ]
    return tuple(answers_first(suggestions)[:top])


def answers_first(suggestions: list[Suggestion]) -> list[Suggestion]:
    """The agent's order, except that within each run of guesses it values the same, possible answers come first.

    Such a swap costs nothing by the agent's own measure and may win a guess sooner.
    """
    runs: list[list[Suggestion]] = []
    for suggestion in suggestions:
        tied = runs and suggestion.score is not None and runs[-1][0].score is not None \
            and round(suggestion.score, 9) == round(runs[-1][0].score, 9)
        if tied:
            runs[-1].append(suggestion)
        else:
            runs.append([suggestion])
    return [s for run in runs for s in sorted(run, key=lambda s: s.chance == 0.0)]


def advise(game: Wordle, agent: Agent, texts: list[str], hard: bool = False, top: int = 10, seed: int = 0,
           max_guesses: int = DEFAULT_MAX_GUESSES) -> Advice:
    """Parse and replay the steps, then ask the agent: the assistant's whole answer.

    Args:
        game: the game.
        agent: the advising agent.
        texts: steps as people write them (`tares:-y--g`).
        hard: hard mode (each typed guess is checked; suggestions are legal guesses).
        top: at most this many suggestions.
        seed: seeds the agent's random generator.
        max_guesses: the guess limit.

    Returns:
        The Advice.
    """
    steps = [parse_step(game, text) for text in texts]
    return advise_steps(game, agent, steps, hard=hard, top=top, seed=seed, max_guesses=max_guesses)


def advise_steps(game: Wordle, agent: Agent, steps: list[tuple[int, int]], hard: bool = False, top: int = 10,
                 seed: int = 0, max_guesses: int = DEFAULT_MAX_GUESSES) -> Advice:
    """`advise` for steps already parsed into (guess index, pattern code) pairs."""
    state, done = replay(game, steps, hard=hard, max_guesses=max_guesses)
    if game.is_terminal(state):
        return Advice(agent=agent.name, state=state, steps=done, suggestions=())
    decision = agent.decide(state, np.random.default_rng(seed))
    return Advice(agent=agent.name, state=state, steps=done, suggestions=suggest(game, decision, state, top=top),
                  fallback=decision.fallback)


#: Said when a value shown is not proved (the budget in words filled in).
UNSETTLED_NOTE = ("Not settled within {budget}: the first suggestion is the best found so far, not proved "
                  "optimal, and values marked ≤, ≥ or ≈ are bounds or estimates.")


#: ... and when the first suggestion is proved optimal but another value shown is not.
PROVED_FIRST_NOTE = ("The first suggestion is proved optimal; values marked ≤, ≥ or ≈ were not settled within {budget}: "
                     "they are bounds or estimates.")


def advice_notes(advice: Advice) -> list[str]:
    """The default advisor's notes under its suggestions, the terminal's and the web's: unsettled values, the cap."""
    from wordle.valuation import CAPPED_NOTE
    from .model_value import OPENER_NODES, VALUE_BUDGET, budget_text

    notes = []
    if advice.proved is not None and advice.suggestions and not advice.all_proved:
        budget = budget_text(VALUE_BUDGET, advice.state.hard or advice.state.ultra)
        if advice.model is not None and not advice.model.uniform and len(advice.state.candidates) > SPLIT_FROM:
            budget = f"the weighted opening book, or {OPENER_NODES:,} sets of search for an opener it lacks"
        note = PROVED_FIRST_NOTE.format(budget=budget) if advice.proved else UNSETTLED_NOTE.format(budget=budget)
        notes.append(note.replace("the first suggestion", "the best").replace("The first suggestion", "The best")
                     if advice.exact_best is not None else note)
    if advice.capped:
        notes.append(f"The search was {CAPPED_NOTE}.")
    if advice.exact_best is not None:
        notes.append(known_first_note(advice))
    return notes


def known_first_note(advice: Advice) -> str:
    """The note under suggestions a commoner word heads: the margin, the frequency data, and the exact best."""
    best = advice.exact_best
    word = advice.model.game.words.guesses[best.guess] if advice.model is not None else str(best.guess)
    return (f"Guesses within {NEAR_BEST} expected guesses of the best come commonest first (wordfreq's word "
            f"frequency); the best is {word.upper()} ({best.value.text()}): --words all for the exact order.")


def advice_data(game: Wordle, advice: Advice) -> dict:
    """The advice as plain data (for --json): steps, counts, bits, answers left and suggestions."""
    words = game.words
    return {
        "agent": advice.agent,
        "hard": advice.state.hard,
        "mode": advice.state.mode,
        "steps": [{"guess": words.guesses[s.guess], "pattern": format_pattern(s.pattern),
                   "remaining_before": s.remaining_before, "remaining_after": s.remaining_after,
                   "bits": rounded_plain(s.bits, 6)} for s in advice.steps],
        "remaining": advice.remaining,
        "bits_left": rounded_plain(advice.bits_left, 6),
        "last_bits": None if advice.last_bits is None else rounded_plain(advice.last_bits, 6),
        "solved": advice.solved,
        "guesses_left": advice.state.guesses_left,
        "fallback": advice.fallback,
        "answers": [words.answers[a] for a in advice.state.candidates],
        "answer_chances": [] if advice.model is None else [rounded_plain(float(c), 6) for c in
                                                          advice.model.chances(advice.state.candidates)],
        "suggestions": [{"guess": words.guesses[s.guess], "information": rounded_plain(s.information, 6),
                         "chance": rounded_plain(s.chance, 6), "worst": s.worst, "expected_left": rounded_plain(s.expected_left, 6),
                         "expected_guesses": rounded_plain(s.expected_guesses, 6) if math.isfinite(s.expected_guesses) else None,
                         "score": None if s.score is None else rounded_plain(s.score, 6),
                         "value": None if s.value is None else s.value.data(),
                         "maybe_better": bool(advice.maybe_better(s))}
                        for s in advice.suggestions],
        "model": None if advice.model is None else advice.model.name,
        "model_description": None if advice.model is None else advice.model.describe(),
        "notes": list(advice.notes),
        "proved": None if advice.proved is None else bool(advice.proved),
        "all_proved": advice.proved is not None and advice.all_proved,
        "capped": advice.capped,
        "exact_best": None if advice.exact_best is None else words.guesses[advice.exact_best.guess],
        "value_notes": advice_notes(advice),
    }


def settle_model(model: AnswerModel, steps: list[tuple[int, int]], hard: bool, max_guesses: int,
                 answer: str | None = None, make_game: Callable[[Words], Wordle] = Wordle, ultra: bool = False
                 ) -> tuple[AnswerModel, State, tuple[Turn, ...], list[str]]:
    """The model a game is valued under: the one given, widened while the game (or its answer) contradicts it
    (`ultra`: the game was played in ultra-hard mode).

    Returns:
        (the model, the state after the steps, the replayed turns, one line per widening).

    Raises:
        NoAnswerFits: no allowed word fits the replies (the widest model, `all`, is contradicted too).
    """
    notes: list[str] = []
    while True:
        try:
            if answer is not None:
                index = model.game.words.answer_index.get(answer.strip().lower())
                if index is None or model.weights[index] == 0:
                    raise NoAnswerFits(f"{answer.upper()} is not one of its answers")
            state, turns = replay(model.game, steps, hard=hard, max_guesses=max_guesses,
                                  start=model.initial_state(hard, max_guesses, ultra))
            return model, state, turns, notes
        except NoAnswerFits as error:
            wider = widen(model, make_game)
            while ultra and wider is not None and not wider.uniform:  # ultra-hard values: every answer alike
                wider = widen(wider, make_game)
            if wider is None:
                if model.excluded:
                    raise NoAnswerFits(f"{error} (after excluding the {len(model.excluded)} words of the "
                                       "exclude list)") from None
                raise
            reason = str(error).split(";")[0]
            notes.append(f"The answer is outside the {model.name} model's list ({reason}); "
                         f"continuing with the wider {wider.name} model.")
            model = wider


def answer_chances(model: AnswerModel, candidates: np.ndarray) -> dict[int, float]:
    """Each possible answer's chance under the model, keyed by its guess index."""
    rows = model.game.words.answer_rows[candidates]
    return {int(row): float(chance) for row, chance in zip(rows, model.chances(candidates))}


#: With --only-answers, how many of the likeliest possible answers an agent's own ranking is filled up from.
ANSWERS_WEIGHED = 200


def answers_beyond(game: Wordle, state: State, chance_of: dict[int, float], shown: tuple[Suggestion, ...],
                   count: int) -> tuple[Suggestion, ...]:
    """Possible answers an agent did not rank (its ranking may hold none), by expected guesses to finish.

    Only the ANSWERS_WEIGHED likeliest are weighed; ties go to the likelier, then to the alphabet.
    """
    taken = {s.guess for s in shown}
    rows = sorted((row for row in chance_of if row not in taken), key=lambda row: (-chance_of[row], row))
    rows = rows[:ANSWERS_WEIGHED]
    if not rows or count < 1:
        return ()
    extra = suggest(game, Decision(guess=rows[0], alternatives=tuple((row, None) for row in rows)), state,
                    top=len(rows))
    extra = sorted((replace(s, chance=chance_of[s.guess]) for s in extra),
                   key=lambda s: (round(s.expected_guesses, 9), -s.chance, game.words.guesses[s.guess]))
    return tuple(extra[:count])


def solver_suggestions(valuer: Valuer, state: State, top: int = 10, only_answers: bool = False,
                       words: str | None = None) -> tuple[tuple[Suggestion, ...], bool, bool]:
    """The default advisor's suggestions, ordered by their values under the answer model by `rank_key`.

    `words`: None, the advisor agent's (the cost-to-go shortlist alone, in the exact order); a player's, "all" or
    "known": the KNOWN_SHORTLIST words a player knows that the cost-to-go model rates best are valued too, and with
    "known" those whose real trees are within NEAR_BEST of the best's come commonest first
    (`wordle.familiarity.known_first`), the rest in the exact order ("all": the exact order).

    The cost-to-go model shortlists SHORTLIST guesses (among the possible answers with `only_answers`), the
    solver values them and finds its own best within the valuation budget. They are ordered by what is
    achieved (`wordle.valuation.rank_key`: a guess with a tree before any without one, never by a lower
    bound); ties go to possible answers, then to the lower guess index (the alphabet).

    Returns:
        (the suggestions, whether the first is proved optimal, whether the time cap cut the search).
    """
    model = valuer.model
    game = model.game
    candidates = state.candidates
    pool = game.legal_guesses(state)
    if only_answers:
        pool = np.intersect1d(pool, game.words.answer_rows[candidates])
    over = candidates if len(candidates) <= SHORTLIST_OVER_MOST or not (candidates < model.tier).any() \
        else candidates[candidates < model.tier]
    expected = guess_stats(game, over, pool)[1]
    by_cost = pool[np.argsort(expected, kind="stable")]
    shortlist = [int(g) for g in by_cost[:max(SHORTLIST, top)]]
    if words is not None:  # a player's advice: the words they know that the cost-to-go model rates best, valued too
        taken = set(shortlist)
        shortlist += [int(g) for g in by_cost if int(g) not in taken and is_known(game.words.guesses[g])][:KNOWN_SHORTLIST]
    opening = valuer.opening_shortlist(state, max(SHORTLIST, top))
    allowed = set(pool.tolist())
    if opening:  # the weighted opening book's openers: each valued there already (others cost a search each)
        shortlist = [g for g in opening if g in allowed]
    elif not model.uniform:  # the likeliest answers too: under weights they may beat any splitting guess
        likeliest = np.argsort(-model.weights[candidates], kind="stable")[:LIKELIEST]
        shortlist += [int(g) for g in game.words.answer_rows[candidates[likeliest]] if int(g) in allowed]
        if len(candidates) > SPLIT_FROM:  # no book: each guess costs a tree over every answer, reply by reply
            shortlist = shortlist[:SPLIT_SHORTLIST]
    found = valuer.value(state, shortlist)
    valued = [g for g in found.guesses if not only_answers or g in set(pool.tolist())]
    chance_of = answer_chances(model, candidates)
    stats, _ = guess_stats(game, candidates, np.array(valued))
    suggestions = [
        Suggestion(guess=guess, information=float(stats.entropy[i]), chance=chance_of.get(guess, 0.0), score=None,
                   worst=int(stats.largest[i]),
                   expected_left=float(stats.expected_size[i] - stats.can_win[i] / len(candidates)),
                   expected_guesses=found.guesses[guess].estimate, value=found.guesses[guess])
        for i, guess in enumerate(valued)]
    suggestions.sort(key=lambda s: order_key(s.value.value, s.chance > 0.0, s.guess))
    # no padding: a guess that cannot be the answer is shown only if it is not proved worse than the best answer
    best_answer = min((s.value.value.high for s in suggestions if s.chance > 0.0), default=math.inf)
    suggestions = [s for s in suggestions if s.chance > 0.0 or s.value.value.low <= best_answer]
    first = suggestions[0].guess if suggestions else None
    if words is not None and words not in WORD_ORDERS:
        raise ValueError(f"words must be one of {WORD_ORDERS}, got {words!r}")
    if words == "known":
        suggestions = known_first(suggestions, lambda s: s.value.value, lambda s: game.words.guesses[s.guess])
    return tuple(suggestions[:top]), bool(found.proved and first == found.best), bool(found.capped)


def advise_model(model: AnswerModel, steps: list[tuple[int, int]], agent: Callable[[Wordle], Agent] | None = None,
                 hard: bool = False, top: int = 10, seed: int = 0, max_guesses: int = DEFAULT_MAX_GUESSES,
                 only_answers: bool = False, valuer: Valuer | None = None,
                 make_game: Callable[[Words], Wordle] = Wordle, ultra: bool = False, words: str | None = None,
                 partial: Callable[[Advice], None] | None = None) -> Advice:
    """The assistant's whole answer under an answer model: widen it if the steps contradict it, then advise
    (`ultra`: ultra-hard mode: typed guesses are checked, suggestions are legal; `words`: "known" shows the
    default advisor's near-best guesses commonest first, "all" the exact order, both valuing the known words
    `solver_suggestions` adds; None, the advisor agent's: its shortlist alone, in the exact order).

    Args:
        model: the answer model.
        steps: (guess index, pattern code) pairs.
        agent: builds the advising agent over a game; None for the default advisor (the solver's values).
        hard, top, seed, max_guesses: as `advise_steps`.
        only_answers: suggest only words that can still be the answer.
        valuer: the default advisor's Valuer to reuse (ignored unless it is the settled model's).
        make_game: builds a wider model's game.
        partial: called, before any guess is valued, with the advice so far: the steps, the answers left and their
            chances, no suggestion yet (the web page shows it while the values are found).
    """
    model, state, done, notes = settle_model(model, steps, hard, max_guesses, make_game=make_game, ultra=ultra)
    if state.solved or state.guesses_left <= 0:
        return Advice(agent=ADVISOR if agent is None else agent(model.game).name, state=state, steps=done,
                      suggestions=(), model=model, notes=tuple(notes))
    advisor = None if agent is None else agent(model.game)
    if partial is not None:
        partial(Advice(agent=ADVISOR if advisor is None else advisor.name, state=state, steps=done, suggestions=(),
                       model=model, notes=tuple(notes)))
    if agent is None:
        valuer = valuer if valuer is not None and valuer.model is model else Valuer(model)
        order = None if words is None else "all"  # the exact order, valued once (a player's: known words too)
        exact, proved, capped = solver_suggestions(valuer, state, top, only_answers, order)
        suggestions = exact
        if words == "known":  # the values are those just found: reordered, not searched again
            suggestions = tuple(known_first(list(exact), lambda s: s.value.value, lambda s: model.game.words.guesses[s.guess]))
        elif words not in (None, *WORD_ORDERS):
            raise ValueError(f"words must be one of {WORD_ORDERS}, got {words!r}")
        return Advice(agent=ADVISOR, state=state, steps=done, suggestions=suggestions, model=model,
                      notes=tuple(notes), proved=proved, capped=capped,
                      exact_best=exact[0] if exact and suggestions[0].guess != exact[0].guess else None)
    decision = advisor.decide(state, np.random.default_rng(seed))
    suggestions = suggest(model.game, decision, state, top=top * 4 if only_answers else top)
    chance_of = answer_chances(model, state.candidates)
    suggestions = tuple(replace(s, chance=chance_of.get(s.guess, 0.0)) for s in suggestions
                        if not only_answers or s.guess in chance_of)[:top]
    if only_answers and len(suggestions) < top:
        suggestions += answers_beyond(model.game, state, chance_of, suggestions, top - len(suggestions))
    return Advice(agent=advisor.name, state=state, steps=done, suggestions=suggestions, fallback=decision.fallback,
                  model=model, notes=tuple(notes))


__all__ = ["ADVICE_NODES", "ADVISOR", "MAYBE_BETTER", "UNSETTLED_NOTE", "advice_notes", "advise_model", "settle_model", "solver_suggestions", "Advice", "ContradictionError", "NoAnswerFits", "StepError", "Suggestion", "advice_data",
           "advise", "advise_steps", "answers_first", "format_step", "guess_stats", "make_advisor", "parse_step",
           "replay", "suggest"]
