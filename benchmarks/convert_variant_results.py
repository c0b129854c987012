"""Convert a run folder of the removed variants tournament into the one tournament's format, keeping every game.

Run: python benchmarks/convert_variant_results.py DIR [DIR ...]
then: python cli.py verify --replay DIR   (re-plays the converted games move for move)

Before issue 47 the variants (several boards, other lengths, Fibble) had a tournament of their own
(`tournament/variants.py`, removed in commit 2326df7). Its games.csv starts
`# wordle-arena variant-games v1 {...}` and holds the columns agent, mode, game, answers, turns,
guesses, replies, won, nodes, error; its timings.csv (`variant-timings v1`) agent, mode, game,
seconds; its summary.json the command, provenance, the sessions that played it (when resumed),
the settings (the variant's boards, length, fibble flag and guess limit, games, seed, modes and
every agent's settings) and per "agent mode" the games, wins, win rate, mean guesses, mean guesses
of the wins, errors and seconds a game. The one tournament records the same games with the same
seed streams, as `games` / `timings` v1 files of dealt games (the columns renamed: replies to
patterns, won to solved; rows agent first, not mode first).

Each folder is read strictly (every field's type and range, the command's flags against the settings,
every planned game exactly once, timings for the same games, the stored figures recomputed from the
games); anything damaged is refused in one line and nothing is written. Otherwise games.csv,
timings.csv, summary.json, report.md and the charts are written as the one tournament writes them,
with the original command, seed, word-list checksum and each session's provenance (commit and
machine), and a note (`converted`: the old format, this script and its commit). Nothing converted
is trusted: `verify --replay` re-checks every reply by the rules and plays the games again.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.errors import UserError  # noqa: E402
from plumbing.storage import WORD_LISTS_KEY, FolderLock, provenance  # noqa: E402
from tournament.plan import MODES, MOST_GAMES, Plan  # noqa: E402
from tournament.records import GameRecord, parse_row, read_json_object, read_results_bytes  # noqa: E402
from tournament.runner import write_results  # noqa: E402
from tournament.stats import summarise  # noqa: E402
from tournament.verify import GAMES_FILE, SUMMARY_FILE, TIMINGS_FILE  # noqa: E402
from variants import GameSpec, GameSpecError  # noqa: E402

#: The old format, as its files' first line names it.
LEGACY_GAMES, LEGACY_TIMINGS = "variant-games", "variant-timings"
LEGACY_FORMAT = f"wordle-arena {LEGACY_GAMES} v1"
LEGACY_GAME_COLUMNS = ("agent", "mode", "game", "answers", "turns", "guesses", "replies", "won", "nodes", "error")
LEGACY_TIMING_COLUMNS = ("agent", "mode", "game", "seconds")
#: The one tournament's names of the columns the old format named otherwise.
RENAMED = {"replies": "patterns", "won": "solved"}
#: The old command's flags, each with the settings it set; no agent option is among them (so none was given).
COMMAND_FLAGS = ("--boards", "--length", "--indicator", "--agents", "--mode", "--seed", "--sample")
COMMAND_START = "python cli.py tournament"
#: Figures of an old summary entry, and their kind.
LEGACY_FIGURES = ("errors", "games", "mean_guesses", "mean_guesses_won", "seconds_per_game", "win_rate", "won")


class ConversionError(UserError):
    """An old run folder that is damaged or not of the old format; the message names the file and line."""


def whole(value: Any, least: int, most: int) -> bool:
    """Whether `value` is a whole number (not a bool) from `least` to `most`."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def read_legacy(path: Path, kind: str, columns: tuple[str, ...]) -> tuple[dict[str, Any], list[tuple[int, dict[str, str]]]]:
    """An old results file of `kind`: its metadata and its rows (line number, fields by column), checked as text."""
    data = read_results_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConversionError(f"{path}: is not UTF-8 text") from None
    if not text:
        raise ConversionError(f"{path}: is empty")
    if not text.endswith("\n"):
        raise ConversionError(f"{path}: the last line is cut off")
    lines = text.splitlines()
    prefix = f"# wordle-arena {kind} v1 "
    if not lines[0].startswith(prefix):
        raise ConversionError(f"{path}, line 1: not a file of the removed variants tournament ({kind} v1)")
    try:
        meta = json.loads(lines[0][len(prefix):])
    except (ValueError, RecursionError):
        raise ConversionError(f"{path}, line 1: the metadata is not valid JSON") from None
    if not isinstance(meta, dict):
        raise ConversionError(f"{path}, line 1: the metadata is not a JSON object")
    if len(lines) < 2 or lines[1] != ",".join(columns):
        raise ConversionError(f"{path}, line 2: the column header should be {','.join(columns)}")
    rows = []
    for number, line in enumerate(lines[2:], start=3):
        fields = next(csv.reader([line]), [])
        if len(fields) != len(columns):
            raise ConversionError(f"{path}, line {number}: {len(fields)} fields, expected {len(columns)}")
        rows.append((number, dict(zip(columns, fields))))
    return meta, rows


