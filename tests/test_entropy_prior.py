"""entropy-prior: weighted entropy against counting, the guesses-to-go formula, and both answer models."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pytest

from agents import game_rng, make_agent
from agents import entropy_prior
from agents.entropy_prior import expected_guesses, guesses_to_go, prior_ranking, weighted_entropy
from heuristics import prior
from heuristics.partition import partition_stats
from tests.conftest import small_game


def reference_weighted_entropy(replies: list[int], weights: list[float]) -> float:
    """-sum P log2 P over replies, P the normalised weight of the answers giving each reply."""
    mass: dict[int, float] = defaultdict(float)
    for reply, weight in zip(replies, weights):
        mass[reply] += weight / sum(weights)
    return -sum(p * math.log2(p) for p in mass.values() if p > 0)


def test_weighted_entropy_matches_counting(official_game):
    rng = np.random.default_rng(4)
    candidates = np.sort(rng.choice(2315, size=40, replace=False))
    weights = rng.random(40) + 0.01
    guesses = np.arange(0, 12972, 611)
    fast = weighted_entropy(official_game.matrix[guesses][:, candidates], weights)
    slow = [reference_weighted_entropy(official_game.matrix[g, candidates].tolist(), weights.tolist()) for g in guesses]
    assert fast == pytest.approx(slow)
    uniform = weighted_entropy(official_game.matrix[guesses][:, candidates], np.ones(40))
    assert uniform == pytest.approx(partition_stats(official_game.matrix, candidates, guesses).entropy)


def test_guesses_to_go_anchors_and_expected_guesses():
    assert guesses_to_go(np.array([0.0, 1.0]))[0] == 1.0
    assert guesses_to_go(np.array([1.0]))[0] == pytest.approx(1.5)
    assert guesses_to_go(np.array([math.log2(2315)]))[0] == pytest.approx(3.46, abs=0.01)
    # A sure win costs exactly one guess; a guess that cannot win and learns nothing costs 1 + f(H).
    assert expected_guesses(np.array([0.0]), np.array([1.0]), 3.0)[0] == 1.0
    assert expected_guesses(np.array([0.0]), np.array([0.0]), 3.0)[0] == pytest.approx(1 + 1 + 0.5 * 3 ** 0.66)
    # Two answers weighted 0.9 and 0.1: guessing the likely one expects 1 + 0.1 * f(0) = 1.1 guesses.
    h = -(0.9 * math.log2(0.9) + 0.1 * math.log2(0.1))
    assert expected_guesses(np.array([h]), np.array([0.9]), h)[0] == pytest.approx(1.1)


def test_ranking_prefers_the_likelier_of_two_candidates():
    patterns = {0: np.array([242, 0]), 1: np.array([0, 242]), 2: np.array([0, 1])}
    ranking = prior_ranking(np.array([0, 1, 2]), lambda block: np.stack([patterns[int(g)] for g in block]),
                            candidate_rows=np.array([0, 1]), weights=np.array([0.2, 0.8]))
    assert ranking.guesses[ranking.order()].tolist() == [1, 0, 2]
    assert ranking.value[ranking.order()[0]] == pytest.approx(-1.2)


@pytest.fixture
def flat_prior(monkeypatch):
    """A prior that follows list order, without wordfreq (the official one is tested in test_prior)."""
    monkeypatch.setattr(prior, "zipf_frequencies", lambda words: np.linspace(7, 1, len(words)))
    monkeypatch.setattr(entropy_prior, "word_prior",
                        lambda words: prior.sigmoid_prior(np.arange(len(words)), center=len(words) / 2, width=2))


def test_list_model_solves_a_small_game_in_both_modes(flat_prior):
    game = small_game(["watch", "match", "latch", "hatch", "batch", "crane", "slate"], ["blimp", "chomp"])
    agent = make_agent("entropy-prior", game)
    for answer in game.all_answers:
        for hard in (False, True):
            playthrough = game.play(lambda s: agent.decide(s, game_rng(0, int(answer))).guess, int(answer), hard=hard)
            assert playthrough.solved


def test_all_model_takes_every_consistent_guess_as_a_possible_answer(flat_prior):
    game = small_game(["crane", "slate"], ["trace", "caner", "blimp", "nacre"])
    agent = make_agent("entropy-prior", game, prior_answers="all")
    crane = game.words.guess_id("crane")
    state = game.step(game.initial_state(), game.words.guess_id("blimp"), game.reply(game.words.guess_id("blimp"), 0))
    words = {game.words.guesses[g] for g in agent.possible_words(state)}
    assert words == {"crane", "trace", "caner", "nacre"}  # all grey to BLIMP; slate has an L
    playthrough = game.play(lambda s: agent.decide(s, game_rng(0, 0)).guess, 0)
    assert playthrough.solved and playthrough.turns[-1].guess == crane
    assert agent.settings() == {"prior_answers": "all"}


def test_official_opener(official_game):
    agent = make_agent("entropy-prior", official_game)
    decision = agent.decide(official_game.initial_state(), game_rng(0, 0))
    assert official_game.words.guesses[decision.guess] == "soare"
    assert -decision.value == pytest.approx(3.49, abs=0.01)
