"""Re-check a run folder against the rules: every recorded game replayed, every derived figure recomputed.

Nothing here trusts the agents or the pattern matrix: replies are recomputed with the
readable scalar `wordle.feedback` on every open board (a lying Indicator's lie drawn again from
the seed, and checked to be exactly one tile), hard-mode legality with `wordle.violation`.
"""

from __future__ import annotations

import datetime
import hashlib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable

from agents.base import deal_answers, lie_rng
from plumbing.errors import UserError
from plumbing.storage import WORD_LISTS_KEY
from variants import GameSpec, GameSpecError, draw_lie, spec_words
from variants.spec import MOST_GUESSES
from wordle import Words, decode_colours, feedback, violation
from wordle.feedback import all_green

from .plan import MODES, TournamentError, plan_from_settings
from .records import GameRecord, ResultsError, read_file, read_json_object, read_results_bytes, reply_text
from .replay import replay_problems as play_again
from .report import markdown_report
from .stats import summarise

GAMES_FILE = "games.csv"
TIMINGS_FILE = "timings.csv"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
JOURNAL_FILE = "journal.csv"
DEFAULT_LIMIT = 20
#: Where a run first written in an older format says so (its metadata line, summary.json), with the format it was in.
CONVERTED_KEY = "converted"
#: Every key of summary.json; verify checks each of them.
SUMMARY_KEYS = {"command", "settings", "provenance", "sessions", "written", "files", "summary", CONVERTED_KEY}


@dataclass
class Verification:
    """What verify found: the games checked and every problem, one line each."""

    folder: Path
    games: int = 0
    replayed: int = 0
    problems: list[str] = field(default_factory=list)
    game: GameSpec | None = None

    @property
    def ok(self) -> bool:
        """True when nothing was wrong."""
        return not self.problems


def rule_problems(record: GameRecord, game: GameSpec, words: Words, seed: int, where: str) -> list[str]:
    """Why one recorded game of `game` (its mode the record's) breaks the rules (empty if it does not).

    Checks the answers are possible answers, one a board (dealt games: the ones the seed deals their
    number), each guess an allowed word, each board's pattern the reference reply until that board
    is solved and none after (a lying Indicator: the lie the seed draws, exactly one tile from the
    truth, and an all-green row true), hard-mode legality in hard games, nothing after every board
    is solved, the guess limit, the solved flag, and that an unsolved game without an error used
    every guess.
    """
    name = f"{where}: {record.agent} {record.mode} {record.game}"
    length, green = game.length, all_green(game.length)
    if len(record.answers) != game.boards:
        return [f"{name}: {len(record.answers)} answers for {game.boards} boards"]
    if (missing := next((a for a in record.answers if a not in words.answer_index), None)) is not None:
        return [f"{name}: '{missing[:40]}' is not in the answer list"]
    if game.is_wordle:
        if record.game != record.answers[0]:
            return [f"{name}: a game of the answer list is named by its answer, not {record.game[:40]}"]
    else:
        if not record.game.isdigit() or record.game != str(int(record.game)):
            return [f"{name}: a dealt game is named by its number"]
        dealt = tuple(words.answers[a] for a in deal_answers(game.boards, len(words.answers), seed, int(record.game)))
        if dealt != record.answers:
            return [f"{name}: seed {seed} deals {' '.join(dealt)}, not the answers recorded"]
    if record.mode == "hard" and (game.boards > 1 or game.lies):
        return [f"{name}: {game.name} is played in normal mode only"]
    problems: list[str] = []
    solved = [False] * game.boards
    history: list[tuple[str, int]] = []
    lies = lie_rng(seed, int(record.game)) if game.lies else None
    for number, (guess, reply) in enumerate(zip(record.guesses, record.replies), start=1):
        if guess not in words.guess_index:
            problems.append(f"{name}: guess {number} '{guess[:40]}' is not an allowed word")
            break
        if all(solved):
            problems.append(f"{name}: guesses continue after every board was solved (guess {number})")
            break
        if record.mode == "hard" and (broken := violation(guess, history)) is not None:
            problems.append(f"{name}: guess {number} '{guess}' breaks hard mode: {broken}")
        truth = tuple(None if done else feedback(guess, answer) for done, answer in zip(solved, record.answers))
        if lies is not None and truth[0] is not None and truth[0] != green:
            expected: tuple[int | None, ...] = (draw_lie(truth[0], length, lies),)
        else:
            expected = truth
        if tuple(reply) != expected:
            problems.append(f"{name}: guess {number} '{guess}' gets {reply_text(expected, length)}, "
                            f"the file says {reply_text(reply, length)}")
        elif lies is not None and truth[0] is not None and truth[0] != green and sum(
                a != b for a, b in zip(decode_colours(reply[0], length), decode_colours(truth[0], length))) != 1:
            problems.append(f"{name}: guess {number} '{guess}' does not hold exactly one lie")
        history.append((guess, truth[0] if truth[0] is not None else green))
        solved = [done or pattern == green for done, pattern in zip(solved, truth)]
    if record.turns > game.max_guesses:  # type: ignore[operator]
        problems.append(f"{name}: {record.turns} guesses, over the limit of {game.max_guesses}")
    really_solved = all(solved) and bool(record.guesses) and not problems
    if record.solved != really_solved and not problems:
        problems.append(f"{name}: marked {'solved' if record.solved else 'unsolved'} but the replies say "
                        f"{'solved' if really_solved else 'unsolved'}")
    if not record.solved and not record.error and record.turns != game.max_guesses and not problems:
        problems.append(f"{name}: unsolved after {record.turns} guesses with no error recorded")
    return problems


