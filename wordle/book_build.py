"""Building the shipped artefacts of `wordle.book`: the opening book from a complete all-opener run, the position table.

Costs here are the optimal solver's packed costs (lower is better; see `wordle.solver`).

The all-opener job (`python cli.py openers --exact --all`, tournament/exact_openers.py)
writes one JSON line per opener after a header naming the mode, the guess limit, the word
lists' checksum and every opener it covers: an exact total, a proved lower bound
(`"exact": false`), or no win (`total` -1). A book is built only from a run that holds every
allowed guess, once; top-N runs of the same job may add exact totals (each consistent with
the run's bound). The result is checked again as a reader would, and written as a new file
(by default under results/book/, never over an artefact wordle/book.py names): its SHA-256 is
returned, and adopting it is copying it into wordle/data/book/ and naming that SHA-256 in
wordle/book.py's SHIPPED. Before a book is written, its best opener's exact total is proved
again by the solver (a run's line is not believed unchecked).
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import provenance, read_regular_file, write_atomically
from .book import (AT_LEAST, BOOK_FORMAT, EXACT, FOLDER, NO_WIN, SHIPPED, TABLE_FORMAT, BookError, OpeningBook,
                   artefact_name, check_book, check_table, encode_artefact, sha256)
from .game import Wordle
from .solver import INFEASIBLE, SCALE, Limits, Solver, unpack
from .positions import ReplyValue, read_work, reply_record

RUN_FORMAT = "wordle-arena exact openers v1"
#: Where `book build` and `book table` write a new artefact unless told (never over a shipped one).
OUT = Path("results") / "book"


def input_problem(path: Path) -> str | None:
    """What a path given as an input file is when it is not one (a folder, a device), said without advice to remove
    it (it is the user's, and may be anything); None for a regular file or a path that does not exist."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder, not an exact-openers run (name its .jsonl file, e.g. results/openers-exact-normal-all.jsonl)"
    if not stat.S_ISREG(mode):
        return "a device, FIFO or socket, not an exact-openers run (name its .jsonl file)"
    return None


def shipped_target(path: Path) -> bool:
    """Whether writing `path` would replace a shipped artefact: a file wordle/book.py names, in its folder."""
    return path.name in SHIPPED and path.resolve().parent == FOLDER.resolve()


@dataclass
class BookDraft:
    """A book being assembled: opener -> (status, total, games over 5 or losses), and the best opener."""

    entries: dict[str, tuple[str, int | None, int | None]]
    best: str = ""

    def counts(self) -> str:
        """How many openers of each status, in words."""
        statuses = [entry[0] for entry in self.entries.values()]
        return (f"{statuses.count(EXACT)} exact, {statuses.count(AT_LEAST)} bounded, "
                f"{statuses.count(NO_WIN)} no win")


def _read_run(path: Path, game: Wordle, hard: bool | None = None) -> tuple[dict, dict[str, dict]]:
    """A run's header and its rows by opener (session lines skipped).

    Raises:
        UserError: the file is missing, damaged, of another job or lists, or holds two rows for one opener
            that disagree.
    """
    if (problem := input_problem(path)) is not None:
        raise UserError(f"{path}: {problem}")
    try:
        data = read_regular_file(path)
        lines = (data or b"").decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise UserError(f"{path}: not an exact-openers run (not UTF-8)") from None
    if not lines:
        raise UserError(f"{path}: missing or empty")
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != RUN_FORMAT:
        raise UserError(f"{path}: not an exact-openers run ({RUN_FORMAT})")
    try:
        rows = [json.loads(line) for line in lines[1:] if line.strip()]
    except ValueError:
        raise UserError(f"{path}: a damaged line; a book needs a whole run") from None
    if header.get("word_lists_sha256") != game.words.checksum:
        raise UserError(f"{path}: made for other word lists than these")
    if header.get("ultra"):
        raise UserError(f"{path}: an ultra-hard mode run; the opening book holds normal and hard mode only")
    if hard is not None and header.get("hard") is not hard:
        raise UserError(f"{path}: made for the other mode")
    found: dict[str, dict] = {}
    for row in rows:
        if not isinstance(row, dict) or "session" in row:
            continue
        opener = row.get("opener")
        if opener not in game.words.guess_index or not isinstance(row.get("total"), int) \
                or not isinstance(row.get("long_games"), int):
            raise UserError(f"{path}: a bad line for {str(opener)[:20]!r}")
        key = (row["total"], row["long_games"], row.get("exact", True))
        if opener in found and (found[opener]["total"], found[opener]["long_games"],
                                found[opener].get("exact", True)) != key:
            raise UserError(f"{path}: two lines for {opener} disagree")
        found[opener] = row
    return header, found


def _status(row: dict) -> tuple[str, int | None, int | None]:
    """A run row as a book entry: exact total, proved lower bound, or no win (with the losses bound if recorded)."""
    if row["total"] < 0 or row.get("no_win") is True:
        losses = row.get("losses_low")
        return NO_WIN, None, losses if isinstance(losses, int) and losses >= 1 else None
    if row.get("exact", True):
        return EXACT, row["total"], row["long_games"]
    return AT_LEAST, row["total"], 0


def draft_book(game: Wordle, run: Path, extras: list[Path] = ()) -> tuple[BookDraft, dict]:
    """The book a complete all-opener run proves (top-N runs adding exact totals), and the run's header.

    Raises:
        UserError: the run is not complete, the files disagree, or the run does not prove its best.
    """
    header, rows = _read_run(run, game)
    guesses = game.words.guesses
    if set(header.get("openers") or ()) != set(guesses) or len(rows) != len(guesses):
        raise UserError(f"{run}: a partial run ({len(rows)} of the {len(guesses)} openers); a book needs a "
                        f"complete one (python cli.py openers --exact --all)")
    entries = {opener: _status(row) for opener, row in rows.items()}
    for extra in extras:
        extra_header, extra_rows = _read_run(extra, game, hard=header.get("hard"))
        if extra_header.get("max_guesses") != header.get("max_guesses"):
            raise UserError(f"{extra}: made for another guess limit than {run}")
        for opener, row in extra_rows.items():
            status, total, long_games = _status(row)
            known = entries[opener]
            if status == AT_LEAST or known == (status, total, long_games):
                continue
            if known[0] != AT_LEAST or status == EXACT and total < known[1]:
                raise UserError(f"{extra}: {opener} is {status} {total}, but {run} says {known[0]} {known[1]}")
            entries[opener] = (status, total, long_games)
    exact = {opener: total * SCALE + long for opener, (status, total, long) in entries.items() if status == EXACT}
    if not exact:
        raise UserError(f"{run}: no opener solved exactly; the run proves no best")
    best = min(exact, key=lambda opener: (exact[opener], guesses.index(opener)))
    return BookDraft(entries=entries, best=best), header


def book_data(game: Wordle, draft: BookDraft, header: dict, run: Path, extras: list[Path], command: str) -> dict:
    """The artefact's JSON: header, provenance (the build and the runs it came from), entries in guess order."""
    def source(path: Path, head: dict) -> dict:
        """Where one input came from."""
        return {"path": str(path), "sha256": sha256(read_regular_file(path) or b""), "command": head.get("command"),
                "commit": head.get("commit"), "cut": head.get("cut")}

    sources = [source(extra, _read_run(extra, game)[0]) for extra in extras]
    return {
        "format": BOOK_FORMAT, "mode": header["mode"], "hard": header["hard"], "max_guesses": header["max_guesses"],
        "word_lists_sha256": game.words.checksum, "answers": len(game.words.answers),
        "guesses": len(game.words.guesses), "best": draft.best,
        "provenance": {"command": command, **provenance(), "run": source(run, header), "exact_from": sources},
        "entries": [[opener, *draft.entries[opener]] for opener in game.words.guesses],
    }


def write_artefact(data: dict, name: str, folder: Path, check: Any) -> tuple[Path, str]:
    """Encode, check as a reader would (`check(data)` raising BookError), write as a new file; the path and SHA-256.

    Raises:
        UserError: the artefact would be refused, or `folder` is the shipped artefacts' and the name one of theirs
            (a build never writes over what wordle/book.py names: every command would then refuse it).
    """
    payload = encode_artefact(data)
    try:
        check(json.loads(json.dumps(data)))
    except BookError as error:
        raise UserError(f"{name}: the artefact would be refused on load ({error})") from None
    path = folder / name
    if shipped_target(path):
        raise UserError(f"{path}: a shipped artefact, named by its SHA-256 in wordle/book.py; a build never writes "
                        f"over it: give --out another folder (default {OUT})")
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: a file where the artefact's folder belongs; give --out a folder")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(path, payload)
    return path, sha256(payload)


def prove_best_again(game: Wordle, draft: BookDraft, hard: bool, max_guesses: int, run: Path) -> None:
    """The run's best opener solved again by the exact solver: its total must be the run's, else nothing is written.

    Raises:
        UserError: the solver finds another total (the run's line is wrong: edited, or from other code).
    """
    status, total, long_games = draft.entries[draft.best]
    solver = Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits())
    answers = np.arange(len(game.words.answers))
    cost = solver.try_guess(answers, max_guesses, solver.state_hints(game.initial_state(hard=hard)), 
                            game.words.guess_index[draft.best], INFEASIBLE)
    if cost != total * SCALE + long_games:
        found = "no win" if cost >= INFEASIBLE else f"total {unpack(cost)[0]}, {unpack(cost)[1]} games over 5"
        raise UserError(f"{run}: its best {draft.best.upper()} says total {total}, {long_games} games over 5, but "
                        f"solved again it is {found}; no book is written from it")


