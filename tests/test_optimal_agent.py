"""The optimal agent, its cached tree and the solve command: one solve, every answer replayed to a win."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np

from agents import make_agent
from agents.optimal import tree_cache
from wordle.solver import Solver
from wordle.tree import build_tree

from .conftest import run_cli, small_game
from .test_optimal import POOL_ANSWERS, POOL_GUESSES

ANSWERS = POOL_ANSWERS[:14]


def lists(tmp_path):
    """The small lists as files: answers, and guesses (answers plus a few others)."""
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(ANSWERS) + "\n")
    guesses.write_text("\n".join(sorted(set(ANSWERS) | set(POOL_GUESSES))) + "\n")
    return ["--answers", str(answers), "--guesses", str(guesses)]


def test_agent_replays_every_answer_to_the_solved_total_in_both_modes():
    game = small_game(ANSWERS, POOL_GUESSES)
    for hard in (False, True):
        agent = make_agent("optimal", game, opener="best")
        agent.prepare(hard, 6)
        rng = np.random.default_rng(0)
        played = [game.play(lambda s: agent.decide(s, rng).guess, answer, hard=hard) for answer in range(len(ANSWERS))]
        solution = Solver(game, hard=hard).solve()
        assert all(p.solved for p in played)
        assert sum(len(p.turns) for p in played) == solution.total
        # the cached tree is checksummed: a changed byte makes the agent solve again rather than trust it
        cache = tree_cache(game, hard, 6, "best", None)
        assert cache.read() is not None
        blob = cache.path().read_bytes()
        cache.path().write_bytes(blob.replace(b'"answers": ', b'"answers": 1', 1))
        assert cache.read() is None


def test_agent_settings_rebuild_the_same_player():
    game = small_game(ANSWERS, POOL_GUESSES)
    agent = make_agent("optimal", game, opener="cater", breadth=3)
    again = make_agent("optimal", game, **agent.settings())
    state = game.initial_state()
    rng = np.random.default_rng(0)
    assert agent.settings() == {"opener": "cater", "breadth": 3}
    assert agent.decide(state, rng).guess == again.decide(state, rng).guess == game.words.guess_index["cater"]


def test_off_tree_states_are_solved_on_the_spot():
    game = small_game(ANSWERS, POOL_GUESSES)
    agent = make_agent("optimal", game, opener="cater")
    state = game.step(game.initial_state(), game.words.guess_index["wimpy"], 0)  # the tree opens with CATER
    guess = agent.decide(state, np.random.default_rng(0)).guess
    assert guess == Solver(game).best_guess(state)


def test_solve_command_writes_a_tree_whose_total_is_the_sum_of_its_depths(capsys, tmp_path):
    for flags in ([], ["--hard"], ["--top", "2"], ["--opener", "salet", "--hard"]):
        out = tmp_path / "tree.json"
        code, text, err = run_cli(capsys, "solve", *flags, "--out", str(out), *lists(tmp_path))
        assert code == 0, err
        graph = nx.node_link_graph(json.loads(out.read_text()), edges="edges")
        depths = [data["number"] for _, data in graph.nodes(data=True) if data["solves"]]
        assert sorted(graph.nodes[n]["guess"] for n in graph if graph.nodes[n]["solves"]) == sorted(ANSWERS)
        assert max(depths) <= 6 and sum(depths) == graph.graph["total"] and graph.graph["failures"] == 0
        assert f"total {graph.graph['total']}" in text
        assert ("proved optimal" in text) == ("--top" not in flags)
    code, _, err = run_cli(capsys, "solve", "--top", "2", "--prove")
    assert code == 2 and "not allowed with" in err
    code, _, err = run_cli(capsys, "solve", "--opener", "qqqqq", *lists(tmp_path))
    assert code == 2 and "not in the guess list" in err


def test_tree_command_with_the_optimal_agent_matches_the_solver(capsys, tmp_path):
    out = tmp_path / "tree.graphml"
    code, text, err = run_cli(capsys, "tree", "--agent", "optimal", "--opener", "best", "--out", str(out), *lists(tmp_path))
    assert code == 0, err
    game = small_game(ANSWERS, POOL_GUESSES)
    assert f"total {Solver(game).solve().total}" in text
