"""CPU a player's command spends, caches warm: `assist` and `review` from a source tree, before and after a change.

Run: python benchmarks/bench_startup.py [--repeat N] [--baseline PATH]
Writes results/bench_startup.json: for each command, the median user + system CPU seconds of N runs (each in a
fresh process, after one untimed run that warms every cache), measured with os.wait4's resource usage, which a
busy machine inflates far less than wall-clock time. `--baseline PATH`: the same commands from another checkout
(an earlier commit, e.g. `git worktree add --detach /tmp/base COMMIT`), recorded beside this tree's.

The commands (lower is better): `assist salet:ggggg` is the start alone (parser, word lists, the likely model
and its matrix, then a finished game: no search); the others are whole answers, search included.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import load_words  # noqa: E402

#: What is timed, by name: the arguments after `python cli.py`.
COMMANDS = {
    "assist start (finished game, no search)": ["assist", "salet:ggggg"],
    "assist, normal mode, after SALET": ["assist", "salet:-g--y"],
    "assist, hard mode, after SALET": ["assist", "--hard", "salet:-g--y"],
    "review, opener only (original list)": ["review", "--answers", "original", "--answer", "trace", "trace"],
    "review, a three-guess game": ["review", "--answer", "unite", "soare", "tuile", "unite"],
}


def cpu_seconds(tree: Path, argv: list[str]) -> float:
    """User + system CPU seconds of one `python cli.py ARGV` run in `tree` (its output discarded)."""
    child = subprocess.Popen([sys.executable, "cli.py", *argv], cwd=tree, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}")
    return usage.ru_utime + usage.ru_stime


def measure(tree: Path, repeat: int) -> dict[str, dict[str, float]]:
    """Each command's CPU seconds in `tree`: median, least and most of `repeat` runs after a warming run."""
    found = {}
    for name, argv in COMMANDS.items():
        cpu_seconds(tree, argv)  # warm the caches (matrix, numba's compiled code, .pyc files)
        runs = [cpu_seconds(tree, argv) for _ in range(repeat)]
        found[name] = {"median": round(statistics.median(runs), 3), "min": round(min(runs), 3),
                       "max": round(max(runs), 3)}
        print(f"{tree}: {name}: median {found[name]['median']:.2f} s CPU", flush=True)
    return found


def commit_of(tree: Path) -> str:
    """The commit checked out in `tree`."""
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True).stdout.strip()


def main() -> None:
    """Time the commands here (and in the baseline) and write results/bench_startup.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each command (default 5)")
    parser.add_argument("--baseline", type=Path, help="another checkout to time the same commands in")
    args = parser.parse_args()
    record = {**results_record("python benchmarks/bench_startup.py " + " ".join(sys.argv[1:]), None,
                               load_words().checksum),
              "measure": "user + system CPU seconds of the whole process (os.wait4), median of --repeat runs, "
                         "caches warm", "load_average_before": os.getloadavg(), "repeat": args.repeat}
    if args.baseline is not None:
        record["baseline"] = {"commit": commit_of(args.baseline), "commands": measure(args.baseline, args.repeat)}
    record["this"] = {"commit": commit_of(ROOT), "commands": measure(ROOT, args.repeat)}
    record["load_average_after"] = os.getloadavg()
    out = ROOT / "results" / "bench_startup.json"
    write_atomically(out, json.dumps(record, indent=2) + "\n")
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
