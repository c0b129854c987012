"""wordle-arena's command line: argument parsing and rich rendering; the library returns data.

Every command reports bad input (a word, a pattern, a file, a flag) as one line on
stderr with a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from agents import OPTIONS, Decision, agent_names, game_rng, make_agent
from agents.assistant import advice_data, advise, advise_steps, parse_step
from agents.two_step import rank_openers
from search import Playthrough, State, Turn, UserError, Wordle, decode_colours, format_pattern, load_matrix, load_words
from search.files import prepare_output, write_atomically
from search.tree import FORMATS as TREE_FORMATS, build_tree, write_tree

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: Output width when stdout is not a terminal (rich would otherwise assume 80 and squeeze tables).
PIPED_WIDTH = 160
TILE_STYLES = {2: "bold white on #538d4e", 1: "bold white on #b59f3b", 0: "bold white on #3a3a3c"}


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad flag or value in one line, not usage plus message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print `prog: error: message` and exit 2."""
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


# -- shared options ------------------------------------------------------------------
def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' must be at least 1")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must not be negative")
    return value


def add_word_list_options(parser: argparse.ArgumentParser) -> None:
    """--answers and --guesses: other word lists than the shipped official ones."""
    parser.add_argument("--answers", metavar="FILE", help="answer list, one word a line (default: the 2315 official answers)")
    parser.add_argument("--guesses", metavar="FILE", help="allowed-guess list (default: the 12972 official guesses)")


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """--max-guesses and the word lists: the rules a game is played under."""
    parser.add_argument("--max-guesses", type=positive_int, default=6, metavar="N", help="guess limit (default 6)")
    add_word_list_options(parser)


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    """One flag per option any registered agent declares; each agent says which it takes."""
    for option in OPTIONS.values():
        def convert(text: str, option=option) -> Any:
            try:
                return option.parse(text)
            except ValueError as error:
                raise argparse.ArgumentTypeError(str(error)) from None
        settings = dict(dest=option.name, type=convert, default=None, metavar=option.metavar, help=option.help)
        try:
            parser.add_argument(option.flag, *([option.alias] if option.alias else []), **settings)
        except argparse.ArgumentError:  # the command has its own flag of the alias's name
            parser.add_argument(option.flag, **settings)


def agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """The agent options given on the command line (unset ones are None)."""
    return {name: getattr(args, name, None) for name in OPTIONS}


def load_game(args: argparse.Namespace) -> Wordle:
    """The game over the chosen word lists, with its pattern matrix from the disk cache."""
    words = load_words(answers=getattr(args, "answers", None), guesses=getattr(args, "guesses", None))
    return Wordle(words, load_matrix(words))


# -- rendering -----------------------------------------------------------------------
def tiles(word: str, pattern: int) -> Text:
    """A guess as coloured tiles."""
    text = Text()
    for letter, colour in zip(word.upper(), decode_colours(pattern)):
        text.append(f" {letter} ", style=TILE_STYLES[colour])
        text.append(" ")
    return text


