"""A guess's weighted value over a big set, reply by reply: each reply a game of its own answers, searched alone.

Costs here are the weighted solver's packed costs (`wordle.solver.weighted`: weight lost first, then weighted
guesses; lower is better). A tree opening with a guess costs the set's weight (every answer pays the
guess) plus each reply's cost with one guess fewer, so a guess over a big set (an opener over the
10681 answers of the likely model) is valued one reply at a time, each on a game of that reply's
answers alone (the pattern matrix's columns for them), never on the whole matrix transposed:

* high: a real tree: per reply the exact solver's within `exact_nodes` sets (where it settles), else
  the breadth-limited search's (`Limits.top`, each breadth in turn where given several; where its tree
  loses answers, the exact solver's within `repair_nodes` sets, if it settles); the tree is the
  replies' trees under the guess.
* low: per reply the exact cost where settled, else the larger of the bound the cut search proved and
  the least one-step bound over every guess there.

`guess_interval` is what the weighted opening book's build runs for each opener it covers
(`wordle.weighted_book`); it takes minutes an opener on the shared machine.

`bounded_interval` is what the weighted valuation asks at the opening for a guess the book lacks: a
bounded effort, counted in work (sets searched), so a busy machine gives the same answer:

* low: each reply's one-step bound (`WeightedSolver.least_bound`, no search), always;
* high: the breadth-1 trees of the replies, one after the other, while the searches of all of them
  together have entered at most `node_limit` sets. Where the limit is spent first, the guess has no
  tree (`high` None, `cut`): what is shown is the proved bound, marked as one.

It searches on one solver over the whole game (no game of its own per reply), its memory emptied
first, so the answer depends on the position and the guess alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from search.limits import BudgetSpent

from .feedback import ALL_GREEN
from .game import Wordle
from .hardmode import Hints, extend_hints
from .matrix import answer_columns
from .solver import Limits
from .replies import partition
from .solver.weighted import WeightedSolver, WeightedTree
from .words import Words


@dataclass(frozen=True)
class GuessInterval:
    """A guess's packed costs over a set: `low` proved, `high` its tree's; the tree, and the work it took.

    `cut`: a bounded effort spent its node limit before every reply had a tree: `high` and `tree` are None.
    """

    guess: int
    low: int
    high: int | None
    tree: WeightedTree | None
    nodes: int
    seconds: float
    replies: int
    settled: int
    cut: bool = False

    @property
    def proved(self) -> bool:
        """Whether the bounds meet."""
        return self.high is not None and self.low >= self.high


def reply_game(game: Wordle, answers: np.ndarray) -> Wordle:
    """The game over these answers alone (the same guesses; the pattern matrix's columns for them)."""
    words = Words.build(tuple(game.words.answers[int(a)] for a in answers), game.words.guesses,
                        source="the answers of one reply")
    return Wordle(words, answer_columns(game.matrix, answers))


def replies_of(game: Wordle, answers: np.ndarray, guess: int, hints: Hints | None,
               hard: bool) -> Iterator[tuple[int, np.ndarray, Hints | None]]:
    """Each reply of `guess` other than all green: (pattern, its answers, the hints it is solved under)."""
    for code, group in partition(game.matrix[guess, answers], answers):
        if code != ALL_GREEN:
            yield int(code), group, (extend_hints(hints or Hints(), game.words.guesses[guess], int(code))
                                     if hard else None)


def guess_interval(game: Wordle, weights: np.ndarray, answers: np.ndarray, left: int, hints: Hints | None,
                   guess: int, hard: bool, max_guesses: int, exact_nodes: int = 0, breadths: tuple[int, ...] = (1,),
                   on_reply: Callable[[int, int, int], None] | None = None, repair_nodes: int = 0) -> GuessInterval:
    """The interval of trees opening with `guess` over `answers` (indices of `game`'s answers), reply by reply.

    Args:
        game: the rules and the pattern matrix.
        weights: every answer's integer weight (`wordle.solver.weighted.integer_weights`).
        answers: the answers still possible; left: guesses to go; hints: hard mode's (None in normal mode).
        guess: the guess valued.
        hard, max_guesses: the mode and the guess limit (the solvers' loss unit is that of the whole game's weights).
        exact_nodes: sets the exact solver may search per reply before the breadth-limited searches take over
            (0: none, the quick trees alone).
        breadths: the breadth-limited searches tried for a reply the exact solver did not settle, in turn; the best
            tree found is kept.
        on_reply: called with (replies done, replies in all, the work so far in sets) after each reply.
        repair_nodes: where a reply's best breadth-limited tree loses answers, the exact solver (losses first) may
            search this many sets for one that loses fewer (0: none).

    Returns:
        The GuessInterval (costs packed as a WeightedSolver over the whole game packs them).
    """
    started = time.perf_counter()
    total = int(weights[answers].sum())
    loss_unit = (max_guesses + 1) * int(weights.sum()) + 1
    low = high = total  # every answer pays this guess
    branches: dict[int, WeightedTree] = {}
    replies = list(replies_of(game, answers, guess, hints, hard))
    nodes = settled = 0
    for number, (code, group, child_hints) in enumerate(replies, start=1):
        local = reply_game(game, group)
        local_weights = weights[group]
        every = np.arange(len(group))
        exact = WeightedSolver(local, local_weights, hard=hard, max_guesses=max_guesses, loss_unit=loss_unit)
        reply_low, reply_high, tree = None, None, None
        if exact_nodes > 0 or len(group) <= 2 or left - 1 <= 2:
            exact.node_limit = None if len(group) <= 2 or left - 1 <= 2 else exact_nodes
            try:
                reply_low = reply_high = exact.solve_set(every, left - 1, child_hints)
                tree = exact.tree(every, left - 1, child_hints)
                settled += 1
            except BudgetSpent:
                exact.node_limit = None
            nodes += exact.stats.nodes
            exact.stats.nodes = 0
        if reply_high is None:
            exact.node_limit = None
            reply_low = max(exact.least_bound(every, left - 1, child_hints), exact.floor(every, left - 1))
            if exact_nodes > 0:  # the tier's uniform cost, within the same work
                exact.node_limit = exact.stats.nodes + exact_nodes
                try:
                    reply_low = max(reply_low, exact.set_floor(every, left - 1, child_hints))
                except BudgetSpent:
                    pass
                exact.node_limit = None
                nodes += exact.stats.nodes
            for breadth in breadths:
                quick = WeightedSolver(local, local_weights, hard=hard, max_guesses=max_guesses,
                                       limits=Limits(top=breadth), tier=False, loss_unit=loss_unit)
                cost = quick.solve_set(every, left - 1, child_hints)
                nodes += quick.stats.nodes
                if reply_high is None or cost < reply_high:
                    reply_high, tree = cost, quick.tree(every, left - 1, child_hints)
            if reply_high >= loss_unit and repair_nodes > 0:  # the tree loses answers: the exact search may not
                exact.forget_memory()
                exact.node_limit = exact.stats.nodes + repair_nodes
                try:
                    cost = exact.solve_set(every, left - 1, child_hints)
                    exact.node_limit = None
                    reply_low = cost
                    if cost < reply_high:
                        reply_high, tree = cost, exact.tree(every, left - 1, child_hints)
                    settled += 1
                except BudgetSpent:
                    pass
                exact.node_limit = None
                nodes += exact.stats.nodes
                exact.stats.nodes = 0
            reply_low = min(reply_low, reply_high)
        low += reply_low
        high += reply_high
        branches[code] = tree  # its guesses and replies are the whole game's (no node names an answer)
        if on_reply is not None:
            on_reply(number, len(replies), nodes)
    return GuessInterval(guess=guess, low=low, high=high, tree=WeightedTree(guess, branches), nodes=nodes,
                         seconds=time.perf_counter() - started, replies=len(replies), settled=settled)


def bounded_interval(solver: WeightedSolver, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                     node_limit: int) -> GuessInterval:
    """A guess's interval over `answers` within `node_limit` sets of search: its proved bound, and its tree where the
    replies' breadth-1 searches complete within the limit.

    Args:
        solver: a breadth-limited WeightedSolver (`Limits(top=1)`, no tier) over the whole game; its memory is
            emptied first, so the work counted (and so what is shown) depends on nothing valued before.
        answers: the answers still possible (indices of the solver's game's answers); left: guesses to go;
        hints: hard mode's (None in normal mode).
        guess: the guess valued.
        node_limit: the sets the searches of all the replies together may enter.

    Returns:
        The GuessInterval: `cut` (no tree, `high` None) where the limit was spent first; `settled` counts the replies
        the bound alone settles (no choice left).
    """
    started = time.perf_counter()
    game = solver.game
    replies = list(replies_of(game, answers, guess, hints, solver.hard))
    total = int(solver.weights[answers].sum())
    lows = [max(solver.least_bound(group, left - 1, child), solver.floor(group, left - 1)) if len(group) > 2
            else solver.floor(group, left - 1) for _, group, child in replies]
    low = total + sum(lows)
    settled = sum(len(group) <= 2 for _, group, _ in replies)
    solver.forget_memory()
    first = solver.nodes
    solver.node_limit = first + node_limit
    high = total
    try:
        for _, group, child in replies:
            high += solver.solve_set(group, left - 1, child)
    except BudgetSpent:
        return GuessInterval(guess=guess, low=low, high=None, tree=None, nodes=solver.nodes - first,
                             seconds=time.perf_counter() - started, replies=len(replies), settled=settled, cut=True)
    finally:
        solver.node_limit = None
    tree = WeightedTree(guess, {code: solver.tree(group, left - 1, child) for code, group, child in replies})
    return GuessInterval(guess=guess, low=min(low, high), high=high, tree=tree, nodes=solver.nodes - first,
                         seconds=time.perf_counter() - started, replies=len(replies), settled=settled)


__all__ = ["GuessInterval", "bounded_interval", "guess_interval", "replies_of", "reply_game"]
