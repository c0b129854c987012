"""The exact opener job: each opener's optimal tree solved (a proof), locally or on a Dask cluster, saved as it finishes.

Values are totals of guesses over every answer (lower is better for the Guesser).

Every opener is independent, so the job is a bag of tasks: the openers, ranked by their
lower bound at the root (most replies first), go to worker processes, either a local pool
on this machine's cores or the workers of a Dask distributed cluster given its scheduler's
address. Each opener is first asked whether it can win at all (every answer within the guess
limit: `Solver.opener_wins`); one that cannot is recorded as "no win", proved. Given a
cut-off total (the total of a tree known to exist), a winning opener is solved exactly only
if its total is at most the cut-off; every other one is rejected with a proved lower bound
above it, which is how the best opener is proved over all of them. Each worker keeps one solver per setting, so sub-problems solved for one opener
serve the next. Each result is appended to a JSON-lines file the moment it arrives (the
first line holds the settings and provenance); a run over an existing file skips the
openers it already holds, so a killed run resumes.

A resumed file is checked before it is believed: every line must be a result this job could
have written (its fields of the right types and ranges, an exact total at most the cut-off, a
rejection's bound above it, an average that is its total over the answers, no two lines for
one opener that disagree), and the lines that decide the verdict, the claimed best and every
exact total within RECHECK_MARGIN of it, are proved again by the solver (`recheck`) and must
agree; any other line is refused in one line naming it. A line torn by a kill mid-write (the
last, without its newline) is dropped and its opener solved again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import signal
import sys
import threading
import time
from concurrent.futures import as_completed
import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from plumbing.errors import UserError
from wordle import Wordle, load_matrix
from wordle.solver import INFEASIBLE, SCALE, Limits, Solver, unpack
from plumbing.processes import end_spawned_children, spawned_deaf_to_ctrl_c, tie_to_parent, worker_pool
from plumbing.scheduler import check_scheduler
from plumbing.stops import deliver_later
from plumbing.storage import FolderBusy, FolderLock, append_json_line, provenance
from wordle.book import SHELF, Shelf, artefact_name, opening_book
from wordle.words import Words

FORMAT = "wordle-arena exact openers v1"
#: The results file's JSON separators: json.dumps's defaults, as every v1 file was written (kept byte for byte).
SEPARATORS = (", ", ": ")
#: Where a local cluster's scheduler serves its HTTP routes (health, metrics): any free port of the loopback, never
#: Dask's default 8787, which another cluster may hold.
SCHEDULER_HTTP = "127.0.0.1:0"


@dataclass(frozen=True)
class JobSettings:
    """What every opener of one job is solved under."""

    hard: bool
    max_guesses: int
    word_lists_sha256: str
    cut: int | None = None  # solve exactly only totals at most this; None: solve every opener exactly
    ultra: bool = False  # ultra-hard mode (`wordle.ultra`; never with hard)
    #: ultra-hard mode: the shipped opening books (artefact name, SHA-256) whose proved bounds and no-win entries
    #: settle openers before the solver is asked (`LooserBounds`); () for none
    books: tuple[tuple[str, str], ...] = ()

    @property
    def mode(self) -> str:
        """"ultra", "hard" or "normal": the mode's name in files and messages."""
        return "ultra" if self.ultra else "hard" if self.hard else "normal"


@dataclass(frozen=True)
class OpenerTotal:
    """One opener's proved optimum (exact), or a proved lower bound above the job's cut-off (not exact).

    total is -1 where no tree wins every game within the guess limit. win: whether a tree opening
    with it wins every game within the limit, proved either way (None: a line written before the
    job asked; such a line's -1 still means no win, and its rejection says nothing either way).
    """

    opener: str
    total: int
    long_games: int
    average: float
    nodes: int
    seconds: float
    worker: str
    exact: bool = True
    cpu_seconds: float = -1.0  # -1: a line written before CPU time was recorded
    win: bool | None = None
    book: str | None = None  # the shipped book (artefact name) this line's bound or no-win is read from; None: solved


@dataclass(frozen=True)
class LooserBounds:
    """What the shipped opening books prove about each opener in normal and hard mode, read as bounds in ultra-hard
    mode.

    Every ultra-hard tree is a hard-mode tree and a normal-mode tree: a guess that could still be the answer keeps
    each green in place and holds every letter a reply showed as often as it showed it (had it been the answer, that
    reply would have come back), which is all hard mode asks (`wordle.hardmode`), and normal mode asks nothing. So
    an opener's least ultra-hard cost is at least its least cost in either looser mode (a least over fewer trees),
    and an opener with no win there has none in ultra-hard mode. `tests/test_ultra.py` checks the containment
    word by word; `tests/test_exact_openers.py` the bounds against brute force.

    Attributes:
        lower: opener (guess row) -> (the greatest proved packed cost over the books, the book it is from).
        no_win: opener -> the book proving it has no win within the guess limit.
    """

    lower: dict[int, tuple[int, str]]
    no_win: dict[int, str]


#: Where the ultra-hard job reads the shipped books (tests give a shelf of their own).
BOOK_SHELF = SHELF


def shipped_books(game: Wordle, max_guesses: int, shelf: Shelf | None = None) -> tuple[tuple[str, str], ...]:
    """The normal- and hard-mode opening books shipped for these lists and guess limit that load and pass their
    checks (artefact name, SHA-256); () where none is (a refused one is named in one warning line)."""
    shelf = shelf or BOOK_SHELF
    found = []
    for hard in (False, True):
        name = artefact_name("openers", hard, game.words.checksum)
        book = opening_book(game.words.guesses, game.words.checksum, hard, max_guesses, shelf=shelf)
        if book.best is not None:
            found.append((name, str(shelf.expected(name))))
    return tuple(found)


