"""Worker processes tied to their parent's life: a worker whose parent dies (even by SIGKILL) exits within a second.

Two mechanisms, because each has a gap the other covers: Linux's parent-death signal
(`prctl(PR_SET_PDEATHSIG)`) is delivered by the kernel even while the worker is deep in
compiled code that never returns to Python, but it fires when the *thread* that forked
the worker ends; a watchdog thread that notices the worker was handed to another parent
works on every POSIX system, whichever thread started the worker.

And the other way round: a parent that stops its workers (an error, a Ctrl-C) ends and reaps every one of them
within seconds (`stop_processes`, `worker_pool`), so none outlives the call that started it.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import functools
import multiprocessing
import multiprocessing.spawn
import os
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from plumbing.stops import STOP_SIGNALS

#: How often the watchdog looks at the worker's parent, in seconds.
WATCH_SECONDS = 0.5
#: prctl's option that sets the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def tie_to_parent(parent: int | None = None, kernel_signal: bool = True, group: bool = False) -> None:
    """Make this (worker) process end when `parent` (default: its parent now) dies, and at once on SIGTERM.

    Args:
        parent: the process id this worker must not outlive.
        kernel_signal: also ask Linux for SIGKILL on the parent's death; only for workers
            forked by a thread that lives as long as the parent (its main thread).
        group: on the parent's death end this worker's whole process group (the worker
            leads one, so processes of its own go with it).
    """
    parent = os.getppid() if parent is None else parent
    # SIGTERM ends a worker at once, as a pool's terminate() expects: a handler inherited from the command (which
    # turns SIGTERM into Ctrl-C) could be caught by the work and leave the worker waiting on the pool's queue forever
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if kernel_signal and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still ends the worker
    if os.getppid() != parent:  # the parent died before the signal was asked for
        _end(group)

    def watch() -> None:
        """Poll the parent; end this process as soon as it is gone."""
        event = threading.Event()
        while not event.wait(WATCH_SECONDS):
            if os.getppid() != parent:
                _end(group)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _end(group: bool) -> None:
    """End this process now (and its process group when it leads one)."""
    if group and os.getpgrp() == os.getpid():
        os.killpg(os.getpid(), signal.SIGKILL)
    os._exit(1)


def end_group(pid: int) -> None:
    """SIGKILL the process `pid` and the process group it leads (whatever it started); gone already is fine."""
    for kill in (os.killpg, os.kill):  # a worker still starting may not lead its group yet
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def child_processes(pid: int) -> list[int]:
    """The ids of the live processes whose parent is `pid` (Linux's /proc; empty elsewhere)."""
    found = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().split(") ")[-1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return found


@contextlib.contextmanager
def spawned_deaf_to_ctrl_c() -> Iterator[None]:
    """Processes that multiprocessing's spawn starts inside start with Ctrl-C (SIGINT) ignored, and so do theirs; this
    process keeps its own handler all along.

    A terminal's Ctrl-C reaches the whole foreground process group: a Dask cluster's nannies and workers killed by it
    mid-task left the command waiting on their results (and printed their tracebacks); the command stops them itself.
    Ignoring SIGINT in this process while they start would hand them the disposition too, but it also dropped a Ctrl-C
    sent to the command then, and a cluster takes half a minute to start on a busy machine. So each is started through
    a two-line shell script that ignores SIGINT and then becomes the real interpreter (an ignored signal stays ignored
    across exec, and Python keeps it so). The script lives until this process exits: a cluster stopped while it
    starts may still be spawning a worker from another thread after this block has ended."""
    before = multiprocessing.spawn.get_executable()
    multiprocessing.spawn.set_executable(str(_deaf_wrapper(os.fsdecode(before))))
    try:
        yield
    finally:
        multiprocessing.spawn.set_executable(before)


@functools.cache
def _deaf_wrapper(executable: str) -> Path:
    """A shell script, removed when this process exits, that ignores SIGINT and then becomes `executable`."""
    folder = Path(tempfile.mkdtemp(prefix="wordle-arena-spawn-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    wrapper = folder / "python"
    wrapper.write_text(f"#!/bin/sh\ntrap '' INT\nexec {shlex.quote(executable)} \"$@\"\n")
    wrapper.chmod(0o700)
    return wrapper


def end_spawned_children() -> None:
    """SIGKILL this process's children that multiprocessing's spawn started (a cluster's workers), whatever stage they
    are at: one still unpickling its start-up state when its parent stops printed a FileNotFoundError traceback on
    the shared stderr (its semaphore was already gone). Other children (the resource tracker) are left alone."""
    for pid in child_processes(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            end_group(pid)


def is_alive(pid: int) -> bool:
    """Whether process `pid` exists and has not ended (a zombie has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    except OSError:
        return False


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back from this thread while inside, and delivered on leaving; a worker forked inside
    starts with them held until it takes them (`take_stops_as_worker`).

    A forked worker inherits its parent's handlers, which raise KeyboardInterrupt. A worker stopped before it had set
    its own raised it where multiprocessing could not catch it (in fork's own hooks, or on the way into the worker's
    code): the worker then hung past SIGTERM, or by all signs ran on in its parent's code (under pytest-xdist a test
    was reported failed, "interrupted"). Held, the stop waits for the worker's own handlers.
    """
    if not hasattr(signal, "pthread_sigmask"):  # no signal masks here (not POSIX): nothing to hold
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def take_stops_as_worker() -> None:
    """In a worker forked inside `stops_held`: Ctrl-C ignored (the parent's to handle), SIGTERM ends it at once, and
    then both let through (one that came meanwhile takes effect now)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _start_pool_worker(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A pool worker's start: its own way with stops (`take_stops_as_worker`), then the pool's initializer."""
    take_stops_as_worker()
    if initializer is not None:
        initializer(*initargs)


class _StopsHeldPool(ProcessPoolExecutor):
    """A process pool whose workers, forked when work is submitted, start with stops held (`stops_held`)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """Submit as the pool does, with Ctrl-C and SIGTERM held while it may fork its workers."""
        with stops_held():
            return super().submit(fn, *args, **kwargs)


#: How long a stopped worker is given to end on SIGTERM before it is killed outright, in seconds.
STOP_SECONDS = 2.0


def stop_processes(processes: Iterable[BaseProcess], grace: float = STOP_SECONDS) -> None:
    """End every process of `processes` and reap it, within about `grace` seconds more than a kill takes.

    SIGTERM first, then SIGKILL (with the process group it leads) for any still alive at the deadline: a worker
    blocked where a Python signal handler never runs (a lock inherited by fork, a compiled loop) would otherwise
    outlive its parent's call, and multiprocessing joins every live child at interpreter exit, forever.
    """
    processes = [process for process in processes if process.pid is not None]
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            end_group(process.pid)
            process.join(timeout=grace)


@contextlib.contextmanager
def worker_pool(jobs: int, initializer: Callable[..., None] | None = None,
                initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A pool of `jobs` forked worker processes (spawned where fork is missing), none of which outlives the block.

    Its workers ignore Ctrl-C and end at once on SIGTERM (the parent stops them), then run `initializer`.

    A block that ends normally waits for the work it submitted; one left by an exception (an error in the parent, a
    Ctrl-C, SIGTERM as Ctrl-C) cancels what has not started and stops every worker at once (`stop_processes`).
    """
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = _StopsHeldPool(max_workers=jobs, mp_context=context, initializer=_start_pool_worker,
                          initargs=(initializer, initargs))
    try:
        yield pool
    except BaseException:
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        stop_processes(workers)
        raise
    pool.shutdown(wait=True)
