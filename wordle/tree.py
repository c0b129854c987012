"""A player's whole decision tree over a set of answers, as a networkx DiGraph, and its export.

Nodes are the Guesser's states, numbered in depth-first order from the root 0, with:
guess (the word played there, "" where the guesses ran out), answers (how many were
still possible), number (which guess it is, 1-based), solves (whether the guess is one of
those answers) and failed (the guesses ran out). Edges are the Indicator's replies, with
pattern (letters, e.g. "gy-.."-style as format_pattern writes it), code (0-242) and
answers (how many answers give that reply). The all-green reply ends a branch and has
no edge. The graph's attributes summarise the play: total (failures counted as
max_guesses + 1), average, worst (most guesses any answer took, an unsolved one counting
max_guesses + 1, as the tournament counts it) and failures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from plumbing.errors import UserError
from .feedback import ALL_GREEN
from plumbing.storage import write_atomically
from .game import State, Wordle
from .patterns import format_pattern

if TYPE_CHECKING:
    import networkx as nx

FORMATS = (".json", ".graphml")


def build_tree(game: Wordle, state: State, choose: Callable[[State], int]) -> nx.DiGraph:
    """Follow `choose` from `state` through every reply the possible answers can give.

    Args:
        game: the rules.
        state: a Guesser-to-move state; its candidates are the answers the tree covers.
        choose: the player, state -> guess index (it must be legal).

    Returns:
        The DiGraph described in the module docstring; an unsolved answer counts as
        max_guesses + 1 guesses in `total` and `average`.
    """
    import networkx as nx

    graph = nx.DiGraph(hard=state.hard, max_guesses=state.max_guesses)
    solved_in: list[int] = []
    failures = 0
    stack: list[tuple[State, int | None, int, int]] = [(state, None, -1, 0)]
    while stack:
        node_state, parent, code, size = stack.pop()
        node = graph.number_of_nodes()
        if parent is not None:
            graph.add_edge(parent, node, pattern=format_pattern(code), code=code, answers=size)
        number = node_state.guesses_used + 1
        if game.is_terminal(node_state):
            graph.add_node(node, guess="", answers=len(node_state.candidates), number=number, solves=False, failed=True)
            failures += len(node_state.candidates)
            continue
        guess = int(choose(node_state))
        pending = game.result(node_state, guess)
        solves = False
        children = []
        for pattern, answers in game.partition(node_state.candidates, guess):
            if pattern == ALL_GREEN:
                solves = True
                solved_in.append(number)
            else:
                children.append((game.result(pending, pattern), node, pattern, len(answers)))
        graph.add_node(node, guess=game.words.guesses[guess], answers=len(node_state.candidates), number=number,
                       solves=solves, failed=False)
        stack.extend(reversed(children))
    covered = len(state.candidates)
    total = sum(solved_in) + failures * (state.max_guesses + 1)
    graph.graph.update(answers=covered, total=total, average=total / covered,
                       worst=max(solved_in + [state.max_guesses + 1] * bool(failures), default=0), failures=failures)
    return graph


def write_tree(graph: nx.DiGraph, path: str | Path) -> Path:
    """Write the tree as node-link JSON (.json) or GraphML (.graphml), replacing the file whole.

    Raises:
        UserError: another extension, or a path that cannot be written (one-line message).
    """
    import networkx as nx

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise UserError(f"{path}: the tree file must end in {' or '.join(FORMATS)}")
    if not path.parent.is_dir():
        raise UserError(f"{path}: the folder {path.parent} does not exist")
    if suffix == ".json":
        text = json.dumps(nx.node_link_data(graph, edges="edges"))
    else:
        text = "\n".join(nx.generate_graphml(graph))
    try:
        write_atomically(path, text)
    except OSError as error:
        raise UserError(f"{path}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    return path
