"""`tournament`: every Guesser on every answer in both modes (or the Indicator matrix), with its report."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console

from agents import agent_names, all_params, default_agents
from agents.base import DEFAULT_DEALT_GAMES
from agents.indicators import indicator_names
from agents.params import flag
from plumbing.errors import UserError
from plumbing.storage import read_text_file
from variants import AnyGame

from .games import load_game, load_spec_game
from .options import (
    EXIT_INTERRUPTED,
    MOST_GUESSES,
    MOST_JOBS,
    MOST_SAMPLE,
    add_agent_options,
    add_game_options,
    add_seed_option,
    add_shape_options,
    agent_options,
    canonical_command,
    game_spec,
    path_text,
    whole,
)
from .render import matrix_progress, plain_console


def command_tournament(args: argparse.Namespace, console: Console) -> int:
    """Play the tournament of the game the options describe into its run folder, show the tables and the verdict."""
    from tournament import default_folder, make_plan
    from tournament.plan import check_request
    from tournament.report import comparison_table, histogram_table, results_table
    from tournament.runner import holds_run

    described = game_spec(args)
    if args.indicators is not None:
        if not described.is_wordle:
            raise UserError(f"--indicators plays the Guesser x Indicator matrix of one honest board of five-letter "
                            f"words, not {described.name}")
        args.mode = args.mode or "both"
        return command_indicator_matrix(args, console)
    if given := [option for option, value in (("--games", args.games), ("--honest", args.honest), ("--cap", args.cap))
                 if value is not None]:
        raise UserError(f"{given[0]} goes with --indicators")
    check_request(described, args.agents, args.mode, agent_options(args))  # refused before the lists are loaded
    rules, game = load_spec_game(described)
    plan = make_plan(rules.words, described, agents=args.agents, mode=args.mode, seed=args.seed,
                     options=agent_options(args), sample=args.sample)
    plan = replace(plan, command_line=tournament_command(plan))
    folder = Path(args.out if args.out is not None else default_folder(plan))
    if args.resume and not holds_run(folder) and not os.path.lexists(Path(folder) / ".lock"):  # a run begun: its own say
        raise UserError(f"{folder} holds no tournament to resume; leave out --resume to start one there")
    outcome = play_tournament(args, console, game, plan, folder, args.resume)
    if outcome is None:
        return EXIT_INTERRUPTED
    console.print(results_table(outcome.summary))
    console.print(histogram_table(outcome.summary))
    if outcome.summary.comparisons:
        console.print(comparison_table(outcome.summary))
    console.print(outcome.summary.verdict, markup=False)
    tournament_epilogue(console, outcome, folder)
    return 0


def play_tournament(args: argparse.Namespace, console: Console, game: AnyGame, plan: Any, folder: str | Path,
                    resume: bool, again: str = "run the same command with --resume to continue") -> Any:
    """Run a tournament's plan into `folder` with progress bars; its outcome, or None after Ctrl-C (said on stderr, with `again`)."""
    from tournament import run_tournament
    from tournament.report import ProgressDisplay

    display = ProgressDisplay(console)
    typed = sys.argv and (sys.argv[0].endswith("cli.py") or sys.argv[0].endswith("wordle-arena"))
    argv = ["python cli.py" if sys.argv[0].endswith("cli.py") else "wordle-arena", *sys.argv[1:]] if typed else None
    try:
        outcome = run_tournament(plan, game, folder, jobs=args.jobs or os.cpu_count(), resume=resume,
                                 argv=argv, on_start=display.start, on_game=display.advance,
                                 on_prepare=lambda agent, mode: console.print(
                                     f"{agent}: preparing for {mode} mode once, before its games (what it keeps on "
                                     f"disk is read back by later runs)", markup=False, soft_wrap=True))
    except KeyboardInterrupt:
        from tournament.runner import holds_run

        display.stop()
        # stopped while an agent still prepared, before the run's first file: there is nothing to resume
        said = (f"interrupted: every finished game is saved in {folder}; {again}" if holds_run(Path(folder)) else
                f"interrupted before the first game: nothing was saved in {folder}; run the same command again"
                f"{' without --resume' if getattr(args, 'resume', False) else ''} to start")
        plain_console(stderr=True).print(said, markup=False, soft_wrap=True)
        return None
    finally:
        display.stop()
    return outcome


