"""The shipped opening book and position table: what the exact solver proved about the first two guesses, checked on load.

Costs here are the optimal solver's packed costs (lower is better; see `wordle.solver`).

The only book is a versioned artefact per (mode, word lists) pair in `wordle/data/book/`:
`openers-MODE-LISTS.json.gz` (every allowed opener's exact total, proved lower bound, or
"no win within the limit", from a complete all-opener run: `python cli.py book build`) and
`positions-MODE-LISTS.json.gz` (every reply's value after the openers people play:
`python cli.py book table`), LISTS being the first 12 hex digits of the lists' checksum.
Each file's SHA-256 is named here in `SHIPPED`; no other file (nothing in `results/`) is read.

A file that is missing, damaged, forged (its checksum is not the one named here) or
inconsistent (two entries for one opener that disagree, an exact total below the proved
best, a best that is not the least, a table whose replies contradict the book) is refused
with one warning line naming it, and the commands run without it: values then come from search.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any


from plumbing.errors import UserError
from plumbing.storage import NotRegularFile, read_regular_file
from .solver import INFEASIBLE, SCALE
from .positions import ReplyValue, opener_cost, reply_from

if TYPE_CHECKING:
    from .game import State, Wordle

BOOK_FORMAT = "wordle-arena opening book v1"
TABLE_FORMAT = "wordle-arena position table v1"
#: Where the shipped artefacts live.
FOLDER = Path(__file__).resolve().parent / "data" / "book"
#: The shipped artefacts and their SHA-256: nothing else is read.
SHIPPED: dict[str, str] = {
    "openers-normal-c7e2ce7dc7b4.json.gz": "2bdf986cda8168628fa57c01d1d8994301b66670238da5a15f5e1d390e271bb9",
    "openers-hard-c7e2ce7dc7b4.json.gz": "3fa4340e0e3c5508ec762c8bdf101f203c6fe9693b0ef93af365e6f0971b3e69",
    "positions-normal-c7e2ce7dc7b4.json.gz": "9ac1b2692c8b2d1b4d97353d6953713a3ad06f75d9148fd809fb195f70149e8d",
    "positions-hard-c7e2ce7dc7b4.json.gz": "3aab13601f99963deb17e60c84353c1de995a56ff210538ac46aaba9a6bd2bef",
    # today's lists: the Times' 14855 guesses with its 2309 answers (--answers nyt --guesses nyt) ...
    "openers-normal-fe7b21091964.json.gz": "58e08abb7570c55136e38f2819967b1d2aaf5f98ca9f852f1323891f9d06f02b",
    "openers-hard-fe7b21091964.json.gz": "47b99a1fd033fadb310ab7c64bfd72c4b603ba2004a5abaf2a70e059dcf8e130",
    "positions-normal-fe7b21091964.json.gz": "085b6457455886fb224ccc71da9f556fb107ad35f04b9937c7c97c30f59edea9",
    "positions-hard-fe7b21091964.json.gz": "c1d7f5c4c69702919335d012966d98035367df9a74669374a6d2cd75ebb6eb9b",
    # ... and with every answer it has used outside them too (--answers played --guesses nyt)
    "openers-normal-3928b5750c14.json.gz": "d76e7359c3812d131e8fca502704baac006b86a04b956cb6427c547d65d142c5",
    "openers-hard-3928b5750c14.json.gz": "b16040db1b6001d48a2dff2a610a851b2ca677a449bd21bf535cbaad9fb23295",
    "positions-normal-3928b5750c14.json.gz": "6b1962b239fbb085c0507e97d7cf73995881690a93b9b9b1d0c2bc5fdfa88204",
    "positions-hard-3928b5750c14.json.gz": "a67ed80ca83c6e7ba1a05632a8b5f505f4a68cad40366017f3303f5b6452e688",
}
#: The largest book or table file read (the shipped ones are about 60 KB; every opener's entry of a 14855-guess
#: book, gzip'd, well under a megabyte).
MOST_ARTEFACT_BYTES = 64 * 2**20
#: An opener's status in the book.
EXACT, AT_LEAST, NO_WIN = "exact", "at_least", "no_win"


class BookRefused(UserWarning):
    """A book or table file refused on load (the commands go on without it)."""


class BookError(ValueError):
    """What is wrong with a book or table file (the reason it is refused)."""


@dataclass(frozen=True)
class Shelf:
    """Where artefacts are looked for and the checksums they must have (tests make their own)."""

    folder: Path = FOLDER
    checksums: tuple[tuple[str, str], ...] = tuple(SHIPPED.items())

    def expected(self, name: str) -> str | None:
        """The SHA-256 a file of this name must have, None if none is named."""
        return dict(self.checksums).get(name)


SHELF = Shelf()


def artefact_name(kind: str, hard: bool, checksum: str) -> str:
    """The file name of an artefact ("openers" or "positions") for a mode and lists.

    >>> artefact_name("openers", False, "c7e2ce7dc7b4f0921818c2b1")
    'openers-normal-c7e2ce7dc7b4.json.gz'
    """
    return f"{kind}-{'hard' if hard else 'normal'}-{checksum[:12]}.json.gz"


def sha256(data: bytes) -> str:
    """The hex SHA-256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def encode_artefact(data: dict) -> bytes:
    """An artefact's bytes: compact JSON, gzip'd with no time stamp (the same data gives the same bytes)."""
    return gzip.compress(json.dumps(data, separators=(",", ":"), sort_keys=True).encode(), mtime=0)


