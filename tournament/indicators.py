"""The Guesser x Indicator matrix: every Guesser against each Indicator, in each mode.

A deterministic Indicator's game depends only on the Guesser and the mode, so one game fills
a cell: its guess count, or "not solved within N". Absurdle has no guess limit of its own, so
each such cell is played within the tournament's limit and again "unlimited", capped at `cap`
guesses. The random Indicator draws its replies, so it plays `games` seeded games per Guesser
and mode (the same seeds for every Guesser, from `indicator_seeds`), and its cell is their mean
(an unsolved game counts the limit plus one), solved share and worst, as the tournament
reports; the honest Indicator's cell is the ordinary tournament's, every answer, played into
the run folder's `honest/` by the caller. The games are kept in `indicators.json`, the table
in `matrix.md`; `verify_matrix` replays each game and checks every reply against its
Indicator's rule (a random game's replies drawn again from its seed).

Values are from the Guesser's point of view: fewer guesses is better.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from concurrent.futures import as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from agents import Agent, make_agent
from agents.base import indicator_seeds
from agents.indicators import INDICATORS, against_rngs, make_indicator, play_with, reply_problems
from plumbing.errors import UserError
from wordle import Wordle, format_pattern, parse_pattern
from plumbing.processes import tie_to_parent, worker_pool
from plumbing.storage import WORD_LISTS_KEY, read_text_file, results_record, write_atomically

MATRIX_FILE = "indicators.json"
TABLE_FILE = "matrix.md"
#: The honest column's ordinary tournament, inside the matrix's folder.
HONEST_FOLDER = "honest"
#: The Indicators whose games need one play per Guesser and mode.
DETERMINISTIC = ("absurdle", "adversary")
#: Seeded games per Guesser and mode against a drawing Indicator, unless told otherwise.
DEFAULT_GAMES = 200
#: The guess cap of the "unlimited" games against Absurdle and the adversary, unless --cap says otherwise.
DEFAULT_CAP = 20
#: What identifies a game of the matrix (its row's other fields are what was played).
KEY_FIELDS = ("agent", "indicator", "mode", "limit", "seed")


def build_indicator(game: Wordle, name: str, depth: int):
    """The Indicator `name`, searching `depth` deep when it searches."""
    takes_depth = any(param.name == "depth" for param in INDICATORS[name].params)
    return make_indicator(name, game, **({"depth": depth} if takes_depth else {}))


class Players:
    """The Guessers and Indicators one process plays with, each built once, so its caches serve all its games.

    Every cache here is keyed by state, so a game's moves do not depend on the games played before it.
    """

    def __init__(self, game: Wordle, depth: int, settings: dict[str, Any]):
        self.game, self.depth, self.settings = game, depth, settings
        self.agents: dict[str, Any] = {}
        self.indicators: dict[str, Any] = {}

    def agent(self, name: str):
        """The Guesser `name` with the matrix's settings."""
        if name not in self.agents:
            self.agents[name] = make_agent(name, self.game, strict=False, **self.settings)
        return self.agents[name]

    def indicator(self, name: str):
        """The Indicator `name`, searching the matrix's depth."""
        if name not in self.indicators:
            self.indicators[name] = build_indicator(self.game, name, self.depth)
        return self.indicators[name]

    def prepare(self, keys: list[dict], on_prepare: Callable[[str, str, int], None]) -> None:
        """Each Guesser's one-time work (`Agent.prepare`) for each mode and limit of `keys`, done here before the workers fork.

        Every worker inherits it, as the tournament's do. A Guesser that fails here (a model
        trained for another limit) fails again in its games, which record the error.
        """
        for name, mode, limit in dict.fromkeys((key["agent"], key["mode"], key["limit"]) for key in keys):
            if type(self.agent(name)).prepare is not Agent.prepare:
                on_prepare(name, mode, limit)
                try:
                    self.agents[name].prepare(mode == "hard", limit)
                except Exception:  # noqa: BLE001 - recorded by the games themselves
                    continue


def planned_games(agents: list[str], indicators: list[str], modes: list[str], max_guesses: int, cap: int,
                  seed: int, games: int) -> list[dict]:
    """Every game's key, in the matrix's order: Guesser, Indicator, mode, then limit or seed (honest excluded)."""
    keys = []
    for agent in agents:
        for indicator in indicators:
            if indicator == "honest":
                continue
            for mode in modes:
                if indicator in DETERMINISTIC:
                    keys += [{"agent": agent, "indicator": indicator, "mode": mode, "limit": limit, "seed": seed}
                             for limit in dict.fromkeys((max_guesses, cap))]
                else:
                    keys += [{"agent": agent, "indicator": indicator, "mode": mode, "limit": max_guesses,
                              "seed": game_seed} for game_seed in indicator_seeds(seed, games)]
    return keys


