"""Compare a tournament's games.csv with the published one, row by row (the regression oracle).

Run: python benchmarks/compare_games.py NEW_GAMES_CSV [--published PATH] [--out results/NAME.json]
Prints and writes, per agent and mode, how many games differ and in which columns, and the
nodes each side visited. Metadata header lines (starting with '#') are skipped.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import write_atomically  # noqa: E402
from plumbing.storage import provenance  # noqa: E402

PUBLISHED = ROOT / "results" / "published" / "tournament-depth-2" / "games.csv"


def read_games(path: Path) -> dict[tuple[str, str, str], dict[str, str]]:
    """The game rows of a games.csv by (agent, mode, answer)."""
    with open(path, newline="") as handle:
        rows = csv.DictReader(line for line in handle if not line.startswith("#"))
        return {(row["agent"], row["mode"], row["answer"]): row for row in rows}


def header(path: Path) -> object:
    """The JSON of a games.csv's first metadata line (command, provenance, settings), or None."""
    with open(path) as handle:
        first = handle.readline()
    if not first.startswith("#"):
        return None
    try:
        return json.loads(first[first.index("{"):])
    except ValueError:
        return None


def compare(published: dict, new: dict) -> dict[str, dict]:
    """Per 'agent mode': games compared, games differing by column, and nodes on each side."""
    found: dict[str, dict] = {}
    for key, row in new.items():
        old = published.get(key)
        entry = found.setdefault(f"{key[0]} {key[1]}", {"games": 0, "missing_in_published": 0, "differing": {},
                                                         "nodes_published": 0, "nodes_new": 0, "nodes_up": 0})
        entry["games"] += 1
        if old is None:
            entry["missing_in_published"] += 1
            continue
        entry["nodes_published"] += int(old["nodes"] or 0)
        entry["nodes_new"] += int(row["nodes"] or 0)
        entry["nodes_up"] += int(row["nodes"] or 0) > int(old["nodes"] or 0)
        for column in row:
            if row[column] != old.get(column):
                entry["differing"][column] = entry["differing"].get(column, 0) + 1
    return found


def main() -> int:
    """Compare, print and write the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path)
    parser.add_argument("--published", type=Path, default=PUBLISHED)
    parser.add_argument("--out", type=Path, default=None, help="results file to write (default: print only)")
    args = parser.parse_args()
    found = compare(read_games(args.published), read_games(args.games))
    for name, entry in found.items():
        print(name, json.dumps(entry))
    if args.out is not None:
        record = {"command": "python " + " ".join(sys.argv), **provenance(), "published": str(args.published),
                  "compared": str(args.games),
                  "compared_header": header(args.games), "by_agent_and_mode": found}
        write_atomically(args.out, json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