def looser_bounds(game: Wordle, settings: JobSettings, shelf: Shelf | None = None) -> LooserBounds:
    """The bounds the books `settings.books` prove (read as `LooserBounds` says), each the very file the shelf ships.

    Raises:
        ValueError: a book the settings name is not one the shelf ships, or cannot be read now (missing, changed or
            refused).
    """
    lower: dict[int, tuple[int, str]] = {}
    no_win: dict[int, str] = {}
    for name, digest in settings.books:
        hard = name == artefact_name("openers", True, game.words.checksum)
        if not hard and name != artefact_name("openers", False, game.words.checksum):
            raise ValueError(f"the job names a book of other lists: {name}")
        shelf = shelf or BOOK_SHELF
        if shelf.expected(name) != digest:
            raise ValueError(f"the job names a book its shelf does not ship: {name} ({digest[:12]}...)")
        here = Shelf(shelf.folder, ((name, digest),))
        book = opening_book(game.words.guesses, game.words.checksum, hard, settings.max_guesses, shelf=here)
        if book.best is None:
            raise ValueError(f"the book the job was planned with cannot be read now: {name}")
        for opener, cost in (*book.exact.items(), *book.lower.items()):
            if opener not in lower or cost > lower[opener][0]:
                lower[opener] = (cost, name)
        for opener in book.no_win:
            no_win.setdefault(opener, name)
    return LooserBounds(lower=lower, no_win=no_win)


def looser_best(game: Wordle, max_guesses: int, books: tuple[tuple[str, str], ...]) -> list[str]:
    """The openers the books `books` (as `shipped_books` names them) prove best in their modes: each a candidate for
    ultra-hard mode's cut-off."""
    found = []
    for name, digest in books:
        hard = name == artefact_name("openers", True, game.words.checksum)
        book = opening_book(game.words.guesses, game.words.checksum, hard, max_guesses,
                            shelf=Shelf(BOOK_SHELF.folder, ((name, digest),)))
        if book.best is not None:
            found.append(game.words.guesses[book.best])
    return list(dict.fromkeys(found))


def from_books(bounds: LooserBounds, settings: JobSettings, game: Wordle, opener: str) -> OpenerTotal | None:
    """The opener's result straight from the books: no win, or rejected above the cut-off with a book's bound; None
    where the books settle nothing and the solver must."""
    guess = game.words.guess_index[opener]
    where = f"{os.uname().nodename}:{os.getpid()}"
    if guess in bounds.no_win:
        return OpenerTotal(opener=opener, total=-1, long_games=-1, average=-1.0, nodes=0, seconds=0.0, worker=where,
                           exact=True, cpu_seconds=0.0, win=False, book=bounds.no_win[guess])
    cost, name = bounds.lower.get(guess, (0, ""))
    if settings.cut is None or cost < (settings.cut + 1) * SCALE:
        return None
    total = cost // SCALE
    return OpenerTotal(opener=opener, total=total, long_games=0, average=round(total / len(game.words.answers), 6),
                       nodes=0, seconds=0.0, worker=where, exact=False, cpu_seconds=0.0, win=None, book=name)


def ranked_openers(game: Wordle, hard: bool, max_guesses: int, ultra: bool = False) -> list[str]:
    """Every allowed guess, by its lower bound at the root (the cheap ranking), then by index (`ultra`: in
    ultra-hard mode)."""
    solver = Solver(game, hard=hard, max_guesses=max_guesses, ultra=ultra)
    guesses, _, _ = solver.bounds(game.all_answers, max_guesses, solver.prover.root_hints)
    useless = np.setdiff1d(game.all_guesses, guesses)  # no information at all: last
    return [game.words.guesses[int(guess)] for guess in np.concatenate((guesses, useless))]


# -- the worker side ------------------------------------------------------------------
_LISTS: tuple[tuple[str, ...], tuple[str, ...]] | None = None
_SOLVERS: dict[tuple, Solver] = {}
_BOUNDS: dict[JobSettings, LooserBounds] = {}


def _set_lists(lists: tuple[tuple[str, ...], tuple[str, ...]], parent: int | None = None) -> None:
    """Pool initializer: the word lists every task of this process uses; a worker ends with its `parent` (Ctrl-C and
    SIGTERM are the parent's to handle: `worker_pool` has set them so)."""
    global _LISTS
    _LISTS = lists
    if parent is not None:
        tie_to_parent(parent)


def solver_for(lists: tuple[tuple[str, ...], tuple[str, ...]], settings: JobSettings) -> Solver:
    """This process's solver for the lists and settings (built on first use, the matrix from the disk cache)."""
    key = (settings, len(lists[0]), len(lists[1]))
    if key not in _SOLVERS:
        words = Words.build(*lists)
        if words.checksum != settings.word_lists_sha256:
            raise ValueError("the word lists sent to the worker do not match the job's checksum")
        _SOLVERS.clear()  # one setting at a time keeps the memory bounded
        _SOLVERS[key] = Solver(Wordle(words, load_matrix(words)), hard=settings.hard,
                               max_guesses=settings.max_guesses, limits=Limits(), ultra=settings.ultra)
    return _SOLVERS[key]


def solve_opener(lists: tuple[tuple[str, ...], tuple[str, ...]] | None, settings: JobSettings,
                 opener: str) -> OpenerTotal:
    """Prove one opener's optimal total (runs in a worker process; lists None means the pool's own)."""
    lists = lists if lists is not None else _LISTS
    solver = solver_for(lists, settings)
    bounds = None
    if settings.books:
        if settings not in _BOUNDS:
            _BOUNDS.clear()
            _BOUNDS[settings] = looser_bounds(solver.game, settings)
        bounds = _BOUNDS[settings]
    return judge(solver, settings, opener, bounds)


def judge(solver: Solver, settings: JobSettings, opener: str, bounds: LooserBounds | None = None) -> OpenerTotal:
    """One opener with this solver: no win, or its exact total (at most the cut-off), or its rejection above it
    (`bounds`: the books' verdict first, where they settle it)."""
    game = solver.game
    if bounds is not None and (known := from_books(bounds, settings, game, opener)) is not None:
        return known
    started, cpu, nodes = time.perf_counter(), time.process_time(), solver.stats.nodes
    solver.root = None
    guess = game.words.guess_index[opener]
    win = solver.opener_wins(guess)
    cost = INFEASIBLE
    limit = INFEASIBLE if settings.cut is None else (settings.cut + 1) * SCALE
    if win:
        state = game.initial_state(hard=settings.hard, max_guesses=settings.max_guesses, ultra=solver.ultra)
        cost = solver.try_guess(np.asarray(state.candidates), settings.max_guesses,
                                solver.prover.root_hints, guess, limit, top_level=True)
    exact = cost < limit or cost >= INFEASIBLE
    total, long_games = unpack(cost) if cost < INFEASIBLE else (-1, -1)
    if not exact:
        long_games = 0  # a bound on the total only
    return OpenerTotal(opener=opener, total=total, long_games=long_games,
                       average=round(total / len(game.words.answers), 6) if total >= 0 else -1.0,
                       nodes=solver.stats.nodes - nodes, seconds=round(time.perf_counter() - started, 3),
                       worker=f"{os.uname().nodename}:{os.getpid()}", exact=exact,
                       cpu_seconds=round(time.process_time() - cpu, 3), win=cost < INFEASIBLE)


