"""The optimal player: it looks up its moves in the solved decision tree of `search.optimal`.

Values are from the Guesser's point of view: higher is better (a Decision's value here
is minus the guesses the tree still expects to spend on the answers left, per answer).

One solve serves every game: the tree (fewest total guesses, then fewest games over 5)
is solved once per word lists, mode, guess limit, opener and breadth, and kept in a disk
cache beside the pattern matrix as node-link JSON with a SHA-256 over its content, so a
tournament's workers read it instead of solving again. A state the tree does not reach
(another opener, a person's own guesses) is solved on the spot.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable

import networkx as nx
import numpy as np

from search import State, UserError, Wordle
from search.files import write_atomically
from search.matrix import cache_dir
from search.optimal import Limits, Solution, Solver, Stats
from search.tree import build_tree

from .base import Agent, Decision
from .registry import AgentError, Option, add_option, register, whole_number

#: Bumped whenever a cached tree's meaning changes.
CACHE_FORMAT = "wordle-arena optimal tree v1"
DEFAULT_OPENER = "salet"
ALL = "all"


def parse_breadth(text: str) -> str | int:
    """'all' (every allowed guess at every node: a proof) or N (the best N by their bound: an upper bound).

    >>> parse_breadth("ALL"), parse_breadth("10")
    ('all', 10)
    """
    if str(text).strip().lower() == ALL:
        return ALL
    return whole_number(str(text).strip(), "--breadth", 1)


def parse_opener(text: str) -> str:
    """A five-letter opener (checked against the guess list when the agent is built), or 'best'."""
    word = str(text).strip().lower()
    if not (len(word) == 5 and word.isalpha()) and word != "best":
        raise ValueError(f"--opener takes a five-letter word or 'best', got '{text}'")
    return word


add_option(Option("breadth", parse_breadth, metavar="all|N",
                  help="optimal: guesses tried at each node, all of them (a proof, default) or the best N by their "
                       "lower bound (an upper bound)"))
add_option(Option("opener", parse_opener, metavar="WORD|best",
                  help=f"optimal: the first guess (default {DEFAULT_OPENER}; best: solve for it too)"))


def opener_index(game: Wordle, opener: str) -> int | None:
    """The opener's guess index (None for 'best'), or AgentError if it is not an allowed guess."""
    if opener == "best":
        return None
    if opener not in game.words.guess_index:
        raise AgentError(f"--opener {opener}: not in the guess list")
    return game.words.guess_index[opener]


def make_solver(game: Wordle, hard: bool, max_guesses: int, breadth: str | int) -> Solver:
    """A solver for one mode and guess limit, trying every guess or the best `breadth`."""
    return Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits(top=None if breadth == ALL else int(breadth)))


def solve_tree(game: Wordle, hard: bool, max_guesses: int, opener: int | None, breadth: str | int,
               report: Callable[[Stats], None] | None = None) -> tuple[Solution, nx.DiGraph]:
    """Solve and build the tree (search.tree's DiGraph, with the solution in its graph attributes)."""
    solver = make_solver(game, hard, max_guesses, breadth)
    solver.report = report
    solution = solver.solve(opener)
    graph = build_tree(game, game.initial_state(hard=hard, max_guesses=max_guesses), solver.chooser(solution.guess))
    if graph.graph["total"] != solution.total or graph.graph["failures"]:
        raise RuntimeError("the built tree does not match the solved total")
    graph.graph.update(proved=solution.proved, long_games=solution.long_games, breadth=str(breadth),
                       opener=game.words.guesses[solution.guess])
    return solution, graph


# -- the tree cache -------------------------------------------------------------------
def tree_cache_path(game: Wordle, hard: bool, max_guesses: int, opener: str, breadth: str | int,
                    directory: Path | None = None) -> Path:
    """The cache file of one solved tree."""
    mode = "hard" if hard else "normal"
    name = f"optimal-{game.words.checksum[:32]}-{mode}-max{max_guesses}-{opener}-{breadth}.json"
    return (directory or cache_dir()) / name


def _digest(tree: dict) -> str:
    """SHA-256 of a tree's node-link data, serialised canonically."""
    return hashlib.sha256(json.dumps(tree, sort_keys=True).encode()).hexdigest()


def write_cached_tree(path: Path, game: Wordle, graph: nx.DiGraph) -> None:
    """Write a tree atomically with its format, word lists and checksum."""
    tree = nx.node_link_data(graph, edges="edges")
    write_atomically(path, json.dumps({"format": CACHE_FORMAT, "lists": game.words.checksum,
                                       "sha256": _digest(tree), "tree": tree}))


