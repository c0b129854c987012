"""Guesser agents: each wires an algorithm to a heuristic and a budget, found by name in the registry.

Importing this package is cheap: the registry imports the agents' modules (each registers its
agents) the first time it is read (`agents.registry.AGENT_MODULES`).
"""

from .base import Agent, Decision, game_rng
from .params import Param
from .registry import (
    AGENTS,
    AgentError,
    agent_names,
    all_params,
    default_agents,
    make_agent,
    make_player,
    player_settings,
    players_of,
    register,
    resolve,
    spec,
)

__all__ = [
    "AGENTS", "Agent", "AgentError", "Decision", "Param", "agent_names", "all_params", "game_rng", "make_agent",
    "default_agents", "make_player", "player_settings", "players_of", "register", "resolve", "spec",
]
