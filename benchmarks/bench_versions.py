"""Two commits side by side: the CPU each takes to value the same positions, run alternately in one window.

Run: python benchmarks/bench_versions.py --base COMMIT [--head COMMIT] [--positions fuzzy:-----,...]
        [--openers qajaq,...] [--modes hard,normal] [--rounds 3] [--out FILE] [--note TEXT]
The machine this project is measured on is a shared VM whose speed drifts by 10 to 20% between runs (and
changed by a factor of 2.2 between sessions under the same CPU name), so a speed-up is measured as a ratio of
two versions run in the same window, never against a number from another run. Each commit is checked out in a
temporary git worktree (`--head` defaults to HEAD); in every round each version values each position in
each mode in a fresh process (`wordle.valuation.value_position`, a fresh solver, no budget to cut it short:
the value is proved), base first in odd rounds and head first in even ones, after one warm-up per version that
loads its compiled kernels; each position's rounds run together, so a run stopped early leaves whole pairs (the
results file is rewritten after each position, with "complete" false until the last). Each run records its
process CPU, the sub-problems searched and the value; the two versions' values must agree, and the summary says
whether their sub-problem counts do. Writes results/bench_versions.json (or --out) with the per-run figures, the
median CPU per version and position, their ratio, and the command, word-list checksum, commits, CPU model,
cores and the load average before and after.

With --openers, each run is instead the command a user types, `python cli.py openers --exact --opener WORD
[--hard]`, in a fresh process in the version's tree: the printed total (or rejection, or no win) must agree
between the versions, and each run records the solver's CPU and sub-problems as the command prints them, and the
process's own wall and CPU time (loading the word lists and kernels included), measured here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance, write_atomically  # noqa: E402
from wordle import Wordle  # noqa: E402

# What each run does, inside the version's own tree: value one position, print one JSON line.
CHILD = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, '.')
from wordle import Wordle, parse_pattern
from search.limits import Budget
try:
    from wordle.solver import Solver
except ImportError:  # a commit before the solver became a package
    from wordle.optimal import Solver
from wordle.valuation import value_position
word, reply, hard = sys.argv[1], sys.argv[2], sys.argv[3] == 'hard'
game = Wordle()
state = game.step(game.initial_state(hard=hard), game.words.guess_index[word], parse_pattern(reply))
solver = Solver(game, hard=hard)
cpu = time.process_time()
valuation = value_position(game, state, (), Budget(nodes=None, seconds=None), solver)
cpu = time.process_time() - cpu
import wordle
print(json.dumps({"cpu_seconds": round(cpu, 3), "sub_problems": valuation.nodes, "proved": valuation.proved,
                  "best": game.words.guesses[valuation.best], "value": valuation.value.low,
                  "imported_from": str(Path(wordle.__file__).parent.parent)}))
"""


def git(*argv: str) -> str:
    """A git command in this repository, its output stripped; its own error as the message if it fails."""
    run = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"git {' '.join(argv)}: {(run.stderr.strip().splitlines() or ['failed'])[-1]}")
    return run.stdout.strip()


