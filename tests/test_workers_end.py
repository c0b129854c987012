"""No worker outlives the call that started it: a tournament (or any pool of the project) stopped by an error in the
parent, a worker's failure, a worker's death, Ctrl-C or SIGTERM ends and reaps every worker within seconds, even a
worker that ignores SIGTERM. A child left alive would be joined forever when the interpreter exits."""

from __future__ import annotations

import errno
import multiprocessing
import multiprocessing.spawn
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tournament.runner as runner
from agents.two_step import rank_openers
from plumbing.errors import UserError
from plumbing.processes import (child_processes, is_alive, spawned_deaf_to_ctrl_c, stops_held, take_stops_as_worker,
                                 worker_pool)
from tests.test_tournament import lists, tournament  # noqa: F401  (fixture and helper)
from tournament.records import Journal

#: How long a worker may outlive the call that stopped it ("within a few seconds").
FEW_SECONDS = 5.0


@pytest.fixture()
def no_child_left():
    """After the test: every child process the test started has ended and been reaped within a few seconds."""
    before = set(child_processes(os.getpid()))
    yield
    deadline = time.monotonic() + FEW_SECONDS
    while time.monotonic() < deadline:
        left = [pid for pid in child_processes(os.getpid()) if pid not in before and is_alive(pid)]
        if not left and not multiprocessing.active_children():
            return
        time.sleep(0.1)
    raise AssertionError(f"children still alive: {left}, active: {multiprocessing.active_children()}")


def stubborn_play(game, agent, plan, mode, answer):
    """A worker's game that ignores SIGTERM and never ends (a worker stuck where no Python handler runs)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)


def journal_that_fails_at(third: BaseException | None = None, signal_number: int | None = None):
    """Journal.write that, at the third game, raises `third` or sends this process `signal_number`."""
    write, written = Journal.write, []

    def failing(self, record):
        if len(written) == 3:
            if signal_number is not None:
                os.kill(os.getpid(), signal_number)
                time.sleep(1)  # the handler raises here
            raise third
        written.append(record)
        write(self, record)
    return failing


@pytest.mark.parametrize("stop", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt(),
                                  RuntimeError("a bug in the parent"), "sigterm"],
                         ids=["full-disk", "ctrl-c", "parent-error", "sigterm"])
def test_a_tournament_stopped_by_its_parent_leaves_no_worker(capsys, lists, tmp_path, monkeypatch, stop,
                                                            no_child_left):
    """The parent fails while journaling (full disk, Ctrl-C, a bug, SIGTERM as the command line turns it into Ctrl-C):
    the command answers as it should and every worker is gone."""
    failing = journal_that_fails_at(signal_number=signal.SIGTERM) if stop == "sigterm" else journal_that_fails_at(stop)
    monkeypatch.setattr(Journal, "write", failing)
    if isinstance(stop, RuntimeError):
        with pytest.raises(RuntimeError):
            tournament(capsys, lists, tmp_path / "run", "--jobs", "2")
        return
    code, _, err = tournament(capsys, lists, tmp_path / "run", "--jobs", "2")
    assert code == (2 if isinstance(stop, OSError) else 130), err


@pytest.mark.parametrize("worker", ["fails", "dies"])
def test_a_tournament_stopped_by_a_worker_leaves_no_worker(capsys, lists, tmp_path, monkeypatch, worker,
                                                          no_child_left):
    """A worker's bad input (a UserError inside it) or its death stops the run in one line; none is left."""
    def play(game, agent, plan, mode, answer):
        if worker == "dies":
            os._exit(3)
        raise UserError("a worker's own bad input")

    monkeypatch.setattr(runner, "play_game", play)
    code, _, err = tournament(capsys, lists, tmp_path / "run", "--jobs", "2")
    assert code == 2 and err.count("\n") == 1, err


@pytest.mark.slow
def test_a_worker_that_ignores_sigterm_is_killed_when_the_parent_stops(capsys, lists, tmp_path, monkeypatch,
                                                                       no_child_left):
    """Workers stuck past SIGTERM are killed outright: the stopped call returns within seconds, none left."""
    monkeypatch.setattr(runner, "play_game", stubborn_play)
    monkeypatch.setattr(runner, "POLL_SECONDS", 0.1)
    calls = []

    def wait(pipes, timeout):  # the parent's second look at its pipes is a Ctrl-C
        calls.append(1)
        if len(calls) == 10:
            raise KeyboardInterrupt
        time.sleep(timeout)
        return []

    monkeypatch.setattr(runner.connection, "wait", wait)
    began = time.monotonic()
    code, _, _ = tournament(capsys, lists, tmp_path / "run", "--jobs", "2")
    assert code == 130 and time.monotonic() - began < 30


