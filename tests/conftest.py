"""Shared fixtures: the official game (matrix cached once per test session) and small word lists."""

from __future__ import annotations

import io
import sys

import pytest

import cli

from search import Wordle, load_matrix, load_words
from search.matrix import pattern_matrix
from search.words import Words


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory):
    """One matrix cache folder for the whole test session, so the official matrix is built once."""
    return tmp_path_factory.mktemp("matrix-cache")


@pytest.fixture(scope="session")
def official_game(session_cache) -> Wordle:
    """The game over the shipped 2315 answers and 12972 guesses (matrix built in the session cache)."""
    words = load_words()
    return Wordle(words, load_matrix(words, directory=session_cache))


def small_game(answers: list[str], extra_guesses: list[str] = ()) -> Wordle:
    """A game over hand-picked words: the guesses are the answers plus `extra_guesses`."""
    guesses = tuple(sorted(set(answers) | set(extra_guesses)))
    words = Words.build(tuple(answers), guesses)
    return Wordle(words, pattern_matrix(words.guesses, words.answers))


def run_cli(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """Run the command line in this process, with `stdin` as typed input: exit code, stdout, stderr."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def private_cache(session_cache, monkeypatch):
    """Keep the tests' matrix cache out of the user's cache directory."""
    monkeypatch.setenv("WORDLE_ARENA_CACHE", str(session_cache))
