"""`tree`: an agent's whole decision tree, exported as JSON, DOT or GraphML."""

from __future__ import annotations

import argparse

from rich.console import Console

from agents import agent_names, make_agent
from agents.base import state_rng
from plumbing.errors import UserError
from plumbing.storage import prepare_output
from wordle import State
from wordle.tree import FORMATS as TREE_FORMATS
from wordle.tree import build_tree, write_tree

from .games import load_game
from .options import add_agent_options, add_game_options, add_seed_option, agent_options, path_text
from .render import waiting, worst_text


def command_tree(args: argparse.Namespace, console: Console) -> int:
    """Build an agent's whole decision tree over every answer and write it as JSON or GraphML."""
    if (args.boards or 1) != 1 or (args.length or 5) != 5:
        raise UserError("tree follows every answer of one five-letter board; the variants' games are played by "
                        "'play' and 'tournament' (a tree over K boards' answer combinations is not built)")
    game = load_game(args)
    agent = make_agent(args.agent, game, **agent_options(args))

    def choose(state: State) -> int:
        return agent.decide(state, state_rng(args.seed, state)).guess

    prepare_output(args.out, TREE_FORMATS, make_folder=False)
    with waiting(f"{args.agent}: following every reply over {len(game.words.answers)} answers"):
        graph = build_tree(game, game.initial_state(hard=args.hard, max_guesses=args.max_guesses), choose)
    path = write_tree(graph, args.out)
    info = graph.graph
    console.print(f"{args.agent} ({'hard' if args.hard else 'normal'} mode): {graph.number_of_nodes()} states, "
                  f"{info['answers']} answers, average {info['average']:.4f} guesses (total {info['total']}), "
                  f"worst {worst_text(info['worst'], args.max_guesses)}, failures {info['failures']}; wrote {path}")
    return 0


def add_tree_command(commands: argparse._SubParsersAction) -> None:
    """`tree`: an agent's decision tree over every answer, as a file."""
    parser = commands.add_parser(
        "tree", help="write an agent's whole decision tree (JSON node-link or GraphML)",
        description="Follow an agent through every reply the answers can give and write the tree: nodes are states "
                    "(guess, answers left), edges are patterns. The state's random choices are seeded from --seed "
                    "and the state's history.",
    )
    parser.add_argument("--agent", choices=agent_names(), metavar="NAME", default="decision-tree",
                        help=f"the Guesser: {', '.join(agent_names())} (default decision-tree)")
    parser.add_argument("--out", type=path_text, required=True, metavar="FILE.json|FILE.graphml",
                        help="where to write the tree (its folder must exist; the schema is in docs/commands.md)")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    add_seed_option(parser, "seed for random choices (default 0)")
    add_game_options(parser)
    add_agent_options(parser)
    for name in ("--boards", "--length"):  # accepted only to be refused in one line: not in --help
        parser.add_argument(name, type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=command_tree)
