"""Playing a tournament: scheduling games over worker processes, journaling them, resuming, writing the files.

Workers are forked (the 'fork' start method), so the pattern matrix loaded by the parent
is shared copy-on-write. Each (agent, mode) is split into `jobs` strided shares of the
answers still to play; a worker builds the agent once for its share, so the agent's
search cache serves every game of that share. The parent is the only writer: it appends
each finished game to `journal.csv` and flushes it, so an interrupt or a crash loses no
finished game. When every game is played it writes `games.csv` (canonical order, no
timing: byte-identical for the same command and seed), `timings.csv`, `summary.json` and
`report.md`, then removes the journal.
"""

from __future__ import annotations

import datetime
import json
import multiprocessing
import os
import warnings
from dataclasses import dataclass, replace
from multiprocessing import connection
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable, Iterable

from agents import Agent, make_player, spec
from plumbing.errors import UserError
from plumbing.processes import stop_processes, stops_held, take_stops_as_worker, tie_to_parent
from plumbing.storage import FolderBusy, FolderLock, prepare_folder, provenance, write_atomically
from variants import AnyGame

from .charts import write_charts
from .plan import Plan, TournamentError, settings_difference
from .playing import play_game
from .records import GameRecord, Journal, ResultsError, error_text, file_text, read_file, read_json_object
from .report import markdown_report
from .stats import Summary, summarise
from .verify import (
    CONVERTED_KEY,
    GAMES_FILE,
    JOURNAL_FILE,
    REPORT_FILE,
    SUMMARY_FILE,
    TIMINGS_FILE,
    check_settings,
    coverage,
    rule_problems,
    sha256_file,
)

#: How long the parent waits on its workers' pipes before looking again (Ctrl-C is handled between waits).
POLL_SECONDS = 0.5


@dataclass(frozen=True)
class Task:
    """A share of one (agent, mode): the games (answers, or dealt games' numbers) one worker plays with one built agent."""

    agent: str
    mode: str
    games: tuple[int, ...]


@dataclass(frozen=True)
class RunOutcome:
    """What a run did: the folder, the plan, every game in canonical order and their summary."""

    folder: Path
    plan: Plan
    records: tuple[GameRecord, ...]
    summary: Summary
    played: int
    resumed: int
    notes: tuple[str, ...] = ()


# -- playing one game ---------------------------------------------------------------------
def build_agent(game: AnyGame, plan: Plan, name: str) -> Agent:
    """The agent for one share, built for the plan's game with every setting the plan records for it."""
    return make_player(name, game, plan.game, **plan.agent_settings[name])


def play_task(game: AnyGame, plan: Plan, task: Task, emit: Callable[[GameRecord], None],
              built: dict[tuple[str, str], Agent]) -> None:
    """Play a share, emitting each game; `built` keeps the last agent built so a second share reuses it.

    An agent that cannot be built for a reason other than bad input records every game
    of the share as an error; bad input (UserError) stops the tournament.
    """
    key = (task.agent, task.mode)
    if key not in built:
        built.clear()
        try:
            built[key] = build_agent(game, plan, task.agent)
        except UserError:
            raise
        except Exception as raised:
            message = f"building the agent failed: {error_text(raised)}"
            words = game.words
            for number in task.games:
                answers = tuple(words.answers[a] for a in plan.answers_of(number, words))
                emit(GameRecord(task.agent, task.mode, plan.label(number, words), answers, (), (), False, 0, message,
                                0.0))
            return
    for number in task.games:
        emit(play_game(game, built[key], plan, task.mode, number))


def _worker(game: AnyGame, plan: Plan, tasks: Any, results: Connection, parent: int) -> None:
    """A worker process: play tasks until the None sentinel; Ctrl-C is the parent's to handle.

    Each game is sent down the worker's own pipe before the next one starts, and a
    pipe send is synchronous, so a worker that dies outright loses no game it finished.
    The worker ends within a second of its parent's death, however the parent died.
    """
    take_stops_as_worker()  # the parent's SIGTERM-as-Ctrl-C is the parent's own
    tie_to_parent(parent)
    built: dict[tuple[str, str], Agent] = {}
    try:
        for task in iter(tasks.get, None):
            play_task(game, plan, task, lambda record: results.send(("game", record)), built)
    except BaseException as raised:  # reported to the parent, which stops the run with one line
        results.send(("fatal", str(raised) if isinstance(raised, UserError) else error_text(raised)))
        return
    results.send(("done", None))