def checked_provenance(value: Any, where: str) -> dict[str, Any]:
    """One session's provenance as the old tournament recorded it (commit, dirty, machine, versions, checksum)."""
    ok = (isinstance(value, dict) and set(value) == {"commit", "dirty", "machine", "versions", WORD_LISTS_KEY}
          and isinstance(value["commit"], str) and re.fullmatch(r"[0-9a-f]{40}|unknown", value["commit"]) is not None
          and isinstance(value["dirty"], (bool, type(None)))
          and isinstance(value["machine"], dict) and isinstance(value["machine"].get("cpu"), str)
          and whole(value["machine"].get("cores"), 1, 100_000)
          and isinstance(value["versions"], dict) and all(isinstance(v, str) for v in value["versions"].values())
          and isinstance(value[WORD_LISTS_KEY], str) and re.fullmatch(r"[0-9a-f]{64}", value[WORD_LISTS_KEY]))
    if not ok:
        raise ConversionError(f"{where}: a provenance is not the commit, dirty flag, machine, versions and "
                              "word-list checksum the old tournament recorded")
    return value


def command_settings(command: Any, where: str) -> dict[str, str]:
    """The old command's flags and values; refused when it is not a variant tournament's or gives an agent option."""
    if not isinstance(command, str) or not command.startswith(COMMAND_START + " "):
        raise ConversionError(f"{where}: the command is not a `{COMMAND_START}` command line")
    try:
        words = shlex.split(command[len(COMMAND_START):])
    except ValueError:
        raise ConversionError(f"{where}: the command is not a command line") from None
    flags = dict(zip(words[::2], words[1::2]))
    if len(words) % 2 or len(flags) != len(words) // 2 or any(flag not in COMMAND_FLAGS for flag in flags):
        raise ConversionError(f"{where}: the command holds flags other than {', '.join(COMMAND_FLAGS)} once each "
                              "with a value (an agent option this converter cannot record)")
    return flags


