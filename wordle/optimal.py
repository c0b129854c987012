"""The optimal decision tree under an objective: fewest total guesses, fewest losses, or the least worst case.

Costs here are what the Guesser pays (lower is better), packed into one integer: each
guess an answer needs costs SCALE, and a game that needs more than 5 guesses costs 1
more, so comparing costs compares (total guesses, games over 5) in that order. The
objectives (`Objective`) put one more criterion in front, in units of FIRST:

* total: every answer must be solved within the guess limit (a set where no tree does
  costs INFEASIBLE); then (total guesses, games over 5).
* losses: (answers not solved within the limit, total guesses, games over 5), a lost
  answer costing max_guesses + 1 guesses; every set has a finite cost.
* worst: (the most guesses any answer needs, total guesses, games over 5): the least
  limit under which a total-objective tree exists, then that tree (one total-objective
  solver per limit tried).

`Objective.unpack` reads a packed cost back. Whether a set can be won at all within its
guesses is a question of its own (`Solver.can_win`): a search that stops at the first
winning tree, trying the answers still possible as guesses first, and remembering per
set the most guesses known too few and the fewest known enough; "no win" is proved there.
Its last three guesses, and a quick certificate tried first at every set (a tree guessing only
answers still possible), are compiled in wordle.short_wins; so is the total objective's search of
a set with three guesses left (`Solver.solve_three`).

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
  That pass reads a guess only while its ceiling on the replies it can get still allows a
  lower bound; a big set's replies take their ceilings from the set and from its parts
  (`Parts`: its answers with a letter, without it, or with it at a place), and are first
  bounded by those ceilings alone (`Solver.peak_floor`, Selby's bound for a set bigger
  than the most replies any guess gets).
* Rounds at the top: a given opener's replies are raised at most ROUNDS guesses at a time,
  reply after reply, so a total just past the cut-off is proved by many cheap searches.
* Exact answers for tiny sets: one answer costs one guess, two cost three, and with two
  guesses left only a guess that tells every answer apart will do.
* A deadline and a node limit, checked at every node: a search past them raises BudgetSpent.

Solved sub-problems are remembered by (answers, guesses left, and in hard mode the
hints): the exact cost or the best lower bound, and the best guess. The memory holds at
most `Limits.memo` entries and forgets the whole memory when it is full.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import sys
import time
import weakref
from dataclasses import dataclass, field
from typing import Callable, Iterator, NamedTuple

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import keep_numba_cache
from search.limits import BudgetSpent
from .endgames import Endgames, most_won
from .feedback import ALL_GREEN
from .game import State, Wordle
from .hardmode import Hints, extend_hints, legal_mask
from .lost_cores import LostCores, bits
from .replies import distinct_replies, partition
from .words import encode_letters
from .short_wins import UNDECIDED, compiled as compiled_short_wins

#: One guess costs SCALE; a game over LONG_GAME guesses costs one more.
SCALE = 4096
LONG_GAME = 5
#: One unit of the criterion an objective puts first: a lost answer (losses) or a guess of the worst case (worst).
FIRST = 1 << 32
#: The cost of a sub-problem no tree solves within its guesses (total objective).
INFEASIBLE = 1 << 60
#: "No limit known" in the win memory (more guesses than any game has).
NO_LIMIT = 1 << 20
#: The effort (sets searched) opener_wins spends per first guess, once per solver, on proving the whole list
#: winnable with a guess fewer, and how many first guesses (the best by their bound) it tries. In normal mode
#: TRACE, CRATE and SLATE each need 35,000 to 38,000 sets for the 2315 answers within 5 (8 to 11 s of CPU); the
#: proof makes every later opener's win check free (21 ms an opener rejected far down the ranking, not 72 ms).
WHOLE_EFFORT = 50_000
WHOLE_TRIES = 3
#: can_win's first round tries this many guesses; each round four times as many.
WIN_WIDTH = 4
#: can_win's first effort per guess (sets searched) before it moves on to the next guess; it quadruples each round.
WIN_EFFORT = 32
#: can_win asks the lost cores (wordle.lost_cores) about sets with this many guesses or more to go, and keeps theirs.
CORE_FROM = 4
#: How many guesses that won a set search_win remembers per (guesses left, hints), the latest first (`winners`), and
#: for how many (guesses left, hints) at most (all are forgotten past it).
WINNERS_KEPT = 4
WINNER_KEYS = 1 << 16
#: The compiled three-guess win check's work cap per call (patterns read), past which the search below answers.
SHORT_WORK = 50_000_000
#: The quick certificate's work cap per call (patterns read) and the guesses it tries at each set.
ANSWERS_WORK = 2_000_000
ANSWERS_BREADTH = 3
#: The compiled three-guess checks' work (patterns read, win or cost) worth one set searched (about one pass of a few
#: thousand guesses over a few answers).
SHORT_NODE = 20_000
#: Hard mode: the compiled three-guess cost search asks whether a set can be won at all once it has read this many
#: patterns (a lost set is refuted guess by guess, about 10 million patterns for the -ER sets after QAJAQ). Asked
#: of every set, hard IMMIX, GYPPY and JUGUM took 40% more CPU; from 1 million, hard QAJAQ took 66 s; from 100,000,
#: QAJAQ 42 s (236 s never asking) and IMMIX as never asking (2026-11-27, `solve POSITION --hard`).
THREE_ASK_WIN = 100_000
#: "No cap" for the compiled three-guess cost's work counters (far above any count, and within 64 bits).
NO_ROOM = 1 << 62
#: The bound given to a guess never worth trying (above any real bound, small enough to sort by in 64 bits).
_NEVER = 1 << 46
#: Hard mode: a reply's hints not built yet (`Solver.known_floor`); `Solver.reply_hints` builds them.
PENDING = Hints(fixed=((-1, "?"),))


class Objective(str, enum.Enum):
    """What a tree is optimal for; each compares packed costs, lower is better."""

    TOTAL = "total"  # every answer within the limit, then fewest total guesses, then fewest games over 5
    LOSSES = "losses"  # fewest answers lost, then fewest total guesses (a loss costs max_guesses + 1)
    WORST = "worst"  # the least maximum number of guesses, then fewest total guesses

    def unpack(self, cost: int) -> "Outcome":
        """A packed cost of this objective read back.

        >>> Objective.LOSSES.unpack(2 * FIRST + 8206 * SCALE + 3)
        Outcome(losses=2, total=8206, long_games=3, worst=None)
        >>> Objective.WORST.unpack(5 * FIRST + 7920 * SCALE)
        Outcome(losses=0, total=7920, long_games=0, worst=5)
        """
        if self is Objective.TOTAL:
            return Outcome(0, cost // SCALE, cost % SCALE, None)
        first, rest = divmod(cost, FIRST)
        if self is Objective.LOSSES:
            return Outcome(first, rest // SCALE, rest % SCALE, None)
        return Outcome(0, rest // SCALE, rest % SCALE, first)


class Outcome(NamedTuple):
    """A tree's answers lost, total guesses (a loss counted as max_guesses + 1), games over 5, and worst case.

    worst is only known (not None) under the worst objective.
    """

    losses: int
    total: int
    long_games: int
    worst: int | None


#: Replies of at least this many answers get their one-step bound before they are searched.
#: 6 rather than 10 since 2026-11-27: hard-mode positions after a poor opener took 15% less CPU
#: (FUZZY, MUMMY, QUILL, BACCY, DEEDS: 62.2 -> 53.1 s), normal mode and slices of both all-opener jobs the same.
SHARPEN_FROM = 6
#: least_bound reads a set PRUNE_FIRST guesses at a time, highest ceiling on their replies first, until no ceiling
#: left allows a lower bound (`ceiling_least_bound`), except where the pairwise count reads every guess cheaply
#: (since 2026-11-27 at any size: on sets sampled from the hard FUZZY proof, 1.6 to 1.9 times faster than
#: reading every guess at 10 to 99 answers); `ceilings` keeps CEILINGS_KEPT sets' ceilings.
PRUNE_FIRST = 256
CEILINGS_KEPT = 8
#: Only a set of at least this many answers, and not the whole list, lends its replies ceilings: a pass over it,
#: repaid by the many replies of a big position's root; the whole list's ceilings are too loose to repay it
#: (measured: 200 normal-mode openers of the job, 4.8 s of CPU without, 5.6 s with).
CEILINGS_FROM = 700
#: A part of a big set (`Parts`) lends its replies ceilings only if it holds at most this share of the set.
PART_SHARE = 0.9
#: How many big sets' parts a solver keeps before it forgets them all.
PARTS_KEPT = 4
#: Hard mode: how many hints' legal guesses `Solver.allowed` keeps (at most 100 KB each) before it forgets them all.
LEGAL_KEPT = 512
#: How many guess bounds of unsolved sets (`Solver.guess_floors`, all sets together) a solver keeps before it forgets
#: them all (about 100 bytes each).
GUESS_FLOORS_KEPT = 1 << 19
#: A given opener's replies are raised in rounds of at most this many guesses each (0: one reply at a time).
ROUNDS = 3


class Parts:
    """The parts of a big set that lend its replies tighter ceilings (`Solver.reply_ceilings`).

    A part is the set's answers with one feature: holding a letter, lacking it, or holding a letter at a place. A
    reply every answer of which has the feature lies in that part, so no guess gets more different replies from it
    than from the part. A letter's parts of more than PART_SHARE of the set are left out (their counts cost a pass
    over nearly the whole set and are hardly below its own); the places' parts are always asked. Each part's counts
    are made on first use and kept with the set (a solver keeps PARTS_KEPT sets' parts, at most 182 rows of counts
    each, about 19 MB with every allowed guess). Features are numbered: letter L held is L, lacked 26 + L, held at
    place P 52 + 26 P + L (letters numbered from 0 for a).
    """

    def __init__(self, solver: "Solver", answers: np.ndarray, hints: Hints | None) -> None:
        self.solver, self.answers, self.hints = solver, answers, hints
        self.places = solver.letters[0][answers].astype(np.int64)  # each answer's letter at each place
        self.masks = np.bitwise_or.reduce(np.int64(1) << self.places, axis=1)  # each answer's letters, as bits
        holders = ((self.masks[:, None] >> np.arange(26)) & 1).sum(axis=0)
        most = PART_SHARE * len(answers)
        # per feature number, whether its part is small enough to be worth its counts (places: always)
        self.worth = np.concatenate((holders <= most, (holders > 0) & (len(answers) - holders <= most),
                                     np.ones(26 * solver.letters[0].shape[1], bool)))
        self.counted = np.zeros(len(self.worth), bool)
        self.counts = np.empty((len(self.worth), len(solver.words)), np.int64)  # rows filled on first use
        self.ceiling = solver.ceilings(answers, hints)
        self.peak = int(self.ceiling[solver.allowed(hints)].max())  # no guess gets more replies from any subset

    def holding(self, group: np.ndarray) -> np.ndarray:
        """The features (numbered) every answer of `group` has whose part is small enough to be worth its counts."""
        return self.solver.features_of(self.solver.letters[0], group, self.worth)

    def count(self, feature: int) -> None:
        """Count each guess's different replies from the part with this feature, once."""
        if feature >= 52:
            place, letter = divmod(feature - 52, 26)
            inside = self.places[:, place] == letter
        else:
            inside = (self.masks >> (feature % 26) & 1).astype(bool) == (feature < 26)
        self.counts[feature] = self.solver.count_replies(self.answers[inside], self.hints)
        self.counted[feature] = True

    def ceilings_of(self, group: np.ndarray) -> tuple[np.ndarray, int]:
        """Each guess's ceiling on its different replies from `group` (a subset of the set): the least over the set
        and every part holding `group`; and the most of them (no guess gets more replies from `group`)."""
        features = self.holding(group)
        for feature in features[~self.counted[features]].tolist():
            self.count(feature)
        out = np.empty_like(self.ceiling)
        top = self.solver.least_of_rows(self.ceiling, self.counts, features, out)
        return out, int(top)


