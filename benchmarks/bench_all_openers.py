"""The all-opener job on a seeded, stratified sample of openers: two commits side by side, per opener, both modes.

Run: python benchmarks/bench_all_openers.py --base COMMIT [--head COMMIT] [--sample 300] [--seed 0]
        [--modes normal,hard] [--out FILE] [--note TEXT]
The ranking of every allowed guess by its root bound (tournament.exact_openers.ranked_openers, today's lists:
--answers nyt --guesses nyt) is cut into `--sample` strata of equal size and one opener is drawn from each with
the seed; the sample is judged in rank order by one kept solver, as one of the job's workers judges its share
(tournament.exact_openers.solve_opener), against the cut-off the job itself uses on these lists (the optimal
total of the breadth-limited tree's opener: 7883 normal, 8097 hard, as `quick_cut` finds them; --cut-normal and
--cut-hard set them). Each commit runs in its own temporary git worktree and a fresh process per mode, base
first in normal mode and head first in hard mode, in one window of the machine's load. Per opener: its verdict
(total, exact, win), its CPU seconds as the job records them, and the CPU spent inside the win question
(`opener_wins`). The first opener's figure holds the worker's one-off costs (the whole-list proof, and the kernels
compiled for the temporary worktree's path), so the rest of the sample is given apart too. The versions' verdicts must agree where both are proofs of the same kind: an exact total or no
win exactly; a rejection's bound may differ (each is a proved bound above the cut-off). Writes
results/bench_all_openers.json (or --out) with the command, seed, word-list checksum, both commits, CPU model,
cores and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance, write_atomically  # noqa: E402

#: The cut-offs the job finds on today's lists (quick_cut: TARSE's and SALET's optimal totals).
CUTS = {"normal": 7883, "hard": 8097}

# One worker's share, inside the version's own tree: judge the openers in order with one kept solver.
CHILD = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, '.')
from wordle.words import named_words
import tournament.exact_openers as job
mode, cut, openers = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(',')
words = named_words('nyt', 'nyt')
lists = (words.answers, words.guesses)
settings = job.JobSettings(hard=mode == 'hard', max_guesses=6, word_lists_sha256=words.checksum, cut=cut)
solver = job.solver_for(lists, settings)
spent = [0.0]
asked = solver.prover.opener_wins
def timed(*args, **kwargs):
    started = time.process_time()
    try:
        return asked(*args, **kwargs)
    finally:
        spent[0] += time.process_time() - started
solver.prover.opener_wins = timed
import wordle
print(json.dumps({"imported_from": str(Path(wordle.__file__).parent.parent)}), flush=True)
for opener in openers:
    spent[0] = 0.0
    result = job.solve_opener(lists, settings, opener)
    print(json.dumps({"opener": opener, "total": result.total, "exact": result.exact, "win": result.win,
                      "cpu_seconds": result.cpu_seconds, "win_cpu_seconds": round(spent[0], 3),
                      "nodes": result.nodes}), flush=True)
"""


def git(*argv: str) -> str:
    """A git command in this repository, its output stripped; its own error as the message if it fails."""
    run = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"git {' '.join(argv)}: {(run.stderr.strip().splitlines() or ['failed'])[-1]}")
    return run.stdout.strip()


def stratified(ranked: list[str], count: int, seed: int) -> list[str]:
    """One opener drawn with `seed` from each of `count` equal strata of the ranking, in rank order."""
    draw = random.Random(seed)
    edges = [round(len(ranked) * part / count) for part in range(count + 1)]
    return [ranked[draw.randrange(low, high)] for low, high in zip(edges, edges[1:]) if high > low]


def judge_in(tree: Path, mode: str, cut: int, openers: list[str]) -> dict:
    """One fresh process in `tree` judging `openers` in order with one kept solver: per-opener lines and totals."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", CHILD, mode, str(cut), ",".join(openers)], cwd=tree,
                         capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"{tree.name} {mode}: {(run.stderr.strip().splitlines() or ['failed'])[-1]}")
    lines = [json.loads(line) for line in run.stdout.strip().splitlines()]
    if Path(lines[0]["imported_from"]).resolve() != tree.resolve():
        raise SystemExit(f"{tree.name}: the run imported wordle from outside its worktree")
    rows = lines[1:]
    return {"process_wall_seconds": round(wall, 2),
            "process_cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
            "openers_cpu_seconds": round(sum(row["cpu_seconds"] for row in rows), 2),
            "win_cpu_seconds": round(sum(row["win_cpu_seconds"] for row in rows), 2), "rows": rows}


def kind(row: dict) -> str:
    """An opener's verdict in a word: solved, rejected or no-win."""
    return "no-win" if row["win"] is False else "solved" if row["exact"] else "rejected"


