"""The Guesser interface every player implements, and the decision it reports.

Values are from the Guesser's point of view: higher is better.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from wordle import State, Wordle


@dataclass(frozen=True)
class Decision:
    """What an agent chose, and what it saw while choosing.

    Attributes:
        guess: the guess index played.
        value: the agent's value of that guess on its own scale, if it has one.
        alternatives: (guess, value) of the best options considered, best first,
            the chosen guess included; empty for agents that rank nothing.
        nodes: search nodes visited for this decision (0 for agents that do not search).
        depth: depth reached, in Guesser moves (0 for agents that do not search).
        budget_reached: whether the search's node budget ran out before its depth.
        fallback: whether the guess is a shallower search's because the full search needed
            more nodes than its budget allowed (an advisor's bounded decision; see
            agents/searchers.py `SearchAgent.advice_nodes`).
    """

    guess: int
    value: float | None = None
    alternatives: tuple[tuple[int, float], ...] = ()
    nodes: int = 0
    depth: int = 0
    budget_reached: bool = False
    fallback: bool = False


class Agent(ABC):
    """A Guesser bound to one game: `decide(state, rng)` returns its Decision.

    `rng` is the only source of randomness; the caller seeds it per game, so a game's
    moves do not depend on which other games ran before it.
    """

    #: Registry name, set by `register`.
    name: str = ""

    def __init__(self, game: Wordle):
        self.game = game
        #: Every parameter's value, defaults included; `registry.make_agent` fills it in, and an agent
        #: may put here the value it actually uses where the given one stood for a default.
        self.params: dict[str, object] = {}

    @abstractmethod
    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """Choose a legal guess for a Guesser-to-move, non-terminal state."""

    def prepare(self, hard: bool, max_guesses: int) -> None:
        """One-time work for a mode, done before games are shared out (default: none).

        A tournament calls it once in its parent process before forking its workers, so
        work every worker would otherwise repeat (and cache on disk) is done once.
        """

    def settings(self) -> dict[str, object]:
        """Every parameter this agent runs with, defaults included: `make_agent(name, game, **settings)` rebuilds it."""
        return dict(self.params)


# -- seeding: every random choice of a run comes from its seed by one of these ------------
#: Second seed words, so that the streams drawn from one seed never coincide.
ANSWER_STREAM = 0x414E5357
SAMPLE_STREAM = 0x53414D50
INDICATOR_STREAM = 0x494E4443


def game_rng(seed: int, answer: int) -> np.random.Generator:
    """The generator an agent gets for the game whose answer is `answer` under run seed `seed`.

    Seeding per (seed, answer) makes every game reproducible on its own, so `play` and
    the tournament make the same moves for the same answer and seed.
    """
    return np.random.default_rng([seed, answer])


def state_rng(seed: int, state: State) -> np.random.Generator:
    """The generator for a decision that must depend on the state alone (a decision tree's node)."""
    return np.random.default_rng([seed, *(number for pair in state.history for number in pair)])


def draw_answer(seed: int, answer_count: int) -> int:
    """The answer a game with no named answer hides under `seed`."""
    return int(np.random.default_rng([seed, ANSWER_STREAM]).integers(answer_count))


def indicator_rng(seed: int) -> np.random.Generator:
    """The generator an Indicator that draws its replies gets for the game played under `seed`.

    It is a stream of its own, so the replies depend on the seed and the guesses alone,
    and a recorded game's replies can be drawn again from its seed without its Guesser.
    """
    return np.random.default_rng([seed, INDICATOR_STREAM])


def indicator_seeds(seed: int, count: int) -> list[int]:
    """The seeds of `count` games against a drawing Indicator under run seed `seed` (each typeable to `play --seed`).

    Game k's seed depends on (seed, k) alone, so a longer run begins with the games of a shorter one.
    """
    return [int(np.random.SeedSequence([seed, INDICATOR_STREAM, k]).generate_state(1)[0]) for k in range(count)]


#: Second seed words of the streams a dealt game (any shape but Wordle's) draws from: its answers, its Guesser's
#: choices, its Indicator's lies.
DEAL_STREAM, DEALT_AGENT_STREAM, LIE_STREAM = 0x56414E53, 0x5641474E, 0x56414C49
#: Games a run deals per agent and mode when no number is given.
DEFAULT_DEALT_GAMES = 100


def deal_answers(boards: int, answer_count: int, seed: int, number: int) -> tuple[int, ...]:
    """Dealt game `number`'s answers under run seed `seed`: one a board, all different, drawn by their own stream.

    A game of any shape but Wordle's is dealt so, by its number alone: `play --seed S` deals game 0 of seed S.
    """
    rng = np.random.default_rng([seed, DEAL_STREAM, number])
    return tuple(int(a) for a in rng.choice(answer_count, size=boards, replace=False))


def dealt_rng(seed: int, number: int) -> np.random.Generator:
    """The generator the Guesser of dealt game `number` gets under run seed `seed`."""
    return np.random.default_rng([seed, DEALT_AGENT_STREAM, number])


def lie_rng(seed: int, number: int) -> np.random.Generator:
    """The generator a lying Indicator draws dealt game `number`'s lies from under run seed `seed`."""
    return np.random.default_rng([seed, LIE_STREAM, number])


def fresh_seed() -> int:
    """A new seed from the operating system's entropy, small enough to type back."""
    return int(np.random.SeedSequence().entropy % 2**32)
