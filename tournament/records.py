"""One line per game: the record, and the CSV files that hold records with a metadata line on top.

Every file starts with `# wordle-arena <kind> v1 <JSON metadata>` (command, settings with
seed and word-list checksum, commit, library versions), then a column header, then one
row per game. Patterns are written as letters, g green, y yellow, - grey, and guesses
and patterns as space-separated lists in playing order.

A game is named within its run by its answer where the run plays the answer list (Wordle's own
shape: the `answer` column), and by its number where the games are dealt from the seed (several
boards, other lengths, a lying Indicator: a `game` column, then the `answers` one a board, space
between them, and each guess's patterns one a board with `/` between them and `.` for a board
solved before that guess). Whatever the game, a record holds its answers and, for each guess,
one pattern a board.

Kinds: `games` (the canonical per-game file, no timing), `timings` (seconds per game)
and `journal` (both, in the order games finished, appended while a run is under way).
Reading is strict: anything malformed is a ResultsError naming the file and line.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from plumbing.errors import UserError
from plumbing.storage import NotRegularFile, read_regular_file
from variants import GameSpec, GameSpecError
from wordle import format_pattern, parse_pattern

from .plan import MODES

FORMAT_VERSION = 1
GAME_COLUMNS = ("agent", "mode", "answer", "turns", "guesses", "patterns", "solved", "nodes", "error")
TIMING_COLUMNS = ("agent", "mode", "answer", "seconds")
JOURNAL_COLUMNS = GAME_COLUMNS + ("seconds",)
COLUMNS = {"games": GAME_COLUMNS, "timings": TIMING_COLUMNS, "journal": JOURNAL_COLUMNS}
#: The columns of dealt games (named by number, one answer a board).
DEALT_GAME_COLUMNS = ("agent", "mode", "game", "answers", "turns", "guesses", "patterns", "solved", "nodes", "error")
DEALT_COLUMNS = {"games": DEALT_GAME_COLUMNS, "timings": ("agent", "mode", "game", "seconds"),
                 "journal": DEALT_GAME_COLUMNS + ("seconds",)}
#: What a pattern of a board solved before the guess is written as.
SOLVED_MARK = "."
#: Board patterns of one guess are separated by this.
BOARD_SEPARATOR = "/"
#: The most boards, guesses and letters a record may hold (beyond any game's).
MOST_BOARDS, MOST_TURNS = 32, 64
#: A resumed session adds one such line to the journal, with its provenance.
SESSION_PREFIX = "# session "
MAX_ERROR_TEXT = 300
#: Seconds are kept to the microsecond, in the files and in the figures derived from them.
SECONDS_DECIMALS = 6


class ResultsError(UserError):
    """A results file that is missing, corrupt or tampered with; the message names the file and line."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game.

    Attributes:
        agent: the agent's registry name.
        mode: "normal" or "hard".
        game: the game's name within its run: its answer (Wordle's shape), or its number (dealt games).
        answers: the hidden words, one a board.
        guesses: the words played, in order (for an error, those played before it).
        replies: the reply to each guess: one pattern code a board, None on a board solved before it.
        solved: whether every board was solved.
        nodes: search nodes the agent visited over the game (0 for agents that do not search).
        error: empty, or the exception the agent raised (the game counts as unsolved).
        seconds: wall-clock time of the game, or None where the file holds no timing.
    """

    agent: str
    mode: str
    game: str
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    replies: tuple[tuple[int | None, ...], ...]
    solved: bool
    nodes: int
    error: str = ""
    seconds: float | None = None

    @classmethod
    def of_answer(cls, agent: str, mode: str, answer: str, guesses: tuple[str, ...], patterns: tuple[int, ...],
                  solved: bool, nodes: int, error: str = "", seconds: float | None = None) -> "GameRecord":
        """A game of Wordle's own shape: named by its one answer, one pattern a guess."""
        return cls(agent, mode, answer, (answer,), tuple(guesses), tuple((p,) for p in patterns), solved, nodes,
                   error, seconds)

    @property
    def key(self) -> tuple[str, str, str]:
        """(agent, mode, game): what identifies a game within a tournament."""
        return (self.agent, self.mode, self.game)

    @property
    def answer(self) -> str:
        """The hidden word of a one-board game (its answers, space between them, on several boards)."""
        return " ".join(self.answers)

    @property
    def patterns(self) -> tuple[int | None, ...]:
        """The first board's reply to each guess (a one-board game's patterns)."""
        return tuple(reply[0] for reply in self.replies)

    @property
    def turns(self) -> int:
        """Guesses played."""
        return len(self.guesses)

    def score(self, failure_score: int) -> int:
        """Guesses used when solved, else `failure_score` (the guess limit plus one)."""
        return self.turns if self.solved else failure_score