def play_game(players: Players, key: dict) -> dict:
    """One game of the matrix, as its row: the key, then what was played (an agent's failure is the row's error)."""
    game = players.game
    start = time.perf_counter()
    error = ""
    history: tuple = ()
    solved = False
    try:
        agent, indicator = players.agent(key["agent"]), players.indicator(key["indicator"])
        agent_rng, indicator_rng = against_rngs(key["seed"])
        played = play_with(game, lambda state: agent.decide(state, agent_rng).guess, indicator, indicator_rng,
                           hard=(key["mode"] == "hard"), max_guesses=key["limit"])
        history, solved = played.final.history, played.solved
    except Exception as raised:  # an agent's failure (a model trained for another limit) is this game's result
        error = f"{type(raised).__name__}: {raised}".replace(f"{Path.cwd()}/", "")  # paths as from the run's folder
    return {**key, "solved": solved, "guesses": len(history), "words": [game.words.guesses[g] for g, _ in history],
            "replies": [format_pattern(p) for _, p in history], "error": error,
            "seconds": round(time.perf_counter() - start, 2)}


def game_problems(players: Players, row: dict) -> list[str]:
    """Why a recorded game is not the game its players play: each reply checked by its Indicator's rule, then replayed."""
    game = players.game
    name = (f"{row['agent']} vs {row['indicator']} {row['mode']} limit {row['limit']}"
            + (f" seed {row['seed']}" if row["indicator"] not in DETERMINISTIC else ""))
    try:
        history = tuple((game.words.guess_index[w], parse_pattern(p)) for w, p in zip(row["words"], row["replies"]))
    except (KeyError, UserError) as bad:
        return [f"{name}: holds a word or reply no game has ({bad})"]
    problems = []
    if not row["error"]:
        _, indicator_rng = against_rngs(row["seed"])
        problems += [f"{name}: {why}" for why in reply_problems(game, players.indicator(row["indicator"]), history,
                                                                row["mode"] == "hard", row["limit"], indicator_rng)]
    again = play_game(players, {field: row[field] for field in KEY_FIELDS})
    if (again["words"], again["replies"], again["solved"], bool(again["error"])) != (
            row["words"], row["replies"], row["solved"], bool(row["error"])):
        problems.append(f"{name}: replayed as {' '.join(again['words']) or again['error']}, "
                        f"recorded {' '.join(row['words']) or row['error']}")
    return problems


# -- sharing the games among processes -------------------------------------------------
#: The players and the work of a worker process (set in the parent before forking: each worker gets its own copy).
_SHARED: dict[str, Any] = {}


def _play_unit(keys: list[dict]) -> list[dict]:
    """A share: play these games."""
    return [play_game(_SHARED["players"], key) for key in keys]


def _check_unit(rows: list[dict]) -> list[str]:
    """A share: the problems of these recorded games."""
    return [problem for row in rows for problem in game_problems(_SHARED["players"], row)]


def _numbered(item: tuple[int, list[dict]]) -> tuple[int, Any]:
    """A worker's share, done: its number and the result."""
    number, share = item
    return number, _SHARED["work"](share)


def units(items: list[dict]) -> list[list[dict]]:
    """Items grouped by (Guesser, mode), hard mode first (the longer to play): a group's searches are made once, by one worker."""
    groups: dict[tuple, list[dict]] = {}
    for item in items:
        groups.setdefault((item["agent"], item["mode"]), []).append(item)
    return sorted(groups.values(), key=lambda group: group[0]["mode"] != "hard")


def share_out(players: Players, work: Callable[[list[dict]], Any], shares: list[list[dict]], jobs: int,
              done: Callable[[list[dict], Any], None]) -> None:
    """Run `work` on every share, on `jobs` forked processes (or here, with one), calling `done(share, result)` as each ends."""
    _SHARED.update(players=players, work=work)
    if jobs <= 1 or len(shares) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for share in shares:
            done(share, work(share))
        return
    with worker_pool(min(jobs, len(shares)), initializer=tie_to_parent, initargs=(os.getpid(),)) as pool:
        for future in as_completed([pool.submit(_numbered, item) for item in enumerate(shares)]):
            number, result = future.result()
            done(shares[number], result)


