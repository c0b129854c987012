"""One tournament game: an agent plays one game of the plan in one mode, and the game becomes a record.

The tournament's workers and `verify --replay` both play games here, so a replayed game is played
exactly as the run played it, whatever the game's shape.
"""

from __future__ import annotations

import time

from agents import Agent
from plumbing.errors import UserError
from variants import AnyGame, AnyState, play_out, replies_of

from .plan import Plan
from .records import SECONDS_DECIMALS, GameRecord, error_text


def play_game(game: AnyGame, agent: Agent, plan: Plan, mode: str, number: int) -> GameRecord:
    """Game `number` of the plan played by `agent` in `mode`; an exception from the agent becomes the record's error.

    The agent's generator is `plan.agent_rng(number)` (Wordle's shape: `game_rng(plan.seed, answer)`, as in
    `cli.py play`); a lying Indicator draws from `plan.lies_rng(number)`.
    """
    words = game.words
    answers = plan.answers_of(number, words)
    rng = plan.agent_rng(number)
    nodes = 0
    last: list[AnyState] = []

    def choose(state: AnyState) -> int:
        nonlocal nodes
        last[:] = [state]
        decision = agent.decide(state, rng)
        nodes += decision.nodes
        return decision.guess

    start = time.perf_counter()
    error = ""
    try:
        history, solved = play_out(game, plan.game.with_mode(mode), choose, answers, plan.lies_rng(number))
    except UserError:  # bad input or an unusable model (a file removed mid-run): the run's end, not a game
        raise
    except Exception as raised:  # an agent's failure is that game's result, not the tournament's end
        history, solved, error = (replies_of(last[0]) if last else ()), False, error_text(raised)
    seconds = time.perf_counter() - start
    return GameRecord(
        agent=agent.name, mode=mode, game=plan.label(number, words), answers=tuple(words.answers[a] for a in answers),
        guesses=tuple(words.guesses[g] for g, _ in history), replies=tuple(reply for _, reply in history),
        solved=solved, nodes=nodes, error=error, seconds=round(seconds, SECONDS_DECIMALS),
    )
