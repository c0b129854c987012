"""The optimal decision tree: fewest total guesses over the answers still possible, then fewest games over 5.

Costs here are what the Guesser pays (lower is better), packed into one integer: each
guess an answer needs costs SCALE, and a game that needs more than 5 guesses costs 1
more, so comparing costs compares (total guesses, games over 5) in that order.

The search is a depth-first branch and bound over (answers, guesses left) sub-problems:

* Bounds for every guess at once: a guess that splits n answers into b non-green replies
  (and is itself one of them, s = 1, or not, s = 0) needs at least 3n - 2s - b guesses in
  all, since each reply's answers need at least 2m - 1 guesses after this one. One pass
  over the pattern matrix gives b and s for every guess.
* Best-first: guesses are tried in order of that bound; the first whose bound reaches the
  best total found so far (or the budget the caller passed down) ends the search.
* Budgets: a reply's sub-problem is searched with the budget the parent can still afford;
  a search that cannot finish under its budget returns a lower bound instead, remembered
  for the next visit.
* Sharper bounds for big replies: before a guess's replies are searched, each reply of at
  least SHARPEN_FROM answers gets its own one-step bound (the least bound over every guess
  there) in place of 2m - 1, largest first, stopping once the total reaches the budget.
* Rounds at the top: a given opener's replies are raised at most ROUNDS guesses at a time,
  reply after reply, so a total just past the cut-off is proved by many cheap searches.
* Exact answers for tiny sets: one answer costs one guess, two cost three, and with two
  guesses left only a guess that tells every answer apart will do.
* A deadline and a node limit, checked at every node: a search past them raises OutOfBudget.

Solved sub-problems are remembered by (answers, guesses left, and in hard mode the
hints): the exact cost or the best lower bound, and the best guess. The memory holds at
most `Limits.memo` entries and forgets the whole memory when it is full.
"""

from __future__ import annotations

import functools
import time
import weakref
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import keep_numba_cache
from .feedback import ALL_GREEN
from .game import State, Wordle
from .hardmode import Hints, hints_from, legal_mask
from .replies import distinct_replies, partition

#: One guess costs SCALE; a game over LONG_GAME guesses costs one more.
SCALE = 4096
LONG_GAME = 5
#: The cost of a sub-problem no tree solves within its guesses.
INFEASIBLE = 1 << 60
#: The bound given to a guess never worth trying (small enough to sort by, with ties, in 64 bits).
_NEVER = 1 << 40


#: Replies of at least this many answers get their one-step bound before they are searched.
SHARPEN_FROM = 10
#: A given opener's replies are raised in rounds of at most this many guesses each (0: one reply at a time).
ROUNDS = 3


class OutOfBudget(Exception):
    """The solver's deadline or node limit passed; the memory holds only finished sub-problems."""


@dataclass(frozen=True)
class Limits:
    """What the solver may consider.

    Attributes:
        top: None to consider every allowed guess at every node (the total is then a
            proof), or the best `top` guesses of each node by their bound (an upper bound).
        memo: most sub-problems remembered at once.
    """

    top: int | None = None
    memo: int = 4_000_000

    def __post_init__(self) -> None:
        if self.top is not None and self.top < 1:
            raise ValueError(f"top must be at least 1, got {self.top}")


@dataclass
class Stats:
    """What a solve has done so far (progress reports read it)."""

    nodes: int = 0
    memo_hits: int = 0
    forgotten: int = 0
    remembered: int = 0
    best: int | None = None
    bound: int = 0
    replies: int = 0
    replies_done: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        """Time since the solve began."""
        return time.perf_counter() - self.started


@dataclass(frozen=True)
class Solution:
    """A solved root: its best guess, total guesses, games over 5, and whether the total is proved."""

    guess: int
    total: int
    long_games: int
    proved: bool
    nodes: int
    seconds: float

    @property
    def cost(self) -> int:
        """The packed cost: total * SCALE + long_games."""
        return self.total * SCALE + self.long_games


def unpack(cost: int) -> tuple[int, int]:
    """(total guesses, games over 5) of a packed cost.

    >>> unpack(7920 * SCALE + 3)
    (7920, 3)
    """
    return cost // SCALE, cost % SCALE


