"""`serve`: the local web page."""

from __future__ import annotations

import argparse
import os

from rich.console import Console

from plumbing.errors import UserError

from .games import load_game
from .options import MOST_JOBS, MOST_WEB_WORKERS, add_word_list_options, path_text, whole


def command_serve(args: argparse.Namespace, console: Console) -> int:
    """Serve the web page on host:port until Ctrl-C."""
    try:
        from web.app import create_app, listen, serve
    except ImportError as error:
        raise UserError(f"the web page needs the 'web' extra ({error.name} is missing): pip install -e '.[web]'") from None
    sock = listen(args.host, args.port)  # first, so a taken port is said at once
    app = create_app(load_game(args), workers=args.workers, host=args.host,
                     **({"results": args.results} if args.results is not None else {}))
    serve(app, sock, announce=lambda line: console.print(line, markup=False, soft_wrap=True))
    return 0


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
    add_word_list_options(parser)
    parser.set_defaults(handler=command_serve)
