"""Decision trees: built by following a player, consistent with playing every answer, exported and read back."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest

from agents import make_agent
from plumbing.errors import UserError
from wordle.tree import build_tree, write_tree

from .games import ANSWERS, hand_game


def tree_and_agent(name="decision-tree", **options):
    game, _, _ = hand_game()
    agent = make_agent(name, game, **options)
    rng = np.random.default_rng(0)
    return game, agent, build_tree(game, game.initial_state(), lambda state: agent.decide(state, rng).guess)


def test_tree_agrees_with_playing_every_answer():
    game, agent, graph = tree_and_agent("expectimax", depth=2)
    rng = np.random.default_rng(0)
    played = [game.play(lambda s: agent.decide(s, rng).guess, answer) for answer in range(len(ANSWERS))]
    assert graph.graph["total"] == sum(len(p.turns) for p in played)
    assert graph.graph["worst"] == max(len(p.turns) for p in played)
    assert graph.graph["failures"] == 0 and graph.graph["answers"] == len(ANSWERS)
    # Every answer is solved at exactly one node; edges carry the reply and the answers it leaves.
    assert sum(1 for _, data in graph.nodes(data=True) if data["solves"]) == len(ANSWERS)
    root = graph.nodes[0]
    assert root["answers"] == 6 and root["number"] == 1
    assert sum(data["answers"] for _, _, data in graph.out_edges(0, data=True)) == 6 - int(root["solves"])


def test_decision_tree_agent_guesses_only_possible_answers():
    game, _, graph = tree_and_agent()
    assert all(data["guess"] in ANSWERS for _, data in graph.nodes(data=True))


def test_out_of_guesses_is_a_failed_node():
    game, agent, _ = tree_and_agent()
    rng = np.random.default_rng(0)
    graph = build_tree(game, game.initial_state(max_guesses=1), lambda s: agent.decide(s, rng).guess)
    assert graph.graph["failures"] == 5 and graph.graph["total"] == 1 + 5 * 2
    assert sum(1 for _, data in graph.nodes(data=True) if data["failed"]) == 5


def test_json_and_graphml_round_trip(tmp_path):
    _, _, graph = tree_and_agent()
    data = json.loads(write_tree(graph, tmp_path / "tree.json").read_text())
    assert nx.is_isomorphic(nx.node_link_graph(data, edges="edges"), graph)
    back = nx.read_graphml(write_tree(graph, tmp_path / "tree.graphml"))
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert sorted(d["guess"] for _, d in back.nodes(data=True)) == sorted(d["guess"] for _, d in graph.nodes(data=True))


def test_bad_paths_are_one_line_errors(tmp_path):
    _, _, graph = tree_and_agent()
    with pytest.raises(UserError, match="must end in"):
        write_tree(graph, tmp_path / "tree.txt")
    with pytest.raises(UserError, match="does not exist"):
        write_tree(graph, tmp_path / "missing" / "tree.json")


def test_worst_counts_an_unsolved_answer_as_the_tournament_does():
    game, _, _ = hand_game()
    agent = make_agent("entropy", game)
    rng = np.random.default_rng(0)
    graph = build_tree(game, game.initial_state(max_guesses=1), lambda state: agent.decide(state, rng).guess)
    assert graph.graph["failures"] == len(ANSWERS) - 1 and graph.graph["worst"] == 2