def extend_hints(hints: Hints, word: str, pattern: int) -> Hints:
    """The hard-mode hints after one more (guess, pattern); the same as hints_from over the longer history."""
    history = [(word, pattern)]
    step = hints_from(history)
    fixed = dict(hints.fixed)
    fixed.update(step.fixed)
    at_least = dict(hints.at_least)
    for letter, count in step.at_least:
        at_least[letter] = max(count, at_least.get(letter, 0))
    return Hints(fixed=tuple(sorted(fixed.items())), at_least=tuple(sorted(at_least.items())))


def split_counts(columns: np.ndarray, guesses: np.ndarray | None, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each guess: how many different non-green replies it gets from `answers`, and whether it is one.

    Args:
        columns: the pattern matrix transposed (answers x guesses, C order).
        guesses: the guesses to judge, or None for all of them.
        answers: the answers still possible.

    Returns:
        (bins, hits): int arrays over the guesses.
    """
    patterns = (columns[answers] if guesses is None else columns[np.ix_(answers, guesses)]).T
    hits = (patterns == ALL_GREEN).any(axis=1)
    return distinct_replies(patterns) - hits, hits.astype(np.int64)


assert ALL_GREEN == 242


def lower_bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                 must_split: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each guess's one-step lower bound (Solver.bounds' 3n - 2s - b, packed) and whether it is an answer.

    The readable reference of `fast_lower_bounds`: split_counts, then the bound.

    Args:
        columns: the pattern matrix transposed (answers x guesses, C order).
        guesses: the guesses to judge.
        answers: the answers still possible.
        costs: what the answer solved by this guess, by the next one, and by a later one pays beyond SCALE.
        must_split: the next guess must be the answer (two guesses left), so only a guess that tells
            every answer apart is worth anything.

    Returns:
        (lower, hits): the bound (NEVER for a guess not worth trying) and 0/1 per guess.
    """
    bins, hits = split_counts(columns, guesses, answers)
    size = len(answers)
    lower = (size + 2 * (size - hits) - bins) * SCALE + hits * costs[0] + bins * costs[1]
    lower += (size - hits - bins) * costs[2]
    useless = (bins + hits) <= 1  # one reply from all of them tells nothing
    if must_split:
        useless |= bins + hits != size
    lower[useless] = _NEVER
    return lower, hits


@functools.lru_cache(maxsize=1)
def fast_lower_bounds() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """lower_bounds compiled with numba (one pass, each guess's replies in four 64-bit words), else the reference."""
    keep_numba_cache()  # numba reads its cache folder when first imported
    try:
        import numba
    except ImportError:
        return lower_bounds

    @numba.njit(cache=True, nogil=True)
    def kernel(columns, guesses, answers, hit_now, hit_next, hit_later, must_split, lower, hits):  # pragma: no cover
        count = guesses.shape[0]
        words = np.zeros((count, 4), np.uint64)
        for answer in answers:  # answers outer: each reads one contiguous row of the transposed matrix
            row = columns[answer]
            for j in range(count):
                pattern = row[guesses[j]]
                words[j, pattern >> 6] |= np.uint64(1) << np.uint64(pattern & 63)
        size = answers.shape[0]
        green = np.uint64(1) << np.uint64(242 & 63)
        for j in range(count):
            found = 0
            for k in range(4):
                word = words[j, k]
                while word:
                    word &= word - np.uint64(1)
                    found += 1
            hit = 1 if words[j, 242 >> 6] & green else 0
            bins = found - hit
            hits[j] = hit
            if found <= 1 or (must_split and found != size):
                lower[j] = 1 << 40
            else:
                lower[j] = ((size + 2 * (size - hit) - bins) * 4096 + hit * hit_now + bins * hit_next
                            + (size - hit - bins) * hit_later)

    def bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
               must_split: bool) -> tuple[np.ndarray, np.ndarray]:
        """lower_bounds, compiled."""
        lower = np.empty(len(guesses), np.int64)
        hits = np.empty(len(guesses), np.int64)
        kernel(columns, guesses, answers, costs[0], costs[1], costs[2], must_split, lower, hits)
        return lower, hits

    return bounds


assert _NEVER == 1 << 40 and SCALE == 4096


_COLUMNS: "weakref.WeakKeyDictionary[Wordle, np.ndarray]" = weakref.WeakKeyDictionary()


