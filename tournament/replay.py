"""Replaying a finished run: the recorded agents, built with the recorded settings, play every game again.

Every agent is deterministic given the run seed (each game's generator comes from the seed and the
game alone, `Plan.agent_rng`), so a replayed game must match the recorded one move for move, with
the same replies, solved flag, node count and error. This checks the play, where `verify` alone
checks the rules.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from agents import Agent, AgentError, make_player
from variants import AnyGame, GameSpec, game_of
from wordle import Words, Wordle, load_matrix

from .plan import plan_from_settings
from .playing import play_game
from .records import GameRecord

#: Second seed word of the replay sample, so it is not a stream the games use.
REPLAY_STREAM = 0x5245504C


def replay_choice(count: int, sample: int | None, seed: int) -> list[int]:
    """Which of `count` recorded games to replay: all, or `sample` drawn from the run seed, in file order.

    >>> replay_choice(4, None, 0), len(replay_choice(100, 5, 0)), replay_choice(3, 10, 0)
    ([0, 1, 2, 3], 5, [0, 1, 2])
    """
    if sample is None or sample >= count:
        return list(range(count))
    rng = np.random.default_rng([seed, REPLAY_STREAM])
    return sorted(int(i) for i in rng.choice(count, size=sample, replace=False))


def rebuild_agent(name: str, game: AnyGame, described: GameSpec, settings: dict[str, Any]) -> Agent:
    """The agent `name` as the run built it: its full recorded settings, else the options the run was given.

    Raises:
        AgentError: the agent is not registered here, does not play the game, or its settings no longer fit it.
    """
    full = settings.get("agent_settings")
    if isinstance(full, dict) and isinstance(full.get(name), dict):
        return make_player(name, game, described, **full[name])
    options = settings.get("options")
    return make_player(name, game, described, strict=False, **(options if isinstance(options, dict) else {}))


def _differences(recorded: GameRecord, replayed: GameRecord) -> list[str]:
    """The fields where a replayed game differs from the recorded one."""
    fields = ("guesses", "replies", "solved", "nodes", "error")
    return [field for field in fields if getattr(recorded, field) != getattr(replayed, field)]


def replay_problems(records: list[GameRecord], settings: dict[str, Any], words: Words, where: str,
                    sample: int | None = None, on_game: Callable[[GameRecord], None] | None = None) -> list[str]:
    """Replay recorded games (all, or a seeded sample) and say where any differs, one line each.

    Args:
        records: the games as recorded, in file order.
        settings: the run's settings metadata (already checked by `check_settings`).
        words: the run's word lists.
        where: the file named in each line.
        sample: replay this many games drawn from the run seed (None: all).
        on_game: called with each replayed game (for a progress bar).

    Returns:
        One line per game that plays differently, or per agent that cannot be rebuilt.
    """
    plan = plan_from_settings(settings, words)
    game = game_of(plan.game, Wordle(words, load_matrix(words)))
    built: dict[str, Agent | str] = {}
    problems: list[str] = []
    for index in replay_choice(len(records), sample, plan.seed):
        recorded = records[index]
        if recorded.agent not in built:
            try:
                built[recorded.agent] = rebuild_agent(recorded.agent, game, plan.game, settings)
            except AgentError as error:
                built[recorded.agent] = str(error)
                problems.append(f"{where}: cannot rebuild {recorded.agent} to replay its games: {error}")
        agent = built[recorded.agent]
        if isinstance(agent, str):
            continue
        replayed = play_game(game, agent, plan, recorded.mode, plan.number_of(recorded.game, words))
        if on_game is not None:
            on_game(replayed)
        if differing := _differences(recorded, replayed):
            shown = " ".join(replayed.guesses) + (f" (error: {replayed.error})" if replayed.error else "")
            problems.append(f"{where}: {' '.join(recorded.key)}: the replay differs in {', '.join(differing)}: "
                            f"recorded {' '.join(recorded.guesses)} ({recorded.nodes} nodes), "
                            f"replayed {shown} ({replayed.nodes} nodes)")
    return problems
