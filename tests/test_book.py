"""The opening book: what the exact opener job proved, read back, and the opening position valued from it."""

from __future__ import annotations

import json

import pytest

from wordle.book import opening_book
from wordle.optimal import SCALE
from wordle.valuation import Budget, value_position

GUESSES = ("salet", "crane", "adieu")
CHECKSUM = "abc"


def write_job(folder, header, rows, summary=None, name="openers-exact-normal-all"):
    """A job's results file (and summary) as tournament/exact_openers.py writes them."""
    lines = [json.dumps(header)] + [json.dumps(row) for row in rows]
    (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    if summary is not None:
        (folder / f"{name}.summary.json").write_text(json.dumps(summary, indent=1))


HEADER = {"mode": "normal", "max_guesses": 6, "word_lists_sha256": CHECKSUM}
ROWS = [{"opener": "salet", "total": 7920, "long_games": 0},
        {"opener": "crane", "total": 7926, "long_games": 1, "exact": True},
        {"opener": "adieu", "total": 7950, "long_games": 0, "exact": False}]


def test_the_book_reads_exact_totals_bounds_and_the_proved_best(tmp_path):
    write_job(tmp_path, HEADER, ROWS, dict(HEADER, proved_best_over_all=True, best={"opener": "salet"}))
    book = opening_book(GUESSES, CHECKSUM, False, 6, tmp_path)
    assert book.exact == {0: 7920 * SCALE, 1: 7926 * SCALE + 1} and book.lower == {2: 7950 * SCALE}
    assert book.best == 0


def test_a_book_for_other_lists_modes_or_limits_or_a_damaged_one_is_not_used(tmp_path):
    write_job(tmp_path, HEADER, ROWS, dict(HEADER, proved_best_over_all=True, best={"opener": "salet"}))
    assert opening_book(GUESSES, "other", False, 6, tmp_path).exact == {}
    assert opening_book(GUESSES, CHECKSUM, True, 6, tmp_path).exact == {}
    assert opening_book(GUESSES, CHECKSUM, False, 5, tmp_path).exact == {}
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    write_job(damaged, HEADER, ROWS)
    with open(damaged / "openers-exact-normal-all.jsonl", "a") as file:
        file.write("{not json\n")
    assert opening_book(GUESSES, CHECKSUM, False, 6, damaged).exact == {}


def test_a_best_not_proved_over_every_opener_is_no_best(tmp_path):
    write_job(tmp_path, HEADER, ROWS, dict(HEADER, proved_best_over_all=False, best={"opener": "salet"}))
    assert opening_book(GUESSES, CHECKSUM, False, 6, tmp_path).best is None


@pytest.mark.parametrize("hard, best_total", [(False, 7920), (True, 8122)])
def test_the_opening_position_is_proved_at_once_from_the_shipped_book(official_game, hard, best_total):
    state = official_game.initial_state(hard=hard)
    crane = official_game.words.guess_index["crane"]
    valuation = value_position(official_game, state, [crane], Budget(seconds=None, nodes=1))
    assert official_game.words.guesses[valuation.best] == "salet" and valuation.proved
    assert valuation.value.low == valuation.value.high == best_total / 2315
    # crane's exact total is in the shipped top-20 proofs (results/openers-exact-MODE-top20.jsonl)
    assert valuation.guesses[crane].proved and valuation.guesses[crane].low > valuation.value.low
