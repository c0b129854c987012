"""What the exact opener job has proved about a game's first guess, read back from its results files.

Costs here are the optimal solver's packed costs (lower is better; see `wordle.optimal`). The
job (`python cli.py openers --exact`, tournament/exact_openers.py) writes one JSON line per
opener to `results/openers-exact-MODE-SCOPE.jsonl`, after a header naming the mode, the guess
limit and the word lists' checksum: an opener's exact total, or (`"exact": false`) a proved
lower bound above the job's cut-off. Its summary (`...-all.summary.json`) says when the best
opener was proved over every allowed guess. `wordle.valuation` starts a game from here, so
the opening position's value is proved at once instead of searched for within a budget.

Files whose header does not match the game's lists, mode and guess limit are not used; a
damaged line or file is skipped (the book only ever saves time: without it the solver searches).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from plumbing.errors import UserError
from .optimal import SCALE
from plumbing.storage import read_regular_file

#: Where the project's own commands write their results.
RESULTS = Path(__file__).resolve().parent.parent / "results"


@dataclass(frozen=True)
class OpeningBook:
    """Proved packed costs of first guesses (by guess index) for one word-list pair, mode and guess limit.

    Attributes:
        exact: opener -> its exact packed cost (total * SCALE + games over 5).
        lower: opener -> a proved lower bound on its packed cost.
        best: the opener proved best over every allowed guess, or None.
    """

    exact: dict[int, int] = field(default_factory=dict)
    lower: dict[int, int] = field(default_factory=dict)
    best: int | None = None


def _text(path: Path) -> str:
    """A results file's text, empty when it is missing, damaged or not a regular file (then it is not used)."""
    try:
        return (read_regular_file(path) or b"").decode()
    except (UserError, OSError, UnicodeDecodeError):
        return ""


def _lines(path: Path) -> list[dict]:
    """The JSON objects of a file of JSON lines; none if any line is damaged."""
    try:
        rows = [json.loads(line) for line in _text(path).splitlines() if line.strip()]
    except ValueError:
        return []
    return [row for row in rows if isinstance(row, dict)]


def _summary(path: Path) -> dict:
    """A JSON summary file's object, empty when it is missing or damaged."""
    try:
        data = json.loads(_text(path) or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _fits(header: dict, checksum: str, hard: bool, max_guesses: int) -> bool:
    """Whether a job's header (or summary) speaks of these lists, mode and guess limit."""
    return (header.get("word_lists_sha256") == checksum and header.get("max_guesses") == max_guesses
            and header.get("mode") == ("hard" if hard else "normal"))


@functools.lru_cache(maxsize=8)
def opening_book(guesses: tuple[str, ...], checksum: str, hard: bool, max_guesses: int,
                 folder: Path = RESULTS) -> OpeningBook:
    """The book for these lists (the guess words and the lists' checksum), mode and guess limit.

    >>> opening_book(("salet",), "no such lists", False, 6)
    OpeningBook(exact={}, lower={}, best=None)
    """
    index = {word: number for number, word in enumerate(guesses)}
    book = OpeningBook()
    mode = "hard" if hard else "normal"
    for path in sorted(folder.glob(f"openers-exact-{mode}-*.jsonl")):
        rows = _lines(path)
        if not rows or not _fits(rows[0], checksum, hard, max_guesses):
            continue
        for row in rows[1:]:
            opener, total, long_games = row.get("opener"), row.get("total"), row.get("long_games")
            if opener not in index or not isinstance(total, int) or not isinstance(long_games, int) or total < 0:
                continue
            cost = total * SCALE + max(long_games, 0)
            if row.get("exact", True):
                book.exact[index[opener]] = cost
            else:
                book.lower[index[opener]] = max(cost, book.lower.get(index[opener], 0))
        summary = _summary(path.with_suffix(".summary.json"))
        if _fits(summary, checksum, hard, max_guesses) and summary.get("proved_best_over_all") is True:
            best = summary.get("best") if isinstance(summary.get("best"), dict) else {}
            if best.get("opener") in index and index[best["opener"]] in book.exact:
                book = OpeningBook(exact=book.exact, lower=book.lower, best=index[best["opener"]])
    return book
