"""PPO: the loss pieces on tiny tensors, the reward, sampling, numpy/JAX agreement and the model file.

Skipped without the learn extra (jax, optax): pip install -e '.[learn]'.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("optax")
jnp = jax.numpy

from agents.models import ModelError  # noqa: E402
from agents.ppo import env, net  # noqa: E402
from agents.ppo.agent import PPOAgent  # noqa: E402
from agents.ppo.learn import (Learner, PPOConfig, advantages, loss_parts, reward, rollout, sample,  # noqa: E402
                              update_rows)

from .conftest import small_game  # noqa: E402


def test_advantages_by_hand():
    """Two turns, two games. Game 0: rewards 1, 0.5; values 0.2, 0.3. Game 1 ends after its first turn.

    Game 0: delta1 = 0.5 - 0.3 = 0.2, delta0 = 1 + 0.9 * 0.3 - 0.2 = 1.07, GAE0 = 1.07 + 0.9 * 0.95 * 0.2 = 1.241.
    Game 1: GAE0 = 0.4 - 0.1 = 0.3. Targets are GAE + value; advantages are normalised per turn over live games.
    """
    steps = {"value": jnp.array([[0.2, 0.1], [0.3, 0.0]]), "reward": jnp.array([[1.0, 0.4], [0.5, 0.0]]),
             "live": jnp.array([[1.0, 1.0], [1.0, 0.0]])}
    advantage, target = jax.jit(lambda s: advantages(s, gamma=0.9, lam=0.95))(steps)
    assert np.allclose(target, [[1.441, 0.4], [0.5, 0.0]], atol=1e-6)
    assert np.allclose(advantage[0], [1.0, -1.0], atol=1e-5)  # two live games: +-1 after normalising
    assert np.allclose(advantage[1], [0.0, 0.0], atol=1e-5)  # one live game: its own mean, so 0


def tiny_loss(mask, rule, old_logp=None):
    """The loss on two states over four guesses with equal logits (zero weights)."""
    params = {name: jnp.zeros_like(value) for name, value in
              net.init_params(3, 4, 2, np.random.default_rng(0)).items()}
    spelled = jnp.zeros((4, 26, 5))
    guess = jnp.array([0, 1])
    logp = jnp.log(1.0 / mask.sum(axis=1)) if old_logp is None else old_logp
    parts = jax.jit(lambda *rows: loss_parts(*rows, PPOConfig()))
    return parts(params, spelled, jnp.ones((2, 3)), jnp.ones((2, 4)), mask, rule, jnp.arange(2), guess, logp,
                 jnp.array([1.0, -3.0]), jnp.array([0.5, 0.5]), jnp.array([1.0, 1.0]))


def test_loss_pieces_on_tiny_tensors():
    everything = jnp.ones((2, 4), dtype=bool)
    half = jnp.array([[True, True, False, False], [True, True, True, True]])
    parts = tiny_loss(everything, everything)
    assert float(parts["policy"]) == pytest.approx(-(1.0 - 3.0) / 2)  # ratio 1: minus the mean advantage
    assert float(parts["value"]) == pytest.approx(0.25)  # value 0 against target 0.5
    assert float(parts["guide"]) == pytest.approx(0.0, abs=1e-6)  # masked policy = raw policy
    assert float(parts["entropy"]) == pytest.approx(math.log(4))
    narrowed = tiny_loss(half, everything)
    assert float(narrowed["guide"]) == pytest.approx(math.log(2) / 2)  # KL(uniform on 2 || uniform on 4), one row
    assert float(narrowed["entropy"]) == pytest.approx((math.log(2) + math.log(4)) / 2)


def test_clipping_stops_the_push_past_the_trust_region():
    """Old probability far below the new one: with a positive advantage the surrogate is clipped at 1.2."""
    everything = jnp.ones((2, 4), dtype=bool)
    parts = tiny_loss(everything, everything, old_logp=jnp.log(jnp.array([0.25 / 2, 0.25])))
    assert float(parts["policy"]) == pytest.approx(-(1.2 * 1.0 - 3.0) / 2)


def played_steps(turns: int, games: int, live: np.ndarray, seed: int = 0) -> dict:
    """Random per-turn arrays over 3 features and 5 guesses; every first move is played from one state."""
    rng = np.random.default_rng(seed)
    feats = rng.standard_normal((turns, games, 3)).astype(np.float32)
    mask = rng.random((turns, games, 5)) < 0.7
    mask[..., 0] = True
    rule = mask | (rng.random((turns, games, 5)) < 0.5)
    possible = rng.random((turns, games, 5)) < 0.4
    feats[0], mask[0], rule[0], possible[0] = feats[0, 0], mask[0, 0], rule[0, 0], possible[0, 0]
    return {"feats": jnp.asarray(feats), "possible": jnp.asarray(possible), "mask": jnp.asarray(mask),
            "rule": jnp.asarray(rule),
            "guess": jnp.zeros((turns, games), jnp.int32), "logp": jnp.asarray(rng.normal(-1.5, 0.2, (turns, games))),
            "live": jnp.asarray(live, dtype=jnp.float32)}


def test_the_update_rows_give_the_loss_of_every_step():
    """First moves sharing one state row, and only live later steps: the same loss as every step on its own row."""
    turns, games = 4, 3
    live = np.array([[1, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]])
    steps = played_steps(turns, games, live)
    rng = np.random.default_rng(1)
    advantage = jnp.asarray(rng.standard_normal((turns, games)) * live, dtype=jnp.float32)
    target = jnp.asarray(rng.standard_normal((turns, games)), dtype=jnp.float32)
    params = {name: jnp.asarray(value) for name, value in net.init_params(3, 4, 2, np.random.default_rng(0)).items()}
    spelled = jnp.asarray(np.random.default_rng(2).random((5, 26, 5)), dtype=jnp.float32)
    loss = jax.jit(lambda *rows: loss_parts(params, spelled, *rows, PPOConfig()))
    flat = [steps[name].reshape((turns * games,) + steps[name].shape[2:])
            for name in ("feats", "possible", "mask", "rule")]
    every = loss(*flat, jnp.arange(turns * games), steps["guess"].reshape(-1), steps["logp"].reshape(-1),
                 advantage.reshape(-1), target.reshape(-1), steps["live"].reshape(-1))
    states, samples = update_rows(steps, advantage, target, jax.random.PRNGKey(0), later_rows=4)
    assert all(state.shape[0] == 1 + 4 for state in states)  # one shared first state, room for the 3 live later
    compact = loss(*states, *samples)
    for name in every:
        assert float(compact[name]) == pytest.approx(float(every[name]), rel=1e-5, abs=1e-6)


def test_the_update_rows_keep_a_random_share_of_live_steps_when_full():
    """More live later steps than room: every kept sample is live, and the dropped ones are not always the same."""
    live = np.ones((4, 8))
    steps = played_steps(4, 8, live)
    zeros = jnp.zeros((4, 8))
    picks = set()
    for seed in range(4):
        states, samples = update_rows(steps, zeros, zeros, jax.random.PRNGKey(seed), later_rows=5)
        row_of, kept_live = np.asarray(samples[0]), np.asarray(samples[-1])
        assert kept_live.sum() == 8 + 5 and (row_of[:8] == 0).all()
        picks.add(tuple(np.asarray(states[0][1:, 0])))
    assert len(picks) > 1


def test_the_update_rows_never_exceed_the_later_steps():
    """Room for more later steps than a short game has: every later step is kept once, and the shapes agree."""
    steps = played_steps(2, 4, np.ones((2, 4)))
    zeros = jnp.zeros((2, 4))
    states, samples = update_rows(steps, zeros, zeros, jax.random.PRNGKey(0), later_rows=12)
    assert all(state.shape[0] == 1 + 4 for state in states)
    assert all(sample.shape[0] == 4 + 4 for sample in samples)
    assert sorted(np.asarray(samples[0][4:]).tolist()) == [1, 2, 3, 4]


def test_sampling_never_draws_a_forbidden_guess():
    logits = jnp.array([[0.0, 5.0, 1.0, 2.0]] * 4000)
    mask = jnp.array([[True, False, True, True]] * 4000)
    policy = jax.jit(lambda x, m: jax.nn.log_softmax(net.masked(x, m, jnp), axis=1))(logits, mask)
    drawn = np.asarray(jax.jit(sample)(jax.random.PRNGKey(0), policy))
    assert not (drawn == 1).any()
    share = np.bincount(drawn, minlength=4) / len(drawn)
    assert share == pytest.approx(np.asarray(jnp.exp(policy[0])), abs=0.03)


def test_reward_is_the_scaled_expected_information():
    """HELLO splits {hello, jelly, belly} into {hello} and {jelly, belly}: (log2 3 - 2/3) / log2 3, hit 1/3."""
    game = small_game(["hello", "jelly", "belly"])
    tables = env.Tables.build(game, False, 6).on(jnp)
    state = env.reset(tables, 2, jnp)
    guesses = jnp.array([game.words.guess_id("hello"), game.words.guess_id("jelly")])
    information, hit = jax.jit(lambda s, g: reward(tables, s, g))(state, guesses)
    assert np.allclose(information, [(math.log2(3) - 2 / 3) / math.log2(3), 1.0], atol=1e-6)
    assert np.allclose(hit, [1 / 3, 1 / 3])


@pytest.mark.slow
def test_each_played_guess_earns_its_information_and_bonus_less_the_guess_cost():
    """A rollout's rewards, replayed guess by guess with reward(): information + bonus x hit - cost while live, else 0."""
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    tables = env.Tables.build(game, False, 6).on(jnp)
    params = {k: jnp.asarray(v) for k, v in net.init_params(env.feature_size(6, True), 8, 4,
                                                                np.random.default_rng(5)).items()}
    answers = jnp.arange(4)
    steps, _ = rollout(params, tables, answers, jax.random.PRNGKey(1), False, 0.5, 1.0, True, 0.25)
    state = env.reset(tables, 4, jnp)
    for turn in range(6):
        guess = steps["guess"][turn]
        information, hit = reward(tables, state, guess)
        live = ~np.asarray(state["done"])
        expected = np.where(live, np.asarray(information) + 0.5 * np.asarray(hit) - 0.25, 0.0)
        assert np.allclose(np.asarray(steps["reward"][turn]), expected, atol=1e-6)
        state = env.advance(tables, state, guess, tables.matrix[guess, answers].astype(jnp.int32), jnp)


