"""The optimal decision tree when the answers have weights: fewest answers lost, then fewest expected guesses.

Costs here are what the Guesser pays (lower is better), in exact integers. Each answer has an
integer weight (`integer_weights` turns a model's weights into them: WEIGHT_SCALE units for the
heaviest answer, the others in proportion, rounded, at least 1). A tree's cost over a set is

    lost weight * loss_unit + sum over the answers of weight * guesses it needs,

a lost answer (not found within the guess limit) counting max_guesses + 1 guesses, and loss_unit
more than any set's guesses can weigh, so costs compare the weight lost first and the weighted
guesses second: with every weight 1 that is the uniform solver's LOSSES objective (answers lost,
then total guesses); where some tree wins every answer it is the fewest expected guesses,
sum w(a) * guesses(a) / sum w. A sub-problem's cost counts the guesses from its node on
(with `left` guesses to go, a lost answer counts left + 1), so a parent adds its replies' costs.

The search is a depth-first branch and bound over (answers, guesses left, hard-mode hints), as the
uniform solver's (`wordle.solver`), whose rules it reuses (the guesses hints allow, a reply's
hints, the dead-letter rule) through a uniform Solver over the same game:

* One pass over the pattern matrix gives, for every guess, the weight of the answer it is (`hit`), the
  sum over its other replies of each reply's heaviest answer (`tops`) and its number of replies
  (`reply_weights`). With three or more guesses left, a guess costs at least 3W - 2 hit - tops: every
  answer pays this guess, the heaviest of each reply the next one, every other answer one more.
  With two guesses left that is exact once the answers each reply cannot solve are counted lost:
  each reply's last guess is its heaviest answer, so (W - hit - tops) * loss_unit + 3W - 2 hit - tops.
* A set's floor: its heaviest answer solved now, the others by the next guess (one guess left: the
  heaviest solved, the others lost). One answer, and two with two guesses left, are exact.
* Best-first with budgets, as the uniform solver: guesses by their bound, a reply searched with the
  budget the parent can still afford, a search that cannot finish under it returns a lower bound,
  remembered; the replies of SHARPEN_FROM answers or more get their one-step bound (the least over
  every guess) before any is searched.
* The full-weight tier (`TierBound`): the answers of the heaviest weight, every one alike, are a
  uniform problem of their own. A tree for a set, followed on a subset, is a tree for the subset, so
  a set costs at least what its heaviest answers cost alone (the uniform solver's proved bound, or its
  exact total) plus what the others cost alone. Under the likely model 2315 of the 10681 answers hold
  98.7% of the weight, so this bound is most of the cost.
* `Limits.top`: the best `top` guesses a node by their bound only (more while the best tree found
  there loses an answer: WIDEN, WIDEN_LAST, then the guesses that split its largest endgame most,
  FAMILY_TRIES): the result is a real tree's cost (the best within that
  breadth), an upper bound on the optimum.
* A node budget and a deadline, checked at every node: a search past them raises BudgetSpent.

`tree` reads a solved set's tree back from the memory (solving where it was forgotten); `tree_cost`
replays a tree over the answers, the check that a value is a real tree's.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from plumbing.storage import keep_numba_cache
from search.limits import BudgetSpent
from ..feedback import ALL_GREEN
from ..game import State, Wordle
from ..hardmode import Hints
from ..matrix import answer_columns
from ..replies import partition
from .bounds import PAIRWISE_READS, PAIRWISE_UP_TO, LetterTables, dominated
from .branch_and_bound import Solver
from .budget import Limits, Stats
from .costs import INFEASIBLE, SCALE

#: A weight of WEIGHT_SCALE is the heaviest answer's; the others are rounded to whole units of it (at least 1).
WEIGHT_SCALE = 1 << 24
#: Replies of at least this many answers get their one-step bound before any is searched (as the uniform solver's).
SHARPEN_FROM = 6
#: A breadth-limited search (`Limits.top`) tries up to WIDEN times its breadth at a set while the best tree it has
#: found there loses an answer (a tree that loses none is worth far more than any saving in guesses), WIDEN_LAST
#: times with three guesses left (where a loss is made: each guess tried costs one compiled pass per reply). On
#: SALET's replies under likely, asking the uniform solver for a winning guess instead cost 50 s on one reply.
WIDEN = 4
WIDEN_LAST = 64
#: ... and then up to FAMILY_TRIES guesses that split the set's largest endgame most (`family_splitters`).
FAMILY_TRIES = 16
#: The bound given to a guess never worth trying (it splits nothing).
NEVER = 1 << 62


def integer_weights(weights: np.ndarray, scale: int = WEIGHT_SCALE) -> np.ndarray:
    """Weights as integers: `scale` for the heaviest, each other in proportion, rounded, and at least 1 if above 0.

    >>> integer_weights(np.array([0.5, 0.25, 0.0, 1e-12]), scale=8).tolist()
    [8, 4, 0, 1]
    """
    weights = np.asarray(weights, dtype=np.float64)
    top = float(weights.max())
    if top <= 0:
        raise ValueError("every weight is 0")
    found = np.rint(weights / top * scale).astype(np.int64)
    return np.where(weights > 0, np.maximum(found, 1), 0)


def reply_weights(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, weights: np.ndarray,
                  tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each guess: the weight of the answer it is (0 if none), the sum over its other replies of each reply's
    heaviest answer, and how many different replies it gets (all green included). The readable reference of the
    compiled pass.

    Args:
        columns: the pattern matrix transposed (answers x guesses).
        guesses: the guesses to judge.
        answers: the answers still possible.
        weights: every answer's integer weight (indexed by answer).
        tables: the dead-letter rule's (normal mode): a guess it leaves out (`dominated`) gets 0 replies, never
            worth trying.
    """
    hit = np.zeros(len(guesses), np.int64)
    tops = np.zeros(len(guesses), np.int64)
    count = np.zeros(len(guesses), np.int64)
    redundant = dominated(tables, np.asarray(guesses), answers) if tables is not None else np.zeros(len(guesses), bool)
    for j, guess in enumerate(np.asarray(guesses).tolist()):
        if redundant[j]:
            continue
        for code, group in partition(columns[answers, guess], answers):
            count[j] += 1
            if code == ALL_GREEN:
                hit[j] = int(weights[group].sum())
            else:
                tops[j] += int(weights[group].max())
    return hit, tops, count