def trace_table(game: Wordle, turns: list[Turn], decisions: list[Decision] | None = None) -> Table:
    """One row per guess: tiles, answers left, bits gained and, for searching agents, the alternatives weighed."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("guess")
    table.add_column("left", justify="right")
    table.add_column("bits", justify="right")
    show_search = bool(decisions) and any(d.alternatives or d.nodes for d in decisions)
    if show_search:
        table.add_column("value", justify="right")
        table.add_column("top alternatives (value)")
        table.add_column("nodes", justify="right")
    for number, turn in enumerate(turns, start=1):
        row: list[Any] = [str(number), tiles(game.words.guesses[turn.guess], turn.pattern),
                          str(turn.remaining_after), f"{turn.bits:.2f}"]
        if show_search and decisions is not None:
            decision = decisions[number - 1]
            row.append("" if decision.value is None else f"{decision.value:.3f}")
            row.append(", ".join(f"{game.words.guesses[g]} {v:.3f}" for g, v in decision.alternatives[:4]))
            row.append(str(decision.nodes) if decision.nodes else "")
        table.add_row(*row)
    return table


def outcome_line(game: Wordle, playthrough: Playthrough, max_guesses: int) -> Text:
    """How the game ended, in one line."""
    answer = game.words.answers[playthrough.answer].upper()
    used = len(playthrough.turns)
    if playthrough.solved:
        return Text(f"Solved {answer} in {used}/{max_guesses}.", style="bold green")
    return Text(f"Not solved in {max_guesses} guesses: the answer was {answer}.", style="bold red")


# -- play ----------------------------------------------------------------------------
def pick_answer(game: Wordle, word: str | None, seed: int) -> int:
    """The answer column: the word given, or a seeded random answer."""
    if word is not None:
        return game.words.answer_id(word)
    return int(np.random.default_rng(seed).integers(len(game.words.answers)))


def command_play(args: argparse.Namespace, console: Console) -> int:
    """Play one game: an agent's trace, or a person at the terminal when no agent is named."""
    game = load_game(args)
    answer = pick_answer(game, args.answer, args.seed)
    if args.agent is None:
        return play_person(game, answer, args, console)
    agent = make_agent(args.agent, game, **agent_options(args))
    rng = game_rng(args.seed, answer)
    decisions: list[Decision] = []

    def choose(state: State) -> int:
        decisions.append(agent.decide(state, rng))
        return decisions[-1].guess

    mode = "hard" if args.hard else "normal"
    console.print(Text(f"{args.agent} playing {game.words.answers[answer].upper()} ({mode} mode, seed {args.seed})", style="bold"))
    playthrough = game.play(choose, answer, hard=args.hard, max_guesses=args.max_guesses)
    console.print(trace_table(game, list(playthrough.turns), decisions))
    console.print(outcome_line(game, playthrough, args.max_guesses))
    return 0 if playthrough.solved else 1


def play_person(game: Wordle, answer: int, args: argparse.Namespace, console: Console) -> int:
    """A person guesses at the prompt; unknown words and hard-mode breaches are refused with the reason."""
    state = game.initial_state(hard=args.hard, max_guesses=args.max_guesses)
    turns: list[Turn] = []
    mode = "hard mode" if args.hard else "normal mode"
    console.print(f"Guess the word in {args.max_guesses} tries ({mode}). End with Ctrl-D.")
    while not game.is_terminal(state):
        try:
            word = console.input(f"guess {state.guesses_used + 1}/{state.max_guesses}> ").strip().lower()
        except EOFError:
            console.print(f"\nGame abandoned; the answer was {game.words.answers[answer].upper()}.")
            return 1
        if word not in game.words.guess_index:
            console.print(Text(f"'{word}' is not in the list of allowed guesses", style="yellow"))
            continue
        guess = game.words.guess_index[word]
        if (broken := game.violation(state, guess)) is not None:
            console.print(Text(f"hard mode: {broken}", style="yellow"))
            continue
        before = len(state.candidates)
        state = game.step(state, guess, game.reply(guess, answer))
        turns.append(Turn(guess, state.history[-1][1], before, len(state.candidates)))
        console.print(trace_table(game, turns))
    playthrough = Playthrough(answer=answer, turns=tuple(turns), solved=state.solved, final=state)
    console.print(outcome_line(game, playthrough, args.max_guesses))
    return 0 if playthrough.solved else 1


def add_play_command(commands: argparse._SubParsersAction) -> None:
    """`play`: one game, by an agent or by a person."""
    parser = commands.add_parser(
        "play", help="play one game: an agent's trace, or you at the prompt",
        description="Play one game. With --agent, show that agent's game as a trace; without it, you guess at the prompt.",
    )
    parser.add_argument("--agent", choices=agent_names(), metavar="NAME",
                        help=f"the Guesser: {', '.join(agent_names())} (default: you play)")
    parser.add_argument("--answer", metavar="WORD", help="the hidden word (default: a seeded random answer)")
    parser.add_argument("--hard", action="store_true", help="hard mode: revealed hints must be used in every later guess")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed for the answer pick and the agent's random choices (default 0)")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_play)