def quick_cut(game: Wordle, hard: bool, max_guesses: int, breadth: int = 10, ultra: bool = False,
              also: tuple[str, ...] = ()) -> tuple[str, int, int]:
    """A cut-off for the job: the opener of the breadth-limited tree (a real tree, so its total is an upper bound on
    the best), then that opener's own optimal total (a real tree too, and at most the first), and the optimum of each
    opener in `also` found below it (ultra-hard mode: the looser modes' best, as `plan_job` gives them).

    On today's lists the breadth-limited tree's total lies 5 to 8 above the best (TARSE 7888 against 7883, SALET 8105
    against 8097 in hard mode); the opener's optimum closes most of that gap for a few seconds' work, and every other
    opener is rejected against the lower cut-off sooner. In ultra-hard mode on the original lists the breadth-limited
    tree opens with CARLE (8172; its optimum 8166), while SALET, best in both looser modes, takes 8125.

    Returns:
        (the opener whose optimum is the cut-off, the cut-off, the breadth-limited tree's total).
    """
    solution = Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits(top=breadth), ultra=ultra).solve()
    opener, cut = game.words.guesses[solution.guess], solution.total
    solver = Solver(game, hard=hard, max_guesses=max_guesses, ultra=ultra)
    solver.whole_tries = 0  # the whole-list proof pays for itself over the job's many openers, not these few (on
    # today's lists TARSE's optimum takes 5.9 s of CPU without it, 32.8 s with it)
    for word in dict.fromkeys((opener, *also)):
        settings = JobSettings(hard=hard, max_guesses=max_guesses, word_lists_sha256=game.words.checksum, cut=cut,
                               ultra=ultra)
        own = judge(solver, settings, word)
        if own.exact and 0 <= own.total <= cut:
            opener, cut = word, own.total
    return opener, cut, solution.total


# -- engines --------------------------------------------------------------------------
def run_local(lists, settings: JobSettings, openers: list[str], jobs: int) -> Iterator[OpenerTotal]:
    """Solve the openers on `jobs` local processes, yielding each result as it finishes.

    The openers go in `batches`, as on Dask: one task per opener would cost the parent, which shares the cores
    with the workers, a pickled task and a future for each of 14,855 openers."""
    if jobs <= 1:
        _set_lists(lists)
        for opener in openers:
            yield solve_opener(None, settings, opener)
        return
    with worker_pool(jobs, initializer=_set_lists, initargs=(lists, os.getpid())) as pool:
        futures = [pool.submit(solve_openers, None, settings, batch) for batch in batches(openers)]
        for future in as_completed(futures):
            yield from future.result()


def solve_openers(lists: tuple[tuple[str, ...], tuple[str, ...]] | None, settings: JobSettings,
                  openers: list[str]) -> list[OpenerTotal]:
    """Several openers in one task (one task per batch keeps the scheduler, or the parent, light)."""
    return [solve_opener(lists, settings, opener) for opener in openers]


def batches(openers: list[str], first: int = 100, size: int = 20) -> list[list[str]]:
    """The openers in tasks: the first (best-ranked, slowest) one at a time, the rest `size` at a time."""
    head, tail = openers[:first], openers[first:]
    return [[opener] for opener in head] + [tail[start:start + size] for start in range(0, len(tail), size)]


class RememberedStops:
    """Ctrl-C and SIGTERM while a job runs, remembered as well as raised: one that lands in a finalizer (a Dask future's
    __del__), where Python would print the KeyboardInterrupt's traceback and drop it, is kept quiet and still stops
    the job at its next result (`check`). Main thread only; elsewhere nothing is installed."""

    def __init__(self) -> None:
        """No stop seen yet."""
        self.seen = False
        self.before: dict[int, Any] = {}
        self.hook_before: Callable[[Any], Any] | None = None  # the hook it replaced, while entered
        self.last: int | None = None  # the last stop's signal

    def __enter__(self) -> "RememberedStops":
        """Wrap this process's SIGINT and SIGTERM handlers (those that are Python callables) and its hook for
        exceptions nothing can catch."""
        if threading.current_thread() is threading.main_thread():
            self.hook_before = sys.unraisablehook
            sys.unraisablehook = self.unraisable
            for number in (signal.SIGINT, signal.SIGTERM):
                handler = signal.getsignal(number)
                if callable(handler):
                    self.before[number] = handler
                    signal.signal(number, self.remember)
        return self

    def remember(self, number: int, frame: Any) -> None:
        """Note the stop, then let the handler that was there raise it."""
        self.seen, self.last = True, number
        self.before[number](number, frame)

    def unraisable(self, info: Any) -> None:
        """A stop raised where nothing can catch it is noted, not printed, and delivered again a moment later (the
        job need not wait for its next result); anything else goes to the hook before."""
        if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
            self.seen = True
            if self.last is not None and signal.getsignal(self.last) == self.remember:
                deliver_later(self.last, lambda: self.hook_before is not None)
            return
        (self.hook_before or sys.__unraisablehook__)(info)

    def check(self) -> None:
        """Raise KeyboardInterrupt where a stop was seen and lost."""
        if self.seen:
            raise KeyboardInterrupt

    def __exit__(self, *exc: Any) -> None:
        """Put the handlers and the hook back."""
        if self.hook_before is not None and sys.unraisablehook == self.unraisable:
            sys.unraisablehook = self.hook_before
        self.hook_before = None
        for number, handler in self.before.items():
            signal.signal(number, handler)


