"""wordle-arena's command line: argument parsing and rich rendering; the library returns data.

Every command reports bad input (a word, a pattern, a file, a flag) as one line on
stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import codecs
import errno
import importlib
import os
import sys
import warnings
from typing import Any

from rich.console import Console

from agents.params import flag
from agents.registry import ForeignParameters
from commands.options import COMMANDS, EXIT_BUG, EXIT_INTERRUPTED, EXIT_USAGE, ArgumentParser
from commands.render import PIPED_WIDTH, plain_console
from plumbing.errors import UserError, clip
from plumbing.stops import Stops
from wordle import IllegalMove

#: Exit status when the command's output could not be written.
EXIT_WRITE = 1


def build_parser(argv: list[str] | None = None) -> ArgumentParser:
    """The command line: every command's parser, or, when `argv` names a command, that one's alone in full.

    A command's module (and what it imports) is loaded only to build its parser, so a command
    starts without the others' imports; the rest are named, so `--help` and a wrong name still list them.
    """
    parser = ArgumentParser(prog="wordle-arena", description="Adversarial game search for Wordle.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    chosen = argv[0] if argv and argv[0] in COMMANDS else None
    for name in COMMANDS:
        if chosen is None or name == chosen:
            getattr(importlib.import_module(f"commands.{name}"), f"add_{name}_command")(commands)
        else:
            commands.add_parser(name)
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


#: How a character an output encoding lacks is spelled; the marks of a value (bound, estimate) keep their meaning.
SPELLED = {"\u2264": "<=", "\u2265": ">=", "\u2248": "~", "\u2014": "-", "\u2013": "-", "\u2026": "...",
           "\u00d7": "x", "\u2212": "-", "\u2192": "->", "\u00b7": "."}


def spell_unencodable(error: UnicodeError) -> tuple[str, int]:
    """codecs error handler: the characters an encoding lacks spelled by SPELLED, any other as '?'."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(SPELLED.get(char, "?") for char in error.object[error.start:error.end]), error.end


codecs.register_error("wordle-arena-spell", spell_unencodable)


def tolerate_encodings() -> None:
    """Let stdout and stderr print any character: one their encoding lacks (PYTHONIOENCODING=ascii) is spelled
    ('<=', '>=', '~' for the marks ≤, ≥, ≈) or shown as '?'."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "\u2588\U0001f7e9\u2014\u2264\u2265\u2248".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors="wordle-arena-spell")


def flush_stdout() -> str | None:
    """Flush standard output; why it cannot be written (closed, full, a closed pipe), or None."""
    if sys.stdout is None:  # fd 1 was closed when Python started
        return "standard output is closed; give the command somewhere to write (e.g. > out.txt)"
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as error:
        sys.stdout = open(os.devnull, "w")  # nothing more to flush at exit
        return f"cannot write to standard output ({getattr(error, 'strerror', None) or error})"
    return None


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input is one line on stderr and exit 2, Ctrl-C (or SIGTERM) exits 130."""
    tolerate_encodings()
    if sys.stdout is None:
        sys.stderr.write(f"wordle-arena: error: {flush_stdout()}\n")
        return EXIT_USAGE
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    warnings.showwarning = show_warning
    console = plain_console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH  # a pipe or a log file has no width; keep tables whole
    stops = Stops()  # SIGTERM stops a command as Ctrl-C does (its workers stopped, its work saved); none is lost
    try:
        with stops:
            code = int(args.handler(args, console) or 0)
        if (problem := flush_stdout()) is not None:
            plain_console(stderr=True).print(f"wordle-arena: error: {problem}", markup=False, soft_wrap=True)
            return code or EXIT_WRITE
        return code
    except UserError as error:
        message = error.say(flag) if isinstance(error, ForeignParameters) else str(error)
        plain_console(stderr=True).print(f"wordle-arena: error: {clip(message)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except OSError as error:
        if error.errno not in SYSTEM_REFUSALS:
            if stops.asked:
                return interrupted()
            raise
        plain_console(stderr=True).print(f"wordle-arena: error: {system_refusal(error)}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except IllegalMove as error:  # a player broke the rules: a bug, not the user's input
        Console(stderr=True, highlight=False).print(
            f"wordle-arena: internal error: a player made an illegal move ({error}); this is a bug, please report it",
            markup=False, soft_wrap=True)
        return EXIT_BUG
    except KeyboardInterrupt:
        return interrupted()
    except Exception:
        if stops.asked:  # raised by what the stop interrupted (a module half initialised, a compiler half done)
            return interrupted()
        raise


def interrupted() -> int:
    """Say the command was stopped (Ctrl-C or SIGTERM); its exit status."""
    plain_console(stderr=True).print("interrupted")
    return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