# -- scheduling ---------------------------------------------------------------------------
def can_fork() -> bool:
    """Whether worker processes can be forked here (they inherit the game; 'spawn' would rebuild it in each)."""
    return "fork" in multiprocessing.get_all_start_methods()


def make_tasks(plan: Plan, todo: dict[tuple[str, str], list[int]], jobs: int) -> list[Task]:
    """Each (agent, mode)'s remaining games split into `jobs` strided shares, in plan order.

    >>> from tournament.plan import Plan
    >>> from variants import GameSpec
    >>> plan = Plan(("a",), ("normal",), (0, 1, 2, 3, 4), 0, (), None, GameSpec(), "x")
    >>> [t.games for t in make_tasks(plan, {("a", "normal"): [0, 1, 2, 3, 4]}, 2)]
    [(0, 2, 4), (1, 3)]
    """
    tasks = []
    for agent in plan.agents:
        for mode in plan.modes:
            remaining = todo.get((agent, mode), [])
            for share in range(jobs):
                if remaining[share::jobs]:
                    tasks.append(Task(agent, mode, tuple(remaining[share::jobs])))
    return tasks


def prepare_agents(game: AnyGame, plan: Plan, tasks: list[Task],
                   on_prepare: Callable[[str, str], None] | None = None) -> None:
    """The run's pre-flight: build every agent still to play here, and do once each (agent, mode)'s one-time work.

    A model that is missing or damaged, or an agent that cannot be built, stops the run here
    in one line (a UserError) before any game is played or journaled; `on_prepare` is told
    before an agent's one-time work (`Agent.prepare`: loading a model, an opening plan).
    """
    built: dict[str, Agent] = {}
    for agent, mode in dict.fromkeys((task.agent, task.mode) for task in tasks):
        try:
            player = built[agent] if agent in built else built.setdefault(agent, build_agent(game, plan, agent))
        except UserError:
            raise
        except Exception as raised:
            raise TournamentError(f"agent '{agent}' cannot be built: {error_text(raised)}") from None
        if plan.game.is_wordle and getattr(spec(agent).factory, "prepare", Agent.prepare) is not Agent.prepare:
            if on_prepare is not None:
                on_prepare(agent, mode)
            player.prepare(mode == "hard", plan.max_guesses)


def _play_in_process(game: AnyGame, plan: Plan, tasks: list[Task], record: Callable[[GameRecord], None]) -> None:
    """Play every task here, one after another (--jobs 1)."""
    built: dict[tuple[str, str], Agent] = {}
    for task in tasks:
        play_task(game, plan, task, record, built)


def _play_in_workers(game: AnyGame, plan: Plan, tasks: list[Task], jobs: int,
                     record: Callable[[GameRecord], None]) -> None:
    """Play the tasks on `jobs` forked workers, passing each finished game to `record` here.

    Every worker has its own pipe. Whatever a worker sent before it ended stays readable,
    so the parent reads each pipe to its end before judging how the worker ended, and
    when the run stops early (a worker died, bad input, Ctrl-C) it stops the other
    workers and still records every game they had sent.
    """
    context = multiprocessing.get_context("fork")
    task_queue = context.Queue()
    for task in tasks:
        task_queue.put(task)
    for _ in range(jobs):
        task_queue.put(None)
    pipes: dict[Connection, Any] = {}
    open_pipes: dict[Connection, Any] = {}
    failure: str | None = None
    try:
        for _ in range(jobs):
            receiving, sending = context.Pipe(duplex=False)
            # Not daemons: an agent may use worker processes of its own. The finally clause ends them.
            worker = context.Process(target=_worker, args=(game, plan, task_queue, sending, os.getpid()),
                                     daemon=False)
            pipes[receiving] = worker  # kept before it starts: a stop that comes during the start still ends it
            with warnings.catch_warnings():
                # Python warns on fork once JAX is loaded (a test run, or ppo training, loads it); the workers
                # only play games, and every agent plays with numpy alone, so no JAX thread is needed there.
                warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
                with stops_held():  # until the worker takes them
                    worker.start()
            sending.close()  # the worker holds the only sending end: its exit closes the pipe
        open_pipes.update(pipes)
        while open_pipes and failure is None:
            for pipe in connection.wait(list(open_pipes), timeout=POLL_SECONDS):
                try:
                    kind, payload = pipe.recv()
                except EOFError:  # the worker ended without saying it was done
                    worker = open_pipes.pop(pipe)
                    worker.join()
                    failure = (f"a worker process died (exit code {worker.exitcode}); "
                               "the games finished so far are saved, continue with --resume")
                    break
                if kind == "game":
                    record(payload)
                elif kind == "fatal":
                    del open_pipes[pipe]
                    failure = f"{payload} (the games finished so far are saved)"
                    break
                else:
                    del open_pipes[pipe]
    finally:  # however the loop ended, every worker is ended and reaped before the games they sent are read
        task_queue.cancel_join_thread()
        stop_processes(pipes.values())
        try:
            for pipe in open_pipes:
                _record_what_is_left(pipe, record)
        finally:
            for pipe in pipes:
                pipe.close()
            task_queue.close()
    if failure is not None:
        raise TournamentError(failure)