def group_features(answer_letters: np.ndarray, group: np.ndarray, worth: np.ndarray) -> np.ndarray:
    """The `Parts` features every answer of `group` has (numbered as there) that `worth` marks: the readable
    reference of the compiled `_features_kernel`."""
    places = answer_letters[group].astype(np.int64)
    masks = np.bitwise_or.reduce(np.int64(1) << places, axis=1)
    letters = np.arange(26)
    held = (np.bitwise_and.reduce(masks) >> letters & 1).astype(bool)
    lacked = ~(np.bitwise_or.reduce(masks) >> letters & 1).astype(bool)
    same = np.zeros((places.shape[1], 26), bool)
    for place in np.flatnonzero((places == places[0]).all(axis=0)):
        same[place, places[0, place]] = True
    return np.flatnonzero(np.concatenate((held, lacked, same.ravel())) & worth)


def least_rows(first: np.ndarray, rows: np.ndarray, chosen: np.ndarray, out: np.ndarray) -> int:
    """out = the least of `first` and the chosen rows, element by element; returns the most of `out` below NO_ROOM
    (0 if none is): the reference of `_least_rows_kernel`."""
    out[:] = first if len(chosen) == 0 else np.minimum(first, rows[chosen].min(axis=0))
    return int(out[out < NO_ROOM].max(initial=0))


def _features_kernel(answer_letters, group, worth):  # pragma: no cover
    """group_features, compiled."""
    length = answer_letters.shape[1]
    every, some = np.int64(-1), np.int64(0)
    first = answer_letters[group[0]]
    same = np.ones(length, np.bool_)
    for answer in group:
        mask = np.int64(0)
        for place in range(length):
            letter = answer_letters[answer, place]
            mask |= np.int64(1) << np.int64(letter)
            same[place] &= letter == first[place]
        every &= mask
        some |= mask
    found = np.empty(52 + length, np.int64)
    number = 0
    for letter in range(26):
        if (every >> letter) & 1 and worth[letter]:
            found[number] = letter
            number += 1
    for letter in range(26):
        if not (some >> letter) & 1 and worth[26 + letter]:
            found[number] = 26 + letter
            number += 1
    for place in range(length):
        feature = 52 + 26 * place + np.int64(first[place])
        if same[place] and worth[feature]:
            found[number] = feature
            number += 1
    return found[:number]


def _least_rows_kernel(first, rows, chosen, out):  # pragma: no cover
    """least_rows, compiled."""
    out[:] = first
    for feature in chosen:  # row by row: each read in order, so that it vectorises
        row = rows[feature]
        for j in range(out.shape[0]):
            out[j] = min(out[j], row[j])
    most = 0
    for j in range(out.shape[0]):
        if out[j] < NO_ROOM and out[j] > most:
            most = out[j]
    return most


class _Undecided(Exception):
    """can_win's effort for one guess ran out before its subtree was proved either way."""


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
    short_work: int = 0  # patterns the compiled three-guess checks read (the win checks and the cost search)
    endgame_cuts: int = 0  # sets proved lost by an endgame (wordle.endgames)
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        """Time since the solve began."""
        return time.perf_counter() - self.started


@dataclass(frozen=True)
class Solution:
    """A solved root: its best guess, total guesses, games over 5, whether it is proved, and its objective's terms.

    losses: answers the tree does not solve within the limit (0 but under the losses objective);
    worst: the most guesses an answer needs (known under the worst objective, else None).
    """

    guess: int
    total: int
    long_games: int
    proved: bool
    nodes: int
    seconds: float
    objective: Objective = Objective.TOTAL
    losses: int = 0
    worst: int | None = None

    @property
    def cost(self) -> int:
        """The packed cost under the solution's objective."""
        first = self.losses if self.objective is Objective.LOSSES else (self.worst or 0)
        return first * FIRST + self.total * SCALE + self.long_games


def unpack(cost: int) -> tuple[int, int]:
    """(total guesses, games over 5) of a packed total-objective cost (Objective.unpack reads every objective's).

    >>> unpack(7920 * SCALE + 3)
    (7920, 3)
    """
    return cost // SCALE, cost % SCALE


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
                 must_split: bool, tables: "LetterTables | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """Each guess's one-step lower bound (Solver.bounds' 3n - 2s - b, packed) and whether it is an answer.

    The readable reference of `fast_lower_bounds`: split_counts, then the bound; with `tables`, a guess
    another guess makes redundant here (`dominated`) gets NEVER too.

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
    if tables is not None:
        useless |= dominated(tables, guesses, answers)
    lower[useless] = _NEVER
    return lower, hits


class LetterTables(NamedTuple):
    """What the dead-letter rule (`dominated`) reads, made once per game (`letter_tables`).

    answer_masks: each answer's letters as a bit mask (bit 0 for a); guess_letters: each guess's letter
    numbers (guesses x length); neighbours: per guess and position, the letters L (bit mask) such that the
    guess with L at that position is also a guess and L is at none of its other positions.
    """

    answer_masks: np.ndarray
    guess_letters: np.ndarray
    neighbours: np.ndarray


_TABLES: "weakref.WeakKeyDictionary[Wordle, LetterTables]" = weakref.WeakKeyDictionary()


def letter_tables(game: Wordle) -> LetterTables:
    """The game's LetterTables, made once per game and shared."""
    tables = _TABLES.get(game)
    if tables is None:
        answer_letters = encode_letters(list(game.words.answers)).astype(np.int64)
        letters = game.guess_letters.astype(np.int64)
        bits = np.int64(1) << letters
        neighbours = np.zeros_like(letters)
        length = letters.shape[1]
        for position in range(length):
            others = np.delete(letters, position, axis=1)
            key = (others * 26 ** np.arange(length - 1)).sum(axis=1)  # the word with this position blanked
            _, group = np.unique(key, return_inverse=True)
            at_position = np.zeros(group.max(initial=-1) + 1, dtype=np.int64)
            np.bitwise_or.at(at_position, group, bits[:, position])
            other_letters = np.bitwise_or.reduce(np.delete(bits, position, axis=1), axis=1) if length > 1 else 0
            neighbours[:, position] = at_position[group] & ~other_letters & ~bits[:, position]
        tables = _TABLES[game] = LetterTables(np.bitwise_or.reduce(np.int64(1) << answer_letters, axis=1),
                                              letters, neighbours)
    return tables


def dominated(tables: LetterTables, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """Which guesses another guess makes redundant for `answers` (normal mode): the dead-letter rule.

    A guess with a letter no answer here contains (a dead letter) at some position, where swapping in a
    letter some answer does contain and that is at none of its other positions gives another guess, is
    refined by that guess: its reply to every answer is the other's with that position grey (the swapped
    letters touch no other position's colour), and it is no answer itself. So it splits every subset of
    `answers` into no more replies and never solves one sooner: never a better bound nor a better tree.
    Each swap removes a dead letter, so a chain of them ends at a guess that is kept.
    """
    present = np.bitwise_or.reduce(tables.answer_masks[answers]) if len(answers) else 0
    letters, neighbours = tables.guess_letters[guesses], tables.neighbours[guesses]
    dead = ((present >> letters) & 1) == 0
    return (dead & ((neighbours & present) != 0)).any(axis=1)


#: The compiled pass counts a set's replies by comparing whole rows pair by pair up to this many answers (about
#: 7 times faster than marking each reply at 10 answers, 2 times at 30, the same near 70, with every guess
#: asked), else by marking them. Pairwise reads every guess's column, so it is taken only where the guesses
#: asked are more than size / PAIRWISE_READS of them all (a byte compared within a vector costs about 1/32 of a
#: pattern read one at a time, and each pair is compared once): with hard mode's few legal guesses, marking is
#: the faster (48 answers, 1,000 guesses: 26 against 251 microseconds on the 2-core AMD EPYC).
PAIRWISE_UP_TO = 48
PAIRWISE_READS = 64


def least_lower_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool) -> int:
    """The least of lower_bounds' bounds (NEVER if no guess is worth trying): the readable reference of
    `fast_least_bound`."""
    return int(lower_bounds(columns, guesses, answers, costs, must_split)[0].min(initial=_NEVER))


def colour_ceilings(answer_letters: np.ndarray, guess_letters: np.ndarray, guesses: np.ndarray,
                    answers: np.ndarray) -> np.ndarray:
    """Per guess, a ceiling on the different replies it gets from `answers`: the product over its positions of the
    colours that position can show. Green where some answer has the guess's letter there; yellow or grey where
    some answer has not, of which grey alone where none of those holds the letter anywhere. (Letter numbers per
    word: `answer_letters` per answer, `guess_letters` per guess.)"""
    rows = answer_letters[answers].astype(np.int64)
    size, length = rows.shape
    at = np.stack([np.bincount(rows[:, position], minlength=26) for position in range(length)])  # position x letter
    holding = (np.arange(26)[None, None, :] == rows[:, :, None]).any(axis=1).sum(axis=0)  # answers holding a letter
    options = (at > 0) + (at < size) * (1 + (holding[None, :] > at))
    return options[np.arange(length), guess_letters[guesses].astype(np.int64)].prod(axis=1)


