"""Indicators: the player who answers each guess with a pattern, found by name like the Guessers.

Values are from the Guesser's point of view, higher is better (the scale of `Wordle.utility`);
an Indicator that plays against the Guesser prefers replies of lower value.

Every Indicator is consistent: it replies only with a pattern some possible answer gives,
so the answers left are never empty. Its reply to a state with a guess pending is a
`Choice`, which also says how many answers the reply keeps and which replies it passed over.
A game with an Indicator is played by `play_with` (through `Wordle.play_against`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from wordle import State, Wordle, format_pattern
from wordle.feedback import GREEN, PATTERN_COUNT, YELLOW, decode_colours
from wordle.game import Playthrough

from .base import game_rng, indicator_rng
from .params import DEPTH, WHOLE, Param
from .registry import AgentError, settle


@dataclass(frozen=True)
class Choice:
    """An Indicator's reply: the pattern, how many answers it keeps, and the (pattern, answers kept) it rejected."""

    pattern: int
    kept: int
    rejected: tuple[tuple[int, int], ...] = ()


class Indicator:
    """An Indicator bound to one game: `reply(state, rng)` answers the pending guess with a Choice."""

    #: Registry name, set by `make_indicator`.
    name: str = ""
    #: Whether its replies depend on nothing but the state (one game per Guesser and mode suffices).
    deterministic = True

    def __init__(self, game: Wordle):
        self.game = game
        self.params: dict[str, Any] = {}

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
        """The reply to the pending guess of `state`."""
        raise NotImplementedError

    def pattern(self, state: State, rng: np.random.Generator) -> int:
        """The reply's pattern alone (what a search that models this Indicator asks at every node)."""
        return self.reply(state, rng).pattern

    def buckets(self, state: State) -> tuple[np.ndarray, np.ndarray]:
        """The replies possible to the pending guess (pattern ascending) and how many answers each keeps."""
        counts = np.bincount(self.game.matrix[state.pending, state.candidates], minlength=PATTERN_COUNT)
        patterns = np.flatnonzero(counts)
        return patterns, counts[patterns]

    def choice(self, state: State, pattern: int) -> Choice:
        """`pattern` as a Choice: the answers it keeps and the other replies, largest first (then Absurdle's order)."""
        patterns, counts = self.buckets(state)
        others = sorted(((int(p), int(c)) for p, c in zip(patterns, counts) if p != pattern),
                        key=lambda pair: (-pair[1], TIE_RANK[pair[0]]))
        return Choice(pattern=int(pattern), kept=int(counts[patterns == pattern][0]), rejected=tuple(others))

    def problem(self, state: State, pattern: int, rng: np.random.Generator) -> str | None:
        """Why `pattern` is not this Indicator's reply to `state` (None: it is); the default checks consistency.

        `rng` is the generator the game's replies were drawn from, at this reply (used by drawing Indicators).
        """
        if not np.any(self.game.matrix[state.pending, state.candidates] == pattern):
            return f"no possible answer gives {format_pattern(pattern)}"
        return None


def _tie_rank() -> np.ndarray:
    """Absurdle's order among equal buckets: fewer greens first, then fewer yellows, then colours left to right."""
    keys = [(sum(c == GREEN for c in decode_colours(code)), sum(c == YELLOW for c in decode_colours(code)),
             decode_colours(code)) for code in range(PATTERN_COUNT)]
    rank = np.empty(PATTERN_COUNT, dtype=np.int64)
    rank[sorted(range(PATTERN_COUNT), key=keys.__getitem__)] = np.arange(PATTERN_COUNT)
    return rank


#: Each pattern's place in Absurdle's tie-break (lower wins).
TIE_RANK = _tie_rank()


def largest_bucket(patterns: np.ndarray, counts: np.ndarray) -> int:
    """Absurdle's reply among `patterns` keeping `counts` answers: the largest bucket, ties by `TIE_RANK`."""
    tied = patterns[counts == counts.max()]
    return int(tied[np.argmin(TIE_RANK[tied])])


