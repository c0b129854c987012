"""The exact opener job: each opener's optimal tree solved (a proof), locally or on a Dask cluster, saved as it finishes.

Values are totals of guesses over every answer (lower is better for the Guesser).

Every opener is independent, so the job is a bag of tasks: the openers, ranked by their
lower bound at the root (most replies first), go to worker processes, either a local pool
on this machine's cores or the workers of a Dask distributed cluster given its scheduler's
address. Each worker keeps one solver per setting, so sub-problems solved for one opener
serve the next. Each result is appended to a JSON-lines file the moment it arrives (the
first line holds the settings and provenance); a run over an existing file skips the
openers it already holds, so a killed run resumes.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from search import UserError, Wordle, load_matrix
from search.hardmode import Hints
from search.optimal import INFEASIBLE, Limits, Solver, unpack
from search.processes import tie_to_parent
from search.storage import provenance
from search.words import Words

FORMAT = "wordle-arena exact openers v1"


@dataclass(frozen=True)
class JobSettings:
    """What every opener of one job is solved under."""

    hard: bool
    max_guesses: int
    word_lists_sha256: str


@dataclass(frozen=True)
class OpenerTotal:
    """One opener's proved optimum: total guesses, games over 5, and what the proof cost."""

    opener: str
    total: int
    long_games: int
    average: float
    nodes: int
    seconds: float
    worker: str


def ranked_openers(game: Wordle, hard: bool, max_guesses: int) -> list[str]:
    """Every allowed guess, by its lower bound at the root (the cheap ranking), then by index."""
    solver = Solver(game, hard=hard, max_guesses=max_guesses)
    guesses, _, _ = solver.bounds(game.all_answers, max_guesses, None)
    useless = np.setdiff1d(game.all_guesses, guesses)  # no information at all: last
    return [game.words.guesses[int(guess)] for guess in np.concatenate((guesses, useless))]


# -- the worker side ------------------------------------------------------------------
_LISTS: tuple[tuple[str, ...], tuple[str, ...]] | None = None
_SOLVERS: dict[tuple, Solver] = {}


def _set_lists(lists: tuple[tuple[str, ...], tuple[str, ...]], parent: int | None = None) -> None:
    """Pool initializer: the word lists every task of this process uses; a worker ends with its `parent`."""
    global _LISTS
    _LISTS = lists
    if parent is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C and SIGTERM are the parent's to handle
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
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
                               max_guesses=settings.max_guesses, limits=Limits())
    return _SOLVERS[key]


def solve_opener(lists: tuple[tuple[str, ...], tuple[str, ...]] | None, settings: JobSettings,
                 opener: str) -> OpenerTotal:
    """Prove one opener's optimal total (runs in a worker process; lists None means the pool's own)."""
    lists = lists if lists is not None else _LISTS
    solver = solver_for(lists, settings)
    game = solver.game
    started, nodes = time.perf_counter(), solver.stats.nodes
    solver.root = None
    state = game.initial_state(hard=settings.hard, max_guesses=settings.max_guesses)
    cost = solver.try_guess(np.asarray(state.candidates), settings.max_guesses, Hints() if settings.hard else None,
                            game.words.guess_index[opener], INFEASIBLE)
    total, long_games = unpack(cost) if cost < INFEASIBLE else (-1, -1)
    return OpenerTotal(opener=opener, total=total, long_games=long_games,
                       average=round(total / len(game.words.answers), 6) if total >= 0 else -1.0,
                       nodes=solver.stats.nodes - nodes, seconds=round(time.perf_counter() - started, 3),
                       worker=f"{os.uname().nodename}:{os.getpid()}")


# -- engines --------------------------------------------------------------------------
def run_local(lists, settings: JobSettings, openers: list[str], jobs: int) -> Iterator[OpenerTotal]:
    """Solve the openers on `jobs` local processes, yielding each result as it finishes."""
    if jobs <= 1:
        _set_lists(lists)
        for opener in openers:
            yield solve_opener(None, settings, opener)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_set_lists,
                               initargs=(lists, os.getpid()))
    futures = [pool.submit(solve_opener, None, settings, opener) for opener in openers]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:  # stopped early (Ctrl-C, SIGTERM, an error): end the workers now rather than wait out their proofs
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()
            worker.join()