def ceiling_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                        must_split: bool, letters: tuple[np.ndarray, np.ndarray], ceiling: np.ndarray | None) -> int:
    """least_lower_bound, reading only the guesses whose ceiling on their replies allows a bound below the least so
    far: colour_ceilings (`letters`: per answer and per guess), the set's size, and `ceiling` (per guess index, at
    least its replies from these answers, if given). Read PRUNE_FIRST at a time from the highest ceiling down
    (with two guesses left and `must_split`, a guess short of a reply per answer is never worth trying). The
    readable reference of `fast_ceiling_least_bound`."""
    size = len(answers)
    most = np.minimum(colour_ceilings(letters[0], letters[1], guesses, answers), size)
    if ceiling is not None:
        most = np.minimum(most, ceiling[guesses])
    if must_split:
        most[most < size] = 0
    order = np.argsort(-most, kind="stable")
    # the least bound a guess of `most` replies could have: one of them all green, the rest each its own reply
    # (the bound falls with every reply more, and by a whole guess where one is the guess itself)
    lowest = (3 * size - 1 - most) * SCALE + costs[0] + (most - 1) * costs[1] + (size - most) * costs[2]
    least = _NEVER
    for start in range(0, len(order), PRUNE_FIRST):
        if most[order[start]] == 0 or lowest[order[start]] >= least:
            break
        chunk = guesses[order[start:start + PRUNE_FIRST]]
        least = min(least, least_lower_bound(columns, chunk, answers, costs, must_split))
    return least


@contextlib.contextmanager
def _no_blas_probe() -> Iterator[None]:
    """While numba loads its typing registries (at a kernel's first call), it probes for BLAS by importing
    scipy.linalg (about 0.4 s of CPU, with numpy.f2py behind it); the kernel uses no BLAS, so that import is
    refused for the moment (numba then leaves np.dot and friends out). Where scipy.linalg is already
    imported, or after the first call, nothing changes."""
    if "scipy.linalg" in sys.modules:
        yield
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        yield
    finally:
        if sys.modules.get("scipy.linalg", 0) is None:
            del sys.modules["scipy.linalg"]


# The compiled passes: plain functions here, compiled by `_compiled` (numba caches module-level functions
# across runs; functions made inside another are compiled again in every process).

def _reply_counts(columns, guesses, answers, pairwise_up_to, found, green_seen):  # pragma: no cover
    """Each guess's different replies from the answers (all green included), and whether all green is one."""
    size, count = answers.shape[0], guesses.shape[0]
    width = columns.shape[1]
    # few answers and most of the guesses: count repeats by comparing whole rows (every guess), pair by pair,
    # vectorised; a row compare reads `width` bytes per pair where marking reads one pattern per (answer, guess)
    if size <= pairwise_up_to and count * PAIRWISE_READS > size * width:
        seen = np.empty(width, np.uint8)
        repeats = np.zeros(width, np.int32)
        green = np.zeros(width, np.uint8)
        for i in range(size):
            row = columns[answers[i]]
            seen[:] = 0
            for k in range(i):
                earlier = columns[answers[k]]
                for t in range(width):
                    seen[t] |= row[t] == earlier[t]
            for t in range(width):
                repeats[t] += seen[t]
                green[t] |= row[t] == 242
        for j in range(count):
            found[j] = size - repeats[guesses[j]]
            green_seen[j] = green[guesses[j]]
        return
    words = np.zeros((count, 4), np.uint64)  # many: each answer's reply marked in a 256-bit set per guess
    for answer in answers:  # answers outer: each reads one contiguous row of the transposed matrix
        row = columns[answer]
        for j in range(count):
            pattern = row[guesses[j]]
            words[j, pattern >> 6] |= np.uint64(1) << np.uint64(pattern & 63)
    green_bit = np.uint64(1) << np.uint64(242 & 63)
    for j in range(count):
        bits = 0
        for k in range(4):
            word = words[j, k]
            while word:
                word &= word - np.uint64(1)
                bits += 1
        found[j] = bits
        green_seen[j] = 1 if words[j, 242 >> 6] & green_bit else 0

def _bounds_kernel(columns, guesses, answers, hit_now, hit_next, hit_later, must_split, prune, answer_masks,
           guess_letters, neighbours, pairwise_up_to, lower, hits):  # pragma: no cover
    """lower_bounds: the dead-letter rule (with `prune`), then each kept guess's bound."""
    count, size = guesses.shape[0], answers.shape[0]
    present = 0
    if prune:
        for answer in answers:
            present |= answer_masks[answer]
    kept = np.empty(count, np.int64)  # positions in `guesses` of the guesses not dominated
    number = 0
    for j in range(count):
        redundant = False
        if prune:
            guess = guesses[j]
            for position in range(guess_letters.shape[1]):
                if (present >> guess_letters[guess, position]) & 1 == 0 and neighbours[guess, position] & present:
                    redundant = True
                    break
        if redundant:
            lower[j] = 1 << 46
            hits[j] = 0
        else:
            kept[number] = j
            number += 1
    chosen = np.empty(number, np.int64)
    for t in range(number):
        chosen[t] = guesses[kept[t]]
    found = np.empty(number, np.int64)
    green_seen = np.empty(number, np.uint8)
    _reply_counts(columns, chosen, answers, pairwise_up_to, found, green_seen)
    for t in range(number):
        j = kept[t]
        hit = np.int64(green_seen[t])
        bins = found[t] - hit
        hits[j] = hit
        if found[t] <= 1 or (must_split and found[t] != size):
            lower[j] = 1 << 46
        else:
            lower[j] = ((size + 2 * (size - hit) - bins) * 4096 + hit * hit_now + bins * hit_next
                        + (size - hit - bins) * hit_later)

def _least_kernel(columns, guesses, answers, hit_now, hit_next, hit_later, must_split, pairwise_up_to):  # pragma: no cover
    """least_lower_bound: the least bound over the guesses, without writing each one."""
    count, size = guesses.shape[0], answers.shape[0]
    found = np.empty(count, np.int64)
    green_seen = np.empty(count, np.uint8)
    _reply_counts(columns, guesses, answers, pairwise_up_to, found, green_seen)
    never = np.int64(1) << 46
    best = never
    for j in range(count):  # branch-free, so that it vectorises
        hit = np.int64(green_seen[j])
        bins = found[j] - hit
        bound = ((size + 2 * (size - hit) - bins) * 4096 + hit * hit_now + bins * hit_next
                 + (size - hit - bins) * hit_later)
        useless = (found[j] <= 1) | (must_split & (found[j] != size))
        best = min(best, never if useless else bound)
    return best


def _ceiling_least_kernel(columns, guesses, answers, answer_letters, guess_letters, ceiling, hit_now, hit_next,
                          hit_later, must_split, pairwise_up_to, chunk):  # pragma: no cover
    """ceiling_least_bound (`ceiling` empty: none given); the guesses ordered by a counting sort."""
    size, count, length = answers.shape[0], guesses.shape[0], guess_letters.shape[1]
    at = np.zeros((length, 26), np.int64)
    holding = np.zeros(26, np.int64)
    for i in range(size):
        letters = answer_letters[answers[i]]
        mask = 0
        for position in range(length):
            at[position, letters[position]] += 1
            mask |= np.int64(1) << np.int64(letters[position])  # int64 compiled or not (letters are uint8)
        for letter in range(26):
            holding[letter] += (mask >> np.int64(letter)) & 1
    options = np.zeros((length, 26), np.int64)
    for position in range(length):
        for letter in range(26):
            here = at[position, letter]
            options[position, letter] = ((here > 0) + (here < size) * (1 + (holding[letter] > here)))
    most = np.empty(count, np.int64)
    for j in range(count):
        guess = guesses[j]
        product = 1
        for position in range(length):
            product *= options[position, guess_letters[guess, position]]
        most[j] = min(product, size)
        if ceiling.shape[0] > 0:
            most[j] = min(most[j], ceiling[guess])
        if must_split and most[j] < size:
            most[j] = 0
    starts = np.zeros(size + 2, np.int64)  # a counting sort, highest ceiling first
    for j in range(count):
        starts[size - most[j] + 1] += 1
    for value in range(1, size + 2):
        starts[value] += starts[value - 1]
    order = np.empty(count, np.int64)
    for j in range(count):
        slot = size - most[j]
        order[starts[slot]] = j
        starts[slot] += 1
    never = np.int64(1) << 46
    least = never
    for start in range(0, count, chunk):
        top = most[order[start]]
        lowest = (3 * size - 1 - top) * 4096 + hit_now + (top - 1) * hit_next + (size - top) * hit_later
        if top == 0 or lowest >= least:
            break
        stop = min(start + chunk, count)
        chosen = np.empty(stop - start, np.int64)
        for t in range(stop - start):
            chosen[t] = guesses[order[start + t]]
        least = min(least, _least_kernel(columns, chosen, answers, hit_now, hit_next, hit_later, must_split,
                                         pairwise_up_to))
    return least


@functools.lru_cache(maxsize=1)
def _compiled() -> tuple[Callable[..., tuple[np.ndarray, np.ndarray]], Callable[..., int], Callable[..., int]] | None:
    """lower_bounds, least_lower_bound and ceiling_least_bound compiled with numba, or None without numba."""
    keep_numba_cache()  # numba reads its cache folder when first imported
    try:
        import numba
    except ImportError:
        return None
    jit = numba.njit(cache=True, nogil=True)
    global _reply_counts, _bounds_kernel, _least_kernel, _ceiling_least_kernel
    _reply_counts = jit(_reply_counts)  # compiled first: the others call it (and _least_kernel) by global name
    _bounds_kernel, _least_kernel = jit(_bounds_kernel), jit(_least_kernel)
    _ceiling_least_kernel = jit(_ceiling_least_kernel)

    no_tables = (np.zeros(1, np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))

    def bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
               must_split: bool, tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray]:
        """lower_bounds, compiled."""
        lower = np.empty(len(guesses), np.int64)
        hits = np.empty(len(guesses), np.int64)
        with _no_blas_probe():
            _bounds_kernel(columns, guesses, answers, costs[0], costs[1], costs[2], must_split, tables is not None,
                   *(no_tables if tables is None else tables), PAIRWISE_UP_TO, lower, hits)
        return lower, hits

    def least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                    must_split: bool) -> int:
        """least_lower_bound, compiled."""
        with _no_blas_probe():
            return int(_least_kernel(columns, guesses, answers, costs[0], costs[1], costs[2], must_split, PAIRWISE_UP_TO))

    no_ceiling = np.zeros(0, np.int64)

    def ceiling_least(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool, letters: tuple[np.ndarray, np.ndarray], ceiling: np.ndarray | None) -> int:
        """ceiling_least_bound, compiled."""
        with _no_blas_probe():
            return int(_ceiling_least_kernel(columns, guesses, answers, letters[0], letters[1],
                                            no_ceiling if ceiling is None else ceiling, costs[0], costs[1], costs[2],
                                            must_split, PAIRWISE_UP_TO, PRUNE_FIRST))

    return bounds, least_bound, ceiling_least


