"""Worker processes that do the web server's expensive work (an agent watched or consulted), each call under a time budget.

A thread cannot be stopped; a process can. Each call is sent to an idle worker process
and the caller waits at most its budget: past it the worker is killed with every process
it started (it leads its own process group), the call is answered with an `OverBudget`
error, and a fresh worker takes its place. The server stays answerable whatever a request
asks for, and stopping the server (`close`) kills the workers, so no request holds it up.

Workers are started with 'spawn' (a clean interpreter: forking a threaded server is
unsafe) and each keeps its own agents, so their caches serve later calls. A worker ends
within a second when the server process dies, however it died. Each worker's address
space is capped (RLIMIT_AS) at what it maps once started plus `memory_bytes`: a call that needs more is answered
with an `OverMemory` error (HTTP 503) and its worker replaced, the server untouched.

A call may report what it has found so far: the handler gets a `report(data)` that sends
("progress", data) down the pipe before the answer, and the server hands each to the caller's
`on_progress` (the web's jobs show it: web/jobs.py). A caller may also stop a call early
(`keep_going` turning False: the page stopped asking), which kills its worker as the budget does.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Callable

from plumbing.errors import UserError
from plumbing.processes import end_group, tie_to_parent


class Busy(UserError):
    """Every worker stayed busy for the whole wait, or the server is stopping (HTTP 503); the request did nothing."""


class OverBudget(UserError):
    """A call ran past its time budget and was stopped (HTTP 503)."""


class OverMemory(UserError):
    """A call needed more memory than a worker may have and was stopped (HTTP 503)."""


#: The most address space (bytes) a worker process may map beyond what it maps once started: a worker over it fails
#: its call, not the machine. A started worker maps about 0.4 GB on two cores (its libraries' threads and their stacks
#: and allocator arenas, more on a machine with more cores); one that has advised with every answer model about 1.1 GB
#: more.
MEMORY_BYTES = 4 * 2**30


#: How often a call's wait asks whether it is still wanted (seconds).
CHECK_SECONDS = 0.5
#: How long a call waits for a new worker to start (import the project, build its handler) before its budget begins.
START_SECONDS = 120.0


class WorkerFailed(Exception):
    """A worker process failed outside the request's control (it died, or raised an unexpected error): HTTP 500."""


@dataclass
class Failure:
    """A call's UserError as the worker sends it back: the error's HTTP status and its one-line message."""

    status: int
    message: str


def mapped_bytes() -> int:
    """This process's address space now, in bytes (Linux's /proc/self/status; 0 where it cannot be read)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def cap_memory(most: int) -> None:
    """Cap this process's address space at `most` bytes (or less, when a lower cap was set already)."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    most = most if hard == resource.RLIM_INFINITY else min(most, hard)
    resource.setrlimit(resource.RLIMIT_AS, (most, most))


