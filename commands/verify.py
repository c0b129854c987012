"""`verify`: re-check a results folder's rules, summary and report, and with --replay its play."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from plumbing.errors import UserError, clip

from .games import load_game
from .options import MOST_JOBS, MOST_PROBLEMS, MOST_SAMPLE, MOST_SEED, add_word_list_options, whole
from .render import matrix_progress, plain_console, waiting


def command_verify(args: argparse.Namespace, console: Console) -> int:
    """Replay a run folder through the rules; exit 1 with one line per problem on any mismatch."""
    from tournament import verify_folder
    from tournament.indicators import MATRIX_FILE

    if args.book:
        return verify_books(args, console)
    if args.sample == "all":
        raise UserError("--sample all goes with --book; to replay every game, leave --sample out")
    if args.folder is None:
        raise UserError("name the run folder to verify (or give --book to re-check the shipped opening book)")
    if Path(args.folder).is_file() and args.folder.endswith(".jsonl"):
        if is_openers_file(Path(args.folder)):
            return verify_openers_file(args, console)
        return verify_pairs_file(args, console)
    if args.seed is not None:
        raise UserError("--seed goes with --book (it draws the entries re-proved)")
    if args.sample is not None and not args.replay:
        raise UserError("--sample goes with --replay (it is how many games to replay) or --book")
    if (Path(args.folder) / MATRIX_FILE).is_file():
        return verify_indicator_matrix(args, console)
    if args.jobs is not None:
        raise UserError("--jobs is for a Guesser x Indicator matrix's folder (tournament --indicators)")
    with Progress(console=console, transient=True, disable=not (args.replay and console.is_terminal)) as progress:
        bar = progress.add_task("replaying the recorded agents", total=None)
        result = verify_folder(args.folder, answers=args.answers, guesses=args.guesses, limit=args.limit,
                               replay=args.replay, replay_sample=args.sample,
                               on_replay=lambda _: progress.advance(bar))
    if result.ok:
        replayed = f"; {result.replayed} games replayed move for move" if result.replayed else ""
        named = "" if result.game is None or result.game.is_wordle else f"{result.game.name} "
        console.print(f"{args.folder}: all {result.games} {named}games follow the rules and the summary agrees with "
                      f"them{replayed}", markup=False, soft_wrap=True)
        return 0
    errors = plain_console(stderr=True)
    for problem in result.problems:
        errors.print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    errors.print(f"wordle-arena: verify: {args.folder} FAILED ({len(result.problems)} problems shown, "
                 f"at most {args.limit})", markup=False, soft_wrap=True)
    return 1


def verify_pairs_file(args: argparse.Namespace, console: Console) -> int:
    """verify FILE.jsonl: a fixed-pair job's results file (openers --exact --pairs): its lines, its summary, and the
    deciding totals and a seeded sample of its cuts proved again."""
    from tournament.exact_pairs import verify_pairs

    if args.replay or args.jobs is not None:
        raise UserError("a pairs results file is verified as it is: it takes no --replay or --jobs")
    game = load_game(args, named=True)
    sample = 20 if args.sample is None or args.sample == "all" else int(args.sample)
    with waiting(f"re-checking {args.folder}"):
        problems, checked = verify_pairs(game, Path(args.folder), sample=sample, seed=args.seed or 0)
    for problem in problems[: args.limit]:
        plain_console(stderr=True).print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    console.print(f"{args.folder}: {'; '.join(checked) or 'nothing checked'}: {'FAILED' if problems else 'all true'}",
                  markup=False, soft_wrap=True)
    return 1 if problems else 0


def is_openers_file(path: Path) -> bool:
    """Whether a .jsonl file's first line is an exact-openers job's header (else it is read as a pairs file)."""
    import json

    from tournament.exact_openers import FORMAT

    try:
        with path.open(encoding="utf-8") as handle:
            head = json.loads(handle.readline(1 << 20))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(head, dict) and head.get("format") == FORMAT


def verify_openers_file(args: argparse.Namespace, console: Console) -> int:
    """verify FILE.jsonl: an exact-openers job's results file (openers --exact): its lines, its summary, the deciding
    totals proved again, its book lines checked against the books, and a seeded sample of its rejections and no-wins
    proved again."""
    from tournament.exact_openers import verify_openers

    if args.replay or args.jobs is not None:
        raise UserError("an exact-openers results file is verified as it is: it takes no --replay or --jobs")
    game = load_game(args, named=True)
    sample = 20 if args.sample is None or args.sample == "all" else int(args.sample)
    with waiting(f"re-checking {args.folder}"):
        problems, checked = verify_openers(game, Path(args.folder), sample=sample, seed=args.seed or 0)
    for problem in problems[: args.limit]:
        plain_console(stderr=True).print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    console.print(f"{args.folder}: {'; '.join(checked) or 'nothing checked'}: {'FAILED' if problems else 'all true'}",
                  markup=False, soft_wrap=True)
    return 1 if problems else 0


def verify_books(args: argparse.Namespace, console: Console) -> int:
    """verify --book: each mode's shipped book and position table proved again with the solver: every exact total, and
    the bounds, no-win entries and table replies sampled (seeded, each one named) or all of them (--sample all)."""
    from wordle.book_verify import verify_book

    if args.folder is not None or args.replay or args.jobs is not None:
        raise UserError("--book checks the shipped opening book; it takes no run folder, --replay or --jobs")
    game = load_game(args, named=True)
    sample = 3 if args.sample is None else None if args.sample == "all" else args.sample
    seed = 0 if args.seed is None else args.seed
    failed = False
    for hard in (False, True):
        mode = "hard" if hard else "normal"
        with plain_console(stderr=True).status(f"re-checking the {mode} book", spinner="dots") as status:
            check = verify_book(game, hard, sample=sample, seed=seed,
                                on_step=lambda what, mode=mode: status.update(f"{mode} book: {what}"))
        for problem in check.problems[: args.limit]:
            plain_console(stderr=True).print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
        failed |= bool(check.problems)
        parts = [checked_text(check, kind, what, sample, seed) for kind, what in BOOK_KINDS if kind in check.held]
        console.print(f"{mode} book: {'; '.join(parts) or 'nothing checked'}: "
                      f"{'FAILED' if check.problems else 'all true'}", markup=False, soft_wrap=True)
    return 1 if failed else 0


#: What verify --book proves again, by kind, in words.
BOOK_KINDS = (("exact", "exact totals solved again and their trees replayed"), ("bounds", "bounds proved again"),
              ("no_win", "no-win entries proved again"), ("replies", "table replies solved again"))


def checked_text(check, kind: str, what: str, sample: int | None, seed: int) -> str:
    """What verify --book proved again of one kind, exactly: all of them, or the seeded sample, each entry named.

    >>> from wordle.book_verify import BookCheck
    >>> check = BookCheck(checked={"bounds": ["CRANE ≥ 7921"]}, held={"bounds": 12952, "exact": 0})
    >>> checked_text(check, "bounds", "bounds proved again", 1, 0)
    'bounds proved again: a sample of 1 of 12952 (seed 0): CRANE ≥ 7921'
    >>> checked_text(check, "exact", "exact totals solved again", 1, 0)
    'exact totals solved again: none held'
    """
    entries, held = check.checked.get(kind, []), check.held[kind]
    if held == 0:
        return f"{what}: none held"
    scope = (f"all {held}" if len(entries) == held else f"a sample of {len(entries)} of {held} (seed {seed})"
             if kind != "exact" or sample is not None else f"{len(entries)} of {held}")
    return f"{what}: {scope}: {', '.join(entries)}"


def verify_indicator_matrix(args: argparse.Namespace, console: Console) -> int:
    """verify on a Guesser x Indicator matrix: its honest tournament by the rules, every other game replayed."""
    from tournament import verify_folder
    from tournament.indicators import read_matrix, verify_matrix

    folder = Path(args.folder)
    stored, plan = read_matrix(folder)  # a file that is no matrix is refused before anything is checked
    problems: list[str] = []
    if plan.honest_folder is not None and Path(plan.honest_folder).is_dir():
        with waiting(f"checking the honest column's tournament in {plan.honest_folder}"):
            honest = verify_folder(plan.honest_folder, limit=args.limit, replay=args.replay,
                                   replay_sample=args.sample)
        problems += [f"{plan.honest_folder}: {problem}" for problem in honest.problems]
        console.print(f"{plan.honest_folder}: {honest.games} honest games checked by the rules"
                      + (f", {honest.replayed} replayed move for move" if honest.replayed else ""), markup=False)
    if args.answers is None and args.guesses is None:
        args.answers, args.guesses = plan.words.get("answers_file"), plan.words.get("guesses_file")
    game = load_game(args, named=True)
    total = len(stored["games"])
    progress, advance, preparing = matrix_progress(console, total, "replaying", shown=total > 0)
    try:
        games, found = verify_matrix(game, folder, jobs=args.jobs or os.cpu_count() or 1, on_games=advance,
                                     on_prepare=preparing)
    finally:
        progress.stop()
    problems += found
    for problem in problems[: args.limit]:
        console.print(f"wordle-arena: verify: {clip(problem)}", markup=False, soft_wrap=True)
    console.print(f"{args.folder}: {games} Guesser x Indicator games replayed move for move, every reply checked "
                  f"against its Indicator's rule: {'FAILED' if problems else 'all agree'}", markup=False)
    return 1 if problems else 0


def sample_count(text: str) -> int | str:
    """--sample: a whole number from 1 to MOST_SAMPLE, or `all` (with --book: every entry)."""
    return "all" if text.strip().lower() == "all" else whole(1, MOST_SAMPLE)(text)


def add_verify_command(commands: argparse._SubParsersAction) -> None:
    """`verify`: re-check a tournament's run folder."""
    parser = commands.add_parser(
        "verify", help="replay a tournament's results through the rules and re-derive its summary",
        description="Replay every recorded game (allowed words, reference patterns, hard-mode legality, solved "
                    "flag, guess limit), check the word-list checksum, and recompute the summary from the "
                    "per-game lines. Exits 1 with one line per problem on any mismatch.",
    )
    parser.add_argument("folder", metavar="DIR", nargs="?", help="the run folder, e.g. results/tournament-depth-2, "
                        "or a fixed-pair job's results file (results/pairs-exact-*.jsonl)")
    parser.add_argument("--book", action="store_true",
                        help="instead of a run folder: re-check each mode's shipped opening book and position table "
                             "(every exact total solved again and its tree replayed; a seeded sample of the bounds, "
                             "no-win entries and table replies proved again, each one named, or every one with "
                             "--sample all)")
    parser.add_argument("--seed", type=whole(0, MOST_SEED), metavar="S",
                        help="with --book: the seed of the sample (default 0)")
    parser.add_argument("--limit", type=whole(1, MOST_PROBLEMS), default=20, metavar="N",
                        help=f"report at most N problems (default 20, at most {MOST_PROBLEMS})")
    parser.add_argument("--replay", action="store_true",
                        help="also play every game again with the recorded agents and settings and compare move for move")
    parser.add_argument("--sample", type=sample_count, metavar="N|all",
                        help=f"with --replay: replay N games drawn from the run seed instead of all (at most {MOST_SAMPLE}); "
                             "with --book: how many bounds, no-win entries and table replies to prove again (default "
                             "3 of each; all: every one, hours on the full lists)")
    parser.add_argument("--jobs", type=whole(1, MOST_JOBS), metavar="N",
                        help="for a Guesser x Indicator matrix (tournament --indicators): processes replaying its "
                             "games (default: the number of CPUs)")
    add_word_list_options(parser, named=True)
    parser.set_defaults(handler=command_verify)