def _record_what_is_left(pipe: Connection, record: Callable[[GameRecord], None]) -> None:
    """Record the games a stopped worker had sent, reading its pipe to the end."""
    while True:
        try:
            kind, payload = pipe.recv()
        except Exception:  # the pipe's end, or a message cut short when the worker was stopped
            return
        if kind == "game":
            record(payload)


# -- the run folder -----------------------------------------------------------------------
def canonical(records: Iterable[GameRecord], plan: Plan, game: AnyGame) -> tuple[GameRecord, ...]:
    """Records in the plan's order: agent as listed, normal before hard, answer by list position (dealt games: by
    number)."""
    agent_rank = {agent: i for i, agent in enumerate(plan.agents)}
    mode_rank = {mode: i for i, mode in enumerate(plan.modes)}
    return tuple(sorted(records, key=lambda r: (agent_rank[r.agent], mode_rank[r.mode],
                                                plan.number_of(r.game, game.words))))


def _meta(plan: Plan, provenances: list[dict[str, Any]]) -> dict[str, Any]:
    """The metadata line of games.csv and timings.csv: nothing that changes between identical runs."""
    return {"command": plan.command(), "settings": plan.settings(), "provenance": provenances,
            "failure_score": plan.failure_score}


def _now() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def _session(argv: list[str] | None, jobs: int) -> dict[str, Any]:
    """This session's line: provenance, arguments as typed, workers, start time."""
    return {"provenance": provenance(), "argv": argv, "jobs": jobs, "started": _now()}


@dataclass
class Done:
    """What a folder already holds: its games, sessions, the journal's complete length, and what was repaired."""

    records: list[GameRecord]
    sessions: list[dict[str, Any]]
    keep: int | None
    notes: list[str]
    rewrite: bool


def _cut_off_note(path: Path, loaded_bytes: int) -> str | None:
    """A note when a file's last line was cut off (a crash mid-write) and is dropped, else None."""
    if path.stat().st_size == loaded_bytes:
        return None
    return f"{path}: its last line was cut off (a crash while writing it); that game is dropped and played again"


def _is_json_object(path: Path) -> bool:
    """Whether the file holds one JSON object (summary.json as written), not junk or a torn write."""
    try:
        read_json_object(path)
    except ResultsError:
        return False
    return True


def _stored_sessions(folder: Path, meta: dict[str, Any]) -> list[dict[str, Any]]:
    """The sessions summary.json records, or one per provenance of the games file where it has none."""
    try:
        sessions = read_json_object(folder / SUMMARY_FILE).get("sessions")
    except ResultsError:
        sessions = None
    if isinstance(sessions, list) and all(isinstance(s, dict) for s in sessions):
        return sessions
    return [{"provenance": p} for p in meta.get("provenance", [])]