@pytest.mark.slow
def test_the_step_size_follows_the_rate():
    """Rate 0 leaves the weights as they were; rate 1 moves them (the schedule scales Adam's step)."""
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    run = Learner(game, PPOConfig(games=8, hidden=8, embed=4), seed=2)
    still, _, _ = run._iterate(run.params, run.opt_state, jax.random.PRNGKey(0), jnp.float32(0.0))
    moved, _, _ = run._iterate(run.params, run.opt_state, jax.random.PRNGKey(0), jnp.float32(1.0))
    assert all(np.array_equal(np.asarray(still[name]), np.asarray(run.params[name])) for name in run.params)
    assert any(not np.array_equal(np.asarray(moved[name]), np.asarray(run.params[name])) for name in run.params)


@pytest.mark.slow
def test_the_learning_rate_falls_to_its_floor_over_the_budget():
    """Each iteration's step scale is 1 - (1 - lr_floor) x the share of the budget spent before it."""
    from agents.training import TrainingBudget
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    run = Learner(game, PPOConfig(games=8, hidden=8, embed=4, lr_floor=0.1, eval_every=10**6), seed=2)
    rates, iterate = [], run._iterate
    run._iterate = lambda params, opt_state, key, rate: (rates.append(float(rate)), iterate(params, opt_state, key,
                                                                                           rate))[1]
    run.train(TrainingBudget(episodes=40))
    assert rates == pytest.approx([1.0, 0.82, 0.64, 0.46, 0.28])


