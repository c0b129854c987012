"""Word lists: the shipped official lists, validation of user-supplied ones, and letter encoding.

A word is five lowercase ASCII letters (the variants' lists, four to nine). The answers are a subset of the guesses; a
`Words` value keeps both, plus where each answer sits in the guess list.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import read_regular_file
from wordle.nyt import daily_answers

WORD_LENGTH = 5
ANSWERS_FILE = "wordle-answers.txt"
GUESSES_FILE = "wordle-guesses.txt"
#: The largest word list read (every five-letter string of a-z, a line each, is 71 MB; the official lists are 92 KB).
MOST_WORD_FILE_BYTES = 16 * 2**20
#: Guess lists by name, for --guesses: the 2022 list every proof and the tournament use (as `original`, or `2022`),
#: and the Times' list today (`nyt`).
NAMED_GUESSES = {
    "original": ("wordle-guesses.txt", "the 12972 guesses of 2022 (the tournament's, and every published proof's)"),
    "2022": ("wordle-guesses.txt", "the same as original"),
    "nyt": ("nyt-guesses.txt", "the 14855 guesses the Times accepts today"),
}
#: The guess list of the player's commands (assist, review, play at the prompt, the web) unless told: every word
#: the Times accepts today. The tournament, solve, openers, book and the published runs keep the 2022 list.
PLAYER_GUESSES = "nyt"
#: The six words the later 2309-answer list dropped from the original 2315.
REMOVED_IN_2309 = ("agora", "fibre", "lynch", "pupal", "slave", "wench")


class WordListError(UserError):
    """A word list that cannot be used; the message names the file, line and word."""


@dataclass(frozen=True, eq=False)
class Words:
    """The answers and allowed guesses of one game, in their file order.

    Attributes:
        answers: words that can be the hidden answer.
        guesses: words that may be played (every answer is among them).
        answer_rows: for each answer, its index in `guesses`.
        checksum: SHA-256 over both lists, naming them in caches and results files.
    """

    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    answer_rows: np.ndarray = field(repr=False)
    checksum: str
    guess_index: dict[str, int] = field(repr=False)
    answer_index: dict[str, int] = field(repr=False)

    @classmethod
    def build(cls, answers: tuple[str, ...], guesses: tuple[str, ...], source: str = "<lists>",
              answer_lines: dict[str, int] | None = None) -> "Words":
        """Combine two validated lists; every answer must be an allowed guess.

        `source` and `answer_lines` (each answer's line in its file) name the place of an
        answer missing from the guesses in the error.
        """
        guess_index = {word: i for i, word in enumerate(guesses)}
        missing = [word for word in answers if word not in guess_index]
        if missing:
            line = f", line {answer_lines[missing[0]]}" if answer_lines and missing[0] in answer_lines else ""
            raise WordListError(f"{source}{line}: answer '{missing[0]}' is not in the guess list")
        answer_rows = np.array([guess_index[word] for word in answers], dtype=np.int32)
        digest = hashlib.sha256()
        digest.update("\n".join(answers).encode())
        digest.update(b"\0")
        digest.update("\n".join(guesses).encode())
        return cls(
            answers=answers,
            guesses=guesses,
            answer_rows=answer_rows,
            checksum=digest.hexdigest(),
            guess_index=guess_index,
            answer_index={word: i for i, word in enumerate(answers)},
        )

    @property
    def length(self) -> int:
        """Letters in each word (five for the official lists)."""
        return len(self.answers[0]) if self.answers else WORD_LENGTH

    def guess_id(self, word: str) -> int:
        """Index of an allowed guess, or WordListError naming the word."""
        try:
            return self.guess_index[word.strip().lower()]
        except KeyError:
            raise WordListError(f"'{word}' is not in the list of allowed guesses") from None

    def answer_id(self, word: str) -> int:
        """Index of a possible answer, or WordListError naming the word."""
        try:
            return self.answer_index[word.strip().lower()]
        except KeyError:
            raise WordListError(f"'{word}' is not in the list of possible answers") from None


def check_words(lines: list[str], source: str, length: int = WORD_LENGTH) -> dict[str, int]:
    """Validate raw lines as a word list: each word with its 1-based line, in file order (blank lines skipped).

    Raises WordListError naming `source`, the line and the word on the first problem: an
    empty list, a word that is not `length` (five) ASCII letters, or a duplicate.
    """
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        word = raw.strip().lower()
        if not word:
            continue
        if len(word) != length:
            raise WordListError(f"{source}, line {number}: '{raw.strip()}' is not a {length}-letter word")
        if not (word.isascii() and word.isalpha()):
            raise WordListError(f"{source}, line {number}: '{raw.strip()}' has a character that is not a letter a-z")
        if word in seen:
            raise WordListError(f"{source}, line {number}: '{word}' is a duplicate of line {seen[word]}")
        seen[word] = number
    if not seen:
        raise WordListError(f"{source}: the word list is empty")
    return seen


def read_word_file(path: str | Path) -> dict[str, int]:
    """Read and validate a word list file, one word a line: each word with its line number.

    A UTF-8 byte-order mark at the start, as some editors write, is skipped. A file over
    MOST_WORD_FILE_BYTES is refused before it is read.
    """
    path = Path(path)
    if path.exists() and not path.is_file():  # a folder, or a FIFO whose reading would wait forever
        raise WordListError(f"{path}: not a regular file")
    try:
        data = read_regular_file(path, MOST_WORD_FILE_BYTES)
    except UserError as error:
        raise WordListError(f"{error} (a word list)") from None
    if data is None:
        raise WordListError(f"{path}: no such file" if not os.path.lexists(path) else f"{path}: cannot be read")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise WordListError(f"{path}: cannot be read ({error.__class__.__name__})") from None
    return check_words(text.splitlines(), str(path))


def _shipped(name: str) -> dict[str, int]:
    """A word list shipped as package data, each word with its line number."""
    text = resources.files("wordle").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return check_words(text.splitlines(), name)


def _guess_words(guesses: str | Path | None) -> tuple[str, ...]:
    """The allowed guesses: a name of NAMED_GUESSES, a file, or None for the shipped 12972 of 2022."""
    if guesses is None or str(guesses) in NAMED_GUESSES:
        return tuple(_shipped(NAMED_GUESSES[str(guesses or "original")][0]))
    return tuple(read_word_file(guesses))


def guess_list_name(guesses: tuple[str, ...]) -> str | None:
    """The name of NAMED_GUESSES whose shipped list these guesses are (None for any other list).

    >>> guess_list_name(tuple(_shipped("nyt-guesses.txt"))), guess_list_name(("salet",))
    ('nyt', None)
    """
    for name, (file, _) in NAMED_GUESSES.items():
        if name != "2022" and len(guesses) == len(shipped := tuple(_shipped(file))) and guesses == shipped:
            return name
    return None


def load_guesses(guesses: str | Path | None = None) -> Words:
    """The allowed guesses alone, as both lists: enough to read typed steps before any answer model is built.

    Args:
        guesses: as load_words.

    Returns:
        Words whose answers are its guesses (the guess indices are those of any lists with these guesses).
    """
    words = _guess_words(guesses)
    return Words.build(words, words, source=str(guesses or "guesses"))


def load_words(answers: str | Path | None = None, guesses: str | Path | None = None) -> Words:
    """The game's word lists: the shipped official ones unless files are given.

    Args:
        answers: path of an answer list, or None for the shipped 2315 answers.
        guesses: path of a guess list, a name of NAMED_GUESSES ("nyt": the Times' 14855 of today; "original":
            the 12972 of 2022), or None for the shipped 12972 allowed guesses of 2022.

    Returns:
        Words with both lists validated and every answer an allowed guess.
    """
    answer_lines = _shipped(ANSWERS_FILE) if answers is None else read_word_file(answers)
    guess_words = _guess_words(guesses)
    source = str(answers) if answers is not None else ANSWERS_FILE
    return Words.build(tuple(answer_lines), guess_words, source=source, answer_lines=answer_lines)


#: The last day of the answer record that the "played" list takes its answers from: the list stays the same (and
#: its book stays valid) as the record grows.
PLAYED_UNTIL = "2026-08-21"

#: Answer lists by name: the original 2315, the 2309 the New York Times kept, those with every answer the Times has
#: used outside them, and every allowed guess.
NAMED_ANSWERS = {
    "original": "the original 2315 answers",
    "nyt": "the New York Times' 2309 answers (the original less the six it dropped)",
    "played": f"the 2309 with every answer the Times used outside them up to {PLAYED_UNTIL} (2357 words)",
    "all": "every allowed guess",
}


def named_words(name: str, guesses: str | Path | None = None) -> Words:
    """The game's lists with the answer list chosen by name (see NAMED_ANSWERS); guesses as `load_words` reads them.

    Raises:
        WordListError: an unknown name (or a broken guess list).
    """
    if name not in NAMED_ANSWERS:
        raise WordListError(f"unknown answer list '{name}'; choose one of {', '.join(NAMED_ANSWERS)} or give a file")
    if name == "all":  # every allowed guess: the guess list given (by name or file), not the official answers
        every = _guess_words(guesses)
        return Words.build(every, every, source=name)
    words = load_words(guesses=guesses)
    if name == "original":
        return words
    answers = tuple(w for w in words.answers if w not in REMOVED_IN_2309)
    if name == "played":
        answers = tuple(sorted(set(answers) | set(played_outside_2309(answers))))
    return Words.build(answers, words.guesses, source=name)


def played_outside_2309(kept: tuple[str, ...]) -> list[str]:
    """The answers the Times used up to PLAYED_UNTIL that are not among `kept` (its 2309), from the shipped record."""
    until = datetime.date.fromisoformat(PLAYED_UNTIL)
    return sorted({day.word for day in daily_answers(until=until)} - set(kept))


@dataclass(frozen=True)
class WordKind:
    """What kind of word a guess is (a row of data/word-kinds.tsv; its README says where each column comes from).

    Attributes:
        zipf: wordfreq's Zipf frequency (0 for a word it does not know).
        kind: "common", "known" (a larger dictionary's), "name" (capitalised only, or a proper noun or demonym
            first, as JAPAN and ROMAN) or "rare" (in no dictionary).
        plural: an -S form of a shorter word (a noun's plural or a verb's third person: TRIES, MENUS, TALES).
        past: a past tense or participle of a shorter verb (UPPED, BAKED).
        taste: "" or why the Times would not pick it (data/word-taste.tsv): "offensive", "vulgar", "slang"
            (GONNA) or "fragment" (an abbreviation, a numeral or half of a set phrase: CALIF, XVIII, VERSA).
    """

    zipf: float
    kind: str
    plural: bool
    past: bool
    taste: str = ""


#: The word kinds' file, covering every word of the Times' guess list.
WORD_KINDS_FILE = "word-kinds.tsv"


@functools.cache
def word_kinds() -> dict[str, WordKind]:
    """Every shipped guess's kind (the 14855 words the Times accepts, which hold the 12972 of 2022)."""
    text = resources.files("wordle").joinpath("data").joinpath(WORD_KINDS_FILE).read_text(encoding="utf-8")
    kinds = {}
    for line in text.splitlines()[1:]:
        word, zipf, kind, plural, past, taste = line.split("\t")
        kinds[word] = WordKind(zipf=float(zipf), kind=kind, plural=plural == "1", past=past == "1",
                               taste="" if taste == "-" else taste)
    return kinds


def encode_letters(words: tuple[str, ...] | list[str]) -> np.ndarray:
    """Words (all of one length, five for the official lists) as an (n, length) uint8 array of letter numbers, a=0 ... z=25."""
    if len(words) == 0:
        return np.zeros((0, WORD_LENGTH), dtype=np.uint8)
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(words), len(words[0])) - ord("a")).astype(np.uint8)


def letter_counts(words: tuple[str, ...] | list[str]) -> np.ndarray:
    """How often each letter occurs in each word: an (n, 26) uint8 array."""
    letters = encode_letters(words)
    counts = np.zeros((len(words), 26), dtype=np.uint8)
    rows = np.repeat(np.arange(len(words)), letters.shape[1])
    np.add.at(counts, (rows, letters.ravel()), 1)
    return counts
