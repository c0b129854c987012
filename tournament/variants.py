"""Tournaments of the variants (several boards, other word lengths, Fibble): play, record, summarise, verify.

One row a game in `games.csv` (kind `variant-games`), under a metadata line that records the
variant, the agents' settings, the seed and how many games, the word lists' checksum and the
provenance, so that `verify` re-checks every reply by the readable `wordle.feedback` and, with
`--replay`, plays every game again move for move. Timings go to `timings.csv`, the figures to
`summary.json` and `report.md`. While a run plays, each finished game is appended to `journal.csv`
and flushed; `--resume` plays only the games it lacks, and the journal is removed once the files are
written. A game's answers (one a board, different boards different words)
and Fibble's lies are drawn from the run seed and the game's number alone. Guesses: lower is
better; a lost game counts as the guess limit plus one in the mean.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from agents.variant_players import VariantPlayer, make_variant_player
from plumbing.errors import UserError
from plumbing.storage import FolderLock, prepare_folder, results_record, write_atomically
from variants import Boards, Fibble, Variant
from wordle import Wordle, feedback, format_pattern, parse_pattern, violation
from wordle.feedback import all_green, decode_colours

from .records import ResultsError, header_line, read_json_object, read_results_bytes

KIND = "variant-games"
COLUMNS = ("agent", "mode", "game", "answers", "turns", "guesses", "replies", "won", "nodes", "error")
#: The journal of a run under way: one flushed line a finished game, its seconds last; removed when the run is written.
JOURNAL_KIND, JOURNAL_FILE = "variant-journal", "journal.csv"
JOURNAL_COLUMNS = COLUMNS + ("seconds",)
#: Second seed words of the streams a variant game draws from.
ANSWER_STREAM, AGENT_STREAM, LIE_STREAM = 0x56414E53, 0x5641474E, 0x56414C49
#: A board solved before a guess shows this in that guess's reply.
SOLVED_MARK = "."


@dataclass(frozen=True)
class VariantRecord:
    """One finished variant game: who played, its number, the answers (one a board), guesses, replies (one pattern a board, None once solved)."""

    agent: str
    mode: str
    game: int
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    replies: tuple[tuple[int | None, ...], ...]
    won: bool
    nodes: int
    error: str = ""


def variant_game(variant: Variant, rules: Wordle) -> Boards | Fibble:
    """The game of `variant` over `rules` (the lists of its word length)."""
    return Fibble(rules) if variant.fibble else Boards(rules, variant.boards)


def deal(variant: Variant, answer_count: int, seed: int, number: int) -> tuple[int, ...]:
    """Game `number`'s answers under run seed `seed`: one a board, all different, drawn by their own stream."""
    rng = np.random.default_rng([seed, ANSWER_STREAM, number])
    return tuple(int(a) for a in rng.choice(answer_count, size=variant.boards, replace=False))


def agent_rng(seed: int, number: int) -> np.random.Generator:
    """The generator the Guesser of game `number` gets."""
    return np.random.default_rng([seed, AGENT_STREAM, number])


def lie_rng(seed: int, number: int) -> np.random.Generator:
    """The generator Fibble's Indicator draws game `number`'s lies from."""
    return np.random.default_rng([seed, LIE_STREAM, number])


def play_game(game: Boards | Fibble, variant: Variant, player: VariantPlayer, hard: bool, seed: int,
              number: int) -> VariantRecord:
    """Play game `number` of a run: its answers, the player's guesses, the Indicator's replies."""
    words = game.rules.words
    answers = deal(variant, len(words.answers), seed, number)
    rng, nodes = agent_rng(seed, number), 0

    def choose(state) -> int:
        """The player's guess, its search nodes counted."""
        nonlocal nodes
        decision = player.decide(state, rng)
        nodes += decision.nodes
        return decision.guess

    if isinstance(game, Fibble):
        played = game.play(choose, answers[0], lie_rng(seed, number), variant.limit)
        replies = tuple((pattern,) for _, pattern in played.history)
    else:
        played = game.play(choose, answers, variant.limit, hard=hard)
        replies = tuple(reply for _, reply in played.history)
    return VariantRecord(agent=player.name, mode="hard" if hard else "normal", game=number,
                         answers=tuple(words.answers[a] for a in answers),
                         guesses=tuple(words.guesses[g] for g, _ in played.history), replies=replies,
                         won=played.won, nodes=nodes)