def decode_artefact(path: Path, expected: str) -> dict:
    """An artefact's JSON after its checksum is checked.

    Raises:
        BookError: the file is missing, unreadable, not the one named, or not gzip'd JSON.
    """
    try:
        data = read_regular_file(path, MOST_ARTEFACT_BYTES)
    except NotRegularFile:
        raise BookError("not a regular file: a folder, FIFO, device or socket") from None
    except UserError:  # larger than an artefact can be (a sparse or runaway file), refused before it is read
        raise BookError(f"{path.stat().st_size} bytes, more than the {MOST_ARTEFACT_BYTES} a book or table "
                        "can be") from None
    if data is None:
        raise BookError("missing or unreadable")
    if sha256(data) != expected:
        raise BookError("its SHA-256 is not the one wordle/book.py names (damaged or replaced)")
    try:
        decoded = json.loads(gzip.decompress(data))
    except (OSError, EOFError, ValueError) as error:
        raise BookError(f"not gzip'd JSON ({error})") from None
    if not isinstance(decoded, dict):
        raise BookError("not a JSON object")
    return decoded


def _check_header(data: dict, form: str, checksum: str, hard: bool, max_guesses: int, guesses: int) -> None:
    """The artefact's format, lists, mode and guess limit are the ones asked for."""
    if data.get("format") != form:
        raise BookError(f"format {data.get('format')!r}, not {form!r}")
    if data.get("word_lists_sha256") != checksum or data.get("guesses") != guesses:
        raise BookError("made for other word lists")
    if data.get("hard") is not hard or data.get("max_guesses") != max_guesses:
        raise BookError("made for another mode or guess limit")


# -- the opening book ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class OpeningBook:
    """Proved packed costs of first guesses (by guess index) for one word-list pair, mode and guess limit.

    Attributes:
        exact: opener -> its exact packed cost (total * SCALE + games over 5).
        lower: opener -> a proved lower bound on its packed cost.
        no_win: openers from which no tree solves every answer within the guess limit.
        best: the opener proved best over every allowed guess, or None (no book).
    """

    exact: dict[int, int] = field(default_factory=dict)
    lower: dict[int, int] = field(default_factory=dict)
    no_win: frozenset[int] = frozenset()
    best: int | None = None


def entry_from(row: Any) -> tuple[str, str, int | None, int | None]:
    """A book entry (opener, status, total, games over 5) from its JSON row, checked.

    Raises:
        BookError: the row is not one.
    """
    if not isinstance(row, list) or len(row) != 4 or not isinstance(row[0], str) or row[1] not in (EXACT, AT_LEAST, NO_WIN):
        raise BookError(f"a bad entry {str(row)[:60]}")
    opener, status, total, long_games = row
    if status == NO_WIN:
        if total is not None or not (long_games is None or isinstance(long_games, int) and long_games >= 1):
            raise BookError(f"a bad no-win entry for {opener}")
    elif not (isinstance(total, int) and total > 0 and isinstance(long_games, int) and 0 <= long_games < SCALE):
        raise BookError(f"a bad total for {opener}")
    return opener, status, total, long_games