def transposed(game: Wordle) -> np.ndarray:
    """The game's pattern matrix transposed (answers x guesses, C order), made once per game and shared."""
    columns = _COLUMNS.get(game)
    if columns is None or columns.shape != game.matrix.T.shape:
        columns = _COLUMNS[game] = np.ascontiguousarray(game.matrix.T)
    return columns


class Solver:
    """Branch and bound for the optimal tree over one game, mode and guess limit.

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode's rule binds every guess after the first.
        max_guesses: the guess limit.
        limits: every guess (a proof) or the best few at each node, and the memory's size.
        long_game: games needing more guesses than this count as long (the second criterion).
    """

    def __init__(self, game: Wordle, hard: bool = False, max_guesses: int = 6, limits: Limits = Limits(),
                 long_game: int = LONG_GAME):
        self.game = game
        self.long_game = long_game
        self.hard = hard
        self.max_guesses = max_guesses
        self.limits = limits
        self.matrix = game.matrix
        self.columns = transposed(game)
        self.narrow = len(game.words.answers) <= 1 << 16
        self.words = game.words.guesses
        self.memo: dict[tuple, tuple[int, int, int]] = {}  # key -> (lower bound, exact cost or -1, best guess)
        self.stats = Stats()
        self.report: Callable[[Stats], None] | None = None
        self.root: tuple | None = None
        self.lower_bounds: Callable[..., tuple[np.ndarray, np.ndarray]] = fast_lower_bounds()
        self.sharpen_from = SHARPEN_FROM
        self.rounds = ROUNDS
        self.deadline: float | None = None  # time.perf_counter() past which a search raises OutOfBudget
        self.node_limit: int | None = None  # stats.nodes past which a search raises OutOfBudget

    # -- costs -------------------------------------------------------------------
    def hit(self, left: int) -> int:
        """What an answer pays for the guess that solves it, made with `left` guesses to go."""
        number = self.max_guesses - left + 1
        return SCALE + (number > self.long_game)

    def floor(self, size: int, left: int) -> int:
        """A lower bound on any set of `size` answers with `left` guesses to go: one solved now, the rest next."""
        if size == 1:
            return self.hit(left)
        return size * SCALE + self.hit(left) - SCALE + (size - 1) * self.hit(left - 1)

    # -- the search --------------------------------------------------------------
    def key(self, answers: np.ndarray, left: int, hints: Hints | None) -> tuple:
        """The memory's key of a sub-problem (answer indices as 16-bit numbers where they fit)."""
        return ((answers.astype(np.uint16) if self.narrow else answers).tobytes(), left, hints)

    def allowed(self, hints: Hints | None) -> np.ndarray:
        """Guess indices the Guesser may play under these hints."""
        if hints is None or not hints:
            return self.game.all_guesses
        return np.flatnonzero(legal_mask(self.game.guess_letters, self.game.guess_counts, hints))

    def bounds(self, answers: np.ndarray, left: int, hints: Hints | None,
               budget: int = INFEASIBLE) -> tuple[np.ndarray, np.ndarray, int]:
        """The guesses worth trying whose lower bound is below `budget`, best first, and the least bound of the rest.

        Ties go to a guess that can be the answer, then to the lower index. With `Limits.top`
        only the best `top` guesses count at all.

        Returns:
            (guesses, their lower bounds, the least lower bound among the other guesses
            considered, INFEASIBLE if none).
        """
        guesses = self.allowed(hints)
        # everyone pays this guess; a reply's m answers need at least 2m - 1 more (Solver.floor)
        costs = (self.hit(left) - SCALE, self.hit(left - 1) - SCALE, self.hit(left - 2) - SCALE)
        lower, hits = self.lower_bounds(self.columns, guesses, answers, costs, left == 2)
        count = len(guesses)
        order_key = lower * (2 * count) + (1 - hits) * count + np.arange(count)
        considered = None
        if self.limits.top is not None and self.limits.top < count:
            considered = np.argpartition(order_key, self.limits.top - 1)[:self.limits.top]
        limit = min(budget, _NEVER)
        if considered is None:
            within = np.flatnonzero(lower < limit)
            rest = lower[lower >= limit]
        else:
            within = considered[lower[considered] < limit]
            rest = lower[considered][lower[considered] >= limit]
        floor = int(rest.min()) if rest.size else INFEASIBLE
        within = within[np.argsort(order_key[within])]
        return guesses[within], lower[within], INFEASIBLE if floor >= _NEVER else floor

    def solve_set(self, answers: np.ndarray, left: int, hints: Hints | None = None,
                  budget: int = INFEASIBLE) -> int:
        """The least cost of a tree for `answers` with `left` guesses to go, if below `budget`.

        Args:
            answers: ascending answer indices (all possible ones).
            left: guesses still allowed, at least 1.
            hints: hard mode's demands (None in normal mode).
            budget: the caller has no use for costs at or above it.

        Returns:
            The exact least cost when it is below `budget`, else a lower bound at least `budget`.
        """
        size = len(answers)
        if left < 1:  # no guess left (a given opener under a limit of 1): no tree, not one free guess
            return INFEASIBLE
        if size == 1:
            return self.hit(left)
        if left == 1:
            return INFEASIBLE
        if size == 2:
            return self.hit(left) + SCALE + self.hit(left - 1)
        key = self.key(answers, left, hints)
        known = self.memo.get(key)
        if known is not None:
            self.stats.memo_hits += 1
            if known[1] >= 0:
                return known[1]
            if known[0] >= budget:
                return known[0]
        self.stats.nodes += 1
        self.check_budget()
        if self.report is not None and self.stats.nodes % 64 == 0:
            self.stats.remembered = len(self.memo)
            self.report(self.stats)
        guesses, lower, floor = self.bounds(answers, left, hints, budget)
        if key == self.root:
            self.stats.bound = int(lower[0]) if len(lower) else floor
        best, best_guess = INFEASIBLE, -1
        for guess, bound in zip(guesses.tolist(), lower.tolist()):
            limit = min(best, budget)
            if bound >= limit:
                floor = min(floor, bound)
                break
            cost = self.try_guess(answers, left, hints, guess, limit)
            if cost < limit:
                best, best_guess = cost, guess
                if key == self.root:
                    self.stats.best = best
            else:
                floor = min(floor, cost)
        if best < budget:
            self.remember(key, best, best, best_guess)
            return best
        bound = min(floor, best)
        self.remember(key, bound, -1, -1)
        return bound

    def try_guess(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int, limit: int,
                  top_level: bool = False) -> int:
        """The cost of the best tree opening with `guess`, if below `limit`; else a lower bound at least `limit`.

        At the top level the running bound (the solved replies exactly, the rest by their bounds)
        goes to the progress report after each reply.
        """
        cost = len(answers) * SCALE
        replies = []
        for code, group in partition(self.matrix[guess, answers], answers):
            if code == ALL_GREEN:
                cost += self.hit(left) - SCALE
            else:
                replies.append((group, code, self.known_floor(group, left - 1, hints, code, guess)))
        replies.sort(key=lambda reply: -len(reply[0]))
        total = cost + sum(reply[2][0] for reply in replies)
        if total >= limit:
            return total
        for number, (group, code, (floor, child_hints)) in enumerate(replies):  # the largest replies' bounds, sharper
            if len(group) < self.sharpen_from or floor >= INFEASIBLE:
                break
            sharper = self.sharpen(group, left - 1, child_hints, floor)
            replies[number] = (group, code, (sharper, child_hints))
            total += sharper - floor
            if total >= limit:
                return total
        if top_level:
            self.stats.bound, self.stats.replies = total, len(replies)
        if self.rounds and top_level:
            return self.raise_in_rounds(replies, left, total, limit, top_level)
        for group, code, (floor, child_hints) in replies:
            total -= floor
            value = self.solve_set(group, left - 1, child_hints, limit - total)
            total += value
            if top_level:
                self.stats.bound, self.stats.replies_done = total, self.stats.replies_done + 1
            if total >= limit:
                return total
        return total

    def raise_in_rounds(self, replies: list, left: int, total: int, limit: int, top_level: bool) -> int:
        """Raise every reply's bound a guess at a time (cheap searches under tight budgets) until the total
        reaches `limit` or every reply is exact; the total then."""
        floors = [reply[2][0] for reply in replies]
        exact = [False] * len(replies)
        while True:
            for number, (group, code, (_, child_hints)) in enumerate(replies):
                if exact[number]:
                    continue
                floor = floors[number]
                step = min(floor + self.rounds * SCALE, limit - total + floor)
                value = self.solve_set(group, left - 1, child_hints, step)
                exact[number] = value < step
                floors[number] = value
                total += value - floor
                if top_level:
                    self.stats.bound = total
                if total >= limit:
                    return total
            if all(exact):
                return total

    def known_floor(self, group: np.ndarray, left: int, hints: Hints | None, code: int,
                    guess: int) -> tuple[int, Hints | None]:
        """A reply's lower bound (the remembered one if better) and the hints under which it is solved."""
        child_hints = extend_hints(hints or Hints(), self.words[guess], code) if self.hard else None
        floor = self.floor(len(group), left) if left > 1 or len(group) == 1 else INFEASIBLE
        if len(group) > 2:
            known = self.memo.get(self.key(group, left, child_hints))
            if known is not None:
                floor = max(floor, known[0])
        return floor, child_hints

    def check_budget(self) -> None:
        """OutOfBudget once the deadline or the node limit has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget
        if self.node_limit is not None and self.stats.nodes > self.node_limit:
            raise OutOfBudget

    def sharpen(self, group: np.ndarray, left: int, hints: Hints | None, floor: int) -> int:
        """A reply's bound raised to the least one-step bound over every guess there (remembered)."""
        key = self.key(group, left, hints)
        known = self.memo.get(key)
        if known is not None and (known[1] >= 0 or known[0] > floor):
            return max(floor, known[0])
        self.check_budget()
        floor = max(floor, self.bounds(group, left, hints, 0)[2])
        self.remember(key, floor, -1, -1)
        return floor

    def remember(self, key: tuple, bound: int, exact: int, guess: int) -> None:
        """Store a sub-problem's bound (and exact cost and guess when known), forgetting all when full."""
        if len(self.memo) >= self.limits.memo and key not in self.memo:
            self.stats.forgotten += len(self.memo)
            self.memo.clear()
        old = self.memo.get(key)
        if old is not None and exact < 0:
            bound = max(bound, old[0])
        self.memo[key] = (bound, exact, guess)

    # -- states ------------------------------------------------------------------
    def state_hints(self, state: State) -> Hints | None:
        """The hints a state's guesses are bound by (None in normal mode)."""
        return self.game.hints(state) if self.hard else None

    def best_guess(self, state: State) -> int:
        """The first guess of an optimal tree from a Guesser-to-move state (solving it if not remembered)."""
        answers = np.asarray(state.candidates)
        hints = self.state_hints(state)
        if len(answers) <= 2:
            return int(self.game.words.answer_rows[answers[0]])
        key = self.key(answers, state.guesses_left, hints)
        known = self.memo.get(key)
        if known is None or known[1] < 0:
            self.solve_set(answers, state.guesses_left, hints)
            known = self.memo.get(key)
            if known is None or known[1] < 0:  # forgotten as the memory filled, or no tree at all
                cost = self.solve_set(answers, state.guesses_left, hints)
                if cost >= INFEASIBLE:
                    raise UserError("no tree solves every answer within the guess limit")
                known = self.memo.get(key)
                if known is None or known[1] < 0:
                    raise UserError(f"the solver's memory ({self.limits.memo} sub-problems) is too small for this state")
        return known[2]

    def solve(self, opener: int | None = None) -> Solution:
        """Solve the whole game from the start (with `opener` as the first guess if given)."""
        state = self.game.initial_state(hard=self.hard, max_guesses=self.max_guesses)
        answers = np.asarray(state.candidates)
        hints = Hints() if self.hard else None
        self.root = self.key(answers, self.max_guesses, hints)
        if opener is None:
            cost = self.solve_set(answers, self.max_guesses, hints)
            guess = self.best_guess(state) if cost < INFEASIBLE else -1
        else:
            guess = int(opener)
            cost = self.try_guess(answers, self.max_guesses, hints, guess, INFEASIBLE, top_level=True)
        if cost >= INFEASIBLE:
            raise UserError(f"no tree solves every answer within {self.max_guesses} guesses")
        self.stats.best = self.stats.bound = cost
        total, long_games = unpack(cost)
        return Solution(guess=guess, total=total, long_games=long_games, proved=self.limits.top is None,
                        nodes=self.stats.nodes, seconds=self.stats.seconds)

    def chooser(self, opener: int | None = None) -> Callable[[State], int]:
        """A player state -> guess that follows the optimal tree (the opener first, if given)."""
        def choose(state: State) -> int:
            if opener is not None and not state.history:
                return int(opener)
            return self.best_guess(state)
        return choose
