"""`book`: build the shipped opening book from a complete all-opener run, and the position table from the solver."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from plumbing.errors import UserError

from .games import load_game
from .options import MOST_GUESSES, add_word_list_options, canonical_command, path_text, whole
from .render import waiting

if TYPE_CHECKING:
    from wordle.game import Wordle

#: Where a new book or table is written unless --out says (wordle.book_build.OUT; never over a shipped one).
OUT = Path("results") / "book"
#: The rankings whose best openers the position table covers (besides the common ones).
RANKINGS = tuple(Path(__file__).resolve().parent.parent / "results" / f"openers-{mode}-top50.json"
                 for mode in ("normal", "hard"))


def command_book_table(args: argparse.Namespace, console: Console) -> int:
    """Value every reply to the common and best-ranked openers (resumable), then pack the shipped table."""
    from wordle.positions import NODES, compute_table, read_work

    game = load_game(args, named=True)
    mode = "hard" if args.hard else "normal"
    openers = table_plan(game, args.hard, args.max_guesses, args.top)
    work = Path(args.work) if args.work else default_work(game, mode)
    nodes = args.nodes or NODES
    command = canonical_command("book table", ("--answers", args.answers), ("--guesses", args.guesses),
                                ("--hard", args.hard),
                                ("--max-guesses", args.max_guesses if args.max_guesses != 6 else None),
                                ("--top", args.top), ("--nodes", nodes), ("--work", args.work))
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
    path, digest = pack_positions(game, args.hard, args.max_guesses, work, done, covered, book,
                                  folder=Path(args.out or OUT), planned=openers,
                                  command=command)
    replies = sum(len(done[opener]) for opener in covered)
    settled = sum(reply.settled for opener in covered for reply in done[opener])
    console.print(f"{path}: {len(covered)} of the {len(openers)} openers, {settled} of {replies} replies settled; "
                  f"{adopt_text(path, digest)}", markup=False, soft_wrap=True)
    return 0


def rankings_fit(checksum: str) -> bool:
    """Whether the shipped rankings (RANKINGS) were made for the lists of this checksum (the 2022 lists)."""
    import json

    try:
        return all(json.loads(path.read_text(encoding="utf-8")).get("word_lists_sha256") == checksum
                   for path in RANKINGS)
    except (OSError, ValueError, AttributeError):
        return False


def default_work(game: Wordle, mode: str) -> Path:
    """The work file a table is built in unless --work says: results/book-table-MODE.jsonl for the lists of
    RANKINGS (the 2022 tables' work files), results/book-table-MODE-LISTS.jsonl for any other lists."""
    checksum = game.words.checksum
    return Path("results") / (f"book-table-{mode}.jsonl" if rankings_fit(checksum)
                              else f"book-table-{mode}-{checksum[:12]}.jsonl")


def own_ranking(game: Wordle, hard: bool, max_guesses: int) -> tuple[list[str], set[str]]:
    """Every opener of the lists, best first: the shipped book's exact totals (least first), then the rest by their
    lower bound at the root (the exact-openers job's ranking); and the openers the book proves have no win."""
    from tournament.exact_openers import ranked_openers
    from wordle.book import opening_book

    guesses = tuple(game.words.guesses)
    book = opening_book(guesses, game.words.checksum, hard, max_guesses)
    exact = [guesses[index] for index in sorted(book.exact, key=lambda index: (book.exact[index], index))]
    return list(dict.fromkeys([*exact, *ranked_openers(game, hard, max_guesses)])), {guesses[i] for i in book.no_win}


def table_plan(game: Wordle, hard: bool, max_guesses: int, top: int) -> list[str]:
    """The openers a table covers, in the order they are solved: the common ones and the best `top` of each mode's
    ranking (RANKINGS for the lists they were made for, else the lists' own, `own_ranking`, no-win openers left
    out). The 2022 lists' openers come in their planned order; other lists' in the mode's own ranking, best
    first, so that a table cut short holds the strongest and the slow poor openers (AUDIO, OUIJA) come last."""
    from wordle.positions import ranked_from, table_openers

    if rankings_fit(game.words.checksum):
        return table_openers(ranked_from(RANKINGS, top))
    rankings = {mode: own_ranking(game, mode, max_guesses) for mode in (False, True)}
    best = [[opener for opener in ranking if opener not in no_win][:top] for ranking, no_win in rankings.values()]
    openers = table_openers(dict.fromkeys(opener for openers in best for opener in openers))
    place = {opener: number for number, opener in enumerate(rankings[hard][0])}
    return sorted(openers, key=place.__getitem__)


def adopt_text(path: Path, digest: str) -> str:
    """How a new artefact is adopted: its SHA-256, and whether it is the shipped one already."""
    from wordle.book import FOLDER, SHIPPED

    if SHIPPED.get(path.name) == digest:
        return f"sha256 {digest}: the same bytes as the shipped {FOLDER.name}/{path.name}; nothing to adopt"
    shipped = (f"; it would replace the shipped one (sha256 {SHIPPED[path.name][:12]}...)" if path.name in SHIPPED
               else "")
    return (f"sha256 {digest}; to adopt it, copy it into wordle/data/book/ and name that sha256 for {path.name} in "
            f"wordle/book.py SHIPPED{shipped}")


def command_book_build(args: argparse.Namespace, console: Console) -> int:
    """Build the opener book of one mode from a complete all-opener run (and exact totals from top-N runs)."""
    from wordle.book_build import build_book

    game = load_game(args, named=True)
    command = canonical_command("book build", ("--from", args.run),
                                *(("--exact", extra) for extra in args.exact or []), ("--out", args.out),
                                ("--answers", args.answers), ("--guesses", args.guesses))
    with waiting("checking the run and solving its best opener again"):
        path, digest, book = build_book(game, Path(args.run), [Path(extra) for extra in args.exact or []],
                                        folder=Path(args.out or OUT), command=command)
    console.print(f"{path}: {len(book.entries)} openers ({book.counts()}), best {book.best.upper()} (solved again, "
                  f"the same); {adopt_text(path, digest)}", markup=False, soft_wrap=True)
    return 0


def add_book_command(commands: argparse._SubParsersAction) -> None:
    """`book build` and `book table`."""
    parser = commands.add_parser(
        "book", help="build the shipped opening book and position table (wordle/data/book/)",
        description="Build the artefacts every command trusts for the first two guesses: the opening book of a "
                    "mode from a complete all-opener run, and the position table (every reply's exact value after "
                    "the openers people play) from the exact solver. Each is written as a new file (under "
                    f"{OUT}/ unless told, never over a shipped one) and prints its SHA-256: adopting it is copying it "
                    "into wordle/data/book/ and naming that SHA-256 in wordle/book.py, before which no command "
                    "reads it.")
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    build = steps.add_parser("build", help="the opening book from a complete all-opener run",
                             description=f"Write {OUT}/openers-MODE-LISTS.json.gz (or under --out) from a complete "
                                         "run of `openers --exact --all` (a partial run is refused): every opener's "
                                         "exact total, proved lower bound, or no win; the run's best opener is "
                                         "solved again first.")
    build.add_argument("--from", dest="run", required=True, type=path_text, metavar="FILE",
                       help="the all-opener run, e.g. results/openers-exact-normal-all.jsonl")
    build.add_argument("--exact", action="append", type=path_text, metavar="FILE",
                       help="a top-N run whose exact totals join the book (repeatable), e.g. "
                            "results/openers-exact-normal-top20.jsonl")
    build.add_argument("--out", type=path_text, metavar="DIR",
                       help=f"the folder to write the book in (default {OUT}; never over a shipped book)")
    add_word_list_options(build, named=True)
    build.set_defaults(handler=command_book_build)
    table = steps.add_parser("table", help="the position table: every reply's value after the common openers",
                             description="Solve every reply to the common openers and the best-ranked ones "
                                         "(for the 2022 lists, results/openers-MODE-top50.json; for other lists, "
                                         "their shipped book's exact totals, then the openers by their lower "
                                         "bound at the root, solved best first) with the exact solver, one "
                                         "opener a line into a work file (a killed run resumes), then write "
                                         f"{OUT}/positions-MODE-LISTS.json.gz (or under --out) of the openers "
                                         "done.")
    table.add_argument("--hard", action="store_true", help="hard mode")
    table.add_argument("--max-guesses", type=whole(2, MOST_GUESSES), default=6, metavar="N",
                       help="guess limit (default 6)")
    table.add_argument("--top", type=whole(0, 50), default=50, metavar="N",
                       help="the best N openers of each ranking join the common ones (default 50)")
    table.add_argument("--nodes", type=whole(1, 10**8), metavar="N",
                       help="solver nodes a reply may spend before its bounds are recorded as they are (default "
                            "wordle.positions.NODES, 3000)")
    table.add_argument("--work", type=path_text, metavar="FILE",
                       help="the resumable work file (default results/book-table-MODE.jsonl for the 2022 lists, "
                            "results/book-table-MODE-LISTS.jsonl for others)")
    table.add_argument("--out", type=path_text, metavar="DIR",
                       help=f"the folder to write the table in (default {OUT}; never over a shipped table)")
    table.add_argument("--no-pack", action="store_true", help="fill the work file only; do not write the artefact")
    table.add_argument("--pack-only", action="store_true",
                       help="solve nothing: write the artefact of the openers the work file holds now (its coverage "
                            "is said, and recorded in it)")
    add_word_list_options(table, named=True)
    table.set_defaults(handler=command_book_table)