#: Dask's own watchers, which no one reads here (no dashboard), turned off or slowed for a local cluster (a remote
#: cluster's workers keep their own settings): the workers' statistical profiler, which samples the task's stack
#: every 10 ms, off; the system monitor every 2 s (not 0.5 s) without its disk counters; the workers' memory monitor
#: every 1 s (not 0.1 s: a worker past its memory limit is stopped up to a second later); the event loop's tick every
#: 200 ms (not 20 ms). On a sample of the hard job on today's lists, runs alternating on a 2-core VM, they cost a
#: sixth of its wall time (`python benchmarks/bench_dask_watchers.py`).
LEAN_DASK = {"distributed.worker.profile.enabled": False,
             "distributed.admin.system-monitor.gil.enabled": False,
             "distributed.admin.system-monitor.disk": False,
             "distributed.admin.system-monitor.interval": "2s",
             "distributed.worker.memory.monitor-interval": "1s",
             "distributed.admin.tick.interval": "200ms"}


def run_dask(lists, settings: Any, openers: list[str], address: str | None = None,
             workers: int = 2, task: Callable[..., list] | None = None, name: str = "openers") -> Iterator[Any]:
    """Solve the openers on a Dask cluster: the one at `address`, else a local one of `workers` processes.

    `task` (default `solve_openers`) is called as task(lists, settings, batch) on a worker and returns one result
    per word of the batch; `name` starts each task's key (the fixed-pair job sends its own first words this way).

    Openers go in batches, at most three per worker in flight at once, so the scheduler (in this
    process for a local cluster) never holds thousands of tasks on a busy machine. Distributed's
    own logging is silenced (a stop is one line, the command's); no dashboard is started.

    Raises:
        UserError: the scheduler cannot be reached.
        JobStopped: the scheduler was lost mid-job.
    """
    try:
        import dask
        from distributed import Client, LocalCluster, as_completed as dask_completed
    except ImportError:
        raise UserError("the Dask engine needs the 'distributed' extra: pip install -e '.[distributed]'") from None
    quiet_dask_logs()
    started: list[Any] = []  # the local cluster, kept from its first moment: a stop may come while it starts

    class JobCluster(LocalCluster):
        """LocalCluster kept in `started` before it starts its scheduler and workers."""

        def __init__(self, **options: Any):
            """Keep this cluster, then start it."""
            started.append(self)
            super().__init__(**options)

    cluster = None
    where = address or "the local cluster"
    patient = {"distributed.comm.timeouts.connect": "120s", "distributed.comm.timeouts.tcp": "600s"}
    with dask.config.set({**patient, **LEAN_DASK}), RememberedStops() as stops:
        try:
            if address is None:
                # dashboard_address=None turns the dashboard off, but the scheduler still serves its HTTP routes on
                # 8787 (warning when that port is taken): they go to a free port of this machine's loopback
                with spawned_deaf_to_ctrl_c():
                    cluster = JobCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=logging.CRITICAL,
                                         scheduler_kwargs={"dashboard_address": SCHEDULER_HTTP})
                client = Client(cluster)
            else:
                check_scheduler(address)  # a scheduler, answering within a deadline, or one line
                client = Client(address, timeout=20)
        except UserError:  # the address is not a scheduler that answers (check_scheduler's one line)
            raise
        except (OSError, TimeoutError, ValueError) as error:  # ValueError: an address Dask cannot parse
            raise UserError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        except BaseException:  # stopped (Ctrl-C, SIGTERM) while the cluster or the client started
            end_spawned_children()  # before the cluster closes under a worker still starting
            close_quietly(None, started[0] if started else None)
            raise
        try:
            todo = batches(openers)
            # the lists go to every worker once: passed with each task, Dask would walk their 17,000 words for
            # futures to resolve, task by task (80 s of the parent's CPU, profiled, in the normal job on today's lists)
            shared_lists = client.scatter([lists], broadcast=True)[0]
            in_flight = max(1, 3 * len(client.scheduler_info().get("workers", {})) or 3 * workers)
            submitted = 0

            def submit() -> object:
                """The next batch as a task."""
                nonlocal submitted
                batch = todo[submitted]
                submitted += 1
                return client.submit(task or solve_openers, shared_lists, settings, batch, pure=False,
                                     key=f"{name}-{getattr(settings, 'hard', False)}-{batch[0]}-{len(batch)}")
            running = dask_completed([submit() for _ in range(min(in_flight, len(todo)))])
            for future in running:
                stops.check()
                try:
                    batch = future.result()
                except (OSError, TimeoutError, asyncio.CancelledError, concurrent.futures.CancelledError) as error:
                    raise JobStopped(f"lost the Dask scheduler at {where} ({type(error).__name__})") from None
                if submitted < len(todo):
                    running.add(submit())
                yield from batch
            stops.check()
        finally:
            close_quietly(client, cluster)


def quiet_dask_logs() -> None:
    """Silence distributed's (and tornado's) loggers in this process: a stop or a lost scheduler is the job's one line.

    A level on "distributed" is not enough: distributed gives some of its loggers a level and a handler of their own
    (distributed.client: warning), and a lost scheduler's reconnection traceback came through that one. Every logger
    under these names that exists is silenced; one made later inherits the silence."""
    silenced = ("distributed", "tornado", "asyncio")
    for name in silenced:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and name.split(".")[0] in silenced:
            logger.setLevel(logging.CRITICAL + 1)


def close_quietly(client, cluster) -> None:
    """Close the client and any local cluster, ignoring what a lost scheduler or a stopping worker raises; the cluster
    is then left out of distributed's exit hook, which would close a half-started one again and print its traceback."""
    for part in (client, cluster):
        if part is None:
            continue
        try:
            part.close(timeout=10) if part is client else part.close()
        except (Exception, asyncio.CancelledError):  # closing after a stop: the stop itself is what is reported
            pass
    if cluster is not None:
        cluster.shutdown_on_close = False


# -- the results file -----------------------------------------------------------------
def header(settings: JobSettings, openers: list[str], command: str, engine: str) -> dict:
    """The file's first line: the settings, the openers in ranked order, the command and provenance."""
    return {"format": FORMAT, "command": command, "seed": None, "seed_note": "the job makes no random choice",
            "mode": settings.mode, **asdict(settings), "engine": engine,
            "openers": openers, **provenance()}


