"""Build the shipped NYT data files from their public sources (see wordle/data/README.md).

Run: python benchmarks/make_nyt_data.py USED_DATED_JSON ALLOWED_JSON
  USED_DATED_JSON: willray73-sys/wordle-words' public/used_dated.json ({"results": [{"date", "word"}, ...]});
  ALLOWED_JSON: the same repository's public/allowed.json ({"words": [...]}, the Times' 14,855 allowed guesses).
  Writes wordle/data/nyt-answers.tsv, wordle/data/nyt-guesses.txt and wordle/data/word-kinds.tsv.
Or: python benchmarks/make_nyt_data.py --kinds
  Writes wordle/data/word-kinds.tsv alone, for the shipped wordle/data/nyt-guesses.txt.
Reads the SCOWL dictionaries Debian ships (packages wamerican, wbritish, wamerican-large, wbritish-large), the
project's own taste list wordle/data/word-taste.tsv, wordfreq's frequencies, and lemminflect's lexicon of English
inflections (the `data` extra: pip install '.[data]').
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_model import PLURAL_STEM_ZIPF  # noqa: E402
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


def kind(word: str, standard: set[str], large: set[str], names: set[str], taste: dict[str, str]) -> str:
    """A word's kind: name (capitalised only, or a proper noun first by the taste list), common (standard
    dictionary), known (large one), or rare."""
    if word in names or taste.get(word) == "name":
        return "name"
    if word in standard:
        return "common"
    return "known" if word in large else "rare"


def lexicon_lemmas(word: str) -> dict[str, tuple[str, ...]]:
    """The lemmas lemminflect's lexicon gives a word, by part of speech (empty for a word it lacks)."""
    import lemminflect  # imported here: only building the kinds needs it

    return lemminflect.getAllLemmas(word)


def is_plural(word: str, large: set[str], lemmas: dict[str, tuple[str, ...]], zipf: Callable[[str], float]) -> bool:
    """An -S form of a shorter word: the lexicon names a shorter noun or verb lemma (TRIES: try, MENUS: menu,
    TAXIS: taxi), or it is a word + S or + ES, not -SS, -US, -IS (so JEANS and KUDOS stay ruled out), where a word
    is a dictionary's, or, for a word the lexicon lacks, one wordfreq rates at least PLURAL_STEM_ZIPF (CARBS: carb;
    the lexicon keeps CHAOS and ALIAS)."""
    if not word.endswith("s"):
        return False
    if any(len(lemma) < len(word) for pos in ("NOUN", "VERB", "AUX") for lemma in lemmas.get(pos, ())):
        return True
    if word.endswith(("ss", "us", "is")):
        return False
    stems = (word[:-1], word[:-2]) if word.endswith("es") else (word[:-1],)
    return any(stem in large or (not lemmas and zipf(stem) >= PLURAL_STEM_ZIPF) for stem in stems)


def is_past(word: str, large: set[str], lemmas: dict[str, tuple[str, ...]]) -> bool:
    """A past tense or participle of a shorter verb: by the lexicon where it has the word (UPPED: up, and not
    SHRED, TWEED or GREED), else a dictionary word + ED or + D."""
    if lemmas:
        return word.endswith("d") and any(len(lemma) < len(word) for lemma in lemmas.get("VERB", ()))
    return word.endswith("ed") and (word[:-2] in large or word[:-1] in large)


def read_taste() -> dict[str, str]:
    """The project's taste list (wordle/data/word-taste.tsv): word to class."""
    lines = (DATA / "word-taste.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return dict(line.split("\t") for line in lines)


def write_kinds(guesses: list[str], output: Path = DATA / "word-kinds.tsv") -> int:
    """Write the word kinds of these guesses (wordle/data/word-kinds.tsv unless told); return how many rows."""
    import wordfreq

    def zipf(text: str) -> float:
        """wordfreq's Zipf frequency of a string in English (its large list)."""
        return wordfreq.zipf_frequency(text, "en", wordlist="large")

    standard, _ = dictionary(STANDARD)
    large, capital = dictionary(LARGE + STANDARD)
    taste = read_taste()
    unknown = sorted(set(taste) - set(guesses))
    if unknown:
        raise SystemExit(f"word-taste.tsv: not allowed guesses: {', '.join(unknown)}")
    rows = ["word\tzipf\tkind\tplural\tpast\ttaste"]
    for word in guesses:
        lemmas = lexicon_lemmas(word)
        unfit = taste.get(word, "-")
        rows.append(f"{word}\t{zipf(word):.2f}\t{kind(word, standard, large, capital, taste)}\t"
                    f"{int(is_plural(word, large, lemmas, zipf))}\t{int(is_past(word, large, lemmas))}\t"
                    f"{'-' if unfit == 'name' else unfit}")
    output.write_text("\n".join(rows) + "\n")
    return len(rows) - 1


def main() -> None:
    """Write the three files, or with --kinds the word kinds alone."""
    if sys.argv[1:] == ["--kinds"]:
        guesses = (DATA / "nyt-guesses.txt").read_text().split()
        print(f"{write_kinds(guesses)} word kinds")
        return
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
    print(f"{len(days)} days, {len(guesses)} guesses, {write_kinds(guesses)} word kinds")


if __name__ == "__main__":
    main()