# -- files ----------------------------------------------------------------------------------
def reply_text(reply: tuple[int | None, ...], length: int) -> str:
    """One guess's reply: each board's pattern as letters, '/' between boards, '.' for a board already solved."""
    return "/".join(SOLVED_MARK if p is None else format_pattern(p, length=length) for p in reply)


def row_of(record: VariantRecord, length: int) -> list[str]:
    """A record as CSV fields."""
    return [record.agent, record.mode, str(record.game), " ".join(record.answers), str(len(record.guesses)),
            " ".join(record.guesses), " ".join(reply_text(r, length) for r in record.replies),
            "1" if record.won else "0", str(record.nodes), record.error]


def csv_text(kind: str, meta: dict[str, Any], columns: tuple[str, ...], rows: list[list[str]]) -> str:
    """A results file: the metadata line, the header, the rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return header_line(kind, meta) + out.getvalue()


def parse_rows(path: Path, lines: list[str], variant: Variant, columns: tuple[str, ...], first: int
               ) -> tuple[list[VariantRecord], list[float]]:
    """The records (and, for a journal, each game's seconds) of a file's CSV lines; ResultsError naming a bad line.

    Args:
        lines: the header then the rows (the metadata line already taken off).
        columns: COLUMNS, or JOURNAL_COLUMNS (a last column of seconds).
        first: the line number of the header, for the messages.
    """
    rows = list(csv.reader(lines))
    if not rows or tuple(rows[0]) != columns:
        raise ResultsError(f"{path}, line {first}: the header is not {','.join(columns)}")
    records, seconds = [], []
    for number, row in enumerate(rows[1:], start=first + 1):
        try:
            fields = dict(zip(columns, row, strict=True))
            replies = tuple(tuple(None if mark == SOLVED_MARK else parse_pattern(mark, variant.length)
                                  for mark in reply.split("/")) for reply in fields["replies"].split())
            guesses = tuple(fields["guesses"].split())
            if int(fields["turns"]) != len(guesses) or len(replies) != len(guesses) or fields["won"] not in ("0", "1"):
                raise ValueError("turns, guesses and replies disagree")
            records.append(VariantRecord(fields["agent"], fields["mode"], int(fields["game"]),
                                         tuple(fields["answers"].split()), guesses, replies, fields["won"] == "1",
                                         int(fields["nodes"]), fields["error"]))
            if "seconds" in fields:
                seconds.append(float(fields["seconds"]))
        except (ValueError, TypeError) as error:
            raise ResultsError(f"{path}, line {number}: not a game ({error})") from None
    return records, seconds


def read_meta(path: Path, kind: str, text: str) -> tuple[dict[str, Any], Variant, list[str]]:
    """A file's metadata line (of `kind`), the variant it names, and its other lines."""
    lines = text.splitlines()
    prefix = f"# wordle-arena {kind} v1 "
    if not lines or not lines[0].startswith(prefix):
        raise ResultsError(f"{path}, line 1: not a variant {'games' if kind == KIND else 'journal'} file")
    try:
        meta = json.loads(lines[0][len(prefix):])
        variant = Variant.from_settings(meta["settings"]["variant"])
    except (ValueError, KeyError, TypeError) as error:
        raise ResultsError(f"{path}, line 1: the metadata names no variant ({error})") from None
    return meta, variant, lines[1:]


def read_games(path: Path) -> tuple[dict[str, Any], list[VariantRecord]]:
    """A variant games.csv: its metadata and records; ResultsError naming the line on anything malformed."""
    meta, variant, lines = read_meta(path, KIND, read_results_bytes(path).decode("utf-8", errors="replace"))
    records, _ = parse_rows(path, lines, variant, COLUMNS, 2)
    return meta, records


def read_journal(path: Path) -> tuple[dict[str, Any], list[VariantRecord], list[float], int]:
    """A run's journal: its metadata, the games it finished, their seconds, and the bytes of its complete lines.

    A last line cut off by a crash (no newline at its end) is dropped: that game is played again.
    """
    data = read_results_bytes(path)
    complete = data[: data.rfind(b"\n") + 1]
    meta, variant, lines = read_meta(path, JOURNAL_KIND, complete.decode("utf-8", errors="replace"))
    records, seconds = parse_rows(path, lines, variant, JOURNAL_COLUMNS, 2)
    return meta, records, seconds, len(complete)


# -- summary --------------------------------------------------------------------------------
def summarise(records: list[VariantRecord], limit: int, seconds: dict[tuple[str, str, int], float] | None = None
              ) -> dict[str, dict[str, Any]]:
    """Per agent and mode: games, wins, win rate, mean guesses (a loss counts limit + 1), mean guesses of the wins, seconds a game."""
    summary: dict[str, dict[str, Any]] = {}
    for key in sorted({(r.agent, r.mode) for r in records}, key=lambda k: (k[1], k[0])):
        mine = [r for r in records if (r.agent, r.mode) == key]
        wins = [len(r.guesses) for r in mine if r.won]
        scores = [len(r.guesses) if r.won else limit + 1 for r in mine]
        entry = {"games": len(mine), "won": len(wins), "win_rate": round(len(wins) / len(mine), 6),
                 "mean_guesses": round(sum(scores) / len(scores), 6),
                 "mean_guesses_won": round(sum(wins) / len(wins), 6) if wins else None,
                 "errors": sum(1 for r in mine if r.error)}
        if seconds is not None:
            times = [seconds[(r.agent, r.mode, r.game)] for r in mine if (r.agent, r.mode, r.game) in seconds]
            entry["seconds_per_game"] = round(sum(times) / len(times), 6) if times else None
        summary[f"{key[0]} {key[1]}"] = entry
    return summary


def report(variant: Variant, summary: dict[str, dict[str, Any]], meta: dict[str, Any]) -> str:
    """The run as a markdown table."""
    lines = [f"# {variant.name}: {variant.boards} board(s), {variant.length} letters, {variant.limit} guesses", "",
             f"`{meta['command']}`; {meta['settings']['games']} games a player, seed {meta['settings']['seed']}.", "",
             "| agent | mode | games | won | win rate | mean guesses (loss = limit + 1) | mean guesses, wins | s/game |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for key, e in summary.items():
        agent, mode = key.split()
        won_mean = "-" if e["mean_guesses_won"] is None else f"{e['mean_guesses_won']:.3f}"
        per_game = "-" if e.get("seconds_per_game") is None else f"{e['seconds_per_game']:.3f}"
        lines.append(f"| {agent} | {mode} | {e['games']} | {e['won']} | {100 * e['win_rate']:.1f}% | "
                     f"{e['mean_guesses']:.3f} | {won_mean} | {per_game} |")
    machine = meta["provenance"]["machine"]
    lines += ["", f"Timings on {machine['cpu']} ({machine['cores']} cores), shared with other work: under load."]
    return "\n".join(lines) + "\n"


# -- the run --------------------------------------------------------------------------------
class VariantRunError(UserError):
    """A run folder that cannot be started or resumed as asked."""


def holds_variant_run(folder: Path) -> bool:
    """Whether `folder` holds a variant run, finished (games.csv) or under way (the journal)."""
    return os.path.lexists(folder / JOURNAL_FILE) or is_variant_folder(folder)


def resumed_games(folder: Path, settings: dict[str, Any]) -> tuple[list[VariantRecord], list[float], int | None,
                                                                   list[dict[str, Any]]]:
    """The games a folder already holds for `settings`: its journal's (with their seconds and complete length), or a
    finished run's (then the length is None); and the provenance of the sessions that played them.

    Raises:
        VariantRunError: the folder holds nothing to resume, or a run of other settings.
        ResultsError: a file there is malformed.
    """
    if os.path.lexists(folder / JOURNAL_FILE):
        meta, records, seconds, complete = read_journal(folder / JOURNAL_FILE)
    elif is_variant_folder(folder):
        meta, records = read_games(folder / "games.csv")
        timings = {}
        if os.path.lexists(folder / "timings.csv"):
            for row in csv.reader(read_results_bytes(folder / "timings.csv").decode("utf-8").splitlines()[2:]):
                timings[(row[0], row[1], int(row[2]))] = float(row[3])
        seconds, complete = [timings.get((r.agent, r.mode, r.game), 0.0) for r in records], None
    else:
        raise VariantRunError(f"{folder} holds no variant tournament to resume; leave out --resume to start one there")
    if meta["settings"] != settings:
        different = sorted(key for key in set(settings) | set(meta["settings"])
                           if settings.get(key) != meta["settings"].get(key))
        raise VariantRunError(f"cannot resume {folder}: it was played with other settings ({', '.join(different)})")
    return records, seconds, complete, meta.get("sessions", [meta["provenance"]])


def run_tournament(variant: Variant, rules: Wordle, players: dict[str, dict[str, Any]], modes: tuple[str, ...],
                   games: int, seed: int, folder: str | Path, command: str, resume: bool = False,
                   on_game: Callable[[VariantRecord], None] = lambda record: None) -> dict[str, Any]:
    """Play `games` seeded games of `variant` for every player and mode; write the run folder; return the summary.

    Each finished game is appended to the folder's journal and flushed, so an interrupt or a crash loses
    none; `resume` plays only the games the journal (or a finished run) lacks, with the same settings.

    Args:
        players: agent name -> the parameters given to it (None: its default).
        modes: "normal" and/or "hard" (hard: one board only).
        resume: continue the run in `folder`; without it a folder holding a run is refused.

    Raises:
        VariantRunError: a folder holding a run without `resume`, nothing to resume, or other settings.
        FolderBusy: another process is writing the folder.
    """
    folder = prepare_folder(folder)
    lock = FolderLock(folder)
    lock.acquire(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    try:
        return _run_in_folder(variant, rules, players, modes, games, seed, folder, command, resume, on_game)
    finally:
        lock.release()


def _run_in_folder(variant: Variant, rules: Wordle, players: dict[str, dict[str, Any]], modes: tuple[str, ...],
                   games: int, seed: int, folder: Path, command: str, resume: bool,
                   on_game: Callable[[VariantRecord], None]) -> dict[str, Any]:
    """run_tournament's work, the folder locked."""
    if holds_variant_run(folder) and not resume:
        raise VariantRunError(f"{folder} already holds a variant tournament; add --resume to continue it, "
                              "or choose another --out")
    provenance = results_record(command, seed, rules.words.checksum)  # the code that plays, taken before it plays
    session = {k: v for k, v in provenance.items() if k not in ("command", "seed")}
    game = variant_game(variant, rules)
    built = {name: make_variant_player(name, game, variant, **given) for name, given in players.items()}
    settings = {"variant": variant.settings(), "games": games, "seed": seed, "modes": list(modes),
                "agent_settings": {name: player.settings() for name, player in built.items()}}
    records, seconds, sessions = [], {}, []
    complete = None
    if resume:
        done, spent, complete, sessions = resumed_games(folder, settings)
        records = list(done)
        seconds = {(r.agent, r.mode, r.game): s for r, s in zip(done, spent)}
    sessions = [*sessions, session]
    meta = {"command": command, "settings": settings, "provenance": sessions[0], "sessions": sessions}
    played = {(r.agent, r.mode, r.game) for r in records}
    wanted = [(mode, name, number) for mode in modes for name in built for number in range(games)]
    if resume and complete is None and all((name, mode, number) in played for mode, name, number in wanted):
        return summarise(records, variant.limit, seconds)  # a finished run: nothing to play, nothing rewritten
    journal_path = folder / JOURNAL_FILE
    if complete is None:  # a new journal (or a finished run's games carried into one)
        with open(journal_path, "w", encoding="utf-8", newline="") as out:
            out.write(csv_text(JOURNAL_KIND, meta, JOURNAL_COLUMNS,
                               [row_of(r, variant.length) + [f"{seconds[(r.agent, r.mode, r.game)]:.6f}"]
                                for r in records]))
    else:
        os.truncate(journal_path, complete)
    with open(journal_path, "a", encoding="utf-8", newline="") as journal:
        for mode, name, number in wanted:
            if (name, mode, number) in played:
                continue
            start = time.perf_counter()
            record = play_game(game, variant, built[name], mode == "hard", seed, number)
            seconds[(name, mode, number)] = time.perf_counter() - start
            records.append(record)
            csv.writer(journal, lineterminator="\n").writerow(
                row_of(record, variant.length) + [f"{seconds[(name, mode, number)]:.6f}"])
            journal.flush()
            on_game(record)
        os.fsync(journal.fileno())
    order = {key: index for index, key in enumerate(wanted)}
    records.sort(key=lambda r: order[(r.mode, r.agent, r.game)])
    summary = summarise(records, variant.limit, seconds)
    write_atomically(folder / "games.csv", csv_text(KIND, meta, COLUMNS, [row_of(r, variant.length) for r in records]))
    write_atomically(folder / "timings.csv", csv_text("variant-timings", meta, ("agent", "mode", "game", "seconds"),
                                                      [[r.agent, r.mode, str(r.game),
                                                        f"{seconds[(r.agent, r.mode, r.game)]:.6f}"] for r in records]))
    write_atomically(folder / "summary.json", json.dumps({**meta, "summary": summary}, indent=2, sort_keys=True) + "\n")
    write_atomically(folder / "report.md", report(variant, summary, meta))
    journal_path.unlink()
    return summary


# -- verify ---------------------------------------------------------------------------------
def is_variant_folder(folder: str | Path) -> bool:
    """Whether a run folder holds a variant tournament (its games.csv, a regular file, says so on its first line).

    Anything else there (a FIFO, a folder) is left to the plain tournament's checked reader to refuse in one line.
    """
    path = Path(folder) / "games.csv"
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as file:
            return file.readline().startswith(f"# wordle-arena {KIND} ".encode())
    except OSError:
        return False


def recorded_variant(folder: str | Path) -> Variant:
    """The variant a run folder recorded."""
    meta, _ = read_games(Path(folder) / "games.csv")
    return Variant.from_settings(meta["settings"]["variant"])


def rule_problems(record: VariantRecord, variant: Variant, rules: Wordle, seed: int) -> list[str]:
    """Why one recorded game breaks the variant's rules: each reply recomputed by `wordle.feedback` (Fibble: one lie,
    redrawn from the seed), solved boards stopped, the limit, hard mode, the won flag, the answers dealt by the seed."""
    name = f"{record.agent} {record.mode} game {record.game}"
    words, length = rules.words, variant.length
    if any(a not in words.answer_index for a in record.answers) or len(record.answers) != variant.boards:
        return [f"{name}: the answers {' '.join(record.answers)} are not {variant.boards} of the answer list"]
    dealt = tuple(words.answers[a] for a in deal(variant, len(words.answers), seed, record.game))
    problems = [] if dealt == record.answers else [f"{name}: seed {seed} deals {' '.join(dealt)}, not the answers recorded"]
    solved, history, lies = [False] * variant.boards, [], lie_rng(seed, record.game)
    for number, (guess, reply) in enumerate(zip(record.guesses, record.replies), start=1):
        if guess not in words.guess_index:
            return problems + [f"{name}: guess {number} '{guess}' is not an allowed word"]
        if all(solved):
            return problems + [f"{name}: guess {number} comes after every board was solved"]
        if record.mode == "hard" and (broken := violation(guess, history)) is not None:
            problems.append(f"{name}: guess {number} '{guess}' breaks hard mode: {broken}")
        truth = [None if done else feedback(guess, answer) for done, answer in zip(solved, record.answers)]
        if variant.fibble:
            expected = truth[0] if truth[0] == all_green(length) else _lie(truth[0], length, lies)
            if reply[0] != expected:
                problems.append(f"{name}: guess {number} '{guess}' is shown {_text(reply, length)}, the seed's lie "
                                f"is {_text((expected,), length)}")
            if truth[0] != all_green(length) and sum(a != b for a, b in zip(decode_colours(reply[0], length),
                                                                            decode_colours(truth[0], length))) != 1:
                problems.append(f"{name}: guess {number} '{guess}' does not hold exactly one lie")
        elif tuple(truth) != tuple(reply):
            problems.append(f"{name}: guess {number} '{guess}' gets {_text(tuple(truth), length)}, the file says "
                            f"{_text(reply, length)}")
        history.append((guess, truth[0] if truth[0] is not None else all_green(length)))
        solved = [done or t == all_green(length) for done, t in zip(solved, truth)]
    if len(record.guesses) > variant.limit:
        problems.append(f"{name}: {len(record.guesses)} guesses, over the limit of {variant.limit}")
    if record.won != all(solved):
        problems.append(f"{name}: marked {'won' if record.won else 'lost'} but the replies say otherwise")
    if not record.won and not record.error and len(record.guesses) != variant.limit and not problems:
        problems.append(f"{name}: lost after {len(record.guesses)} guesses with no error recorded")
    return problems


def _lie(truth: int, length: int, rng: np.random.Generator) -> int:
    """The next lie the seed's stream draws about `truth`."""
    from variants import draw_lie
    return draw_lie(truth, length, rng)


def _text(reply: tuple[int | None, ...], length: int) -> str:
    """A reply as the file writes it."""
    return reply_text(reply, length)


def verify_folder(folder: str | Path, rules: Wordle, replay: bool = False,
                  replay_sample: int | None = None) -> tuple[int, int, list[str]]:
    """Re-check a variant run folder: every game by the rules, the summary recomputed; with `replay`, every game
    (or `replay_sample` of them, spread evenly over the file) played again by its recorded player and settings,
    move for move. Returns (games, replayed, problems)."""
    folder = Path(folder)
    meta, records = read_games(folder / "games.csv")
    settings = meta["settings"]
    variant, seed = Variant.from_settings(settings["variant"]), int(settings["seed"])
    if meta["provenance"].get("word_lists_sha256") not in (None, rules.words.checksum):
        return len(records), 0, [f"{folder}: recorded with other word lists than the {variant.length}-letter ones here"]
    problems = [p for record in records for p in rule_problems(record, variant, rules, seed)]
    stored = read_json_object(folder / "summary.json").get("summary", {})
    derived = summarise(records, variant.limit)
    for key, entry in derived.items():
        mine = {k: v for k, v in stored.get(key, {}).items() if k != "seconds_per_game"}
        if mine != entry:
            problems.append(f"{folder / 'summary.json'}: {key}: says {mine}, the games say {entry}")
    if set(stored) != set(derived):
        problems.append(f"{folder / 'summary.json'}: lists {sorted(stored)}, the games {sorted(derived)}")
    replayed = 0
    if replay:
        game = variant_game(variant, rules)
        players = {name: make_variant_player(name, game, variant, **given)
                   for name, given in settings["agent_settings"].items()}
        chosen = records if replay_sample is None else records[::max(1, len(records) // replay_sample)][:replay_sample]
        for record in chosen:
            again = play_game(game, variant, players[record.agent], record.mode == "hard", seed, record.game)
            replayed += 1
            if (again.guesses, again.replies, again.won) != (record.guesses, record.replies, record.won):
                problems.append(f"{record.agent} {record.mode} game {record.game}: replayed, it plays "
                                f"{' '.join(again.guesses)}, the file says {' '.join(record.guesses)}")
    return len(records), replayed, problems