def new_settings(meta: dict[str, Any], agents: tuple[str, ...], where: str) -> tuple[dict[str, Any], GameSpec]:
    """The one tournament's settings for an old run's metadata, and its game; every old field checked first."""
    settings = meta.get("settings")
    if not isinstance(settings, dict) or set(settings) != {"agent_settings", "games", "modes", "seed", "variant"}:
        raise ConversionError(f"{where}: the metadata's settings are not the old tournament's (agent_settings, games, "
                              "modes, seed, variant)")
    variant, games, seed, modes = settings["variant"], settings["games"], settings["seed"], settings["modes"]
    full = settings["agent_settings"]
    if not isinstance(variant, dict) or set(variant) != {"boards", "fibble", "length", "max_guesses"} \
            or not isinstance(variant["fibble"], bool):
        raise ConversionError(f"{where}: the metadata's variant is not boards, fibble, length and max_guesses")
    try:
        game = GameSpec(boards=variant["boards"], length=variant["length"], lies=int(variant["fibble"]),
                        max_guesses=variant["max_guesses"])
    except GameSpecError as error:
        raise ConversionError(f"{where}: the metadata's variant names no game ({error})") from None
    if not whole(games, 1, MOST_GAMES) or not whole(seed, 0, 2**63 - 1):
        raise ConversionError(f"{where}: the metadata's games or seed is not a whole number in range")
    if not isinstance(modes, list) or not modes or len(set(modes)) != len(modes) or any(m not in MODES for m in modes) \
            or [m for m in MODES if m in modes] != modes or (modes != ["normal"] and not (game.boards == 1 and not game.lies)):
        raise ConversionError(f"{where}: the metadata's modes are not normal and/or hard, in that order, for {game.name}")
    if not isinstance(full, dict) or set(full) != set(agents) or not all(isinstance(v, dict) for v in full.values()):
        raise ConversionError(f"{where}: the metadata's agent_settings are not one object for each agent that played")
    flags = command_settings(meta.get("command"), where)
    typed = {"--boards": str(game.boards) if game.boards != 1 else None,
             "--length": str(game.length) if game.length != 5 else None,
             "--indicator": "fibble" if game.lies else None, "--agents": ",".join(agents),
             "--mode": "both" if len(modes) == 2 else modes[0], "--seed": str(seed), "--sample": str(games)}
    if (wrong := next((flag for flag, value in typed.items() if flags.get(flag, value) != value
                       or (value is None and flag in flags)), None)) is not None:
        raise ConversionError(f"{where}: the command's {wrong} disagrees with the metadata's settings")
    sessions = meta.get("sessions", [meta.get("provenance")])
    if not isinstance(sessions, list) or not sessions or sessions[0] != meta.get("provenance"):
        raise ConversionError(f"{where}: the metadata's sessions do not start with its provenance")
    checksums = {checked_provenance(p, where)[WORD_LISTS_KEY] for p in sessions}
    if len(checksums) != 1:
        raise ConversionError(f"{where}: the sessions name different word lists")
    return {
        "agents": list(agents), "modes": list(modes), "seed": seed, "options": {}, "agent_settings": full,
        "sample": games, "answers_played": games, "max_guesses": game.max_guesses,
        "words": {WORD_LISTS_KEY: checksums.pop(), "answers_file": None, "guesses_file": None},
        "game": game.shape(),
    }, game


def legacy_figures(records: list[GameRecord], seconds: dict[tuple[str, str, str], float], limit: int
                   ) -> dict[str, dict[str, Any]]:
    """Per "agent mode", the figures the old tournament's summary held, recomputed as it computed them."""
    figures: dict[str, dict[str, Any]] = {}
    for agent, mode in sorted({(r.agent, r.mode) for r in records}, key=lambda key: (key[1], key[0])):
        mine = [r for r in records if (r.agent, r.mode) == (agent, mode)]
        wins = [r.turns for r in mine if r.solved]
        scores = [r.turns if r.solved else limit + 1 for r in mine]
        times = [seconds[r.key] for r in mine]
        figures[f"{agent} {mode}"] = {
            "games": len(mine), "won": len(wins), "win_rate": round(len(wins) / len(mine), 6),
            "mean_guesses": round(sum(scores) / len(scores), 6),
            "mean_guesses_won": round(sum(wins) / len(wins), 6) if wins else None,
            "errors": sum(1 for r in mine if r.error), "seconds_per_game": round(sum(times) / len(times), 6)}
    return figures