def _reply_weights_kernel(columns, guesses, answers, weights, prune, answer_masks, guess_letters, neighbours,
                          pairwise_up_to, hit, tops, count):  # pragma: no cover
    """reply_weights, compiled (`answers` heaviest first). With
    `prune`, a guess the dead-letter rule leaves out (`wordle.solver.dominated`) gets count 0 (never worth trying)."""
    size, number = answers.shape[0], guesses.shape[0]
    present = 0
    if prune:
        for answer in answers:
            present |= answer_masks[answer]
    kept = np.empty(number, np.int64)  # positions in `guesses` of the guesses not dominated
    chosen = 0
    for j in range(number):
        redundant = False
        if prune:
            guess = guesses[j]
            for position in range(guess_letters.shape[1]):
                if (present >> guess_letters[guess, position]) & 1 == 0 and neighbours[guess, position] & present:
                    redundant = True
                    break
        if redundant:
            hit[j] = 0
            tops[j] = 0
            count[j] = 0
        else:
            kept[chosen] = j
            chosen += 1
    width = columns.shape[1]
    if size <= pairwise_up_to and chosen * PAIRWISE_READS > size * width:
        # few answers and most of the guesses: whole rows compared pair by pair (vectorised); an answer gives a new
        # reply to a guess where no earlier (heavier) answer gave the same
        repeat = np.empty(width, np.uint8)
        greens_all = np.zeros(width, np.int64)
        firsts_all = np.zeros(width, np.int64)
        replies_all = np.zeros(width, np.int64)
        for i in range(size):
            row = columns[answers[i]]
            weight = weights[answers[i]]
            repeat[:] = 0
            for k in range(i):
                earlier = columns[answers[k]]
                for c in range(width):
                    repeat[c] |= row[c] == earlier[c]
            for c in range(width):
                new = 1 - repeat[c]
                green = row[c] == 242
                replies_all[c] += new
                greens_all[c] += weight * green
                firsts_all[c] += weight * new * (1 - green)
        for t in range(chosen):
            j = kept[t]
            hit[j] = greens_all[guesses[j]]
            tops[j] = firsts_all[guesses[j]]
            count[j] = replies_all[guesses[j]]
        return
    # answer by answer, heaviest first (each reads one row of the transposed matrix in order): a reply's first answer
    # is its heaviest, so each reply adds the weight of the answer that first gives it, marked in a 256-bit set
    seen = np.zeros((chosen, 4), np.uint64)
    columns_at = np.empty(chosen, np.int64)
    for t in range(chosen):
        columns_at[t] = guesses[kept[t]]
    greens = np.zeros(chosen, np.int64)
    firsts = np.zeros(chosen, np.int64)
    replies = np.zeros(chosen, np.int64)
    for i in range(size):
        answer = answers[i]
        row = columns[answer]
        weight = weights[answer]
        for t in range(chosen):  # branch-free, so that it vectorises
            code = row[columns_at[t]]
            word = code >> 6
            bit = np.uint64(1) << np.uint64(code & 63)
            new = np.int64((seen[t, word] & bit) == 0)
            seen[t, word] |= bit
            green = np.int64(code == 242)
            replies[t] += new
            greens[t] += weight * green
            firsts[t] += weight * new * (1 - green)
    for t in range(chosen):
        j = kept[t]
        hit[j] = greens[t]
        tops[j] = firsts[t]
        count[j] = replies[t]


