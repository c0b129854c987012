"""The actor-critic: action-state attention over every allowed guess, and a value head.

Written once over an array module `xp` (numpy to play, jax.numpy to train). Values are
from the Guesser's point of view: higher is better; the value head estimates the
(discounted by gamma, 1 by default) reward still to come.

    action embedding  phi1(a) = W2 relu(W1 a + b1) + b2      (a: the word's 26 x 5 one-hot)
    state embedding   phi2(s) = V2 relu(V1 s + c1) + c2      (s: env.features)
    answer bias       beta(s) = q . relu(V1 s + c1) + q0, added to the logit of every possible answer
    policy            softmax_a( (phi1(a) . phi2(s) / sqrt(d) + beta(s) [a possible]) / temperature )
                      over the allowed guesses
    value             u . relu(V1 s + c1) + u0

The answer bias lets the state say how much it favours guessing a word that may be the
answer, a conjunction of every reply that one dot product cannot spell out. Weights
made before it existed have no q, q0 and play without it.
"""

from __future__ import annotations

import math

import numpy as np

#: The logit given to a guess a mask forbids.
FORBIDDEN = -1e9
#: The settings a model file made before each of them existed was trained with (its header lacks them).
SETTINGS_BEFORE = {"answer_bias": False, "candidate_view": False, "lr_floor": 1.0, "guess_cost": 0.0}


def init_params(features: int, hidden: int, embed: int, rng: np.random.Generator,
                answer_bias: bool = True) -> dict[str, np.ndarray]:
    """Random weights (scaled normal, zero biases), float32; with `answer_bias`, the answer-bias head too."""
    def weight(rows: int, cols: int) -> np.ndarray:
        return (rng.standard_normal((rows, cols)) * math.sqrt(2.0 / rows)).astype(np.float32)
    params = {"a1": weight(130, hidden), "ab1": np.zeros(hidden, np.float32),
              "a2": weight(hidden, embed), "ab2": np.zeros(embed, np.float32),
              "s1": weight(features, hidden), "sb1": np.zeros(hidden, np.float32),
              "s2": weight(hidden, embed), "sb2": np.zeros(embed, np.float32),
              "v": weight(hidden, 1) * 0.1, "vb": np.zeros(1, np.float32)}
    if answer_bias:
        params.update(q=weight(hidden, 1) * 0.1, qb=np.zeros(1, np.float32))
    return params


def embed_actions(params: dict, spelled, xp=np):
    """phi1 of every guess: guesses x embed (depends on the weights only; compute once per update)."""
    hidden = xp.maximum(spelled.reshape(spelled.shape[0], -1) @ params["a1"] + params["ab1"], 0.0)
    return hidden @ params["a2"] + params["ab2"]


def forward(params: dict, actions, feats, possible, temperature: float, xp=np):
    """Raw logits (B x guesses, no mask) and values (B) for states `feats` against action embeddings `actions`;
    `possible` (B x guesses) marks the guesses that may be the answer."""
    hidden = xp.maximum(feats @ params["s1"] + params["sb1"], 0.0)
    state = hidden @ params["s2"] + params["sb2"]
    logits = state @ actions.T / math.sqrt(actions.shape[1])
    if "q" in params:
        logits = logits + ((hidden @ params["q"]) + params["qb"]) * possible
    return logits / temperature, (hidden @ params["v"])[:, 0] + params["vb"][0]


def masked(logits, mask, xp=np):
    """Logits with forbidden guesses pushed to FORBIDDEN."""
    return xp.where(mask, logits, FORBIDDEN)
