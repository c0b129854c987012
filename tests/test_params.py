"""Typed agent parameters: values checked against their kind and range, text read and written back."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from agents.params import BEAM, CHOICE, DEPTH, EVAL, NODES, SWITCH, WEIGHTS, Param

def test_param_checks():
    assert DEPTH.check(3.0) == 3 and NODES.check(None) is None
    for param, value, message in ((DEPTH, True, "depth must be a whole number, got True"),
                                  (DEPTH, 2.5, "depth must be a whole number, got 2.5"),
                                  (DEPTH, None, "depth needs a value"),
                                  (WEIGHTS, [1, 2], "weights takes 4 numbers, got \\[1, 2\\]")):
        with pytest.raises(ValueError, match=f"^{message}$"):
            param.check(value)


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_a_whole_number_is_taken_exactly_when_in_range(value):
    if BEAM.least <= value <= BEAM.most:
        assert BEAM.parse(str(value)) == value
    else:
        with pytest.raises(ValueError, match=f"^beam must be at (least 1|most 100), got {value}$"):
            BEAM.parse(str(value))


@pytest.mark.parametrize("param, value", [(DEPTH, 3), (EVAL, "entropy"), (WEIGHTS, [0.5, 0.25, 0.125, 0.125]),
                                          (Param("x", SWITCH, False, ""), True),
                                          (Param("y", CHOICE, "a", "", choices=("a", "b")), "b")])
def test_text_reads_back_to_the_same_value(param, value):
    assert param.parse(param.text(value)) == value
