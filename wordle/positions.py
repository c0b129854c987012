"""The position table: the exact value of every reply to the openers people really play, solved once and shipped.

Costs here are the optimal solver's packed costs (lower is better; see `wordle.solver`):
the guesses the answers of one reply still need, from the second guess on, with the guess
limit's guesses left after the opener. A reply is *settled* when its cost is proved (or
proved infeasible: no tree solves every answer within the limit, "no win"); a reply the
solver could not settle within its node budget keeps the bounds it reached (a proved low,
and the cost of a real breadth-limited tree as its high), never shown as exact.

The table is built opener by opener into a work file of JSON lines (`compute_table`), one
line per opener the moment it is done, so a killed build resumes where it stopped; once
every opener is in, `pack_table` turns it into the shipped artefact, read back through the
book's checked path (`wordle.book.position_table`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import append_json_line, provenance
from search.limits import BudgetSpent
from .feedback import ALL_GREEN
from .game import Wordle
from .hardmode import Hints, extend_hints
from .solver import INFEASIBLE, SCALE, Limits, Solver
from .replies import partition

WORK_FORMAT = "wordle-arena position table work v1"
#: Openers people open with (besides the best-ranked ones): the table covers them in both modes.
COMMON_OPENERS = ("salet", "crane", "slate", "trace", "crate", "stare", "raise", "roate", "soare", "arise",
                  "adieu", "audio", "irate", "carte", "least", "tares", "arose", "later", "alert", "alter",
                  "stale", "tears", "rates", "learn", "saint", "slant", "react", "caret", "reast", "ratio",
                  "ouija", "aisle", "steal", "snare", "trade", "heart", "train", "plant", "cigar", "media")
#: Solver nodes one reply may spend before it is recorded as the bounds reached.
NODES = 3000
#: Sub-problems the table's solver remembers at once.
MEMO = 1_500_000


@dataclass(frozen=True)
class ReplyValue:
    """One reply's value after an opener (packed costs, INFEASIBLE for "none").

    Attributes:
        pattern: the reply's pattern code.
        answers: how many answers give it.
        low: a proved lower bound on its cost (INFEASIBLE: proved no win within the limit).
        high: the cost of a real tree (INFEASIBLE: none known); low == high when settled.
        guess: the first guess of the tree behind `high` (a word), or None when there is none.
    """

    pattern: int
    answers: int
    low: int
    high: int
    guess: str | None

    @property
    def settled(self) -> bool:
        """Whether the reply's value is proved (a cost, or no win)."""
        return self.low == self.high


def reply_groups(game: Wordle, opener: int) -> list[tuple[int, np.ndarray]]:
    """The answers each non-green reply to `opener` leaves, by pattern."""
    answers = np.arange(len(game.words.answers))
    return [(code, group) for code, group in partition(game.matrix[opener, answers], answers) if code != ALL_GREEN]


def value_reply(solver: Solver, quick: Solver, group: np.ndarray, left: int, hints: Hints | None,
                nodes: int) -> tuple[int, int, int]:
    """A reply's (low, high, best guess index or -1), exact when the solver settles it within `nodes`.

    The proof raises its cost budget step by step (each refuted budget is a proved bound), so a
    reply cut short keeps the best bound reached; a breadth-limited solve then gives it a tree.
    """
    game = solver.game
    if len(group) <= 2:
        cost = solver.solve_set(group, left, hints)
        return cost, cost, int(game.words.answer_rows[group[0]])
    key = solver.key(group, left, hints)
    low, step = solver.floor(len(group), left), 2 * SCALE
    solver.node_limit = solver.stats.nodes + nodes
    try:
        while True:
            budget = min(low + step, INFEASIBLE)
            cost = solver.solve_set(group, left, hints, budget)
            if cost < budget or cost >= INFEASIBLE:
                break
            low, step = cost, 2 * step
        if cost >= INFEASIBLE:
            return INFEASIBLE, INFEASIBLE, -1
        known = solver.memo.get(key)
        if known is not None and known[1] == cost:
            return cost, cost, known[2]
        solver.node_limit = None  # forgotten as the memory filled: solve it again for its guess
        solver.solve_set(group, left, hints)
        return cost, cost, solver.memo[key][2]
    except BudgetSpent:
        low = max(low, solver.memo.get(key, (0,))[0])
    finally:
        solver.node_limit = None
    quick.node_limit = quick.stats.nodes + nodes
    try:
        high = quick.solve_set(group, left, hints)
        guess = quick.memo[quick.key(group, left, hints)][2] if high < INFEASIBLE else -1
    except BudgetSpent:
        high, guess = INFEASIBLE, -1
    finally:
        quick.node_limit = None
    return low, max(high, low) if high < INFEASIBLE else INFEASIBLE, guess


