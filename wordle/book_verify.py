"""Re-checking a shipped book and position table with the exact solver (`python cli.py verify --book`).

Costs here are the optimal solver's packed costs (lower is better; see `wordle.solver`).

The checks on load (`wordle.book`) say a file is the one named and agrees with itself; this
says it is true: the best opener's exact total (and a seeded sample of the other exact
ones) solved again and its tree replayed over every answer, a seeded sample of the proved
bounds and "no win" entries proved again under their bound, and a seeded sample of the
position table's replies solved again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .book import SHELF, BookError, OpeningBook, PositionTable, Shelf, _book_or_error, _table_or_error
from .game import Wordle
from .hardmode import Hints, extend_hints
from .solver import INFEASIBLE, SCALE, Limits, Solver, unpack
from .positions import reply_groups


@dataclass
class BookCheck:
    """What a re-check did: counts of each kind of entry checked, and every problem found (one line each)."""

    exact: int = 0
    bounds: int = 0
    no_win: int = 0
    replies: int = 0
    problems: list[str] = field(default_factory=list)


def replay_total(solver: Solver, opener: int) -> tuple[int, int, int]:
    """Play every answer through the solver's optimal tree after `opener`: (total guesses, games over 5, losses).

    The game's own rules play each game (hard mode's too), so the total is that of a real tree.
    """
    game = solver.game
    total = long_games = losses = 0
    choose = solver.chooser(opener)
    for answer in range(len(game.words.answers)):
        played = game.play(choose, answer, hard=solver.hard, max_guesses=solver.max_guesses)
        losses += not played.solved
        total += len(played.turns)
        long_games += len(played.turns) > solver.long_game
    return total, long_games, losses


def _sample(items: list, count: int, rng: np.random.Generator) -> list:
    """`count` items drawn without replacement (all of them if there are fewer), in their order."""
    if len(items) <= count:
        return items
    return [items[i] for i in sorted(rng.choice(len(items), size=count, replace=False))]


def verify_book(game: Wordle, hard: bool, max_guesses: int = 6, sample: int = 10, seed: int = 0,
                shelf: Shelf = SHELF, on_step: Callable[[str], None] | None = None) -> BookCheck:
    """Re-check the book and position table of one mode against the exact solver.

    Args:
        game: the game over the book's lists.
        hard: which mode's book.
        sample: how many of each kind (other exact totals, bounds, no-win entries, table replies) to re-prove.
        seed: the seed of those samples.
        shelf: where the files are and the checksums they must have.
        on_step: called with what is being checked, before each step.

    Returns:
        The counts checked and the problems found (none when the book is true).
    """
    check = BookCheck()
    rng = np.random.default_rng(seed)
    step = on_step or (lambda _: None)
    words = game.words
    try:
        book = _book_or_error(tuple(words.guesses), words.checksum, hard, max_guesses, shelf)
    except BookError as error:
        check.problems.append(f"the {'hard' if hard else 'normal'} book is refused: {error}")
        return check
    if book is None:
        check.problems.append(f"no {'hard' if hard else 'normal'} book is shipped for these word lists")
        return check
    solver = Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits())
    _check_exact(solver, book, sample, rng, check, step)
    _check_bounds(solver, book, sample, rng, check, step)
    try:
        table = _table_or_error(game, hard, max_guesses, shelf)
    except BookError as error:
        check.problems.append(f"the {'hard' if hard else 'normal'} position table is refused: {error}")
        return check
    if table is not None:
        _check_table(solver, table, sample, rng, check, step)
    return check


def _root(solver: Solver) -> tuple[np.ndarray, Hints | None]:
    """Every answer, and the hints at the start (hard mode)."""
    return np.arange(len(solver.game.words.answers)), Hints() if solver.hard else None


def _check_exact(solver: Solver, book: OpeningBook, sample: int, rng: np.random.Generator, check: BookCheck,
                 step: Callable[[str], None]) -> None:
    """The best opener and a sample of the other exact ones: solved again, their trees replayed over every answer."""
    words = solver.game.words.guesses
    others = sorted(opener for opener in book.exact if opener != book.best)
    answers, hints = _root(solver)
    for opener in [book.best, *_sample(others, sample, rng)]:
        step(f"solving {words[opener].upper()} again")
        cost = solver.try_guess(answers, solver.max_guesses, hints, opener, INFEASIBLE)
        check.exact += 1
        if cost != book.exact[opener]:
            check.problems.append(f"{words[opener]}: the book says {unpack(book.exact[opener])[0]}, "
                                  f"the solver {'no win' if cost >= INFEASIBLE else unpack(cost)[0]}")
            continue
        total, long_games, losses = replay_total(solver, opener)
        if losses or total * SCALE + long_games != cost:
            check.problems.append(f"{words[opener]}: its tree, replayed over every answer, takes {total} guesses "
                                  f"({losses} lost), not {unpack(cost)[0]}")


def _check_bounds(solver: Solver, book: OpeningBook, sample: int, rng: np.random.Generator, check: BookCheck,
                  step: Callable[[str], None]) -> None:
    """A sample of the proved lower bounds and of the no-win entries, proved again."""
    words = solver.game.words.guesses
    answers, hints = _root(solver)
    for opener in _sample(sorted(book.lower), sample, rng):
        step(f"proving {words[opener].upper()}'s bound again")
        cost = solver.try_guess(answers, solver.max_guesses, hints, opener, book.lower[opener])
        check.bounds += 1
        if cost < book.lower[opener]:
            check.problems.append(f"{words[opener]}: the book's bound {book.lower[opener] // SCALE} is false "
                                  f"(a tree of {unpack(cost)[0]} exists)")
    for opener in _sample(sorted(book.no_win), sample, rng):
        step(f"proving {words[opener].upper()} has no win again")
        cost = solver.try_guess(answers, solver.max_guesses, hints, opener, INFEASIBLE)
        check.no_win += 1
        if cost < INFEASIBLE:
            check.problems.append(f"{words[opener]}: the book says no win, but a tree of {unpack(cost)[0]} exists")


def _check_table(solver: Solver, table: PositionTable, sample: int, rng: np.random.Generator, check: BookCheck,
                 step: Callable[[str], None]) -> None:
    """A sample of the table's replies solved again (settled ones exactly, the others under their bound)."""
    game = solver.game
    words = game.words.guesses
    groups = {}
    for opener in table.openers:
        for code, group in reply_groups(game, opener):
            groups[opener, code] = group
    for opener, code in _sample(sorted(table.replies), sample, rng):
        value = table.replies[opener, code]
        step(f"solving {words[opener].upper()} {code} again")
        hints = extend_hints(Hints(), words[opener], code) if solver.hard else None
        left = solver.max_guesses - 1
        cost = solver.solve_set(groups[opener, code], left, hints, INFEASIBLE if value.settled else value.low)
        check.replies += 1
        if value.settled and cost != value.low or not value.settled and cost < value.low:
            check.problems.append(f"{words[opener]} then reply {code}: the table says {_cost_text(value.low)}"
                                  f"{'' if value.settled else ' at least'}, the solver {_cost_text(cost)}")


def _cost_text(cost: int) -> str:
    """A packed cost in words."""
    return "no win" if cost >= INFEASIBLE else str(unpack(cost)[0])
