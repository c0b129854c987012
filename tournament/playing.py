"""One tournament game: an agent plays one answer in one mode, and the game becomes a record.

The tournament's workers and `verify --replay` both play games here, so a replayed game is played
exactly as the run played it.
"""

from __future__ import annotations

import time

from agents import Agent, game_rng
from plumbing.errors import UserError
from wordle import State, Wordle

from .plan import Plan
from .records import SECONDS_DECIMALS, GameRecord, error_text


def play_game(game: Wordle, agent: Agent, plan: Plan, mode: str, answer: int) -> GameRecord:
    """One game of `agent` on `answer`; an exception from the agent becomes the record's error.

    The agent's generator is `game_rng(plan.seed, answer)`, as in `cli.py play`.
    """
    rng = game_rng(plan.seed, answer)
    nodes = 0
    last: list[State] = []

    def choose(state: State) -> int:
        nonlocal nodes
        last[:] = [state]
        decision = agent.decide(state, rng)
        nodes += decision.nodes
        return decision.guess

    start = time.perf_counter()
    error = ""
    try:
        playthrough = game.play(choose, answer, hard=(mode == "hard"), max_guesses=plan.max_guesses)
        history, solved = playthrough.final.history, playthrough.solved
    except UserError:  # bad input or an unusable model (a file removed mid-run): the run's end, not a game
        raise
    except Exception as raised:  # an agent's failure is that game's result, not the tournament's end
        history, solved, error = (last[0].history if last else ()), False, error_text(raised)
    seconds = time.perf_counter() - start
    return GameRecord(
        agent=agent.name, mode=mode, answer=game.words.answers[answer],
        guesses=tuple(game.words.guesses[g] for g, _ in history), patterns=tuple(p for _, p in history),
        solved=solved, nodes=nodes, error=error, seconds=round(seconds, SECONDS_DECIMALS),
    )