def serve_calls(connection: Connection, status_of: Callable[[UserError], int], parent: int,
                memory_bytes: int = MEMORY_BYTES) -> None:
    """A worker process's life: build its handler (sent first), then answer (method, body) calls until the pipe closes
    or a call runs out of memory (answered, then the worker ends: its heap is not to be trusted). The handler is
    called as handle(method, body, report), `report(data)` sending ("progress", data) before the answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C and SIGTERM are the server's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.setpgrp()  # lead a process group: the server's kill takes an agent's own workers too
    tie_to_parent(parent, kernel_signal=False, group=True)
    try:
        handle = connection.recv()()
        # the cap counts from here: what a started worker maps grows with the machine's cores (threads' stacks and
        # allocator arenas), and a fixed cap left a many-core machine's worker too little to read a picture
        cap_memory(mapped_bytes() + memory_bytes)
        connection.send(("ready", None))  # the server starts a call's budget only now
    except (EOFError, OSError):
        return
    while True:
        try:
            method, body = connection.recv()
        except (EOFError, OSError):
            return
        except MemoryError:  # the request itself did not fit: answered as any call over the cap
            try:
                connection.send(("memory", over_memory(memory_bytes)))
            except (OSError, ValueError):
                pass
            return
        def report(data: Any) -> None:
            """Send what the call has found so far."""
            connection.send(("progress", data))

        try:
            reply: Any = ("ok", handle(method, body, report))
        except UserError as error:
            reply = ("error", Failure(status_of(error), str(error)))
        except MemoryError:
            reply = ("memory", over_memory(memory_bytes))
        except Exception as error:  # noqa: BLE001 - told to the server in one line, the traceback on stderr
            traceback.print_exc(file=sys.stderr)
            reply = ("failed", error.__class__.__name__)
        try:
            connection.send(reply)
        except (OSError, ValueError):
            return
        if reply[0] == "memory":
            return


def over_memory(memory_bytes: int) -> str:
    """The message of a call that needed more memory than a worker may add."""
    return (f"this request needed more than the {memory_bytes / 2**30:g} GB of memory a worker may use and was "
            "stopped; ask for less, or use the command line")


class Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self, context: Any, make_handler: Callable[[], Callable[[str, dict, Callable[[Any], None]], Any]],
                 status_of: Callable[[UserError], int], memory_bytes: int = MEMORY_BYTES):
        """Start the process; its handler (the game inside) follows down the pipe, sent in the background, since
        a new interpreter takes seconds to import the project before it reads it."""
        self.connection, child = context.Pipe()
        self.process = context.Process(target=serve_calls, args=(child, status_of, os.getpid(), memory_bytes),
                                       daemon=True, name="wordle-arena-web-worker")
        self.process.start()  # small arguments: returns at once, the pid known
        child.close()
        self.ready = threading.Event()

        def send_handler() -> None:
            """Hand the worker its handler and wait until it has built it, then let calls be sent."""
            try:
                self.connection.send(make_handler)
                self.connection.recv()
            except (OSError, ValueError, EOFError):
                pass  # killed while starting: the call that waits on it reads the pipe's end
            finally:
                self.ready.set()

        threading.Thread(target=send_handler, name="wordle-arena-worker-setup", daemon=True).start()

    def kill(self, close_pipe: bool = True) -> None:
        """End the worker and whatever it started, now (the pipe stays open for a thread still reading it)."""
        if self.process.pid is not None:
            end_group(self.process.pid)
        self.process.join(timeout=5)
        if close_pipe:
            self.connection.close()


class WorkerPool:
    """At most `size` calls at once, each in a worker process under its own time budget."""

    def __init__(self, make_handler: Callable[[], Callable[[str, dict, Callable[[Any], None]], Any]],
                 status_of: Callable[[UserError], int],
                 size: int, queue_seconds: float, memory_bytes: int = MEMORY_BYTES):
        """Start `size` workers, each answering calls with `make_handler()(method, body)` (picklable: it crosses
        to a fresh interpreter; its third argument a `report` callable) in at most `memory_bytes` of address space; a call waits at most `queue_seconds`
        for a free worker."""
        self.context = multiprocessing.get_context("spawn")
        self.memory_bytes = memory_bytes
        self.make_handler, self.status_of = make_handler, status_of
        self.queue_seconds = queue_seconds
        self.slots = threading.BoundedSemaphore(size)
        self.lock = threading.Lock()
        self.closed = False
        self.idle: list[Worker] = [self.start() for _ in range(size)]
        self.working: set[Worker] = set()

    def start(self) -> Worker:
        """A new worker."""
        return Worker(self.context, self.make_handler, self.status_of, self.memory_bytes)

    def call(self, method: str, body: dict[str, Any], seconds: float, what: str,
             on_progress: Callable[[Any], None] | None = None, keep_going: Callable[[], bool] | None = None,
             over_budget: str | None = None) -> Any:
        """`method`'s reply to `body` from a worker, or OverBudget after `seconds` (the worker killed and replaced).

        `on_progress` gets each report the call sends before its answer; `keep_going`, asked about twice a second,
        stops the call (its worker killed and replaced, Busy raised) when it turns False; `over_budget`: the message
        of the OverBudget error (default: the agent's work ran past `seconds`, ask it for less).

        Raises:
            Busy: no worker came free within the wait, or the server is stopping.
            OverBudget: the work ran past `seconds`; `what` names it in the message.
            UserError: the work's own one-line error, with its HTTP status kept (`Failure`).
            WorkerFailed: the worker died or failed unexpectedly.
        """
        if self.closed or not self.slots.acquire(timeout=self.queue_seconds):
            raise Busy("the server is stopping" if self.closed else
                       f"the server is busy: every worker stayed taken for {self.queue_seconds:g} s; try again shortly")
        try:
            with self.lock:
                if self.closed:
                    raise Busy("the server is stopping")
                ready = [w for w in self.idle if w.ready.is_set()]  # one still starting waits its turn
                worker = (ready or self.idle)[0] if self.idle else self.start()
                if worker in self.idle:
                    self.idle.remove(worker)
                self.working.add(worker)
            kind, payload = self._exchange(worker, (method, body), seconds, what, on_progress, keep_going,
                                           over_budget)
            with self.lock:
                self.working.discard(worker)
                if self.closed or kind == "memory":  # a worker out of memory ends after its answer: replaced
                    worker.kill()
                if not self.closed:
                    self.idle.append(worker if kind != "memory" else self.start())
        finally:
            self.slots.release()
        if kind == "ok":
            return payload
        if kind == "error":
            raise RemoteError(payload.status, payload.message)
        if kind == "memory":
            raise OverMemory(payload)
        raise WorkerFailed(payload)

    def _exchange(self, worker: Worker, message: tuple, seconds: float, what: str,
                  on_progress: Callable[[Any], None] | None = None,
                  keep_going: Callable[[], bool] | None = None, over_budget: str | None = None) -> tuple[str, Any]:
        """Send one call and wait for its reply (handing its reports to `on_progress`); a worker past its time, dead
        or no longer wanted (`keep_going`) is killed and replaced. The time starts once the worker is ready (its
        start, seconds on a busy machine, is not the call's work)."""
        try:
            if not worker.ready.wait(START_SECONDS):
                raise Busy(f"a worker did not start within {START_SECONDS:g} s (the machine is very busy); try again")
            worker.connection.send(message)
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                if keep_going is not None and not keep_going():
                    raise Busy(f"{what} was stopped: nobody was waiting for it any more")
                if not worker.connection.poll(min(left, CHECK_SECONDS)):
                    continue
                kind, payload = worker.connection.recv()
                if kind != "progress":
                    return kind, payload
                if on_progress is not None:
                    on_progress(payload)
            problem: Exception = OverBudget(over_budget or (
                f"{what} ran past the web page's {seconds:g} s budget and was stopped; ask the agent for less (fewer "
                "nodes, a shallower depth or fewer openers among its options), or use the command line, which has "
                "no such limit"))
        except Busy as error:
            problem = error
        except (EOFError, OSError) as error:
            problem = Busy("the server is stopping") if self.closed else WorkerFailed(
                f"the worker process ended ({error.__class__.__name__}, exit code {worker.process.exitcode})")
        with self.lock:
            self.working.discard(worker)
        worker.kill()
        with self.lock:
            if not self.closed:
                self.idle.append(self.start())
        raise problem

    def close(self) -> None:
        """Kill every worker, busy or idle: calls in progress answer at once that the server is stopping."""
        with self.lock:
            self.closed = True
            workers = [*self.idle, *self.working]
            self.idle.clear()
        for worker in workers:
            worker.kill(close_pipe=False)  # a request thread waiting on it reads the end of the pipe and answers


class RemoteError(UserError):
    """A worker's UserError, carried back with the HTTP status it had there."""

    def __init__(self, status: int, message: str):
        """Keep the status beside the message."""
        super().__init__(message)
        self.status = status
