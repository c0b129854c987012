"""partition_stats against its readable reference, on random small games and the official lists."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heuristics.partition import partition_stats, reference_stats
from wordle import load_words

from .conftest import small_game

WORDS = load_words()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, len(WORDS.answers) - 1), min_size=1, max_size=30, unique=True),
       st.lists(st.integers(0, len(WORDS.guesses) - 1), min_size=0, max_size=5, unique=True), st.data())
def test_fast_stats_equal_the_reference(answer_ids, extra_ids, data):
    game = small_game([WORDS.answers[i] for i in answer_ids], [WORDS.guesses[i] for i in extra_ids])
    size = len(game.words.answers)
    candidates = np.array(sorted(data.draw(st.lists(st.integers(0, size - 1), min_size=1, unique=True))))
    table = np.arange(size + 1, dtype=float) ** 1.5
    stats = partition_stats(game.matrix, candidates, answer_rows=game.words.answer_rows, bin_values=table)
    for position, guess in enumerate(stats.guesses):
        expected = reference_stats(game.matrix, list(candidates), int(guess))
        for name, value in expected.items():
            assert getattr(stats, name)[position] == pytest.approx(value, abs=1e-9), name
        sizes = np.unique(game.matrix[guess, candidates], return_counts=True)[1]
        assert stats.bin_value_sum[position] == pytest.approx(table[sizes].sum())
        assert stats.can_win[position] == (guess in game.words.answer_rows[candidates])


def test_official_lists_spot_check(official_game):
    # SOARE's entropy over the 2315 answers is the well-known 5.886 bits.
    soare = official_game.words.guess_id("soare")
    stats = partition_stats(official_game.matrix, official_game.all_answers, np.array([soare]))
    assert stats.entropy[0] == pytest.approx(5.886, abs=1e-3)


def test_bin_values_must_cover_every_size():
    game = small_game(["cigar", "rebut", "sissy"])
    with pytest.raises(ValueError):
        partition_stats(game.matrix, np.arange(3), bin_values=np.zeros(3))