def load_done(folder: Path, plan: Plan, game: AnyGame) -> Done:
    """The games a folder already holds for `plan`: a journal's, or a finished run's (a cut-off last line dropped).

    Raises:
        TournamentError: the folder was played with other settings.
        ResultsError: a file is corrupt or a recorded game breaks the rules.
    """
    journal_path = folder / JOURNAL_FILE
    notes: list[str] = []
    if journal_path.exists():
        loaded = read_file(journal_path, "journal", allow_partial_last_line=True)
        notes += [note] if (note := _cut_off_note(journal_path, loaded.complete_bytes)) else []
        sessions = [loaded.meta.get("session", {})] + loaded.sessions
        keep: int | None = loaded.complete_bytes
        records = loaded.records
        where = str(journal_path)
    else:
        loaded = read_file(folder / GAMES_FILE, "games", allow_partial_last_line=True)
        timings = read_file(folder / TIMINGS_FILE, "timings", allow_partial_last_line=True)
        for path, complete in ((folder / GAMES_FILE, loaded.complete_bytes), (folder / TIMINGS_FILE, timings.complete_bytes)):
            notes += [note] if (note := _cut_off_note(path, complete)) else []
        shared = min(len(loaded.records), len(timings.records)) if notes else len(loaded.records)
        if [t.key for t in timings.records[:shared]] != [g.key for g in loaded.records[:shared]] \
                or (not notes and len(timings.records) != len(loaded.records)):
            raise ResultsError(f"{folder / TIMINGS_FILE}: does not list the same games as {GAMES_FILE}")
        records = [replace(g, seconds=t.seconds) for g, t in zip(loaded.records[:shared], timings.records[:shared])]
        sessions = _stored_sessions(folder, loaded.meta)
        keep, where = None, str(folder / GAMES_FILE)
    recorded = loaded.meta.get("settings")
    check_settings(recorded, where)
    if (difference := settings_difference(recorded, plan.settings())) is not None:
        raise TournamentError(f"cannot resume {folder}: it was played with other settings: {difference}")
    expected = [(a, m, plan.label(n, game.words)) for a in plan.agents for m in plan.modes for n in plan.games]
    problems = coverage(records, expected).stray_problems(where)  # a resumed run plays the missing ones
    for record in records:
        if problems:
            break
        problems.extend(rule_problems(record, plan.game.with_mode(record.mode), game.words, plan.seed, where))
    if problems:
        raise ResultsError(f"refusing to resume: {problems[0]}")
    rewrite = bool(notes)
    if keep is None and not rewrite:
        for name in (SUMMARY_FILE, REPORT_FILE):
            if not (folder / name).is_file():
                notes.append(f"{folder / name} was missing: written again from the games")
                rewrite = True
            elif name == SUMMARY_FILE and not _is_json_object(folder / name):
                notes.append(f"{folder / name} was not a JSON object: written again from the games")
                rewrite = True
    return Done(records, sessions, keep, notes, rewrite)


def write_results(folder: Path, plan: Plan, game: AnyGame | None, records: tuple[GameRecord, ...],
                  sessions: list[dict[str, Any]], summary: Summary, converted: dict[str, Any] | None = None) -> None:
    """Write games.csv, timings.csv, summary.json and report.md for a complete run (`converted`: the note of a run
    written first in an older format, kept in the metadata line, summary.json and report.md)."""
    provenances: list[dict[str, Any]] = []
    for session in sessions:
        if (p := session.get("provenance")) and p not in provenances:
            provenances.append(p)
    meta = _meta(plan, provenances) | ({CONVERTED_KEY: converted} if converted is not None else {})
    write_atomically(folder / GAMES_FILE, file_text("games", meta, records, plan.dealt))
    write_atomically(folder / TIMINGS_FILE, file_text("timings", meta, records, plan.dealt))
    document = {
        "command": meta["command"], "settings": meta["settings"], "provenance": provenances,
        "sessions": sessions, "written": _now(),
        "files": {name: sha256_file(folder / name) for name in (GAMES_FILE, TIMINGS_FILE)},
        "summary": summary.to_dict(),
    } | ({CONVERTED_KEY: converted} if converted is not None else {})
    write_atomically(folder / SUMMARY_FILE, json.dumps(document, indent=2, sort_keys=True) + "\n")
    write_charts(folder, document["summary"])
    write_atomically(folder / REPORT_FILE, markdown_report(document, summary))


def holds_run(folder: Path) -> bool:
    """Whether `folder` holds a tournament, finished or under way (any of its files, whatever their state)."""
    return any(os.path.lexists(folder / name) for name in (JOURNAL_FILE, GAMES_FILE, TIMINGS_FILE, SUMMARY_FILE))