def error_text(error: BaseException) -> str:
    """An exception as one short line for the error column."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= MAX_ERROR_TEXT else text[: MAX_ERROR_TEXT - 3] + "..."


def header_line(kind: str, meta: dict[str, Any]) -> str:
    """The first line of a results file of `kind`."""
    return f"# wordle-arena {kind} v{FORMAT_VERSION} {json.dumps(meta, sort_keys=True)}\n"


def columns_of(kind: str, dealt: bool) -> tuple[str, ...]:
    """The columns of a file of `kind`: games named by their answer, or `dealt` games named by their number."""
    return (DEALT_COLUMNS if dealt else COLUMNS)[kind]


def reply_text(reply: tuple[int | None, ...], length: int) -> str:
    """One guess's reply: each board's pattern as letters, '/' between boards, '.' for a board already solved."""
    return BOARD_SEPARATOR.join(SOLVED_MARK if p is None else format_pattern(p, length=length) for p in reply)


def record_row(record: GameRecord, kind: str, dealt: bool = False) -> list[str]:
    """A record as the CSV fields of a file of `kind` (`dealt`: of dealt games)."""
    length = len(record.answers[0]) if record.answers else 5
    fields = {
        "agent": record.agent,
        "mode": record.mode,
        "answer": record.game,
        "game": record.game,
        "answers": " ".join(record.answers),
        "turns": str(record.turns),
        "guesses": " ".join(record.guesses),
        "patterns": " ".join(reply_text(reply, length) for reply in record.replies),
        "solved": "1" if record.solved else "0",
        "nodes": str(record.nodes),
        "error": record.error,
        "seconds": "" if record.seconds is None else f"{record.seconds:.{SECONDS_DECIMALS}f}",
    }
    return [fields[column] for column in columns_of(kind, dealt)]


def format_rows(records: Iterable[GameRecord], kind: str, dealt: bool = False) -> str:
    """CSV text of the records' rows (no header)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for record in records:
        writer.writerow(record_row(record, kind, dealt))
    return out.getvalue()


def file_text(kind: str, meta: dict[str, Any], records: Iterable[GameRecord], dealt: bool = False) -> str:
    """The whole text of a results file: metadata line, column header, rows (`dealt`: of dealt games)."""
    return header_line(kind, meta) + ",".join(columns_of(kind, dealt)) + "\n" + format_rows(records, kind, dealt)


@dataclass
class LoadedFile:
    """A results file read back: its metadata, session lines, records, where its complete lines end, and whether it
    holds dealt games (and their word length)."""

    meta: dict[str, Any]
    sessions: list[dict[str, Any]]
    records: list[GameRecord]
    complete_bytes: int
    dealt: bool = False
    length: int = 5


def dealt_shape(meta: dict[str, Any], where: str) -> tuple[bool, int]:
    """Whether a file's metadata records dealt games (a game shape other than Wordle's), and their word length.

    Raises:
        ResultsError: a recorded shape that names no game.
    """
    settings = meta.get("settings")
    shape = settings.get("game") if isinstance(settings, dict) else None
    if shape is None:
        return False, 5
    try:
        game = GameSpec.from_shape(shape)
    except GameSpecError as error:
        raise ResultsError(f"{where}, line 1: the metadata's settings.game names no game ({error})") from None
    if game.is_wordle:
        raise ResultsError(f"{where}, line 1: the metadata's settings.game is Wordle's own shape, which no run records")
    return True, game.length


