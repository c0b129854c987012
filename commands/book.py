"""`book`: build the shipped opening book from a complete all-opener run, and the position table from the solver."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from plumbing.errors import UserError

from .games import load_game
from .options import MOST_GUESSES, add_word_list_options, canonical_command, path_text, whole

#: The rankings whose best openers the position table covers (besides the common ones).
RANKINGS = tuple(Path(__file__).resolve().parent.parent / "results" / f"openers-{mode}-top50.json"
                 for mode in ("normal", "hard"))


def command_book_table(args: argparse.Namespace, console: Console) -> int:
    """Value every reply to the common and best-ranked openers (resumable), then pack the shipped table."""
    from wordle.positions import NODES, compute_table, ranked_from, read_work, table_openers

    game = load_game(args, named=True)
    mode = "hard" if args.hard else "normal"
    openers = table_openers(ranked_from(RANKINGS, args.top))
    work = Path(args.work or f"results/book-table-{mode}.jsonl")
    nodes = args.nodes or NODES
    command = canonical_command("book table", ("--hard", args.hard), ("--top", args.top), ("--nodes", nodes),
                                ("--work", args.work))
    counts = {"done": 0}

    def note(opener: str, replies: list, seconds: float) -> None:
        """One line per opener done."""
        counts["done"] += 1
        open_ = sum(not reply.settled for reply in replies)
        console.print(f"{opener} ({mode}): {len(replies)} replies, {open_} not settled, {seconds:.1f} s",
                      markup=False)

    if args.pack_only:
        header, done = read_work(work)
        if header is None or header.get("word_lists_sha256") != game.words.checksum \
                or header.get("mode") != mode or header.get("max_guesses") != args.max_guesses:
            raise UserError(f"{work}: no position table work for these lists, mode and guess limit")
    else:
        done = compute_table(game, args.hard, openers, work, command, max_guesses=args.max_guesses,
                             nodes=nodes, on_opener=note)
    if args.no_pack:
        return 0
    from wordle.book import opening_book
    from wordle.book_build import pack_positions

    book = opening_book(tuple(game.words.guesses), game.words.checksum, args.hard, args.max_guesses)
    covered = [opener for opener in openers if opener in done]
    path, digest = pack_positions(game, args.hard, args.max_guesses, work, done, covered, book)
    replies = sum(len(done[opener]) for opener in covered)
    settled = sum(reply.settled for opener in covered for reply in done[opener])
    console.print(f"{path}: {len(covered)} of the {len(openers)} openers, {settled} of {replies} replies settled; "
                  f"sha256 {digest} (name it in wordle/book.py SHIPPED)", markup=False, soft_wrap=True)
    return 0


def command_book_build(args: argparse.Namespace, console: Console) -> int:
    """Build the opener book of one mode from a complete all-opener run (and exact totals from top-N runs)."""
    from wordle.book_build import build_book

    game = load_game(args, named=True)
    command = canonical_command("book build", ("--from", args.run),
                                *(("--exact", extra) for extra in args.exact or []))
    path, digest, book = build_book(game, Path(args.run), [Path(extra) for extra in args.exact or []],
                                    command=command)
    console.print(f"{path}: {len(book.entries)} openers ({book.counts()}), best {book.best.upper()}; "
                  f"sha256 {digest} (name it in wordle/book.py SHIPPED)", markup=False, soft_wrap=True)
    return 0


def add_book_command(commands: argparse._SubParsersAction) -> None:
    """`book build` and `book table`."""
    parser = commands.add_parser(
        "book", help="build the shipped opening book and position table (wordle/data/book/)",
        description="Build the artefacts every command trusts for the first two guesses: the opening book of a "
                    "mode from a complete all-opener run, and the position table (every reply's exact value after "
                    "the openers people play) from the exact solver. Each prints its SHA-256, which "
                    "wordle/book.py must name before any command reads it.")
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    build = steps.add_parser("build", help="the opening book from a complete all-opener run",
                             description="Write wordle/data/book/openers-MODE-LISTS.json.gz from a complete run of "
                                         "`openers --exact --all` (a partial run is refused): every opener's exact "
                                         "total, proved lower bound, or no win.")
    build.add_argument("--from", dest="run", required=True, type=path_text, metavar="FILE",
                       help="the all-opener run, e.g. results/openers-exact-normal-all.jsonl")
    build.add_argument("--exact", action="append", type=path_text, metavar="FILE",
                       help="a top-N run whose exact totals join the book (repeatable), e.g. "
                            "results/openers-exact-normal-top20.jsonl")
    add_word_list_options(build, named=True)
    build.set_defaults(handler=command_book_build)
    table = steps.add_parser("table", help="the position table: every reply's value after the common openers",
                             description="Solve every reply to the common openers and the best-ranked ones "
                                         "(results/openers-MODE-top50.json) with the exact solver, one opener a "
                                         "line into a work file (a killed run resumes), then write "
                                         "wordle/data/book/positions-MODE-LISTS.json.gz of the openers done.")
    table.add_argument("--hard", action="store_true", help="hard mode")
    table.add_argument("--max-guesses", type=whole(2, MOST_GUESSES), default=6, metavar="N",
                       help="guess limit (default 6)")
    table.add_argument("--top", type=whole(0, 50), default=50, metavar="N",
                       help="the best N openers of each ranking join the common ones (default 50)")
    table.add_argument("--nodes", type=whole(1, 10**8), metavar="N",
                       help="solver nodes a reply may spend before its bounds are recorded as they are (default "
                            "wordle.positions.NODES, 3000)")
    table.add_argument("--work", type=path_text, metavar="FILE",
                       help="the resumable work file (default results/book-table-MODE.jsonl)")
    table.add_argument("--no-pack", action="store_true", help="fill the work file only; do not write the artefact")
    table.add_argument("--pack-only", action="store_true",
                       help="solve nothing: write the artefact of the openers the work file holds now (its coverage "
                            "is said, and recorded in it)")
    add_word_list_options(table, named=True)
    table.set_defaults(handler=command_book_table)