#: On resume, exact totals within this many guesses of the claimed best are proved again with it: they decide the
#: verdict (the best, and its ties broken by games over 5), and a near line is cheap to prove (it is at the cut).
RECHECK_MARGIN = 10
#: The types of a result line's fields (`win` may be null: a line written before the job asked).
FIELD_TYPES = {"opener": str, "total": int, "long_games": int, "average": (int, float), "nodes": int,
               "seconds": (int, float), "worker": str, "exact": bool, "cpu_seconds": (int, float)}


def line_problem(data: dict, settings: JobSettings, answers: int | None) -> str | None:
    """Why a results line is not one this job could have written (its fields, their ranges, its cut-off), or None.

    `answers`: how many answers the job's lists hold (None: the totals' least and averages are not checked).

    >>> cut = JobSettings(hard=False, max_guesses=6, word_lists_sha256="x", cut=7920)
    >>> good = {"opener": "salet", "total": 7920, "long_games": 0, "average": 3.421166, "nodes": 461, "seconds": 0.6,
    ...         "worker": "vm:1", "exact": True, "cpu_seconds": 0.5, "win": True}
    >>> line_problem(good, cut, 2315) is None, line_problem(dict(good, total=7900), cut, 2315)
    (True, 'an average of 3.421166 that is not its total over the 2315 answers')
    >>> line_problem(dict(good, total=7930, average=round(7930 / 2315, 6)), cut, 2315)
    "an exact total of 7930 above the job's cut-off 7920"
    """
    names = {field.name for field in fields(OpenerTotal)}
    if set(data) - names:
        return f"fields this job does not write ({', '.join(sorted(set(data) - names))})"
    for name, kind in FIELD_TYPES.items():
        value = data.get(name)
        if name not in data and name == "cpu_seconds":
            continue
        if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            return f"'{name}' is {json.dumps(value)[:30]}, not a {'number' if isinstance(kind, tuple) else kind.__name__}"
    if data.get("win") not in (None, True, False):
        return f"'win' is {json.dumps(data['win'])[:30]}, not true, false or null"
    if (book := data.get("book")) is not None:
        if book not in {name for name, _ in settings.books}:
            return f"'book' is {json.dumps(book)[:40]}, not a book this job reads"
        if data["exact"] and data["total"] >= 0 or data["nodes"] != 0 or data.get("win") is True:
            return "a line from a book that is not a rejection or a no-win, or names a search"
    if not all(math.isfinite(data[name]) and data[name] >= (-1 if name == "cpu_seconds" else 0)
               for name in ("seconds", "cpu_seconds", "nodes") if name in data):
        return "a negative or non-finite count of nodes or seconds"
    total, long_games, exact, win = data["total"], data["long_games"], data["exact"], data.get("win")
    if total < 0:
        if not exact or total != -1 or long_games != -1 or data["average"] != -1 or win is True:
            return "a no-win line (total -1) that is not exact, or has a tree, games over 5 or an average"
        return None
    if win is False:
        return f"a total of {total} for an opener it says has no win"
    if answers is not None and (total < 2 * answers - 1 or data["average"] != round(total / answers, 6)):
        return (f"a total of {total} that {answers} answers cannot take" if total < 2 * answers - 1 else
                f"an average of {data['average']} that is not its total over the {answers} answers")
    if exact:
        if settings.cut is not None and total > settings.cut:
            return f"an exact total of {total} above the job's cut-off {settings.cut}"
        if not 0 <= long_games <= (answers if answers is not None else total):
            return f"{long_games} games over 5"
        return None
    if settings.cut is None or total <= settings.cut or long_games != 0:
        return (f"a rejection with a bound of {total}, not above the job's cut-off {settings.cut}"
                if long_games == 0 else "a rejection with games over 5 (a bound is on the total alone)")
    return None


def read_lines(path: Path, settings: JobSettings, openers: list[str],
               answers: int | None = None) -> dict[str, tuple[int, OpenerTotal]]:
    """The results an earlier run of the same job saved, each with its line number (a torn last line is dropped),
    or {} for no file; every line is checked (`line_problem`) before it is taken.

    Raises:
        UserError: the file holds another job, or a line that is not a result this job could have written (named).
    """
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        raise UserError(f"{path}: not an exact-openers results file (not UTF-8 text)") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read it ({error.strerror})") from None
    try:
        first = json.loads(lines[0])
        same = (first["format"] == FORMAT and first["hard"] == settings.hard
                and first.get("ultra", False) == settings.ultra
                and first.get("books", []) == json.loads(json.dumps(settings.books))
                and first["max_guesses"] == settings.max_guesses
                and first["word_lists_sha256"] == settings.word_lists_sha256 and first["openers"] == openers
                and first.get("cut") == settings.cut)
    except (ValueError, KeyError, TypeError):
        raise UserError(f"{path}: not an exact-openers results file") from None
    if not same:
        raise UserError(f"{path}: holds a job with other settings or openers; choose another --out")
    done: dict[str, tuple[int, OpenerTotal]] = {}
    wanted = set(openers)
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            if number == len(lines):  # the last line has no newline: torn by a kill mid-write
                break
            raise UserError(f"{path}, line {number}: not a result (a damaged or truncated line); move the file "
                            "away or give another --out") from None
        if isinstance(data, dict) and "session" in data and len(data) == 1:
            continue
        problem = line_problem(data, settings, answers) if isinstance(data, dict) else "not a JSON object"
        if problem is not None:
            raise UserError(f"{path}, line {number}: not a result this job writes: {problem}; move the file away or "
                            "give another --out")
        result = OpenerTotal(**data)
        if result.opener not in wanted:
            raise UserError(f"{path}, line {number}: opener '{result.opener}' is not one of this job's")
        if result.opener in done and claim(done[result.opener][1]) != claim(result):
            raise UserError(f"{path}, line {number}: {result.opener.upper()} again, disagreeing with line "
                            f"{done[result.opener][0]}")
        done.setdefault(result.opener, (number, result))
    return done


def read_results(path: Path, settings: JobSettings, openers: list[str],
                 answers: int | None = None) -> dict[str, OpenerTotal]:
    """The results an earlier run of the same job saved (read and checked as `read_lines` does), by opener."""
    return {opener: result for opener, (_, result) in read_lines(path, settings, openers, answers).items()}


def claim(result: OpenerTotal) -> tuple:
    """What a result claims (its proof), free of how long it took and where: total, games over 5, exact, win."""
    return result.total, result.long_games, result.exact, result.win


