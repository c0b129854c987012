"""A search agent's first two moves, computed once and kept on disk beside the pattern matrix.

Values are from the Guesser's point of view: higher is better. Every game shares its
first move, and a search agent looks furthest there (expectimax's opening is searched 3
moves deep: about a minute and a half in hard mode on a busy 2-core machine); its second
move, one for each reply, costs seconds from a cold start. So the plan, the first move
and the second move for every reply, is cached in one file per agent, settings, word lists, mode and guess limit, through
plumbing.storage: checksummed, and keyed by the version of the search code (agents/searchers.py
and every project module it imports), so an edited search never reads an old answer back. A file that is missing, torn, stale or does not fit the game is recomputed;
a folder that cannot be written only costs the search next time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wordle import ALL_GREEN, Wordle
from plumbing.storage import WORD_LISTS_KEY, Cache, code_version, json_payload, json_value

from .base import Decision


def opening_key(game: Wordle, name: str, settings: dict, hard: bool, max_guesses: int) -> dict:
    """Everything the first move depends on but the code, as plain data."""
    return {WORD_LISTS_KEY: game.words.checksum, "agent": name, "settings": settings, "hard": hard,
            "max_guesses": max_guesses}


def opening_cache(key: dict) -> Cache:
    """The disk cache of one opening (plumbing.storage: checksummed, keyed by the search code's version)."""
    return Cache(f"opening-{key['agent']}", key, code_version("agents.searchers"), suffix=".json")


def opening_path(key: dict, directory: Path | None = None) -> Path:
    """The cache file of one opening."""
    return opening_cache(key).path(directory)


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
    payload = opening_cache(key).read(path.parent) if path == opening_path(key, path.parent) else None
    if payload is None:
        return None
    try:
        data = json_value(payload)
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
    """Keep a plan on disk (atomically, checksummed); an unwritable folder is ignored."""
    data = {"first": _stored(plan.first),
            "seconds": {str(pattern): _stored(d) for pattern, d in sorted(plan.seconds.items())}}
    try:
        opening_cache(key).write(json_payload(data), path.parent)
    except OSError:
        pass