# -- tournament and verify -------------------------------------------------------------
def command_tournament(args: argparse.Namespace, console: Console) -> int:
    """Play the tournament into its run folder, show the tables and the verdict."""
    from tournament import default_folder, make_plan, run_tournament
    from tournament.report import ProgressDisplay, comparison_table, results_table

    game = load_game(args)
    plan = make_plan(game, agents=args.agents, mode=args.mode, seed=args.seed, options=agent_options(args),
                     sample=args.sample, max_guesses=args.max_guesses, answers_file=args.answers,
                     guesses_file=args.guesses)
    folder = args.out if args.out is not None else default_folder(plan)
    display = ProgressDisplay(console)
    typed = sys.argv and (sys.argv[0].endswith("cli.py") or sys.argv[0].endswith("wordle-arena"))
    argv = ["python cli.py" if sys.argv[0].endswith("cli.py") else "wordle-arena", *sys.argv[1:]] if typed else None
    try:
        outcome = run_tournament(plan, game, folder, jobs=args.jobs or os.cpu_count(), resume=args.resume,
                                 argv=argv, on_start=display.start, on_game=display.advance)
    except KeyboardInterrupt:
        display.stop()
        Console(stderr=True, highlight=False).print(
            f"interrupted: every finished game is saved in {folder}; run the same command with --resume to continue",
            markup=False, soft_wrap=True)
        return EXIT_INTERRUPTED
    finally:
        display.stop()
    console.print(results_table(outcome.summary))
    if outcome.summary.comparisons:
        console.print(comparison_table(outcome.summary))
    console.print(outcome.summary.verdict, markup=False)
    if outcome.played == 0 and outcome.resumed:
        console.print(f"All {outcome.resumed} games were already played; nothing was rewritten in {folder}.")
    else:
        console.print(f"{outcome.played} games played, {outcome.resumed} resumed; results in {folder}/ "
                      "(games.csv, timings.csv, summary.json, report.md)")
    return 0


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
                        help=f"comma-separated agents (default: all of {', '.join(agent_names())})")
    parser.add_argument("--mode", choices=("normal", "hard", "both"), default="both",
                        help="which modes to play (default both)")
    parser.add_argument("--sample", type=positive_int, metavar="N",
                        help="play N answers drawn from --seed instead of all of them")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="run seed: the sample and each game's random choices (default 0)")
    parser.add_argument("--jobs", type=positive_int, metavar="N",
                        help="worker processes (default: the number of CPUs)")
    parser.add_argument("--out", metavar="DIR",
                        help="run folder (default: results/tournament[-OPTION-VALUE...][-sample-N][-seed-S], "
                             "e.g. results/tournament-depth-2)")
    parser.add_argument("--resume", action="store_true",
                        help="continue the run in the folder, playing only the games it lacks")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_tournament)


def command_verify(args: argparse.Namespace, console: Console) -> int:
    """Replay a run folder through the rules; exit 1 with one line per problem on any mismatch."""
    from tournament import verify_folder

    result = verify_folder(args.folder, answers=args.answers, guesses=args.guesses, limit=args.limit)
    if result.ok:
        console.print(f"{args.folder}: all {result.games} games follow the rules and the summary agrees with them",
                      markup=False, soft_wrap=True)
        return 0
    errors = Console(stderr=True, highlight=False)
    for problem in result.problems:
        errors.print(f"wordle-arena: verify: {problem}", markup=False, soft_wrap=True)
    errors.print(f"wordle-arena: verify: {args.folder} FAILED ({len(result.problems)} problems shown, "
                 f"at most {args.limit})", markup=False, soft_wrap=True)
    return 1


def add_verify_command(commands: argparse._SubParsersAction) -> None:
    """`verify`: re-check a tournament's run folder."""
    parser = commands.add_parser(
        "verify", help="replay a tournament's results through the rules and re-derive its summary",
        description="Replay every recorded game (allowed words, reference patterns, hard-mode legality, solved "
                    "flag, guess limit), check the word-list checksum, and recompute the summary from the "
                    "per-game lines. Exits 1 with one line per problem on any mismatch.",
    )
    parser.add_argument("folder", metavar="DIR", help="the run folder, e.g. results/tournament-depth-2")
    parser.add_argument("--limit", type=positive_int, default=20, metavar="N", help="report at most N problems (default 20)")
    add_word_list_options(parser)
    parser.set_defaults(handler=command_verify)


