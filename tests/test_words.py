"""Word lists: the shipped lists and the validation of user-supplied ones."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from wordle import REMOVED_IN_2309, WordListError, load_words
from wordle.words import named_words
from wordle.words import encode_letters, letter_counts


def test_shipped_lists_are_the_official_ones():
    words = load_words()
    assert len(words.answers) == 2315 and len(words.guesses) == 12972
    assert list(words.answers) == sorted(words.answers) and list(words.guesses) == sorted(words.guesses)
    assert set(words.answers) <= set(words.guesses)
    assert set(REMOVED_IN_2309) <= set(words.answers)
    for name, digest in [
        ("wordle-answers.txt", "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee"),
        ("wordle-guesses.txt", "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579"),
    ]:
        data = resources.files("wordle").joinpath("data").joinpath(name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest


def test_answer_rows_point_at_the_same_words():
    words = load_words()
    assert all(words.guesses[row] == answer for row, answer in zip(words.answer_rows, words.answers))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text, message",
    [
        ("crane\nslate\ncran\n", r"bad\.txt, line 3: 'cran' is not a 5-letter word"),
        ("crane\nsl4te\n", r"bad\.txt, line 2: 'sl4te' has a character that is not a letter"),
        ("crane\nslate\ncrane\n", r"bad\.txt, line 3: 'crane' is a duplicate of line 1"),
        ("\n\n", r"bad\.txt: the word list is empty"),
        ("", r"bad\.txt: the word list is empty"),
        ("crâne\n", r"line 1: 'crâne' has a character that is not a letter"),
    ],
)
def test_bad_lists_name_file_line_and_word(tmp_path, text, message):
    with pytest.raises(WordListError, match=message):
        load_words(answers=write(tmp_path, "bad.txt", text))


def test_answer_missing_from_guesses_is_refused(tmp_path):
    answers = write(tmp_path, "answers.txt", "crane\n\nslate\n")
    guesses = write(tmp_path, "guesses.txt", "crane\nsalet\n")
    with pytest.raises(WordListError, match=r"answers\.txt, line 3: answer 'slate' is not in the guess list"):
        load_words(answers=answers, guesses=guesses)
    # The shipped answers against a guess list that lacks one of them.
    with pytest.raises(WordListError, match=r"wordle-answers\.txt, line 1: answer 'aback' is not in the guess list"):
        load_words(guesses=guesses)


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(WordListError, match="no such file"):
        load_words(answers=tmp_path / "nope.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00crane")
    with pytest.raises(WordListError, match="cannot be read"):
        load_words(answers=binary)


def test_checksum_names_both_lists(tmp_path):
    answers = write(tmp_path, "a.txt", "crane\n")
    guesses1 = write(tmp_path, "g1.txt", "crane\nslate\n")
    guesses2 = write(tmp_path, "g2.txt", "crane\nsalet\n")
    assert load_words(answers, guesses1).checksum != load_words(answers, guesses2).checksum
    assert load_words(answers, guesses1).checksum == load_words(answers, guesses1).checksum


def test_lookups_name_the_unknown_word():
    words = load_words()
    assert words.guesses[words.guess_id("SALET")] == "salet"
    with pytest.raises(WordListError, match="'zzzzz' is not in the list of allowed guesses"):
        words.guess_id("zzzzz")
    with pytest.raises(WordListError, match="'salet' is not in the list of possible answers"):
        words.answer_id("salet")


def test_letter_encoding():
    assert encode_letters(["abcde", "zzzzz"]).tolist() == [[0, 1, 2, 3, 4], [25] * 5]
    counts = letter_counts(["speed"])
    assert counts[0, ord("e") - 97] == 2 and counts[0, ord("s") - 97] == 1 and counts.sum() == 5


def test_answer_lists_by_name():
    original, nyt, every = named_words("original"), named_words("nyt"), named_words("all")
    assert len(original.answers) == 2315 and original.checksum == load_words().checksum
    assert len(nyt.answers) == 2309 and not set(REMOVED_IN_2309) & set(nyt.answers)
    assert set(nyt.answers) | set(REMOVED_IN_2309) == set(original.answers)
    assert every.answers == every.guesses == original.guesses
    with pytest.raises(WordListError, match="unknown answer list 'nytimes'; choose one of original, nyt, played, all"):
        named_words("nytimes")