def in_order(rows: Iterable[dict], keys: list[dict]) -> list[dict]:
    """`rows` in the order of `keys` (the matrix's order)."""
    place = {tuple(key[f] for f in KEY_FIELDS): number for number, key in enumerate(keys)}
    return sorted(rows, key=lambda row: place[tuple(row[f] for f in KEY_FIELDS)])


@dataclass(frozen=True)
class MatrixSettings:
    """What decides a matrix's games: who plays, the modes, the limits, the seed and the search settings."""

    agents: list[str]
    indicators: list[str]
    modes: list[str]
    max_guesses: int
    cap: int
    depth: int
    seed: int
    games: int
    settings: dict[str, Any]
    #: The word-list files played on, as given (None: the shipped lists).
    words: dict[str, str | None]
    #: The folder of the honest column's tournament, as given (None: no honest column).
    honest_folder: str | None = None

    def keys(self) -> list[dict]:
        """Every game's key, in order."""
        return planned_games(self.agents, self.indicators, self.modes, self.max_guesses, self.cap, self.seed,
                             self.games)

    def head(self) -> dict[str, Any]:
        """The settings as the results file keeps them."""
        return {"agents": self.agents, "indicators": self.indicators, "modes": self.modes,
                "max_guesses": self.max_guesses, "cap": self.cap, "depth": self.depth, "random_games": self.games,
                "settings": self.settings, "words": self.words, "honest_folder": self.honest_folder}


def stored_settings(stored: dict[str, Any]) -> MatrixSettings:
    """The settings a kept matrix was played with."""
    return MatrixSettings(agents=stored["agents"], indicators=stored["indicators"], modes=stored["modes"],
                          max_guesses=stored["max_guesses"], cap=stored["cap"], depth=stored["depth"],
                          seed=stored["seed"], games=stored["random_games"], settings=stored["settings"],
                          words=stored["words"], honest_folder=stored["honest_folder"])


def play_matrix(game: Wordle, plan: MatrixSettings, folder: Path, command: str, jobs: int = 1,
                on_games: Callable[[list[dict]], None] = lambda rows: None,
                on_prepare: Callable[[str, str, int], None] = lambda agent, mode, limit: None) -> list[dict]:
    """Play every game of `plan` but honest's on `jobs` processes, keeping the matrix in `folder` as each group ends.

    `on_games` hears each group of games as it ends, `on_prepare` each Guesser's one-time work before.
    """
    keys = plan.keys()
    head = {**results_record(command, plan.seed, game.words.checksum), **plan.head()}
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []

    def keep(share: list[dict], played: list[dict]) -> None:
        rows.extend(played)
        write_atomically(folder / MATRIX_FILE, json.dumps({**head, "games": in_order(rows, keys)}, indent=1) + "\n")
        if played:
            on_games(played)

    keep([], [])  # the file exists from the start, and for a matrix of honest alone
    players = Players(game, plan.depth, plan.settings)
    players.prepare(keys, on_prepare)
    share_out(players, _play_unit, units(keys), jobs, keep)
    rows = in_order(rows, keys)
    write_atomically(folder / TABLE_FILE, "\n".join(matrix_markdown(head, rows, honest_results(head))) + "\n")
    return rows


def honest_results(head: dict[str, Any]) -> dict[tuple[str, str], dict] | None:
    """The honest column's figures by (Guesser, mode), from its tournament's summary (None: no honest column)."""
    if head["honest_folder"] is None:
        return None
    summary = json.loads(read_text_file(Path(head["honest_folder"]) / "summary.json"))
    return {(row["agent"], row["mode"]): {"mean": row["mean"], "solved": row["solved"], "worst": row["worst"],
                                          "games": row["games"]} for row in summary["summary"]["results"]}


#: The recorded fields of a game row that verify reads, and their types.
ROW_FIELDS = {"words": list, "replies": list, "solved": bool, "error": str, "guesses": int}


def row_shape_problem(row: dict) -> str:
    """What makes a recorded game row unreadable ('' when its fields have the types a game row has)."""
    for field, kind in ROW_FIELDS.items():
        if not isinstance(row.get(field), kind):
            return f"'{field}' is not {kind.__name__}"
    if not all(isinstance(text, str) for text in (*row["words"], *row["replies"])):
        return "a word or reply is not text"
    return ""


