"""The Times' shipped lists: the dated answer record, today's guess list, and the word kinds."""

from __future__ import annotations

import datetime
import hashlib
from importlib import resources

from wordle import load_words
from wordle.nyt import EDITOR_START, FIRST_PUZZLE_DATE, daily_answers, puzzle_number

CHECKSUMS = {
    "nyt-answers.tsv": "3f6cb4217445ed23388b2d5ede5d8d05fb4d4a23b6961def069a7c7ae1bce5c3",
    "nyt-guesses.txt": "ba86911aea83d038d53c0999fe6cbe310c8f59d2b79626c73bd0cd0773adc320",
    "word-kinds.tsv": "7991b4d1e4c6b1e823a5243c4d0ce81f7424a391315d7c6c4e282c141183217c",
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