class Honest(Indicator):
    """Today's game: holds one answer from the start and answers truthfully."""

    def __init__(self, game: Wordle, answer: int):
        super().__init__(game)
        if not 0 <= answer < len(game.words.answers):
            raise AgentError(f"honest: answer index {answer} is out of range")
        self.answer = answer

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
        """The pattern the pending guess gets from the held answer."""
        return self.choice(state, self.game.reply(state.pending, self.answer))

    def problem(self, state: State, pattern: int, rng: np.random.Generator) -> str | None:
        """Whether `pattern` is the truthful reply for the held answer."""
        expected = self.game.reply(state.pending, self.answer)
        return None if pattern == expected else f"{format_pattern(pattern)} is not the truthful reply {format_pattern(expected)}"


class Absurdle(Indicator):
    """qntm's Absurdle: holds no answer; each reply keeps the largest bucket of answers still consistent.

    Ties between equal buckets go to the reply with the fewest greens, then the fewest yellows,
    then the lowest colours read left to right (grey < yellow < green). Source: Absurdle by qntm
    (https://qntm.org/absurdle, game at https://qntm.org/files/absurdle/absurdle.html); the rule as
    written here follows the reimplementation of its tie-break in L0C4RD/Pyrdle, pyrdle_core.py
    (`find_adversarial_match` with `calculate_result_score`: 10^7 per green, 10^6 per yellow,
    then the colours as digits, lowest score wins). Checked against that description only, not
    against qntm's own source.
    """

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
        """The largest bucket, by Absurdle's tie-break."""
        return self.choice(state, self.pattern(state, rng))

    def pattern(self, state: State, rng: np.random.Generator | None = None) -> int:
        """The pattern of the largest bucket, by Absurdle's tie-break."""
        return largest_bucket(*self.buckets(state))

    def problem(self, state: State, pattern: int, rng: np.random.Generator) -> str | None:
        """Whether `pattern` is Absurdle's reply."""
        expected = self.pattern(state)
        return None if pattern == expected else f"{format_pattern(pattern)} is not the largest bucket's {format_pattern(expected)}"


class RandomIndicator(Indicator):
    """Draws each reply from the buckets with probability proportional to their size: honest with an unseen answer."""

    deterministic = False

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
        """A bucket drawn by size."""
        patterns, counts = self.buckets(state)
        return self.choice(state, int(rng.choice(patterns, p=counts / counts.sum())))

    def problem(self, state: State, pattern: int, rng: np.random.Generator) -> str | None:
        """Whether `pattern` is the bucket `rng` draws (the game's generator, drawn again reply by reply)."""
        expected = self.reply(state, rng).pattern
        return None if pattern == expected else f"{format_pattern(pattern)} is not the reply drawn, {format_pattern(expected)}"


class Adversary(Indicator):
    """Searches: the reply after which the Guesser's best value, by depth-limited minimax, is lowest.

    Each reply's state is valued by the minimax value (evaluation, policies, limit) the minimax
    Guesser searches, `depth` Guesser moves deep; a reply that ends the game is valued by its
    utility. Ties go to the larger bucket, then Absurdle's order. The value is found by the
    alphabeta Guesser's search, which gives minimax's root value with fewer nodes (measured: one
    hard-mode game of entropy against it, depth 2, took 9.0 s instead of 16.1 s with every one of
    its 131 values equal); `tests/test_indicators.py` checks it against minimax. Its depth is set like the
    Guessers', by `--depth`; left unset it is 1, so that a person playing it waits seconds, not minutes.
    """

    def __init__(self, game: Wordle, depth: int = 1):
        super().__init__(game)
        from .registry import make_agent  # the Guessers' registry, filled by the package's import
        self.guesser = make_agent("alphabeta", game, depth=depth)
        self.values: dict[tuple, float] = {}

    def value(self, state: State, rng: np.random.Generator) -> float:
        """The Guesser's value of a Guesser-to-move state: its utility when over, else minimax's value."""
        if self.game.is_terminal(state):
            return self.game.utility(state)
        key = self.game.state_key(state)
        if key not in self.values:
            self.values[key] = float(self.guesser.search(state, rng).value)
        return self.values[key]

    def ranked(self, state: State, rng: np.random.Generator) -> list[tuple[float, int, int, int]]:
        """(Guesser's value, -answers kept, tie rank, pattern) of every reply, the adversary's pick first."""
        patterns, counts = self.buckets(state)
        rows = [(self.value(self.game.result(state, int(p)), rng), -int(c), int(TIE_RANK[p]), int(p))
                for p, c in zip(patterns, counts)]
        return sorted(rows)

    def reply(self, state: State, rng: np.random.Generator) -> Choice:
        """The reply worst for the Guesser."""
        return self.choice(state, self.ranked(state, rng)[0][3])

    def problem(self, state: State, pattern: int, rng: np.random.Generator) -> str | None:
        """Whether `pattern` is the adversary's reply (searched again, or read from its cache of values)."""
        expected = self.ranked(state, rng)[0][3]
        return None if pattern == expected else f"{format_pattern(pattern)} is not the adversary's reply {format_pattern(expected)}"


