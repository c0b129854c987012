"""A search agent's first two moves, computed once and kept on disk beside the pattern matrix.

Values are from the Guesser's point of view: higher is better. Every game shares its
first move, and a search agent looks furthest there (expectimax's opening is searched 3
moves deep: about a minute and a half in hard mode on a busy 2-core machine); its second
move, one for each reply, costs seconds from a cold start. So the plan, the first move
and the second move for every reply, is cached in one JSON file per agent, settings,
word lists, mode and guess limit. The file also names a fingerprint of the search code (the `search` and
`heuristics` packages and agents/searchers.py), so an edited search never reads an old
answer back. A file that is missing, torn, stale or does not fit the game is recomputed;
a folder that cannot be written only costs the search next time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from search import ALL_GREEN, Wordle
from search.files import write_atomically
from search.matrix import cache_dir

from .base import Decision

#: Bumped whenever a cached opening's meaning changes.
CACHE_FORMAT = "wordle-arena opening v1"
_ROOT = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 over the source of the code a search's move depends on."""
    files = sorted([*(_ROOT / "search").glob("*.py"), *(_ROOT / "heuristics").glob("*.py"),
                    _ROOT / "agents" / "searchers.py"])
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def opening_key(game: Wordle, name: str, settings: dict, hard: bool, max_guesses: int) -> dict:
    """Everything the first move depends on, as plain data."""
    return {"format": CACHE_FORMAT, "lists": game.words.checksum, "code": code_fingerprint(), "agent": name,
            "settings": settings, "hard": hard, "max_guesses": max_guesses}


def opening_path(key: dict, directory: Path | None = None) -> Path:
    """The cache file of one opening, named by its agent and a digest of its key."""
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return (directory or cache_dir()) / f"opening-{key['agent']}-{digest}.json"


@dataclass(frozen=True)
class OpeningPlan:
    """A first move and the second move for every reply it can get (all green excluded)."""

    first: Decision
    seconds: dict[int, Decision]


def _decision(data: dict) -> Decision:
    """A Decision from its stored form."""
    return Decision(guess=int(data["guess"]), value=None if data["value"] is None else float(data["value"]),
                    alternatives=tuple((int(g), float(v)) for g, v in data["alternatives"]),
                    nodes=int(data["nodes"]), depth=int(data["depth"]))


def _stored(decision: Decision) -> dict:
    """A Decision as the file stores it (floats round-trip exactly through JSON)."""
    return {"guess": decision.guess, "value": decision.value,
            "alternatives": [[guess, value] for guess, value in decision.alternatives],
            "nodes": decision.nodes, "depth": decision.depth}


def read_opening(path: Path, game: Wordle, key: dict) -> OpeningPlan | None:
    """The cached plan if the file is whole, its key is `key` and its replies are the first move's, else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["key"] != key:
            return None
        plan = OpeningPlan(first=_decision(data["first"]),
                           seconds={int(p): _decision(d) for p, d in data["seconds"].items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    decisions = [plan.first, *plan.seconds.values()]
    moves = [move for d in decisions for move in (d.guess, *(guess for guess, _ in d.alternatives))]
    if not all(0 <= move < len(game.words.guesses) for move in moves):
        return None
    replies = {pattern for pattern, _ in game.partition(game.all_answers, plan.first.guess)} - {ALL_GREEN}
    return plan if set(plan.seconds) == replies else None


def write_opening(path: Path, key: dict, plan: OpeningPlan) -> None:
    """Keep a plan on disk (atomically); an unwritable folder is ignored."""
    data = {"key": key, "first": _stored(plan.first),
            "seconds": {str(pattern): _stored(d) for pattern, d in sorted(plan.seconds.items())}}
    try:
        write_atomically(path, json.dumps(data))
    except OSError:
        pass