@functools.lru_cache(maxsize=1)
def fast_parts() -> tuple[Callable[..., np.ndarray], Callable[..., int]]:
    """group_features and least_rows compiled with numba, else the references."""
    keep_numba_cache()
    try:
        import numba
    except ImportError:
        return group_features, least_rows
    jit = numba.njit(cache=True, nogil=True)
    return jit(_features_kernel), jit(_least_rows_kernel)


def fast_lower_bounds() -> Callable[..., tuple[np.ndarray, np.ndarray]]:
    """lower_bounds compiled with numba (each guess's replies counted by comparing rows pair by pair, or marked in
    four 64-bit words), else the reference."""
    compiled = _compiled()
    return lower_bounds if compiled is None else compiled[0]


def fast_least_bound() -> Callable[..., int]:
    """least_lower_bound compiled with numba, else the reference."""
    compiled = _compiled()
    return least_lower_bound if compiled is None else compiled[1]


def fast_ceiling_least_bound() -> Callable[..., int]:
    """ceiling_least_bound compiled with numba, else the reference."""
    compiled = _compiled()
    return ceiling_least_bound if compiled is None else compiled[2]


def lazy_ceiling_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray,
                             costs: tuple[int, int, int], must_split: bool, letters: tuple[np.ndarray, np.ndarray],
                             ceiling: np.ndarray | None) -> int:
    """`fast_ceiling_least_bound`, made on first use (as lazy_lower_bounds)."""
    return fast_ceiling_least_bound()(columns, guesses, answers, costs, must_split, letters, ceiling)


