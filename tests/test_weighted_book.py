"""The weighted opening book: the shipped books checked by checksum and read back, a forged one refused in one line, a
hand-worked opening whose book ranking assist and review follow, and an opener the book lacks given a bounded effort
(its proved bound, or its tree where the search completes within the node budget; a review step without a tree is not
scored)."""

from __future__ import annotations

import functools
import gzip
import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import agents.assistant
import agents.model_value
from agents.answer_model import AnswerModel, load_model
from agents.assistant import advise_model
from agents.model_value import Valuer
from agents.review import NOT_SCORED, parse_game, review_data, review_game
from wordle.book import FOLDER, BookRefused, decode_artefact, sha256
from wordle.hardmode import Hints
from wordle.solver import Limits
from wordle.solver.bounds import transpose_tiled
from wordle.solver.weighted import WEIGHT_SCALE, WeightedSolver, integer_weights, tree_cost
from wordle.weighted_book import (SHIPPED_WEIGHTED, WEIGHTED_FORMAT, check_weighted, pack_weighted, weighted_book,
                                  weights_checksum)
from wordle.weighted_openers import bounded_interval, guess_interval

from .conftest import small_game


def three_answers() -> AnswerModel:
    """CATER 95%, HATER 3%, WATER 2% (guesses THUMB, WIGHT too). By hand, expected guesses opening with:
    CATER 0.95 + 0.03*2 + 0.02*3 = 1.070; HATER 0.03 + 0.95*2 + 0.02*3 = 1.990; WIGHT (it tells all three apart)
    2.000; THUMB ({CATER, WATER} | {HATER}) 0.95*2 + 0.02*3 + 0.03*2 = 2.020."""
    answers = ("cater", "hater", "water")
    game = small_game(list(answers), ["thumb", "wight"])
    tier_game = small_game(["cater"], ["hater", "water", "thumb", "wight"])
    return AnswerModel(name="hand", game=game, weights=np.array([0.95, 0.03, 0.02]), tier=1, tier_game=tier_game)


def ater_family() -> AnswerModel:
    """CATER at 40%, eight others at 7.5% each (seven -ATERs and WIGHT): openers whose replies keep three answers
    or more, so their breadth-1 search must enter sets."""
    answers = ["cater", "hater", "water", "later", "eater", "mater", "pater", "tater", "wight"]
    extra = ["thumb", "whelp", "clamp", "blimp"]
    game = small_game(answers, extra)
    tier_game = small_game(["cater"], answers[1:] + extra)
    weights = np.array([0.4] + [0.075] * 8)
    return AnswerModel(name="hand", game=game, weights=weights, tier=1, tier_game=tier_game)


def book_data(model: AnswerModel, openers: tuple[str, ...], hard: bool = False) -> dict:
    """A weighted book's JSON for `model`, each opener valued by the book's own builder (exact in games this small)."""
    game = model.game
    weights = integer_weights(model.weights)
    answers = np.flatnonzero(weights > 0)
    total = int(weights[answers].sum())
    rows = {}
    for word in openers:
        found = guess_interval(game, weights, answers, 6, Hints() if hard else None, game.words.guess_id(word), hard,
                               6, exact_nodes=10 ** 6)
        rows[word] = {"low": found.low, "high": found.high}
    return {"format": WEIGHTED_FORMAT, "word_lists_sha256": game.words.checksum,
            "weights_sha256": weights_checksum(game.words.answers, weights), "weight_scale": WEIGHT_SCALE,
            "total_weight": total, "loss_unit": 7 * int(weights.sum()) + 1, "hard": hard, "max_guesses": 6,
            "guesses": len(game.words.guesses), "model": "hand", "command": "tests", "commit": None,
            "openers": rows, "best": min(rows, key=lambda w: (rows[w]["high"], w))}


@pytest.fixture
def shelve(tmp_path, monkeypatch):
    """Ships a weighted book in a test folder: packs it, names its checksum, and makes the valuer read that folder;
    the opening counts as big from 3 candidates (SPLIT_FROM 2)."""
    monkeypatch.setattr(agents.model_value, "SPLIT_FROM", 2)
    monkeypatch.setattr(agents.assistant, "SPLIT_FROM", 2)
    monkeypatch.setattr(agents.model_value, "weighted_book", functools.partial(weighted_book, folder=tmp_path))

    def ship(data: dict):
        path, digest = pack_weighted(data, tmp_path)
        monkeypatch.setitem(SHIPPED_WEIGHTED, path.name, digest)
        weighted_book.cache_clear()
        return path
    yield ship
    weighted_book.cache_clear()