# -- assist --------------------------------------------------------------------------
def advice_view(game: Wordle, advice: Any) -> list[Any]:
    """What the assistant shows after each step: the counts, the bits, and the suggestions table."""
    parts: list[Any] = []
    if advice.steps:
        parts.append(trace_table(game, list(advice.steps)))
    if advice.solved:
        parts.append(Text(f"Solved in {len(advice.steps)}.", style="bold green"))
        return parts
    summary = f"{advice.remaining} possible answer{'s' if advice.remaining != 1 else ''} ({advice.bits_left:.2f} bits)"
    if advice.last_bits is not None:
        summary += f"; the last guess gained {advice.last_bits:.2f} bits"
    parts.append(Text(summary, style="bold"))
    if advice.remaining <= 12:
        parts.append(Text("possible: " + " ".join(game.words.answers[a] for a in advice.state.candidates)))
    if not advice.suggestions:
        parts.append(Text(f"No guesses left: the game allows {advice.state.max_guesses}.", style="bold red"))
        return parts
    table = Table(title=f"suggestions ({advice.agent}{', hard mode' if advice.state.hard else ''})",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("guess")
    table.add_column("bits", justify="right")
    table.add_column("chance", justify="right")
    table.add_column(f"{advice.agent} score", justify="right")
    for number, suggestion in enumerate(advice.suggestions, start=1):
        table.add_row(str(number), game.words.guesses[suggestion.guess], f"{suggestion.information:.3f}",
                      f"{suggestion.chance:.1%}", "" if suggestion.score is None else f"{suggestion.score:.3f}")
    parts.append(table)
    return parts


def command_assist(args: argparse.Namespace, console: Console) -> int:
    """Advise on a real game: once for the steps given, or step by step at the prompt."""
    game = load_game(args)
    agent = make_agent(args.agent, game, **agent_options(args))
    settings = dict(hard=args.hard, top=args.top, seed=args.seed, max_guesses=args.max_guesses)
    if args.steps or args.json:
        advice = advise(game, agent, args.steps, **settings)
        if args.json:
            console.print_json(json.dumps(advice_data(game, advice)))
        else:
            for part in advice_view(game, advice):
                console.print(part)
        return 0
    steps: list[tuple[int, int]] = []
    console.print("Type each guess and the colours the game showed, e.g. 'tares -y--g' "
                  "(g green, y yellow, - grey); 'undo' takes the last one back; end with Ctrl-D.")
    for part in advice_view(game, advise_steps(game, agent, steps, **settings)):
        console.print(part)
    while True:
        try:
            line = console.input(f"step {len(steps) + 1}> ").strip()
        except EOFError:
            console.print()
            return 0
        if not line:
            continue
        if line.lower() == "undo":
            steps = steps[:-1]
            advice = advise_steps(game, agent, steps, **settings)
        else:
            try:
                attempt = steps + [parse_step(game, line)]
                advice = advise_steps(game, agent, attempt, **settings)
            except UserError as error:
                console.print(Text(str(error), style="yellow"))
                continue
            steps = attempt
        for part in advice_view(game, advice):
            console.print(part)


def add_assist_command(commands: argparse._SubParsersAction) -> None:
    """`assist`: advice for a game played elsewhere, from its guesses and colours."""
    parser = commands.add_parser(
        "assist", help="advice for a real game: type your guesses and the colours you saw",
        description="Advice for a game played elsewhere. Give the steps as WORD:PATTERN (e.g. tares:-y--g) to "
                    "print the advice once, or none to type them one by one at the prompt.",
    )
    parser.add_argument("steps", nargs="*", metavar="WORD:PATTERN",
                        help="guesses with the colours shown: letters (g y -), digits (2 1 0) or emoji squares")
    parser.add_argument("--agent", choices=agent_names(), default="entropy", metavar="NAME",
                        help=f"who advises: {', '.join(agent_names())} (default entropy)")
    parser.add_argument("--hard", action="store_true", help="hard mode: typed guesses are checked, suggestions are legal")
    parser.add_argument("--top", type=positive_int, default=10, metavar="N",
                        help="suggestions to show, at most as many as the agent ranks (default 10)")
    parser.add_argument("--json", action="store_true", help="print the advice once as JSON")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed for the agent's random choices (default 0)")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_assist)


# -- openers -------------------------------------------------------------------------
def openers_command(args: argparse.Namespace) -> str:
    """The command line that reproduces an openers run, written out from its arguments."""
    words = []
    for flag, value in (("--answers", args.answers), ("--guesses", args.guesses), ("--out", args.out)):
        if value is not None:
            words += [flag, str(value)]
    return " ".join(["python cli.py openers", f"--top {args.top}", *(["--hard"] if args.hard else []),
                     f"--max-guesses {args.max_guesses}", *words])


def command_exact_openers(args: argparse.Namespace, console: Console) -> int:
    """Prove each opener's optimal total (locally or on Dask), saving each as it finishes; show the ranking."""
    from tournament.exact_openers import ranked_openers, run_job

    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    ranked = ranked_openers(game, args.hard, args.max_guesses)
    openers = ranked if args.all else ranked[:args.top or 20]
    scope = "all" if args.all else f"top{len(openers)}"
    out = prepare_output(args.out or Path("results") / f"openers-exact-{mode}-{scope}.jsonl")
    engine = "dask" if args.scheduler or args.cluster else "local"
    jobs = args.cluster or args.jobs or os.cpu_count() or 1
    command = " ".join(["python cli.py openers --exact", "--all" if args.all else f"--top {len(openers)}",
                        *(["--hard"] if args.hard else []), f"--max-guesses {args.max_guesses}",
                        *([f"--scheduler {args.scheduler}"] if args.scheduler else []),
                        *([f"--cluster {args.cluster}"] if args.cluster else [])])
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"proving openers ({mode} mode, {engine})", total=len(openers))
        results = run_job(game, args.hard, args.max_guesses, openers, out, command, engine=engine, jobs=jobs,
                          address=args.scheduler, on_result=lambda _: progress.advance(task))
        progress.update(task, completed=len(openers))
    table = Table(title=f"{len(openers)} openers, each proved optimal ({mode} mode)", header_style="bold",
                  box=None, pad_edge=False, title_justify="left")
    for column in ("#", "opener", "total", "average", "over 5", "sub-problems", "seconds"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    for rank, r in enumerate(results, start=1):
        won = r.total >= 0  # else no tree wins every game within the guess limit
        table.add_row(str(rank), r.opener, str(r.total) if won else f"no win in {args.max_guesses}",
                      f"{r.average:.4f}" if won else "-", str(r.long_games) if won else "-", str(r.nodes), f"{r.seconds:.1f}")
    console.print(table)
    console.print(f"saved {out}", markup=False, soft_wrap=True)
    return 0


def command_openers(args: argparse.Namespace, console: Console) -> int:
    """Rank the top openers by two-step lookahead and measured average; show and save the table."""
    from tournament.provenance import provenance

    if args.exact:
        return command_exact_openers(args, console)
    if args.all or args.scheduler or args.cluster:
        raise UserError("--all, --scheduler and --cluster go with --exact")
    args.top = args.top or 50
    game = load_game(args)
    mode = "hard" if args.hard else "normal"
    count = min(args.top, len(game.words.guesses))
    out = prepare_output(args.out or Path("results") / f"openers-{mode}-top{count}.json")
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"openers ({mode} mode)", total=count)
        results = rank_openers(game, count, args.hard, jobs=args.jobs or os.cpu_count() or 1,
                               on_result=lambda _: progress.advance(task), max_guesses=args.max_guesses)
    by_bits = {r.opener: rank for rank, r in enumerate(sorted(results, key=lambda r: (-r.two_step_bits, r.opener)), 1)}
    table = Table(title=f"top {count} openers by entropy, ranked by measured average ({mode} mode)",
                  header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "opener", "bits", "two-step bits", "two-step rank", "average", "worst", "failures"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    for rank, r in enumerate(results, start=1):
        table.add_row(str(rank), game.words.guesses[r.opener], f"{r.entropy:.4f}", f"{r.two_step_bits:.4f}",
                      str(by_bits[r.opener]), f"{r.average:.4f}", str(r.worst), str(r.failures))
    console.print(table)
    words = game.words
    record = {
        "command": openers_command(args),
        "seed": None,
        "seed_note": "the ranking makes no random choice",
        "mode": mode,
        "top": count,
        "max_guesses": args.max_guesses,
        "word_lists_sha256": words.checksum,
        **provenance(),
        "ranking": [
            {"rank": rank, "opener": words.guesses[r.opener], "entropy": round(r.entropy, 6),
             "two_step_bits": round(r.two_step_bits, 6), "two_step_rank": by_bits[r.opener],
             "average": round(r.average, 6), "total": r.total, "worst": r.worst, "failures": r.failures,
             "seconds": {format_pattern(p): words.guesses[g] for p, g in sorted(r.seconds.items())}}
            for rank, r in enumerate(results, start=1)
        ],
    }
    try:
        write_atomically(out, json.dumps(record, indent=1) + "\n")
    except OSError as error:
        raise UserError(f"{out}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    console.print(f"saved {out}", markup=False, soft_wrap=True)
    return 0


def add_openers_command(commands: argparse._SubParsersAction) -> None:
    """`openers`: the two-step ranking of the best first guesses."""
    parser = commands.add_parser(
        "openers", help="rank the top openers by two-step lookahead and by their measured average",
        description="For each of the top-N openers by entropy: the best second guess for every reply, the expected "
                    "information of both guesses together, and the average over every answer playing greedy "
                    "entropy after them. Prints the ranking and saves it to results/.",
    )
    parser.add_argument("--top", type=positive_int, default=None, metavar="N",
                        help="openers to judge (default 50; with --exact 20, the first by their lower bound)")
    parser.add_argument("--hard", action="store_true", help="hard mode for the second and later guesses")
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="N", help="worker processes (default: all cores)")
    parser.add_argument("--out", metavar="FILE", help="where to save the ranking (default results/openers-MODE-topN.json, "
                                                      "with --exact results/openers-exact-MODE-topN.jsonl)")
    parser.add_argument("--exact", action="store_true",
                        help="prove each opener's optimal total instead (saved as each finishes; a rerun resumes)")
    parser.add_argument("--all", action="store_true", help="with --exact: every allowed guess as an opener")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="with --exact: run on the Dask cluster at this scheduler "
                                                                "address (e.g. tcp://10.0.0.5:8786)")
    parser.add_argument("--cluster", type=positive_int, metavar="N",
                        help="with --exact: run on a Dask cluster of N worker processes started on this machine")
    add_game_options(parser)
    parser.set_defaults(handler=command_openers)


