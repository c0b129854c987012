"""The weighted opening book: each covered opener's real tree value and proved bound under one set of answer weights.

Costs here are the weighted solver's packed costs (`wordle.solver.weighted`: weight lost first, then weighted
guesses; lower is better). A weighted book is a versioned artefact per (mode, word lists, weights)
in `wordle/data/book/`, `weighted-openers-MODE-LISTS-WEIGHTS.json.gz` (LISTS and WEIGHTS the first
12 hex digits of the lists' checksum and of the weights' checksum, `weights_checksum`), written by
`python benchmarks/weighted_openers.py --pack` from its run. Each file's SHA-256 is named here in
`SHIPPED_WEIGHTED`; no other file is read. Per opener it holds `high`, the cost of the real tree the
run found (the replies' trees, `wordle.weighted_openers.guess_interval`, which the same command
rebuilds), and `low`, a proved lower bound; `best` is the opener of least `high`.

A file that is missing, damaged, forged or inconsistent (a `low` above its `high`, a best that is not
the least) is refused with one warning line naming it, and the commands run without it: an opener's
value is then searched (its tree built reply by reply), as for an opener the book does not cover. A
model whose weights change has another checksum, so its book is simply absent until one is built.
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .book import FOLDER, BookError, BookRefused, decode_artefact, encode_artefact, sha256
from .solver.weighted import WEIGHT_SCALE

WEIGHTED_FORMAT = "wordle-arena weighted opening book v1"
#: The shipped weighted books and their SHA-256: nothing else is read.
SHIPPED_WEIGHTED: dict[str, str] = {
    # likely over today's nyt guesses (14855): results/weighted-openers-likely-MODE.jsonl; each book names the openers
    # it holds. The books built before the answer model learnt the Times' taste
    # (results/weighted-openers-likely-*-before-taste.jsonl) no longer match its weights and are not shipped.
    # normal: the 20 DEFAULT_OPENERS of benchmarks/weighted_openers.py; no hard book yet.
    "weighted-openers-normal-dbee44fad425-6c8937652af0.json.gz":
        "895779033191453b1bdb562518596fbe4aa54ffb832367ac47082c4bbde03c17",
}


def weights_checksum(answers: tuple[str, ...] | list[str], weights: np.ndarray) -> str:
    """The SHA-256 of a model's integer weights: one `word weight` line per answer of weight above 0, in order.

    >>> weights_checksum(("cigar", "rebut"), np.array([16777216, 3]))[:12]
    'cb152dd7513f'
    """
    lines = "".join(f"{word} {int(weight)}\n" for word, weight in zip(answers, weights) if weight > 0)
    return hashlib.sha256(lines.encode()).hexdigest()


def weighted_name(hard: bool, lists: str, weights: str) -> str:
    """The file name of a weighted book.

    >>> weighted_name(False, "c7e2ce7dc7b4f09", "0123456789abcdef")
    'weighted-openers-normal-c7e2ce7dc7b4-0123456789ab.json.gz'
    """
    return f"weighted-openers-{'hard' if hard else 'normal'}-{lists[:12]}-{weights[:12]}.json.gz"


@dataclass(frozen=True)
class WeightedBook:
    """Openers' packed costs under one set of weights: `low` proved, `high` a real tree's; `best` the least high."""

    low: dict[int, int] = field(default_factory=dict)
    high: dict[int, int] = field(default_factory=dict)
    best: int | None = None
    loss_unit: int = 0
    total_weight: int = 0


def check_weighted(data: dict, guesses: tuple[str, ...], lists: str, weights: str, hard: bool,
                   max_guesses: int) -> WeightedBook:
    """A weighted book's JSON checked and turned into a WeightedBook.

    Raises:
        BookError: the header does not match, an entry is bad, or the best is not the least high.
    """
    if data.get("format") != WEIGHTED_FORMAT:
        raise BookError(f"format {data.get('format')!r}, not {WEIGHTED_FORMAT!r}")
    if data.get("word_lists_sha256") != lists or data.get("guesses") != len(guesses):
        raise BookError("made for other word lists")
    if data.get("weights_sha256") != weights or data.get("weight_scale") != WEIGHT_SCALE:
        raise BookError("made for other answer weights")
    if data.get("hard") is not hard or data.get("max_guesses") != max_guesses:
        raise BookError("made for another mode or guess limit")
    loss_unit, total = data.get("loss_unit"), data.get("total_weight")
    if not (isinstance(loss_unit, int) and isinstance(total, int) and loss_unit > (max_guesses + 1) * total > 0):
        raise BookError("a bad loss unit or total weight")
    index = {word: number for number, word in enumerate(guesses)}
    rows = data.get("openers")
    if not isinstance(rows, dict) or not rows:
        raise BookError("no openers")
    low, high = {}, {}
    for word, row in rows.items():
        if word not in index:
            raise BookError(f"{word!r} is not an allowed guess")
        if not (isinstance(row, dict) and all(isinstance(row.get(k), int) for k in ("low", "high"))
                and total <= row["low"] <= row["high"]):
            raise BookError(f"a bad entry for {word}")
        low[index[word]], high[index[word]] = row["low"], row["high"]
    best = data.get("best")
    if best not in index or index[best] not in high:
        raise BookError(f"its best {best!r} has no entry")
    if any(cost < high[index[best]] for cost in high.values()):
        raise BookError(f"its best {best} has not the least tree")
    return WeightedBook(low=low, high=high, best=index[best], loss_unit=loss_unit, total_weight=total)


def pack_weighted(data: dict[str, Any], folder: Path = FOLDER) -> tuple[Path, str]:
    """Write a weighted book's artefact under its own name (never over a shipped one); its path and SHA-256.

    Raises:
        BookError: a file of that name is already shipped.
    """
    name = weighted_name(data["hard"], data["word_lists_sha256"], data["weights_sha256"])
    if name in SHIPPED_WEIGHTED:
        name = name.replace(".json.gz", ".new.json.gz")
    encoded = encode_artefact(data)
    path = folder / name
    path.write_bytes(encoded)
    return path, sha256(encoded)


@functools.lru_cache(maxsize=8)
def weighted_book(guesses: tuple[str, ...], lists: str, weights: str, hard: bool, max_guesses: int,
                  folder: Path = FOLDER) -> WeightedBook | None:
    """The shipped weighted book for these lists, weights, mode and guess limit, checked; None if none is shipped
    (or it is refused, with one warning line naming it)."""
    name = weighted_name(hard, lists, weights)
    expected = SHIPPED_WEIGHTED.get(name)
    if expected is None:
        return None
    try:
        return check_weighted(decode_artefact(folder / name, expected), guesses, lists, weights, hard, max_guesses)
    except BookError as error:
        warnings.warn(f"{folder / name}: refused ({error}); opener values are searched", BookRefused, stacklevel=2)
        return None


__all__ = ["SHIPPED_WEIGHTED", "WEIGHTED_FORMAT", "WeightedBook", "check_weighted", "pack_weighted",
           "weighted_book", "weighted_name", "weights_checksum"]
