"""PPO training of the attention actor-critic, with the environment and the update compiled together by JAX.

Values are from the Guesser's point of view: higher is better. One iteration plays a
batch of games to the end (a `lax.scan` over the turns, every game advanced in one
array step), then takes several clipped-objective gradient steps on it.

- Reward of a guess: its expected information over every answer still possible (the
  exact average of log2(n / bin) over the answers, the limit of averaging over several),
  scaled to [0, 1] by log2 of the answer count, plus `solve_bonus` times the chance the
  guess is the answer, minus `guess_cost`. Undiscounted (gamma 1), the information of a
  policy whose games end solved averages to the same total, all of it, so it guides
  learning without changing which policy is best; the guess cost is the aim: fewer guesses.
- Advantages: GAE(gamma, lam), normalised per group, a group being the games' t-th
  moves (every first move shares a state, so first moves are compared with first moves).
- Loss: PPO's clipped surrogate on the masked policy, value_coef x squared value error,
  guide_coef x KL(masked policy || raw policy) so the raw policy learns the inductive
  biases too, minus entropy_coef x the masked policy's entropy.
- Adam's step falls linearly over a training call's budget (minutes or games), from
  learning_rate to lr_floor x learning_rate, so the policy settles instead of wandering.

Needs the `learn` extra (jax, optax): `pip install -e '.[learn]'`.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax

from wordle import Wordle

from ..models import load_model, machine, save_model

from ..training import Progress, Recent, Reporter, TrainingBudget, curve_row
from . import env, net
from .agent import model_settings

LEARNER = "ppo"


@dataclass(frozen=True)
class PPOConfig:
    """The learner's fixed choices; recorded in the model file."""

    hard: bool = False
    max_guesses: int = 6
    games: int = 256
    hidden: int = 128
    embed: int = 32
    temperature: float = 1.0
    learning_rate: float = 1e-3
    #: The learning rate falls linearly over each training call's budget, to this fraction of learning_rate.
    lr_floor: float = 0.1
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    epochs: int = 2
    #: Whether the policy has the answer-bias head (net.py); weights trained before it was added have not.
    answer_bias: bool = True
    #: Whether the state shows how the answers still possible spell (env.features); older weights' does not.
    candidate_view: bool = True
    #: The update keeps at most this many later (not first) moves per game, drawn at random when more are live.
    later_rows: float = 3.0
    value_coef: float = 0.5
    guide_coef: float = 0.1
    entropy_coef: float = 0.01
    solve_bonus: float = 0.1
    #: Subtracted from every guess's reward: the objective itself (fewer guesses), beside the information shaping.
    guess_cost: float = 0.1
    eval_every: int = 40
    init: str = "scratch"
    imitation_epochs: int = 400


def reward(tables: env.Tables, state: dict, guess) -> jnp.ndarray:
    """Expected information of `guess` over the answers still possible / log2(answers), plus the solve bonus share."""
    games, answers = state["cand"].shape
    patterns = tables.matrix[guess].astype(jnp.int32)
    weight = state["cand"].astype(jnp.float32)
    bins = jnp.zeros((games, 243), jnp.float32).at[jnp.arange(games)[:, None], patterns].add(weight)
    size = jnp.maximum(weight.sum(axis=1), 1.0)
    information = jnp.log2(size) - (bins * jnp.log2(jnp.maximum(bins, 1.0))).sum(axis=1) / size
    hit = env.candidate_rows(tables, state, jnp)[jnp.arange(games), guess].astype(jnp.float32) / size
    return information / math.log2(answers), hit


def sample(key: jnp.ndarray, log_policy: jnp.ndarray) -> jnp.ndarray:
    """One guess per row drawn from exp(log_policy) by inverting its running sum (far cheaper on a CPU than
    Gumbel noise over every guess); a guess of probability 0 is never drawn."""
    total = jnp.cumsum(jnp.exp(log_policy), axis=1)
    point = jax.random.uniform(key, (log_policy.shape[0], 1)) * total[:, -1:]
    return jnp.argmax(total > point, axis=1)