def deciding(results: list[OpenerTotal], margin: int = RECHECK_MARGIN) -> list[OpenerTotal]:
    """The lines that decide a job's verdict: the claimed best and every exact total within `margin` of it."""
    best = best_result(results)
    if best is None:
        return []
    near = [r for r in results if r.exact and 0 <= r.total <= best.total + margin and r is not best]
    return [best, *sorted(near, key=lambda r: (r.total, r.long_games, r.opener))]


def recheck(game: Wordle, settings: JobSettings, done: dict[str, tuple[int, OpenerTotal]], path: Path,
            margin: int = RECHECK_MARGIN) -> list[OpenerTotal]:
    """Prove the lines that decide the verdict again (`deciding`), in this process, as the job proved them.

    Returns:
        The lines proved again (each agreed).

    Raises:
        UserError: a line the solver does not confirm, named with its line number and what the solver finds.
    """
    lines = {result.opener: number for number, result in done.values()}
    if settings.books:  # a line read from a book must be what the book says
        try:
            bounds = looser_bounds(game, settings)
        except ValueError as error:
            raise UserError(f"{path}: {error}") from None
        for result in (result for _, result in done.values() if result.book is not None):
            again = from_books(bounds, settings, game, result.opener)
            if again is None or claim(again) != claim(result) or again.book != result.book:
                raise UserError(f"{path}, line {lines[result.opener]}: {result.opener.upper()} says "
                                f"{result_text(result)} from {result.book}, which the book does not say; the file "
                                "is not believed: move it away or give another --out")
    chosen = deciding([result for _, result in done.values()], margin)
    if not chosen:
        return []
    solver = Solver(game, hard=settings.hard, max_guesses=settings.max_guesses, limits=Limits(), ultra=settings.ultra)
    solver.whole_tries = 0  # a handful of openers: the whole-list proof would not pay for itself
    for result in chosen:
        again = judge(solver, settings, result.opener)
        if claim(again) != claim(result) and not (result.win is None and claim(again)[:3] == claim(result)[:3]):
            raise UserError(f"{path}, line {lines[result.opener]}: {result.opener.upper()} says "
                            f"{result_text(result)}, but proved again it is {result_text(again)}; the file is not "
                            "believed: move it away or give another --out")
    return chosen


def result_text(result: OpenerTotal) -> str:
    """A result's claim in words: 'total 7930, 0 games over 5', 'at least 7921 (rejected)' or 'no win'."""
    if result.total < 0:
        return "no win"
    if not result.exact:
        return f"at least {result.total} (rejected above the cut-off)"
    return f"total {result.total}, {result.long_games} games over 5"


def run_job(game: Wordle, hard: bool, max_guesses: int, openers: list[str], path: Path, command: str,
            engine: str = "local", jobs: int = 2, address: str | None = None,
            on_result: Callable[[OpenerTotal], None] | None = None, cut: int | None = None,
            on_resume: Callable[[list[OpenerTotal]], None] | None = None,
            on_recheck: Callable[[list[OpenerTotal], int, int], None] | None = None, ultra: bool = False,
            books: tuple[tuple[str, str], ...] = ()) -> list[OpenerTotal]:
    """Prove every opener's optimum, saving each as it finishes and skipping those the file already holds.

    Args:
        engine: "local" (a process pool of `jobs`), or "dask" (the scheduler at `address`, else a
            local Dask cluster of `jobs` worker processes).
        cut: solve exactly only the openers whose total is at most this (reject the rest with a bound).
        on_resume: called once with the results an earlier run saved (after they are checked).
        on_recheck: called once, when an earlier run saved results, with the lines proved again (`recheck`)
            how many others were checked for consistency alone, and how many of those a book settled (each
            checked against its book).
        ultra: ultra-hard mode (not with `hard`).
        books: ultra-hard mode: the shipped books whose bounds settle openers first (`shipped_books`, `LooserBounds`).

    Returns:
        Every opener's result (earlier runs' included): solved ones first, by total, fewer long games and
        word; then rejected ones by their bound; openers with no winning tree last.
    """
    lock = job_lock(path)
    try:
        settings = JobSettings(hard=hard, max_guesses=max_guesses, word_lists_sha256=game.words.checksum, cut=cut,
                               ultra=ultra, books=tuple(books) if ultra else ())
        return _run_locked(game, settings, openers, path, command, engine, jobs, address, on_result, on_resume,
                           on_recheck)
    finally:
        lock.release()


class JobStopped(UserError):
    """The job stopped before every opener was done (the scheduler was lost); what is saved stays and resumes."""


def job_lock(path: Path) -> FolderLock:
    """Take the lock of one results file (FILE.lock beside it): one job writes a file at a time.

    Raises:
        UserError: another run holds it (named by its pid and start time).
    """
    lock = FolderLock(path.parent)
    lock.path = path.with_name(path.name + ".lock")
    try:
        lock.acquire(time.strftime("%Y-%m-%dT%H:%M:%S"))
    except FolderBusy as busy:
        who = ", ".join(f"{key} {busy.holder[key]}" for key in ("pid", "started") if key in busy.holder)
        raise UserError(f"{path} is being written by another run ({who or 'details unknown'}); wait for it to end "
                        f"or give another --out") from None
    return lock


def _run_locked(game: Wordle, settings: JobSettings, openers: list[str], path: Path, command: str,
                engine: str, jobs: int, address: str | None, on_result: Callable[[OpenerTotal], None] | None,
                on_resume: Callable[[list[OpenerTotal]], None] | None,
                on_recheck: Callable[[list[OpenerTotal], int, int], None] | None = None) -> list[OpenerTotal]:
    """run_job with the file's lock held."""
    lines = read_lines(path, settings, openers, len(game.words.answers))
    if lines:
        proved = recheck(game, settings, lines, path)
        if on_recheck is not None:
            on_recheck(proved, len(lines) - len(proved), sum(result.book is not None for _, result in lines.values()))
    done = {opener: result for opener, (_, result) in lines.items()}
    resumed_with = len(done)
    if on_resume is not None:
        on_resume(list(done.values()))

    def begin() -> None:
        """Write the header, or the session line after a torn last line is dropped."""
        if not path.exists():
            path.write_text(json.dumps(header(settings, openers, command, engine)) + "\n", encoding="utf-8")
        else:
            text = path.read_text(encoding="utf-8")
            if not text.endswith("\n"):  # drop a torn last line before appending
                path.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")
            append_json_line(path, {"session": {"command": command, "engine": engine, "resumed_with": resumed_with,
                                                **provenance()}}, SEPARATORS)
    lists = (game.words.answers, game.words.guesses)
    todo = [opener for opener in openers if opener not in done]
    if not todo:
        begin()
    else:  # the file is touched once the first result is in, so a scheduler never reached leaves it as it was
        stream = (run_local(lists, settings, todo, jobs) if engine == "local"
                  else run_dask(lists, settings, todo, address, jobs))
        for count, result in enumerate(stream):
            if count == 0:
                begin()
            append_json_line(path, result_line(result), SEPARATORS)
            done[result.opener] = result
            if on_result is not None:
                on_result(result)
    return sorted(done.values(), key=lambda r: (r.total < 0, not r.exact, r.total, r.long_games, r.opener))


