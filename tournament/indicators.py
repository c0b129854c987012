"""The Guesser x Indicator matrix: every Guesser against each deterministic Indicator, one game per mode and limit.

A deterministic Indicator's game depends only on the Guesser and the mode, so one game fills
a cell: its guess count, or "not solved within N". Absurdle has no guess limit of its own, so
each cell is played within the tournament's limit and again "unlimited", capped at `cap`
guesses. The matrix is kept in `indicators.json` in the run folder; `verify_matrix` replays
each game and checks every reply against its Indicator's rule.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from agents import game_rng, make_agent
from agents.indicators import INDICATORS, make_indicator, play_with, reply_problems
from search import Wordle, format_pattern, parse_pattern
from search.storage import results_record, write_atomically

MATRIX_FILE = "indicators.json"
#: The Indicators whose games need one play per Guesser and mode (the others draw or hold an answer).
DETERMINISTIC = ("absurdle", "adversary")


def build_indicator(game: Wordle, name: str, depth: int):
    """The Indicator `name`, searching `depth` deep when it searches."""
    takes_depth = any(param.name == "depth" for param in INDICATORS[name].params)
    return make_indicator(name, game, **({"depth": depth} if takes_depth else {}))


def play_cell(game: Wordle, agent_name: str, indicator_name: str, mode: str, limit: int, depth: int,
              settings: dict[str, Any]) -> dict:
    """One game of the Guesser against the Indicator under guess limit `limit`, as a matrix row."""
    agent = make_agent(agent_name, game, strict=False, **settings)
    indicator = build_indicator(game, indicator_name, depth)
    rng = game_rng(0, 0)
    start = time.perf_counter()
    error = ""
    try:
        played = play_with(game, lambda state: agent.decide(state, rng).guess, indicator, rng, hard=(mode == "hard"),
                           max_guesses=limit)
        history, solved = played.final.history, played.solved
    except Exception as raised:  # an agent's failure is this game's result, not the matrix's end
        history, solved, error = (), False, f"{type(raised).__name__}: {raised}"
    return {"agent": agent_name, "indicator": indicator_name, "mode": mode, "limit": limit, "solved": solved,
            "guesses": len(history), "words": [game.words.guesses[g] for g, _ in history],
            "replies": [format_pattern(p) for _, p in history], "error": error,
            "seconds": round(time.perf_counter() - start, 2)}


def cell_text(row: dict) -> str:
    """A cell: the guess count, or 'not solved within N'."""
    return str(row["guesses"]) if row["solved"] else f"not solved within {row['limit']}"


def play_matrix(game: Wordle, agents: list[str], indicators: list[str], modes: list[str], max_guesses: int, cap: int,
                depth: int, settings: dict[str, Any], folder: Path, command: str,
                on_game: Callable[[dict], None] = lambda row: None) -> list[dict]:
    """Play every cell (within `max_guesses`, then capped at `cap`) and keep the matrix in `folder`."""
    unknown = [name for name in indicators if name not in DETERMINISTIC]
    if unknown:
        from search import UserError
        raise UserError(f"the matrix plays deterministic Indicators only ({', '.join(DETERMINISTIC)}); "
                        f"{', '.join(unknown)} is played by the ordinary tournament or by play --indicator")
    head = {**results_record(command, 0, game.words.checksum), "agents": agents, "indicators": indicators,
            "modes": modes, "max_guesses": max_guesses, "cap": cap, "depth": depth, "settings": settings}
    rows: list[dict] = []
    folder.mkdir(parents=True, exist_ok=True)
    for agent_name in agents:
        for indicator in indicators:
            for mode in modes:
                for limit in dict.fromkeys((max_guesses, cap)):
                    rows.append(play_cell(game, agent_name, indicator, mode, limit, depth, settings))
                    on_game(rows[-1])
                    write_atomically(folder / MATRIX_FILE, json.dumps({**head, "games": rows}, indent=1) + "\n")
    return rows


def verify_matrix(game: Wordle, folder: Path) -> tuple[int, list[str]]:
    """Replay every game of a kept matrix: the same moves again, each reply by its Indicator's rule; (games, problems)."""
    stored = json.loads((folder / MATRIX_FILE).read_text())
    problems = []
    for row in stored["games"]:
        name = f"{row['agent']} vs {row['indicator']} {row['mode']} limit {row['limit']}"
        history = tuple((game.words.guess_index[w], parse_pattern(p)) for w, p in zip(row["words"], row["replies"]))
        indicator = build_indicator(game, row["indicator"], stored["depth"])
        problems += [f"{name}: {why}" for why in reply_problems(game, indicator, history, row["mode"] == "hard",
                                                                row["limit"])]
        again = play_cell(game, row["agent"], row["indicator"], row["mode"], row["limit"], stored["depth"],
                          stored["settings"])
        if (again["words"], again["replies"], again["solved"]) != (row["words"], row["replies"], row["solved"]):
            problems.append(f"{name}: replayed as {' '.join(again['words'])}, recorded {' '.join(row['words'])}")
    return len(stored["games"]), problems


def matrix_lines(rows: list[dict], max_guesses: int, cap: int) -> list[str]:
    """The matrix as text: one line per Guesser, a cell per Indicator and mode (within the limit / capped)."""
    cells: dict[tuple, dict[tuple, str]] = {}
    for row in rows:
        kind = "within" if row["limit"] == max_guesses else "unlimited"
        cells.setdefault(row["agent"], {})[(row["indicator"], row["mode"], kind)] = cell_text(row)
    lines = [f"Guesser x Indicator: guesses within {max_guesses} / unlimited (capped at {cap} guesses)"]
    for agent, found in cells.items():
        parts = [f"{indicator} {mode} {found.get((indicator, mode, 'within'), '?')} / "
                 f"{found.get((indicator, mode, 'unlimited'), found.get((indicator, mode, 'within'), '?'))}"
                 for indicator, mode, kind in found if kind == "within"]
        lines.append(f"{agent}: " + "; ".join(parts))
    return lines