def tournament_epilogue(console: Console, outcome: Any, folder: str | Path) -> None:
    """What a tournament run repaired, and how many games it played or found already played."""
    for note in outcome.notes:
        console.print(f"repaired: {note}", markup=False, soft_wrap=True)
    if outcome.played == 0 and outcome.resumed and not outcome.notes:
        console.print(f"All {outcome.resumed} games were already played; nothing was rewritten in {folder}.")
    else:
        console.print(f"{outcome.played} games played, {outcome.resumed} resumed; results in {folder}/ "
                      "(games.csv, timings.csv, summary.json, report.md)")


def command_indicator_matrix(args: argparse.Namespace, console: Console) -> int:
    """tournament --indicators: every Guesser against each Indicator, kept in the run folder."""
    from agents.params import DEPTH
    from tournament import make_plan
    from tournament.indicators import (
        DEFAULT_CAP,
        DEFAULT_GAMES,
        HONEST_FOLDER,
        MATRIX_FILE,
        TABLE_FILE,
        MatrixSettings,
        play_matrix,
    )
    from tournament.plan import parse_agents, parse_modes
    from variants import GameSpec

    names = list(dict.fromkeys(name.strip() for name in args.indicators.split(",") if name.strip()))
    ignored = [flag for flag, given in (("--sample", args.sample is not None), ("--resume", args.resume)) if given]
    if ignored:
        raise UserError(f"--indicators plays every answer against honest and a fixed set of games against the "
                        f"others; it takes no {', '.join(ignored)}")
    if unknown := [name for name in names if name not in indicator_names()]:
        raise UserError(f"unknown indicator '{unknown[0]}'; choose among: {', '.join(indicator_names())}")
    if not names:
        raise UserError(f"--indicators names no Indicator; choose among: {', '.join(indicator_names())}")
    if args.games is not None and "random" not in names:
        raise UserError("--games is the random Indicator's game count; add random to --indicators")
    if args.honest is not None and "honest" not in names:
        raise UserError("--honest names the honest column's tournament; add honest to --indicators")
    if args.cap is not None and args.cap < args.max_guesses:
        raise UserError(f"--cap {args.cap} is below the guess limit ({args.max_guesses}); the cap of the 'unlimited' "
                        "games is at least --max-guesses")
    game = load_game(args)
    options = agent_options(args)
    agents, modes = list(parse_agents(args.agents)), list(parse_modes(args.mode))
    depth = options.get("depth") or DEPTH.default
    folder = Path(args.out) if args.out is not None else Path("results") / f"indicators-depth-{depth}"
    if (folder / MATRIX_FILE).exists():
        raise UserError(f"{folder} already holds a Guesser x Indicator matrix; choose another folder with --out")
    if "honest" in names:
        plan = make_plan(game.words, GameSpec(max_guesses=args.max_guesses, answers=args.answers, guesses=args.guesses),
                         agents=args.agents, mode=args.mode, seed=args.seed, options=options, sample=None)
        plan = replace(plan, command_line=tournament_command(plan))
        honest = Path(args.honest) if args.honest is not None else folder / HONEST_FOLDER
        console.print(f"honest: the ordinary tournament, every answer, in {honest}/ (continued, or used as it is "
                      "when it holds these settings' games)", markup=False, soft_wrap=True)
        outcome = play_tournament(args, console, game, plan, honest, resume=True,
                                  again="run the same command again to continue them")
        if outcome is None:
            return EXIT_INTERRUPTED
        tournament_epilogue(console, outcome, honest)
    settings = MatrixSettings(agents=agents, indicators=names, modes=modes, max_guesses=args.max_guesses,
                              cap=args.cap or DEFAULT_CAP, depth=depth, seed=args.seed,
                              games=(args.games or DEFAULT_GAMES) if "random" in names else 0, settings=options,
                              words={"answers_file": args.answers, "guesses_file": args.guesses},
                              honest_folder=str(honest) if "honest" in names else None)
    argv = " ".join(["python cli.py", *sys.argv[1:]]) if sys.argv and sys.argv[0].endswith("cli.py") else ""
    progress, advance, preparing = matrix_progress(console, len(settings.keys()), "playing",
                                                   shown=bool(settings.keys()))
    try:
        rows = play_matrix(game, settings, folder, argv, jobs=args.jobs or os.cpu_count() or 1, on_games=advance,
                           on_prepare=preparing)
    finally:
        progress.stop()
    for line in read_text_file(folder / TABLE_FILE).splitlines():
        console.print(line, markup=False, soft_wrap=True)
    console.print(f"results in {folder}/ (indicators.json: {len(rows)} games; {TABLE_FILE})", markup=False)
    return 0