def read_matrix(folder: Path) -> tuple[dict[str, Any], MatrixSettings]:
    """A kept matrix and its settings; UserError in one line when the file is not one."""
    path = folder / MATRIX_FILE
    try:
        stored = json.loads(read_text_file(path))
        plan = stored_settings(stored)
        if not isinstance(stored["games"], list) or not isinstance(plan.words, dict):
            raise TypeError("'games' is not a list, or 'words' not an object")
        if not all(isinstance(value, (str, type(None))) for value in (plan.honest_folder, *plan.words.values())):
            raise TypeError("'honest_folder' or a word list's name is not text")
        return stored, plan
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as bad:
        raise UserError(f"{path}: not a Guesser x Indicator matrix this version keeps ({type(bad).__name__}: {bad})") from None


def verify_matrix(game: Wordle, folder: Path, jobs: int = 1,
                  on_games: Callable[[list[dict]], None] = lambda rows: None,
                  on_prepare: Callable[[str, str, int], None] = lambda agent, mode, limit: None) -> tuple[int, list[str]]:
    """Replay every game of a kept matrix: the same moves again, each reply by its Indicator's rule; (games, problems).

    Also checks that the file holds exactly the planned games and that `matrix.md` is the table they make;
    the honest column's tournament is the caller's to verify (`verify_folder`).
    """
    stored, plan = read_matrix(folder)
    rows = [row for row in stored["games"] if isinstance(row, dict)]
    problems = []
    if stored.get(WORD_LISTS_KEY) != game.words.checksum:
        return len(rows), [f"{MATRIX_FILE}: its word-list checksum does not match the lists given"]
    if ("honest" in plan.indicators) != (plan.honest_folder is not None) or (
            plan.honest_folder is not None and not (Path(plan.honest_folder) / "summary.json").is_file()):
        problems.append(f"{MATRIX_FILE}: the honest column's tournament ({plan.honest_folder}) is missing")
    shapes = [row_shape_problem(row) for row in rows]
    problems += [f"{MATRIX_FILE}: a game row is malformed ({why}): {json.dumps(row)[:120]}"
                 for row, why in zip(rows, shapes) if why]
    rows = [row for row, why in zip(rows, shapes) if not why]
    planned = [tuple(key[f] for f in KEY_FIELDS) for key in plan.keys()]
    if [tuple(row.get(f) for f in KEY_FIELDS) for row in rows] != planned:
        problems.append(f"{MATRIX_FILE}: its games are not the {len(planned)} its settings plan, in order")
    wanted = set(planned)
    rows = [row for row in rows if tuple(row.get(f) for f in KEY_FIELDS) in wanted]

    def collect(share: list[dict], found: list[str]) -> None:
        problems.extend(found)
        on_games(share)

    players = Players(game, plan.depth, plan.settings)
    players.prepare(rows, on_prepare)
    share_out(players, _check_unit, units(rows), jobs, collect)
    try:
        table = read_text_file(folder / TABLE_FILE)
        expected = "\n".join(matrix_markdown(stored, stored["games"], honest_results(stored))) + "\n"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
        table, expected = None, ""
    if table != expected:
        problems.append(f"{TABLE_FILE}: missing, or not the table the games make")
    return len(rows), problems


# -- the table ---------------------------------------------------------------------------
def guesses_text(row: dict) -> str:
    """A deterministic game's guesses: the count, X when not solved within its limit, or 'error'."""
    return "error" if row["error"] else str(row["guesses"]) if row["solved"] else "X"


def drawn_figures(rows: list[dict], max_guesses: int) -> dict[str, float]:
    """Mean guesses (an unsolved game counts the limit plus one), solved share and worst of some games."""
    scores = [row["guesses"] if row["solved"] else max_guesses + 1 for row in rows]
    return {"mean": sum(scores) / len(scores), "solved": sum(row["solved"] for row in rows), "worst": max(scores),
            "games": len(rows)}


def figures_text(figures: dict[str, float], max_guesses: int) -> str:
    """Mean, games solved and worst as a cell: '3.438, 2315/2315, worst 5' (worst X: some game not solved)."""
    worst = "X" if figures["worst"] > max_guesses else str(figures["worst"])
    return f"{figures['mean']:.3f}, {figures['solved']}/{figures['games']}, worst {worst}"


def cells(head: dict[str, Any], rows: list[dict], honest: dict | None) -> dict[tuple[str, str, str], str]:
    """Every cell's text by (Guesser, Indicator, mode)."""
    found: dict[tuple[str, str, str], str] = {}
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["agent"], row["indicator"], row["mode"]), []).append(row)
    for (agent, indicator, mode), group in groups.items():
        if indicator in DETERMINISTIC:
            found[agent, indicator, mode] = " / ".join(guesses_text(row) for row in group)
        else:
            found[agent, indicator, mode] = figures_text(drawn_figures(group, head["max_guesses"]), head["max_guesses"])
    for (agent, mode), figures in (honest or {}).items():
        found[agent, "honest", mode] = figures_text(figures, head["max_guesses"])
    return found