@dataclass(frozen=True)
class Coverage:
    """How recorded games cover a plan.

    Attributes:
        strays: in the records' order, each game recorded again (True) or not in the plan (False).
        missing: the planned games not recorded, in the plan's order.
    """

    strays: tuple[tuple[tuple[str, str, str], bool], ...]
    missing: tuple[tuple[str, str, str], ...]

    def stray_problems(self, where: str) -> list[str]:
        """One line for each game recorded twice or not planned (what a resumed run must not hold)."""
        return [f"{where}: {' '.join(key)} appears more than once" if again else
                f"{where}: {' '.join(key)} is not a game of this tournament" for key, again in self.strays]

    def problems(self, where: str) -> list[str]:
        """The stray games' lines, then one for the missing games."""
        missing = [f"{where}: {len(self.missing)} planned games are missing, first {' '.join(self.missing[0])}"] \
            if self.missing else []
        return self.stray_problems(where) + missing


def coverage(records: Iterable[GameRecord], expected: list[tuple[str, str, str]]) -> Coverage:
    """Which recorded games are repeated or not in the plan, and which planned ones are missing."""
    wanted = set(expected)
    seen: set[tuple[str, str, str]] = set()
    strays = []
    for record in records:
        if record.key in seen or record.key not in wanted:
            strays.append((record.key, record.key in seen))
        seen.add(record.key)
    return Coverage(tuple(strays), tuple(key for key in expected if key not in seen))


def coverage_problems(records: Iterable[GameRecord], expected: list[tuple[str, str, str]], where: str) -> list[str]:
    """Games missing, repeated or not in the plan, one line each (the missing in one line)."""
    return coverage(records, expected).problems(where)


def planned_games(plan_settings: dict[str, Any], words: Words) -> list[tuple[str, str, str]]:
    """Every (agent, mode, game) a tournament's settings plan, in canonical order.

    Raises:
        TournamentError: settings no plan over these lists can have.
    """
    plan = plan_from_settings(plan_settings, words)
    return [(agent, mode, plan.label(number, words)) for agent in plan.agents for mode in plan.modes
            for number in plan.games]


def recorded_game(settings: dict[str, Any], where: str, limit: bool = True) -> GameSpec:
    """The game a run's settings record (its shape, guess limit and lists), or ResultsError naming `where`;
    `limit`: False takes the game's own guess limit (checked apart, `metadata_problems`)."""
    files = settings.get("words") if isinstance(settings.get("words"), dict) else {}
    try:
        return GameSpec.from_shape(settings.get("game"), max_guesses=settings.get("max_guesses") if limit else None,
                                   answers=files.get("answers_file"), guesses=files.get("guesses_file"))
    except GameSpecError as error:
        raise ResultsError(f"{where}: the metadata's game names none ({error})") from None


