"""Mutation testing of the solver package: does each small, meaningful mistake in wordle/solver/ fail a test?

Run: python benchmarks/mutate_solver.py [--only NAME,...] [--tests FILE,...] [--timeout 900] [--keep-going]
        [--out FILE]

Each mutation (`MUTATIONS`) is one named edit of one file of wordle/solver/: its exact old text, found once, and the
new text, with a line on why it is wrong. The script copies this worktree (the files git tracks or would, as they
are now, uncommitted edits included) into one temporary folder (the same path for every run of a worktree),
checks that the solver's tests pass there unmutated, then for each mutation writes the mutated file into the copy,
runs the solver's fast tests (`TESTS`, the default tier: `-m 'not slow'`) in a fresh process with a timeout, and
puts the file back. The real files are never edited.
The same copy serves every mutation, so the compiled kernels (never mutated here) are compiled or loaded once.

A mutation is killed when a test fails (the first failing test is named; with --keep-going, every one), or when the
run passes its timeout (a mutation that makes the search run away); it survives when every test passes. Writes
results/mutations-solver.json (or --out) with each mutation, its verdict, the tests that killed it, the command,
commit, CPU model, cores and load average. Exits 1 where a mutation survives.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from plumbing.storage import cpu_model, provenance, write_atomically  # noqa: E402

#: The solver's tests, run against each mutation: those that exercise wordle/solver/ directly (the fast tier).
TESTS = ("tests/test_solver_memory.py", "tests/test_lost_cores.py", "tests/test_win_prover.py", "tests/test_optimal.py",
         "tests/test_endgames.py", "tests/test_short_wins.py", "tests/test_optimal_hints.py", "tests/test_parts.py",
         "tests/test_objectives.py", "tests/test_winners.py")


@dataclass(frozen=True)
class Mutation:
    """One small edit of one file of the solver: `old`, found exactly once there, becomes `new`."""

    name: str
    file: str
    old: str
    new: str
    why: str


MUTATIONS = (
    Mutation("forget_memory keeps the guess floors", "wordle/solver/memory.py",
             "        self.memo.clear()\n        self.forget_guess_floors()\n\n    def use_memo",
             "        self.memo.clear()\n\n    def use_memo",
             "guess floors proved under the forgotten memory survive it: a search after forget_memory is no longer "
             "the fresh solver's"),
    Mutation("use_memo keeps the guess floors", "wordle/solver/memory.py",
             "        self.memo = memo\n        self.forget_guess_floors()",
             "        self.memo = memo",
             "the floors of one memory are read with another's sub-problems"),
    Mutation("a kept bound may fall", "wordle/solver/memory.py",
             "        if old is not None and exact < 0:\n            bound = max(bound, old[0])\n",
             "",
             "a weaker bound found under a lower budget overwrites a stronger one: a memo hit re-searches"),
    Mutation("the sub-problems' size limit ignored", "wordle/solver/memory.py",
             "        if len(self.memo) >= self.size and key not in self.memo:",
             "        if False and len(self.memo) >= self.size and key not in self.memo:",
             "Limits.memo no longer bounds the memory: a long proof grows without limit"),
    Mutation("a full memory rebuilds seen_sets without the win memory's sets", "wordle/solver/memory.py",
             "            self.seen_sets.update([self.whole_key[0], *(win_key[0] for win_key in self.wins)])",
             "            self.seen_sets.update([self.whole_key[0]])",
             "seen_sets is no longer a superset of the win memory's sets: a set remembered lost is bounded as if "
             "unknown"),
    Mutation("the win memory's key misses the hints", "wordle/solver/memory.py",
             "        return (self.set_bytes(answers), hints)",
             "        return (self.set_bytes(answers), None)",
             "a verdict proved under hard mode's hints answers for the same answers under other hints"),
    Mutation("the sub-problems' key misses the hints", "wordle/solver/memory.py",
             "        return (self.set_bytes(answers), left, hints)",
             "        return (self.set_bytes(answers), left, None)",
             "a cost proved under some hints is read back under others (hard mode)"),
    Mutation("a lost verdict claims one guess more", "wordle/solver/memory.py",
             "(max(too_few, left), enough)",
             "(max(too_few, left + 1), enough)",
             "a set lost within k guesses is remembered as lost within k + 1"),
    Mutation("the pure caches' size limit ignored", "wordle/solver/memory.py",
             "        if len(self) >= self.most and key not in self:",
             "        if False and len(self) >= self.most and key not in self:",
             "Forgetful keeps everything: the legal guesses, ceilings and parts grow without limit"),
    Mutation("lost cores found whatever guesses are legal", "wordle/solver/lost_cores.py",
             "                                           if not legal & ~core_legal]",
             "                                           if True]",
             "a core proved lost under few legal guesses condemns a set that may play more"),
    Mutation("a lost core answers for a guess more", "wordle/solver/lost_cores.py",
             "                if core_left < left or core_size > size:",
             "                if core_left < left - 1 or core_size > size:",
             "a core lost within k guesses condemns a set with k + 1 to go"),
    Mutation("the three-guess cores kept as if every guess were legal", "wordle/solver/win_prover.py",
             "        three_cores.add(self.memory.lost_core(self.memory.win_key(answers, hints or None), answers), "
             "legal, 3)",
             "        three_cores.add(self.memory.lost_core(self.memory.win_key(answers, hints or None), answers),\n"
             "                        self.memory.legal_bits(None), 3)",
             "a set lost within three under hard mode's hints condemns the same answers without them (issue 47)"),
    Mutation("the whole list's win answers for sets under hints", "wordle/solver/win_prover.py",
             "        if not hints and left >= memory.win_limits(memory.whole_key)[1]:",
             "        if left >= memory.win_limits(memory.whole_key)[1]:",
             "a tree winning every answer with no hints is not one a hard-mode set under hints may play"),
    Mutation("the win prover's replies get a guess too many", "wordle/solver/win_prover.py",
             "                won = self.try_to_win(group, left - 1, child_hints(code), effort)",
             "                won = self.try_to_win(group, left, child_hints(code), effort)",
             "a reply deep in the win search is asked whether it wins within the parent's guesses, not one fewer"),
    Mutation("the win prover takes every set of left + 1 answers as won", "wordle/solver/win_prover.py",
             "        if size <= left:  # guess the possible answers one by one",
             "        if size <= left + 1:  # guess the possible answers one by one",
             "a set of k + 1 answers is not always won within k guesses"),
    Mutation("the set's floor off by one guess", "wordle/solver/costs.py",
             "        return size * SCALE + self.hit(left) - SCALE + (size - 1) * self.hit(left - 1)",
             "        return size * SCALE + self.hit(left) + (size - 1) * self.hit(left - 1)",
             "the floor of a set charges one guess more than the best tree can need: no longer a lower bound"),
    Mutation("Selby's peak floor off by one guess", "wordle/solver/costs.py",
             "        return (3 * size - 1 - top) * SCALE",
             "        return (3 * size - top) * SCALE",
             "a big reply's floor by the most replies any guess gets charges one guess too many"),
    Mutation("a long game counted from the fifth guess", "wordle/solver/costs.py",
             "        return SCALE + (number > self.long_game)",
             "        return SCALE + (number >= self.long_game)",
             "the last criterion counts games of five guesses as long"),
    Mutation("two answers cost as if the second were solved with as many guesses left",
             "wordle/solver/branch_and_bound.py",
             "            return costs.hit(left) + SCALE + costs.hit(left - 1)",
             "            return costs.hit(left) + SCALE + costs.hit(left)",
             "the two-answer shortcut misses the long game of the answer solved by the second guess"),
    Mutation("a remembered bound cuts one guess below the budget", "wordle/solver/branch_and_bound.py",
             "            if known[0] >= budget:\n                return known[0]",
             "            if known[0] >= budget - SCALE:\n                return known[0]",
             "a sub-problem whose bound is just below the budget is returned unsolved, as if cut"),
    Mutation("a guess floor cuts a guess one guess early", "wordle/solver/branch_and_bound.py",
             "            if known >= limit:  # a proved bound on the guess",
             "            if known + SCALE >= limit:  # a proved bound on the guess",
             "a guess cut before at a bound below the limit is skipped: the best guess may be missed"),
    Mutation("the endgame bound counts one spread too many", "wordle/solver/endgames.py",
             "    top = np.sort(spread)[::-1][:left - 1]",
             "    top = np.sort(spread)[::-1][:left]",
             "the endgame's bound on answers won is looser than proved (the oracle slow_most_won disagrees)"),
    Mutation("the endgame bound forgets the answer guessed", "wordle/solver/endgames.py",
             "    return min(len(answers), 1 + int(top.sum()))\n\n\ndef slow_most_won",
             "    return min(len(answers), int(top.sum()))\n\n\ndef slow_most_won",
             "one answer fewer than can be won is claimed: winnable endgames are called lost"),
    Mutation("a guess's bound charges its own answer twice", "wordle/solver/passes.py",
             "                cost += costs.hit(left) - SCALE\n",
             "                cost += costs.hit(left)\n",
             "the answer a guess solves pays its guess twice: the guess's bound is above its best tree"),
)


def tracked_files() -> list[str]:
    """The files of this worktree git tracks or would track (untracked ones not ignored), as they are now."""
    run = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True)
    return [name for name in run.stdout.decode().split("\0") if name and (ROOT / name).is_file()]


def copy_tree(target: Path) -> None:
    """Copy the worktree's files into `target` (times kept, so the compiled kernels' cache index stays valid)."""
    for name in tracked_files():
        if name.startswith("results/"):
            continue
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination)


def run_tests(tree: Path, tests: tuple[str, ...], timeout: float, keep_going: bool) -> dict:
    """The tests, run once in `tree` in a fresh process: passed, failed (with the failing tests) or timeout."""
    report = tree / "junit.xml"
    report.unlink(missing_ok=True)
    shutil.rmtree(tree / ".hypothesis", ignore_errors=True)  # no run replays another mutation's failing examples
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", f"--junitxml={report}", *tests]
    if not keep_going:
        command.insert(4, "-x")
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {"outcome": "timeout", "failed": [], "seconds": round(time.perf_counter() - started, 1)}
    except BaseException:  # stopped (Ctrl-C, SIGTERM turned into an exception): the tests stop with it
        os.killpg(process.pid, signal.SIGKILL)
        raise
    failed = []
    if report.exists():
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                failed.append(f"{case.get('file') or case.get('classname', '').replace('.', '/') + '.py'}::"
                              f"{case.get('name')}")
    summary = (output.strip().splitlines() or [""])[-1]
    outcome = "passed" if process.returncode == 0 else "failed"
    if process.returncode not in (0, 1):  # an error collecting or running pytest itself: a kill, said so
        failed = failed or [f"pytest exit {process.returncode}: {summary}"]
    return {"outcome": outcome, "failed": failed, "summary": summary,
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    """Apply each mutation in a copy of the tree, run the solver's tests against it, record what killed it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated mutation names (default: all)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per test run (default 900)")
    parser.add_argument("--keep-going", action="store_true", help="run every test, not only up to the first failure")
    parser.add_argument("--tests", default="", help="comma-separated test files or node ids (default: TESTS)")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "mutations-solver.json")
    args = parser.parse_args()
    if args.list:
        for mutation in MUTATIONS:
            print(f"{mutation.name}  ({mutation.file})")
        return
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only.split(",")]
    unknown = set(filter(None, args.only.split(","))) - {m.name for m in MUTATIONS}
    if unknown:
        raise SystemExit(f"unknown mutation(s): {', '.join(sorted(unknown))} (see --list)")
    for mutation in chosen:  # every edit must apply as written, before anything runs
        count = (ROOT / mutation.file).read_text().count(mutation.old)
        if count != 1:
            raise SystemExit(f"{mutation.name}: its old text is found {count} times in {mutation.file}, not once")
    tests = tuple(args.tests.split(",")) if args.tests else TESTS
    load_before = os.getloadavg()
    made_from = provenance()  # the commit the copy is made from, before any later commit
    results = []
    # one fixed folder per worktree: a later run finds its kernels compiled for this path in the cache
    tree = Path(tempfile.gettempdir()) / "mutate-solver" / ROOT.name
    shutil.rmtree(tree, ignore_errors=True)
    try:
        copy_tree(tree)
        where = subprocess.run([sys.executable, "-c", "import wordle; print(wordle.__file__)"], cwd=tree,
                               capture_output=True, text=True).stdout.strip()
        if not where.startswith(str(tree)):
            raise SystemExit(f"the copy imports wordle from {where}, not from itself")
        baseline = run_tests(tree, tests, args.timeout, keep_going=False)
        print(f"unmutated: {baseline['outcome']} in {baseline['seconds']} s ({baseline.get('summary', '')})",
              flush=True)
        if baseline["outcome"] != "passed":
            raise SystemExit(f"the tests fail without a mutation: {baseline['failed']}")
        for mutation in chosen:
            path = tree / mutation.file
            original, stat = path.read_bytes(), path.stat()
            path.write_text(original.decode().replace(mutation.old, mutation.new, 1))
            try:
                run = run_tests(tree, tests, args.timeout, args.keep_going)
            finally:
                path.write_bytes(original)
                os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            killed = run["outcome"] != "passed"
            results.append({**asdict(mutation), "killed": killed, **run})
            verdict = ("killed by " + ", ".join(run["failed"][:3]) if run["failed"] else
                       "killed (timeout)" if killed else "SURVIVED")
            print(f"{mutation.name}: {verdict} ({run['seconds']} s)", flush=True)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    survivors = [result["name"] for result in results if not result["killed"]]
    command = "python benchmarks/mutate_solver.py" + (f" --only '{args.only}'" if args.only else "") + (
        f" --tests {args.tests}" if args.tests else "") + (
        f" --timeout {args.timeout:g}" if args.timeout != 900 else "") + (" --keep-going" if args.keep_going else "")
    record = {"command": command, "tests": list(tests), "pytest": "python -m pytest -q -x (the default tier: -m "
              "'not slow') in a copy of the worktree, one fresh process per mutation", **made_from,
              "cpu_model": cpu_model(), "cores": os.cpu_count(),
              "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()],
              "note": "a shared 2-core machine (other sessions and a long proof at nice 19); the seconds are wall "
                      "time under that load, not a measure of speed",
              "baseline_seconds": baseline["seconds"], "mutations": len(results),
              "killed": len(results) - len(survivors), "survived": survivors, "results": results}
    write_atomically(args.out, json.dumps(record, indent=1) + "\n")
    print(f"{len(results) - len(survivors)} of {len(results)} killed; wrote {args.out}")
    if survivors:
        sys.exit(1)


if __name__ == "__main__":
    main()
