"""Long work the page watches grow: a review or an advice runs as a job; each look returns what is known so far.

A review of a whole game, or the values of an advice at a position of thousands of answers,
can take a minute on a busy machine; the values are the command line's (node budgets, not the
clock, decide them), so the page must not cut them at a time budget. A job runs the work on a
thread of its own (which waits on a worker process: web/workers.py) and keeps its latest
report: the steps valued so far, or the answers left before any guess is valued. Each report
is true as it stands (a value is proved, or shown as the bound it is); the final answer is the
command line's for the same state.

A request starts a job and waits for it a while (`wait`); if it is not done the request is
answered with the job's id and its latest report (HTTP 202), and the page asks again
(`GET /api/jobs/ID?wait=S`) until it is. Nothing waits forever: a job nobody has asked about
for ABANDON_SECONDS is stopped (its worker killed), one that runs past its safety cap is
stopped with a one-line error, one the page no longer wants (`DELETE /api/jobs/ID`: the tiles
changed) is stopped at once, a finished one is forgotten FORGET_SECONDS after its last look,
and at most `most` run at once (one more is refused at once: Busy, HTTP 503).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from plumbing.errors import UserError

from .workers import Busy

#: A job nobody has asked about for this long is stopped (seconds): the page that wanted it has gone.
ABANDON_SECONDS = 30.0
#: A finished job is forgotten this long after it was last asked about (seconds).
FORGET_SECONDS = 60.0

#: A job's work: called with `report(data)` (what is known so far) and `keep_going()` (False once abandoned).
Work = Callable[[Callable[[Any], None], Callable[[], bool]], Any]


class JobNotFound(UserError):
    """A job id the server does not hold: never started, or forgotten (HTTP 404)."""


@dataclass
class Job:
    """One piece of work under way or done: its latest report, and its result or error once done."""

    key: str
    started: float = field(default_factory=time.monotonic)
    asked: float = field(default_factory=time.monotonic)
    report: Any = None
    result: Any = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)
    stopped: bool = False

    def wanted(self) -> bool:
        """Whether someone asked about the job within ABANDON_SECONDS and nobody stopped it."""
        return not self.stopped and time.monotonic() - self.asked < ABANDON_SECONDS

    def seconds(self) -> float:
        """How long the job has run."""
        return time.monotonic() - self.started


class Jobs:
    """The jobs of one server: at most `most` running at once."""

    def __init__(self, most: int):
        """Run at most `most` jobs at once."""
        self.most = most
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()

    def running(self) -> int:
        """How many jobs are not done."""
        with self.lock:
            return sum(not job.done.is_set() for job in self.jobs.values())

    def start(self, work: Work, name: str = "job") -> Job:
        """Start `work` on a thread of its own; Busy when `most` jobs are running already."""
        now = time.monotonic()
        with self.lock:
            for key in [key for key, job in self.jobs.items()
                        if job.done.is_set() and now - job.asked > FORGET_SECONDS]:
                del self.jobs[key]
            if sum(not job.done.is_set() for job in self.jobs.values()) >= self.most:
                raise Busy(f"the server is busy: {self.most} reviews and advices are under way; try again shortly")
            job = Job(key=secrets.token_urlsafe(12))
            self.jobs[job.key] = job

        def run() -> None:
            """Do the work, keeping its reports, then its result or its error."""
            def report(data: Any) -> None:
                """Keep the latest report."""
                job.report = data
            try:
                job.result = work(report, job.wanted)
            except BaseException as error:  # noqa: BLE001 - kept and raised again to whoever asks
                job.error = error
            finally:
                job.done.set()

        threading.Thread(target=run, name=f"wordle-arena-{name}", daemon=True).start()
        return job

    def stop(self, key: str) -> Job:
        """Stop the job of that id (its worker is killed within a second); JobNotFound when there is none."""
        job = self.get(key)
        job.stopped = True
        return job

    def get(self, key: str) -> Job:
        """The job of that id, marked as asked about now; JobNotFound when there is none."""
        with self.lock:
            job = self.jobs.get(key)
        if job is None:
            raise JobNotFound(f"no job '{key}' on this server (finished and forgotten, stopped because nobody asked "
                              "about it, or the server restarted); ask again")
        job.asked = time.monotonic()
        return job