def rollout(params: dict, tables: env.Tables, answer: jnp.ndarray, key: jnp.ndarray, greedy: bool,
            solve_bonus: float, temperature: float, candidate_view: bool, guess_cost: float) -> tuple[dict, dict]:
    """Play one game per answer to the end: the per-turn arrays (turns x games) and the final state."""
    actions = net.embed_actions(params, tables.spelled, jnp)

    def turn(state, key):
        feats, possible = env.features(tables, state, jnp, candidate_view), env.candidate_rows(tables, state, jnp)
        mask, rule = env.allowed(tables, state, jnp), env.legal(tables, state, jnp)
        logits, value = net.forward(params, actions, feats, possible, temperature, jnp)
        chosen = net.masked(logits, mask, jnp)
        policy = jax.nn.log_softmax(chosen, axis=1)
        guess = jnp.argmax(chosen, axis=1) if greedy else sample(key, policy)
        logp = policy[jnp.arange(guess.shape[0]), guess]
        live = (~state["done"]).astype(jnp.float32)
        information, hit = reward(tables, state, guess)
        step = {"feats": feats, "possible": possible, "mask": mask, "rule": rule, "guess": guess, "logp": logp,
                "value": value, "reward": live * (information + solve_bonus * hit - guess_cost), "live": live}
        pattern = tables.matrix[guess, answer].astype(jnp.int32)
        return env.advance(tables, state, guess, pattern, jnp), step

    start = env.reset(tables, answer.shape[0], jnp)
    final, steps = jax.lax.scan(turn, start, jax.random.split(key, tables.max_guesses))
    return steps, final


def advantages(steps: dict, gamma: float, lam: float) -> tuple[jnp.ndarray, jnp.ndarray]:
    """GAE advantages normalised per turn (over the games still playing) and the value targets; turns x games."""
    value, rewards, live = steps["value"], steps["reward"], steps["live"]
    following = jnp.concatenate([value[1:] * live[1:], jnp.zeros_like(value[:1])])
    going_on = jnp.concatenate([live[1:], jnp.zeros_like(live[:1])])
    delta = rewards + gamma * following - value

    def back(carry, inputs):
        d, g = inputs
        carry = d + gamma * lam * g * carry
        return carry, carry

    _, gae = jax.lax.scan(back, jnp.zeros_like(value[0]), (delta, going_on), reverse=True)
    gae = gae * live
    targets = gae + value
    count = jnp.maximum(live.sum(axis=1, keepdims=True), 1.0)
    mean = gae.sum(axis=1, keepdims=True) / count
    spread = jnp.sqrt(((gae - mean) ** 2 * live).sum(axis=1, keepdims=True) / count)
    return (gae - mean) / (spread + 1e-8) * live, targets


def update_rows(steps: dict, advantage, target, key, later_rows: int) -> tuple[tuple, tuple]:
    """The states the update evaluates and the samples played from them (turns x games flattened).

    Every first move is played from the same state (a fresh game), so that state is one row for all the
    games' first moves. Of the later moves, the live ones are kept, `later_rows` at most, drawn at random
    when there are more; finished games' padding steps are dropped. Returns (feats, possible, mask, rule)
    of the states and (row_of, guess, old_logp, advantage, target, live) of the samples, row_of naming
    each sample's state row.
    """
    turns, games = steps["live"].shape
    later_rows = min(later_rows, (turns - 1) * games)
    played = {**steps, "advantage": advantage, "target": target}
    later = {name: value[1:].reshape((-1,) + value.shape[2:]) for name, value in played.items()}
    shuffle = jax.random.uniform(key, later["live"].shape, maxval=0.5)
    kept = jnp.argsort((1.0 - later["live"]) + shuffle)[:later_rows]  # live steps first, in random order
    states = tuple(jnp.concatenate([played[name][0, :1], later[name][kept]])
                   for name in ("feats", "possible", "mask", "rule"))
    row_of = jnp.concatenate([jnp.zeros(games, jnp.int32), 1 + jnp.arange(later_rows, dtype=jnp.int32)])
    samples = (row_of,) + tuple(jnp.concatenate([played[name][0], later[name][kept]])
                                for name in ("guess", "logp", "advantage", "target", "live"))
    return states, samples


def loss_parts(params: dict, spelled, feats, possible, mask, rule, row_of, guess, old_logp, advantage, target,
               live, config: PPOConfig) -> dict:
    """The loss pieces, each a weighted mean over the live samples.

    feats, possible, mask and rule are states (rows); sample i was played from state row_of[i]. Samples
    sharing a state share its policy, computed once.
    """
    actions = net.embed_actions(params, spelled, jnp)
    logits, value = net.forward(params, actions, feats, possible, config.temperature, jnp)
    policy = jax.nn.log_softmax(net.masked(logits, mask, jnp), axis=1)
    raw = jax.nn.log_softmax(net.masked(logits, rule, jnp), axis=1)
    ratio = jnp.exp(policy[row_of, guess] - old_logp)
    surrogate = jnp.minimum(ratio * advantage, jnp.clip(ratio, 1 - config.clip, 1 + config.clip) * advantage)
    probability = jnp.exp(policy)
    guide = jnp.where(mask, probability * (policy - raw), 0.0).sum(axis=1)
    entropy = -jnp.where(mask, probability * policy, 0.0).sum(axis=1)
    weight = live / jnp.maximum(live.sum(), 1.0)
    row_weight = jnp.zeros(feats.shape[0], weight.dtype).at[row_of].add(weight)
    parts = {"policy": -(surrogate * weight).sum(), "value": (((value[row_of] - target) ** 2) * weight).sum(),
             "guide": (guide * row_weight).sum(), "entropy": (entropy * row_weight).sum()}
    parts["total"] = (parts["policy"] + config.value_coef * parts["value"] + config.guide_coef * parts["guide"]
                      - config.entropy_coef * parts["entropy"])
    return parts


