"""Imitation pre-training, the named variant `train ppo --init imitation`: the actor first learns a search agent's choices.

The teacher (expectimax by default) plays every answer; each state its games pass
through, with the guess it chose there, is one example. The actor is trained by
cross-entropy on its masked policy, then PPO goes on from those weights. Only training
consults the teacher: the player decides from its own weights. Results of this variant
are reported apart from the from-scratch ones.
"""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
import numpy as np

from wordle import Wordle

from . import env, net

#: The search agent imitated unless another is named.
TEACHER = "expectimax"


def examples(game: Wordle, hard: bool, max_guesses: int, teacher: str = TEACHER) -> list[tuple[tuple, int]]:
    """(history, teacher's guess) for every distinct state the teacher's games on every answer pass through."""
    from agents import game_rng, make_agent

    agent = make_agent(teacher, game)
    agent.prepare(hard, max_guesses)
    seen: dict[tuple, int] = {}
    for answer in range(len(game.words.answers)):
        rng = game_rng(0, answer)

        def choose(state):
            guess = agent.decide(state, rng).guess
            seen.setdefault(state.history, guess)
            return guess

        game.play(choose, answer, hard=hard, max_guesses=max_guesses)
    return list(seen.items())


def batch_of(tables: env.Tables, histories: list[tuple]) -> dict:
    """The env batch state of each history (numpy), replayed a turn at a time for all histories at once."""
    batch = env.reset(tables, len(histories))
    longest = max(len(history) for history in histories)
    for turn in range(longest):
        playing = np.array([len(history) > turn for history in histories])
        guess = np.array([history[turn][0] if len(history) > turn else 0 for history in histories])
        pattern = np.array([history[turn][1] if len(history) > turn else 0 for history in histories])
        moved = env.advance(tables, batch, guess, pattern)
        batch = {name: np.where(playing.reshape((-1,) + (1,) * (value.ndim - 1)), value, batch[name])
                 for name, value in moved.items()}
    return batch


def pretrain(learner, epochs: int, teacher: str = TEACHER, report=None, rows_per_step: int = 512) -> dict:
    """Fit the learner's actor to the teacher's choices by cross-entropy; returns what was done (for the header)."""
    started = time.monotonic()
    config = learner.config
    pairs = examples(learner.game, config.hard, config.max_guesses, teacher)
    tables = env.Tables.build(learner.game, config.hard, config.max_guesses)
    batch = batch_of(tables, [history for history, _ in pairs])
    feats = jnp.asarray(env.features(tables, batch, np, config.candidate_view))
    mask = jnp.asarray(env.allowed(tables, batch))
    possible = jnp.asarray(env.candidate_rows(tables, batch))
    target = jnp.asarray([guess for _, guess in pairs])

    def loss(params, rows):
        actions = net.embed_actions(params, learner.tables.spelled, jnp)
        logits, _ = net.forward(params, actions, feats[rows], possible[rows], config.temperature, jnp)
        policy = jax.nn.log_softmax(net.masked(logits, mask[rows], jnp), axis=1)
        return -policy[jnp.arange(rows.shape[0]), target[rows]].mean()

    @jax.jit
    def step(params, opt_state, rows):
        value, grads = jax.value_and_grad(loss)(params, rows)
        updates, opt_state = learner.optimiser.update(grads, opt_state, params)
        return jax.tree_util.tree_map(lambda p, u: p + u, params, updates), opt_state, value

    rng = np.random.default_rng(learner.seed)
    count = len(pairs) - len(pairs) % rows_per_step or len(pairs)
    for epoch in range(epochs):
        order = rng.permutation(len(pairs))[:count].reshape(-1, min(rows_per_step, count))
        losses = []
        for rows in order:
            learner.params, learner.opt_state, value = step(learner.params, learner.opt_state, jnp.asarray(rows))
            losses.append(float(value))
        if report is not None:
            report(epoch + 1, epochs, float(np.mean(losses)))
    return {"teacher": teacher, "examples": len(pairs), "epochs": epochs,
            "seconds": round(time.monotonic() - started, 1), "final_loss": float(np.mean(losses))}
