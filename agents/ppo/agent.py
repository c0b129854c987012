"""The `ppo` player: the trained actor's most likely allowed guess, computed with numpy alone.

Values are from the Guesser's point of view: higher is better; a decision's value is
the policy's probability of the guess. Playing needs no JAX: the weights are plain
arrays and the network and environment are written over numpy as well.
"""

from __future__ import annotations

import numpy as np

from wordle import State, Wordle

from ..base import Agent, Decision
from ..models import ModelError, load_model, model_path, train_command
from ..params import CHOICE, Param
from ..registry import register
from . import env, net

LEARNER = "ppo"
INIT = Param("init", CHOICE, "scratch", "which trained weights: learned from scratch, or the imitation variant "
             "(pre-trained on expectimax's choices, then PPO)", choices=("scratch", "imitation"))
#: Decisions list this many of the likeliest guesses.
ALTERNATIVES = 10


def model_settings(path, name: str, hard: bool, arrays: dict, header: dict) -> dict:
    """The settings a model file was trained with (those it predates as they were before them); ModelError, one
    line naming `train`, when its weights do not take the features those settings name."""
    settings = {**net.SETTINGS_BEFORE, **header["config"]}
    if arrays["param_s1"].shape[0] != env.feature_size(header["max_guesses"], settings["candidate_view"]):
        raise ModelError(f"{path}: its weights do not fit the features its header names; "
                         f"train one with: {train_command(name, hard)}")
    return settings


class Policy:
    """Trained weights for one mode, with the action embeddings computed once."""

    def __init__(self, game: Wordle, hard: bool, max_guesses: int, init: str = "scratch"):
        name = LEARNER if init == "scratch" else f"{LEARNER}-{init}"
        arrays, header = load_model(model_path(name, hard), name, hard, game.words.checksum, max_guesses)
        self.params = {name.removeprefix("param_"): value for name, value in arrays.items()
                       if name.startswith("param_")}
        settings = model_settings(model_path(name, hard), name, hard, arrays, header)
        self.temperature = float(settings["temperature"])
        self.candidate_view = bool(settings["candidate_view"])
        self.tables = env.Tables.build(game, hard, max_guesses)
        self.actions = net.embed_actions(self.params, self.tables.spelled)

    def probabilities(self, state: State) -> np.ndarray:
        """The masked policy over every guess in this state."""
        batch = env.reset(self.tables, 1)
        for guess, pattern in state.history:
            batch = env.advance(self.tables, batch, np.array([guess]), np.array([pattern]))
        logits, _ = net.forward(self.params, self.actions, env.features(self.tables, batch, np, self.candidate_view),
                                env.candidate_rows(self.tables, batch), self.temperature)
        chosen = net.masked(logits, env.allowed(self.tables, batch))[0]
        weights = np.exp(chosen - chosen.max())
        return weights / weights.sum()


@register(LEARNER, "PPO actor-critic with action-state attention over every guess (trained model in results/models/)",
          params=(INIT,))
class PPOAgent(Agent):
    """Plays the likeliest allowed guess of its trained policy (greedy, so games are reproducible)."""

    def __init__(self, game: Wordle, init: str = "scratch"):
        super().__init__(game)
        self.init = init
        self._policies: dict[tuple[bool, int], Policy] = {}

    def prepare(self, hard: bool, max_guesses: int) -> None:
        """Load the weights for this mode (ModelError, one line naming `train`, when they cannot be used)."""
        self.policy(hard, max_guesses)

    def policy(self, hard: bool, max_guesses: int) -> Policy:
        """The trained policy for a mode, loaded once."""
        if (hard, max_guesses) not in self._policies:
            self._policies[hard, max_guesses] = Policy(self.game, hard, max_guesses, self.init)
        return self._policies[hard, max_guesses]

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The likeliest allowed guess; ties go to the smaller index."""
        probability = self.policy(state.hard, state.max_guesses).probabilities(state)
        order = np.argsort(-probability, kind="stable")[:ALTERNATIVES]
        top = tuple((int(i), float(probability[i])) for i in order)
        return Decision(guess=top[0][0], value=top[0][1], alternatives=top)