def read_file(path: Path, kind: str, allow_partial_last_line: bool = False) -> LoadedFile:
    """Read and check a results file of `kind`.

    Args:
        path: the file.
        kind: "games", "timings" or "journal".
        allow_partial_last_line: a last line without its newline (a crash mid-write) is
            dropped instead of refused; only the journal allows it.

    Returns:
        The file's contents. Raises ResultsError on anything malformed.
    """
    data = read_results_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ResultsError(f"{path}: is not UTF-8 text") from None
    complete = len(data)
    if text and not text.endswith("\n"):
        if not allow_partial_last_line:
            raise ResultsError(f"{path}: the last line is cut off")
        cut = text.rfind("\n") + 1
        text = text[:cut]
        complete = len(text.encode("utf-8"))
    lines = text.splitlines()
    prefix = f"# wordle-arena {kind} v{FORMAT_VERSION} "
    if not lines or not lines[0].startswith(prefix):
        raise ResultsError(f"{path}, line 1: not a wordle-arena {kind} file (format v{FORMAT_VERSION})")
    meta = _json_object(lines[0][len(prefix):], path, 1)
    dealt, length = dealt_shape(meta, str(path))
    columns = columns_of(kind, dealt)
    if len(lines) < 2 or lines[1] != ",".join(columns):
        raise ResultsError(f"{path}, line 2: the column header should be {','.join(columns)}")
    sessions: list[dict[str, Any]] = []
    records: list[GameRecord] = []
    for number, line in enumerate(lines[2:], start=3):
        if line.startswith(SESSION_PREFIX) and kind == "journal":
            sessions.append(_json_object(line[len(SESSION_PREFIX):], path, number))
            continue
        fields = next(csv.reader([line]), [])
        if len(fields) != len(columns):
            raise ResultsError(f"{path}, line {number}: {len(fields)} fields, expected {len(columns)}")
        records.append(parse_row(dict(zip(columns, fields)), kind, f"{path}, line {number}", length))
    return LoadedFile(meta=meta, sessions=sessions, records=records, complete_bytes=complete, dealt=dealt,
                      length=length)


def read_results_bytes(path: Path) -> bytes:
    """A results file's bytes (storage's one reader: a regular file of a sane size), or ResultsError."""
    try:
        data = read_regular_file(path)
    except NotRegularFile:
        raise ResultsError(f"{path}: not a regular file (a folder, FIFO, device or socket); remove it") from None
    except UserError as error:
        raise ResultsError(str(error)) from None
    if data is None:
        if not os.path.lexists(path):
            raise ResultsError(f"{path}: no such file")
        raise ResultsError(f"{path}: cannot be read")
    return data


def read_json_object(path: Path) -> dict[str, Any]:
    """A results file holding one JSON object (summary.json), read by the one reader, or ResultsError."""
    data = read_results_bytes(path)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ResultsError(f"{path}: not valid JSON") from None
    if not isinstance(value, dict):
        raise ResultsError(f"{path}: not a JSON object")
    return value


