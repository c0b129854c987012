"""The word-frequency prior: the sigmoid and its ranks, the disk cache, and wordfreq's offline data."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from heuristics import prior
from heuristics.prior import (
    PRIOR_CENTER, PRIOR_WIDTH, cached_frequencies, frequency_cache_path, frequency_ranks, sigmoid_prior, word_prior,
)
from wordle import load_words


def test_sigmoid_hand_values():
    ranks = np.array([PRIOR_CENTER, PRIOR_CENTER + PRIOR_WIDTH, PRIOR_CENTER - 2 * PRIOR_WIDTH, 0])
    expected = [0.5, 1 / (1 + math.e), 1 / (1 + math.exp(-2)), 1 / (1 + math.exp(-PRIOR_CENTER / PRIOR_WIDTH))]
    assert sigmoid_prior(ranks) == pytest.approx(expected)
    assert sigmoid_prior(np.array([10.0]), center=10, width=1)[0] == 0.5
    assert sigmoid_prior(np.array([1e9]))[0] == pytest.approx(0.0) and sigmoid_prior(np.array([-1e9]))[0] == 1.0
    with pytest.raises(ValueError, match="width"):
        sigmoid_prior(np.array([1]), width=0)


def test_ranks_share_the_first_place_of_a_tie():
    assert frequency_ranks(np.array([2.0, 5.0, 2.0, 0.0, 0.0, 3.0])).tolist() == [2, 0, 2, 4, 4, 1]


def test_prior_decreases_with_rank_and_is_a_probability():
    values = sigmoid_prior(np.arange(0, 13000, 50))
    assert np.all(np.diff(values) < 0) and np.all((values > 0) & (values < 1))


def fake_frequencies(words):
    """Frequencies that make the list's order its rank, without wordfreq."""
    return np.linspace(7.0, 1.0, len(words))


def test_cache_is_written_reused_and_rebuilt_when_corrupt(tmp_path, monkeypatch):
    words = ["apple", "berry", "cherry"[:5], "dates"]
    calls = []
    monkeypatch.setattr(prior, "zipf_frequencies", lambda w: calls.append(1) or fake_frequencies(w))
    first = cached_frequencies(words, tmp_path)
    path = frequency_cache_path(words, tmp_path)
    assert path.exists() and len(calls) == 1
    assert np.array_equal(cached_frequencies(words, tmp_path), first) and len(calls) == 1
    for damage in ("not json", json.dumps({"format": "other"}), path.read_text()[:40]):
        path.write_text(damage)
        assert np.array_equal(cached_frequencies(words, tmp_path), first)
    assert len(calls) == 4
    head, payload = path.read_text().split("\n", 2)[:2], json.loads(path.read_text().split("\n", 2)[2])
    path.write_text("\n".join(head) + "\n" + json.dumps(payload[:-1]))  # one value short, checksum not updated
    assert np.array_equal(cached_frequencies(words, tmp_path), first) and len(calls) == 5
    edited = path.read_text().replace(str(payload[0]), str(payload[0] + 1))  # one frequency edited
    path.write_text(edited)
    assert np.array_equal(cached_frequencies(words, tmp_path), first) and len(calls) == 6


def test_prior_of_a_list_follows_its_frequency_order(tmp_path, monkeypatch):
    monkeypatch.setattr(prior, "zipf_frequencies", fake_frequencies)
    values = word_prior(["apple", "berry", "dates"], center=1, width=1, directory=tmp_path)
    assert values == pytest.approx(sigmoid_prior(np.array([0, 1, 2]), center=1, width=1))


def test_wordfreq_works_without_network():
    """wordfreq reads its data from inside the package: lookups succeed with sockets disabled."""
    script = (
        "import socket\n"
        "def refuse(*a, **k):\n    raise OSError('network disabled')\n"
        "socket.socket = refuse; socket.create_connection = refuse\n"
        "import wordfreq\n"
        "print(wordfreq.zipf_frequency('house', 'en', wordlist='large'), wordfreq.zipf_frequency('xylyl', 'en', wordlist='large'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    common, rare = map(float, done.stdout.split())
    assert common > 5 and rare == 0.0


def test_official_prior_favours_common_words():
    words = load_words()
    values = word_prior(words.guesses)
    assert values.shape == (len(words.guesses),)
    assert values[words.guess_id("house")] > 0.99 and values[words.guess_id("xylyl")] < 0.01
    assert np.median(values[words.answer_rows]) > 0.9