def opener_replies(solver: Solver, quick: Solver, opener: str, nodes: int = NODES) -> list[ReplyValue]:
    """Every non-green reply to `opener` valued (with `solver.max_guesses - 1` guesses left)."""
    game = solver.game
    index = game.words.guess_index[opener]
    left = solver.max_guesses - 1
    values = []
    for code, group in reply_groups(game, index):
        hints = extend_hints(Hints(), opener, code) if solver.hard else None
        low, high, guess = value_reply(solver, quick, group, left, hints, nodes)
        values.append(ReplyValue(pattern=code, answers=len(group), low=low, high=high,
                                 guess=game.words.guesses[guess] if guess >= 0 else None))
    return values


def table_openers(ranked: Iterable[str], common: Iterable[str] = COMMON_OPENERS) -> list[str]:
    """The openers a table covers: the common ones first, then the best-ranked ones, each once."""
    return list(dict.fromkeys([*common, *ranked]))


def ranked_from(paths: Iterable[Path], top: int = 50) -> list[str]:
    """The best `top` openers of each ranking file (`openers --top N`'s JSON), in order, each once.

    Raises:
        UserError: a file is missing or is not such a ranking.
    """
    openers: list[str] = []
    for path in paths:
        try:
            ranking = json.loads(Path(path).read_text(encoding="utf-8"))["ranking"]
            openers += [row["opener"] for row in ranking[:top]]
        except (OSError, ValueError, KeyError, TypeError):
            raise UserError(f"{path}: not an opener ranking (python cli.py openers --top 50)") from None
    return list(dict.fromkeys(openers))


# -- the work file -------------------------------------------------------------------------------------
def _encode(cost: int) -> int | None:
    """A packed cost for JSON (None for INFEASIBLE)."""
    return None if cost >= INFEASIBLE else int(cost)


def _decode(cost: int | None) -> int:
    """A packed cost from JSON."""
    return INFEASIBLE if cost is None else int(cost)


def reply_record(value: ReplyValue) -> list:
    """One reply as a compact JSON row: [pattern, answers, low, high, guess]."""
    return [value.pattern, value.answers, _encode(value.low), _encode(value.high), value.guess]


def reply_from(row: list) -> ReplyValue:
    """A reply back from its JSON row.

    Raises:
        ValueError: the row is not one.
    """
    if not isinstance(row, list) or len(row) != 5:
        raise ValueError("a reply row is [pattern, answers, low, high, guess]")
    pattern, answers, low, high, guess = row
    if not (isinstance(pattern, int) and 0 <= pattern < ALL_GREEN and isinstance(answers, int) and answers >= 1):
        raise ValueError(f"bad reply {row!r}")
    if not all(cost is None or (isinstance(cost, int) and cost > 0) for cost in (low, high)):
        raise ValueError(f"bad costs in {row!r}")
    if guess is not None and not isinstance(guess, str):
        raise ValueError(f"bad guess in {row!r}")
    value = ReplyValue(pattern, answers, _decode(low), _decode(high), guess)
    if value.low > value.high or (value.high < INFEASIBLE) != (guess is not None):
        raise ValueError(f"inconsistent reply {row!r}")
    return value


