"""Worker processes tied to their parent's life: a worker whose parent dies (even by SIGKILL) exits within a second.

Two mechanisms, because each has a gap the other covers: Linux's parent-death signal
(`prctl(PR_SET_PDEATHSIG)`) is delivered by the kernel even while the worker is deep in
compiled code that never returns to Python, but it fires when the *thread* that forked
the worker ends; a watchdog thread that notices the worker was handed to another parent
works on every POSIX system, whichever thread started the worker.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
from pathlib import Path

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
