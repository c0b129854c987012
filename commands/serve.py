"""`serve`: the local web page."""

from __future__ import annotations

import argparse
import os
import time

from rich.console import Console

from plumbing.errors import UserError

from .games import game_over, load_game
from .render import plain_console
from .options import MOST_JOBS, MOST_WEB_WORKERS, PLAYER_DEFAULT, add_word_list_options, path_text, player_guesses, whole


def command_serve(args: argparse.Namespace, console: Console) -> int:
    """Serve the web page on host:port until Ctrl-C."""
    try:
        from web.app import create_app, listen, serve
    except ImportError as error:
        raise UserError(f"the web page needs the 'web' extra ({error.name} is missing): pip install -e '.[web]'") from None
    sock = listen(args.host, args.port)  # first, so a taken port is said at once
    player_guesses(args)  # the page plays, assists and reviews today's game unless told
    game = load_game(args)  # the word lists checked before anything is prepared
    prepare(args)
    app = create_app(game, workers=args.workers, host=args.host, guesses=args.guesses,
                     **({"results": args.results} if args.results is not None else {}))
    serve(app, sock, announce=lambda line: console.print(line, markup=False, soft_wrap=True))
    return 0


def prepare(args: argparse.Namespace) -> None:
    """Build or load the default answer model's caches (its pattern matrix, the largest) before any request, so the
    first advice on a cold cache answers instead of running past the request budget; a progress line each side,
    on stderr."""
    from agents.answer_model import DEFAULT_MODEL, load_model

    progress = plain_console(stderr=True)
    progress.print(f"wordle-arena: preparing the {DEFAULT_MODEL} answer model (its pattern matrix: read from the disk "
                   "cache, or built once)...", markup=False, soft_wrap=True)
    started = time.perf_counter()
    model = load_model(DEFAULT_MODEL, guesses=args.guesses, make_game=game_over)
    # one advice, so the solver's compiled code is in its disk cache before a worker needs it
    from agents.assistant import advise_model, parse_step
    advise_model(model, [parse_step(model.game, "crane:--gg-")])
    progress.print(f"wordle-arena: {model.describe()} ready in {time.perf_counter() - started:.1f} s", markup=False,
                   soft_wrap=True)


def add_serve_command(commands: argparse._SubParsersAction) -> None:
    """`serve`: the web page (play, watch an agent, assist, results) on localhost."""
    parser = commands.add_parser(
        "serve", help="serve the web page: play, watch any agent think, assist a real game, see the results",
        description="Serve the web page and its JSON API (documented at /api) until Ctrl-C. It binds to "
                    "127.0.0.1 unless told otherwise; every asset ships in the package.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only); the page answers to "
                             "localhost, 127.0.0.1, [::1] and this name only")
    parser.add_argument("--port", type=whole(0, 65535), default=8000, metavar="N",
                        help="port (default 8000; 0 picks a free one; at most 65535)")
    parser.add_argument("--results", type=path_text, metavar="DIR",
                        help="the tournament run folder the results page shows (default: the published run, the "
                             "project's results/published/tournament-depth-2, wherever the server is started)")
    parser.add_argument("--workers", type=whole(1, MOST_JOBS), default=min(MOST_WEB_WORKERS, os.cpu_count() or 1),
                        metavar="N", help="agents thinking at once, each in a worker process of its own (default: the "
                                          f"number of CPUs, at most {MOST_WEB_WORKERS}; at most {MOST_JOBS})")
    add_word_list_options(parser, guesses_default=PLAYER_DEFAULT)
    parser.set_defaults(handler=command_serve)
