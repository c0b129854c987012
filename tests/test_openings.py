"""The opening plan on disk: written once, read back identical, and never trusted when it does not fit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from agents import make_agent
from agents.assistant import make_advisor
from agents.openings import OpeningPlan, opening_path, read_opening, write_opening
from agents.searchers import ExpectimaxAgent

from wordle import ALL_GREEN

from .games import hand_game


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """An empty cache folder for each test, so no other test's opening is found."""
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(tmp_path))


def first_move(agent, hard=False):
    """The agent's decision at the start of a game."""
    return agent.decide(agent.game.initial_state(hard=hard), np.random.default_rng(0))


def refuse_to_search(monkeypatch):
    """Make any search fail, so a test sees that a decision came from the disk."""
    def search(*args, **kwargs):
        raise AssertionError("searched instead of reading the disk cache")
    search.__name__ = ExpectimaxAgent.algorithm.__name__  # the same algorithm, as the cache's key sees it
    monkeypatch.setattr(ExpectimaxAgent, "algorithm", staticmethod(search))


def second_moves(agent, first, hard=False):
    """The agent's decision after each reply its first move can get, by reply."""
    game, start = agent.game, agent.game.initial_state(hard=hard)
    return {pattern: agent.decide(game.step(start, first, pattern), np.random.default_rng(0))
            for pattern, _ in game.partition(start.candidates, first) if pattern != ALL_GREEN}


def test_the_first_two_moves_are_searched_once_then_read_back_identical(monkeypatch):
    game, _, _ = hand_game()
    searched = make_advisor("expectimax", game)
    assert not searched.opening_cached(False, 6)
    decision = first_move(searched)
    assert searched.opening_cached(False, 6) and not searched.opening_cached(True, 6)
    seconds = second_moves(searched, decision.guess)
    assert seconds == second_moves(make_agent("expectimax", game), decision.guess)  # as a fresh search finds them
    refuse_to_search(monkeypatch)
    again = make_advisor("expectimax", game)
    assert second_moves(again, decision.guess) == seconds  # value, alternatives, nodes and all
    assert first_move(again) == decision


def test_other_settings_or_a_torn_file_are_searched_again(monkeypatch):
    game, _, _ = hand_game()
    agent = make_advisor("expectimax", game, beam=5)
    decision = first_move(agent)
    key = agent.opening_key(game.initial_state())
    path = opening_path(key)
    assert read_opening(path, game, key).first == decision
    assert make_advisor("expectimax", game, beam=6).opening_key(game.initial_state()) != key
    assert read_opening(path, game, {**key, "hard": True}) is None  # a file answers only its own key
    path.write_text(path.read_text()[:40])
    assert read_opening(path, game, key) is None
    write_opening(path, key, OpeningPlan(first=decision, seconds={}))
    assert read_opening(path, game, key) is None  # replies missing
    write_opening(path, key, OpeningPlan(first=replace(decision, guess=10**6), seconds={}))
    assert read_opening(path, game, key) is None  # a guess outside the list
    assert first_move(make_advisor("expectimax", game, beam=5)) == decision  # searched and rewritten
    assert read_opening(path, game, key).first == decision


def test_zero_mode_random_choices_are_never_cached():
    game, _, _ = hand_game()
    agent = make_advisor("expectimax", game, eval_mode="zero")
    first_move(agent)
    assert not opening_path(agent.opening_key(game.initial_state())).exists()


def test_a_tournaments_agent_leaves_the_disk_alone():
    """Its node counts depend on what the opening search leaves in its cache, so it always searches."""
    game, _, _ = hand_game()
    agent = make_agent("expectimax", game)
    first_move(agent)
    assert not opening_path(agent.opening_key(game.initial_state())).exists()
    assert not agent.opening_cached(True, 6) and agent.opening_cached(False, 6)  # decided in memory only
