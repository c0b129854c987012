"""The New York Times' Wordle calendar: puzzle numbers and the record of its daily answers.

Puzzle numbers count days from 19 June 2021 (#0, CIGAR). The shipped record
(wordle/data/nyt-answers.tsv, its source in wordle/data/README.md) gives each day's answer;
the Times has picked the answers itself since 7 November 2022 and began reusing past
answers in February 2026.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from importlib import resources

#: Wordle #0.
FIRST_PUZZLE_DATE = datetime.date(2021, 6, 19)
#: The first day the Times' editor chose the answer.
EDITOR_START = datetime.date(2022, 11, 7)
ANSWERS_RECORD = "nyt-answers.tsv"


@dataclass(frozen=True)
class DailyAnswer:
    """One day's puzzle: its date, number and answer."""

    date: datetime.date
    number: int
    word: str


def puzzle_number(date: datetime.date) -> int:
    """The Wordle number of a day (days since 19 June 2021).

    >>> puzzle_number(datetime.date(2021, 6, 19)), puzzle_number(datetime.date(2023, 3, 27))
    (0, 646)
    """
    return (date - FIRST_PUZZLE_DATE).days


def daily_answers(since: datetime.date = FIRST_PUZZLE_DATE,
                  until: datetime.date = datetime.date.max) -> list[DailyAnswer]:
    """The recorded answers from `since` to `until` (both included), in date order."""
    text = resources.files("wordle").joinpath("data").joinpath(ANSWERS_RECORD).read_text(encoding="utf-8")
    days = []
    for line in text.splitlines()[1:]:
        date_text, number, word = line.split("\t")
        date = datetime.date.fromisoformat(date_text)
        if since <= date <= until:
            days.append(DailyAnswer(date=date, number=int(number), word=word))
    return days


def recorded_answer(number: int) -> str | None:
    """The recorded answer of Wordle `number`, or None for a day the shipped record lacks.

    >>> recorded_answer(0), recorded_answer(1590), recorded_answer(10 ** 6)
    ('cigar', 'plump', None)
    """
    try:
        date = FIRST_PUZZLE_DATE + datetime.timedelta(days=number)
    except OverflowError:  # past the year 9999
        return None
    days = daily_answers(date, date) if number >= 0 else []
    return days[0].word if days else None


__all__ = ["ANSWERS_RECORD", "DailyAnswer", "EDITOR_START", "FIRST_PUZZLE_DATE", "daily_answers", "puzzle_number",
           "recorded_answer"]