def read_cached_tree(path: Path, game: Wordle) -> nx.DiGraph | None:
    """A cached tree if the file is whole, its checksum holds and it fits the game, else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["format"] != CACHE_FORMAT or data["lists"] != game.words.checksum or _digest(data["tree"]) != data["sha256"]:
            return None
        graph = nx.node_link_graph(data["tree"], edges="edges")
        moves(game, graph)
    except (OSError, ValueError, KeyError, TypeError, nx.NetworkXError):
        return None
    return graph


def moves(game: Wordle, graph: nx.DiGraph) -> dict[tuple[tuple[int, int], ...], tuple[int, float]]:
    """Each history the tree reaches -> (its guess, minus the guesses it still expects per answer).

    Raises:
        ValueError: a guess that is not in the list, or a tree with no root.
    """
    if 0 not in graph:
        raise ValueError("the tree has no root")
    table: dict[tuple[tuple[int, int], ...], tuple[int, float]] = {}
    below = subtree_totals(graph)
    stack: list[tuple[int, tuple[tuple[int, int], ...]]] = [(0, ())]
    while stack:
        node, history = stack.pop()
        data = graph.nodes[node]
        if data["failed"]:
            continue
        guess = game.words.guess_index[data["guess"]]  # KeyError: not a word of these lists
        table[history] = (guess, -below[node] / data["answers"])
        for child in graph.successors(node):
            stack.append((child, history + ((guess, int(graph.edges[node, child]["code"])),)))
    return table


def subtree_totals(graph: nx.DiGraph) -> dict[int, int]:
    """For each node, the guesses its answers still need from it on (itself included)."""
    totals: dict[int, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        data = graph.nodes[node]
        totals[node] = data["answers"] + sum(totals[child] for child in graph.successors(node))
    return totals


@register("optimal", "the proven optimal decision tree (fewest total guesses, then fewest over 5), solved once and cached",
          options=("opener", "breadth"))
class OptimalAgent(Agent):
    """Plays the optimal tree for the mode and guess limit, read from the cache or solved on first use."""

    def __init__(self, game: Wordle, opener: str = DEFAULT_OPENER, breadth: str | int = ALL):
        super().__init__(game)
        self.opener = parse_opener(opener)
        self.breadth = parse_breadth(str(breadth))
        self.opener_index = opener_index(game, self.opener)
        self._tables: dict[tuple[bool, int], dict] = {}
        self._solvers: dict[tuple[bool, int], Solver] = {}

    def settings(self) -> dict[str, object]:
        """The opener and how many guesses each node tried."""
        return {"opener": self.opener, "breadth": self.breadth}

    def tree(self, hard: bool, max_guesses: int) -> nx.DiGraph:
        """The solved tree, from the disk cache or solved now and cached."""
        path = tree_cache_path(self.game, hard, max_guesses, self.opener, self.breadth)
        if (graph := read_cached_tree(path, self.game)) is not None:
            return graph
        _, graph = solve_tree(self.game, hard, max_guesses, self.opener_index, self.breadth)
        try:
            write_cached_tree(path, self.game, graph)
        except OSError:
            pass
        return graph

    def table(self, hard: bool, max_guesses: int) -> dict:
        """History -> (guess, value) for one mode and guess limit."""
        key = (hard, max_guesses)
        if key not in self._tables:
            self._tables[key] = moves(self.game, self.tree(hard, max_guesses))
        return self._tables[key]

    def prepare(self, hard: bool, max_guesses: int) -> None:
        """Solve (or read) the tree, which lands in the disk cache for the tournament's workers."""
        self.table(hard, max_guesses)

    def decide(self, state: State, rng: np.random.Generator) -> Decision:
        """The tree's guess for this history; off the tree, the optimal guess solved for this state."""
        found = self.table(state.hard, state.max_guesses).get(state.history)
        if found is not None:
            return Decision(guess=found[0], value=found[1])
        key = (state.hard, state.max_guesses)
        if key not in self._solvers:
            self._solvers[key] = make_solver(self.game, state.hard, state.max_guesses, self.breadth)
        try:
            return Decision(guess=self._solvers[key].best_guess(state))
        except UserError:  # no tree wins from here: any legal guess that is still possible
            return Decision(guess=int(self.game.words.answer_rows[state.candidates[0]]))