def check_book(data: dict, guesses: tuple[str, ...], checksum: str, hard: bool, max_guesses: int) -> OpeningBook:
    """An opening book's JSON checked and turned into an OpeningBook.

    For a no-win entry, the fourth field is a proved lower bound on the answers lost (None if unknown).

    Raises:
        BookError: the header does not match, an entry is bad, two entries for one opener disagree, an
            opener is missing, or the best is not an exact total at most every other opener's cost or bound.
    """
    _check_header(data, BOOK_FORMAT, checksum, hard, max_guesses, len(guesses))
    index = {word: number for number, word in enumerate(guesses)}
    entries: dict[str, tuple] = {}
    rows = data.get("entries")
    if not isinstance(rows, list):
        raise BookError("no entries")
    for row in rows:
        entry = entry_from(row)
        if entry[0] not in index:
            raise BookError(f"{entry[0]!r} is not an allowed guess")
        if entries.setdefault(entry[0], entry) != entry:
            raise BookError(f"two entries for {entry[0]} disagree")
    if len(entries) != len(guesses):
        raise BookError(f"it covers {len(entries)} of the {len(guesses)} openers")
    book = OpeningBook()
    for opener, status, total, long_games in entries.values():
        if status == EXACT:
            book.exact[index[opener]] = total * SCALE + long_games
        elif status == AT_LEAST:
            book.lower[index[opener]] = total * SCALE
    no_win = frozenset(index[opener] for opener, status, _, _ in entries.values() if status == NO_WIN)
    best = data.get("best")
    if best not in index or index[best] not in book.exact:
        raise BookError(f"its best {best!r} has no exact total")
    least = book.exact[index[best]]
    for costs, what in ((book.exact, "exact total"), (book.lower, "bound")):
        for opener, cost in costs.items():
            if cost < least:
                raise BookError(f"the best {best} is not the least: {guesses[opener]}'s {what} "
                                f"{cost // SCALE} is below its {least // SCALE}")
    return OpeningBook(exact=book.exact, lower=book.lower, no_win=no_win, best=index[best])


def _refuse(path: Path, reason: str) -> None:
    """The one warning line for a refused file."""
    warnings.warn(f"{path}: refused ({reason}); values come from search instead", BookRefused, stacklevel=4)


def _book_or_error(guesses: tuple[str, ...], checksum: str, hard: bool, max_guesses: int,
                   shelf: Shelf) -> OpeningBook | None:
    """The book for these lists and mode (None if none is shipped for them); BookError if refused."""
    name = artefact_name("openers", hard, checksum)
    expected = shelf.expected(name)
    if expected is None:
        return None
    return check_book(decode_artefact(shelf.folder / name, expected), guesses, checksum, hard, max_guesses)


def opening_book(guesses: tuple[str, ...], checksum: str, hard: bool, max_guesses: int,
                 shelf: Shelf = SHELF) -> OpeningBook:
    """The shipped book for these lists (the guess words and the lists' checksum), mode and guess limit.

    A book that fails a check is refused with one warning line naming it; then, as when none is
    shipped for these lists, the book is empty and values come from search.

    >>> opening_book(("salet",), "no such lists", False, 6)
    OpeningBook(exact={}, lower={}, no_win=frozenset(), best=None)
    """
    return _load_book(guesses, checksum, hard, max_guesses, shelf)


@functools.lru_cache(maxsize=8)
def _load_book(guesses: tuple[str, ...], checksum: str, hard: bool, max_guesses: int, shelf: Shelf) -> OpeningBook:
    """opening_book, loaded and checked once per process (so a refused file is one warning)."""
    try:
        book = _book_or_error(guesses, checksum, hard, max_guesses, shelf)
    except BookError as error:
        _refuse(shelf.folder / artefact_name("openers", hard, checksum), str(error))
        return OpeningBook()
    return book or OpeningBook()


# -- the position table --------------------------------------------------------------------------------
@dataclass(frozen=True)
class PositionTable:
    """Each (opener, reply) position's value: packed costs from the second guess on (by guess index, pattern)."""

    replies: dict[tuple[int, int], ReplyValue] = field(default_factory=dict)
    openers: tuple[int, ...] = ()

    def value(self, opener: int, pattern: int) -> ReplyValue | None:
        """The position after `opener` got `pattern`, or None if the table does not hold it."""
        return self.replies.get((opener, pattern))

    def opener_bounds(self, opener: int, size: int) -> tuple[int, int] | None:
        """The packed (low, high) cost of the whole game opening with `opener` over `size` answers, added up from
        its replies (equal where every reply is settled), or None if the table does not hold the opener."""
        if opener not in self.openers:
            return None
        return opener_cost([value for (first, _), value in self.replies.items() if first == opener], size)