def test_numpy_and_jax_networks_agree():
    params = net.init_params(env.feature_size(6), 8, 4, np.random.default_rng(3))
    game = small_game(["hello", "jelly", "belly"], ["octal"])
    tables = env.Tables.build(game, False, 6)
    batch = env.advance(tables, env.reset(tables, 2), np.array([3, 0]), np.array([0, 242]))
    feats, possible = env.features(tables, batch), env.candidate_rows(tables, batch)
    slow = net.forward(params, net.embed_actions(params, tables.spelled), feats, possible, 0.7)
    jparams = {k: jnp.asarray(v) for k, v in params.items()}
    fast = jax.jit(lambda p, s, f, c: net.forward(p, net.embed_actions(p, s, jnp), f, c, 0.7, jnp))(
        jparams, jnp.asarray(tables.spelled), jnp.asarray(feats), jnp.asarray(possible))
    for a, b in zip(slow, fast):
        assert np.allclose(a, np.asarray(b), atol=1e-5)


def test_the_answer_bias_moves_only_the_possible_answers():
    """beta(s) = q . relu(V1 s + c1) + q0, over the temperature, on the possible answers' logits; older weights
    (no q) ignore which guesses are possible."""
    rng = np.random.default_rng(4)
    params = net.init_params(5, 6, 3, rng)
    params["qb"] = np.array([0.3], np.float32)
    actions, feats = rng.standard_normal((4, 3)), rng.standard_normal((2, 5))
    possible = np.array([[True, False, True, False], [False, False, False, True]])
    base, _ = net.forward(params, actions, feats, np.zeros_like(possible), 0.5)
    lifted, _ = net.forward(params, actions, feats, possible, 0.5)
    beta = np.maximum(feats @ params["s1"] + params["sb1"], 0.0) @ params["q"][:, 0] + 0.3
    assert np.allclose(lifted - base, possible * beta[:, None] / 0.5)
    older = {name: value for name, value in params.items() if name not in ("q", "qb")}
    assert np.array_equal(net.forward(older, actions, feats, possible, 0.5)[0],
                          net.forward(older, actions, feats, ~possible, 0.5)[0])