def build_book(game: Wordle, run: Path, extras: list[Path] = (), folder: Path = OUT,
               command: str = "", prove: bool = True) -> tuple[Path, str, BookDraft]:
    """Build and write the opening book of a complete all-opener run, as a new file.

    Args:
        game: the game over the run's word lists.
        run: the all-opener run (results/openers-exact-MODE-all.jsonl).
        extras: top-N runs of the same mode whose exact totals join the book.
        folder: where to write it (never over a shipped artefact: `write_artefact`).
        command: the command line, for the provenance.
        prove: solve the best opener again before writing (`prove_best_again`).

    Returns:
        The file written, its SHA-256 (for wordle/book.py's SHIPPED) and the book.

    Raises:
        UserError: the run is partial, damaged or inconsistent.
    """
    draft, header = draft_book(game, run, list(extras))
    if prove:
        prove_best_again(game, draft, bool(header.get("hard")), int(header.get("max_guesses") or 6), run)
    data = book_data(game, draft, header, run, list(extras), command)
    name = artefact_name("openers", data["hard"], game.words.checksum)
    path, digest = write_artefact(data, name, folder, lambda loaded: check_book(
        loaded, tuple(game.words.guesses), game.words.checksum, data["hard"], data["max_guesses"]))
    return path, digest, draft


