"""Absurdle's challenge mode: force a given target to be the word Absurdle keeps, in as few guesses as can be proved.

The rule, as qntm describes the mode (https://qntm.org/challenge): "you are provided with a
target word, and you must force it to be the secret word". Absurdle itself plays as always
(agents/indicators.py, `Absurdle`): after each guess it keeps the largest bucket of the answers
still possible, ties broken by `TIE_RANK` (fewest greens, then fewest yellows, then the colours
read left to right). It does not look at the target: qntm's worked example (target SCRUM, guess
PLEAT) has Absurdle answer with the 263-word bucket holding an E over the 255-word all-grey one
that holds SCRUM, and says "We've missed the target!". So a guess after which the target is not
in Absurdle's bucket loses the challenge (the answers only ever shrink, so it cannot come back),
and the challenge is won by guessing the target once it is the only answer left. Guessing it
earlier never wins: its all-green bucket holds one word, every other reply at least one, and an
all-green reply loses every tie, so Absurdle keeps another bucket and the target is gone.

A game's length counts every guess, the final guess of the target too, as Absurdle counts a
game: a target left alone after k guesses is won in k + 1. Absurdle is deterministic, so the
challenge is a one-player search for the shortest line of guesses; fewer is better. Normal
mode only (Absurdle has no hard mode).

Proofs are exhaustive searches with sound pruning only (each reason is in `Challenge.finish`):
a set of more than one answer needs one more guess at least; a guess whose bucket loses the
target is never followed; a guess gets at most as many replies from a bucket as from the set
the bucket came from, so a set larger than every guess's reply count from it (or from any set
holding it) cannot be split into single answers by one guess; a set proved to need more than
k further guesses is remembered as such (the search's only cache, keyed by the exact set).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from wordle import Wordle

from .absurdle_kernels import compiled
from .indicators import TIE_RANK

#: Where the guesses of a greedy game stop if the target is still not alone.
GREEDY_MOST_GUESSES = 30


@dataclass(frozen=True)
class ChallengeLimit:
    """What one proof may spend: `nodes` sets searched (a set's replies to every guess computed is one node), and
    `seconds`, a safety cap on the wall clock (None: none). Counting nodes keeps results independent of the load."""

    nodes: int | None = 5_000_000
    seconds: float | None = None

    def __post_init__(self) -> None:
        """Refuse a budget no search can run under."""
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"the node budget must be at least 1, got {self.nodes}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time cap must be positive, got {self.seconds}")


class OutOfBudget(Exception):
    """A proof's budget ran out (nodes, or the time cap) before the search at one depth finished."""


@dataclass
class ChallengeProof:
    """What a proof found for one target.

    Attributes:
        target: the target's answer index.
        low: proved: no line of guesses wins the challenge in fewer guesses.
        high: the length of `line`, a line that wins (None: none known).
        line: guess indices, the last one the target; Absurdle's replies follow from them.
        nodes: sets searched. seconds: wall-clock time. cut: what ran out ("" when proved).
    """

    target: int
    low: int
    high: int | None = None
    line: tuple[int, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    cut: str = ""

    @property
    def proved(self) -> bool:
        """Whether the fewest guesses is known: a line of `low` guesses was found."""
        return self.high is not None and self.low == self.high


@dataclass
class Step:
    """One guess of a challenge game: the guess, Absurdle's reply, and the answers it kept (sorted answer indices)."""

    guess: int
    pattern: int
    kept: np.ndarray = field(repr=False)


class Challenge:
    """Absurdle's challenge over one game's word lists: Absurdle's replies, games, proofs; owns the caches.

    Args:
        game: the word lists and pattern matrix (every allowed guess may be played).
    """

    def __init__(self, game: Wordle):
        self.game = game
        self.matrix = np.ascontiguousarray(game.matrix)
        self.tie = TIE_RANK.astype(np.int64)
        self.kernels = compiled()
        self.guesses = np.arange(self.matrix.shape[0], dtype=np.int64)
        self.answers = np.arange(self.matrix.shape[1], dtype=np.int64)
        # one random number below 2**48 per answer: a bucket's sum names it in the two-guess pass's hash table (every
        # hit is compared answer by answer, so the numbers only speed it up); 2315 of them sum below 2**63
        self.keys = np.random.default_rng(0).integers(0, 2**48, size=len(self.answers), dtype=np.int64)
        self.failed: dict[tuple[int, bytes], int] = {}  # (target, set) -> most further guesses proved not enough
        self.nodes = 0

    # -- Absurdle's replies ---------------------------------------------------
    def replies(self, members: np.ndarray, guesses: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Absurdle's reply to each guess (all, or `guesses`) from the answers `members`, and its bucket's size."""
        guesses = self.guesses if guesses is None else np.asarray(guesses, dtype=np.int64)
        patterns = np.empty(len(guesses), np.int64)
        sizes = np.empty(len(guesses), np.int64)
        self.kernels.replies(self.matrix, guesses, members, self.tie, patterns, sizes)
        return patterns, sizes

    def step(self, members: np.ndarray, guess: int) -> Step:
        """Absurdle's reply to `guess` from `members`, and the bucket it keeps."""
        patterns, _ = self.replies(members, np.array([guess]))
        pattern = int(patterns[0])
        return Step(guess, pattern, members[self.matrix[guess, members] == pattern])

    def play(self, guesses: list[int], members: np.ndarray | None = None) -> list[Step]:
        """Absurdle's replies to a line of guesses, from all the answers (or `members`)."""
        kept = self.answers if members is None else members
        steps = []
        for guess in guesses:
            steps.append(self.step(kept, guess))
            kept = steps[-1].kept
        return steps

    def wins(self, target: int, guesses: list[int]) -> bool:
        """Whether a line of guesses wins the challenge for `target`: it ends with the target, alone by then."""
        steps = self.play(guesses)
        return bool(steps) and guesses[-1] == int(self.game.words.answer_rows[target]) and len(steps[-1].kept) == 1 \
            and int(steps[-1].kept[0]) == target and all(target in step.kept for step in steps)

    # -- the bounds -----------------------------------------------------------
    def layout(self, members: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every guess sorted by the number of replies it gets from `members`, most first (a bucket of `members` is
        split into single answers only by a guess whose count reaches the bucket's size), with those counts and
        the replies themselves (row i: guess order[i]'s replies from `members`), compact for the kernels.

        Returns:
            (order, ceilings, rows).
        """
        counts = np.empty(len(self.guesses), np.int64)
        self.kernels.distinct(self.matrix, self.guesses, members, counts)
        ranked = np.argsort(-counts, kind="stable")
        order = self.guesses[ranked]
        rows = np.empty((len(order), len(members)), self.matrix.dtype)
        self.kernels.gather(self.matrix, order, members, rows)
        return order, counts[ranked], rows

    def split_ending(self, members: np.ndarray, target: int) -> int | None:
        """A guess after which Absurdle keeps `target` alone from `members` (None: none), tried over every guess."""
        order, ceilings, rows = self.layout(members)
        split = int(self.kernels.split(rows, ceilings, order, np.arange(len(members)), members, self.tie,
                                       int(np.searchsorted(members, target)), np.zeros(0, np.bool_),
                                       np.zeros(0, np.int64)))
        return None if split < 0 else split

    def two_ending(self, members: np.ndarray, target: int) -> list[int] | None:
        """One or two guesses after which Absurdle keeps `target` alone from `members` (None: none), exhaustive."""
        order, ceilings, rows = self.layout(members)
        second, third = np.full(1, -1, np.int64), np.full(1, -1, np.int64)
        found = self.kernels.two(rows, ceilings, order, members, self.tie, self.keys[members],
                                 int(np.searchsorted(members, target)), np.zeros(0, np.bool_), second, third)
        return None if not found else [int(second[0])] + ([int(third[0])] if third[0] >= 0 else [])

    # -- the search -------------------------------------------------------------
    def finish(self, members: np.ndarray, target: int, left: int, spend: Callable[[], None]) -> list[int] | None:
        """The guesses (without the final guess of the target) that leave `target` alone within `left` guesses from
        the answers `members` (which hold it), or None when none do; exhaustive.

        Pruning, each sound: a set of one is done, a larger set with no guess left fails; one guess
        left needs a guess giving every answer its own reply with `target` the one Absurdle keeps
        (`_split_kernel`, which tries only the guesses whose reply count from `members` reaches its
        size); two left is searched in one compiled pass (`_two_kernel`); a guess whose bucket loses
        `target` is never followed (it cannot come back); a bucket that many guesses leave is
        searched once; a set proved to need more is remembered with the guesses it failed in.
        """
        if len(members) == 1:
            return []
        if left <= 0:
            return None
        key = (target, members.tobytes())
        if self.failed.get(key, 0) >= left:
            return None
        spend()
        if left == 1:
            split = self.split_ending(members, target)
            line = None if split is None else [split]
        elif left == 2:
            line = self.two_ending(members, target)
        else:
            line = None
            for guess, bucket in self.children(members, target):
                rest = self.finish(bucket, target, left - 1, spend)
                if rest is not None:
                    line = [guess, *rest]
                    break
        if line is None:
            self.failed[key] = max(left, self.failed.get(key, 0))
        return line

    def children(self, members: np.ndarray, target: int) -> list[tuple[int, np.ndarray]]:
        """The different buckets Absurdle keeps from `members` that still hold `target`, each with the first guess
        that leaves it, smallest bucket first (then the lowest guess)."""
        patterns, sizes = self.replies(members)
        keeping = np.flatnonzero(self.matrix[:, target] == patterns)
        keeping = keeping[sizes[keeping] < len(members)]  # a guess that keeps every answer gets nowhere
        keeping = keeping[np.argsort(sizes[keeping], kind="stable")]
        seen: set[bytes] = set()
        found = []
        rows = self.matrix[np.ix_(keeping, members)]
        for row, guess in zip(rows, keeping):
            bucket = members[row == patterns[guess]]
            name = bucket.tobytes()
            if name not in seen:
                seen.add(name)
                found.append((int(guess), bucket))
        return found

    def prove(self, target: int, limit: ChallengeLimit = ChallengeLimit(), known_low: int = 1,
              line: list[int] | None = None, most: int | None = None,
              progress: Callable[[int], None] | None = None) -> ChallengeProof:
        """The fewest guesses that win the challenge for `target`, searched depth by depth from `known_low`.

        Args:
            target: the target's answer index.
            limit: the budget; when it runs out the result is the interval proved so far.
            known_low: a proved lower bound to start from (a search at a smaller depth is skipped).
            line: a winning line already known (its length is an upper bound, and the search stops there).
            most: search no line longer than this many guesses (None: as many as there are answers, which is
                enough: a guess that keeps every answer is never needed, so each guess of a shortest line keeps
                fewer; when that fails too, no line forces the target and `low` is one more than the answers).
            progress: called with each depth (in guesses) as its search starts.

        Returns:
            A ChallengeProof: `low` proved, `high` and `line` the best line known.
        """
        start = time.perf_counter()
        nodes_before = self.nodes
        most = len(self.answers) if most is None else most
        proof = ChallengeProof(target=target, low=max(1, known_low))
        if line is not None:
            proof.line, proof.high = tuple(line), len(line)

        def spend() -> None:
            """Count a node; raise OutOfBudget when the budget is spent."""
            self.nodes += 1
            if limit.nodes is not None and self.nodes - nodes_before > limit.nodes:
                raise OutOfBudget("node budget")
            if limit.seconds is not None and time.perf_counter() - start > limit.seconds:
                raise OutOfBudget("time cap")

        answer_row = int(self.game.words.answer_rows[target])
        try:
            while (proof.high is None or proof.low < proof.high) and proof.low <= most:
                if progress is not None:
                    progress(proof.low)
                found = self.finish(self.answers, target, proof.low - 1, spend)
                if found is not None:
                    proof.line, proof.high = (*found, answer_row), len(found) + 1
                    break
                proof.low += 1
        except OutOfBudget as spent:
            proof.cut = str(spent)
        proof.nodes = self.nodes - nodes_before
        proof.seconds = time.perf_counter() - start
        return proof

    # -- playing ------------------------------------------------------------------
    def greedy_line(self, target: int) -> list[int] | None:
        """A good Guesser's game: finish exactly when two guesses can leave the target alone, else play the guess
        whose bucket is smallest among those that keep the target (ties: the lowest guess). None: it got stuck."""
        members = self.answers
        line: list[int] = []
        while len(line) < GREEDY_MOST_GUESSES:
            if len(members) == 1:
                return [*line, int(self.game.words.answer_rows[target])]
            ending = self.finish(members, target, 2, lambda: None)
            if ending is not None:
                line += ending
                members = np.array([target])
                continue
            children = self.children(members, target)
            if not children:
                return None
            guess, members = children[0]
            line.append(guess)
        return None

    # -- every target at once -----------------------------------------------------
    def reached_in_three(self, progress: Callable[[int, int], None] | None = None,
                         done: tuple[np.ndarray, np.ndarray] | None = None, checkpoint: Callable | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
        """Every answer three guesses can leave alone (so the challenge for it is won in 4), with a line for each.

        Exhaustive: every distinct bucket of a first guess, every second guess from it, every
        splitting third guess (by `_two_kernel`, pruned as `finish` is).

        Args:
            progress: called with (first buckets done, first buckets in all).
            done: (lines, finished first buckets as a boolean array) from an earlier, cut run.
            checkpoint: called with (lines, finished) after each first bucket, to keep them.

        Returns:
            (lines, finished): lines[a] is (g1, g2, g3) for a reached answer a (g3 = -1 when two
            guesses leave it alone), rows of -1 elsewhere; finished marks the first buckets searched.
        """
        firsts = self.first_buckets()
        if done is None:
            lines, finished = np.full((len(self.answers), 3), -1, np.int64), np.zeros(len(firsts), np.bool_)
        else:
            lines, finished = done
        for number, (first, bucket) in enumerate(firsts):
            if finished[number]:
                continue
            kept = lines[:, 0] >= 0
            before = kept.copy()
            second, third = lines[:, 1].copy(), lines[:, 2].copy()
            order, ceilings, rows = self.layout(bucket)
            self.kernels.two(rows, ceilings, order, bucket, self.tie, self.keys[bucket], -1, kept, second, third)
            new = kept & ~before
            lines[new, 0], lines[new, 1], lines[new, 2] = first, second[new], third[new]
            finished[number] = True
            if checkpoint is not None:
                checkpoint(lines, finished)
            if progress is not None:
                progress(number + 1, len(firsts))
        return lines, finished

    def first_buckets(self) -> list[tuple[int, np.ndarray]]:
        """The different buckets Absurdle keeps after a first guess, each with the first guess that leaves it."""
        patterns, _ = self.replies(self.answers)
        seen: set[bytes] = set()
        found = []
        for guess in map(int, self.guesses):
            bucket = self.answers[self.matrix[guess] == patterns[guess]]
            name = bucket.tobytes()
            if name not in seen:
                seen.add(name)
                found.append((guess, bucket))
        return found
