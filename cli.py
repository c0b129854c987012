"""wordle-arena's command line: argument parsing and rich rendering; the library returns data.

Every command reports bad input (a word, a pattern, a file, a flag) as one line on
stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
import warnings
from contextlib import contextmanager
from typing import Any, Iterator

from rich.console import Console

from agents.params import flag
from agents.registry import ForeignParameters
from commands.absurdle import add_absurdle_command
from commands.assist import add_assist_command
from commands.openers import add_openers_command
from commands.options import EXIT_BUG, EXIT_INTERRUPTED, EXIT_USAGE, ArgumentParser
from commands.play import add_play_command
from commands.render import PIPED_WIDTH, plain_console
from commands.review import add_review_command
from commands.serve import add_serve_command
from commands.solve import add_solve_command
from commands.tournament import add_tournament_command
from commands.train import add_train_command
from commands.tree import add_tree_command
from commands.verify import add_verify_command
from plumbing.errors import UserError, clip
from wordle import IllegalMove


def build_parser() -> ArgumentParser:
    """The full command line."""
    parser = ArgumentParser(prog="wordle-arena", description="Adversarial game search for Wordle.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    add_play_command(commands)
    add_tournament_command(commands)
    add_verify_command(commands)
    add_tree_command(commands)
    add_assist_command(commands)
    add_review_command(commands)
    add_openers_command(commands)
    add_solve_command(commands)
    add_train_command(commands)
    add_serve_command(commands)
    add_absurdle_command(commands)
    return parser


#: What the system can refuse a command for any path or write, with what to do about it: said in one line, exit 2.
SYSTEM_REFUSALS = {
    errno.ENOSPC: "the disk is full; free some space and run the command again (a tournament goes on with --resume, "
                  "every finished game kept)",
    errno.EDQUOT: "the disk quota is used up; free some space and run the command again (a tournament goes on with "
                  "--resume)",
    errno.EFBIG: "the file grew past what this file system allows",
    errno.ENAMETOOLONG: "the path is too long for this system; choose a shorter one",
    errno.EROFS: "the file system is read-only; choose a folder you can write",
    errno.EACCES: "permission denied; choose a file or folder you can use",
    errno.EPERM: "not permitted; choose a file or folder you can use",
    errno.ENOTDIR: "part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder where a file belongs",
    errno.ELOOP: "the path loops through symbolic links",
}


def system_refusal(error: OSError) -> str:
    """An OSError of SYSTEM_REFUSALS as one line: the path (cut short), then what happened and what to do."""
    where = clip(str(error.filename), 80) + ": " if error.filename is not None else ""
    return f"{where}{SYSTEM_REFUSALS[error.errno]}"


def show_warning(message: Warning | str, *_: Any) -> None:
    """A library warning (a cache that cannot be kept, ...) as one line on stderr."""
    sys.stderr.write(f"wordle-arena: warning: {message}\n")


def tolerate_encodings() -> None:
    """Let stdout and stderr print any character: one their encoding lacks (PYTHONIOENCODING=ascii) shows as '?'."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "\u2588\U0001f7e9\u2014".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="replace")


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Handle SIGTERM as Ctrl-C while inside: a command stops the same way, its workers stopped and its work saved."""
    def interrupt(signum: int, frame: Any) -> None:
        """Raise KeyboardInterrupt in the main thread."""
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input is one line on stderr and exit 2, Ctrl-C (or SIGTERM) exits 130."""
    tolerate_encodings()
    args = build_parser().parse_args(argv)
    warnings.showwarning = show_warning
    console = plain_console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH  # a pipe or a log file has no width; keep tables whole
    try:
        with sigterm_as_ctrl_c():
            return int(args.handler(args, console) or 0)
    except UserError as error:
        message = error.say(flag) if isinstance(error, ForeignParameters) else str(error)
        plain_console(stderr=True).print(f"wordle-arena: error: {clip(message)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except OSError as error:
        if error.errno not in SYSTEM_REFUSALS:
            raise
        plain_console(stderr=True).print(f"wordle-arena: error: {system_refusal(error)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except IllegalMove as error:  # a player broke the rules: a bug, not the user's input
        Console(stderr=True, highlight=False).print(
            f"wordle-arena: internal error: a player made an illegal move ({error}); this is a bug, please report it",
            markup=False, soft_wrap=True)
        return EXIT_BUG
    except KeyboardInterrupt:
        plain_console(stderr=True).print("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
