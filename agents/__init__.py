"""Guesser agents: each wires an algorithm to a heuristic and a budget, found by name in the registry.

Importing this package registers every agent.
"""

from .base import Agent, Decision, game_rng
from .params import Param
from .registry import AGENTS, AgentError, agent_names, all_params, default_agents, make_agent, register, resolve, spec
from . import random_guesser  # noqa: F401  (registers "random")
from . import letter_frequency, demarcate, entropy, entropy_prior, two_step  # noqa: F401  (the greedy players)
from . import searchers  # noqa: F401  (minimax, alphabeta, expectimax, decision-tree)
from . import optimal  # noqa: F401  (the solved optimal tree)
from . import advisor  # noqa: F401  (plays assist's first suggestion)
from . import qlearning  # noqa: F401  (q-learning, from its shipped table in results/models/)
from .ppo import agent as ppo_agent  # noqa: F401  (ppo, from its shipped weights; playing needs numpy only)

__all__ = [
    "AGENTS", "Agent", "AgentError", "Decision", "Param", "agent_names", "all_params", "game_rng", "make_agent",
    "default_agents", "register", "resolve", "spec",
]
