"""Guesser agents: each wires an algorithm to a heuristic and a budget, found by name in the registry.

Importing this package registers every agent.
"""

from .base import Agent, Decision, game_rng
from .registry import AGENTS, OPTIONS, AgentError, Option, add_option, agent_names, make_agent, register, spec
from . import random_guesser  # noqa: F401  (registers "random")
from . import letter_frequency, demarcate, entropy, entropy_prior, two_step  # noqa: F401  (the greedy players)
from . import options, searchers  # noqa: F401  (minimax, alphabeta, expectimax, decision-tree)
from . import optimal  # noqa: F401  (the solved optimal tree)

__all__ = [
    "AGENTS", "OPTIONS", "Agent", "AgentError", "Decision", "game_rng", "Option", "add_option",
    "agent_names", "make_agent", "register", "spec",
]