@functools.lru_cache(maxsize=1)
def fast_reply_weights() -> Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """reply_weights compiled with numba (with the dead-letter rule where `tables` are given), else the reference."""
    keep_numba_cache()
    try:
        import numba
    except ImportError:
        return reply_weights
    kernel = numba.njit(cache=True, nogil=True)(_reply_weights_kernel)
    no_tables = (np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))

    def compiled(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, weights: np.ndarray,
                 tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """reply_weights, compiled."""
        hit, tops, count = (np.empty(len(guesses), np.int64) for _ in range(3))
        answers = np.asarray(answers, np.int64)
        heaviest_first = answers[np.argsort(-weights[answers], kind="stable")]
        kernel(columns, np.asarray(guesses, np.int64), heaviest_first, weights, tables is not None,
               *(no_tables if tables is None else tables), PAIRWISE_UP_TO, hit, tops, count)
        return hit, tops, count
    return compiled


def _best_two_left_kernel(columns, allowed, answers, weights, prune, answer_masks, guess_letters, neighbours,
                          pairwise_up_to, found):  # pragma: no cover
    """With two guesses left, the guess of least exact cost among `allowed`, in `WeightedSolver.guess_bounds`' order
    (lost weight, weighted guesses, an answer first, the lower index), in one compiled pass (`answers` heaviest first).

    With two guesses left a guess's cost is lost = W - hit - tops and guessed = 3W - 2 hit - tops = 2W - hit + lost
    (W the set's weight, hit the weight of the answer it is, tops the sum of each other reply's heaviest), so the
    order is (lost, -hit, index); lost sums the weight of every answer whose reply an earlier (heavier) answer
    already gave. The replies are counted as `_reply_weights_kernel` counts them (pair by pair for few answers, else
    marked); a guess with one reply is never chosen, nor one the dead-letter rule leaves out (`prune`: checked only
    for a guess that would be the best so far, as it can at most tie the guess that makes it redundant). Writes
    (guess, lost, guessed) into `found` (guess -1: none is worth trying).
    """
    size, number = answers.shape[0], allowed.shape[0]
    total = 0
    present = 0
    for i in range(size):
        total += weights[answers[i]]
        if prune:
            present |= answer_masks[answers[i]]
    lost = np.zeros(number, np.int64)
    hit = np.zeros(number, np.int64)
    replies = np.zeros(number, np.int64)
    width = columns.shape[1]
    if size <= pairwise_up_to and number * PAIRWISE_READS > size * width:
        # few answers and most of the guesses: whole rows compared pair by pair (vectorised)
        repeat = np.empty(width, np.uint8)
        lost_all = np.zeros(width, np.int64)
        hit_all = np.zeros(width, np.int64)
        replies_all = np.zeros(width, np.int64)
        for i in range(size):
            row = columns[answers[i]]
            weight = weights[answers[i]]
            repeat[:] = 0
            for k in range(i):
                earlier = columns[answers[k]]
                for c in range(width):
                    repeat[c] |= row[c] == earlier[c]
            for c in range(width):
                again = np.int64(repeat[c])
                replies_all[c] += 1 - again
                lost_all[c] += weight * again
                hit_all[c] += weight * (row[c] == 242)
        for t in range(number):
            lost[t] = lost_all[allowed[t]]
            hit[t] = hit_all[allowed[t]]
            replies[t] = replies_all[allowed[t]]
    else:  # answer by answer, each reply marked in a 256-bit set per guess
        seen = np.zeros((number, 4), np.uint64)
        for i in range(size):
            row = columns[answers[i]]
            weight = weights[answers[i]]
            for t in range(number):  # branch-free, so that it vectorises
                code = row[allowed[t]]
                word = code >> 6
                bit = np.uint64(1) << np.uint64(code & 63)
                again = np.int64((seen[t, word] & bit) != 0)
                seen[t, word] |= bit
                replies[t] += 1 - again
                lost[t] += weight * again
                hit[t] += weight * np.int64(code == 242)
    best_guess, best_lost, best_hit = -1, 0, 0
    for t in range(number):
        guess = allowed[t]
        if replies[t] < 2:
            continue
        if best_guess >= 0 and not (lost[t] < best_lost or (lost[t] == best_lost and (
                hit[t] > best_hit or (hit[t] == best_hit and guess < best_guess)))):
            continue
        if prune:
            redundant = False
            for position in range(guess_letters.shape[1]):
                if (present >> guess_letters[guess, position]) & 1 == 0 and neighbours[guess, position] & present:
                    redundant = True
                    break
            if redundant:
                continue
        best_guess, best_lost, best_hit = guess, lost[t], hit[t]
    found[0] = best_guess
    found[1] = best_lost
    found[2] = 2 * total - best_hit + best_lost


@functools.lru_cache(maxsize=1)
def fast_best_two_left() -> Callable[..., tuple[int, int, int] | None] | None:
    """The compiled search for the best guess with two guesses left (`_best_two_left_kernel`): a function of (the
    transposed matrix, the allowed guesses, the answers, their weights, the dead-letter tables or None) that gives
    (guess, weight lost, weighted guesses), or None where no guess is worth trying; None where numba is missing."""
    keep_numba_cache()
    try:
        import numba
    except ImportError:
        return None
    kernel = numba.njit(cache=True, nogil=True)(_best_two_left_kernel)
    no_tables = (np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))

    def compiled(columns: np.ndarray, allowed: np.ndarray, answers: np.ndarray, weights: np.ndarray,
                 tables: LetterTables | None) -> tuple[int, int, int] | None:
        """The best guess with two guesses left, compiled."""
        answers = np.asarray(answers, np.int64)
        heaviest_first = answers[np.argsort(-weights[answers], kind="stable")]
        found = np.empty(3, np.int64)
        kernel(columns, np.asarray(allowed, np.int64), heaviest_first, weights, tables is not None,
               *(no_tables if tables is None else tables), PAIRWISE_UP_TO, found)
        return None if found[0] < 0 else (int(found[0]), int(found[1]), int(found[2]))
    return compiled