def result_line(result: OpenerTotal) -> dict:
    """A result as its line holds it: every field, less `book` where the solver proved it (so a normal- or hard-mode
    line stays as v1 files wrote it)."""
    line = asdict(result)
    if line["book"] is None:
        del line["book"]
    return line


def summary(results: list[OpenerTotal], settings: JobSettings, openers: list[str], guesses: int | None = None) -> dict:
    """What the job proved, free of timings and of which worker did what (the same however it was run).

    The best opener is proved best over every opener only when `openers` are all `guesses` allowed
    guesses, every one is done, and the best exact total is at most the cut-off (every other opener
    is then solved, rejected above it, or without a win). A top-N job is never best over all.
    Every opener without a win is listed; `win_checked` says how many results asked (older lines did not). An
    ultra-hard job says what each book it read settled (`books`: rejections with its bound, no-wins).
    """
    solved = [r for r in results if r.exact and r.total >= 0]
    rejected = [r for r in results if not r.exact]
    best = best_result(results)
    complete = len(results) == len(openers)
    return {
        "mode": settings.mode, "max_guesses": settings.max_guesses,
        "word_lists_sha256": settings.word_lists_sha256, "cut": settings.cut, "openers": len(openers),
        "every_guess": guesses is not None and len(openers) == guesses,
        "done": len(results), "solved": len(solved), "rejected": len(rejected),
        "no_win": sum(r.exact and r.total < 0 for r in results),
        "win_checked": sum(r.win is not None for r in results),
        "no_win_openers": sorted(r.opener for r in results if r.exact and r.total < 0),
        "best": None if best is None else {"opener": best.opener, "total": best.total, "long_games": best.long_games,
                                           "average": best.average},
        "proved_best_over_all": bool(complete and best is not None and guesses is not None
                                     and len(openers) == guesses
                                     and (settings.cut is None or best.total <= settings.cut)),
        "exact": [{"opener": r.opener, "total": r.total, "long_games": r.long_games} for r in solved],
        **({"books": [{"book": name, "sha256": digest,
                       "rejected": sum(r.book == name and not r.exact for r in results),
                       "no_win": sum(r.book == name and r.exact for r in results)}
                      for name, digest in settings.books]} if settings.ultra else {}),
    }


def job_timing(path: Path, wall_seconds: float, openers_this_run: int, earlier: list[dict] | None = None) -> dict:
    """Where the job's time went: each run's wall time and machine, and the proofs' CPU seconds by session.

    The CPU seconds are the workers' own (each result's process time), summed over the results each
    session of the file wrote (the header starts the first, each resumption's session line the next),
    with the machine and commit that session recorded: machines' names can repeat, a file's sessions
    cannot. `earlier` is the runs list of the summary an earlier run of the same file wrote (a resumed
    job keeps every run's wall time).
    """
    from plumbing.storage import machine

    sessions: list[dict] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except ValueError:  # a torn last line
            continue
        if "format" in data or "session" in data:
            where = data.get("session", data)
            sessions.append({"command": where.get("command"), "commit": where.get("commit"),
                             "machine": where.get("machine"), "openers": 0, "cpu_seconds": 0.0})
        elif "opener" in data and sessions:
            sessions[-1]["openers"] += 1
            sessions[-1]["cpu_seconds"] += max(float(data.get("cpu_seconds", 0.0)), 0.0)
    sessions = [dict(session, cpu_seconds=round(session["cpu_seconds"], 1)) for session in sessions
                if session["openers"]]
    run = {"node": os.uname().nodename, "machine": machine(), "wall_seconds": round(wall_seconds, 1),
           "openers": openers_this_run}
    runs = [*(earlier or []), *([run] if openers_this_run else [])]  # a run with nothing left to do is not one
    return {"wall_seconds": round(sum(r["wall_seconds"] for r in runs), 1), "runs": runs,
            "cpu_seconds": round(sum(session["cpu_seconds"] for session in sessions), 1),
            "cpu_seconds_by_session": sessions}


def best_result(results: list[OpenerTotal]) -> OpenerTotal | None:
    """The solved opener with the least total (then fewer long games, then the word), or None."""
    solved = [r for r in results if r.exact and r.total >= 0]
    return min(solved, key=lambda r: (r.total, r.long_games, r.opener), default=None)


# -- whole jobs, as the command line and the web call them -------------------------------
@dataclass(frozen=True)
class JobPlan:
    """One exact-openers job before it runs: its openers (ranked), scope, cut-off and where it saves."""

    settings: JobSettings
    openers: list[str]
    every_guess: bool
    out: Path
    cut_opener: str | None = None  # the opener whose optimal tree gave the cut-off, when the job found it
    breadth_cut: int | None = None  # the total of its breadth-limited tree, the first cut-off found


