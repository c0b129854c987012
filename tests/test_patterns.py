"""Pattern text forms: letters, digits and emoji, and their errors."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from wordle import ALL_GREEN, PatternError, format_pattern, parse_pattern
from wordle.patterns import STYLES


@given(st.integers(0, ALL_GREEN), st.sampled_from(STYLES))
def test_every_style_round_trips(code, style):
    assert parse_pattern(format_pattern(code, style)) == code


@pytest.mark.parametrize("text", ["g-y--", "G-Y--", "g.y..", "gbybb", "GXYXX", "g_y__", "20100", "🟩⬛🟨⬛⬛", "🟩⬜🟨⬜⬜", " g-y-- "])
def test_all_written_forms_of_one_pattern(text):
    assert parse_pattern(text) == int("20100", 3)


@pytest.mark.parametrize("text", ["", "g-y-", "g-y---", "gzy--", "30100", "green", "g y - -"])
def test_malformed_patterns_are_refused(text):
    with pytest.raises(PatternError, match="is not a pattern"):
        parse_pattern(text)


def test_unknown_style_is_refused():
    with pytest.raises(ValueError):
        format_pattern(0, "morse")
