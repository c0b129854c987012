"""Two-step lookahead: openers judged with their best second guesses, then played on greedily.

Values are from the Guesser's point of view: higher is better. For each of the top-N
openers by entropy, the best second guess for every reply is the greedy entropy choice
among the guesses legal after that reply (ties: can be the answer, then index). An opener
is then judged two ways:

- two-step information: the expected information of the two guesses together,
  H(opener) + sum over replies p of P(p) * H(second guess of p | answers left after p);
- measured average: the mean number of guesses over every answer, playing the opener,
  its second guess, then greedy entropy (a game not solved within the limit counts as
  limit + 1 and as a failure).

The ranking puts the smallest measured average first (ties: more two-step information,
then the smaller opener index). The `two-step` agent plays the first opener of the
ranking over its top N (default 10), that opener's second guess, then greedy entropy.
Its plan is kept in a checksummed disk cache beside the pattern matrix (one file per word
lists, mode, N and guess limit), keyed by the source of this module and every module it
imports, so a change to the entropy agent retires it; only the first start pays for it.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from wordle import ALL_GREEN, State, Wordle
from wordle.game import DEFAULT_MAX_GUESSES
from plumbing.processes import tie_to_parent, worker_pool
from search.ranking import rounded
from plumbing.storage import WORD_LISTS_KEY, Cache, code_version, json_payload, json_value, read_or_build

from .base import Agent, Decision
from .entropy import EntropyAgent, entropy_ranking
from .params import WHOLE, Param
from .registry import register

DEFAULT_OPENERS = 10


@dataclass(frozen=True)
class OpenerResult:
    """One opener with its second guesses and how it did.

    Attributes:
        opener: the opener's guess index.
        entropy: its own expected information, bits.
        two_step_bits: expected information of the opener and its second guess together, bits.
        seconds: the second guess (index) for each reply pattern the opener can get.
        average: mean guesses over every answer (unsolved games count max_guesses + 1).
        worst: most guesses any game took, an unsolved one counting max_guesses + 1 (shown as X,
            as the tournament shows it).
        failures: answers not solved within the guess limit.
        total: guesses over every answer, the same counting as `average`.
    """

    opener: int
    entropy: float
    two_step_bits: float
    seconds: dict[int, int]
    average: float
    worst: int
    failures: int
    total: int


OPENERS = Param("openers", WHOLE, DEFAULT_OPENERS, "how many top-entropy openers to judge", least=1, most=200)


def top_openers(game: Wordle, count: int) -> np.ndarray:
    """The `count` best first guesses by entropy (ties: can be the answer, then index)."""
    ranking = entropy_ranking(game, game.all_answers, game.all_guesses)
    return ranking.guesses[ranking.order()[:count]]


def second_guesses(game: Wordle, opener: int, hard: bool,
                   max_guesses: int = DEFAULT_MAX_GUESSES) -> tuple[dict[int, int], float]:
    """The greedy entropy second guess after each reply to `opener`, and the two-step information.

    Args:
        game: the game.
        opener: the first guess.
        hard: whether second guesses must obey hard mode.
        max_guesses: the guess limit of the games.

    Returns:
        ({pattern: second guess}, two-step information in bits).
    """
    start = game.initial_state(hard=hard, max_guesses=max_guesses)
    total = len(start.candidates)
    seconds: dict[int, int] = {}
    bits = 0.0
    follow = EntropyAgent(game)
    for pattern, group in game.partition(start.candidates, opener):
        share = len(group) / total
        bits -= share * np.log2(share)
        if pattern == ALL_GREEN:
            continue
        decision = follow.choose(game.step(start, opener, pattern))
        seconds[pattern] = decision.guess
        bits += share * float(decision.value or 0.0)
    return seconds, bits


def play_two_step(game: Wordle, opener: int, seconds: dict[int, int], answer: int, follow: Agent, hard: bool,
                  max_guesses: int = DEFAULT_MAX_GUESSES) -> int:
    """Guesses used on `answer`: opener, its second guess, then `follow`; max_guesses + 1 if unsolved."""
    rng = np.random.default_rng(0)  # greedy followers draw nothing; the interface asks for a generator

    def choose(state: State) -> int:
        if state.guesses_used == 0:
            return opener
        if state.guesses_used == 1:
            return seconds[state.history[0][1]]
        return follow.decide(state, rng).guess

    playthrough = game.play(choose, answer, hard=hard, max_guesses=max_guesses)
    return len(playthrough.turns) if playthrough.solved else max_guesses + 1


def evaluate_opener(game: Wordle, opener: int, hard: bool, follow: Agent | None = None,
                    max_guesses: int = DEFAULT_MAX_GUESSES) -> OpenerResult:
    """One opener's second guesses, two-step information and measured result over every answer."""
    follow = follow if follow is not None else EntropyAgent(game)
    seconds, bits = second_guesses(game, opener, hard, max_guesses)
    counts = np.array([play_two_step(game, opener, seconds, int(answer), follow, hard, max_guesses)
                       for answer in game.all_answers])
    solved = counts <= max_guesses
    return OpenerResult(
        opener=int(opener),
        entropy=float(entropy_ranking(game, game.all_answers, np.array([opener])).value[0]),
        two_step_bits=float(bits),
        seconds=seconds,
        average=float(counts.mean()),
        worst=int(counts.max()),
        failures=int((~solved).sum()),
        total=int(counts.sum()),
    )


def sort_results(results: list[OpenerResult]) -> list[OpenerResult]:
    """Smallest measured average first; ties: more two-step information, then the smaller index."""
    return sorted(results, key=lambda r: (r.total, -rounded(r.two_step_bits), r.opener))


# Worker processes inherit the game by fork; each keeps its own follower cache.
_WORKER: dict[str, object] = {}