def pack_positions(game: Wordle, hard: bool, max_guesses: int, work: Path, done: dict[str, list[ReplyValue]],
                   openers: list[str], book: OpeningBook, folder: Path = OUT,
                   planned: list[str] | None = None, command: str | None = None) -> tuple[Path, str]:
    """Write the position table of `openers` from a work file (checked against `book` first).

    `planned`, the openers the packing command planned (recorded beside the ones covered), defaults to the work
    file's first plan (a work file resumed with more openers has a later one); `command`, the packing command, is
    recorded with the packing's provenance.

    Returns:
        The file written and its SHA-256 (for wordle/book.py's SHIPPED).

    Raises:
        UserError: an opener is not in the work file yet, or the table would be refused.
    """
    missing = [opener for opener in openers if opener not in done]
    if missing or not openers:
        raise UserError(f"{work}: {len(missing)} of the openers are not done yet ({', '.join(missing[:3])})")
    header, _ = read_work(work)
    data = {
        "format": TABLE_FORMAT, "mode": "hard" if hard else "normal", "hard": hard, "max_guesses": max_guesses,
        "word_lists_sha256": game.words.checksum, "answers": len(game.words.answers),
        "guesses": len(game.words.guesses), "nodes": header["nodes"],
        "planned": header.get("openers") if planned is None else planned,
        "provenance": {"command": header["command"], "commit": header.get("commit"), "dirty": header.get("dirty"),
                       "machine": header.get("machine"), "work": {"path": str(work),
                                                                  "sha256": sha256(read_regular_file(work) or b"")},
                       "packed_by": {**({"command": command} if command else {}), **provenance()}},
        "openers": {opener: [reply_record(reply) for reply in done[opener]] for opener in openers},
    }
    name = artefact_name("positions", hard, game.words.checksum)
    return write_artefact(data, name, folder, lambda loaded: check_table(loaded, game, hard, max_guesses, book))
