"""The vectorised pattern matrix against the scalar reference, and its disk cache."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from wordle import feedback, load_words, pattern_matrix
from wordle.matrix import cache_path, load_matrix, read_cache
from plumbing.storage import CacheWarning

word = st.text(alphabet="aeinrst", min_size=5, max_size=5)


@settings(max_examples=60, deadline=None)
@given(st.lists(word, min_size=1, max_size=40), st.lists(word, min_size=1, max_size=20))
def test_matrix_equals_scalar_reference(guesses, answers):
    matrix = pattern_matrix(guesses, answers)
    assert matrix.dtype == np.uint8 and matrix.shape == (len(guesses), len(answers))
    for g, guess in enumerate(guesses):
        for a, answer in enumerate(answers):
            assert matrix[g, a] == feedback(guess, answer)


def test_official_matrix_agrees_on_every_repeated_letter_guess_sample(official_game):
    """All guesses with a repeated letter (the hard case) against a spread of answers, plus random pairs."""
    words, matrix = official_game.words, official_game.matrix
    assert matrix.shape == (12972, 2315)
    repeated = [row for row, guess in enumerate(words.guesses) if len(set(guess)) < 5]
    answers = range(0, len(words.answers), 97)
    for row in repeated[::7]:
        for column in answers:
            assert matrix[row, column] == feedback(words.guesses[row], words.answers[column])
    rng = np.random.default_rng(7)
    for row, column in zip(rng.integers(0, 12972, 3000), rng.integers(0, 2315, 3000)):
        assert matrix[row, column] == feedback(words.guesses[row], words.answers[column])


def test_salet_and_trace_split_the_answers_as_published(official_game):
    words, matrix = official_game.words, official_game.matrix
    assert len(np.unique(matrix[words.guess_id("trace")])) == 150
    assert len(np.unique(matrix[words.guess_id("salet")])) == 148


def small_words(tmp_path):
    answers = tmp_path / "a.txt"
    answers.write_text("crane\nslate\nabide\nspeed\n")
    guesses = tmp_path / "g.txt"
    guesses.write_text("crane\nslate\nabide\nspeed\nhello\nalley\n")
    return load_words(answers, guesses)


def test_cache_round_trip_and_rebuild_of_damaged_files(tmp_path):
    words = small_words(tmp_path)
    fresh = load_matrix(words, directory=tmp_path)
    path = cache_path(words, tmp_path)
    assert path.exists()
    assert np.array_equal(read_cache(path, words), fresh)
    whole = path.read_bytes()

    path.write_bytes(whole[:-3])  # truncated
    assert read_cache(path, words) is None
    assert np.array_equal(load_matrix(words, directory=tmp_path), fresh)
    assert path.read_bytes() == whole

    flipped = bytearray(whole)
    flipped[-1] ^= 0xFF  # one corrupt byte in the body
    path.write_bytes(bytes(flipped))
    assert read_cache(path, words) is None
    assert np.array_equal(load_matrix(words, directory=tmp_path), fresh)

    for junk in (b"", b"not a cache", whole.replace(b'"rows"', b'"rowz"'), whole.replace(b'"code": "', b'"code": "0')):
        path.write_bytes(junk)
        assert read_cache(path, words) is None
        assert np.array_equal(load_matrix(words, directory=tmp_path), fresh)


def test_cache_of_other_lists_is_not_trusted(tmp_path):
    words = small_words(tmp_path)
    load_matrix(words, directory=tmp_path)
    other = load_words(tmp_path / "a.txt", tmp_path / "a.txt")
    cache_path(words, tmp_path).rename(cache_path(other, tmp_path))
    assert read_cache(cache_path(other, tmp_path), other) is None


def _build(directory: str, answers: str, guesses: str) -> None:
    load_matrix(load_words(answers, guesses), directory=__import__("pathlib").Path(directory))


def test_two_processes_building_at_once_leave_a_valid_cache(tmp_path):
    words = small_words(tmp_path)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_build, args=(str(tmp_path), str(tmp_path / "a.txt"), str(tmp_path / "g.txt")))
               for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
        assert worker.exitcode == 0
    assert np.array_equal(read_cache(cache_path(words, tmp_path), words), pattern_matrix(words.guesses, words.answers))
    assert not list(tmp_path.glob("*.tmp"))


def test_unwritable_cache_folder_only_costs_a_rebuild(tmp_path):
    words = small_words(tmp_path)
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    with pytest.warns(CacheWarning, match="kept in memory"):
        assert load_matrix(words, directory=blocker / "cache").shape == (6, 4)