class Learner:
    """One PPO run: weights, optimiser, random key, episodes so far and the learning curve; resumable."""

    def __init__(self, game: Wordle, config: PPOConfig, seed: int):
        self.game, self.config, self.seed = game, config, seed
        self.tables = env.Tables.build(game, config.hard, config.max_guesses).on(jnp)
        features = env.feature_size(config.max_guesses, config.candidate_view)
        weights = net.init_params(features, config.hidden, config.embed, np.random.default_rng(seed),
                                  config.answer_bias)
        self.params = {k: jnp.asarray(v) for k, v in weights.items()}
        self.optimiser = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(config.learning_rate))
        self.opt_state = self.optimiser.init(self.params)
        self.key = jax.random.PRNGKey(seed)
        self.episodes, self.iterations, self.seconds = 0, 0, 0.0
        self.curve: list[dict] = []
        self.name = LEARNER if config.init == "scratch" else f"{LEARNER}-{config.init}"
        #: What imitation pre-training did (teacher, examples, epochs, seconds), once done.
        self.imitation: dict | None = None
        #: The weights whose greedy play on every answer was best so far, and that evaluation's curve row.
        self.best: tuple[dict, dict] | None = None
        self._iterate = jax.jit(self._iteration)
        self._greedy = jax.jit(partial(self._play, greedy=True))

    def _play(self, params, answer, key, greedy):
        """Roll out games for the answers (jit-compiled)."""
        return rollout(params, self.tables, answer, key, greedy, self.config.solve_bonus, self.config.temperature,
                       self.config.candidate_view, self.config.guess_cost)

    def _iteration(self, params, opt_state, key, rate):
        """One batch of games and the PPO epochs on it, Adam's steps scaled by `rate` (jit-compiled): new params,
        optimiser state, statistics."""
        config = self.config
        answer_key, play_key, row_key = jax.random.split(key, 3)
        answer = jax.random.randint(answer_key, (config.games,), 0, self.tables.matrix.shape[1])
        steps, final = rollout(params, self.tables, answer, play_key, False, config.solve_bonus, config.temperature,
                               config.candidate_view, config.guess_cost)
        advantage, target = advantages(steps, config.gamma, config.lam)
        states, samples = update_rows(steps, advantage, target, row_key, round(config.later_rows * config.games))
        rows = states + samples

        def epoch(carry, _):
            params, opt_state = carry
            grads, parts = jax.grad(lambda p: (lambda d: (d["total"], d))(
                loss_parts(p, self.tables.spelled, *rows, config)), has_aux=True)(params)
            updates, opt_state = self.optimiser.update(grads, opt_state, params)
            updates = jax.tree_util.tree_map(lambda u: u * rate, updates)
            return (optax.apply_updates(params, updates), opt_state), parts

        (params, opt_state), parts = jax.lax.scan(epoch, (params, opt_state), None, length=config.epochs)
        used = jnp.where(final["solved"], final["turn"], config.max_guesses + 1)
        return params, opt_state, {"guesses": used, "solved": final["solved"],
                                   "parts": jax.tree_util.tree_map(lambda x: x[-1], parts)}

    def evaluate(self) -> dict:
        """Greedy play on every answer; adds and returns a learning-curve row."""
        answers = jnp.arange(self.tables.matrix.shape[1])
        _, final = self._greedy(self.params, answers, jax.random.PRNGKey(0))
        solved = np.asarray(final["solved"])
        guesses = np.where(solved, np.asarray(final["turn"]), self.config.max_guesses + 1)
        row = curve_row(self.episodes, self.seconds, guesses, solved)
        self.curve.append(row)
        if self.best is None or (row["average"], -row["solved"]) < (self.best[1]["average"], -self.best[1]["solved"]):
            self.best = ({name: np.asarray(value) for name, value in self.params.items()}, row)
        return row

    def train(self, budget: TrainingBudget, report: Reporter | None = None, checkpoint=None, every_s: float = 60.0) -> None:
        """Train until the budget is spent; Ctrl-C keeps the finished iterations (the caller saves them).

        The imitation variant first fits the teacher's choices (once, before the budget's clock starts).
        """
        if self.config.init == "imitation" and self.imitation is None:
            from .imitate import pretrain
            self.imitation = pretrain(self, self.config.imitation_epochs)
            self.curve = []
        if not self.curve:
            self.evaluate()
        recent = Recent()
        started = time.monotonic()
        first, last_save, seconds0 = self.episodes, started, self.seconds
        while not budget.done(self.episodes, started):
            self.key, key = jax.random.split(self.key)
            rate = 1.0 - (1.0 - self.config.lr_floor) * budget.fraction(self.episodes, started, first)
            params, opt_state, stats = self._iterate(self.params, self.opt_state, key, jnp.float32(rate))
            for used, won in zip(np.asarray(stats["guesses"]), np.asarray(stats["solved"])):
                recent.add(float(used), bool(won))
            self.params, self.opt_state = params, opt_state
            self.episodes += self.config.games
            self.iterations += 1
            self.seconds = seconds0 + time.monotonic() - started
            if self.iterations % self.config.eval_every == 0:
                self.evaluate()
            if report is not None:
                average, solved = recent.summary()
                report(Progress(self.episodes, budget.fraction(self.episodes, started, first),
                                (self.episodes - first) / max(1e-9, time.monotonic() - started), average, solved,
                                self.curve[-1]))
            if checkpoint is not None and time.monotonic() - last_save >= every_s:
                checkpoint()
                last_save = time.monotonic()
        if self.curve[-1]["episodes"] != self.episodes:
            self.evaluate()

    # -- files -----------------------------------------------------------------------
    def arrays(self, best: bool = False) -> dict[str, np.ndarray]:
        """Weights (the current ones, or the best evaluated), optimiser state and key as numpy arrays."""
        params = self.best[0] if best and self.best is not None else self.params
        arrays = {f"param_{name}": np.asarray(value) for name, value in params.items()}
        if self.best is not None and not best:  # a checkpoint keeps the best weights too, for the next run
            arrays.update({f"best_{name}": value for name, value in self.best[0].items()})
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        arrays.update({f"opt_{i:03d}": np.asarray(leaf) for i, leaf in enumerate(leaves)})
        arrays["key"] = np.asarray(self.key)
        return arrays

    def header(self, command: str, best: bool = False) -> dict:
        """How, from what and for what the weights were made (and, for the best weights, which evaluation chose them)."""
        selected = self.best[1] if self.best is not None else None
        return {"learner": self.name, "imitation": self.imitation, "selected": selected, "hard": self.config.hard, "max_guesses": self.config.max_guesses,
                "words_checksum": self.game.words.checksum, "config": asdict(self.config), "seed": self.seed,
                "episodes": self.episodes, "iterations": self.iterations, "seconds": round(self.seconds, 1),
                "command": command, "machine": machine(), "curve": self.curve,
                "framework": f"jax {jax.__version__}"}

    def save(self, path, command: str, best: bool = False) -> None:
        """Write the run atomically; with `best`, the weights of the best greedy evaluation instead of the latest."""
        save_model(path, self.arrays(best), self.header(command, best))

    @classmethod
    def load(cls, game: Wordle, path, hard: bool, name: str = LEARNER) -> Learner:
        """A run of learner `name` (ppo, ppo-imitation) resumed from its file (ModelError when unusable)."""
        arrays, header = load_model(path, name, hard, game.words.checksum)
        learner = cls(game, PPOConfig(**model_settings(path, name, hard, arrays, header)), header["seed"])
        learner.params = {name: jnp.asarray(arrays[f"param_{name}"]) for name in learner.params}
        treedef = jax.tree_util.tree_structure(learner.opt_state)
        leaves = [jnp.asarray(arrays[f"opt_{i:03d}"]) for i in range(treedef.num_leaves)]
        learner.opt_state = jax.tree_util.tree_unflatten(treedef, leaves)
        learner.key = jnp.asarray(arrays["key"])
        learner.episodes, learner.iterations = header["episodes"], header["iterations"]
        learner.seconds, learner.curve = header["seconds"], header["curve"]
        learner.imitation = header.get("imitation")
        if header.get("selected") is not None:
            best = {name: arrays.get(f"best_{name}", arrays[f"param_{name}"]) for name in learner.params}
            learner.best = (best, header["selected"])
        return learner


__all__ = ["LEARNER", "Learner", "PPOConfig", "advantages", "loss_parts", "update_rows", "reward", "rollout"]
