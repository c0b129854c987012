"""Command-line options of the searching agents: depth, evaluation, evaluation mode, threshold, beam, weights, node budget.

The evaluation mode is --eval-mode; commands other than the tournament (whose --mode
picks normal or hard games) also accept it as --mode.

Each parse function turns the flag's text into a value or raises ValueError with a
message the command line prints as one line.
"""

from __future__ import annotations

from heuristics.evaluation import DEFAULT_THRESHOLD, DEFAULT_WEIGHTS, EVALUATIONS, MODES, check_weights

from .registry import Option, add_option, whole_number

DEFAULT_DEPTH = 2
DEFAULT_EVAL = "cost"
DEFAULT_MODE = "local"
DEFAULT_BEAM = 10
DEFAULT_POOL = 300


def parse_depth(text: str) -> int:
    """Search depth in Guesser moves, at least 1."""
    return whole_number(text, "--depth", 1)


def parse_beam(text: str) -> int:
    """Beam width, at least 1."""
    return whole_number(text, "--beam", 1)


def parse_threshold(text: str) -> int:
    """Indication threshold, at least 1."""
    return whole_number(text, "--threshold", 1)


def parse_nodes(text: str) -> int:
    """Node budget, at least 1."""
    return whole_number(text, "--nodes", 1)


def parse_pool(text: str) -> int:
    """Pool size, at least 1."""
    return whole_number(text, "--pool", 1)


def parse_eval(text: str) -> str:
    """An evaluation name from heuristics.evaluation.EVALUATIONS."""
    name = text.strip().lower()
    if name not in EVALUATIONS:
        raise ValueError(f"unknown evaluation '{text}'; choose one of {', '.join(EVALUATIONS)}")
    return name


def parse_mode(text: str) -> str:
    """local, constant or zero."""
    mode = text.strip().lower()
    if mode not in MODES:
        raise ValueError(f"unknown evaluation mode '{text}'; choose one of {', '.join(MODES)}")
    return mode


def parse_weights(text: str) -> tuple[float, float, float, float]:
    """Four comma-separated weights: entropy, greens, yellows, greys."""
    try:
        numbers = [float(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"--weights takes four comma-separated numbers such as 0.6,0.2,0.15,0.05, got '{text}'") from None
    return check_weights(numbers)


add_option(Option("depth", parse_depth, metavar="N",
                  help=f"search agents: look-ahead in Guesser moves (default {DEFAULT_DEPTH}; decision-tree 1)"))
add_option(Option("eval", parse_eval, metavar="|".join(EVALUATIONS),
                  help=f"search agents: the evaluation at the horizon (default {DEFAULT_EVAL})"))
add_option(Option("eval_mode", parse_mode, metavar="|".join(MODES), alias="--mode",
                  help=f"search agents: evaluate on the answers left (local), on the full lists (constant) or not at all (zero: random tie-break) (default {DEFAULT_MODE})"))
add_option(Option("threshold", parse_threshold, metavar="N",
                  help=f"search agents: above this many distinct replies the constant evaluation stands in for the local one (default {DEFAULT_THRESHOLD})"))
add_option(Option("beam", parse_beam, metavar="N",
                  help=f"search agents: guesses expanded at each Guesser node (default {DEFAULT_BEAM})"))
add_option(Option("weights", parse_weights, metavar="E,G,Y,R",
                  help="search agents, --eval weighted: weights of entropy, greens, yellows, greys (default "
                       + ",".join(f"{w:g}" for w in DEFAULT_WEIGHTS) + ")"))
add_option(Option("nodes", parse_nodes, metavar="N",
                  help="search agents: node budget per decision; past it, nodes are valued as at the horizon (default: none)"))
add_option(Option("pool", parse_pool, metavar="N",
                  help=f"search agents: below the root, value the answers left plus this many guesses best on the full lists (default {DEFAULT_POOL})"))

#: The options every searching agent takes.
SEARCH_OPTIONS = ("depth", "eval", "eval_mode", "threshold", "beam", "weights", "nodes", "pool")