def tournament_command(plan: Any) -> str:
    """The canonical command that plays exactly a plan's games (--out and --jobs change no game)."""
    game = plan.game
    return canonical_command(
        "tournament", ("--boards", game.boards if game.boards > 1 else None),
        ("--length", game.length if game.length != 5 else None), ("--indicator", "fibble" if game.lies else None),
        ("--agents", ",".join(plan.agents)), ("--mode", "both" if len(plan.modes) == 2 else plan.modes[0]),
        ("--seed", plan.seed), ("--max-guesses", plan.max_guesses), ("--sample", plan.sample),
        *((flag(name), all_params()[name][0].text(value)) for name, value in plan.options),
        ("--answers", plan.answers_file), ("--guesses", plan.guesses_file))


def add_tournament_command(commands: argparse._SubParsersAction) -> None:
    """`tournament`: every agent on every answer, normal and hard mode, with results files."""
    parser = commands.add_parser(
        "tournament", help="compare the agents on every answer, in normal and hard mode",
        description="Play every agent (or those named) on every answer (or a seeded sample), in normal and/or "
                    "hard mode, on all cores; show a table and a hard-versus-normal verdict, and write games.csv, "
                    "timings.csv, summary.json and report.md to the run folder. Unsolved games count as the guess "
                    "limit plus one in averages.",
    )
    parser.add_argument("--agents", metavar="A,B,...",
                        help=f"comma-separated agents (default: all of {', '.join(default_agents())}; "
                             f"also by name: {', '.join(sorted(set(agent_names()) - set(default_agents())))})")
    parser.add_argument("--indicators", metavar="A,B,...",
                        help=f"play a Guesser x Indicator matrix instead ({', '.join(indicator_names())}): honest is "
                             "the ordinary tournament (every answer, kept in DIR/honest/ or --honest); absurdle and adversary play "
                             "one game per Guesser and mode, within --max-guesses and again capped at --cap guesses "
                             "(Absurdle has no limit of its own); random plays --games seeded games; the adversary "
                             "searches --depth deep (default 2, the search Guessers' default); the table is written "
                             "to DIR/matrix.md (default DIR: results/indicators-depth-D)")
    parser.add_argument("--cap", type=whole(1, MOST_GUESSES), metavar="N",
                        help="with --indicators: the guess cap of the 'unlimited' games (default 20)")
    parser.add_argument("--honest", metavar="DIR",
                        help="with --indicators honest,...: the honest column's tournament folder, used as it is when "
                             "it holds these settings' games, continued otherwise (default: the run folder's honest/)")
    parser.add_argument("--games", type=whole(1, MOST_SAMPLE), metavar="N",
                        help="with --indicators ...,random: seeded games per Guesser and mode against the random "
                             "Indicator, drawn from --seed (default 200)")
    parser.add_argument("--mode", choices=("normal", "hard", "both"), default=None,
                        help="which modes to play (default both; a variant of several boards or fibble: normal)")
    parser.add_argument("--indicator", choices=("honest", "fibble"), default="honest",
                        help="who replies in every game: honest (today's game) or fibble (one lie in every row that "
                             "does not win, 9 guesses); not the Guesser x Indicator matrix of --indicators")
    parser.add_argument("--sample", type=whole(1, MOST_SAMPLE), metavar="N",
                        help="play N answers drawn from --seed instead of all of them (several boards, another "
                             "length or fibble: N games dealt from --seed, one answer a board, default "
                             f"{DEFAULT_DEALT_GAMES})")
    add_seed_option(parser, "run seed: the sample and each game's random choices (default 0)")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), metavar="N",
                        help=f"worker processes (default: the number of CPUs, at most {MOST_JOBS})")
    parser.add_argument("--out", type=path_text, metavar="DIR",
                        help="run folder (default: results/tournament[-OPTION-VALUE...][-sample-N][-seed-S], "
                             "e.g. results/tournament-depth-2)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in the folder, playing only the games it lacks")
    add_game_options(parser)
    add_shape_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_tournament)