# -- tree ----------------------------------------------------------------------------
def command_tree(args: argparse.Namespace, console: Console) -> int:
    """Build an agent's whole decision tree over every answer and write it as JSON or GraphML."""
    game = load_game(args)
    agent = make_agent(args.agent, game, **agent_options(args))

    def choose(state: State) -> int:
        flat = [number for pair in state.history for number in pair]
        return agent.decide(state, np.random.default_rng([args.seed, *flat])).guess

    prepare_output(args.out, TREE_FORMATS)
    graph = build_tree(game, game.initial_state(hard=args.hard, max_guesses=args.max_guesses), choose)
    path = write_tree(graph, args.out)
    info = graph.graph
    console.print(f"{args.agent} ({'hard' if args.hard else 'normal'} mode): {graph.number_of_nodes()} states, "
                  f"{info['answers']} answers, average {info['average']:.4f} guesses (total {info['total']}), "
                  f"worst {info['worst']}, failures {info['failures']}; wrote {path}")
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
    parser.add_argument("--out", required=True, metavar="FILE.json|FILE.graphml", help="where to write the tree")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed for random choices (default 0)")
    add_game_options(parser)
    add_agent_options(parser)
    parser.set_defaults(handler=command_tree)


# -- solve ---------------------------------------------------------------------------
def command_solve(args: argparse.Namespace, console: Console) -> int:
    """Solve the optimal tree (a proof, or an upper bound over the best K guesses a node); show it, save it."""
    from agents.optimal import opener_index, solve_tree, tree_cache_path, write_cached_tree
    from search.optimal import unpack

    game = load_game(args)
    opener = opener_index(game, args.opener.strip().lower()) if args.opener else None
    if args.out:
        prepare_output(args.out, TREE_FORMATS)
    breadth = args.top if args.top else "all"
    mode = "hard" if args.hard else "normal"
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"solving ({mode} mode)", total=None)

        def report(stats: Any) -> None:
            best = f"best {unpack(stats.best)[0]}" if stats.best is not None else "no tree yet"
            replies = f"replies {stats.replies_done}/{stats.replies}, " if stats.replies else ""
            progress.update(task, description=f"solving ({mode} mode): {replies}{stats.nodes} sub-problems, "
                                              f"{stats.remembered} remembered, {best}, bound {unpack(stats.bound)[0]}")

        solution, graph = solve_tree(game, args.hard, args.max_guesses, opener, breadth, report)
    word = game.words.guesses[solution.guess]
    claim = "proved optimal" if solution.proved else f"an upper bound (best {args.top} guesses a node)"
    console.print(f"{word.upper()} ({mode} mode): total {solution.total} over {graph.graph['answers']} answers "
                  f"(average {graph.graph['average']:.4f}), {solution.long_games} games over 5 guesses, "
                  f"worst {graph.graph['worst']}; {claim}; {solution.nodes} sub-problems in {solution.seconds:.1f} s")
    cached = tree_cache_path(game, args.hard, args.max_guesses, word if opener is not None else "best", breadth)
    try:
        write_cached_tree(cached, game, graph)
    except OSError:
        pass
    if args.out:
        console.print(f"wrote {write_tree(graph, args.out)}", markup=False, soft_wrap=True)
    return 0


