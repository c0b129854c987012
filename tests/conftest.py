"""Shared fixtures: the official game (matrix cached once per test session) and small word lists."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest

import cli
from plumbing.storage import keep_numba_cache
from wordle import ALL_GREEN, Wordle, load_matrix, load_words
from wordle.matrix import pattern_matrix
from wordle.words import Words

# Compiled kernels are kept where the commands keep them (the user's cache, or $WORDLE_ARENA_CACHE as the run starts),
# not in each session's private folder: numba checks every entry against its source, so a session, and CI's slow tier
# after its fast tier, reads back what an earlier one compiled rather than spending a minute compiling it again. The
# test of a cold cache gives its process a folder of its own.
keep_numba_cache()


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory):
    """One matrix cache folder for the whole test session, so the official matrix is built once."""
    return tmp_path_factory.mktemp("matrix-cache")


@pytest.fixture(scope="session")
def official_game(session_cache) -> Wordle:
    """The game over the shipped 2315 answers and 12972 guesses (matrix built in the session cache)."""
    words = load_words()
    return Wordle(words, load_matrix(words, directory=session_cache))


@pytest.fixture(scope="session")
def today_game(session_cache) -> Wordle:
    """The game the player's commands and the web play by default: the 2315 answers and the 14855 guesses the Times
    accepts today (matrix built in the session cache)."""
    words = load_words(guesses="nyt")
    return Wordle(words, load_matrix(words, directory=session_cache))


@pytest.fixture(scope="session")
def nyt_game(session_cache) -> Wordle:
    """The game of `--answers nyt --guesses nyt`: the Times' 2309 answers and its 14855 guesses (matrix built in the
    session cache)."""
    from wordle.words import named_words
    words = named_words("nyt", "nyt")
    return Wordle(words, load_matrix(words, directory=session_cache))


@pytest.fixture(scope="session")
def played_game(session_cache) -> Wordle:
    """The game of `--answers played --guesses nyt`: every answer the Times has used (2357) and its 14855 guesses
    (matrix built in the session cache)."""
    from wordle.words import named_words
    words = named_words("played", "nyt")
    return Wordle(words, load_matrix(words, directory=session_cache))


def small_game(answers: list[str], extra_guesses: list[str] = ()) -> Wordle:
    """A game over hand-picked words: the guesses are the answers plus `extra_guesses`."""
    guesses = tuple(sorted(set(answers) | set(extra_guesses)))
    words = Words.build(tuple(answers), guesses)
    return Wordle(words, pattern_matrix(words.guesses, words.answers))


def draw_reply(game: Wordle, data, hard: bool, least: int, most: int | None = None):
    """A reply of `least` to `most` answers (not all green) to an opener drawn with Hypothesis's `data`, and its
    hints (None in normal mode); None where the opener leaves no such reply."""
    from hypothesis import strategies as st
    state = game.initial_state(hard=hard)
    opener = data.draw(st.integers(0, len(game.words.guesses) - 1), label="opener")
    replies = [(int(code), np.asarray(group)) for code, group in game.partition(state.candidates, opener)
               if code != ALL_GREEN and least <= len(group) <= (most or len(group))]
    if not replies:
        return None
    code, answers = data.draw(st.sampled_from(replies), label="reply")
    return answers, (game.hints(game.step(state, opener, code)) if hard else None)


def learner_models(game: Wordle, folder, hard: bool = False) -> None:
    """Models of the learners for `game` in `folder`: a briefly trained Q-table and untrained PPO weights."""
    from agents.models import model_path, save_model
    from agents.ppo import env, net
    from agents.qlearning import QConfig, QTable, Trainer
    from agents.training import TrainingBudget

    run = Trainer(QTable(game, QConfig(hard=hard, eval_every=10**9)), seed=0)
    run.train(TrainingBudget(episodes=200))
    run.save(model_path("q-learning", hard, folder), "test")
    params = net.init_params(env.feature_size(6), 8, 4, np.random.default_rng(0))
    save_model(model_path("ppo", hard, folder), {f"param_{name}": value for name, value in params.items()},
               {"learner": "ppo", "hard": hard, "max_guesses": 6, "words_checksum": game.words.checksum,
                "config": {"temperature": 1.0}})


def said_lines(stderr: str) -> list[str]:
    """What a command said on stderr, line by line, less the progress line of a pattern matrix built into a cold
    cache (a test run alone, or the first of a session to need a wider model's matrix)."""
    return [line for line in stderr.strip().splitlines() if "building the pattern matrix" not in line]


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


@pytest.fixture(autouse=True)
def output_to_a_pipe(monkeypatch):
    """Every test sees the output a pipe gets, whoever runs it: no terminal size from the environment (pytest-xdist's
    workers set COLUMNS, and rich then wraps long lines at it)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


#: A fast-tier test slower than this alone (its call, in seconds) belongs to the slow tier (`@pytest.mark.slow`).
FAST_TIER_SECONDS = 5.0
#: The fast-tier tests that ran past FAST_TIER_SECONDS in this run: (seconds, test id).
_SLOW_IN_FAST_TIER: list[tuple[float, str]] = []


def pytest_runtest_logreport(report):
    """Note a test without the slow mark whose call ran past FAST_TIER_SECONDS (the process that prints the summary
    sees every report, pytest-xdist's workers' too)."""
    if report.when == "call" and report.duration > FAST_TIER_SECONDS and "slow" not in report.keywords:
        _SLOW_IN_FAST_TIER.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter):
    """Name the unmarked tests that took over FAST_TIER_SECONDS: they belong to the slow tier.

    A report, not a failure: a test's time depends on the machine's load, and no test fails on a clock.
    """
    if _SLOW_IN_FAST_TIER:
        terminalreporter.section("slow tests outside the slow tier")
        for seconds, nodeid in sorted(_SLOW_IN_FAST_TIER, reverse=True):
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}: mark it @pytest.mark.slow")


#: Test modules that load JAX, whose threads make any later fork of the test process unsafe (a forked child can
#: deadlock on a lock a JAX thread held): they run after every other test.
LOADS_JAX = ("test_ppo.py", "test_ppo_env.py")


def pytest_collection_modifyitems(items):
    """Run the modules that load JAX last, so that no test forks worker processes after JAX has started threads."""
    items.sort(key=lambda item: item.path.name in LOADS_JAX)
