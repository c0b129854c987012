"""Fixed starts: the total guesses over every answer of two or three fixed first words followed by best play.

Costs here are the exact solver's packed costs (`wordle.solver`: lower is better, the Guesser's).

A fixed start is played as a person who opens with the same words every day plays them: the first word, and,
unless it was the answer, the second whatever its reply, and so on; after the last fixed word, best play. Its
total is therefore the sum, over the positions the fixed words leave (one per sequence of replies), of each
position's proved optimum with the guesses left, plus the fixed guesses every answer paid to get there
(`start_cost`). An answer a fixed word hits ends its game there.

In hard and ultra-hard mode every fixed word after the first must be legal after every reply of the words before
it that some answer still gives (a player cannot otherwise keep the start); `start_violation` says where it is
not. Since a reply that makes a letter of the first word green binds the second word to that letter there, hard
mode admits only rare starts (see docs/fixed-starts.md).

In normal mode the order of a pair changes only what its two words' own answers pay: the positions after both
words are the same sets with the same guesses left, so total(b, a) = total(a, b) + [a is an answer] -
[b is an answer] (`swapped_total`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from .feedback import ALL_GREEN
from .game import State, Wordle
from .patterns import format_pattern
from .replies import partition
from .solver import INFEASIBLE, SCALE, Solver

#: The most fixed words a start may have (three already leave most answers alone).
MOST_FIXED = 3


class StartError(ValueError):
    """A fixed start that cannot be played: a word not allowed, a duplicate, or a word illegal after some reply."""


@dataclass(frozen=True)
class StartValue:
    """A fixed start's value: its total and games over 5 (exact), or a proved lower bound at least the limit asked.

    total is -1 where some position it leaves cannot be won within the guesses left (no win, proved).
    """

    words: tuple[str, ...]
    total: int
    long_games: int
    exact: bool
    positions: int
    answers: int
    nodes: int
    seconds: float

    @property
    def average(self) -> float:
        """Guesses per answer (-1 for no win)."""
        return round(self.total / self.answers, 6) if self.total >= 0 else -1.0


def parse_start(game: Wordle, text: str | Sequence[str]) -> tuple[int, ...]:
    """The fixed words' guess indices from 'parse,clint' (or a list of words).

    Raises:
        StartError: fewer than two words or more than MOST_FIXED, a word not allowed, or a word given twice.
    """
    words = [word.strip().lower() for word in (text.split(",") if isinstance(text, str) else text)]
    if not 2 <= len(words) <= MOST_FIXED:
        raise StartError(f"a fixed start is 2 or {MOST_FIXED} words separated by commas (got {len(words)})")
    for word in words:
        if word not in game.words.guess_index:
            raise StartError(f"'{word[:20]}' is not an allowed guess")
    if len(set(words)) < len(words):
        twice = next(word for word in words if words.count(word) > 1)
        raise StartError(f"{twice.upper()} is given twice: a fixed start's words are different")
    return tuple(game.words.guess_index[word] for word in words)


def start_violation(game: Wordle, state: State, words: Sequence[int]) -> str | None:
    """Where a fixed start cannot be played from `state` (hard or ultra-hard mode), in words, or None.

    Each word after the first must be legal after every reply of the words before it that some answer gives
    (an answer a word hits ends the game: its reply binds nothing).
    """
    if not (state.hard or state.ultra) or not words:
        return None
    if (broken := game.violation(state, words[0])) is not None:
        played = " ".join(f"{game.words.guesses[g].upper()} {format_pattern(code)}" for g, code in state.history)
        return f"{game.words.guesses[words[0]].upper()} after {played}: {broken}"
    for code, group in partition(game.matrix[words[0], state.candidates], state.candidates):
        if code == ALL_GREEN or len(words) == 1:
            continue
        problem = start_violation(game, game.step(state, words[0], code), words[1:])
        if problem is not None:
            return problem
    return None


def start_cost(solver: Solver, words: Sequence[int], limit: int = INFEASIBLE,
               on_position: Callable[[int, int], None] | None = None) -> int:
    """The packed cost of the fixed `words` followed by best play over every answer, if below `limit`; else a proved
    lower bound at least `limit` (INFEASIBLE: some position it leaves cannot be won).

    Args:
        solver: the exact solver of the game, mode and guess limit (its memory serves every position).
        words: the fixed guesses, in order (legal: `start_violation`).
        limit: costs at or above it are not wanted exactly.
        on_position: called with (positions done, positions) as each position the start leaves is solved.
    """
    game = solver.game
    state = game.initial_state(hard=solver.hard, max_guesses=solver.max_guesses, ultra=solver.ultra)
    hits, leaves = positions(solver, np.asarray(state.candidates), solver.max_guesses, solver.prover.root_hints,
                             words)
    floors = [solver.floor(len(group), left) for _, group, left, _ in leaves]
    total = hits + sum(paid for paid, *_ in leaves) + sum(floors)
    done = 0
    for (_, group, left, hints), floor in sorted(zip(leaves, floors), key=lambda item: -len(item[0][1])):
        if total >= limit:
            return total
        value = solver.try_guess(group, left, hints, int(words[-1]), limit - total + floor)
        total += value - floor
        done += 1
        if on_position is not None:
            on_position(done, len(leaves))
    return total


def positions(solver: Solver, answers: np.ndarray, left: int, hints, words: Sequence[int]) -> tuple[int, list[tuple]]:
    """What the answers the fixed words but the last hit pay, and the sets those words leave, each as (what its
    answers paid for the fixed words before it, the answers, guesses left, hints); the last fixed word is played
    at each of those sets. Costs are packed (with games over 5).
    """
    if len(words) == 1:
        return 0, [(0, answers, left, hints)]
    guess = int(words[0])
    costs = solver.costs
    found: list[tuple] = []
    hits = 0
    for code, group in partition(solver.game.matrix[guess, answers], answers):
        if code == ALL_GREEN:
            hits += costs.hit(left)
            continue
        child_hints = solver.passes.reply_hints(hints, guess, code)
        below, leaves = positions(solver, group, left - 1, child_hints, words[1:])
        hits += below + SCALE * (len(group) - sum(len(leaf) for _, leaf, _, _ in leaves))
        found.extend((paid + len(leaf) * SCALE, leaf, leaf_left, leaf_hints)
                     for paid, leaf, leaf_left, leaf_hints in leaves)
    return hits, found


def value_start(solver: Solver, words: Sequence[int], limit: int = INFEASIBLE,
                on_position: Callable[[int, int], None] | None = None) -> StartValue:
    """A fixed start's value with this solver (see `start_cost`), as a StartValue with its work."""
    import time

    started, nodes = time.perf_counter(), solver.stats.nodes
    solver.root = None
    cost = start_cost(solver, words, limit, on_position)
    game = solver.game
    count = left_positions(game, words)
    exact = cost < limit or cost >= INFEASIBLE
    total, long_games = (cost // SCALE, cost % SCALE) if cost < INFEASIBLE else (-1, -1)
    return StartValue(words=tuple(game.words.guesses[w] for w in words), total=total,
                      long_games=long_games if exact else 0, exact=exact, positions=count,
                      answers=len(game.words.answers), nodes=solver.stats.nodes - nodes,
                      seconds=round(time.perf_counter() - started, 3))


def left_positions(game: Wordle, words: Sequence[int]) -> int:
    """How many positions the fixed words leave: the answers' distinct reply sequences, less those a word hits."""
    replies = np.stack([game.matrix[int(w), game.all_answers].astype(np.int64) for w in words])
    open_ = ~(replies == ALL_GREEN).any(axis=0)
    keys = np.zeros(len(game.all_answers), dtype=np.int64)
    for row in replies:
        keys = keys * 243 + row
    return len(np.unique(keys[open_]))


def swapped_total(game: Wordle, first: int, second: int, total: int) -> int:
    """Normal mode: the total of the pair in the other order, from this order's (see the module's docstring).

    >>> from wordle import Words
    >>> game = Wordle(Words.build(("abide", "crane"), ("abide", "crane", "lofty")))
    >>> swapped_total(game, 2, 1, 5)  # LOFTY, CRANE: 5 (abide 3, crane 2) -> CRANE, LOFTY: crane 1, abide 3
    4
    """
    rows = set(game.words.answer_rows.tolist())
    return total + (first in rows) - (second in rows)


#: The sub-problems a review may spend on a game's fixed start (a count: the same verdict on any machine; the
#: valuation's safety cap on wall time applies too). PARSE,CLINT on cold memory takes about 300.
START_NODES = 3000


@dataclass(frozen=True)
class StartCost:
    """What a game's first words cost as a fixed start against the best opener's proved optimum, or why it is not
    computed (`value` None, `reason` saying why)."""

    words: tuple[str, ...]
    value: StartValue | None = None
    best_opener: str | None = None
    best_total: int | None = None
    reason: str | None = None

    @property
    def extra(self) -> int | None:
        """Guesses over every answer the fixed start costs beyond the best opener's optimum (None: not computed)."""
        if self.value is None or self.best_total is None or self.value.total < 0:
            return None
        return self.value.total - self.best_total

    def text(self) -> str:
        """One line for a player."""
        named = ",".join(word.upper() for word in self.words)
        if self.value is None:
            return f"Fixed start {named}: not computed ({self.reason})."
        if self.value.total < 0:
            return f"Fixed start {named}: no tree after it wins every answer within the guess limit (proved)."
        answers = self.value.answers
        return (f"Fixed start {named} then best play: {self.value.total} guesses over {answers} answers "
                f"({self.value.average:.4f} a game), {self.extra} more than {self.best_opener.upper()}'s proved "
                f"optimum {self.best_total} (+{self.extra / answers:.4f} a game), proved.")

    def data(self) -> dict:
        """As plain data (review --json)."""
        return {"words": list(self.words), "computed": self.value is not None, "reason": self.reason,
                "total": None if self.value is None else self.value.total,
                "long_games": None if self.value is None else self.value.long_games,
                "best_opener": self.best_opener, "best_total": self.best_total, "extra": self.extra,
                "extra_per_answer": None if self.extra is None else round(self.extra / self.value.answers, 6)}


def start_against_best(game: Wordle, words: Sequence[int], hard: bool = False, max_guesses: int = 6,
                       ultra: bool = False, nodes: int = START_NODES, seconds: float | None = None) -> StartCost:
    """A game's first words as a fixed start, against the shipped opening book's proved best opener, within a budget.

    Not computed (said why) where the start cannot be kept every day in this mode, no book holds these lists and
    mode, or the solver's budget runs out first; never a guessed number.
    """
    import time as clock

    from .book import opening_book
    from search.limits import BudgetSpent

    named = tuple(game.words.guesses[w] for w in words)
    if ultra:
        return StartCost(named, reason="ultra-hard mode has no opening book")
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    if (broken := start_violation(game, state, words)) is not None:
        return StartCost(named, reason=f"not a start hard mode lets a player keep every day: {broken}")
    book = opening_book(game.words.guesses, game.words.checksum, hard, max_guesses)
    if book.best is None:
        return StartCost(named, reason="no opening book holds these lists and mode, so the best opener's optimum "
                                       "is not known")
    solver = Solver(game, hard=hard, max_guesses=max_guesses)
    solver.node_limit = nodes
    if seconds is not None:
        solver.deadline = clock.perf_counter() + seconds
    try:
        value = value_start(solver, words)
    except BudgetSpent as spent:
        cap = "its time cap" if spent.spent == "time cap" else f"{nodes:,} sub-problems"
        return StartCost(named, reason=f"not settled within {cap}")
    return StartCost(named, value=value, best_opener=game.words.guesses[book.best],
                     best_total=book.exact[book.best] // SCALE)


def hard_mode_pairs(game: Wordle) -> list[tuple[int, int]]:
    """Every ordered pair of different words a player can keep as a fixed start in hard mode (`start_violation`).

    Most first words admit none: where some answer other than the first word holds the first word's letter at a
    position, a reply makes that letter green there, and hard mode then binds the second word to it; a first word
    with all five positions so bound leaves only itself. The rest are checked in full.
    """
    guesses = np.array([list(word) for word in game.words.guesses])
    answers = np.array([list(word) for word in game.words.answers])
    rows = game.words.answer_rows
    state = game.initial_state(hard=True)
    found = []
    for first in range(len(guesses)):
        bound = [bool(np.any((answers[:, i] == guesses[first, i]) & (rows != first))) for i in range(5)]
        if all(bound):
            continue
        keep = np.ones(len(guesses), dtype=bool)
        for i in np.flatnonzero(bound):
            keep &= guesses[:, i] == guesses[first, i]
        keep[first] = False
        found += [(first, int(second)) for second in np.flatnonzero(keep)
                  if start_violation(game, state, (first, int(second))) is None]
    return found