def value_in(tree: Path, position: str, mode: str) -> dict:
    """One fresh process in `tree` valuing `position` in `mode`."""
    word, reply = position.split(":")
    run = subprocess.run([sys.executable, "-c", CHILD, word, reply, mode], cwd=tree, capture_output=True, text=True,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if run.returncode != 0:
        raise SystemExit(f"{tree.name}: {position} {mode} failed: {run.stderr.strip().splitlines()[-1:]}")
    result = json.loads(run.stdout.strip().splitlines()[-1])
    if Path(result.pop("imported_from")).resolve() != tree.resolve():  # another copy on the path would be measured
        raise SystemExit(f"{tree.name}: the run imported wordle from outside its worktree")
    return result


#: What `openers --exact --opener WORD` prints: its verdict, then the solver's CPU, wall and sub-problems.
OPENER_LINE = re.compile(r"^(?P<word>[A-Z]+) \((?P<mode>\w+) mode\): (?P<verdict>.*); (?P<cpu>[\d.]+) s of CPU, "
                         r"(?P<wall>[\d.]+) s wall, (?P<nodes>\d+) sub-problems$", re.MULTILINE)


def opener_in(tree: Path, word: str, mode: str) -> dict:
    """One fresh `cli.py openers --exact --opener WORD` in `tree`: its verdict, the solver's figures, the process's."""
    command = [sys.executable, "cli.py", "openers", "--exact", "--opener", word] + (["--hard"] if mode == "hard"
                                                                                    else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(command, cwd=tree, capture_output=True, text=True,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "400"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = OPENER_LINE.search(run.stdout)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"{tree.name}: {word} {mode} failed: {(run.stderr or run.stdout).strip().splitlines()[-1:]}")
    verdict = found["verdict"]
    total = re.match(r"total (\d+)", verdict)
    return {"verdict": verdict, "value": int(total[1]) if total else verdict, "proved": "proved" in verdict,
            "cpu_seconds": float(found["cpu"]), "solver_wall_seconds": float(found["wall"]),
            "sub_problems": int(found["nodes"]), "process_wall_seconds": round(wall, 3),
            "process_cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 3)}


def main() -> None:
    """Value the positions with both commits, alternately, and record the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--head", default="HEAD", help="the commit measured (default HEAD)")
    parser.add_argument("--positions", default="fuzzy:-----", help="OPENER:REPLY,... (default fuzzy:-----)")
    parser.add_argument("--openers", default="", help="WORD,...: time `openers --exact --opener WORD` instead")
    parser.add_argument("--modes", default="hard,normal", help="hard, normal or both (default both)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per version, position and mode (default 3)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_versions.json")
    parser.add_argument("--note", default="", help="a line on the conditions (a shared machine, its load) to record")
    args = parser.parse_args()
    modes = args.modes.split(",")
    openers = [word.strip().lower() for word in args.openers.split(",") if word.strip()]
    positions = openers or args.positions.split(",")
    measure = opener_in if openers else value_in
    if not set(modes) <= {"hard", "normal"} or args.rounds < 1:
        raise SystemExit("--modes takes hard and/or normal, --rounds at least 1")
    commits = {"base": git("rev-parse", "--verify", f"{args.base}^{{commit}}"),
               "head": git("rev-parse", "--verify", f"{args.head}^{{commit}}")}
    load_before = os.getloadavg()
    runs: dict[str, dict[str, list[dict]]] = {"base": {}, "head": {}}
    chosen = f"--openers {args.openers}" if openers else f"--positions {args.positions}"
    command = (f"python benchmarks/bench_versions.py --base {args.base} --head {args.head} {chosen} "
               f"--modes {args.modes} --rounds {args.rounds}"
               + (f" --out {args.out}" if args.out != ROOT / "results" / "bench_versions.json" else ""))
    keys = [(position, mode) for mode in modes for position in positions]  # each mode in turn
    with tempfile.TemporaryDirectory() as scratch:
        trees = {name: Path(scratch) / name for name in commits}
        try:
            for name, commit in commits.items():
                git("worktree", "add", "--detach", str(trees[name]), commit)
            for name in commits:  # load (or compile) each version's kernels outside the timings, in each mode
                for mode in modes:
                    value_in(trees[name], "deeds:-----", mode)
            for done, (position, mode) in enumerate(keys, 1):  # each position's rounds together: partial runs pair up
                for number in range(args.rounds):
                    for name in ("base", "head") if number % 2 == 0 else ("head", "base"):
                        run = measure(trees[name], position, mode)
                        runs[name].setdefault(f"{position} {mode}", []).append(run)
                        print(f"round {number + 1} {name} {position} {mode}: {run['cpu_seconds']:.1f} s CPU, "
                              f"{run['sub_problems']} sub-problems", flush=True)
                write_record(args.out, command, commits, runs, load_before, bool(openers), done == len(keys), args.note)
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
            subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
    print(f"wrote {args.out}")


def write_record(out: Path, command: str, commits: dict, runs: dict, load_before: tuple, openers: bool,
                 complete: bool, note: str = "") -> None:
    """Summarise the runs so far (the versions must agree on each position's value) and write the results file
    (`complete` false while positions are still to run: what a stopped run leaves is what it measured)."""
    summary = {}
    for key in runs["base"]:
        values = {(run["value"], run["proved"]) for name in runs for run in runs[name][key]}
        if len(values) != 1:  # the best guess may differ where guesses tie
            raise SystemExit(f"{key}: the versions disagree (value, proved): {sorted(values)}")
        base = statistics.median(run["cpu_seconds"] for run in runs["base"][key])
        head = statistics.median(run["cpu_seconds"] for run in runs["head"][key])
        counts = {name: sorted({run["sub_problems"] for run in runs[name][key]}) for name in runs}
        summary[key] = {"base_median_cpu_seconds": base, "head_median_cpu_seconds": head,
                        "ratio_head_to_base": round(head / base, 3), "value": runs["base"][key][0]["value"],
                        "samples": len(runs["base"][key]), "sub_problems": counts,
                        "same_sub_problems": counts["base"] == counts["head"]}
        if openers:
            for figure in ("process_wall_seconds", "process_cpu_seconds", "solver_wall_seconds"):
                medians = [statistics.median(run[figure] for run in runs[name][key]) for name in ("base", "head")]
                summary[key].update({f"base_median_{figure}": medians[0], f"head_median_{figure}": medians[1],
                                     f"ratio_head_to_base_{figure}": round(medians[1] / medians[0], 3)})
        if complete:
            print(f"{key}: base {base:.1f} s, head {head:.1f} s CPU (median of {len(runs['base'][key])}): ratio "
                  f"{head / base:.2f}")
    record = {"command": command, "complete": complete, **({"note": note} if note else {}), "seed": None,
              "word_lists_sha256": Wordle().words.checksum,
              **provenance(), "cpu_model": cpu_model(), "cores": os.cpu_count(), "commits": commits,
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "summary": summary, "runs": runs}
    write_atomically(out, json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