def test_save_load_and_play(tmp_path, monkeypatch):
    """A saved run loads back exactly; the player plays the likeliest allowed guess; a damaged file is refused."""
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    run = Learner(game, PPOConfig(games=8, hidden=8, embed=4), seed=2)
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(tmp_path))
    run.save(tmp_path / "ppo-normal.npz", "test")
    again = Learner.load(game, tmp_path / "ppo-normal.npz", hard=False)
    for name in run.params:
        assert np.array_equal(np.asarray(run.params[name]), np.asarray(again.params[name]))
    assert np.array_equal(np.asarray(run.key), np.asarray(again.key))
    assert jax.tree_util.tree_structure(run.opt_state) == jax.tree_util.tree_structure(again.opt_state)
    agent = PPOAgent(game)
    decision = agent.decide(game.initial_state(), np.random.default_rng(0))
    probability = agent.policy(False, 6).probabilities(game.initial_state())
    assert decision.guess == int(np.argmax(probability)) and probability.sum() == pytest.approx(1.0)
    data = bytearray((tmp_path / "ppo-normal.npz").read_bytes())
    data[-40] ^= 0xFF
    (tmp_path / "ppo-normal.npz").write_bytes(bytes(data))
    with pytest.raises(ModelError, match="damaged.*python cli.py train ppo"):
        PPOAgent(game).decide(game.initial_state(), np.random.default_rng(0))