def lazy_reply_weights(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, weights: np.ndarray,
                       tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`fast_reply_weights`, made on first use (numba is imported only when a search needs it)."""
    return fast_reply_weights()(columns, guesses, answers, weights, tables)


@dataclass(frozen=True)
class WeightedCost:
    """A packed cost read back: the weight lost and the weighted guesses (a loss counted as max_guesses + 1)."""

    lost: int
    guesses: int


@dataclass(frozen=True)
class WeightedTree:
    """A decision tree: the guess at this node and, per reply other than all green, the tree after it."""

    guess: int
    branches: dict[int, "WeightedTree"] = field(default_factory=dict)

    def size(self) -> int:
        """How many nodes (guesses) the tree holds."""
        return 1 + sum(branch.size() for branch in self.branches.values())

    def data(self, words: tuple[str, ...]) -> dict:
        """As plain data: {"guess": word, "next": {pattern code: subtree}}."""
        found: dict = {"guess": words[self.guess]}
        if self.branches:
            found["next"] = {str(code): branch.data(words) for code, branch in sorted(self.branches.items())}
        return found


class TierBound:
    """The full-weight tier's bound: what a set's heaviest answers cost on their own, by the uniform solver.

    Every answer of the tier has the same weight (the heaviest, `weight`), so a tree's cost over them is that
    weight times its total guesses; the uniform solver over a game of the tier's answers alone (`solver`)
    bounds the least total (exactly where it solves the set within the budget it is given). A set whose tier
    cannot be won within the guesses left loses at least one of them (`loss`).
    """

    def __init__(self, game: Wordle, weights: np.ndarray, hard: bool, max_guesses: int):
        self.weight = int(weights.max())
        tier = np.flatnonzero(weights == self.weight)
        self.index = np.full(len(weights), -1, np.int64)  # answer -> its index in the tier's game
        self.index[tier] = np.arange(len(tier))
        from ..words import Words
        words = Words.build(tuple(game.words.answers[int(a)] for a in tier), game.words.guesses,
                            source="the full-weight answers")
        self.game = Wordle(words, answer_columns(game.matrix, tier))
        self.solver = Solver(self.game, hard=hard, max_guesses=max_guesses)

    def split(self, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The tier's answers of a set (as indices of the tier's game) and the set's other answers."""
        at = self.index[answers]
        return at[at >= 0], answers[at < 0]

    def tier_total(self, tier: np.ndarray, left: int, hints: Hints | None, budget: int) -> int:
        """The uniform solver's bound on the total guesses of the tier's answers (exact below `budget`, a count of
        guesses; INFEASIBLE where no tree wins them all within `left`)."""
        if len(tier) == 0:
            return 0
        cost = self.solver.solve_set(tier, left, hints, budget * SCALE if budget < INFEASIBLE else INFEASIBLE)
        return INFEASIBLE if cost >= INFEASIBLE else cost // SCALE

    def guess_total(self, tier: np.ndarray, left: int, hints: Hints | None, guess: int, budget: int) -> int:
        """The same for trees opening with `guess`."""
        if len(tier) == 0:
            return 0
        cost = self.solver.try_guess(tier, left, hints, guess, budget * SCALE if budget < INFEASIBLE else INFEASIBLE)
        return INFEASIBLE if cost >= INFEASIBLE else cost // SCALE


class WeightedSolver:
    """Branch and bound for the tree with the fewest answers lost (by weight), then the fewest weighted guesses.

    Args:
        game: the rules and the pattern matrix.
        weights: each answer's integer weight (`integer_weights`), all above 0 for the answers searched.
        hard: hard mode's rule binds every guess after the first.
        max_guesses: the guess limit.
        limits: every guess at every node (a proof) or the best `top` (a real tree, an upper bound); the memory's
            size.
        dead_letters: in normal mode, leave out the guesses the dead-letter rule makes redundant (`dominated`: a
            guess it leaves out splits every set no better than another and is no answer, whatever the weights).
        tier: bound a set by its full-weight tier's uniform cost (`TierBound`), where some answers are lighter.
        loss_unit: what a lost weight unit costs in packed costs (default: more than the game's answers' guesses can
            weigh); a game of part of a bigger one's answers takes the bigger one's, so that their costs add.
    """

    def __init__(self, game: Wordle, weights: np.ndarray, hard: bool = False, max_guesses: int = 6,
                 limits: Limits = Limits(), dead_letters: bool = True, tier: bool = True, loss_unit: int | None = None):
        weights = np.asarray(weights, dtype=np.int64)
        if weights.shape != (len(game.words.answers),) or (weights < 0).any():
            raise ValueError("weights: one integer of at least 0 per answer")
        self.game = game
        self.weights = weights
        self.hard = hard
        self.max_guesses = max_guesses
        self.limits = limits
        self.rules = Solver(game, hard=hard, max_guesses=max_guesses, limits=limits, dead_letters=dead_letters)
        self.columns = self.rules.passes.columns
        self.matrix = game.matrix
        least = (max_guesses + 1) * int(weights.sum()) + 1
        if loss_unit is not None and loss_unit < least:
            raise ValueError(f"loss_unit must be at least {least}")
        self.loss_unit = least if loss_unit is None else int(loss_unit)
        self.memo: dict[tuple, tuple[int, int, int]] = {}  # key -> (lower bound, exact cost or -1, best guess)
        self.reply_weights: Callable[..., tuple[np.ndarray, np.ndarray, np.ndarray]] = lazy_reply_weights
        # a breadth-limited search builds a tree, whose few guesses a node sharper bounds would hardly cut
        self.sharpen_from = SHARPEN_FROM if limits.top is None else NEVER
        positive = weights[weights > 0]
        self.tier = TierBound(game, weights, hard, max_guesses) if tier and len(positive) and \
            (positive != positive.max()).any() and (weights == weights.max()).sum() > 2 else None
        self.stats = Stats()  # one count of sets searched: the uniform solvers count into it too
        self.rules.stats = self.stats
        if self.tier is not None:
            self.tier.solver.stats = self.stats
        self._deadline: float | None = None
        self._node_limit: int | None = None

    @property
    def deadline(self) -> float | None:
        """time.perf_counter() past which a search raises BudgetSpent (the tier's solver's too)."""
        return self._deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self._deadline = self.rules.deadline = value
        if self.tier is not None:
            self.tier.solver.deadline = value

    @property
    def node_limit(self) -> int | None:
        """stats.nodes past which a search raises BudgetSpent (the tier's solver's too: they share the count)."""
        return self._node_limit

    @node_limit.setter
    def node_limit(self, value: int | None) -> None:
        self._node_limit = self.rules.node_limit = value
        if self.tier is not None:
            self.tier.solver.node_limit = value

    # -- costs -------------------------------------------------------------------
    def pack(self, lost: int, guesses: int) -> int:
        """A cost from the weight lost and the weighted guesses."""
        return lost * self.loss_unit + guesses

    def unpack(self, cost: int) -> WeightedCost:
        """A packed cost read back."""
        lost, guesses = divmod(int(cost), self.loss_unit)
        return WeightedCost(lost, guesses)

    def floor(self, answers: np.ndarray, left: int) -> int:
        """A lower bound on any tree for `answers` with `left` guesses to go: the heaviest solved now, the rest next.

        Exact where no choice is left: no guess (all lost), one guess (the heaviest solved, the rest lost), one answer.
        """
        weights = self.weights[answers]
        total = int(weights.sum())
        if left < 1:
            return self.pack(total, total * (left + 1))
        heaviest = int(weights.max())
        if len(answers) == 1:
            return heaviest
        if left == 1:
            return self.pack(total - heaviest, heaviest + 2 * (total - heaviest))
        return heaviest + 2 * (total - heaviest)

    def heaviest(self, answers: np.ndarray) -> int:
        """The guess that is the set's heaviest answer (the first of them in the set's order)."""
        return int(self.game.words.answer_rows[answers[int(np.argmax(self.weights[answers]))]])

    # -- the search --------------------------------------------------------------
    def key(self, answers: np.ndarray, left: int, hints: Hints | None) -> tuple:
        """The memory's key of a sub-problem."""
        return (self.rules.memory.set_bytes(answers), left, hints or None)

    def check_budget(self) -> None:
        """BudgetSpent once the deadline or the node limit has passed (the memory holds finished sub-problems only)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetSpent(self.nodes, "time cap")
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetSpent(self.nodes)

    @property
    def nodes(self) -> int:
        """Sets searched so far, the tier's uniform solver's included."""
        return self.stats.nodes

    def guess_bounds(self, answers: np.ndarray, left: int, hints: Hints | None,
                     most: int | None = None) -> tuple[np.ndarray, list[int], np.ndarray]:
        """Every guess worth trying, each with its one-step bound (exact with two guesses left) and whether it is an
        answer here, best first (ties: a possible answer first, then the lower index); with `Limits.top`, the best
        `top` only, or the best `most` where given (a search that widens while its trees lose answers)."""
        guesses, lost, guessed, hit = self.one_step(answers, left, hints)
        wanted = None if self.limits.top is None else self.limits.top if most is None else most
        if wanted is not None and wanted < len(guesses) and left >= 3:  # no loss in a bound: one key, partitioned
            key = guessed * 2 + (hit == 0)
            threshold = key[np.argpartition(key, wanted - 1)[wanted - 1]]
            chosen = np.flatnonzero(key <= threshold)  # the best `wanted` and every guess tied with the last of them
            order = chosen[np.lexsort((guesses[chosen], key[chosen]))][:wanted]
        else:
            order = np.lexsort((guesses, hit == 0, guessed, lost))
            if wanted is not None:
                order = order[:wanted]
        if not lost[order].any():  # no loss in any bound: the weighted guesses alone (no Python arithmetic)
            return guesses[order], guessed[order].tolist(), hit[order] > 0
        unit = self.loss_unit
        bounds = [lost_ * unit + guessed_ for lost_, guessed_ in zip(lost[order].tolist(), guessed[order].tolist())]
        return guesses[order], bounds, hit[order] > 0

    def best_with_two_left(self, answers: np.ndarray, hints: Hints | None) -> tuple[int, int]:
        """`guess_bounds`' first guess and its bound with two guesses left (the exact cost), by the compiled search
        `fast_best_two_left` (`guess_bounds` itself where numba is missing, or no guess is worth trying)."""
        search = fast_best_two_left()
        if search is not None:
            found = search(self.columns, self.rules.memory.allowed(hints), answers, self.weights,
                           self.rules.passes.tables)
            if found is not None:
                return found[0], self.pack(found[1], found[2])
        guesses, bounds, _ = self.guess_bounds(answers, 2, hints)
        return int(guesses[0]), bounds[0]

    def one_step(self, answers: np.ndarray, left: int, hints: Hints | None) -> tuple[np.ndarray, np.ndarray,
                                                                                   np.ndarray, np.ndarray]:
        """The guesses worth trying (allowed, not left out by the dead-letter rule, splitting the set), and each one's
        one-step bound as (weight lost, weighted guesses) and the weight of the answer it is. The bound is exact with
        one or two guesses left."""
        guesses = self.rules.memory.allowed(hints)
        hit, tops, count = self.reply_weights(self.columns, guesses, answers, self.weights, self.rules.passes.tables)
        total = int(self.weights[answers].sum())
        useful = count > 1
        guesses, hit, tops = guesses[useful], hit[useful], tops[useful]
        if left == 1:  # exact: every answer but the guess is lost
            return guesses, total - hit, 2 * total - hit, hit
        guessed = 3 * total - 2 * hit - tops
        lost = total - hit - tops if left == 2 else np.zeros_like(guessed)
        return guesses, lost, guessed, hit

    def least_bound(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The least one-step bound over every guess worth trying (the set's floor if none is)."""
        _, lost, guessed, _ = self.one_step(answers, left, hints)
        if not len(lost):
            return self.floor(answers, left)
        least = int(lost.min())
        return self.pack(least, int(guessed[lost == least].min()))

    def set_floor(self, answers: np.ndarray, left: int, hints: Hints | None, budget: int = INFEASIBLE) -> int:
        """The set's floor, raised by the tier's bound where there is one (the tier's answers at their uniform cost,
        the others at their own floor)."""
        floor = self.floor(answers, left)
        if self.tier is None or left < 2 or len(answers) <= 2:
            return floor
        tier, rest = self.tier.split(answers)
        if len(tier) <= 2:
            return floor
        rest_floor = self.floor(rest, left) if len(rest) else 0
        room = (budget - rest_floor) // self.tier.weight + 1 if budget < INFEASIBLE else INFEASIBLE
        total = self.tier.tier_total(tier, left, hints, room)
        if total >= INFEASIBLE:  # the tier cannot be won: at least one of its answers lost
            return max(floor, self.pack(self.tier.weight, 0))
        return max(floor, self.tier.weight * total + rest_floor)

    def solve_set(self, answers: np.ndarray, left: int, hints: Hints | None = None, budget: int | None = None) -> int:
        """The least cost of a tree for `answers` with `left` guesses to go, if below `budget`.

        Args:
            answers: ascending answer indices (all possible ones).
            left: guesses still allowed.
            hints: hard mode's demands (None in normal mode).
            budget: the caller has no use for costs at or above it (None: no limit).

        Returns:
            The exact least cost when it is below `budget`, else a lower bound at least `budget`.
        """
        budget = NEVER * self.loss_unit if budget is None else budget
        size = len(answers)
        if left <= 1 or size == 1:
            return self.floor(answers, left)
        if size == 2:
            return self.floor(answers, left)  # the heavier first, then the other: exact with two guesses or more
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
        if left == 2:  # the one-step bound is exact (a guess that is an answer always splits a set of 2 or more)
            guess, cost = self.best_with_two_left(answers, hints)
            self.remember(key, cost, cost, guess)
            return cost
        floor = max(self.set_floor(answers, left, hints, budget), known[0] if known is not None else 0)
        if floor >= budget:
            self.remember(key, floor, -1, -1)
            return floor
        widest = None if self.limits.top is None else self.limits.top * (WIDEN_LAST if left <= 4 else WIDEN)
        guesses, bounds, _ = self.guess_bounds(answers, left, hints, widest)
        best, best_guess = NEVER * self.loss_unit, -1
        least = best  # the least bound among the guesses cut
        breadth = len(guesses) if self.limits.top is None else self.limits.top
        for number, (guess, bound) in enumerate(zip(guesses.tolist(), bounds)):
            limit = min(best, budget)
            if bound >= limit:
                least = min(least, bound)
                break
            if number >= breadth and best_guess >= 0 and best < self.loss_unit:
                break  # past the breadth: only while the best tree so far loses an answer
            cost = self.try_guess(answers, left, hints, guess, limit)
            if cost < limit:
                best, best_guess = cost, guess
            else:
                least = min(least, cost)
        if self.limits.top is not None and left >= 3 and best_guess >= 0 and self.loss_unit <= best < budget:
            for guess in self.family_splitters(answers, left, hints, set(guesses[:widest].tolist())):
                cost = self.try_guess(answers, left, hints, guess, min(best, budget))  # the tree loses: split its family
                if cost < min(best, budget):
                    best, best_guess = cost, guess
                if best < self.loss_unit:
                    break
        if best < budget:
            self.remember(key, best, best, best_guess)
            return best
        bound = max(floor, min(least, best))
        self.remember(key, bound, -1, -1)
        return bound

    def try_guess(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int, limit: int) -> int:
        """The cost of the best tree opening with `guess`, if below `limit`; else a lower bound at least `limit`."""
        total, replies = self.guess_bound(answers, left, hints, guess, limit)
        if total >= limit:
            return total
        for group, child_hints, floor in replies:
            total -= floor
            total += self.solve_set(group, left - 1, child_hints, limit - total)
            if total >= limit:
                return total
        return total

    def guess_bound(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                    limit: int | None = None) -> tuple[int, list[tuple[np.ndarray, Hints | None, int]]]:
        """A proved lower bound on every tree opening with `guess`, and its replies (heaviest first), each as
        (answers, hints, its bound): each reply at its floor (or remembered bound), the heaviest ones raised to their
        one-step bound, stopping once the total reaches `limit`."""
        limit = NEVER * self.loss_unit if limit is None else limit
        weights = self.weights
        total = int(weights[answers].sum())  # every answer pays this guess
        replies = []
        for code, group in partition(self.matrix[guess, answers], answers):
            if code == ALL_GREEN:
                continue
            child_hints = self.rules.passes.reply_hints(hints, guess, code)
            floor = self.floor(group, left - 1)
            if len(group) > 2 and left > 2:
                known = self.memo.get(self.key(group, left - 1, child_hints))
                if known is not None:
                    floor = max(floor, known[0])
            replies.append((group, child_hints, floor))
        replies.sort(key=lambda reply: -int(weights[reply[0]].sum()))
        total += sum(reply[2] for reply in replies)
        if total >= limit or left <= 3:
            return total, replies
        for number, (group, child_hints, floor) in enumerate(replies):  # the heaviest replies' bounds, sharper
            if len(group) < self.sharpen_from:
                continue
            sharper = self.sharpen(group, left - 1, child_hints, floor, limit - total + floor)
            replies[number] = (group, child_hints, sharper)
            total += sharper - floor
            if total >= limit:
                break
        return total, replies

    def sharpen(self, group: np.ndarray, left: int, hints: Hints | None, floor: int, budget: int) -> int:
        """A reply's bound raised to its tier's bound and the least one-step bound over every guess (remembered)."""
        key = self.key(group, left, hints)
        known = self.memo.get(key)
        if known is not None and (known[1] >= 0 or known[0] > floor):
            return max(floor, known[0])
        self.check_budget()
        floor = max(floor, self.set_floor(group, left, hints, budget))
        if floor < budget:
            floor = max(floor, self.least_bound(group, left, hints))
        self.remember(key, floor, -1, -1)
        return floor

    def family_splitters(self, answers: np.ndarray, left: int, hints: Hints | None, tried: set[int]) -> list[int]:
        """Where a breadth-limited search's tree loses answers: up to FAMILY_TRIES guesses not `tried` that split the
        set's largest endgame (answers alike but for one letter, `wordle.solver.endgames`) into most replies, ties to the
        lower one-step bound, then the lower index (an endgame is what a tree loses; the bound does not see it)."""
        family = self.rules.prover.endgames.largest(answers)
        if family is None:
            return []
        guesses = self.rules.memory.allowed(hints)
        _, _, count = self.reply_weights(self.columns, guesses, family, self.weights, None)
        hit, tops, _ = self.reply_weights(self.columns, guesses, answers, self.weights, self.rules.passes.tables)
        bound = 3 * int(self.weights[answers].sum()) - 2 * hit - tops
        order = np.lexsort((guesses, bound, -count))
        chosen = [int(g) for g in guesses[order[:FAMILY_TRIES + len(tried)]] if int(g) not in tried]
        return chosen[:FAMILY_TRIES]

    def remember(self, key: tuple, bound: int, exact: int, guess: int) -> None:
        """Store a sub-problem's bound (and exact cost and guess when known), forgetting all when full."""
        if len(self.memo) >= self.limits.memo and key not in self.memo:
            self.memo.clear()
        old = self.memo.get(key)
        if old is not None and exact < 0:
            if old[1] >= 0:
                return
            bound = max(bound, old[0])
        self.memo[key] = (bound, exact, guess)

    def forget_memory(self) -> None:
        """Empty the memory (the tier's solver's too), so that what comes next depends on nothing before."""
        self.memo.clear()
        if self.tier is not None:
            self.tier.solver.forget_memory()

    # -- trees -------------------------------------------------------------------
    def best_guess_for(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The first guess of the best tree for `answers` with `left` guesses to go (solving it if not remembered)."""
        if len(answers) <= 2 or left <= 1:
            return self.heaviest(answers)
        key = self.key(answers, left, hints)
        known = self.memo.get(key)
        if known is None or known[1] < 0:
            self.solve_set(answers, left, hints)
            known = self.memo.get(key)
            if known is None or known[1] < 0:
                raise RuntimeError(f"the memory ({self.limits.memo} sub-problems) is too small for this set")
        return known[2]

    def tree(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int | None = None) -> WeightedTree:
        """The best tree for `answers` (opening with `guess` if given) as the memory holds it, solving where needed."""
        guess = self.best_guess_for(answers, left, hints) if guess is None else int(guess)
        branches = {}
        if left > 1:
            for code, group in partition(self.matrix[guess, answers], answers):
                if code != ALL_GREEN:
                    branches[int(code)] = self.tree(group, left - 1, self.rules.passes.reply_hints(hints, guess, code))
        return WeightedTree(guess, branches)

    def state_hints(self, state: State) -> Hints | None:
        """The hints a state's guesses are bound by (None in normal mode)."""
        return self.rules.state_hints(state)


def tree_cost(game: Wordle, weights: np.ndarray, tree: WeightedTree, answers: np.ndarray, left: int,
              loss_unit: int) -> int:
    """Follow `tree` for every answer (each guess's reply from the pattern matrix): the packed cost it pays, a loss
    (not solved within `left` guesses) counting left + 1 guesses. The slow, readable check of a tree's value.

    Raises:
        ValueError: the tree has no branch for a reply some answer gives.
    """
    lost = guesses = 0
    for answer in np.asarray(answers).tolist():
        node, used = tree, 0
        while True:
            used += 1
            if used > left:
                lost += int(weights[answer])
                guesses += int(weights[answer]) * (left + 1)
                break
            code = int(game.matrix[node.guess, answer])
            if code == ALL_GREEN:
                guesses += int(weights[answer]) * used
                break
            if code not in node.branches:
                if used == left:
                    continue  # the last guess missed: lost above
                raise ValueError(f"the tree has no branch for reply {code} after {game.words.guesses[node.guess]}")
            node = node.branches[code]
    return lost * loss_unit + guesses


def brute_force(game: Wordle, weights: np.ndarray, answers: np.ndarray, left: int, hard: bool,
                hints: Hints | None = None) -> tuple[int, int]:
    """(weight lost, weighted guesses) of the best tree, trying every legal guess everywhere: the slow oracle.

    A lost answer counts left + 1 guesses, as in the solver. For tiny games only.
    """
    from ..hardmode import extend_hints, legal_mask
    answers = np.asarray(answers)
    if left < 1:
        total = int(weights[answers].sum())
        return total, total * (left + 1)
    if hard and hints:
        legal = np.flatnonzero(legal_mask(game.guess_letters, game.guess_counts, hints))
    else:
        legal = np.arange(len(game.words.guesses))
    best = None
    for guess in legal.tolist():
        lost, guesses = 0, int(weights[answers].sum())
        for code, group in partition(game.matrix[guess, answers], answers):
            if code == ALL_GREEN:
                continue
            child = extend_hints(hints or Hints(), game.words.guesses[guess], int(code)) if hard else None
            sub = brute_force(game, weights, group, left - 1, hard, child)
            lost, guesses = lost + sub[0], guesses + sub[1]
        if best is None or (lost, guesses) < best:
            best = (lost, guesses)
    assert best is not None
    return best


__all__ = ["WEIGHT_SCALE", "TierBound", "WeightedCost", "WeightedSolver", "WeightedTree", "brute_force",
           "fast_reply_weights", "integer_weights", "reply_weights", "tree_cost"]