def _evaluate_in_worker(opener: int) -> OpenerResult:
    """evaluate_opener inside a worker process, with the forked game and a per-process follower."""
    game = _WORKER["game"]
    if "follow" not in _WORKER:
        _WORKER["follow"] = EntropyAgent(game)
    return evaluate_opener(game, opener, bool(_WORKER["hard"]), _WORKER["follow"], int(_WORKER["max_guesses"]))


def rank_openers(game: Wordle, count: int, hard: bool, jobs: int = 1,
                 on_result: Callable[[OpenerResult], None] | None = None,
                 max_guesses: int = DEFAULT_MAX_GUESSES) -> list[OpenerResult]:
    """The top-`count` entropy openers, each evaluated, in ranking order.

    Args:
        game: the game.
        count: how many openers (the top by one-step entropy).
        hard: hard mode for the second and later guesses.
        jobs: worker processes (1: in this process).
        on_result: called as each opener finishes (for a progress bar).
        max_guesses: the guess limit.

    Returns:
        OpenerResults, best first (see `sort_results`).
    """
    openers = [int(opener) for opener in top_openers(game, count)]
    results: list[OpenerResult] = []
    if jobs > 1 and len(openers) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _WORKER.clear()
        _WORKER.update(game=game, hard=hard, max_guesses=max_guesses)
        with worker_pool(min(jobs, len(openers)), initializer=tie_to_parent, initargs=(os.getpid(),)) as pool:
            for result in pool.map(_evaluate_in_worker, openers):
                results.append(result)
                if on_result is not None:
                    on_result(result)
        _WORKER.clear()
    else:
        follow = EntropyAgent(game)
        for opener in openers:
            results.append(evaluate_opener(game, opener, hard, follow, max_guesses))
            if on_result is not None:
                on_result(results[-1])
    return sort_results(results)


# -- the plan cache --------------------------------------------------------------------
def plan_cache(game: Wordle, count: int, hard: bool, max_guesses: int) -> Cache:
    """The cache of one two-step plan, tied to the code that computes it (this module and all it imports)."""
    key = {WORD_LISTS_KEY: game.words.checksum, "mode": "hard" if hard else "normal", "openers": count,
           "max_guesses": max_guesses}
    return Cache("two-step", key, code_version(__name__), suffix=".json")


def plan_cache_path(game: Wordle, count: int, hard: bool, max_guesses: int, directory: Path | None = None) -> Path:
    """The cache file of one two-step plan."""
    return plan_cache(game, count, hard, max_guesses).path(directory)


def encode_plan(result: OpenerResult) -> bytes:
    """A plan as the cache stores it."""
    data = asdict(result)
    data["seconds"] = {str(pattern): guess for pattern, guess in result.seconds.items()}
    return json_payload(data)


def decode_plan(payload: bytes, game: Wordle) -> OpenerResult | None:
    """A plan from cache payload bytes if it fits the game (a second guess for every reply), else None."""
    plan = dict(json_value(payload))
    plan["seconds"] = {int(pattern): int(guess) for pattern, guess in plan["seconds"].items()}
    result = OpenerResult(**plan)
    guesses = len(game.words.guesses)
    expected = {pattern for pattern, _ in game.partition(game.all_answers, result.opener)} - {ALL_GREEN} \
        if isinstance(result.opener, int) and 0 <= result.opener < guesses else None
    if expected != set(result.seconds) or not all(0 <= guess < guesses for guess in result.seconds.values()):
        return None
    return result


def best_plan(game: Wordle, count: int, hard: bool, max_guesses: int = DEFAULT_MAX_GUESSES,
              jobs: int = 1, directory: Path | None = None) -> OpenerResult:
    """The best opener of the ranking over the top `count`, from the disk cache or computed and cached."""
    return read_or_build(plan_cache(game, count, hard, max_guesses),
                         lambda: rank_openers(game, count, hard, jobs=jobs, max_guesses=max_guesses)[0],
                         encode_plan, lambda payload: decode_plan(payload, game), directory)


@register("two-step", "the best opener by two-step lookahead, its best second guess, then greedy entropy",
          params=(OPENERS,))
class TwoStepAgent(Agent):
    """Plays a precomputed opener and second guesses, then greedy entropy (cached by state)."""

    def __init__(self, game: Wordle, openers: int = DEFAULT_OPENERS):
        super().__init__(game)
        self.openers = OPENERS.check(openers)
        self.follow = EntropyAgent(game)
        self._plans: dict[tuple[bool, int], OpenerResult] = {}

    def plan(self, hard: bool, max_guesses: int) -> OpenerResult:
        """The plan for a mode and guess limit, read from the cache or computed on first use.

        The computation uses both cores, unless this agent already runs in a worker
        process (a tournament's), whose siblings have the other core.
        """
        key = (hard, max_guesses)
        if key not in self._plans:
            jobs = min(os.cpu_count() or 1, 2) if multiprocessing.parent_process() is None else 1
            self._plans[key] = best_plan(self.game, self.openers, hard, max_guesses, jobs=jobs)
        return self._plans[key]

    def prepare(self, hard: bool, max_guesses: int) -> None:
        """Compute (or read) the plan, which lands in the disk cache for the tournament's workers."""
        self.plan(hard, max_guesses)

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The planned opener, the planned second guess for the reply, then greedy entropy."""
        if state.guesses_used == 0:
            plan = self.plan(state.hard, state.max_guesses)
            return Decision(guess=plan.opener, value=plan.two_step_bits)
        if state.guesses_used == 1:
            plan = self.plan(state.hard, state.max_guesses)
            guess, pattern = state.history[0]
            if guess == plan.opener and pattern in plan.seconds:
                return Decision(guess=plan.seconds[pattern])
        return self.follow.decide(state, rng)