def test_a_model_from_before_the_answer_bias_loads_and_plays(tmp_path, monkeypatch):
    """A header as the shipped imitation models have it (no answer_bias, candidate_view, lr_floor or guess_cost;
    gamma 0.9), weights without q and for the shorter features: resumed as it was trained, played without the
    head or the view. Weights that do not fit the features the header names are refused in one line."""
    from agents.models import load_model, save_model
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    path = tmp_path / "ppo-normal.npz"
    Learner(game, PPOConfig(games=8, hidden=8, embed=4, answer_bias=False, candidate_view=False),
            seed=2).save(path, "test")
    arrays, header = load_model(path, "ppo", False, game.words.checksum)
    for added in ("answer_bias", "candidate_view", "lr_floor", "guess_cost"):
        del header["config"][added]
    header["config"]["gamma"] = 0.9
    save_model(path, arrays, header)
    again = Learner.load(game, path, hard=False)
    assert not again.config.answer_bias and "q" not in again.params and not again.config.candidate_view
    assert (again.config.lr_floor, again.config.guess_cost, again.config.gamma) == (1.0, 0.0, 0.9)
    assert again.params["s1"].shape[0] == env.feature_size(6)
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(tmp_path))
    probability = PPOAgent(game).policy(False, 6).probabilities(game.initial_state())
    assert probability.sum() == pytest.approx(1.0)
    header["config"]["candidate_view"] = True
    save_model(path, arrays, header)
    with pytest.raises(ModelError, match="do not fit.*python cli.py train ppo$"):
        PPOAgent(game).policy(False, 6)
    with pytest.raises(ModelError, match="do not fit.*python cli.py train ppo$"):
        Learner.load(game, path, hard=False)


def test_the_settings_benchmark_takes_only_real_settings():
    """bench_ppo_settings.py's --set: a PPOConfig field (not the mode) with a value of its type, else an argparse
    error (one line, exit 2); --minutes positive and finite."""
    import argparse
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_ppo_settings.py"
    spec = importlib.util.spec_from_file_location("bench_ppo_settings", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.setting("guess_cost=0.2") == ("guess_cost", 0.2)
    assert bench.setting("candidate_view=False") == ("candidate_view", False)
    assert bench.setting("embed=64") == ("embed", 64)
    assert bench.setting("init=imitation") == ("init", "imitation")
    for bad in ("nope=1", "hard=true", "gamma=", "gamma=abc", "gamma=nan", "candidate_view=flase", "games=0",
                "eval_every=-3", "embed=6.5", "init=bogus"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.setting(bad)
    assert bench.minutes("1.5") == 1.5
    for bad in ("0", "-1", "nan", "inf", "soon"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench.minutes(bad)


def test_the_model_file_keeps_the_best_evaluated_weights(tmp_path):
    """The model holds the best evaluation's weights (named in its header); a checkpoint carries them to a resumed run."""
    game = small_game(["hello", "jelly", "belly", "below"], ["octal"])
    run = Learner(game, PPOConfig(games=8, hidden=8, embed=4), seed=2)
    kept = {name: np.asarray(value) + 1.0 for name, value in run.params.items()}
    unbeatable = {"episodes": 0, "seconds": 0.0, "average": 1.0, "solved": 1.0, "worst": 1}
    run.best = (kept, unbeatable)
    run.evaluate()  # cannot beat an average of 1 guess: the kept weights stay
    run.save(tmp_path / "ppo-normal.npz", "test", best=True)
    run.save(tmp_path / "checkpoint.npz", "test")
    shipped = Learner.load(game, tmp_path / "ppo-normal.npz", hard=False)
    resumed = Learner.load(game, tmp_path / "checkpoint.npz", hard=False)
    for name in kept:
        assert np.array_equal(np.asarray(shipped.params[name]), kept[name])
        assert np.array_equal(resumed.best[0][name], kept[name])
        assert np.array_equal(np.asarray(resumed.params[name]), np.asarray(run.params[name]))
    assert shipped.best[1] == resumed.best[1] == unbeatable