def add_solve_command(commands: argparse._SubParsersAction) -> None:
    """`solve`: the optimal decision tree, proved or bounded."""
    parser = commands.add_parser(
        "solve", help="solve the decision tree with the fewest total guesses (then fewest games over 5)",
        description="Branch and bound over every reply: the tree with the fewest total guesses over the answers, "
                    "and within that total the fewest games over 5 guesses, within the guess limit (and in hard "
                    "mode the rule). --prove tries every allowed guess at every node, so its total is proved; "
                    "--top K tries the best K by their lower bound, so its total is an upper bound. The tree is "
                    "cached for the optimal agent.",
    )
    parser.add_argument("--opener", metavar="WORD", help="the first guess (default: solve for it too; with --prove that "
                                                         "proves or refutes every opener, far longer than one)")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    breadth = parser.add_mutually_exclusive_group()
    breadth.add_argument("--prove", action="store_true", help="try every allowed guess at every node (default)")
    breadth.add_argument("--top", type=positive_int, metavar="K", help="try only the best K guesses a node (an upper bound)")
    parser.add_argument("--out", metavar="FILE.json|FILE.graphml", help="also write the tree there")
    add_game_options(parser)
    parser.set_defaults(handler=command_solve)


# -- entry point ---------------------------------------------------------------------
def build_parser() -> ArgumentParser:
    """The full command line."""
    parser = ArgumentParser(prog="wordle-arena", description="Adversarial game search for Wordle.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=ArgumentParser)
    add_play_command(commands)
    add_tournament_command(commands)
    add_verify_command(commands)
    add_tree_command(commands)
    add_assist_command(commands)
    add_openers_command(commands)
    add_solve_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; bad input is one line on stderr and exit 2, Ctrl-C exits 130."""
    args = build_parser().parse_args(argv)
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = PIPED_WIDTH  # a pipe or a log file has no width; keep tables whole
    try:
        return int(args.handler(args, console) or 0)
    except UserError as error:
        Console(stderr=True, highlight=False).print(f"wordle-arena: error: {error}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    except KeyboardInterrupt:
        Console(stderr=True).print("interrupted")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
