"""The Times' shipped lists: the dated answer record, today's guess list, and the word kinds."""

from __future__ import annotations

import datetime
import hashlib
import importlib.util
from importlib import resources
from pathlib import Path

import pytest

from wordle import load_words
from wordle.words import word_kinds
from wordle.nyt import EDITOR_START, FIRST_PUZZLE_DATE, daily_answers, puzzle_number

CHECKSUMS = {
    "nyt-answers.tsv": "3f6cb4217445ed23388b2d5ede5d8d05fb4d4a23b6961def069a7c7ae1bce5c3",
    "nyt-guesses.txt": "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320",
    "word-kinds.tsv": "9fc2ba829dc6ba0898c4916f195316a046f8ce2fe80bd7e322779fc7fdd17260",
    "word-taste.tsv": "667cca841e73d72fd90d06cbb4cb6e9b991096fdf4dd69d67cb86fac0ecf72ae",
}


def test_the_shipped_files_match_their_published_checksums():
    for name, digest in CHECKSUMS.items():
        data = resources.files("wordle").joinpath("data").joinpath(name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, name


def test_the_record_runs_day_by_day_and_numbers_days_from_june_2021():
    days = daily_answers()
    assert days[0].word == "cigar" and days[0].number == 0 and days[0].date == FIRST_PUZZLE_DATE
    for offset, day in enumerate(days):
        assert day.date == FIRST_PUZZLE_DATE + datetime.timedelta(days=offset)
        assert day.number == puzzle_number(day.date) == offset
    by_date = {day.date: day.word for day in days}
    assert by_date[datetime.date(2023, 3, 27)] == "guano" and by_date[datetime.date(2026, 2, 2)] == "cigar"
    assert daily_answers(since=EDITOR_START)[0].number == 506


def test_the_times_guess_list_holds_the_2022_list_and_every_answer():
    today, then = load_words(guesses="nyt"), load_words()
    assert len(today.guesses) == 14855 and set(then.guesses) <= set(today.guesses)
    assert {day.word for day in daily_answers()} <= set(today.guess_index)
    assert today.answers == then.answers


TASTE_CLASSES = {"offensive", "vulgar", "slang", "fragment", "british", "name"}


def taste_list() -> dict[str, str]:
    """The shipped taste list (wordle/data/word-taste.tsv): word to class."""
    text = resources.files("wordle").joinpath("data").joinpath("word-taste.tsv").read_text(encoding="utf-8")
    return dict(line.split("\t") for line in text.splitlines()[1:])


def test_the_taste_list_names_allowed_words_the_times_never_gave_and_the_kinds_follow_it():
    taste, kinds = taste_list(), word_kinds()
    given = {day.word for day in daily_answers()}
    assert set(taste.values()) == TASTE_CLASSES
    assert set(taste) <= set(kinds) and not set(taste) & (given | set(load_words().answers))
    for word, kind in kinds.items():
        flagged = taste.get(word)
        assert kind.taste == ("" if flagged in (None, "name") else flagged), word
        if flagged == "name":
            assert kind.kind == "name", word
    assert kinds["japan"].kind == kinds["roman"].kind == kinds["maria"].kind == "name"
    assert kinds["gonna"].taste == "slang" and kinds["bitch"].taste == "vulgar" and kinds["metre"].taste == "british"


def test_the_plural_and_past_columns_follow_the_lexicon_on_the_issues_words():
    kinds = word_kinds()
    for word in ("tries", "menus", "taxis", "kiwis", "gurus", "carbs", "flies", "elves", "tales", "boxes"):
        assert kinds[word].plural, word
    for word in ("chaos", "alias", "genus", "lotus", "oasis", "bliss", "nexus", "penis"):
        assert not kinds[word].plural, word
    assert kinds["upped"].past and kinds["baked"].past
    for word in ("shred", "tweed", "greed", "breed", "creed", "naked"):  # the old +ED rule's mistakes
        assert not kinds[word].past, word
    given = {day.word for day in daily_answers()}
    assert not [word for word in given | set(load_words().answers) if kinds[word].plural]


@pytest.mark.slow
def test_the_word_kinds_rebuild_byte_for_byte_from_their_sources(tmp_path):
    pytest.importorskip("lemminflect", reason="the data extra (pip install '.[data]') builds the kinds")
    builder_path = Path(__file__).resolve().parents[1] / "benchmarks" / "make_nyt_data.py"
    spec = importlib.util.spec_from_file_location("make_nyt_data", builder_path)
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    if not all(Path(path).exists() for path in builder.STANDARD + builder.LARGE):
        pytest.skip("the Debian SCOWL dictionaries (wamerican, wbritish and their -large) are not installed")
    guesses = list(load_words(guesses="nyt").guesses)
    builder.write_kinds(guesses, tmp_path / "word-kinds.tsv")
    shipped = resources.files("wordle").joinpath("data").joinpath("word-kinds.tsv").read_bytes()
    assert (tmp_path / "word-kinds.tsv").read_bytes() == shipped
