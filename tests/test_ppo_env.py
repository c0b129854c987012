"""The learners' vectorised environment against the engine: rules, hard-mode legality, features and the masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from agents.ppo import env
from wordle import ALL_GREEN, Wordle

from .conftest import small_game

word = st.text(alphabet="abcdeo", min_size=5, max_size=5)


def replay(game: Wordle, tables: env.Tables, answers: list[int], guesses: list[list[int]]):
    """Play the same guesses in the engine (one game per answer) and in one batched env; yield both after each turn.

    Each drawn number picks among the guesses the engine allows there (hard mode restricts them).
    """
    states = [game.initial_state(hard=tables.hard, max_guesses=tables.max_guesses) for _ in answers]
    batch = env.reset(tables, len(answers))
    for drawn in guesses:
        turn = [int(game.legal_guesses(state)[number % len(game.legal_guesses(state))]) for state, number in
                zip(states, drawn)]
        guess = np.array(turn)
        pattern = tables.matrix[guess, np.array(answers)]
        batch = env.advance(tables, batch, guess, pattern)
        states = [state if game.is_terminal(state) else game.step(state, g, int(p))
                  for state, g, p in zip(states, turn, pattern)]
        yield states, batch


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=3, max_size=12, unique=True), st.lists(word, max_size=6, unique=True),
       st.booleans(), st.data())
def test_the_batch_follows_the_engine(answer_words, extra, hard, data):
    """Candidates, turns, solved and hard-mode legality agree with the engine after every batched step."""
    game = small_game(answer_words, extra)
    tables = env.Tables.build(game, hard, max_guesses=4)
    answers = data.draw(st.lists(st.integers(0, len(answer_words) - 1), min_size=1, max_size=4))
    guesses = data.draw(st.lists(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=len(answers),
                                          max_size=len(answers)), min_size=1, max_size=4))
    for states, batch in replay(game, tables, answers, guesses):
        for row, state in enumerate(states):
            assert np.flatnonzero(batch["cand"][row]).tolist() == state.candidates.tolist()
            assert batch["turn"][row] == state.guesses_used
            assert bool(batch["solved"][row]) == state.solved
            assert bool(batch["done"][row]) == game.is_terminal(state)
            if not game.is_terminal(state):
                single = {name: value[row:row + 1] for name, value in batch.items()}
                assert np.flatnonzero(env.legal(tables, single)[0]).tolist() == game.legal_guesses(state).tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=3, max_size=12, unique=True), st.data())
def test_letter_features_are_true_of_every_answer_left(answer_words, data):
    """What the features claim (at, not at, at least k times) holds for every answer still possible."""
    game = small_game(answer_words)
    tables = env.Tables.build(game, False, max_guesses=6)
    answer = data.draw(st.integers(0, len(answer_words) - 1))
    guesses = data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=1, max_size=5))
    for _, batch in replay(game, tables, [answer], [[g] for g in guesses]):
        for column in np.flatnonzero(batch["cand"][0]):
            spelled = tables.spelled[game.words.answer_rows[column]]
            assert np.all(spelled >= batch["holds"][0])
            assert np.all(spelled * batch["notat"][0] == 0)
            assert np.all(spelled.sum(axis=1) >= batch["least"][0])


def test_features_have_the_documented_size(official_game):
    tables = env.Tables.build(official_game, False, 6)
    assert env.features(tables, env.reset(tables, 3)).shape == (3, 26 * 11 + 6) == (3, env.feature_size(6))
    with_view = env.features(tables, env.reset(tables, 3), np, candidate_view=True)
    assert with_view.shape == (3, 26 * 11 + 6 + 26 * 5 + 1) == (3, env.feature_size(6, candidate_view=True))


@settings(max_examples=40, deadline=None)
@given(st.lists(word, min_size=3, max_size=12, unique=True), st.data())
def test_the_candidate_view_counts_the_answers_left(answer_words, data):
    """The view's shares are, letter by letter and position by position, the fraction of the answers still
    possible spelled that way, and its last entry is log2(answers left) / log2(answers); counted word by word."""
    game = small_game(answer_words)
    tables = env.Tables.build(game, False, max_guesses=6)
    answer = data.draw(st.integers(0, len(answer_words) - 1))
    guesses = data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=1, max_size=4))
    for states, batch in replay(game, tables, [answer], [[g] for g in guesses]):
        view = env.features(tables, batch, np, candidate_view=True)[0, env.feature_size(6):]
        left = [answer_words[column] for column in states[0].candidates]
        for letter in range(26):
            for position in range(5):
                share = sum(word[position] == chr(ord("a") + letter) for word in left) / len(left)
                assert view[letter * 5 + position] == pytest.approx(share)
        assert view[-1] == pytest.approx(np.log2(len(left)) / np.log2(len(answer_words)))


@settings(max_examples=40, deadline=None)
@given(st.lists(word, min_size=3, max_size=12, unique=True), st.booleans(), st.data())
def test_masks_enforce_the_three_biases(answer_words, hard, data):
    """Never a repeat; one answer left: only it; last turn: only possible answers; and never empty."""
    game = small_game(answer_words)
    tables = env.Tables.build(game, hard, max_guesses=4)
    answer = data.draw(st.integers(0, len(answer_words) - 1))
    guesses = data.draw(st.lists(st.integers(0, len(game.words.guesses) - 1), min_size=1, max_size=3))
    for states, batch in replay(game, tables, [answer], [[g] for g in guesses]):
        if batch["done"][0]:
            break
        allowed = env.allowed(tables, batch)[0]
        possible = set(game.words.answer_rows[states[0].candidates].tolist())
        assert allowed.any()
        assert not allowed[np.flatnonzero(batch["guessed"][0])].any()
        assert set(np.flatnonzero(allowed)) <= set(game.legal_guesses(states[0]).tolist())
        if len(possible) == 1 or batch["turn"][0] == tables.max_guesses - 1:
            assert set(np.flatnonzero(allowed).tolist()) == possible


def test_finished_games_stand_still():
    game = small_game(["hello", "jelly", "belly"])
    tables = env.Tables.build(game, False, 6)
    hello = game.words.guess_id("hello")
    batch = env.advance(tables, env.reset(tables, 1), np.array([hello]), np.array([ALL_GREEN]))
    again = env.advance(tables, batch, np.array([0]), np.array([0]))
    assert all(np.array_equal(batch[name], again[name]) for name in batch)
    assert again["solved"][0] and again["turn"][0] == 1


def test_numpy_and_jax_step_alike():
    """The same environment code under jax.numpy gives the numpy arrays (skipped without the learn extra)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    game = small_game(["hello", "jelly", "belly", "below", "bowel"], ["octal"])
    for hard in (False, True):
        tables = env.Tables.build(game, hard, 6)
        fast = tables.on(jnp)
        guess, answer = np.array([0, 3, 5]), np.array([1, 2, 4])
        a = env.advance(tables, env.reset(tables, 3), guess, tables.matrix[guess, answer])
        b, allowed = jax.jit(lambda g, p: (lambda s: (s, env.allowed(fast, s, jnp)))(
            env.advance(fast, env.reset(fast, 3, jnp), g, p, jnp)))(jnp.asarray(guess), fast.matrix[guess, answer])
        for name in a:
            assert np.array_equal(a[name], np.asarray(b[name])), name
        assert np.array_equal(env.allowed(tables, a), np.asarray(allowed))
        slow = env.features(tables, a, np, candidate_view=True)
        quick = jax.jit(lambda s: env.features(fast, s, jnp, candidate_view=True))(b)
        assert slow.dtype == quick.dtype == np.float32
        assert np.allclose(slow, np.asarray(quick), atol=1e-6)
