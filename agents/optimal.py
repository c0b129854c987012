"""The optimal player: it looks up its moves in the solved decision tree of `wordle.solver`.

Values are from the Guesser's point of view: higher is better (a Decision's value here
is minus the guesses the tree still expects to spend on the answers left, per answer).

One solve serves every game: the tree (fewest total guesses, then fewest games over 5)
is solved once per word lists, mode, guess limit, opener and breadth, and kept in a disk
cache (plumbing.storage: node-link JSON, checksummed, keyed by the solver's code), so a
tournament's workers read it instead of solving again. A state the tree does not reach
(another opener, a person's own guesses) is solved on the spot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from wordle import State, Wordle
from plumbing.storage import WORD_LISTS_KEY, Cache, code_version, json_payload, json_value, read_or_build
from wordle.solver import INFEASIBLE, Limits, Objective, Solution, Solver, Stats
from wordle.tree import build_tree

from .base import Agent, Decision
from .params import WHOLE, WORD, Param
from .registry import AgentError, register

if TYPE_CHECKING:
    import networkx as nx

#: The opener and breadth as the registry declares them; a breadth of None stands for "all".
BEST = "best"
OPENER = Param("opener", WORD, "salet", "the first guess (best: solve for it too)", choices=(BEST,))
BREADTH = Param("breadth", WHOLE, None, "guesses tried at each node: all of them (a proof) or the best N by their lower "
                "bound (an upper bound)", least=1, most=12972, optional=True, none_means="all")


def opener_index(game: Wordle, opener: str) -> int | None:
    """The opener's guess index (None for the best one), or AgentError if it is not an allowed guess."""
    if opener == BEST:
        return None
    if opener not in game.words.guess_index:
        raise AgentError(f"opener '{opener}' is not in the guess list")
    return game.words.guess_index[opener]


def winnable(solver: Solver, state: State) -> bool:
    """Whether some tree solves every answer still possible within the guesses left (with two or fewer, one guess does)."""
    answers = np.asarray(state.candidates)
    return len(answers) <= 2 or solver.solve_set(answers, state.guesses_left, solver.state_hints(state)) < INFEASIBLE


def make_solver(game: Wordle, hard: bool, max_guesses: int, breadth: int | None,
                objective: Objective = Objective.TOTAL, ultra: bool = False) -> Solver:
    """A solver for one mode (`ultra`: ultra-hard), guess limit and objective, trying every guess (breadth None) or
    the best `breadth`.

    It keeps every guess (no dead-letter rule), so its trees break ties as the published games did."""
    return Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits(top=breadth), objective=objective,
                  dead_letters=False, ultra=ultra)


def solve_tree(game: Wordle, hard: bool, max_guesses: int, opener: int | None, breadth: int | None,
               report: Callable[[Stats], None] | None = None,
               objective: Objective = Objective.TOTAL, ultra: bool = False) -> tuple[Solution, nx.DiGraph]:
    """Solve and build the tree (wordle.tree's DiGraph, with the solution in its graph attributes); `ultra`:
    ultra-hard mode."""
    solver = make_solver(game, hard, max_guesses, breadth, objective, ultra=ultra)
    solver.report = report
    solution = solver.solve(opener)
    graph = build_tree(game, game.initial_state(hard=hard, max_guesses=max_guesses, ultra=ultra),
                       solver.chooser(solution.guess))
    if graph.graph["total"] != solution.total or graph.graph["failures"] != solution.losses:
        raise RuntimeError("the built tree does not match the solved total")
    graph.graph.update(proved=solution.proved, long_games=solution.long_games, breadth=BREADTH.text(breadth),
                       opener=game.words.guesses[solution.guess], objective=solution.objective.value)
    return solution, graph


# -- the tree cache -------------------------------------------------------------------
def tree_cache(game: Wordle, hard: bool, max_guesses: int, opener: str, breadth: int | None,
               objective: Objective = Objective.TOTAL, ultra: bool = False) -> Cache:
    """The disk cache of one solved tree (plumbing.storage: checksummed, keyed by the solver's code and the mode)."""
    mode = "ultra" if ultra else "hard" if hard else "normal"
    key = {WORD_LISTS_KEY: game.words.checksum, "mode": mode, "max_guesses": max_guesses,
           "opener": OPENER.text(opener), "breadth": BREADTH.text(breadth)}
    if objective is not Objective.TOTAL:  # the total objective's key as before, so its cached trees still serve
        key["objective"] = objective.value
    return Cache("optimal", key, code_version(__name__), suffix=".json")


def tree_payload(graph: nx.DiGraph) -> bytes:
    """A tree as cache payload: its node-link data."""
    import networkx as nx

    return json_payload(nx.node_link_data(graph, edges="edges"))


def tree_from_payload(game: Wordle, payload: bytes) -> nx.DiGraph | None:
    """A tree read back from cache payload, or None where it does not fit the game's lists."""
    import networkx as nx

    try:
        graph = nx.node_link_graph(json_value(payload), edges="edges")
        moves(game, graph)
    except (ValueError, KeyError, TypeError, nx.NetworkXError):
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
    import networkx as nx

    totals: dict[int, int] = {}
    for node in reversed(list(nx.topological_sort(graph))):
        data = graph.nodes[node]
        totals[node] = data["answers"] + sum(totals[child] for child in graph.successors(node))
    return totals


@register("optimal", "the proven optimal decision tree (fewest total guesses, then fewest over 5), solved once and cached",
          params=(OPENER, BREADTH))
class OptimalAgent(Agent):
    """Plays the optimal tree for the mode and guess limit, read from the cache or solved on first use."""

    def __init__(self, game: Wordle, opener: str = OPENER.default, breadth: int | None = BREADTH.default):
        super().__init__(game)
        self.opener = OPENER.check(opener)
        self.breadth = BREADTH.check(breadth)
        self.opener_index = opener_index(game, self.opener)
        self._tables: dict[tuple[bool, int], dict] = {}
        self._solvers: dict[tuple[bool, int], Solver] = {}

    def tree(self, hard: bool, max_guesses: int) -> nx.DiGraph:
        """The solved tree, from the disk cache or solved now and cached."""
        return read_or_build(tree_cache(self.game, hard, max_guesses, self.opener, self.breadth),
                             lambda: solve_tree(self.game, hard, max_guesses, self.opener_index, self.breadth)[1],
                             tree_payload, lambda payload: tree_from_payload(self.game, payload))

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
        solver = self._solvers[key]
        if not winnable(solver, state):  # no tree wins from here: any legal guess that is still possible
            return Decision(guess=int(self.game.words.answer_rows[state.candidates[0]]))
        return Decision(guess=solver.best_guess(state))
