"""SIGTERM (and Ctrl-C) stop a command however busy it is: a stop that lands where Python drops exceptions (a
finalizer, a ctypes callback, as llvmlite's while numba compiles) is raised again, and one that surfaces as another
error is reported as the stop it is (exit 130, 'interrupted')."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cli
from plumbing.stops import Stops
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]


def busy(seconds: float = 5.0) -> None:
    """Run Python bytecode for up to `seconds` (a pending signal's handler runs in it)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


class SignalledWhileCollected:
    """An object whose finalizer receives a SIGTERM: its handler runs (and raises) inside __del__."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGTERM)


def command_stopped_in(place):
    """A command that receives SIGTERM where `place` runs it, then works on for a while and returns 0."""
    def command(args, console) -> int:
        place()
        busy()
        return 0
    return command


def signalled_in_a_finalizer() -> None:
    """SIGTERM handled inside a finalizer (the object is collected at once)."""
    SignalledWhileCollected()


def signalled_in_a_ctypes_callback() -> None:
    """SIGTERM handled inside a ctypes callback, as llvmlite's is called once LLVM has emitted a kernel's code (a
    SIGTERM that came while LLVM worked, in C, was handled there, and ctypes dropped it)."""
    ctypes.CFUNCTYPE(None)(lambda: signal.raise_signal(signal.SIGTERM))()


@pytest.mark.parametrize("place", [signalled_in_a_finalizer, signalled_in_a_ctypes_callback])
def test_a_sigterm_where_python_drops_exceptions_still_stops_the_command(place, capsys, monkeypatch):
    """Before, the stop was printed ('Exception ignored ...') and dropped, and the command ran on to exit 0."""
    import commands.openers

    monkeypatch.setattr(commands.openers, "command_openers", command_stopped_in(place))
    code, _, err = run_cli(capsys, "openers", "--top", "1")
    assert (code, err.strip()) == (cli.EXIT_INTERRUPTED, "interrupted")


def test_a_stop_dropped_in_a_finalizer_is_raised_again_by_stops(capfd):
    with Stops() as stops:
        with pytest.raises(KeyboardInterrupt):
            SignalledWhileCollected()
            busy()
        assert stops.asked
    assert "Exception ignored" not in capfd.readouterr().err


def test_handlers_and_the_hook_are_put_back():
    term, intr, hook = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook
    with Stops() as stops:
        assert signal.getsignal(signal.SIGTERM) == stops.stop and sys.unraisablehook == stops.unraisable
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook) == (term, intr, hook)


def test_other_dropped_exceptions_still_reach_the_hook_before(monkeypatch):
    class Broken:
        def __del__(self) -> None:
            raise ValueError("a finalizer's own bug")

    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: seen.append(info.exc_type))
    with Stops() as stops:
        Broken()
    assert seen == [ValueError] and not stops.asked


@pytest.mark.parametrize("surfaces_as", [RuntimeError("no compiled object yet"), ImportError("initialization failed"),
                                         OSError(5, "Input/output error")])
def test_a_stop_that_surfaces_as_another_error_is_reported_as_a_stop(surfaces_as, capsys, monkeypatch):
    """numba's compiler left half-done by a stop raised RuntimeError, and a C extension's module stopped while it
    initialised raised ImportError: each printed a traceback (exit 1) instead of 'interrupted' (130)."""
    import commands.openers

    def stopped_command(args, console):
        try:
            signal.raise_signal(signal.SIGTERM)
        except KeyboardInterrupt as stop:
            raise surfaces_as from stop

    monkeypatch.setattr(commands.openers, "command_openers", stopped_command)
    code, _, err = run_cli(capsys, "openers", "--top", "1")
    assert (code, err.strip()) == (cli.EXIT_INTERRUPTED, "interrupted")


def test_an_error_with_no_stop_behind_it_is_not_taken_for_one(capsys, monkeypatch):
    import commands.openers

    def broken_command(args, console):
        raise RuntimeError("a bug")

    monkeypatch.setattr(commands.openers, "command_openers", broken_command)
    with pytest.raises(RuntimeError, match="a bug"):
        run_cli(capsys, "openers", "--top", "1")


@pytest.mark.slow
def test_sigterm_at_many_moments_of_an_exact_opener_run_always_stops_it(tmp_path):
    """`openers --exact --opener qajaq --hard` sent SIGTERM at moments from its start to well into the proof, its
    numba kernels compiled afresh (an empty numba cache) in half the runs: each run ends (exit 130 and 'interrupted',
    or killed by the signal before the command began) and prints no traceback. Before, a SIGTERM while numba compiled
    was dropped in llvmlite's callback: a traceback (RuntimeError), or the proof ran on."""
    # four moments, spread from the start into the proof (the audit's 'sigterm moments' area sends sixteen)
    moments = [0.5, 3.0, 7.0, 12.0]
    failures = []
    for index, moment in enumerate(moments):
        numba = tmp_path / f"numba-{index}"
        env = {**os.environ, **({"NUMBA_CACHE_DIR": str(numba)} if index % 2 == 0 else {})}
        job = subprocess.Popen([sys.executable, "cli.py", "openers", "--exact", "--opener", "qajaq", "--hard"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(moment)
        job.send_signal(signal.SIGTERM)
        try:
            job.wait(timeout=60)
        except subprocess.TimeoutExpired:
            job.kill()
            job.wait()
            failures.append(f"{moment} s: still running 60 s after SIGTERM")
            continue
        err = job.stderr.read()
        if job.returncode not in (cli.EXIT_INTERRUPTED, -signal.SIGTERM):
            failures.append(f"{moment} s: exit {job.returncode}: {err.strip()[-200:]}")
        elif job.returncode == cli.EXIT_INTERRUPTED and err.strip() != "interrupted":
            failures.append(f"{moment} s: printed {err.strip()[-200:]!r}")
        shutil.rmtree(numba, ignore_errors=True)
    assert not failures, failures


def test_the_dask_job_s_remembered_stops_raise_a_dropped_sigterm_again_without_waiting_for_a_result(capfd):
    """Inside the Dask job a dropped stop was only noted, and raised at the job's next result (minutes, for a hard
    opener); now it is delivered again at once, as outside."""
    from tournament.exact_openers import RememberedStops

    with Stops(), RememberedStops() as remembered:
        with pytest.raises(KeyboardInterrupt):
            SignalledWhileCollected()
            busy()
        assert remembered.seen
    assert "Exception ignored" not in capfd.readouterr().err