def test_hand_worked_opening_follows_the_books_ranking(shelve):
    model = three_answers()
    words = model.game.words
    shelve(book_data(model, ("wight", "hater", "cater")))
    valuer = Valuer(model)
    start = model.initial_state()
    found = valuer.value(start, [])
    assert words.guesses[found.best] == "cater" and found.nodes == 0  # read, not searched
    assert found.value.text() == "1.070" and found.value.proved
    assert not found.proved  # CATER's value is exact, but the book covers three openers of five: not a proof of best
    advice = advise_model(model, [], top=5, valuer=valuer)
    # the book's openers in its order (WIGHT, no answer and proved worse than HATER, is not padded in)
    assert [(words.guesses[s.guess], s.value.text()) for s in advice.suggestions] == [
        ("cater", "1.070"), ("hater", "1.990")]
    # a game opened with THUMB, which the book lacks: its replies keep two answers at most, so its tree is complete
    # with no set searched (2.020, proved), and the review names the book's best against it
    review = review_game(model, parse_game(model.game, ["thumb", "cater"], answer="cater"), answer="cater",
                         valuer=valuer)
    step = review.steps[0]
    assert step.scored and step.played.text() == "2.020" and step.played.proved
    assert words.guesses[step.best_guess] == "cater" and step.best.text() == "1.070"
    assert step.skill == 45  # cost 0.95: round(99 * (1 - 0.95 / 1.75))


def test_an_opener_the_book_lacks_gets_a_bounded_effort_and_its_proved_bound(shelve):
    model = ater_family()
    words = model.game.words
    shelve(book_data(model, ("cater", "clamp", "whelp")))
    blimp = words.guess_id("blimp")
    valuer = Valuer(model, opener_nodes=0)
    found = valuer.value(model.initial_state(), [blimp])
    value = found.guesses[blimp]
    assert found.nodes == 1  # the one set entered past the budget of 0
    assert not value.has_tree and value.text() == "≥ 2.525"  # the replies' one-step bounds, marked as a bound
    assert words.guesses[found.best] == "cater" and found.value.text() == "2.350"
    # with room enough, the same effort completes BLIMP's tree: its value replays over every answer
    roomy = Valuer(model, opener_nodes=1_000)
    value = roomy.value(model.initial_state(), [blimp]).guesses[blimp]
    assert value.has_tree and value.text() == "≤ 2.750"
    solver = WeightedSolver(model.game, integer_weights(model.weights), limits=Limits(top=1), tier=False)
    every = np.arange(len(words.answers))
    interval = bounded_interval(solver, every, 6, None, blimp, 1_000)
    assert interval.nodes <= 1_000 and not interval.cut and interval.low <= interval.high
    assert tree_cost(model.game, solver.weights, interval.tree, every, 6, solver.loss_unit) == interval.high
    cut = bounded_interval(solver, every, 6, None, blimp, 0)
    assert cut.cut and cut.high is None and cut.tree is None and cut.low == interval.low


def test_a_review_step_without_a_tree_is_not_scored(shelve, monkeypatch):
    model = ater_family()
    shelve(book_data(model, ("cater", "clamp", "whelp")))
    monkeypatch.setattr(agents.model_value, "SPLIT_FROM", 5)  # the opening's 9 answers only, as 2500 in play
    review = review_game(model, parse_game(model.game, ["blimp", "cater"], answer="cater"), answer="cater",
                         valuer=Valuer(model, opener_nodes=0))
    first, second = review.steps
    assert not first.scored and first.skill_text() == NOT_SCORED and first.played.text() == "≥ 2.525"
    assert second.scored
    assert review.skill == second.skill and review.skill_range == (second.skill_low, second.skill_high)
    assert any(note.startswith("Guess 1 (BLIMP) is not scored") and "0 sets" in note for note in review.notes)
    data = review_data(review)
    assert data["steps"][0]["skill"] is None and data["steps"][0]["scored"] is False