def close(a: Any, b: Any) -> bool:
    """Whether two figures agree (seconds to the microsecond the files keep)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, abs_tol=2e-6)
    return a == b


def convert_folder(folder: Path) -> dict[str, Any]:
    """Convert one old run folder in place; returns what was converted (games, the figures before and after).

    Raises:
        ConversionError, ResultsError: a folder not of the old format, or damaged (nothing is written then).
    """
    games_path, timings_path = folder / GAMES_FILE, folder / TIMINGS_FILE
    meta, rows = read_legacy(games_path, LEGACY_GAMES, LEGACY_GAME_COLUMNS)
    timing_meta, timing_rows = read_legacy(timings_path, LEGACY_TIMINGS, LEGACY_TIMING_COLUMNS)
    if timing_meta != meta:
        raise ConversionError(f"{timings_path}, line 1: its metadata differs from {GAMES_FILE}'s")
    agents = tuple(dict.fromkeys(row["agent"] for _, row in rows))
    settings, game = new_settings(meta, agents, f"{games_path}, line 1")
    records = []
    for number, row in rows:
        renamed = {RENAMED.get(column, column): value for column, value in row.items()}
        records.append(parse_row(renamed, "games", f"{games_path}, line {number}", game.length))
    planned = [(agent, mode, str(n)) for agent in agents for mode in settings["modes"] for n in range(settings["sample"])]
    if sorted(r.key for r in records) != sorted(planned):
        raise ConversionError(f"{games_path}: does not hold each of the {len(planned)} planned games exactly once")
    if [(row["agent"], row["mode"], row["game"]) for _, row in timing_rows] != [r.key for r in records]:
        raise ConversionError(f"{timings_path}: does not list the same games, in the same order, as {GAMES_FILE}")
    seconds = {r.key: parse_row(row, "timings", f"{timings_path}, line {number}").seconds
               for r, (number, row) in zip(records, timing_rows)}
    stored = read_json_object(folder / SUMMARY_FILE)
    if {key: stored.get(key) for key in meta} != meta or set(stored) != set(meta) | {"summary"}:
        raise ConversionError(f"{folder / SUMMARY_FILE}: its command, provenance and settings are not {GAMES_FILE}'s")
    before = stored["summary"]
    recomputed = legacy_figures(records, seconds, game.max_guesses)  # type: ignore[arg-type]
    if not isinstance(before, dict) or before.keys() != recomputed.keys() or any(
            not isinstance(before[key], dict) or before[key].keys() != set(LEGACY_FIGURES)
            or not all(close(before[key][f], recomputed[key][f]) for f in LEGACY_FIGURES) for key in recomputed):
        raise ConversionError(f"{folder / SUMMARY_FILE}: its figures are not the ones its games make")
    plan = Plan(agents=agents, modes=tuple(settings["modes"]), games=tuple(range(settings["sample"])),
                seed=settings["seed"], options=(), sample=settings["sample"], game=game,
                checksum=settings["words"][WORD_LISTS_KEY], agent_settings=settings["agent_settings"],
                command_line=meta["command"])
    if plan.settings() != settings:
        raise ConversionError(f"{games_path}: the settings do not make a plan of the one tournament")  # a bug, not input
    rank = {key: i for i, key in enumerate(planned)}
    ordered = tuple(sorted((replace(r, seconds=seconds[r.key]) for r in records), key=lambda r: rank[r.key]))
    summary = summarise(ordered, agents, plan.modes, plan.max_guesses)
    sessions = [{"provenance": p} for p in meta.get("sessions", [meta["provenance"]])]
    note = {"format": LEGACY_FORMAT, "by": "benchmarks/convert_variant_results.py", "commit": provenance()["commit"]}
    lock = FolderLock(folder)
    lock.acquire("converting")
    try:
        write_results(folder, plan, None, ordered, sessions, summary, converted=note)
    finally:
        lock.release()
    return {"folder": str(folder), "games": len(ordered), "before": before,
            "after": {f"{s.agent} {s.mode}": {"games": s.games, "won": s.solved, "mean": round(s.mean, 6),
                                               "seconds_per_game": round(s.seconds_per_game or 0.0, 6)}
                      for s in summary.results}}


def main(argv: list[str] | None = None) -> int:
    """Convert each folder named; one line each, and one line on stderr (exit 2) for a folder refused."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="run folders of the removed variants tournament")
    args = parser.parse_args(argv)
    failed = False
    for folder in args.folders:
        try:
            done = convert_folder(folder)
        except UserError as error:
            print(f"convert_variant_results: {error}", file=sys.stderr)
            failed = True
            continue
        figures = "; ".join(f"{key}: {v['won']}/{v['games']} won, mean {v['mean']:.6g}, {v['seconds_per_game']:.6g} s/game"
                            for key, v in done["after"].items())
        print(f"{folder}: {done['games']} games converted from {LEGACY_FORMAT} ({figures}); now run "
              f"python cli.py verify --replay {folder}")
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
