"""Answer models: the plural rule, the likely model's weights, exclusions, and widening instead of a dead end."""

from __future__ import annotations

import numpy as np
import pytest

from agents.answer_model import ExcludedEverything, is_short_plural, load_model, zipf
from agents.assistant import NoAnswerFits, parse_step, settle_model


@pytest.fixture(scope="module")
def likely():
    """The likely model (its matrix built once in the session cache)."""
    return load_model("likely")


@pytest.mark.parametrize("word, plural", [
    ("tales", True), ("ideas", True), ("boxes", True), ("gases", True),  # 4 letters + S, 3 letters + ES
    ("guano", False), ("bliss", False), ("focus", False), ("lotus", False), ("glass", False),
])
def test_the_plural_rule_on_examples(word, plural):
    assert is_short_plural(word, zipf) is plural


def test_the_likely_model_keeps_the_originals_at_full_weight(likely, official_game):
    words = likely.game.words
    assert likely.weights.sum() == pytest.approx(1.0)
    assert words.answers[:likely.tier] == official_game.words.answers  # the tier: the original answers, in order
    assert np.all(likely.weights[:likely.tier] == likely.weights.max())
    assert np.all(likely.weights[likely.tier:] < likely.weights.max())
    assert "guano" in words.answer_index and "tales" not in words.answer_index and "boxes" not in words.answer_index
    assert "chaos" in words.answer_index  # the rule flags it (from "chao"), but original answers stay
    chances = likely.chances(likely.initial_state().candidates[:10])
    assert chances.sum() == pytest.approx(1.0)


def test_exclude_removes_words(official_game):
    model = load_model("original", exclude=("cigar", "rebut", "zymic"), make_game=lambda words: official_game)
    state = model.initial_state()
    assert len(state.candidates) == 2313 and model.weights.sum() == pytest.approx(1.0)
    assert model.weights[official_game.words.answer_index["cigar"]] == 0.0
    assert model.describe() == "original (2313 answers, 2 excluded)"
    with pytest.raises(ExcludedEverything, match="removes every one of the 2315 answers"):
        load_model("original", exclude=official_game.words.answers, make_game=lambda words: official_game)


def test_a_contradiction_widens_the_model_instead_of_stopping(official_game, likely):
    original = load_model("original", make_game=lambda words: official_game)
    steps = [parse_step(official_game, text) for text in ("crane:--gg-", "tangy:-yyy-", "gland:g-gg-")]
    wider = {"likely": likely}
    model, state, _, notes = settle_model(original, steps, hard=False, max_guesses=6,
                                          make_game=lambda words: wider["likely"].game)
    assert model.name == "likely" and len(notes) == 1 and "outside the original model's list" in notes[0]
    assert "guano" in [model.game.words.answers[a] for a in state.candidates]
    # an excluded answer widens too, and a game no allowed word fits is an error
    with pytest.raises(NoAnswerFits, match="no answer fits"):
        settle_model(likely, [parse_step(likely.game, "salet:ggggy")], hard=False, max_guesses=6)