def check_table(data: dict, game: Wordle, hard: bool, max_guesses: int, book: OpeningBook) -> PositionTable:
    """A position table's JSON checked against the game (its replies and their sizes) and the book.

    Raises:
        BookError: the header does not match, a reply is bad or missing, a guess is not allowed, or an
            opener's replies add up to a total the book contradicts.
    """
    from .positions import reply_groups

    words = game.words
    _check_header(data, TABLE_FORMAT, words.checksum, hard, max_guesses, len(words.guesses))
    table = data.get("openers")
    if not isinstance(table, dict) or not table:
        raise BookError("no openers")
    replies: dict[tuple[int, int], ReplyValue] = {}
    for opener, rows in table.items():
        if opener not in words.guess_index or not isinstance(rows, list):
            raise BookError(f"{opener!r} is not an allowed guess")
        index = words.guess_index[opener]
        try:
            values = [reply_from(row) for row in rows]
        except ValueError as error:
            raise BookError(f"{opener}: {error}") from None
        groups = {code: len(group) for code, group in reply_groups(game, index)}
        if {value.pattern: value.answers for value in values} != groups or len(values) != len(groups):
            raise BookError(f"{opener}: its replies are not the game's")
        for value in values:
            if value.guess is not None and value.guess not in words.guess_index:
                raise BookError(f"{opener}: {value.guess!r} is not an allowed guess")
            replies[index, value.pattern] = value
        _agree(opener, index, values, len(words.answers), book)
    return PositionTable(replies=replies, openers=tuple(sorted({opener for opener, _ in replies})))


def _agree(opener: str, index: int, values: list[ReplyValue], size: int, book: OpeningBook) -> None:
    """An opener's replies add up to what the book proved about it (when the book is there)."""
    if book.best is None:
        return
    low, high = opener_cost(values, size)
    if index in book.exact and not low <= book.exact[index] <= high:
        raise BookError(f"{opener}'s replies add up to {low // SCALE}..{high // SCALE}, "
                        f"not the book's {book.exact[index] // SCALE}")
    if index in book.no_win and high < INFEASIBLE:
        raise BookError(f"{opener}'s replies have a tree, but the book says no win")
    if index in book.lower and high < book.lower[index]:
        raise BookError(f"{opener}'s replies add up to {high // SCALE}, below the book's bound "
                        f"{book.lower[index] // SCALE}")
    if book.exact and high < book.exact[book.best]:
        raise BookError(f"{opener}'s replies add up to {high // SCALE}, below the book's best")


def _table_or_error(game: Wordle, hard: bool, max_guesses: int, shelf: Shelf) -> PositionTable | None:
    """The table for this game and mode (None if none is shipped); BookError if refused."""
    name = artefact_name("positions", hard, game.words.checksum)
    expected = shelf.expected(name)
    if expected is None:
        return None
    book = opening_book(tuple(game.words.guesses), game.words.checksum, hard, max_guesses, shelf)
    return check_table(decode_artefact(shelf.folder / name, expected), game, hard, max_guesses, book)


_TABLES: dict[tuple, PositionTable] = {}


def position_table(game: Wordle, hard: bool, max_guesses: int, shelf: Shelf = SHELF) -> PositionTable:
    """The shipped position table for the game's lists, mode and guess limit (empty if none, or refused).

    Loaded and checked once per process; a refused table is one warning line naming it.
    """
    key = (game.words.checksum, len(game.words.guesses), hard, max_guesses, shelf)
    if key not in _TABLES:
        try:
            _TABLES[key] = _table_or_error(game, hard, max_guesses, shelf) or PositionTable()
        except BookError as error:
            _refuse(shelf.folder / artefact_name("positions", hard, game.words.checksum), str(error))
            _TABLES[key] = PositionTable()
    return _TABLES[key]


def table_value(game: Wordle, state: State, shelf: Shelf = SHELF) -> ReplyValue | None:
    """The table's value of a state one guess in (Guesser to move), or None when the table does not hold it."""
    if len(state.history) != 1:
        return None
    opener, pattern = state.history[0]
    if state.ultra:  # the tables hold normal and hard mode's positions only
        return None
    return position_table(game, state.hard, state.max_guesses, shelf).value(int(opener), int(pattern))
