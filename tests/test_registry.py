"""The registry: typed parameters checked, every setting recorded, and settings that rebuild the same agent."""

from __future__ import annotations

import pytest

from agents import AGENTS, AgentError, all_params, game_rng, make_agent, resolve

from .conftest import learner_models, small_game

ANSWERS = ["lanky", "black", "slack", "flask", "panel", "parka", "spank", "plank"]
#: Defaults that name words of the official lists, replaced on the small one.
SMALL_LIST_SETTINGS = {"optimal": {"opener": "best"}}


@pytest.mark.parametrize("name", list(AGENTS))
def test_settings_hold_every_parameter_and_rebuild_the_same_agent(name, tmp_path, monkeypatch):
    game = small_game(ANSWERS)
    learner_models(game, tmp_path)  # the learners play from models made for these words
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(tmp_path))
    agent = make_agent(name, game, **SMALL_LIST_SETTINGS.get(name, {}))
    settings = agent.settings()
    assert set(settings) == {param.name for param in AGENTS[name].params}
    again = make_agent(name, game, **settings)
    assert again.settings() == settings
    for answer in range(len(ANSWERS)):
        first = game.play(lambda s: agent.decide(s, game_rng(0, answer)).guess, answer)
        second = game.play(lambda s: again.decide(s, game_rng(0, answer)).guess, answer)
        assert first.turns == second.turns


def test_defaults_are_per_agent_and_recorded():
    assert resolve("decision-tree")["depth"] == 1 and resolve("expectimax")["depth"] == 2
    assert resolve("expectimax", beam=12)["beam"] == 12
    assert make_agent("expectimax", small_game(ANSWERS), eval="weighted").settings()["weights"] == [0.6, 0.2, 0.15, 0.05]


def test_values_out_of_range_or_foreign_are_one_line_agent_errors():
    with pytest.raises(AgentError, match="^expectimax: depth must be at most 4, got 5$"):
        resolve("expectimax", depth=5)
    with pytest.raises(AgentError, match="^agent 'entropy' does not take depth$"):
        resolve("entropy", depth=2)
    assert resolve("entropy", strict=False, depth=2) == {}
    with pytest.raises(AgentError, match="^expectimax: weights apply only to the weighted evaluation, not 'cost'$"):
        make_agent("expectimax", small_game(ANSWERS), weights=[1, 0, 0, 0])


def test_a_parameter_shared_by_agents_is_declared_alike():
    for name, declarations in all_params().items():
        shapes = {(p.kind, p.least, p.most, p.choices, p.count) for p in declarations}
        assert len(shapes) == 1, name
