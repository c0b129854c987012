"""Build the shipped NYT data files from their public sources (see wordle/data/README.md).

Run: python benchmarks/make_nyt_data.py USED_DATED_JSON ALLOWED_JSON
  USED_DATED_JSON: willray73-sys/wordle-words' public/used_dated.json ({"results": [{"date", "word"}, ...]});
  ALLOWED_JSON: the same repository's public/allowed.json ({"words": [...]}, the Times' 14,855 allowed guesses).
Reads the SCOWL dictionaries Debian ships (packages wamerican, wbritish, wamerican-large, wbritish-large).
Writes wordle/data/nyt-answers.tsv, wordle/data/nyt-guesses.txt and wordle/data/word-kinds.tsv.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle.nyt import FIRST_PUZZLE_DATE, puzzle_number  # noqa: E402

DATA = ROOT / "wordle" / "data"
STANDARD = ("/usr/share/dict/american-english", "/usr/share/dict/british-english")
LARGE = ("/usr/share/dict/american-english-large", "/usr/share/dict/british-english-large")


def dictionary(paths: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """The lowercase words and the capitalised-only words of some dictionary files (any length)."""
    lower: set[str] = set()
    capital: set[str] = set()
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8", errors="ignore").splitlines():
            if line.isascii() and line.isalpha():
                (lower if line.islower() else capital).add(line.lower())
    return lower, capital - lower


def kind(word: str, standard: set[str], large: set[str], names: set[str]) -> str:
    """A word's kind: common (standard dictionary), known (large one), name (capitalised only), or rare."""
    if word in standard:
        return "common"
    if word in large:
        return "known"
    return "name" if word in names else "rare"


def is_plural(word: str, large: set[str]) -> bool:
    """A word + S or + ES where the stem is a dictionary word (not -SS, -US, -IS)."""
    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    return word[:-1] in large or (word.endswith("es") and word[:-2] in large)


def is_past(word: str, large: set[str]) -> bool:
    """A word + ED or + D where the stem is a dictionary word."""
    return word.endswith("ed") and (word[:-2] in large or word[:-1] in large)


def main() -> None:
    """Write the three files."""
    used, allowed = sys.argv[1], sys.argv[2]
    days = json.loads(Path(used).read_text())["results"]
    lines = ["date\tnumber\tword"]
    for offset, day in enumerate(days):
        date = datetime.date.fromisoformat(day["date"])
        if date != FIRST_PUZZLE_DATE + datetime.timedelta(days=offset):
            raise SystemExit(f"{used}: a day missing or out of order at {day['date']}")
        lines.append(f"{date.isoformat()}\t{puzzle_number(date)}\t{day['word'].lower()}")
    (DATA / "nyt-answers.tsv").write_text("\n".join(lines) + "\n")
    guesses = sorted(word.lower() for word in json.loads(Path(allowed).read_text())["words"])
    (DATA / "nyt-guesses.txt").write_text("\n".join(guesses) + "\n")
    import wordfreq

    standard, _ = dictionary(STANDARD)
    large, capital = dictionary(LARGE + STANDARD)
    rows = ["word\tzipf\tkind\tplural\tpast"]
    for word in guesses:
        zipf = wordfreq.zipf_frequency(word, "en", wordlist="large")
        rows.append(f"{word}\t{zipf:.2f}\t{kind(word, standard, large, capital)}\t"
                    f"{int(is_plural(word, large))}\t{int(is_past(word, large))}")
    (DATA / "word-kinds.tsv").write_text("\n".join(rows) + "\n")
    print(f"{len(days)} days, {len(guesses)} guesses, {len(rows) - 1} word kinds")


if __name__ == "__main__":
    main()
