"""Doddle's simultaneous solver on the answer sets of one of our variant tournaments: win rate, mean guesses, time.

Run with Doddle's own environment, never ours (Doddle needs numpy < 2 and is no dependency):
    python -m venv /tmp/doddle-venv && /tmp/doddle-venv/bin/pip install "numpy<2" <Doddle checkout>
    DODDLE_COMMIT=847d89d /tmp/doddle-venv/bin/python benchmarks/compare_doddle.py DIR... [--count N] [--solvers S]
It reads the answer sets each games.csv recorded (every player of a run met the same ones), the
first N of them if N is given, plays each
with Doddle's minimax and entropy simultaneous solvers (its defaults otherwise: depth 1, its own
opener), and writes DIR/doddle.json: per solver, games, wins within the variant's guess limit (Doddle
plays on past it), mean guesses (a game over the limit counts as the limit plus one, as ours), and
seconds per game (its set-up timed apart), with Doddle's version and the machine; beside them our players'
figures on the same sets, read from the run's games.csv and timings.csv, and the ratio of the seconds a
game. `benchmarks/compare_doddle.sh` plays our run and Doddle's back to back, so both are timed under the
same load. Guesses: lower is better.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import time
from pathlib import Path

from doddle import Doddle  # Doddle's environment only


def answer_sets(folder: Path) -> tuple[dict, list[list[str]]]:
    """The run's metadata and its answer sets, in game order (one per game number)."""
    lines = (folder / "games.csv").read_text(encoding="utf-8").splitlines()
    meta = json.loads(lines[0].split(" ", 4)[4])
    sets: dict[int, list[str]] = {}
    for row in csv.DictReader(lines[1:]):
        sets.setdefault(int(row["game"]), row["answers"].split())
    return meta, [sets[number] for number in sorted(sets)]


def our_figures(folder: Path, count: int, limit: int) -> dict:
    """Each of our players' figures on the first `count` answer sets of the run: won, mean guesses, seconds a game."""
    games = list(csv.DictReader((folder / "games.csv").read_text(encoding="utf-8").splitlines()[1:]))
    timings = list(csv.DictReader((folder / "timings.csv").read_text(encoding="utf-8").splitlines()[1:]))
    seconds = {(row["agent"], row["mode"], int(row["game"])): float(row["seconds"]) for row in timings}
    found = {}
    for agent in dict.fromkeys(row["agent"] for row in games):
        mine = [row for row in games if row["agent"] == agent and int(row["game"]) < count]
        scores = [int(row["turns"]) if row["solved"] == "1" else limit + 1 for row in mine]
        times = [seconds[(agent, row["mode"], int(row["game"]))] for row in mine]
        found[agent] = {"games": len(mine), "won": sum(row["solved"] == "1" for row in mine),
                        "mean_guesses": round(sum(scores) / len(scores), 6),
                        "seconds_per_game": round(sum(times) / len(times), 6)}
    return found


def game_of(meta: dict) -> dict:
    """The run's game as the one tournament records it: its shape (settings.game) and guess limit."""
    return {**meta["settings"]["game"], "max_guesses": meta["settings"]["max_guesses"]}


def installed_version() -> str:
    """Doddle's version as its environment installed it (the package itself has no __version__)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("doddle")
    except PackageNotFoundError:
        return "unknown"


def cpu_model() -> str:
    """The CPU's model name, from /proc/cpuinfo where there is one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def play_sets(doddle: "Doddle", sets: list[list[str]], limit: int, solver: str, setup: float) -> dict:
    """Play the answer sets with one Doddle solver: wins within `limit`, mean guesses, seconds a game."""
    guesses, seconds = [], []
    for answers in sets:
        start = time.perf_counter()
        board = doddle(answer=[word.upper() for word in answers])
        seconds.append(time.perf_counter() - start)
        guesses.append(max(row.n for row in board.rows))
        print(f"{solver} {' '.join(answers)} {guesses[-1]}", file=sys.stderr)
    wins = [g for g in guesses if g <= limit]
    return {"games": len(sets), "won": len(wins), "win_rate": round(len(wins) / len(sets), 6),
            "mean_guesses": round(sum(g if g <= limit else limit + 1 for g in guesses) / len(sets), 6),
            "mean_guesses_played": round(sum(guesses) / len(guesses), 6),
            "seconds_per_game": round(sum(seconds) / len(seconds), 6), "setup_seconds": round(setup, 3),
            "guesses": guesses}


def main(folders: list[Path], count: int | None, solvers: list[str]) -> None:
    """Play each folder's answer sets (or the first `count`) with each Doddle solver; write DIR/doddle.json in each.

    One Doddle per solver and word length serves every folder, so its set-up (scoring every word
    against every word) is paid once and reported apart.
    """
    runs = {folder: answer_sets(folder) for folder in folders}
    found: dict[Path, dict] = {folder: {} for folder in folders}
    for solver in solvers:
        built: dict[int, tuple[Doddle, float]] = {}
        for folder, (meta, sets) in runs.items():
            variant = game_of(meta)
            if variant["length"] not in built:
                start = time.perf_counter()
                built[variant["length"]] = (Doddle(size=variant["length"], solver_type=solver, lazy_eval=False),
                                            time.perf_counter() - start)
            doddle, setup = built[variant["length"]]
            found[folder][solver] = play_sets(doddle, sets[:count] if count else sets, variant["max_guesses"],
                                              solver, setup)
    for folder, (meta, sets) in runs.items():
        out = {"command": f"python benchmarks/compare_doddle.py {' '.join(map(str, folders))} "
                          f"--count {count} --solvers {','.join(solvers)}",
               "answer_sets_from": str(folder / "games.csv"), "games_compared": len(sets[:count] if count else sets),
               "our_command": meta["command"], "game": game_of(meta),
               "doddle": {"version": os.environ.get("DODDLE_VERSION", installed_version()),
                          "source": "github.com/CatchemAL/Doddle", "commit": os.environ.get("DODDLE_COMMIT", "unknown"),
                          "lazy_eval": False},
               "machine": {"cpu": cpu_model(), "cores": os.cpu_count(),
                           "system": f"{platform.system()} {platform.machine()}", "python": platform.python_version(),
                           "load": "shared with other work: under load"},
               "solvers": found[folder]}
        compared = len(sets[:count] if count else sets)
        ours = our_figures(folder, compared, game_of(meta)["max_guesses"])
        out["ours"] = ours
        out["doddle_seconds_over_ours"] = {
            f"{solver} / {agent}": round(entry["seconds_per_game"] / mine["seconds_per_game"], 3)
            for solver, entry in found[folder].items() for agent, mine in ours.items() if mine["seconds_per_game"] > 0}
        (folder / "doddle.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(folder, json.dumps({solver: {k: v for k, v in entry.items() if k != "guesses"}
                                  for solver, entry in found[folder].items()}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="our variant run folders")
    parser.add_argument("--count", type=int, default=None, help="only the first N answer sets of each")
    parser.add_argument("--solvers", default="minimax,entropy", help="Doddle's solvers to play (minimax, entropy)")
    arguments = parser.parse_args()
    main(arguments.folders, arguments.count, arguments.solvers.split(","))