def run_tournament(plan: Plan, game: AnyGame, folder: str | Path, jobs: int | None = None, resume: bool = False,
                   argv: list[str] | None = None,
                   on_start: Callable[[Plan, list[GameRecord]], None] | None = None,
                   on_game: Callable[[GameRecord], None] | None = None,
                   on_prepare: Callable[[str, str], None] | None = None) -> RunOutcome:
    """Play a tournament into a run folder, or continue one.

    Args:
        plan: what to play.
        game: the game the plan was made for (`variants.game_of(plan.game, rules)`; its matrix is shared with the
            workers).
        folder: the run folder.
        jobs: worker processes (default: the CPU count); 1 plays in this process.
        resume: continue the games in `folder`; without it a folder holding a run is refused.
        argv: the command as typed, recorded in the summary.
        on_start: called once before play with the plan and the games already played.
        on_game: called in this process with each game as it finishes.
        on_prepare: called with (agent, mode) before an agent's one-time work for a mode.

    Returns:
        The RunOutcome. Raises TournamentError / ResultsError (UserError) on bad input,
        KeyboardInterrupt with every finished game saved.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise TournamentError(f"{folder} exists and is not a folder")
    prepare_folder(folder)
    lock = FolderLock(folder)
    try:
        lock.acquire(_now())
    except FolderBusy as busy:
        raise TournamentError(f"{busy}; let it finish (or stop it), then continue with --resume") from None
    try:
        return _run_in_folder(plan, game, folder, max(1, jobs or os.cpu_count() or 1), resume, argv, on_start, on_game,
                              on_prepare)
    finally:
        lock.release()


def _run_in_folder(plan: Plan, game: AnyGame, folder: Path, jobs: int, resume: bool, argv: list[str] | None,
                   on_start: Callable[[Plan, list[GameRecord]], None] | None,
                   on_game: Callable[[GameRecord], None] | None,
                   on_prepare: Callable[[str, str], None] | None) -> RunOutcome:
    """run_tournament's work, in a folder this process holds."""
    if (held := holds_run(folder)) and not resume:
        raise TournamentError(f"{folder} already holds a tournament; add --resume to continue it, "
                              "or choose another folder with --out")
    loaded = load_done(folder, plan, game) if held else Done([], [], None, [], False)
    done, sessions, keep = loaded.records, loaded.sessions, loaded.keep
    done_keys = {record.key for record in done}
    todo: dict[tuple[str, str], list[int]] = {}
    for agent in plan.agents:
        for mode in plan.modes:
            todo[(agent, mode)] = [n for n in plan.games if (agent, mode, plan.label(n, game.words)) not in done_keys]
    tasks = make_tasks(plan, todo, jobs)
    prepare_agents(game, plan, tasks, on_prepare)
    records = list(done)
    if on_start is not None:
        on_start(plan, list(done))
    if tasks or (folder / JOURNAL_FILE).exists():
        session = _session(argv, jobs)
        if (folder / JOURNAL_FILE).exists():
            journal = Journal(folder / JOURNAL_FILE, keep_bytes=keep, session=session, dealt=plan.dealt)
        else:
            journal = Journal(folder / JOURNAL_FILE, meta={**_meta(plan, [provenance()]), "session": session},
                              dealt=plan.dealt)
            for finished in done:  # a finished run being repaired: the journal holds every game from here on
                journal.write(finished)
        sessions.append(session)

        def record(game_record: GameRecord) -> None:
            journal.write(game_record)
            records.append(game_record)
            if on_game is not None:
                on_game(game_record)

        if jobs > 1 and not can_fork():
            warnings.warn("this system cannot fork worker processes; the games are played in this one process "
                          "(the same games, on one core)", RuntimeWarning, stacklevel=2)
            jobs = 1
        try:
            if jobs == 1 or len(tasks) == 0:
                _play_in_process(game, plan, tasks, record)
            else:
                _play_in_workers(game, plan, tasks, min(jobs, len(tasks)), record)
        finally:
            journal.close()
        ordered = canonical(records, plan, game)
        summary = summarise(ordered, plan.agents, plan.modes, plan.max_guesses)
        write_results(folder, plan, game, ordered, sessions, summary)
        (folder / JOURNAL_FILE).unlink()
    else:
        ordered = canonical(records, plan, game)
        summary = summarise(ordered, plan.agents, plan.modes, plan.max_guesses)
        if loaded.rewrite:
            write_results(folder, plan, game, ordered, sessions, summary)
    return RunOutcome(folder=folder, plan=plan, records=ordered, summary=summary,
                      played=len(records) - len(done), resumed=len(done), notes=tuple(loaded.notes))