def work_header(game: Wordle, hard: bool, max_guesses: int, nodes: int, openers: list[str], command: str) -> dict:
    """The work file's first line: what every opener is solved under, and provenance."""
    return {"format": WORK_FORMAT, "command": command, "seed": None, "seed_note": "the build makes no random choice",
            "mode": "hard" if hard else "normal", "max_guesses": max_guesses,
            "word_lists_sha256": game.words.checksum, "nodes": nodes, "openers": openers, **provenance()}


def read_work(path: Path) -> tuple[dict | None, dict[str, list[ReplyValue]]]:
    """A work file's header and the openers it holds (a torn last line dropped); (None, {}) for no file.

    Raises:
        UserError: the file is damaged.
    """
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read it ({error})") from None
    try:
        header = json.loads(lines[0])
        if header.get("format") != WORK_FORMAT:
            raise ValueError
    except (ValueError, AttributeError):
        raise UserError(f"{path}: not a position table work file") from None
    done: dict[str, list[ReplyValue]] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if "session" in row:
                continue
            done[row["opener"]] = [reply_from(reply) for reply in row["replies"]]
        except (ValueError, KeyError, TypeError):
            if number == len(lines):  # no newline after it: torn by a kill mid-write
                break
            raise UserError(f"{path}, line {number}: not an opener's replies") from None
    return header, done


def compute_table(game: Wordle, hard: bool, openers: list[str], path: Path, command: str, max_guesses: int = 6,
                  nodes: int = NODES, on_opener: Callable[[str, list[ReplyValue], float], None] | None = None
                  ) -> dict[str, list[ReplyValue]]:
    """Value every reply to each opener into the work file at `path`, skipping the openers it already holds.

    Args:
        game: the rules and the pattern matrix.
        hard: hard mode.
        openers: the openers to cover, in the order to solve them.
        path: the work file (created with a header, or resumed).
        command: the command line, for the header.
        nodes: the solver nodes one reply may spend.
        on_opener: called with each opener, its replies and the seconds it took, as it is done.

    Returns:
        Every opener's replies the file holds.

    Raises:
        UserError: the file holds another build (other lists, mode, limit or node budget), or an unknown word.
    """
    unknown = [opener for opener in openers if opener not in game.words.guess_index]
    if unknown:
        raise UserError(f"not allowed guesses: {', '.join(unknown[:5])}")
    header, done = read_work(path)
    fresh = work_header(game, hard, max_guesses, nodes, openers, command)
    if header is not None:
        keys = ("mode", "max_guesses", "word_lists_sha256", "nodes")
        if any(header.get(key) != fresh[key] for key in keys):
            raise UserError(f"{path}: holds a build with other settings ({', '.join(keys)}); choose another file")
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):  # drop a torn last line before appending
            path.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")
        append_json_line(path, {"session": {"command": command, "resumed_with": len(done), **provenance()}})
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(fresh) + "\n", encoding="utf-8")
    solver = Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits(memo=MEMO))
    quick = Solver(game, hard=hard, max_guesses=max_guesses, limits=Limits(top=1, memo=MEMO // 4))
    for opener in openers:
        if opener in done:
            continue
        started, before = time.perf_counter(), solver.stats.nodes + quick.stats.nodes
        replies = opener_replies(solver, quick, opener, nodes)
        seconds = time.perf_counter() - started
        append_json_line(path, {"opener": opener, "replies": [reply_record(reply) for reply in replies],
                       "nodes": solver.stats.nodes + quick.stats.nodes - before, "seconds": round(seconds, 3)})
        done[opener] = replies
        if on_opener is not None:
            on_opener(opener, replies, seconds)
    return done


def opener_cost(replies: list[ReplyValue], size: int) -> tuple[int, int]:
    """The (low, high) packed cost of the whole game opening with the opener whose replies these are.

    Every one of the `size` answers pays the opener's guess (the first, never a long game's); the answer it
    solves, if any, nothing more.
    """
    low = high = size * SCALE
    for reply in replies:
        low = min(low + reply.low, INFEASIBLE)
        high = min(high + reply.high, INFEASIBLE)
    return low, high