@dataclass(frozen=True)
class IndicatorSpec:
    """A registered Indicator: name, summary, factory and parameters (as the Guessers declare theirs)."""

    name: str
    summary: str
    factory: Callable[..., Indicator]
    params: tuple[Param, ...] = ()


ANSWER = Param("answer", WHOLE, 0, "the answer index the honest Indicator holds", least=0, most=10**6)
INDICATORS: dict[str, IndicatorSpec] = {spec.name: spec for spec in (
    IndicatorSpec("honest", "holds one answer from the start and answers truthfully (today's game)", Honest,
                  (ANSWER,)),
    IndicatorSpec("absurdle", "qntm's Absurdle: keeps the largest bucket of answers (no answer held)", Absurdle),
    IndicatorSpec("random", "draws each reply from the buckets by their size", RandomIndicator),
    IndicatorSpec("adversary", "the reply minimising the Guesser's minimax value, searched like the Guessers",
                  Adversary, (DEPTH.with_default(1),)),
)}


def indicator_names() -> list[str]:
    """Registered Indicator names, in registration order."""
    return list(INDICATORS)


def make_indicator(name: str, game: Wordle, **given: Any) -> Indicator:
    """Build Indicator `name` with the given parameters (None: the default); AgentError on bad input."""
    if name not in INDICATORS:
        raise AgentError(f"unknown indicator '{name}'; choose one of: {', '.join(INDICATORS)}")
    spec = INDICATORS[name]
    settings = settle(f"indicator '{name}'", name, spec.params, given)
    indicator = spec.factory(game, **settings)
    indicator.name, indicator.params = name, settings
    return indicator


def against_rngs(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """The Guesser's and the Indicator's generators for a game against an Indicator holding no answer, under `seed`.

    Two streams, so the Indicator's draws do not depend on how many numbers the Guesser drew;
    `play --seed S` and the matrix's game with seed S are the same game.
    """
    return game_rng(seed, 0), indicator_rng(seed)


def play_with(game: Wordle, choose: Callable[[State], int], indicator: Indicator, rng: np.random.Generator,
              hard: bool = False, max_guesses: int = 6,
              seen: Callable[[State, Choice], None] | None = None) -> Playthrough:
    """One game of `choose` against `indicator`; `seen(state, choice)` hears each reply (the state with the guess pending)."""

    def indicate(state: State) -> int:
        choice = indicator.reply(state, rng)
        if seen is not None:
            seen(state, choice)
        return choice.pattern

    answer = indicator.answer if isinstance(indicator, Honest) else None
    return game.play_against(choose, indicate, hard=hard, max_guesses=max_guesses, answer=answer)


def reply_problems(game: Wordle, indicator: Indicator, history: tuple[tuple[int, int], ...], hard: bool,
                   max_guesses: int, rng: np.random.Generator | None = None) -> list[str]:
    """Each reply of a played `history` that breaks `indicator`'s rule, as 'guess N: why'.

    `rng`: a generator in the state the game's Indicator got its own in (`indicator_rng(seed)`), needed
    to check a drawing Indicator's replies; None: a fresh one, enough for the others.
    """
    rng = np.random.default_rng(0) if rng is None else rng
    state = game.initial_state(hard=hard, max_guesses=max_guesses)
    problems = []
    for number, (guess, pattern) in enumerate(history, start=1):
        asked = game.result(state, guess)
        if (why := indicator.problem(asked, pattern, rng)) is not None:
            problems.append(f"guess {number}: {why}")
            break
        state = game.result(asked, pattern)
    return problems


__all__ = ["Choice", "INDICATORS", "Indicator", "against_rngs", "indicator_names", "largest_bucket", "make_indicator",
           "play_with", "reply_problems"]