def forced(rows: list[dict], indicator: str, agent: str, mode: str) -> dict[int, int | None]:
    """The guesses `indicator` forced on `agent` in `mode`, by limit (X counted as the limit plus one; None: an error)."""
    return {row["limit"]: None if row["error"] else row["guesses"] if row["solved"] else row["limit"] + 1
            for row in rows if (row["indicator"], row["agent"], row["mode"]) == (indicator, agent, mode)}


def adversary_against_absurdle(head: dict[str, Any], rows: list[dict]) -> list[str]:
    """Per Guesser and mode, whether the adversary forced more, as many or fewer guesses than Absurdle, at each limit."""
    if not {"absurdle", "adversary"} <= set(head["indicators"]):
        return []
    verdicts: dict[str, int] = {}
    easier = []
    table = ["| Guesser | " + " | ".join(f"{mode} (within {head['max_guesses']} / capped)" for mode in head["modes"]) + " |",
             "|---" * (len(head["modes"]) + 1) + "|"]
    for agent in head["agents"]:
        found = []
        for mode in head["modes"]:
            absurdle, adversary = forced(rows, "absurdle", agent, mode), forced(rows, "adversary", agent, mode)
            words = []
            for limit, a in absurdle.items():
                b = adversary.get(limit)
                word = ("not compared (error)" if a is None or b is None else
                        "harder" if b > a else "as hard" if b == a else "EASIER")
                verdicts[word] = verdicts.get(word, 0) + 1
                if word == "EASIER":
                    easier.append(f"{agent} {mode} (limit {limit}): adversary {b}, absurdle {a}")
                words.append(word)
            found.append(" / ".join(words))
        table.append(f"| {agent} | " + " | ".join(found) + " |")
    counts = ", ".join(f"{word} in {count}" for word, count in sorted(verdicts.items()))
    summary = (f"In every game compared, the adversary forced at least as many guesses as Absurdle ({counts})."
               if not easier else
               f"The adversary forced fewer guesses than Absurdle in {len(easier)} game{'s' * (len(easier) != 1)}, "
               f"listed below ({counts}).")
    return ["Adversary against Absurdle, per Guesser, mode and limit (guesses forced; X counted as the limit plus one):",
            "", *table, "", summary, *(f"- easier: {line}" for line in easier)]


def matrix_markdown(head: dict[str, Any], rows: list[dict], honest: dict | None) -> list[str]:
    """The matrix as a Markdown table, its key, and the adversary-against-Absurdle count."""
    found = cells(head, rows, honest)
    columns = [(indicator, mode) for indicator in head["indicators"] for mode in head["modes"]]
    limit, cap = head["max_guesses"], head["cap"]
    lines = [f"Command: `{head['command']}` (seed {head['seed']}; the adversary searched {head['depth']} deep)", ""]
    lines += ["| Guesser | " + " | ".join(f"{indicator} {mode}" for indicator, mode in columns) + " |",
              "|---" * (len(columns) + 1) + "|"]
    lines += [f"| {agent} | " + " | ".join(found.get((agent, indicator, mode), "?") for indicator, mode in columns)
              + " |" for agent in head["agents"]]
    key = []
    if set(DETERMINISTIC) & set(head["indicators"]):
        key.append(f"absurdle, adversary: guesses within {limit} / unlimited (capped at {cap}); X: not solved "
                   f"within {limit} (or the cap); error: the Guesser could not play that game")
    if "random" in head["indicators"]:
        key.append(f"random: {head['random_games']} seeded games per Guesser and mode (the same seeds for every Guesser): "
                   f"mean guesses (an unsolved game counts {limit + 1}), games solved, worst (X: some game not solved)")
    if "honest" in head["indicators"]:
        key.append(f"honest: the ordinary tournament over every answer (`{head['honest_folder']}/`), the same figures")
    lines += ["", *(f"- {line}" for line in key)]
    errors = sorted({f"{row['agent']} (limit {row['limit']}): {row['error']}" for row in rows if row["error"]})
    lines += [f"- error: {line}" for line in errors]
    if comparison := adversary_against_absurdle(head, rows):
        lines += ["", *comparison]
    return lines


__all__ = ["DEFAULT_CAP", "DEFAULT_GAMES", "DETERMINISTIC", "HONEST_FOLDER", "MATRIX_FILE", "MatrixSettings", "TABLE_FILE",
           "matrix_markdown", "play_matrix", "verify_matrix"]