def plan_job(game: Wordle, hard: bool, max_guesses: int, every: bool, top: int | None, against: int | None,
             out: Path | None, on_cut: Callable[[], None] | None = None, ultra: bool = False) -> JobPlan:
    """The openers (all, or the best `top` by their root bound), the cut-off and the output file of a job.

    With every opener and no `against`, the cut-off is the optimal total of the opener of the best tree over the
    best 10 guesses a node (`quick_cut`: real trees); `on_cut` is called just before those (slow) searches. In
    ultra-hard mode (`ultra`) the shipped normal- and hard-mode books for these lists settle what they can first
    (`LooserBounds`), and their best openers are solved for the cut-off too.
    """
    ranked = ranked_openers(game, hard, max_guesses, ultra=ultra)
    openers = ranked if every else ranked[:top or 20]
    scope = "all" if every else f"top{len(openers)}"
    cut, cut_opener, breadth_cut = against, None, None
    books = shipped_books(game, max_guesses) if ultra else ()
    if cut is None and every:
        if on_cut is not None:
            on_cut()
        cut_opener, cut, breadth_cut = quick_cut(game, hard, max_guesses, ultra=ultra,
                                                 also=tuple(looser_best(game, max_guesses, books)))
    settings = JobSettings(hard=hard, max_guesses=max_guesses, word_lists_sha256=game.words.checksum, cut=cut,
                           ultra=ultra, books=books)
    mode = settings.mode
    return JobPlan(settings=settings, openers=openers, every_guess=every and len(openers) == len(game.words.guesses),
                   out=out or Path("results") / f"openers-exact-{mode}-{scope}.jsonl", cut_opener=cut_opener,
                   breadth_cut=breadth_cut)


def judge_opener(game: Wordle, hard: bool, max_guesses: int, opener: str, against: int | None = None,
                 ultra: bool = False) -> OpenerTotal:
    """One opener, in this process: its exact total, its rejection above `against` with a proved bound, or no win
    (`ultra`: in ultra-hard mode).

    Raises:
        UserError: the word is not an allowed guess.
    """
    word = opener.strip().lower()
    if word not in game.words.guess_index:
        raise UserError(f"'{opener}' is not in the guess list")
    settings = JobSettings(hard=hard, max_guesses=max_guesses, word_lists_sha256=game.words.checksum, cut=against,
                           ultra=ultra)
    solver = Solver(game, hard=hard, max_guesses=max_guesses, ultra=ultra)
    solver.whole_tries = 0  # the whole-list proof pays for itself over a job's many openers, not for one
    return judge(solver, settings, word)


# -- verify -------------------------------------------------------------------------------------------------------
def file_settings(head: dict) -> JobSettings:
    """The settings a results file's first line names.

    Raises:
        UserError: the line is not an exact-openers header.
    """
    try:
        if head["format"] != FORMAT:
            raise ValueError
        books = tuple((str(name), str(digest)) for name, digest in head.get("books", []))
        settings = JobSettings(hard=bool(head["hard"]), max_guesses=int(head["max_guesses"]),
                               word_lists_sha256=str(head["word_lists_sha256"]), cut=head.get("cut"),
                               ultra=bool(head.get("ultra", False)), books=books)
        if not isinstance(head["openers"], list) or settings.cut is not None and not isinstance(settings.cut, int):
            raise ValueError
    except (KeyError, TypeError, ValueError):
        raise UserError("not an exact-openers results file (its first line is not one's header)") from None
    return settings


def verify_openers(game: Wordle, path: Path, sample: int = 20, seed: int = 0) -> tuple[list[str], list[str]]:
    """Check an exact-openers results file as a resumed job does, and more: every line (`read_lines`), the summary
    beside it against the lines, the lines the verdict rests on proved again and every line read from a book
    checked against it (`recheck`), and a seeded sample of `sample` other rejections and no-wins proved again
    (a rejection's bound must hold: the solver, asked to solve below it, must reject too).

    Returns:
        (problems, what was checked), each a line of text.

    Raises:
        UserError: the file is not an exact-openers results file, or is of other word lists.
    """
    try:
        first = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
    except (OSError, UnicodeDecodeError, ValueError):
        raise UserError(f"{path}: not an exact-openers results file") from None
    try:
        settings = file_settings(first if isinstance(first, dict) else {})
    except UserError as error:
        raise UserError(f"{path}: {error}") from None
    if settings.word_lists_sha256 != game.words.checksum:
        raise UserError(f"{path}: made with other word lists (give the --answers and --guesses its command names)")
    openers = list(first["openers"])
    problems: list[str] = []
    checked: list[str] = []
    try:
        done = read_lines(path, settings, openers, len(game.words.answers))
    except UserError as error:
        return [str(error)], checked
    results = [result for _, result in done.values()]
    checked.append(f"{len(results)} of {len(openers)} lines checked ({settings.mode} mode, cut-off {settings.cut})")
    digest = path.with_name(path.name.removesuffix(".jsonl") + ".summary.json")
    if digest.exists():
        proved = summary(results, settings, openers, guesses=len(game.words.guesses))
        try:
            stored = json.loads(digest.read_text(encoding="utf-8"))
            wrong = [key for key, value in proved.items() if stored.get(key) != json.loads(json.dumps(value))]
        except (OSError, ValueError, AttributeError):
            wrong = ["(not a summary)"]
        problems += [f"{digest.name}: '{key}' disagrees with the lines" for key in wrong]
        checked.append(f"{digest.name} {'agrees with' if not wrong else 'checked against'} the lines")
    try:
        again = recheck(game, settings, done, path)
        from_books = sum(result.book is not None for result in results)
        checked.append(f"{len(again)} deciding totals proved again"
                       + (f", {from_books} lines from books checked against them" if from_books else ""))
    except UserError as error:
        problems.append(str(error))
    lines = {result.opener: number for number, result in done.values()}
    pool = sorted((r for r in results if r.book is None and (not r.exact or r.total < 0)), key=lambda r: r.opener)
    drawn = [pool[i] for i in np.random.default_rng(seed).permutation(len(pool))[:sample].tolist()]
    solver = Solver(game, hard=settings.hard, max_guesses=settings.max_guesses, ultra=settings.ultra)
    solver.whole_tries = 0
    for result in drawn:
        if result.exact:  # no win
            again_result = judge(solver, settings, result.opener)
            held = again_result.exact and again_result.total < 0
        else:  # the bound holds: below it, the solver rejects too
            again_result = judge(solver, replace(settings, cut=result.total - 1), result.opener)
            held = not again_result.exact
        if not held:
            problems.append(f"{path}, line {lines[result.opener]}: {result.opener.upper()} says "
                            f"{result_text(result)}, but proved again it is {result_text(again_result)}")
    checked.append(f"{len(drawn)} of {len(pool)} solver rejections and no-wins proved again (seed {seed})")
    return problems, checked