def stuck(_: int) -> int:
    """A task that ignores SIGTERM and never ends."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)


@pytest.mark.slow
def test_a_worker_pool_left_by_an_error_ends_its_stuck_workers(no_child_left):
    """worker_pool: an exception in the block stops workers that ignore SIGTERM, within seconds."""
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with worker_pool(2) as pool:
            futures = [pool.submit(stuck, n) for n in range(4)]
            time.sleep(1)
            raise KeyboardInterrupt
    assert time.monotonic() - began < 15 and len(futures) == 4


def test_ranking_openers_stopped_by_its_caller_leaves_no_worker(no_child_left):
    """rank_openers on two workers, its progress callback failing at the first result: the workers go with it."""
    from wordle import Wordle, load_matrix, load_words
    from wordle.words import Words
    official = load_words()
    words = Words.build(tuple(official.answers[::60]), tuple(official.answers[::60]))
    game = Wordle(words, load_matrix(words))

    def fail(_):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        rank_openers(game, 6, hard=False, jobs=2, on_result=fail)


def sigint_taken_by(executable) -> str:
    """How a Python started by `executable` (as multiprocessing's spawn starts one) takes SIGINT."""
    probe = "import signal; print('ignored' if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 'taken')"
    return subprocess.run([os.fsdecode(executable), "-c", probe], capture_output=True, text=True, timeout=60).stdout.strip()


def test_children_spawned_inside_ignore_ctrl_c_while_this_process_keeps_its_handler():
    """A Dask cluster's processes must not die of a terminal's Ctrl-C (the command stops them), but a Ctrl-C sent to
    the command while they start must still stop it: it was dropped when the command ignored SIGINT to pass that on."""
    handler = signal.getsignal(signal.SIGINT)
    before = multiprocessing.spawn.get_executable()
    with spawned_deaf_to_ctrl_c():
        assert signal.getsignal(signal.SIGINT) is handler
        assert sigint_taken_by(multiprocessing.spawn.get_executable()) == "ignored"
    assert signal.getsignal(signal.SIGINT) is handler and multiprocessing.spawn.get_executable() == before
    assert sigint_taken_by(before) == "taken"


# -- a worker stopped as it starts -----------------------------------------------------------------
def stops_as_seen() -> tuple[bool, bool, bool]:
    """In a worker: (SIGINT ignored, SIGTERM's default in place, neither held)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return (signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
            not {signal.SIGINT, signal.SIGTERM} & held)


def report_held_then_take(pipe) -> None:
    """A worker forked inside stops_held: send whether both stops are held at its start, then take them."""
    pipe.send({signal.SIGINT, signal.SIGTERM} <= signal.pthread_sigmask(signal.SIG_BLOCK, []))
    take_stops_as_worker()
    pipe.send(stops_as_seen())


def test_a_worker_forked_with_stops_held_starts_with_them_held_and_takes_its_own():
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    worker = context.Process(target=report_held_then_take, args=(sending,))
    with stops_held():
        worker.start()
    assert not {signal.SIGINT, signal.SIGTERM} & signal.pthread_sigmask(signal.SIG_BLOCK, [])  # put back here
    assert receiving.recv() is True and receiving.recv() == (True, True, True)
    worker.join(FEW_SECONDS)


INITIALIZED: list[str] = []


def initialize(word: str) -> None:
    """A pool initializer that leaves a mark."""
    INITIALIZED.append(word)


def initialized() -> list[str]:
    """The marks this process's initializer left."""
    return INITIALIZED


def test_a_pool_s_workers_ignore_ctrl_c_end_on_sigterm_and_run_their_initializer(no_child_left):
    with worker_pool(2, initializer=initialize, initargs=("set",)) as pool:
        seen = pool.submit(stops_as_seen).result()
        marks = pool.submit(initialized).result()
    assert seen == (True, True, True) and marks == ["set"]


#: Workers forked under a command's stops (SIGTERM raising KeyboardInterrupt) and terminated at once, in a process of
#: their own: one that hangs fails the test instead of stopping the test run.
STOPPED_AS_THEY_START = """
import multiprocessing, time
from plumbing.processes import stop_processes, stops_held, take_stops_as_worker
from plumbing.stops import Stops

def sleeping_worker():
    take_stops_as_worker()
    time.sleep(5)

if __name__ == "__main__":
    context, hung = multiprocessing.get_context("fork"), 0
    with Stops():
        for _ in range(300):
            worker = context.Process(target=sleeping_worker)
            with stops_held():
                worker.start()
            worker.terminate()
            worker.join(5)
            if worker.exitcode is None:
                hung += 1
                stop_processes([worker])
    print("hung", hung)
"""


def test_workers_stopped_as_they_start_all_end_at_once(tmp_path):
    """300 workers terminated the moment they were forked each end. Forked with the parent's handlers live (which
    raise KeyboardInterrupt), one now and then raised it inside multiprocessing's own start-up and hung past SIGTERM
    (one that ran on in its parent's code is the likely source of a pytest-xdist flake: a test reported failed with
    exit 130)."""
    script = tmp_path / "stopped_as_they_start.py"
    script.write_text(STOPPED_AS_THEY_START)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[1],
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert done.returncode == 0 and done.stdout.strip() == "hung 0", done.stdout + done.stderr[-2000:]
