"""`openers`: rank first guesses by two-step lookahead, or prove them with the exact solver."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from agents.two_step import rank_openers
from plumbing.errors import UserError
from plumbing.storage import prepare_output, write_atomically
from wordle import format_pattern

from .games import load_game
from .options import (EXIT_INTERRUPTED, EXIT_USAGE, MOST_JOBS, MOST_OPENERS, MOST_TOTAL, add_game_options,
                      add_mode_options, canonical_command, mode_name, path_text, whole)
from .render import plain_console, waiting, worst_text


def openers_command(args: argparse.Namespace) -> str:
    """The command line that reproduces an openers run, written out from its arguments."""
    return canonical_command("openers", ("--top", args.top), ("--hard", args.hard), ("--max-guesses", args.max_guesses),
                             ("--answers", args.answers), ("--guesses", args.guesses), ("--out", args.out))


def command_one_opener(args: argparse.Namespace, console: Console) -> int:
    """One opener with the exact solver: its total, its rejection above --against with the bound, or no win."""
    import time

    from tournament.exact_openers import judge_opener


    if args.all or args.top is not None or args.out or args.scheduler or args.cluster or args.jobs:
        raise UserError("--opener judges one opener here; it takes no --all, --top, --out, --scheduler, --cluster "
                        "or --jobs")
    game = load_game(args, named=True)
    mode = mode_name(args)
    started = time.perf_counter()
    with waiting(f"judging {args.opener.strip().upper()} ({mode} mode, {args.max_guesses} guesses)"):
        result = judge_opener(game, args.hard, args.max_guesses, args.opener, args.against, ultra=args.ultra)
    word = result.opener.upper()
    spent = f"{result.cpu_seconds:.2f} s of CPU, {time.perf_counter() - started:.2f} s wall, {result.nodes} sub-problems"
    if not result.win:
        verdict = f"no win: no tree opening with it solves every answer within {args.max_guesses} guesses (proved)"
    elif result.exact:
        verdict = (f"total {result.total} over {len(game.words.answers)} answers (average {result.average:.4f}), "
                   f"{result.long_games} games over 5 guesses, proved optimal")
    else:
        verdict = f"rejected: total at least {result.total}, above {args.against} (proved bound)"
    console.print(f"{word} ({mode} mode): {verdict}; {spent}", markup=False, soft_wrap=True)
    return 0


def command_exact_openers(args: argparse.Namespace, console: Console) -> int:
    """Prove each opener's optimal total or reject it above a cut-off, on Dask, saving each as it finishes."""
    import time

    from tournament.exact_openers import JobStopped, best_result, plan_job, read_results, run_job, summary

    if args.pairs:
        from .pairs import command_exact_pairs
        return command_exact_pairs(args, console)
    if args.words is not None:
        raise UserError("--words goes with --pairs (the space of the pair job)")
    if args.opener is not None:
        return command_one_opener(args, console)
    game = load_game(args, named=True)
    mode = mode_name(args)
    if args.all and args.top is not None:
        raise UserError("--all proves every opener; it takes no --top (give one or the other)")
    if args.out:
        prepare_output(args.out)
    plan = plan_job(game, args.hard, args.max_guesses, args.all, args.top, args.against, args.out,
                    on_cut=lambda: console.print(f"finding a cut-off: the best tree over the best 10 guesses a node, "
                                                 f"then its opener's optimum ({mode} mode)", markup=False,
                                                 soft_wrap=True), ultra=args.ultra)
    openers, cut, out = plan.openers, plan.settings.cut, prepare_output(plan.out)
    if plan.cut_opener is not None:
        console.print(f"cut-off {cut}: {plan.cut_opener.upper()}'s optimal total (the tree over the best 10 guesses "
                      f"a node gave {plan.breadth_cut}; real trees, so the best total is at most {cut}); openers "
                      "above it are rejected with a bound", markup=False, soft_wrap=True)
    jobs = args.cluster or args.jobs or os.cpu_count() or 1
    command = canonical_command("openers --exact", ("--all", args.all), ("--top", None if args.all else len(openers)),
                                ("--answers", args.answers), ("--guesses", args.guesses), ("--hard", args.hard),
                                ("--ultra", args.ultra), ("--max-guesses", args.max_guesses), ("--against", args.against),
                                ("--scheduler", args.scheduler or None), ("--cluster", None if args.scheduler else jobs))
    counts = {"done": 0, "rejected": 0, "solved": 0, "no win": 0}
    leaders: list[Any] = []  # the best result so far, if any
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"proving openers ({mode} mode, dask)", total=len(openers))

        def note(result: Any) -> None:
            """Count one result in (solved, rejected or no win)."""
            leader = best_result([result, *leaders])  # kept as it goes: sought afresh over every result at each
            leaders[:] = [leader] if leader is not None else []  # one, the work grew with the square of the results
            counts["done"] += 1
            counts["no win" if result.exact and result.total < 0 else "solved" if result.exact else "rejected"] += 1

        def describe(fresh: int) -> str:
            """Done, rejected, solved, without a win, best and the time left at this session's rate."""
            left = len(openers) - counts["done"]
            rate = (time.perf_counter() - started) / fresh if fresh else None
            eta = f", about {left * rate / 60:.0f} min left" if rate and left else ""
            best = leaders[0] if leaders else None
            leader = f"best {best.opener.upper()} {best.total}" if best else "no exact total yet"
            return (f"openers ({mode}): {counts['done']}/{len(openers)} done, {counts['rejected']} rejected, "
                    f"{counts['no win']} no win, {counts['solved']} solved, {leader}{eta}")

        def resumed(results: list[Any]) -> None:
            arrived.resumed, arrived.earlier = bool(results), len(results)
            for result in results:
                note(result)
            progress.update(task, completed=counts["done"], description=describe(0))

        def arrived(result: Any) -> None:
            note(result)
            arrived.fresh += 1
            progress.update(task, completed=counts["done"], description=describe(arrived.fresh))
        arrived.fresh, arrived.resumed, arrived.earlier = 0, False, 0

        def rechecked(proved: list[Any], others: int, from_books: int) -> None:
            """Say in one line which saved lines were proved again before the job goes on."""
            console.print(recheck_line(out, proved, others, from_books), markup=False, soft_wrap=True)
        try:
            results = run_job(game, args.hard, args.max_guesses, openers, out, command, engine="dask", jobs=jobs,
                              address=args.scheduler, on_result=arrived, cut=cut, on_resume=resumed,
                              on_recheck=rechecked, ultra=args.ultra, books=plan.settings.books)
        except (KeyboardInterrupt, JobStopped) as stop:
            progress.stop()
            why = "interrupted" if isinstance(stop, KeyboardInterrupt) else str(stop)
            # a result may be saved but not seen
            saved = list(read_results(out, plan.settings, openers, len(game.words.answers)).values())
            arrived.fresh = len(saved) - arrived.earlier
            where = ""
            if out.exists():  # stopped before a first result: no file, and nothing to summarise
                digest = write_summary(out, command, summary(saved, plan.settings, openers,
                                                             guesses=len(game.words.guesses)),
                                       saved, time.perf_counter() - started, arrived)
                where = f" (what is proved so far in {digest.name})"
            plain_console(stderr=True).print(
                f"wordle-arena: {why}: {len(saved)} of {len(openers)} openers are saved in {out}{where}; the same "
                f"command resumes from there", markup=False, soft_wrap=True)
            return EXIT_INTERRUPTED if isinstance(stop, KeyboardInterrupt) else EXIT_USAGE
    proved = summary(results, plan.settings, openers, guesses=len(game.words.guesses))
    shown = [r for r in results if r.exact] if args.all else results
    title = (f"{len(openers)} openers ({mode} mode): {proved['solved']} solved exactly"
             + (f", {proved['rejected']} rejected above {cut}" if cut is not None else "")
             + f", {proved['no_win']} without a win in {args.max_guesses}")
    table = Table(title=title, header_style="bold", box=None, pad_edge=False, title_justify="left")
    for column in ("#", "opener", "total", "average", "over 5", "sub-problems", "seconds"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    for rank, r in enumerate(shown, start=1):
        if not r.exact:
            table.add_row(str(rank), r.opener, f"≥ {r.total} (> {cut})", "-", "-", str(r.nodes), f"{r.seconds:.1f}")
            continue
        won = r.total >= 0  # else no tree wins every game within the guess limit
        table.add_row(str(rank), r.opener, str(r.total) if won else f"no win in {args.max_guesses}",
                      f"{r.average:.4f}" if won else "-", str(r.long_games) if won else "-", str(r.nodes), f"{r.seconds:.1f}")
    console.print(table)
    if proved["best"] is not None:
        claim = "proved best over every opener" if proved["proved_best_over_all"] else "best of these"
        console.print(f"{proved['best']['opener'].upper()}: {proved['best']['total']} ({claim})", markup=False)
    digest = write_summary(out, command, proved, results, time.perf_counter() - started, arrived)
    console.print(f"saved {out} and {digest}", markup=False, soft_wrap=True)
    return 0


def recheck_line(out: Path, proved: list[Any], others: int, from_books: int = 0) -> str:
    """The one line a resumed job says about the saved lines it checked: which it proved again, and how many others
    it checked for consistency alone (`from_books` of them, an ultra-hard job's, also against the book that settled
    them).

    >>> from tournament.exact_openers import OpenerTotal
    >>> salet = OpenerTotal("salet", 7920, 0, 3.421166, 461, 0.6, "vm:1")
    >>> recheck_line(Path("run.jsonl"), [salet], 12971)
    'run.jsonl: resumed; proved again, as the verdict rests on them: SALET 7920 (the claimed best); the 12971 other lines checked for consistency with the job, not proved again'
    >>> recheck_line(Path("run.jsonl"), [salet], 12971, 9197)
    'run.jsonl: resumed; proved again, as the verdict rests on them: SALET 7920 (the claimed best); the 12971 other lines checked for consistency with the job (9197 of them also against the book that settled them), not proved again'
    """
    named = ", ".join(f"{r.opener.upper()} {r.total}" + (" (the claimed best)" if number == 0 else "")
                      for number, r in enumerate(proved))
    again = f"proved again, as the verdict rests on them: {named}" if proved else "no exact total to prove again"
    books = f" ({from_books} of them also against the book that settled them)" if from_books else ""
    return (f"{out}: resumed; {again}; the {others} other line{'s' if others != 1 else ''} checked for consistency "
            f"with the job{books}, not proved again")


def write_summary(out: Path, command: str, proved: dict, results: list[Any], wall_seconds: float,
                  arrived: Any) -> Path:
    """Write the job's summary beside its results file (what is proved, the runs' timing, provenance); its path.

    `arrived` counts this run's fresh results (.fresh) and says whether it resumed an earlier run (.resumed).
    """
    from plumbing.storage import provenance
    from tournament.exact_openers import job_timing

    digest = out.with_name(out.name.removesuffix(".jsonl") + ".summary.json")
    timing = job_timing(out, wall_seconds, arrived.fresh,
                        earlier=earlier_runs(digest, proved) if arrived.resumed else None)
    try:
        write_atomically(digest, json.dumps({"command": command, **proved, "timing": timing, **provenance()},
                                            indent=1) + "\n")
    except OSError as error:
        raise UserError(f"{digest}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    return digest


def earlier_runs(digest: Path, proved: dict) -> list[dict] | None:
    """The runs an earlier summary of the same job recorded (its timing), or None where there is none to trust."""
    try:
        earlier = json.loads(digest.read_text(encoding="utf-8"))
        same = all(earlier.get(key) == proved[key] for key in ("mode", "max_guesses", "word_lists_sha256", "cut",
                                                               "openers"))
        runs = earlier["timing"]["runs"] if same else None
        return runs if isinstance(runs, list) and all(isinstance(r, dict) and isinstance(r.get("wall_seconds"),
                                                                                           (int, float))
                                                       for r in runs) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def command_openers(args: argparse.Namespace, console: Console) -> int:
    """Rank the top openers by two-step lookahead and measured average; show and save the table."""
    from plumbing.storage import results_record

    if args.exact:
        return command_exact_openers(args, console)
    if (args.all or args.scheduler or args.cluster or args.against is not None or args.opener is not None
            or args.pairs or args.words is not None):
        raise UserError("--all, --against, --opener, --pairs, --words, --scheduler and --cluster go with --exact")
    if args.ultra:
        raise UserError("--ultra goes with --exact (the two-step ranking has no ultra-hard mode)")
    args.top = args.top or 50
    game = load_game(args, named=True)
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
                      str(by_bits[r.opener]), f"{r.average:.4f}", worst_text(r.worst, args.max_guesses),
                      str(r.failures))
    console.print(table)
    words = game.words
    record = {
        **results_record(openers_command(args), None, game.words.checksum),
        "seed_note": "the ranking makes no random choice",
        "worst_note": "worst counts an unsolved game as max_guesses + 1, as the tournament does (shown as X)",
        "mode": mode,
        "top": count,
        "max_guesses": args.max_guesses,
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
    parser.add_argument("--top", type=whole(1, MOST_OPENERS), default=None, metavar="N",
                        help=f"openers to judge (default 50; with --exact 20, the first by their lower bound; "
                             f"at most {MOST_OPENERS})")
    add_mode_options(parser, "hard mode for the second and later guesses")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), default=None, metavar="N",
                        help=f"worker processes (default: all cores, at most {MOST_JOBS})")
    parser.add_argument("--out", type=path_text, metavar="FILE", help="where to save the ranking (default results/openers-MODE-topN.json, "
                                                      "with --exact results/openers-exact-MODE-topN.jsonl)")
    parser.add_argument("--exact", action="store_true",
                        help="prove each opener's optimal total instead (saved as each finishes; a rerun resumes)")
    parser.add_argument("--all", action="store_true", help="with --exact: every allowed guess as an opener, each "
                                                           "solved exactly or rejected above the cut-off")
    parser.add_argument("--opener", metavar="WORD", help="with --exact: judge this one opener in this process: its "
                                                         "total, its rejection above --against with the bound proved, "
                                                         "or no win, in one line with the time")
    parser.add_argument("--pairs", action="store_true",
                        help="with --exact: the best fixed pair of first words (then best play) over every pair of "
                             "the space, proved, normal mode (results/pairs-exact-normal-SCOPE.jsonl; a rerun resumes)")
    parser.add_argument("--words", type=whole(2, 20000), metavar="N",
                        help="with --pairs: the space is the best N words by their bound at the root (default: "
                             "every allowed guess)")
    parser.add_argument("--against", type=whole(1, MOST_TOTAL), metavar="TOTAL",
                        help="with --exact: solve exactly only openers whose total is at most TOTAL and reject the "
                             "rest with a proved bound (default with --all: the total of the best tree over the "
                             "best 10 guesses a node, found first)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="with --exact: run on the Dask cluster at this scheduler "
                                                                "address (e.g. tcp://10.0.0.5:8786; default: a local "
                                                                "Dask cluster of --jobs worker processes)")
    parser.add_argument("--cluster", type=whole(1, MOST_JOBS), metavar="N",
                        help=f"with --exact: run on a Dask cluster of N worker processes started on this machine "
                             f"(at most {MOST_JOBS})")
    add_game_options(parser, named=True)
    parser.set_defaults(handler=command_openers)