def check_settings(settings: Any, where: str) -> None:
    """Refuse settings metadata that lacks what a replay needs, or holds values no tournament writes."""
    def whole(value: Any, least: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= least

    ok = (isinstance(settings, dict)
          and isinstance(settings.get("agents"), list) and all(isinstance(a, str) and a for a in settings["agents"])
          and isinstance(settings.get("modes"), list) and all(m in MODES for m in settings["modes"])
          and whole(settings.get("max_guesses"), 1) and whole(settings.get("seed"), 0)
          and (settings.get("sample") is None or whole(settings.get("sample"), 1))
          and isinstance(settings.get("options", {}), dict)
          and (settings.get("agent_settings") is None or (
              isinstance(settings["agent_settings"], dict)
              and all(isinstance(v, dict) for v in settings["agent_settings"].values())))
          and isinstance(settings.get("words"), dict)
          and all(isinstance(settings["words"].get(key), (str, type(None))) for key in ("answers_file", "guesses_file")))
    if not ok:
        raise ResultsError(f"{where}: the metadata line lacks the tournament's settings or holds values it never writes")
    game = recorded_game(settings, where, limit=False)
    if "game" in settings and game.is_wordle:
        raise ResultsError(f"{where}: the metadata's game is Wordle's own shape, which no run records")
    if not game.is_wordle and settings.get("sample") is None:
        raise ResultsError(f"{where}: the metadata's sample is missing: a run of {game.name} deals a number of games")


def converted_problem(meta: dict[str, Any], where: str) -> str | None:
    """What is wrong with a metadata line's note of a conversion (`CONVERTED_KEY`), or None where it has a sound one
    or none: the note is exactly the format the run was first written in, the converter and its commit, as text."""
    note = meta.get(CONVERTED_KEY)
    if note is None:
        return None
    if not isinstance(note, dict) or set(note) != {"format", "by", "commit"} or not all(
            isinstance(value, str) and 0 < len(value) <= 200 for value in note.values()):
        return f"{where}, line 1: the metadata's '{CONVERTED_KEY}' is not a conversion's note (format, by, commit)"
    return None


def sha256_file(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(read_results_bytes(path)).hexdigest()


def _close(a: Any, b: Any) -> bool:
    """Whether two JSON values agree, numbers to 1e-9 relative."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def _summary_differences(stored: Any, derived: dict[str, Any], path: str = "summary") -> list[str]:
    """Where a stored summary disagrees with the one derived from the games, as dotted paths."""
    if isinstance(stored, dict) and isinstance(derived, dict):
        if stored.keys() != derived.keys():
            return [f"{path}: keys differ"]
        return [d for key in derived for d in _summary_differences(stored[key], derived[key], f"{path}.{key}")]
    if isinstance(stored, list) and isinstance(derived, list) and len(stored) == len(derived):
        return [d for i, (s, r) in enumerate(zip(stored, derived)) for d in _summary_differences(s, r, f"{path}[{i}]")]
    return [] if _close(stored, derived) else [f"{path} is {stored!r}, the games give {derived!r}"]


def metadata_problems(settings: dict[str, Any], words: Words, where: str) -> list[str]:
    """Settings no tournament on these lists can have, each naming its metadata field."""
    problems = []
    game = recorded_game(settings, where, limit=False)
    if game.is_wordle and settings.get("sample") is not None and settings["sample"] > len(words.answers):
        problems.append(f"{where}: the metadata's settings.sample is {settings['sample']}, more than the "
                        f"{len(words.answers)} answers")
    most = min(len(words.guesses), MOST_GUESSES)
    if settings["max_guesses"] > most:
        problems.append(f"{where}: the metadata's settings.max_guesses is {settings['max_guesses']}, more than the "
                        f"{most} {'allowed guesses' if most < MOST_GUESSES else 'any game allows'} (a game never "
                        "needs more)")
    if game.boards > len(words.answers):
        problems.append(f"{where}: the metadata's game deals {game.boards} answers, more than the list has")
    if problems:
        return problems
    try:
        plan_from_settings(settings, words)
    except TournamentError as error:
        problems.append(f"{where}: {error}")
    return problems


def _time(text: Any) -> datetime.datetime | None:
    """An ISO 8601 time with its zone, or None."""
    try:
        moment = datetime.datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def session_problems(stored: dict[str, Any]) -> list[str]:
    """What is wrong with summary.json's sessions and written time: each session a run with its provenance.

    Each session has exactly provenance, argv (the words typed, or null), jobs (workers)
    and started (a time), or only its provenance where --resume wrote a lost summary.json
    again from the games; its provenance is one of the file's, every provenance is some
    session's, and the file was written after the last session started.
    """
    sessions, provenances = stored.get("sessions"), stored.get("provenance")
    if not isinstance(sessions, list) or not sessions or not isinstance(provenances, list):
        return [f"{SUMMARY_FILE}: 'sessions' is not a list of the runs that played the games"]
    problems = []
    for number, session in enumerate(sessions):
        if isinstance(session, dict) and set(session) == {"provenance"} and session["provenance"] in provenances:
            continue
        ok = (isinstance(session, dict) and set(session) == {"provenance", "argv", "jobs", "started"}
              and session["provenance"] in provenances
              and (session["argv"] is None or (isinstance(session["argv"], list)
                                               and all(isinstance(word, str) for word in session["argv"])))
              and isinstance(session["jobs"], int) and not isinstance(session["jobs"], bool) and session["jobs"] >= 1
              and _time(session["started"]) is not None)
        if not ok:
            problems.append(f"{SUMMARY_FILE}: sessions[{number}] is not a run's record (provenance, argv, jobs, started)")
    if not problems:
        if any(p not in [s["provenance"] for s in sessions] for p in provenances):
            problems.append(f"{SUMMARY_FILE}: a provenance is listed that no session ran with")
        written = _time(stored.get("written"))
        starts = [_time(s["started"]) for s in sessions if "started" in s]
        if written is None or (starts and written < max(starts)):
            problems.append(f"{SUMMARY_FILE}: 'written' is not a time after the last session started")
    return problems


def verify_folder(folder: str | Path, answers: str | Path | None = None, guesses: str | Path | None = None,
                  limit: int = DEFAULT_LIMIT, replay: bool = False, replay_sample: int | None = None,
                  on_replay: Callable[[GameRecord], None] | None = None) -> Verification:
    """Replay and cross-check a finished run folder.

    Args:
        folder: the run folder (holding games.csv, timings.csv, summary.json).
        answers, guesses: word list files; default: those the results name (or the shipped lists).
        limit: stop collecting problems after this many.
        replay: also play the games again with the recorded agents and settings, when
            everything else checks out, and compare them move for move.
        replay_sample: replay only this many games, drawn from the run seed.
        on_replay: called with each replayed game (for a progress bar).

    Returns:
        A Verification; its `problems` are empty when everything agrees. Raises
        ResultsError when the folder holds no finished run to check.
    """
    result = _check_folder(Path(folder), answers, guesses, limit, replay, replay_sample, on_replay)
    del result.problems[limit:]  # however the check ended, at most `limit` problems
    return result


def _check_folder(folder: Path, answers: str | Path | None, guesses: str | Path | None, limit: int, replay: bool,
                  replay_sample: int | None, on_replay: Callable[[GameRecord], None] | None) -> Verification:
    """verify_folder's checks, which may collect past `limit` before they stop."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ResultsError(f"{folder}: no such folder")
    if not (folder / GAMES_FILE).exists():
        if (folder / JOURNAL_FILE).exists():
            raise ResultsError(f"{folder}: the run is not finished (journal.csv only); finish it with --resume first")
        raise ResultsError(f"{folder}: no {GAMES_FILE} here; give a tournament's run folder")
    result = Verification(folder=folder)

    def add(problems: list[str]) -> bool:
        """Collect problems; True once the limit is reached."""
        result.problems.extend(problems)
        return len(result.problems) >= limit

    try:
        games = read_file(folder / GAMES_FILE, "games")
    except ResultsError as error:
        result.problems.append(str(error))
        return result
    result.games = len(games.records)
    if (wrong := converted_problem(games.meta, str(folder / GAMES_FILE))) is not None:
        result.problems.append(wrong)
        return result
    settings = games.meta.get("settings")
    try:
        check_settings(settings, str(folder / GAMES_FILE))
    except ResultsError as error:
        result.problems.append(str(error))
        return result
    recorded_words = settings["words"]
    game = result.game = recorded_game(settings, GAMES_FILE, limit=False)
    try:
        words = spec_words(game.length, answers if answers is not None else recorded_words.get("answers_file"),
                           guesses if guesses is not None else recorded_words.get("guesses_file"))
    except UserError as error:
        if answers is not None or guesses is not None:
            raise  # a list given on the command line: bad input (exit 2), not a problem of the run
        result.problems.append(f"word lists: {error}")
        return result
    if words.checksum != recorded_words.get(WORD_LISTS_KEY):
        add([f"{GAMES_FILE}: word-list checksum {str(recorded_words.get(WORD_LISTS_KEY))[:16]}... does not match "
             f"the lists given ({words.checksum[:16]}...)"])
        return result
    if absurd := metadata_problems(settings, words, GAMES_FILE):
        add(absurd)
        return result
    game = result.game = recorded_game(settings, GAMES_FILE)
    max_guesses = settings["max_guesses"]
    expected = planned_games(settings, words)
    if add(coverage_problems(games.records, expected, GAMES_FILE)):
        return result
    order = {key: i for i, key in enumerate(expected)}
    keys = [order.get(record.key, -1) for record in games.records]
    if keys != sorted(keys):
        if add([f"{GAMES_FILE}: rows are not in canonical order (agent, mode, answer as planned)"]):
            return result
    for record in games.records:
        if add(rule_problems(record, game.with_mode(record.mode), words, settings["seed"], GAMES_FILE)):
            return result

    try:
        timings = read_file(folder / TIMINGS_FILE, "timings")
    except ResultsError as error:
        add([str(error)])
        return result
    if timings.meta != games.meta:
        add([f"{TIMINGS_FILE}: its metadata line differs from {GAMES_FILE}'s"])
    if [r.key for r in timings.records] != [r.key for r in games.records]:
        add([f"{TIMINGS_FILE}: does not list the same games, in the same order, as {GAMES_FILE}"])
        return result

    try:
        stored = read_json_object(folder / SUMMARY_FILE)
    except ResultsError as error:
        add([str(error)])
        return result
    for key in ("command", "settings", "provenance", CONVERTED_KEY):
        if stored.get(key) != games.meta.get(key):
            add([f"{SUMMARY_FILE}: '{key}' differs from {GAMES_FILE}'s metadata"])
    unknown = sorted(set(stored) - SUMMARY_KEYS)
    if unknown:
        add([f"{SUMMARY_FILE}: holds '{unknown[0]}', which no tournament writes"])
    add(session_problems(stored))
    files = stored.get("files") if isinstance(stored.get("files"), dict) else {}
    for name in (GAMES_FILE, TIMINGS_FILE):
        if files.get(name) != sha256_file(folder / name):
            add([f"{SUMMARY_FILE}: the SHA-256 it records for {name} does not match the file"])
    timed = [replace(g, seconds=t.seconds) for g, t in zip(games.records, timings.records)]
    summary = summarise(timed, settings["agents"], settings["modes"], max_guesses)
    differences = _summary_differences(stored.get("summary"), summary.to_dict())
    if differences:
        add([f"{SUMMARY_FILE}: {d}" for d in differences[:5]])
    else:
        try:
            report = read_results_bytes(folder / REPORT_FILE).decode("utf-8")
        except (ResultsError, UnicodeDecodeError):
            report = None
        try:
            expected_report = markdown_report(stored, summary)
        except (KeyError, TypeError, IndexError, AttributeError, ValueError):
            expected_report = None
        if report is None or report != expected_report:
            add([f"{REPORT_FILE}: missing, or not the report that {SUMMARY_FILE} and the games make"])
    if replay and not result.problems:
        add(play_again(games.records, settings, words, GAMES_FILE, replay_sample, on_replay))
        result.replayed = len(games.records) if replay_sample is None else min(replay_sample, len(games.records))
    return result