def run_dask(lists, settings: JobSettings, openers: list[str], address: str | None = None,
             workers: int = 2) -> Iterator[OpenerTotal]:
    """Solve the openers on a Dask cluster: the one at `address`, else a local one of `workers` processes."""
    try:
        from distributed import Client, LocalCluster, as_completed as dask_completed
    except ImportError:
        raise UserError("the Dask engine needs the 'distributed' extra: pip install -e '.[distributed]'") from None
    cluster = None
    try:
        if address is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        else:
            client = Client(address, timeout=20)
    except (OSError, TimeoutError, ValueError) as error:  # ValueError: an address Dask cannot parse
        raise UserError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        shared = client.scatter(lists, broadcast=True)
        futures = [client.submit(solve_opener, shared, settings, opener, key=f"opener-{opener}-{settings.hard}",
                                 pure=False) for opener in openers]
        for future in dask_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# -- the results file -----------------------------------------------------------------
def header(settings: JobSettings, openers: list[str], command: str, engine: str) -> dict:
    """The file's first line: the settings, the openers in ranked order, the command and provenance."""
    return {"format": FORMAT, "command": command, "seed": None, "seed_note": "the job makes no random choice",
            "mode": "hard" if settings.hard else "normal", **asdict(settings), "engine": engine,
            "openers": openers, **provenance()}


def read_results(path: Path, settings: JobSettings, openers: list[str]) -> dict[str, OpenerTotal]:
    """The results an earlier run of the same job saved (a torn last line is dropped), or {} for no file.

    Raises:
        UserError: the file holds another job, or a line that is not a result.
    """
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise UserError(f"{path}: cannot read it ({error.strerror})") from None
    try:
        first = json.loads(lines[0])
        same = (first["format"] == FORMAT and first["hard"] == settings.hard
                and first["max_guesses"] == settings.max_guesses
                and first["word_lists_sha256"] == settings.word_lists_sha256 and first["openers"] == openers)
    except (ValueError, KeyError, TypeError):
        raise UserError(f"{path}: not an exact-openers results file") from None
    if not same:
        raise UserError(f"{path}: holds a job with other settings or openers; choose another --out")
    done: dict[str, OpenerTotal] = {}
    body = lines[1:]
    for number, line in enumerate(body, start=2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if "session" in data:
                continue
            result = OpenerTotal(**data)
        except (ValueError, TypeError):
            if number == len(lines):  # the last line has no newline: torn by a kill mid-write
                break
            raise UserError(f"{path}, line {number}: not a result") from None
        if result.opener not in openers:
            raise UserError(f"{path}, line {number}: opener '{result.opener}' is not one of this job's")
        done[result.opener] = result
    return done


def _append(path: Path, record: dict) -> None:
    """Append one JSON line and push it to the disk."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
        out.flush()
        os.fsync(out.fileno())


def run_job(game: Wordle, hard: bool, max_guesses: int, openers: list[str], path: Path, command: str,
            engine: str = "local", jobs: int = 2, address: str | None = None,
            on_result: Callable[[OpenerTotal], None] | None = None) -> list[OpenerTotal]:
    """Prove every opener's optimum, saving each as it finishes and skipping those the file already holds.

    Args:
        engine: "local" (a process pool of `jobs`), or "dask" (the scheduler at `address`, else a
            local Dask cluster of `jobs` worker processes).

    Returns:
        Every opener's result (earlier runs' included), best total first, then fewer long games, then word.
    """
    settings = JobSettings(hard=hard, max_guesses=max_guesses, word_lists_sha256=game.words.checksum)
    done = read_results(path, settings, openers)
    resumed_with = len(done)

    def begin() -> None:
        """Write the header, or the session line after a torn last line is dropped."""
        if not path.exists():
            path.write_text(json.dumps(header(settings, openers, command, engine)) + "\n", encoding="utf-8")
        else:
            text = path.read_text(encoding="utf-8")
            if not text.endswith("\n"):  # drop a torn last line before appending
                path.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")
            _append(path, {"session": {"command": command, "engine": engine, "resumed_with": resumed_with,
                                       **provenance()}})
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
            _append(path, asdict(result))
            done[result.opener] = result
            if on_result is not None:
                on_result(result)
    return sorted(done.values(), key=lambda r: (r.total < 0, r.total, r.long_games, r.opener))