def compare(mode: str, base: dict, head: dict) -> dict:
    """The two versions' verdicts checked against each other, and their CPU by kind of verdict."""
    by_kind: dict[str, dict[str, float]] = {}
    for old, new in zip(base["rows"], head["rows"]):
        if old["opener"] != new["opener"] or kind(old) != kind(new) or (old["exact"] and old["total"] != new["total"]):
            raise SystemExit(f"{mode} {old['opener']}: the versions disagree: {old} against {new}")
        entry = by_kind.setdefault(kind(old), {"openers": 0, "base_cpu_seconds": 0.0, "head_cpu_seconds": 0.0})
        entry["openers"] += 1
        entry["base_cpu_seconds"] = round(entry["base_cpu_seconds"] + old["cpu_seconds"], 3)
        entry["head_cpu_seconds"] = round(entry["head_cpu_seconds"] + new["cpu_seconds"], 3)
    return {"by_kind": by_kind, "base_openers_cpu_seconds": base["openers_cpu_seconds"],
            "head_openers_cpu_seconds": head["openers_cpu_seconds"],
            "ratio_head_to_base": round(head["openers_cpu_seconds"] / max(base["openers_cpu_seconds"], 1e-9), 3),
            "base_first_opener_cpu_seconds": base["rows"][0]["cpu_seconds"],
            "head_first_opener_cpu_seconds": head["rows"][0]["cpu_seconds"],
            "base_rest_cpu_seconds": round(base["openers_cpu_seconds"] - base["rows"][0]["cpu_seconds"], 2),
            "head_rest_cpu_seconds": round(head["openers_cpu_seconds"] - head["rows"][0]["cpu_seconds"], 2)}


def main() -> None:
    """Draw the sample, judge it with both commits in each mode, check the verdicts agree, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare against")
    parser.add_argument("--head", default="HEAD", help="the commit measured (default HEAD)")
    parser.add_argument("--sample", type=int, default=300, help="openers drawn, one per stratum (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="the draw's seed (default 0)")
    parser.add_argument("--modes", default="normal,hard", help="normal and/or hard (default both)")
    parser.add_argument("--cut-normal", type=int, default=CUTS["normal"], help="normal mode's cut-off (7883)")
    parser.add_argument("--cut-hard", type=int, default=CUTS["hard"], help="hard mode's cut-off (8097)")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "bench_all_openers.json")
    parser.add_argument("--note", default="", help="a line on the conditions (a shared machine, its load)")
    args = parser.parse_args()
    modes = args.modes.split(",")
    if not set(modes) <= {"hard", "normal"} or args.sample < 1:
        raise SystemExit("--modes takes hard and/or normal, --sample at least 1")
    from tournament.exact_openers import ranked_openers
    from wordle import Wordle, load_matrix
    from wordle.words import named_words
    words = named_words("nyt", "nyt")
    game = Wordle(words, load_matrix(words))
    cuts = {"normal": args.cut_normal, "hard": args.cut_hard}
    commits = {"base": git("rev-parse", "--verify", f"{args.base}^{{commit}}"),
               "head": git("rev-parse", "--verify", f"{args.head}^{{commit}}")}
    command = (f"python benchmarks/bench_all_openers.py --base {args.base} --head {args.head} --sample {args.sample} "
               f"--seed {args.seed} --modes {args.modes} --cut-normal {args.cut_normal} --cut-hard {args.cut_hard}"
               + (f" --out {args.out}" if args.out != ROOT / "results" / "bench_all_openers.json" else ""))
    load_before = os.getloadavg()
    record: dict = {"command": command, "seed": args.seed, "word_lists_sha256": words.checksum, **provenance(),
                    "cpu_model": cpu_model(), "cores": os.cpu_count(), "commits": commits, "cuts": cuts,
                    "note": args.note, "load_average_before": [round(x, 2) for x in load_before], "modes": {}}
    with tempfile.TemporaryDirectory() as scratch:
        trees = {name: Path(scratch) / name for name in commits}
        try:
            for name, commit in commits.items():
                git("worktree", "add", "--detach", str(trees[name]), commit)
            for number, mode in enumerate(modes):
                sample = stratified(ranked_openers(game, mode == "hard", 6), args.sample, args.seed)
                runs = {}
                for name in ("base", "head") if number % 2 == 0 else ("head", "base"):
                    runs[name] = judge_in(trees[name], mode, cuts[mode], sample)
                    print(f"{mode} {name}: openers {runs[name]['openers_cpu_seconds']} s CPU (win question "
                          f"{runs[name]['win_cpu_seconds']} s), process {runs[name]['process_cpu_seconds']} s CPU, "
                          f"{runs[name]['process_wall_seconds']} s wall", flush=True)
                record["modes"][mode] = {"sample": sample, "summary": compare(mode, runs["base"], runs["head"]),
                                         "runs": runs}
                record["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
                write_atomically(args.out, json.dumps(record, indent=1) + "\n")
                print(json.dumps(record["modes"][mode]["summary"]), flush=True)
        finally:
            for tree in trees.values():
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
            subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