def lazy_lower_bounds(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                      must_split: bool, tables: LetterTables | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`fast_lower_bounds`, made on first use: numba is imported only when a search computes a bound, so a
    position the opening book or the position table proves never pays for it."""
    return fast_lower_bounds()(columns, guesses, answers, costs, must_split, tables)


def lazy_least_bound(columns: np.ndarray, guesses: np.ndarray, answers: np.ndarray, costs: tuple[int, int, int],
                     must_split: bool) -> int:
    """`fast_least_bound`, made on first use (as lazy_lower_bounds)."""
    return fast_least_bound()(columns, guesses, answers, costs, must_split)


assert _NEVER == 1 << 46 and SCALE == 4096


_COLUMNS: "weakref.WeakKeyDictionary[Wordle, np.ndarray]" = weakref.WeakKeyDictionary()


def transposed(game: Wordle) -> np.ndarray:
    """The game's pattern matrix transposed (answers x guesses, C order), made once per game and shared."""
    columns = _COLUMNS.get(game)
    if columns is None or columns.shape != game.matrix.T.shape:
        columns = _COLUMNS[game] = np.ascontiguousarray(game.matrix.T)
    return columns


class Solver:
    """Branch and bound for the optimal tree over one game, mode, guess limit and objective.

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode's rule binds every guess after the first.
        max_guesses: the guess limit.
        limits: every guess (a proof) or the best few at each node, and the memory's size.
        long_game: games needing more guesses than this count as long (the last criterion).
        objective: what the tree is optimal for (see Objective); the worst objective is solved
            by total-objective solvers, one per limit tried (`tier`).
        dead_letters: in normal mode, leave out the guesses the dead-letter rule makes redundant (`dominated`).
    """

    def __init__(self, game: Wordle, hard: bool = False, max_guesses: int = 6, limits: Limits = Limits(),
                 long_game: int = LONG_GAME, objective: Objective | str = Objective.TOTAL, dead_letters: bool = True):
        self.game = game
        self.objective = Objective(objective)
        self.losses = self.objective is Objective.LOSSES
        self.long_game = long_game
        self.hard = hard
        self.max_guesses = max_guesses
        self.limits = limits
        self.matrix = game.matrix
        self.columns = transposed(game)
        self.narrow = len(game.words.answers) <= 1 << 16
        self.words = game.words.guesses
        self.memo: dict[tuple, tuple[int, int, int]] = {}  # key -> (lower bound, exact cost or -1, best guess)
        # key of a set searched and not solved within its budget -> its guesses cut there, each with the bound it
        # was cut at (a later search of the set with a higher budget skips those still cut: `solve_set`); part of
        # the memory, forgotten with it (`forget_memory`, `use_memo`), and `guess_floor_count` bounds in all
        self.guess_floors: dict[tuple, dict[int, int]] = {}
        self.guess_floor_count = 0
        self.legal: dict[Hints, np.ndarray] = {}  # hard mode: hints -> the guesses they allow (`allowed`)
        self.ceiling_memo: dict[tuple, np.ndarray] = {}  # (answers, hints) -> each guess's replies (`ceilings`)
        self.parts: dict[tuple, Parts] = {}  # the latest big sets' parts and their counts (`reply_ceilings`)
        self.features_of, self.least_of_rows = fast_parts()  # Parts' helpers, compiled where numba is
        self.stats = Stats()
        self.report: Callable[[Stats], None] | None = None
        self.root: tuple | None = None
        self.lower_bounds: Callable[..., tuple[np.ndarray, np.ndarray]] = lazy_lower_bounds
        self.least_lower_bound: Callable[..., int] = lazy_least_bound
        self.ceiling_least_bound: Callable[..., int] = lazy_ceiling_least_bound
        self.letters = (game.guess_letters[game.words.answer_rows], game.guess_letters)  # per answer, per guess
        # normal mode: guesses the dead-letter rule makes redundant are left out of bounds and search (`dominated`);
        # values are unchanged, but where a left-out guess ties the best the tree may name another guess, so a
        # solver whose tree must stay the published one (the optimal agent) is made with dead_letters=False
        self.tables: LetterTables | None = None if hard or not dead_letters else letter_tables(game)
        self.sharpen_from = SHARPEN_FROM
        self.rounds = ROUNDS
        self.deadline: float | None = None  # time.perf_counter() past which a search raises BudgetSpent
        self.node_limit: int | None = None  # stats.nodes past which a search raises BudgetSpent
        # (answers, hints) -> (the most guesses known too few to win, the fewest known enough; 0 / NO_LIMIT: unknown)
        self.wins: dict[tuple, tuple[int, int]] = {}
        self.cores: dict[tuple, np.ndarray] = {}  # win_key of a set proved lost -> a lost subset of it (its core)
        self.lost_cores = LostCores(len(game.words.answers))  # cores of big sets, for any set holding one
        # hard mode: cores of the sets the three-guess search found lost within 3 (`solve_three`), apart from the
        # others so that they never push a costlier proof's core out
        self.three_cores = LostCores(len(game.words.answers))
        self.legal_bits_memo: dict[Hints | None, int] = {}  # hints -> the guesses they allow, as bits
        self.refutation: np.ndarray = game.all_answers  # wins_with's last refuted guess: a subset it loses on
        self.search_core: np.ndarray = game.all_answers  # search_win's last -1: the union of its refutations
        self.short_core: np.ndarray = game.all_answers  # short_win's last False: a lost subset
        self.tiers: dict[int, Solver] = {}  # the worst objective: a total-objective solver per guess limit
        self.worst_limit: int | None = None  # the worst objective: the least limit solve() found a tree under
        self.whole_key = self.win_key(game.all_answers, None)  # the whole answer list in the win memory
        # the sets (as their keys' bytes) the memory or the win memory may hold under some hints: a reply not among
        # them has nothing to look up, so its hard-mode hints can wait (`known_floor`, `wins_with`); emptied only
        # with the memory (`remember`), in place, as tiers share it
        self.seen_sets: set[bytes] = {self.whole_key[0]}
        self.win_limit: int | None = None  # stats.nodes past which can_win's current round gives up (_Undecided)
        self.whole_tries = 1  # opener_wins tries the whole list once per solver
        self.short_wins = compiled_short_wins()  # the compiled three-guess win check (None: no numba)
        self.endgame_cut = True  # can_win's endgame check (wordle.endgames); off only to measure what it buys
        self.core_from = CORE_FROM
        # (guesses left, hints) -> the latest guesses that won a set there (search_win tries them first)
        self.winners: dict[tuple[int, Hints | None], list[int]] = {}

    # -- costs -------------------------------------------------------------------
    def hit(self, left: int) -> int:
        """What an answer pays for the guess that solves it, made with `left` guesses to go."""
        number = self.max_guesses - left + 1
        return SCALE + (number > self.long_game)

    def lost(self, left: int) -> int:
        """What an answer lost at a node with `left` guesses to go pays (losses objective): those guesses,
        one more (a loss counts max_guesses + 1 in all), and the loss itself."""
        return FIRST + (left + 1) * SCALE + (self.max_guesses + 1 > self.long_game)

    def floor(self, size: int, left: int) -> int:
        """A lower bound on any set of `size` answers with `left` guesses to go: one solved now, the rest next.

        Exact where no choice is left: no guess (all lost), one guess (one solved, the rest lost), one answer.
        """
        if left < 1:
            return size * self.lost(0) if self.losses else INFEASIBLE
        if size == 1:
            return self.hit(left)
        if left == 1:
            return self.hit(1) + (size - 1) * self.lost(1) if self.losses else INFEASIBLE
        return size * SCALE + self.hit(left) - SCALE + (size - 1) * self.hit(left - 1)

    # -- the search --------------------------------------------------------------
    def key(self, answers: np.ndarray, left: int, hints: Hints | None) -> tuple:
        """The memory's key of a sub-problem (answer indices as 16-bit numbers where they fit)."""
        return (self.set_bytes(answers), left, hints)

    def set_bytes(self, answers: np.ndarray) -> bytes:
        """A set of answers as both memories' keys hold it (indices as 16-bit numbers where they fit)."""
        return (answers.astype(np.uint16) if self.narrow else answers).tobytes()

    def allowed(self, hints: Hints | None) -> np.ndarray:
        """Guess indices the Guesser may play under these hints (read-only; remembered, as a search meets the
        same few hundred hints thousands of times)."""
        if hints is None or not hints:
            return self.game.all_guesses
        legal = self.legal.get(hints)
        if legal is None:
            if len(self.legal) >= LEGAL_KEPT:
                self.legal.clear()
            legal = np.flatnonzero(legal_mask(self.game.guess_letters, self.game.guess_counts, hints))
            legal.setflags(write=False)
            self.legal[hints] = legal
        return legal

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
        lower, hits = self.lower_bounds(self.columns, guesses, answers, self.step_costs(left),
                                        left == 2 and not self.losses, self.tables)
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

    def step_costs(self, left: int) -> tuple[int, int, int]:
        """What the one-step bound charges beyond SCALE: the answer this guess solves, the next one, a later one.

        Everyone pays this guess; a reply's m answers need at least 2m - 1 more (Solver.floor); with two
        guesses left, the answers a guess does not tell apart are lost (losses) or the guess is useless (total).
        """
        later = self.lost(0) - SCALE if self.losses and left == 2 else self.hit(left - 2) - SCALE
        return self.hit(left) - SCALE, self.hit(left - 1) - SCALE, later

    def least_bound(self, answers: np.ndarray, left: int, hints: Hints | None,
                    ceiling: np.ndarray | None = None) -> int:
        """The least one-step bound over every guess worth trying (INFEASIBLE if none is): bounds' floor at a
        budget of 0, without ordering the guesses.

        A big set is read only for the guesses whose ceiling on their replies allows a bound below the least so
        far (`ceiling_least_bound`): the same least bound. The ceilings are the colours each position of a guess
        can show, and `ceiling` where given (per guess, at least the replies it gets from these answers: those it
        gets from a set holding them, `ceilings`).
        """
        if self.limits.top is not None:
            return self.bounds(answers, left, hints, 0)[2]
        guesses, costs = self.allowed(hints), self.step_costs(left)
        must_split = left == 2 and not self.losses  # the dead-letter rule keeps the least bound
        if not self.reads_with_ceilings(len(answers), hints):  # every guess read at the cost of a few
            least = self.least_lower_bound(self.columns, guesses, answers, costs, must_split)
        else:
            least = self.ceiling_least_bound(self.columns, guesses, answers, costs, must_split, self.letters, ceiling)
        return INFEASIBLE if least >= _NEVER else least

    def reads_with_ceilings(self, size: int, hints: Hints | None) -> bool:
        """Whether `least_bound` reads a set of `size` answers highest ceiling first (else every guess, as cheaply as
        a few: the pairwise count, or few guesses allowed)."""
        guesses = self.allowed(hints)
        pairwise = size <= PAIRWISE_UP_TO and len(guesses) * PAIRWISE_READS > size * self.columns.shape[1]
        return not (pairwise or len(guesses) <= PRUNE_FIRST)  # as _reply_counts

    def ceilings(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """For each guess allowed under `hints`, how many different replies it gets from `answers` (all green
        included): a ceiling on what it gets from any subset (`least_bound`). Remembered for the last few sets."""
        key = self.win_key(answers, hints)
        found = self.ceiling_memo.get(key)
        if found is None:
            found = self.count_replies(answers, hints)
            if len(self.ceiling_memo) >= CEILINGS_KEPT:
                self.ceiling_memo.clear()
            self.ceiling_memo[key] = found
        return found

    def count_replies(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """For each guess allowed under `hints`, how many different replies it gets from `answers` (all green
        included); NO_ROOM for the others (not allowed there, so nor in any reply: never read)."""
        guesses = self.allowed(hints)
        lower, hits = self.lower_bounds(self.columns, guesses, answers, (0, 0, 0), False)
        found = np.full(len(self.words), NO_ROOM, dtype=np.int64)
        found[guesses] = np.where(lower >= _NEVER, 1, 3 * len(answers) - hits - lower // SCALE)
        return found

    def reply_ceilings(self, group: np.ndarray,
                       parent: tuple[np.ndarray, Hints | None] | None) -> tuple[np.ndarray, int] | None:
        """Each guess's ceiling on the different replies it gets from `group`, a reply of `parent` (a set and its
        hints), and the most of them; None where the parent is not a big set. A ceiling is the least of what the
        guess gets from the parent and from each part of it that holds all of `group` (`Parts`: the answers with a
        letter, without it, or with it at a place). A guess's count over a superset is a ceiling, under any hints.
        (Sets deeper in the search, inside the latest big set, could take the same ceilings; measured, that cost
        more than it saved.)"""
        if parent is None or not CEILINGS_FROM <= len(parent[0]) < len(self.game.words.answers):
            return None
        return self.parts_of(*parent).ceilings_of(group)

    def parts_of(self, answers: np.ndarray, hints: Hints | None) -> Parts:
        """The parts of a big set (`Parts`), kept for the latest PARTS_KEPT sets."""
        key = self.win_key(answers, hints)
        parts = self.parts.get(key)
        if parts is None:
            if len(self.parts) >= PARTS_KEPT:
                self.parts.clear()
            parts = self.parts[key] = Parts(self, answers, hints)
        return parts

    def peak_floor(self, size: int, left: int, peak: int) -> int:
        """A lower bound on a set of `size` answers with `left` (at least 2) guesses to go when no guess gets more
        than `peak` different replies from it: the one-step bound of a guess with that many, one of them all green,
        as `ceiling_least_bound` reads it (Selby's bound for a set bigger than the most replies of any guess)."""
        hit_now, hit_next, hit_later = self.step_costs(left)
        top = min(size, peak)
        return (3 * size - 1 - top) * SCALE + hit_now + (top - 1) * hit_next + (size - top) * hit_later

    def solve_set(self, answers: np.ndarray, left: int, hints: Hints | None = None,
                  budget: int = INFEASIBLE) -> int:
        """The least cost of a tree for `answers` with `left` guesses to go, if below `budget`.

        Args:
            answers: ascending answer indices (all possible ones).
            left: guesses still allowed, at least 1.
            hints: hard mode's demands (None in normal mode).
            budget: the caller has no use for costs at or above it.

        Returns:
            The exact least cost when it is below `budget`, else a lower bound at least `budget`
            (the worst objective: always the exact cost, INFEASIBLE if no tree within `left`).
        """
        size = len(answers)
        if self.objective is Objective.WORST:
            return self.worst_set(answers, left, hints)
        if left <= 1 or size == 1:  # no guess left (a given opener under a limit of 1) is not one free guess
            return self.floor(size, left)
        if size == 2:
            return self.hit(left) + SCALE + self.hit(left - 1)
        if not self.losses and self.known_lost(answers, left, hints):
            return INFEASIBLE
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
        elif left == 3 and self.short_wins is not None and not self.losses and self.limits.top is None:
            return self.solve_three(answers, hints, key, guesses, lower, floor, budget)
        best, best_guess = INFEASIBLE, -1
        cut = self.guess_floors.pop(key, None) or {}  # what an earlier search of this set cut each guess at
        self.guess_floor_count -= len(cut)
        for guess, bound in zip(guesses.tolist(), lower.tolist()):
            limit = min(best, budget)
            if bound >= limit:
                floor = min(floor, bound)
                break
            known = cut.get(guess, 0)
            if known >= limit:  # a proved bound on the guess, still above the limit: cut again, unread
                floor = min(floor, known)
                continue
            cost = self.try_guess(answers, left, hints, guess, limit)
            if cost < limit:
                best, best_guess = cost, guess
                if key == self.root:
                    self.stats.best = best
            else:
                floor = min(floor, cost)
                cut[guess] = cost
        if best < budget:
            self.remember(key, best, best, best_guess)
            return best
        if cut:
            if self.guess_floor_count + len(cut) > GUESS_FLOORS_KEPT:
                self.forget_guess_floors()
            self.guess_floors[key] = cut
            self.guess_floor_count += len(cut)
        bound = min(floor, best)
        self.remember(key, bound, -1, -1)
        return bound

    def short_room(self) -> int:
        """The patterns a compiled three-guess search may still read under the node limit (NO_ROOM without one)."""
        return NO_ROOM if self.node_limit is None else max(0, self.node_limit - self.stats.nodes + 1) * SHORT_NODE

    def solve_three(self, answers: np.ndarray, hints: Hints | None, key: tuple, guesses: np.ndarray,
                    lower: np.ndarray, floor: int, budget: int) -> int:
        """solve_set's loop over `guesses` with three guesses left, compiled (wordle.short_wins.least_cost3): the
        same values; the two-guess sets it searches are not remembered, and count as the win checks' work does."""
        legal = self.allowed(hints) if self.hard else self.game.all_guesses
        costs = np.array([SCALE, self.hit(3), self.hit(2), self.hit(1), INFEASIBLE], dtype=np.int64)
        room = self.short_room()
        # hard mode: past THREE_ASK_WIN patterns read, ask whether the set can be won at all (a lost set costs the
        # search a refutation of every guess; the win check says so at once), then search on if it can
        cap = min(room, THREE_ASK_WIN) if self.hard else room
        while True:
            work = np.array([0, NO_ROOM, 0, cap], dtype=np.int64)
            done, cost, guess, floor = self.short_wins.least_cost3(
                self.matrix, self.game.guess_letters, self.game.guess_counts, self.hard, legal, len(legal),
                self.game.words.answer_rows, answers, guesses, lower.astype(np.int64), min(budget, NO_ROOM),
                min(floor, NO_ROOM), costs, work)
            self.stats.short_work += int(work[0])
            self.stats.nodes += int(work[0]) // SHORT_NODE  # as the compiled win checks count
            if done != UNDECIDED or cap == room:
                break
            if self.lost_within_three(answers, hints):
                self.remember(key, INFEASIBLE, -1, -1)
                return INFEASIBLE
            cap = room = self.short_room()
        if done == UNDECIDED:  # the node limit passed between two guesses: nothing of this set is remembered
            raise BudgetSpent(self.stats.nodes)
        if cost >= 0:
            self.remember(key, int(cost), int(cost), int(guess))
            return int(cost)
        self.remember(key, int(floor), -1, -1)
        return int(floor)

    def lost_within_three(self, answers: np.ndarray, hints: Hints | None) -> bool:
        """Whether no tree solves `answers` within 3 guesses under `hints` (hard mode): at once where the set holds
        the core of a set found lost so before (`three_cores`), else by the win check, whose core is kept."""
        legal = self.legal_bits(hints)
        if len(self.three_cores) and self.three_cores.find(answers, legal, 3) is not None:
            return True
        if self.can_win(answers, 3, hints):
            return False
        self.three_cores.add(self.cores.get(self.win_key(answers, hints or None), answers), legal, 3)
        return True

    def try_guess(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int, limit: int,
                  top_level: bool = False) -> int:
        """The cost of the best tree opening with `guess`, if below `limit`; else a lower bound at least `limit`.

        At the top level the running bound (the solved replies exactly, the rest by their bounds)
        goes to the progress report after each reply. The worst objective gives the exact cost.
        """
        if self.objective is Objective.WORST:
            used = self.max_guesses - left
            for depth in range(2 if len(answers) > 1 else 1, left + 1):
                if len(answers) > 1 and not self.wins_with(answers, depth, hints, guess):
                    continue
                cost = self.tier(used + depth).try_guess(answers, depth, hints, guess, INFEASIBLE, top_level)
                if cost < INFEASIBLE:
                    return depth * FIRST + cost
            return INFEASIBLE
        total, replies = self.guess_bound(answers, left, hints, guess, limit)
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

    def guess_bound(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                    limit: int = INFEASIBLE) -> tuple[int, list]:
        """A proved lower bound on every tree opening with `guess`, and its replies, largest first, each as
        (group, code, (bound, hints)); where the bound reaches `limit` (the guess is cut, its replies not searched)
        a hard-mode reply's hints may be PENDING, not built.

        Each reply is bounded by `known_floor`; in a big set (`reply_ceilings`) the replies bigger than the most
        replies any guess gets are raised to `peak_floor`, and then each big reply to what its part ceilings alone
        allow; then the largest (down to `sharpen_from` answers) by the least one-step bound over every guess there.
        It stops once the total reaches `limit`. The total and
        losses objectives only (the worst objective's costs are not sums over replies).
        """
        if self.objective is Objective.WORST:
            raise ValueError("guess_bound sums replies: not for the worst objective")
        cost = len(answers) * SCALE
        replies = []
        # hard mode, the common case written out (as known_floor would answer): a reply of one or two answers, or one
        # neither memory holds under any hints, is bounded by its floor, a line in its size
        one_floor, two_floor = self.floor(1, left - 1), self.floor(2, left - 1)
        inline = self.hard and two_floor < INFEASIBLE
        seen, narrow = self.seen_sets, self.narrow
        for code, group in partition(self.matrix[guess, answers], answers):
            if code == ALL_GREEN:
                cost += self.hit(left) - SCALE
            elif inline and (len(group) <= 2 or (group.astype(np.uint16) if narrow else group).tobytes() not in seen):
                replies.append((group, code, (one_floor + (len(group) - 1) * (two_floor - one_floor),
                                              None if len(group) <= 2 else PENDING)))
            else:
                replies.append((group, code, self.known_floor(group, left - 1, hints, code, guess)))
        replies.sort(key=lambda reply: -len(reply[0]))
        big = left > 2 and self.limits.top is None and CEILINGS_FROM <= len(answers) < len(self.game.words.answers)
        if big:  # the replies bigger than the peak
            parts = self.parts_of(answers, hints or None)  # as reply_ceilings asks (hard mode's no hints: None)
            peak = parts.peak
            for number, (group, code, (floor, child_hints)) in enumerate(replies):
                if len(group) <= peak:
                    break
                if floor < INFEASIBLE:
                    replies[number] = (group, code, (max(floor, self.peak_floor(len(group), left - 1, peak)),
                                                     child_hints))
        total = cost + sum(reply[2][0] for reply in replies)
        if total >= limit:
            return total, replies
        ceilings: dict[int, np.ndarray] = {}
        if big:  # first, what each big reply's ceilings alone allow (its part ceilings' most), no guess read
            for number, (group, code, (floor, child_hints)) in enumerate(replies):
                if len(group) <= PAIRWISE_UP_TO or floor >= INFEASIBLE:
                    break
                known = None if child_hints is PENDING else self.memo.get(self.key(group, left - 1, child_hints))
                if known is not None and floor >= known[0]:
                    continue  # its floor is at least its remembered bound, so its one-step bound: no ceiling raises it
                ceilings[number], most = parts.ceilings_of(group)
                from_ceilings = self.peak_floor(len(group), left - 1, most)
                if from_ceilings > floor:
                    replies[number] = (group, code, (from_ceilings, child_hints))
                    total += from_ceilings - floor
                    if total >= limit:
                        return total, replies
        for number, (group, code, (floor, child_hints)) in enumerate(replies):  # the largest replies' bounds, sharper
            if len(group) < self.sharpen_from or floor >= INFEASIBLE:
                break
            if child_hints is PENDING:
                child_hints = self.reply_hints(hints, guess, code)
            sharper = self.sharpen(group, left - 1, child_hints, floor, (answers, hints or None),
                                   ceilings.get(number))
            replies[number] = (group, code, (sharper, child_hints))
            total += sharper - floor
            if total >= limit:
                return total, replies
        # the guess is to be searched: every reply's hints
        return total, [(group, code, (floor, self.reply_hints(hints, guess, code) if child_hints is PENDING
                                      else child_hints)) for group, code, (floor, child_hints) in replies]

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
        """A reply's lower bound (the remembered one if better) and the hints under which it is solved.

        One or two answers cost the same under any hints (an answer still possible is always a legal hard-mode
        guess), and their floor is exact: their hints are left out (None), as nothing reads them. In hard mode a
        reply neither memory holds under any hints (`seen_sets`) has nothing to look up: its hints are left
        PENDING (building them is most of the cost of bounding a reply), for `reply_hints` where needed.
        """
        floor = self.floor(len(group), left)
        if len(group) <= 2:
            return floor, None
        if floor >= INFEASIBLE:
            return floor, PENDING if self.hard else None
        stored = self.set_bytes(group)
        if not self.hard:
            child_hints = None
        elif stored in self.seen_sets:
            child_hints = self.reply_hints(hints, guess, code)
        else:
            return floor, PENDING  # in neither memory under any hints: nothing to look up
        if self.lost_within((stored, child_hints or None), left):  # at least one answer lost whatever is played
            return (floor + FIRST if self.losses else INFEASIBLE), child_hints
        known = self.memo.get((stored, left, child_hints))
        if known is not None:
            floor = max(floor, known[0])
        return floor, child_hints

    def reply_hints(self, hints: Hints | None, guess: int, code: int) -> Hints | None:
        """The hints a reply is solved under: its parent's and this step's (hard mode), else None."""
        return extend_hints(hints or Hints(), self.words[guess], code) if self.hard else None

    # -- can it be won at all? ----------------------------------------------------
    def known_lost(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool:
        """Whether `answers` is remembered as lost within `left` guesses (no tree solves them all)."""
        return self.lost_within(self.win_key(answers, hints or None), left)

    def lost_within(self, key: tuple, left: int) -> bool:
        """Whether the set of a win-memory key is remembered as lost within `left` guesses."""
        found = self.wins.get(key)
        return found is not None and left <= found[0]

    def lost_core(self, answers: np.ndarray, hints: Hints | None) -> np.ndarray:
        """A lost subset of `answers`, a set remembered as lost: its core where its proof found a smaller one."""
        return self.cores.get(self.win_key(answers, hints or None), answers)

    def legal_bits(self, hints: Hints | None) -> int:
        """The guesses these hints allow, as an integer's bits (LostCores' form)."""
        found = self.legal_bits_memo.get(hints or None)
        if found is None:
            if len(self.legal_bits_memo) >= LEGAL_KEPT:
                self.legal_bits_memo.clear()
            found = self.legal_bits_memo[hints or None] = bits(self.allowed(hints), len(self.words))
        return found

    def asks_cores(self, left: int) -> bool:
        """Whether `core_lost` looks at a set with `left` guesses to go (it has cores, and the proof would be costly)."""
        return left >= self.core_from and len(self.lost_cores) > 0

    def core_lost(self, answers: np.ndarray, left: int, hints: Hints | None) -> np.ndarray | None:
        """A core (LostCores) inside `answers` proving them lost within `left` guesses, or None. Asked only where a
        proof would be costly: `core_from` guesses or more to go."""
        if not self.asks_cores(left):
            return None
        return self.lost_cores.find(answers, self.legal_bits(hints), left)

    def win_key(self, answers: np.ndarray, hints: Hints | None) -> tuple:
        """The key of a set (and its hints) in the win memory, whatever the guesses left."""
        return (self.set_bytes(answers), hints)

    def can_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool:
        """Whether some tree solves every one of `answers` within `left` guesses (proved either way).

        A search that stops at the first winning tree: the answers still possible are tried as
        guesses first (cheap, and legal in hard mode), then every other allowed guess, each in
        order of its one-step bound; a guess fails at its first reply (largest first) that cannot
        be won. Remembered per set: the most guesses known too few and the fewest known enough.
        """
        size = len(answers)
        if size == 1:
            return left >= 1
        if left <= 1:
            return False
        if size <= left:  # guess the possible answers one by one: each guess removes at least itself
            return True
        key = self.win_key(answers, hints or None)
        too_few, enough = self.wins.get(key, (0, NO_LIMIT))
        if left >= enough:
            return True
        if left <= too_few:
            return False
        if not hints and left >= self.wins.get(self.whole_key, (0, NO_LIMIT))[1]:
            return True  # no hints (normal mode, or none yet): a tree that wins every answer wins any subset
        known = self.memo.get(self.key(answers, left, hints))
        if known is not None and 0 <= known[1] < INFEASIBLE and not self.losses:
            return True  # solved: a tree exists
        self.stats.nodes += 1
        self.check_budget()
        if self.win_limit is not None and self.stats.nodes > self.win_limit:
            raise _Undecided
        core = self.core_lost(answers, left, hints)
        if core is None:
            core = self.endgame_core(answers, left, hints)
        won = None if core is None else False
        if won is None and left > 3:
            won = self.answers_win(answers, left, hints)
        if won is None:  # proved here by a search: its core is kept for other sets (LostCores)
            won = self.short_win(answers, left, hints, None)
            if won is None:
                won = self.search_win(answers, left, hints) >= 0
                core = self.search_core
            elif not won:
                core = self.short_core
            if not won and left >= self.core_from:
                self.lost_cores.add(core if len(core) else answers, self.legal_bits(hints), left)
        if len(self.wins) >= self.limits.memo and key not in self.wins:
            self.wins.clear()
            self.cores.clear()
        too_few, enough = self.wins.get(key, (0, NO_LIMIT))
        self.wins[key] = (too_few, min(enough, left)) if won else (max(too_few, left), enough)
        self.seen_sets.add(key[0])
        if not won:  # the core proved now, for every number of guesses up to `left`; none where it is the whole set
            if 0 < len(core) < size:
                self.cores[key] = core
            else:
                self.cores.pop(key, None)
        return won

    @functools.cached_property
    def endgames(self) -> Endgames:
        """The answer list's endgames (answers alike but for one letter), grouped once per solver."""
        return Endgames(self.game.words.answers)

    def endgame_core(self, answers: np.ndarray, left: int, hints: Hints | None) -> np.ndarray | None:
        """A lost subset of `answers` (the endgame or its core) where the set's largest endgame proves it cannot be
        won within `left` guesses (wordle.endgames): by the counting bound, or, where that only just fails, by
        searching the endgame alone. None where it proves nothing."""
        if not self.endgame_cut or left < 2 or len(answers) <= left:
            return None
        endgame = self.endgames.largest(answers)
        if endgame is None:
            return None
        most = most_won(self.columns, self.allowed(hints), endgame, left)
        if most < len(endgame):
            self.stats.endgame_cuts += 1
            return endgame
        if len(endgame) < len(answers) and most - len(endgame) < left - 1 and not self.can_win(endgame, left, hints):
            self.stats.endgame_cuts += 1
            return self.lost_core(endgame, hints)
        return None

    def forget_wins(self) -> None:
        """Empty the win memory, the lost cores and the remembered winners (a search whose effort must not depend on
        what came before)."""
        self.wins.clear()
        self.cores.clear()
        self.lost_cores.clear()
        self.three_cores.clear()
        self.winners.clear()

    def winning_guess(self, answers: np.ndarray, left: int, hints: Hints | None, effort: int) -> int | None:
        """A guess that starts a tree solving every one of `answers` within `left` guesses, found within `effort`
        sets searched (can_win's search from an empty win memory), or None (none, or none found within the effort).

        The effort counts work, not time: the same answer on any machine.
        """
        if len(answers) == 1 or len(answers) <= left:  # a possible answer: each guess removes at least itself
            return int(self.game.words.answer_rows[answers[0]])
        if left <= 1:
            return None
        self.forget_wins()
        self.forget_memory()
        outer, self.win_limit = self.win_limit, self.stats.nodes + effort
        try:
            guess = self.search_win(answers, left, hints)
        except _Undecided:
            guess = -1
        finally:
            self.win_limit = outer
        return guess if guess >= 0 else None

    def wins_within(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int,
                    effort: int) -> bool | None:
        """Whether `guess` starts a tree solving every one of `answers` within `left` guesses: True or False where
        proved within `effort` sets searched (from an empty win memory), None where the effort ran out."""
        self.forget_wins()
        self.forget_memory()
        outer, self.win_limit = self.win_limit, self.stats.nodes + effort
        try:
            return self.wins_with(answers, left, hints, int(guess))
        except _Undecided:
            return None
        finally:
            self.win_limit = outer

    def search_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """can_win's search at one set: the possible answers as guesses first, then every other allowed guess.

        Returns the first guess found that wins every answer, or -1 where none does.

        In rounds: each guess not yet refuted gets an effort (sets searched) and is left undecided when
        it runs out, so a guess whose subtree fails deep does not hold up one that wins at once; each
        round takes four times as many guesses (the best by their bound first) and, where one was left
        undecided, four times the effort, within what the caller's own round allows.

        The guesses that last won a set with the same guesses left and the same hints (`winners`) go first:
        sets alike in their hints are often won by the same guess. In hard mode's all-opener job, -ER
        words under E and R green come back opener after opener; RIMER, which won UTTER's, was 253rd of
        the 442 guesses in the search's own order there.
        """
        rows = np.sort(self.game.words.answer_rows[answers])
        others = self.allowed(hints)
        outside = np.ones(len(self.words), dtype=bool)
        outside[rows] = False
        ordered = []
        for guesses in (rows, others[outside[others]]):
            if not len(guesses):
                continue
            lower, _ = self.lower_bounds(self.columns, guesses, answers, (0, 0, 0), left == 2)
            useful = np.flatnonzero(lower < _NEVER)
            if left == 2 and len(useful):  # a guess that tells every answer apart wins; none can otherwise
                return int(guesses[useful[np.argmin(lower[useful])]])
            ordered += guesses[useful[np.argsort(lower[useful], kind="stable")]].tolist()
        self.search_core = answers
        if left == 2:
            return -1
        ordered = self.winners_first(ordered, (left, hints))
        outer = self.win_limit
        refuted: set[int] = set()
        lost = np.zeros(len(self.game.words.answers), dtype=bool)  # the refutations' cores, together lost
        effort, width = WIN_EFFORT, WIN_WIDTH
        try:
            while True:
                undecided = False
                for guess in ordered[:width]:
                    if guess in refuted:
                        continue
                    limit = self.stats.nodes + effort
                    capped = outer is not None and limit >= outer
                    self.win_limit = outer if capped else limit
                    try:
                        if self.wins_with(answers, left, hints, guess):
                            self.remember_winner((left, hints), guess)
                            return guess
                        refuted.add(guess)
                        lost[self.refutation] = True
                    except _Undecided:
                        if capped:
                            raise
                        undecided = True
                if not undecided and width >= len(ordered):
                    if refuted:
                        self.search_core = np.flatnonzero(lost)
                    return -1
                effort, width = (effort * 4 if undecided else effort), width * 4
        finally:
            self.win_limit = outer

    def winners_first(self, ordered: list[int], key: tuple[int, Hints | None]) -> list[int]:
        """`ordered` with the remembered winners for `key` that it holds moved to the front, the latest first."""
        front = [guess for guess in self.winners.get(key, ()) if guess in ordered]
        if not front:
            return ordered
        rest = ordered.copy()
        for guess in front:  # at most WINNERS_KEPT: a scan each, not a set of the whole order
            rest.remove(guess)
        return front + rest

    def remember_winner(self, key: tuple[int, Hints | None], guess: int) -> None:
        """Keep `guess` as the latest winner for `key` (at most WINNERS_KEPT, the oldest dropped)."""
        if len(self.winners) >= WINNER_KEYS and key not in self.winners:
            self.winners.clear()
        winners = self.winners.setdefault(key, [])
        if guess in winners:
            winners.remove(guess)
        winners.insert(0, guess)
        del winners[WINNERS_KEPT:]

    def wins_with(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int) -> bool:
        """Whether `guess` starts a tree that solves every one of `answers` within `left` guesses.

        Where it does not, `refutation` is left holding answers on which `guess` loses too (a reply's core, or
        `answers` where the compiled check gave no reply).
        """
        replies = [(group, code) for code, group in partition(self.matrix[guess, answers], answers)
                   if code != ALL_GREEN]
        if left <= 1:
            self.refutation = replies[0][0][:1] if replies else answers
            return not replies
        if left == 2:  # one guess left for each reply: each must be one answer
            for group, _ in replies:
                if len(group) > 1:
                    self.refutation = group[:2]
                    return False
            return True
        children = [(group, code) for group, code in replies if len(group) > left - 1]  # smaller ones are won (can_win)
        children.sort(key=lambda child: -len(child[0]))
        hinted: dict[int, Hints | None] = {}

        def child_hints(code: int) -> Hints | None:
            """A reply's hints, built where first needed (most replies of a refuted guess never need theirs)."""
            if code not in hinted:
                hinted[code] = self.reply_hints(hints, guess, code)
            return hinted[code]

        for group, code in children:
            stored = self.set_bytes(group)
            if stored in self.seen_sets and self.lost_within((stored, child_hints(code) or None), left - 1):
                self.refutation = self.lost_core(group, child_hints(code))
                return False  # (a set the win memory holds under no hints is not remembered lost: no hints built)
        if self.asks_cores(left - 1):
            for group, code in children:
                core = self.core_lost(group, left - 1, child_hints(code))
                if core is not None:
                    self.refutation = core
                    return False
        if left == 3:
            won = self.short_win(answers, left, hints, guess)
            if won is not None:
                self.refutation = self.short_core
                return won
        if left - 1 < 3:  # each reply is settled by one pass over the guesses
            for group, code in children:
                if not self.can_win(group, left - 1, child_hints(code)):
                    self.refutation = self.lost_core(group, child_hints(code))
                    return False
            return True
        effort = WIN_EFFORT  # in rounds, as search_win's guesses: a reply lost deep does not wait on others won
        while children:
            undecided = []
            for group, code in children:
                won = self.try_to_win(group, left - 1, child_hints(code), effort)
                if won is False:
                    self.refutation = self.lost_core(group, child_hints(code))
                    return False
                if won is None:
                    undecided.append((group, code))
            children = undecided
            effort *= 4
        return True

    def short_win(self, answers: np.ndarray, left: int, hints: Hints | None, guess: int | None) -> bool | None:
        """The compiled check (wordle.short_wins) of a set within three guesses (starting with `guess` if given):
        proved either way, or None without numba, with other guesses left, or past its work cap (SHORT_WORK
        patterns read). Where it is False, `short_core` is left holding a lost subset of `answers` (with `guess`:
        answers `guess` loses on)."""
        if self.short_wins is None or left != 3:
            return None
        legal = self.allowed(hints) if self.hard else self.game.all_guesses
        work = np.array([0, SHORT_WORK], dtype=np.int64)
        game, short = self.game, self.short_wins
        core = np.zeros(len(game.words.answers), dtype=np.uint8)
        if guess is None:
            won = short.can_win3(self.matrix, game.guess_letters, game.guess_counts, self.hard, legal, len(legal),
                                 answers, np.sort(game.words.answer_rows[answers]), game.words.answer_rows, work, core)
        else:
            won = short.wins_with3(self.matrix, game.guess_letters, game.guess_counts, self.hard, legal, len(legal),
                                   answers, guess, work, core, answers[:0], np.zeros(1, np.int64),
                                   np.zeros(1, np.int64))
        self.stats.short_work += int(work[0])
        self.stats.nodes += int(work[0]) // SHORT_NODE  # can_win's efforts count sets searched: this is worth as many
        if won == 0:
            self.short_core = np.flatnonzero(core)
        return None if won == UNDECIDED else bool(won)

    def answers_win(self, answers: np.ndarray, left: int, hints: Hints | None) -> bool | None:
        """True where the compiled quick certificate (wordle.short_wins.answers_win: a tree guessing answers still
        possible, legal in any mode, then every legal guess with three left) wins `answers` within `left` guesses;
        None where it finds none."""
        if self.short_wins is None:
            return None
        work = np.array([0, ANSWERS_WORK], dtype=np.int64)
        legal = self.allowed(hints) if self.hard else self.game.all_guesses
        chain = np.zeros((8, 2), dtype=np.int64)
        won = self.short_wins.answers_win(self.matrix, self.game.guess_letters, self.game.guess_counts, self.hard, legal,
                                          self.game.words.answer_rows, answers, left, ANSWERS_BREADTH, chain, 0, work)
        self.stats.short_work += int(work[0])
        self.stats.nodes += int(work[0]) // SHORT_NODE
        return True if won == 1 else None

    def try_to_win(self, answers: np.ndarray, left: int, hints: Hints | None, effort: int) -> bool | None:
        """can_win within `effort` sets searched: True or False where proved, None where the effort ran out."""
        outer = self.win_limit
        self.win_limit = self.stats.nodes + effort if outer is None else min(outer, self.stats.nodes + effort)
        try:
            return self.can_win(answers, left, hints)
        except _Undecided:
            if outer is not None and self.stats.nodes > outer:
                raise
            return None
        finally:
            self.win_limit = outer

    def win_whole_list(self, left: int) -> bool | None:
        """Try to prove the whole answer list winnable within `left` guesses: the best few first guesses by their
        bound, each within WHOLE_EFFORT sets searched (None: not decided). Remembered in the win memory."""
        answers, key = self.game.all_answers, self.whole_key
        if left >= self.wins.get(key, (0, NO_LIMIT))[1]:
            return True
        guesses, _, _ = self.bounds(answers, left, None)
        for guess in guesses[:WHOLE_TRIES].tolist():
            outer, self.win_limit = self.win_limit, self.stats.nodes + WHOLE_EFFORT
            try:
                if self.wins_with(answers, left, None, guess):
                    too_few, enough = self.wins.get(key, (0, NO_LIMIT))
                    self.wins[key] = (too_few, min(enough, left))
                    return True
            except _Undecided:
                pass
            finally:
                self.win_limit = outer
        return None

    def opener_wins(self, opener: int) -> bool:
        """Whether some tree opening with `opener` solves every answer within the guess limit (proved either way).

        The whole answer list is tried first with one guess fewer and no hints: where it can be won,
        so can every reply without hints (a subset: in normal mode every reply, in hard mode the
        all-grey one), with no search of its own.
        """
        answers = self.game.all_answers
        if self.max_guesses > 2 and self.whole_tries > 0:
            self.whole_tries -= 1
            self.win_whole_list(self.max_guesses - 1)
        return self.wins_with(answers, self.max_guesses, Hints() if self.hard else None, int(opener))

    # -- the worst objective --------------------------------------------------------
    def tier(self, limit: int) -> "Solver":
        """The total-objective solver under a guess limit of `limit` (worst objective), sharing budgets and wins."""
        tier = self.tiers.get(limit)
        if tier is None:
            tier = self.tiers[limit] = Solver(self.game, hard=self.hard, max_guesses=limit, limits=self.limits,
                                              long_game=self.long_game, dead_letters=self.tables is not None)
            tier.wins, tier.cores, tier.lost_cores = self.wins, self.cores, self.lost_cores
            tier.three_cores = self.three_cores
            tier.seen_sets = self.seen_sets
        tier.stats, tier.report, tier.deadline, tier.node_limit = self.stats, self.report, self.deadline, self.node_limit
        return tier

    def worst_set(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The worst objective's cost of a set: the fewest guesses d <= left that win it (d * FIRST), then its
        least total within d; INFEASIBLE if `left` guesses cannot win it."""
        used = self.max_guesses - left
        for depth in range(1, left + 1):
            if len(answers) > 2 and not self.can_win(answers, depth, hints):
                continue
            cost = self.tier(used + depth).solve_set(answers, depth, hints)
            if cost < INFEASIBLE:
                return depth * FIRST + cost
        return INFEASIBLE

    def check_budget(self) -> None:
        """BudgetSpent (the engine's one overrun signal) once the deadline or the node limit has passed; the memory then
        holds only finished sub-problems."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetSpent(self.stats.nodes, "time cap")
        if self.node_limit is not None and self.stats.nodes > self.node_limit:
            raise BudgetSpent(self.stats.nodes)

    def sharpen(self, group: np.ndarray, left: int, hints: Hints | None, floor: int,
                parent: tuple[np.ndarray, Hints | None] | None = None, ceiling: np.ndarray | None = None) -> int:
        """A reply's bound raised to the least one-step bound over every guess there (remembered); `parent`, the
        set it is a reply of (and its hints), lends a big reply its guesses' ceilings (`reply_ceilings`), or
        `ceiling` gives them, already made."""
        key = self.key(group, left, hints)
        known = self.memo.get(key)
        if known is not None:  # every bound the memory holds is at least the one-step bound: nothing to read
            if known[1] < 0 and floor > known[0]:
                self.remember(key, floor, -1, -1)
            return max(floor, known[0])
        self.check_budget()
        if ceiling is None and self.limits.top is None and self.reads_with_ceilings(len(group), hints):
            found = self.reply_ceilings(group, parent)
            ceiling = None if found is None else found[0]
        floor = max(floor, self.least_bound(group, left, hints, ceiling))
        self.remember(key, floor, -1, -1)
        return floor

    def forget_memory(self) -> None:
        """Empty the memory (and the guess bounds kept with it), so that what comes next depends on nothing before."""
        self.memo.clear()
        self.forget_guess_floors()

    def forget_guess_floors(self) -> None:
        """Forget every unsolved set's guess bounds (`guess_floors`)."""
        self.guess_floors.clear()
        self.guess_floor_count = 0

    def use_memo(self, memo: dict[tuple, tuple[int, int, int]]) -> None:
        """Search on with `memo`, a memory saved earlier; its sets go back into `seen_sets`, which a memory that filled
        up since has rebuilt without them (a set missing there would have its remembered bound skipped)."""
        self.memo = memo
        self.forget_guess_floors()  # they belong to the memory they were found with
        self.seen_sets.update(key[0] for key in memo)

    def remember(self, key: tuple, bound: int, exact: int, guess: int) -> None:
        """Store a sub-problem's bound (and exact cost and guess when known), forgetting all when full."""
        if len(self.memo) >= self.limits.memo and key not in self.memo:
            self.stats.forgotten += len(self.memo)
            self.memo.clear()
            self.forget_guess_floors()
            self.seen_sets.clear()  # in place: the tiers hold the same set
            self.seen_sets.update([self.whole_key[0], *(win_key[0] for win_key in self.wins)])
        self.seen_sets.add(key[0])
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
        return self.best_guess_for(np.asarray(state.candidates), state.guesses_left, self.state_hints(state))

    def best_guess_for(self, answers: np.ndarray, left: int, hints: Hints | None) -> int:
        """The first guess of an optimal tree for `answers` with `left` guesses to go.

        Raises:
            UserError: no tree wins (total and worst objectives), or the memory is too small.
        """
        if self.objective is Objective.WORST:
            cost = self.worst_set(answers, left, hints)
            if cost >= INFEASIBLE:
                raise UserError("no tree solves every answer within the guess limit")
            depth = cost // FIRST
            return self.tier(self.max_guesses - left + depth).best_guess_for(answers, depth, hints)
        if len(answers) <= 2 or left == 1:
            return int(self.game.words.answer_rows[answers[0]])
        key = self.key(answers, left, hints)
        known = self.memo.get(key)
        if known is None or known[1] < 0:
            self.solve_set(answers, left, hints)
            known = self.memo.get(key)
            if known is None or known[1] < 0:  # forgotten as the memory filled, or no tree at all
                cost = self.solve_set(answers, left, hints)
                if cost >= INFEASIBLE:
                    raise UserError("no tree solves every answer within the guess limit")
                known = self.memo.get(key)
                if known is None or known[1] < 0:
                    raise UserError(f"the solver's memory ({self.limits.memo} sub-problems) is too small for this state")
        return known[2]

    def no_tree(self) -> UserError:
        """The one-line error for a root with no tree within the guess limit: proved, or not found in a breadth."""
        if self.limits.top is None:
            return UserError(f"no tree solves every answer within {self.max_guesses} guesses")
        return UserError(f"no tree solving every answer within {self.max_guesses} guesses was found among the best "
                         f"{self.limits.top} guesses a node (one may exist among the others; --prove tries them all)")

    def solve(self, opener: int | None = None) -> Solution:
        """Solve the whole game from the start (with `opener` as the first guess if given).

        Raises:
            UserError: no tree wins every answer (total and worst objectives), or none was found in the breadth.
        """
        if self.objective is Objective.WORST:
            return self.solve_worst(opener)
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
            raise self.no_tree()
        self.stats.best = self.stats.bound = cost
        outcome = self.objective.unpack(cost)
        return Solution(guess=guess, total=outcome.total, long_games=outcome.long_games, proved=self.limits.top is None,
                        nodes=self.stats.nodes, seconds=self.stats.seconds, objective=self.objective,
                        losses=outcome.losses)

    def solve_worst(self, opener: int | None) -> Solution:
        """The worst objective at the root: the least limit under which a tree wins every answer, then its least total."""
        state = self.game.initial_state(hard=self.hard, max_guesses=self.max_guesses)
        answers = np.asarray(state.candidates)
        hints = Hints() if self.hard else None
        for limit in range(1, self.max_guesses + 1):
            if self.limits.top is None:  # the proof of "none within this limit" is can_win's, far cheaper
                won = (self.can_win(answers, limit, hints) if opener is None
                       else self.wins_with(answers, limit, hints, int(opener)))
                if not won:
                    continue
            try:
                solution = self.tier(limit).solve(opener)
            except UserError:
                continue
            self.worst_limit = limit
            return Solution(guess=solution.guess, total=solution.total, long_games=solution.long_games,
                            proved=solution.proved, nodes=self.stats.nodes, seconds=self.stats.seconds,
                            objective=self.objective, worst=limit)
        raise self.no_tree()

    def chooser(self, opener: int | None = None) -> Callable[[State], int]:
        """A player state -> guess that follows the optimal tree (the opener first, if given).

        Under the worst objective it follows the tree solve() found (call solve first).
        """
        if self.objective is Objective.WORST and self.worst_limit is not None:
            tier = self.tiers[self.worst_limit]
            shift = self.max_guesses - self.worst_limit

            def follow(state: State) -> int:
                if opener is not None and not state.history:
                    return int(opener)
                return tier.best_guess_for(np.asarray(state.candidates), state.guesses_left - shift,
                                           self.state_hints(state))
            return follow

        def choose(state: State) -> int:
            if opener is not None and not state.history:
                return int(opener)
            return self.best_guess(state)
        return choose
