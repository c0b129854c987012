"""How short a game against Absurdle can be: a proof that 3 guesses never win, and a search for a 4-guess win.

Absurdle (agents/indicators.py) is deterministic, so a Guesser's game against it is one path:
after each guess it keeps the largest bucket. To win with guess k the Guesser must face a
single answer after guess k - 1. Fewer guesses are better for the Guesser.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from wordle import Wordle
from wordle.feedback import PATTERN_COUNT
from wordle.replies import distinct_replies as count_distinct

from .indicators import make_indicator
from .modelled import ModelledGame


def largest_sizes(game: Wordle, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """For each guess, the size of the largest bucket it leaves among `answers` (Absurdle's reply keeps it)."""
    replies = game.matrix[np.ix_(guesses, answers)].astype(np.int64)
    replies += (np.arange(len(guesses)) * PATTERN_COUNT)[:, None]  # one row of counts per guess
    counts = np.bincount(replies.ravel(), minlength=len(guesses) * PATTERN_COUNT)
    return counts.reshape(len(guesses), PATTERN_COUNT).max(axis=1)


def distinct_replies(game: Wordle, guesses: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """For each guess, how many different patterns it gets from `answers`."""
    return count_distinct(game.matrix[np.ix_(guesses, answers)])


def against_absurdle(game: Wordle) -> ModelledGame:
    """`game` with Absurdle's reply at every Indicator node (its `answered(state, guess)` plays a guess and that reply)."""
    return ModelledGame(game, make_indicator("absurdle", game))


@dataclass
class Proof:
    """The outcome of `no_three_guess_win`: whether it holds, and how much each bound settled."""

    holds: bool
    openers: int = 0
    settled_by_bound: int = 0
    searched_exactly: int = 0
    seconds: float = 0.0
    counterexample: tuple[int, int] | None = None
    smallest_first_bucket: int = 0
    most_distinct_replies: int = 0


def no_three_guess_win(game: Wordle) -> Proof:
    """Prove, by search over every pair of first guesses, that no Guesser beats Absurdle in 3 guesses.

    A win on guess 3 needs one answer left after guess 2, so guess 2 must give every answer of
    Absurdle's first bucket B1 a different pattern: |B1| different patterns. A guess gets at most
    as many patterns from B1 as from all the answers, so an opener whose |B1| exceeds the most
    patterns any guess gets from the whole list is settled without looking at guess 2; any other
    opener's B1 is searched over every second guess (sorted patterns, adjacent ones compared).
    Hard mode only removes guesses, so the proof covers it too. Guess 1 or 2 wins only from a
    bucket of one, which the same numbers rule out.
    """
    start_time = time.perf_counter()
    guesses = game.all_guesses
    distinct = distinct_replies(game, guesses, game.all_answers)
    most = int(distinct.max())
    start, absurdle = game.initial_state(), against_absurdle(game)
    proof = Proof(holds=True, openers=len(guesses), most_distinct_replies=most)
    sizes = largest_sizes(game, guesses, game.all_answers)
    proof.smallest_first_bucket = int(sizes.min())
    for opener in map(int, guesses):
        if sizes[opener] > most:
            proof.settled_by_bound += 1
            continue
        bucket = absurdle.answered(start, opener).candidates
        proof.searched_exactly += 1
        splitting = np.flatnonzero(distinct_replies(game, guesses, bucket) == len(bucket))
        if splitting.size or len(bucket) == 1:
            proof.holds = False
            proof.counterexample = (opener, int(splitting[0]) if splitting.size else -1)
            break
    proof.seconds = time.perf_counter() - start_time
    return proof


@dataclass
class Win:
    """A game that beats Absurdle: the guesses (the last is the answer), and the search's cost."""

    guesses: tuple[int, ...] = ()
    examined: int = 0
    seconds: float = 0.0
    kept: tuple[int, ...] = field(default=())


def four_guess_win(game: Wordle, hard: bool = False, beam: int = 50) -> Win:
    """Search for 4 guesses that beat Absurdle: guess 3 must split Absurdle's second bucket into single answers.

    Guesses 1 and 2 are tried in order of the largest bucket they leave (smallest first), `beam`
    of each; guess 3 is any legal guess giving every answer left a different pattern; guess 4 is
    the one answer Absurdle keeps. Returns an empty Win when the beam holds none.
    """
    start_time = time.perf_counter()
    state, absurdle = game.initial_state(hard=hard, max_guesses=4), against_absurdle(game)
    win = Win()
    firsts = game.legal_guesses(state)
    for first in firsts[np.argsort(largest_sizes(game, firsts, state.candidates), kind="stable")[:beam]]:
        after_first = absurdle.answered(state, int(first))
        seconds = game.legal_guesses(after_first)
        order = np.argsort(largest_sizes(game, seconds, after_first.candidates), kind="stable")[:beam]
        for second in seconds[order]:
            win.examined += 1
            after_second = absurdle.answered(after_first, int(second))
            thirds = game.legal_guesses(after_second)
            split = np.flatnonzero(distinct_replies(game, thirds, after_second.candidates)
                                   == len(after_second.candidates))
            if split.size:
                third = int(thirds[split[0]])
                last = absurdle.answered(after_second, third)
                answer = int(game.words.answer_rows[last.candidates[0]])
                win.guesses = (int(first), int(second), third, answer)
                win.kept = (len(after_first.candidates), len(after_second.candidates), 1)
                win.seconds = time.perf_counter() - start_time
                return win
    win.seconds = time.perf_counter() - start_time
    return win