def test_a_forged_book_is_refused_in_one_line(shelve, tmp_path):
    model = three_answers()
    path = shelve(book_data(model, ("wight", "hater", "cater")))
    data = json.loads(gzip.decompress(path.read_bytes()))
    data["openers"]["hater"]["high"] = data["openers"]["cater"]["high"] - 1  # HATER made the best
    data["best"] = "hater"
    path.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    game = model.game
    weights = integer_weights(model.weights)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = weighted_book(tuple(game.words.guesses), game.words.checksum,
                              weights_checksum(game.words.answers, weights), False, 6, folder=tmp_path)
    assert found is None
    refused = [str(w.message) for w in caught if issubclass(w.category, BookRefused)]
    assert len(refused) == 1 and "\n" not in refused[0] and path.name in refused[0] and "refused" in refused[0]
    # with the forged book refused, the opening is searched: CATER is still the best, HATER its own 1.990
    hater = game.words.guess_id("hater")
    valuer = Valuer(model, opener_nodes=1_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BookRefused)
        assert valuer.value(model.initial_state(), [hater]).guesses[hater].text() == "1.990"


def test_a_book_whose_best_is_not_the_least_is_refused_even_with_its_checksum():
    model = three_answers()
    data = book_data(model, ("wight", "hater", "cater"))
    data["best"] = "wight"
    game = model.game
    weights = integer_weights(model.weights)
    with pytest.raises(Exception, match="has not the least tree"):
        check_weighted(data, tuple(game.words.guesses), game.words.checksum,
                       weights_checksum(game.words.answers, weights), False, 6)


def test_each_shipped_weighted_book_has_its_checksum_and_names_its_openers():
    """Every file SHIPPED_WEIGHTED names is there with that SHA-256, made for today's guesses (nyt, 14855) and the
    likely model, and lists the openers it holds (its best the least tree among them)."""
    for name, digest in SHIPPED_WEIGHTED.items():
        assert sha256((FOLDER / name).read_bytes()) == digest
        data = decode_artefact(FOLDER / name, digest)
        assert data["format"] == WEIGHTED_FORMAT and data["model"] == "likely" and data["guesses"] == 14855
        assert data["hard"] is name.startswith("weighted-openers-hard-")
        rows = data["openers"]
        assert rows and data["best"] == min(rows, key=lambda w: (rows[w]["high"], w))
        assert all(row["low"] <= row["high"] for row in rows.values())


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_the_shipped_weighted_books_are_checked_and_read_back(hard):
    """Each shipped book matches its checksum and today's lists and the likely model's weights (the player's), and
    the valuer reads it at the opening."""
    names = [name for name in SHIPPED_WEIGHTED if name.startswith(f"weighted-openers-{'hard' if hard else 'normal'}-")]
    if not names:
        pytest.skip("no weighted book shipped for this mode")
    model = load_model("likely", "nyt")
    words = model.game.words
    valuer = Valuer(model)
    weights = weights_checksum(words.answers, valuer.integer_weights)
    for name in names:
        raw = (FOLDER / name).read_bytes()
        assert sha256(raw) == SHIPPED_WEIGHTED[name]
        data = decode_artefact(FOLDER / name, SHIPPED_WEIGHTED[name])
        check_weighted(data, tuple(words.guesses), words.checksum, weights, hard, 6)
    book = valuer.book(model.initial_state(hard))
    assert book is not None and book.best in book.high
    assert valuer.opening_shortlist(model.initial_state(hard), 3)[0] == book.best


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 9), st.integers(0, 2 ** 32 - 1))
def test_the_tiled_transpose_is_the_transpose(rows, cols, tile, seed):
    """The opening solver's transposed matrix (`transpose_tiled`, tile by tile) equals numpy's, whatever the tile."""
    matrix = np.random.default_rng(seed).integers(0, 243, (rows, cols), dtype=np.uint8)
    tiled = transpose_tiled(matrix, tile)
    assert tiled.flags["C_CONTIGUOUS"] and tiled.dtype == matrix.dtype
    assert np.array_equal(tiled, np.ascontiguousarray(matrix.T))


def test_a_position_whose_trees_the_time_cap_cut_is_valued_as_a_big_one(monkeypatch):
    """Where the safety cap cuts a position's breadth-1 trees (a machine far too busy), the valuation does not fail:
    each guess gets the bounded effort, and the valuation says the cap cut it."""
    from search.limits import BudgetSpent
    from wordle.weighted_value import WeightedValuer

    def cut(*_args, **_kwargs):
        raise BudgetSpent(1, "time cap")
    monkeypatch.setattr(WeightedValuer, "value", cut)
    model = ater_family()
    blimp = model.game.words.guess_id("blimp")
    found = Valuer(model, opener_nodes=0).value(model.initial_state(), [blimp])
    assert found.capped and not found.proved and found.guesses[blimp].text() == "≥ 2.525"