def _json_object(text: str, path: Path, number: int) -> dict[str, Any]:
    """A JSON object from a metadata line, or ResultsError."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise ResultsError(f"{path}, line {number}: the metadata is not valid JSON") from None
    if not isinstance(value, dict):
        raise ResultsError(f"{path}, line {number}: the metadata is not a JSON object")
    return value


def _word(text: str, length: int) -> bool:
    """Whether `text` is a word of `length` lowercase ASCII letters."""
    return len(text) == length and text.isascii() and text.isalpha() and text.islower()


def parse_row(row: dict[str, str], kind: str, where: str, length: int = 5) -> GameRecord:
    """One CSV row as a GameRecord; ResultsError naming `where` on a malformed field."""
    if not row["agent"]:
        raise ResultsError(f"{where}: the agent is empty")
    if row["mode"] not in MODES:
        raise ResultsError(f"{where}: mode '{row['mode']}' is not normal or hard")
    if "answer" in row:
        game, answers = row["answer"], (row["answer"],)
        if not _word(game, 5):
            raise ResultsError(f"{where}: answer '{game}' is not a five-letter word")
    else:
        game = row["game"]
        if not re.fullmatch(r"0|[1-9][0-9]{0,8}", game):  # ASCII digits of a game number, written as the run writes it
            raise ResultsError(f"{where}: game '{game}' is not a game number")
        answers = tuple(row["answers"].split(" ")) if kind != "timings" else ()
        if kind != "timings" and (not 1 <= len(answers) <= MOST_BOARDS or not all(_word(a, length) for a in answers)):
            raise ResultsError(f"{where}: answers '{row['answers']}' are not words of {length} letters, one a board")
    seconds = None
    if "seconds" in row:
        seconds = _number(row["seconds"], where, "seconds")
    if kind == "timings":
        return GameRecord(row["agent"], row["mode"], game, answers, (), (), False, 0, "", seconds)
    guesses = tuple(row["guesses"].split(" ")) if row["guesses"] else ()
    if len(guesses) > MOST_TURNS:
        raise ResultsError(f"{where}: {len(guesses)} guesses, more than any game allows")
    try:
        replies = tuple(tuple(None if "answers" in row and mark == SOLVED_MARK else parse_pattern(mark, length)
                              for mark in (text.split(BOARD_SEPARATOR) if "answers" in row else [text]))
                        for text in row["patterns"].split(" ")) if row["patterns"] else ()
    except UserError:
        raise ResultsError(f"{where}: patterns '{row['patterns'][:200]}' are not g/y/- patterns") from None
    if any(len(reply) != len(answers) for reply in replies):
        raise ResultsError(f"{where}: a guess's patterns are not one a board ({len(answers)} boards)")
    if row["turns"] != str(len(guesses)):
        raise ResultsError(f"{where}: turns says {row['turns'][:20]} but {len(guesses)} guesses are listed")
    if len(replies) != len(guesses):
        raise ResultsError(f"{where}: {len(guesses)} guesses but {len(replies)} patterns")
    if row["solved"] not in ("0", "1"):
        raise ResultsError(f"{where}: solved must be 0 or 1, not '{row['solved'][:20]}'")
    if not re.fullmatch(r"[0-9]{1,15}", row["nodes"]):  # ASCII digits of a count a run can reach
        raise ResultsError(f"{where}: nodes '{row['nodes'][:20]}' is not a whole number")
    return GameRecord(row["agent"], row["mode"], game, answers, guesses, replies, row["solved"] == "1",
                      int(row["nodes"]), row["error"], seconds)


def _number(text: str, where: str, column: str) -> float:
    """A non-negative finite number from a field, or ResultsError."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise ResultsError(f"{where}: {column} '{text}' is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise ResultsError(f"{where}: {column} '{text}' is not a non-negative number")
    return value


class Journal:
    """The append-only log of a run under way: one flushed line per finished game."""

    def __init__(self, path: Path, meta: dict[str, Any] | None = None, keep_bytes: int | None = None,
                 session: dict[str, Any] | None = None, dealt: bool = False):
        """Create the journal with `meta`, or reopen it, first cutting it to `keep_bytes` (a partial last line).

        Args:
            path: the journal file.
            meta: metadata for a new journal; None reopens an existing one.
            keep_bytes: on reopening, the length of its complete lines.
            session: on reopening, the provenance line this session appends.
            dealt: the run's games are dealt (named by number), so the journal has their columns.
        """
        self.path, self.dealt = path, dealt
        if meta is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.out = open(path, "x", encoding="utf-8", newline="")
            self.out.write(header_line("journal", meta) + ",".join(columns_of("journal", dealt)) + "\n")
        else:
            if keep_bytes is not None and path.stat().st_size != keep_bytes:
                os.truncate(path, keep_bytes)
            self.out = open(path, "a", encoding="utf-8", newline="")
            if session is not None:
                self.out.write(SESSION_PREFIX + json.dumps(session, sort_keys=True) + "\n")
        self.out.flush()

    def write(self, record: GameRecord) -> None:
        """Append one game and flush it to the operating system."""
        self.out.write(format_rows([record], "journal", self.dealt))
        self.out.flush()

    def close(self) -> None:
        """Flush to disk and close."""
        if not self.out.closed:
            self.out.flush()
            os.fsync(self.out.fileno())
            self.out.close()
