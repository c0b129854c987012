"""The exact fixed-pair job: the best two fixed first words (then best play) over a space of words, proved.

Totals are guesses over every answer (lower is better for the Guesser); normal mode.

The space is every ordered pair (a, b) of different words with a among its first words and b among its second
words: every allowed guess both, or (a restricted space, said in the results) the best N first words by the
solver's bound at the root with every guess second. Against a cut-off U, the total of a real pair (given, or the best of a few pairs solved first),
each pair is solved exactly if its total is at most U, else rejected with a proved lower bound above U; most
never reach the solver, by three sound cuts:

* **Order.** In normal mode a pair's two orders leave the same positions with the same guesses left; only the two
  words' own answers pay differently: total(b, a) = total(a, b) + [a is an answer] - [b is an answer]
  (`wordle.fixed_starts.swapped_total`). So where both orders are in the space only one is judged: the answer
  first where one word is an answer and the other not (the other order is one guess worse), else the lower index
  first (the two orders tie). The judged order is never worse than the other, so a cut of it cuts both.
* **Words.** A pair's tree is a tree opening with its first word, so total(a, b) >= opt(a); and by the order rule
  total(a, b) >= total(b, a) - 1 >= opt(b) - 1. A first word whose proved lower bound (`word_bound`: the solver's
  bound on every tree opening with it) is above U is left out as a first word, and above U + 1 as a second word
  too (second words outside the first words get no bound of their own: the pair bound judges them).
* **Pairs.** After the first word a, each reply's answers G cost, with b fixed next, at least b's one-step bound on
  G (3n - 2s - r with five guesses left: `BoundPasses.lower_bounds`, read for every b at once) and at least any
  lower bound on G itself (the one the solver proved for a's replies, `guess_bound`'s). The one-step bound leaves
  out a guess that tells nothing (one reply from all of G), which the search never plays and a fixed start does:
  if b is G's one answer it costs one guess; else G's answers pay b and then G with a guess fewer (at least its
  floor there). Their sum over a's replies,
  with what a's own answer pays, bounds total(a, b) from below; a pair whose bound is above U is rejected unread.

Each first word is one task (locally a process pool, or Dask: `exact_openers.run_dask`): its line holds every
second word judged (exact, or rejected with its bound) and how many the pair bound cut. Lines are appended as they
finish, the first line holding the settings, the space, the word bounds and provenance; a rerun skips the first
words already saved (a resumed, killed run).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from plumbing.errors import UserError
from plumbing.storage import append_json_line, provenance
from wordle import Wordle, load_matrix
from wordle.fixed_starts import start_cost
from wordle.solver import INFEASIBLE, SCALE, Limits, Solver
from wordle.solver.bounds import split_counts
from wordle.words import Words

FORMAT = "wordle-arena exact pairs v1"


@dataclass(frozen=True)
class PairSettings:
    """What every pair of one job is judged under: the guess limit, the lists, the cut-off and the space's words."""

    max_guesses: int
    word_lists_sha256: str
    cut: int
    first_space: tuple[str, ...]  # the first words of the space (every guess, or the best N by root bound)
    second_space: tuple[str, ...]  # its second words (every guess)
    second_words: tuple[str, ...] = ()  # the second words the word cut leaves (in the space's order)


@dataclass(frozen=True)
class FirstWord:
    """One first word's pairs: each second word judged as [word, total, games over 5, exact] (not exact: total is
    a proved lower bound above the cut-off; -1: no win), how many the pair bound cut unread, and the work."""

    first: str
    pairs: list = field(default_factory=list)
    bound_cut: int = 0
    nodes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker: str = ""


def is_answer(game: Wordle, guess: int) -> bool:
    """Whether the guess is one of the answers."""
    return bool(np.any(game.words.answer_rows == guess))


def judged_order(game: Wordle, first: int, second: int) -> bool:
    """Whether (first, second) is the order of its pair the job judges (see the module's docstring: the answer first
    where one is, else the lower index first)."""
    one, two = is_answer(game, first), is_answer(game, second)
    return one and not two or (one == two and first < second)


def joint_positions(game: Wordle, first: int, seconds: np.ndarray) -> np.ndarray:
    """For each second word, how many different reply pairs the two words get from the answers (the seeds' order: a
    heuristic, never a cut)."""
    keys = game.matrix[first, game.all_answers].astype(np.int64) * 243 + game.matrix[seconds][:, game.all_answers]
    keys.sort(axis=1)
    return 1 + np.count_nonzero(np.diff(keys, axis=1), axis=1)


def word_bound(solver: Solver, word: int, limit: int) -> int:
    """A proved lower bound on every tree opening with `word` over all the answers (packed), exact enough to tell
    whether it reaches `limit`: the solver's bound on the opener (its replies' floors, the big ones sharpened)."""
    state = solver.game.initial_state(max_guesses=solver.max_guesses)
    return solver.passes.guess_bound(np.asarray(state.candidates), solver.max_guesses, None, word, limit)[0]


def pair_bounds(solver: Solver, first: int, seconds: np.ndarray) -> np.ndarray:
    """A proved lower bound on total(first, b) (packed) for each b of `seconds` (see the module's docstring)."""
    game, costs = solver.game, solver.costs
    left = solver.max_guesses
    answers = game.all_answers
    _, replies = solver.passes.guess_bound(answers, left, None, first, INFEASIBLE)
    total = np.full(len(seconds), len(answers) * SCALE, dtype=np.int64)
    if is_answer(game, first):
        total += costs.hit(left) - SCALE
    step = costs.step_costs(left - 1)
    columns = solver.passes.columns
    for group, _, (floor, _) in replies:
        lower, _ = solver.passes.lower_bounds(columns, seconds, group, step, left - 1 == 2, None)
        lower = np.minimum(lower.astype(np.int64), INFEASIBLE)
        # the one-step bound gives a guess that tells nothing apart (one reply, not an answer) NEVER, as the search
        # never plays it; a fixed start does: the same answers, a guess fewer
        bins, hits = split_counts(columns, seconds, group)
        lower[(bins == 1) & (hits == 0)] = min(len(group) * SCALE + costs.floor(len(group), left - 2), INFEASIBLE)
        lower[(bins == 0) & (hits == 1)] = costs.hit(left - 1)  # the one answer left, guessed: exact
        total += np.maximum(lower, min(floor, INFEASIBLE))
    return total


def judge_first(solver: Solver, settings: PairSettings, first: str) -> FirstWord:
    """Every pair with this first word and a second word of the space, in the judged order: exact (at most the
    cut-off), rejected with a bound, or cut by the pair bound."""
    game = solver.game
    started, cpu, nodes = time.perf_counter(), time.process_time(), solver.stats.nodes
    index = game.words.guess_index
    a = index[first]
    firsts = set(settings.first_space)
    candidates = np.array([index[w] for w in settings.second_words
                           if w != first and (w not in firsts or judged_order(game, a, index[w]))], dtype=np.int64)
    limit = (settings.cut + 1) * SCALE
    pairs = []
    cut = 0
    if len(candidates):
        bounds = pair_bounds(solver, a, candidates)
        order = np.argsort(bounds, kind="stable")
        for b, bound in zip(candidates[order].tolist(), bounds[order].tolist()):
            if bound >= limit:
                cut += 1
                continue
            solver.root = None
            cost = start_cost(solver, (a, b), limit)
            if cost >= INFEASIBLE:
                pairs.append([game.words.guesses[b], -1, -1, True])
            elif cost < limit:
                pairs.append([game.words.guesses[b], cost // SCALE, cost % SCALE, True])
            else:
                pairs.append([game.words.guesses[b], cost // SCALE, 0, False])
    return FirstWord(first=first, pairs=pairs, bound_cut=cut, nodes=solver.stats.nodes - nodes,
                     seconds=round(time.perf_counter() - started, 3), cpu_seconds=round(time.process_time() - cpu, 3),
                     worker=f"{os.uname().nodename}:{os.getpid()}")


# -- the worker side ------------------------------------------------------------------
_SOLVERS: dict[tuple, Solver] = {}


def solver_for(lists: tuple[tuple[str, ...], tuple[str, ...]], settings: PairSettings) -> Solver:
    """This process's solver for the lists and guess limit (built on first use, the matrix from the disk cache)."""
    key = (settings.word_lists_sha256, settings.max_guesses)
    if key not in _SOLVERS:
        words = Words.build(*lists)
        if words.checksum != settings.word_lists_sha256:
            raise ValueError("the word lists sent to the worker do not match the job's checksum")
        _SOLVERS.clear()
        _SOLVERS[key] = Solver(Wordle(words, load_matrix(words)), max_guesses=settings.max_guesses, limits=Limits())
    return _SOLVERS[key]


def judge_firsts(lists: tuple[tuple[str, ...], tuple[str, ...]], settings: PairSettings,
                 firsts: list[str]) -> list[FirstWord]:
    """Several first words in one task (a worker process or a Dask task)."""
    solver = solver_for(lists, settings)
    return [judge_first(solver, settings, first) for first in firsts]


def run_local(lists, settings: PairSettings, firsts: list[str], jobs: int) -> Iterator[FirstWord]:
    """The first words on `jobs` local processes (in this one for 1), each result as it finishes."""
    from concurrent.futures import as_completed

    from plumbing.processes import worker_pool

    if jobs <= 1:
        for first in firsts:
            yield judge_firsts(lists, settings, [first])[0]
        return
    with worker_pool(jobs) as pool:
        futures = [pool.submit(judge_firsts, lists, settings, [first]) for first in firsts]
        for future in as_completed(futures):
            yield future.result()[0]


# -- planning -------------------------------------------------------------------------
@dataclass(frozen=True)
class PairPlan:
    """A job before it runs: its settings, first words (those the word cut leaves), the word bounds, where it saves."""

    settings: PairSettings
    firsts: list[str]
    word_bounds: dict[str, int]
    out: Path
    seed_pairs: list = field(default_factory=list)  # the pairs solved to find the cut-off: [first, second, total]


def space_words(game: Wordle, top: int | None) -> list[str]:
    """The space: every allowed guess, or the best `top` by the solver's bound at the root (then by index)."""
    from .exact_openers import ranked_openers

    ranked = ranked_openers(game, False, 6)  # the root bound's order (the guess limit changes no one-step order)
    return ranked if top is None else ranked[:top]


def plan_pairs(game: Wordle, max_guesses: int, first_space: list[str], against: int | None, out: Path,
               on_step: Callable[[str], None] | None = None, second_space: list[str] | None = None) -> PairPlan:
    """The cut-off (given, else the best of six seed pairs solved: the space's first three words, each with the two
    second words of least pair bound), then the word cut over the first words (the second words outside them keep
    no bound of their own: the pair bound judges them). `second_space` defaults to every allowed guess."""
    solver = Solver(game, max_guesses=max_guesses)
    index = game.words.guess_index
    seconds_all = list(second_space) if second_space is not None else list(game.words.guesses)
    in_first = set(first_space)
    seeds: list = []
    cut = against
    if cut is None:
        if on_step:
            on_step("finding a cut-off: the space's three first words, each with its two second words of least pair "
                    "bound, solved")
        for word in first_space[:3]:
            first = index[word]
            others = np.array([index[w] for w in seconds_all if w != word
                               and (w not in in_first or judged_order(game, first, index[w]))], dtype=np.int64)
            for b in others[np.argsort(pair_bounds(solver, first, others), kind="stable")[:2]].tolist():
                solver.root = None
                cost = start_cost(solver, (first, b))
                if cost < INFEASIBLE:
                    seeds.append([word, game.words.guesses[b], cost // SCALE])
        if not seeds:
            raise UserError("no seed pair of the space wins every answer: give --against TOTAL")
        cut = min(seed[2] for seed in seeds)
    limit = (cut + 2) * SCALE  # a word is in no pair at most the cut-off if its own bound reaches cut + 2
    bounds: dict[str, int] = {}
    for number, word in enumerate(first_space):
        if on_step and number % 50 == 0:
            on_step(f"word bounds: {number}/{len(first_space)}")
        bounds[word] = min(word_bound(solver, index[word], limit), INFEASIBLE) // SCALE
    second_words = tuple(w for w in seconds_all if w not in bounds or bounds[w] <= cut + 1)
    firsts = [w for w in first_space if bounds[w] <= cut]
    settings = PairSettings(max_guesses=max_guesses, word_lists_sha256=game.words.checksum, cut=cut,
                            first_space=tuple(first_space), second_space=tuple(seconds_all),
                            second_words=second_words)
    return PairPlan(settings=settings, firsts=firsts, word_bounds=bounds, out=out, seed_pairs=seeds)


# -- the results file -----------------------------------------------------------------
def header(plan: PairPlan, command: str, engine: str, every_guess: bool) -> dict:
    """The file's first line: the settings, the space, the word bounds, the command and provenance."""
    return {"format": FORMAT, "command": command, "seed": None, "seed_note": "the job makes no random choice",
            "mode": "normal", **asdict(plan.settings), "every_guess": every_guess, "firsts": plan.firsts,
            "word_bounds": plan.word_bounds, "seed_pairs": plan.seed_pairs, "engine": engine, **provenance()}


def read_pairs(path: Path, settings: PairSettings | None = None) -> tuple[dict, dict[str, FirstWord]]:
    """The header and the saved first words of a results file (a torn last line dropped), each line checked.

    Raises:
        UserError: not a pairs file, another job's (settings differ), or a line this job does not write (named).
    """
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except FileNotFoundError:
        return {}, {}
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read it as a pairs file ({type(error).__name__})") from None
    try:
        head = json.loads(lines[0])
        if head.get("format") != FORMAT:
            raise ValueError
    except (ValueError, AttributeError):
        raise UserError(f"{path}: not an exact-pairs results file") from None
    if settings is not None and any(head.get(key) != (list(value) if isinstance(value, tuple) else value)
                                    for key, value in asdict(settings).items()):
        raise UserError(f"{path}: holds a job with other settings or words; choose another --out")
    cut = head["cut"]
    done: dict[str, FirstWord] = {}
    firsts, seconds = set(head.get("firsts", ())), set(head.get("second_words", ()))
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            if number == len(lines):
                break
            raise UserError(f"{path}, line {number}: not a result (a damaged line)") from None
        if isinstance(data, dict) and set(data) == {"session"}:
            continue
        problem = line_problem(data, cut, firsts, seconds)
        if problem is not None:
            raise UserError(f"{path}, line {number}: not a line this job writes: {problem}")
        result = FirstWord(**data)
        if result.first in done and done[result.first].pairs != result.pairs:
            raise UserError(f"{path}, line {number}: {result.first.upper()} again, disagreeing")
        done.setdefault(result.first, result)
    return head, done


def line_problem(data: Any, cut: int, firsts: set[str], seconds: set[str]) -> str | None:
    """Why a line is not one this job writes, or None.

    >>> line_problem({"first": "parse", "pairs": [["clint", 8302, 0, True]], "bound_cut": 3, "nodes": 1,
    ...               "seconds": 1.0, "cpu_seconds": 1.0, "worker": "vm:1"}, 8302, {"parse"}, {"clint"})
    >>> line_problem({"first": "parse", "pairs": [["clint", 8300, 0, False]], "bound_cut": 3, "nodes": 1,
    ...               "seconds": 1.0, "cpu_seconds": 1.0, "worker": "vm:1"}, 8302, {"parse"}, {"clint"})
    'CLINT: a rejection with a bound of 8300, not above the cut-off 8302'
    """
    names = {f.name for f in FirstWord.__dataclass_fields__.values()}
    if not isinstance(data, dict) or set(data) != names:
        return "not a first word's result (its fields)"
    if data["first"] not in firsts:
        return f"'{str(data['first'])[:20]}' is not one of the job's first words"
    if not isinstance(data["pairs"], list) or not isinstance(data["bound_cut"], int) or data["bound_cut"] < 0:
        return "its pairs or its count of pairs cut are not what the job writes"
    for pair in data["pairs"]:
        if (not isinstance(pair, list) or len(pair) != 4 or pair[0] not in seconds
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in pair[1:3])
                or not isinstance(pair[3], bool)):
            return f"a pair {json.dumps(pair)[:40]} that is not [second word, total, games over 5, exact]"
        word, total, long_games, exact = pair
        if exact and total > cut:
            return f"{word.upper()}: an exact total of {total} above the cut-off {cut}"
        if not exact and (total <= cut or long_games != 0):
            return f"{word.upper()}: a rejection with a bound of {total}, not above the cut-off {cut}"
        if total < -1 or (total == -1 and (not exact or long_games != -1)):
            return f"{word.upper()}: a total of {total}"
    return None


def run_pairs(game: Wordle, plan: PairPlan, command: str, engine: str = "local", jobs: int = 2,
              address: str | None = None, every_guess: bool = False,
              on_result: Callable[[FirstWord], None] | None = None) -> list[FirstWord]:
    """Judge every first word of the plan, saving each line as it finishes and skipping those the file holds."""
    from .exact_openers import job_lock, run_dask

    lock = job_lock(plan.out)
    try:
        head, done = read_pairs(plan.out, plan.settings)
        if head and head.get("firsts") != plan.firsts:
            raise UserError(f"{plan.out}: holds a job with other first words; choose another --out")
        for result in done.values():
            if on_result is not None:
                on_result(result)
        todo = [first for first in plan.firsts if first not in done]
        lists = (game.words.answers, game.words.guesses)
        if not plan.out.exists():
            plan.out.write_text(json.dumps(header(plan, command, engine, every_guess)) + "\n", encoding="utf-8")
        else:
            text = plan.out.read_text(encoding="utf-8")
            if not text.endswith("\n"):
                plan.out.write_text(text[:text.rfind("\n") + 1], encoding="utf-8")
            append_json_line(plan.out, {"session": {"command": command, "engine": engine, "resumed_with": len(done),
                                                    **provenance()}})
        stream = (run_local(lists, plan.settings, todo, jobs) if engine == "local"
                  else run_dask(lists, plan.settings, todo, address, jobs, task=judge_firsts, name="pairs"))
        for result in stream:
            append_json_line(plan.out, asdict(result))
            done[result.first] = result
            if on_result is not None:
                on_result(result)
    finally:
        lock.release()
    return [done[first] for first in plan.firsts if first in done]


def pairs_summary(head: dict, results: list[FirstWord]) -> dict:
    """What the job proved: the best pair (and its other order's total), counts, whether it is the best over the
    space (every first word done and the best at most the cut-off) and over every pair of every guess."""
    exact = [(r.first, p[0], p[1], p[2]) for r in results for p in r.pairs if p[3] and p[1] >= 0]
    rejected = sum(1 for r in results for p in r.pairs if not p[3])
    best = min(exact, key=lambda item: (item[2], item[3], item[0], item[1]), default=None)
    complete = len(results) == len(head["firsts"])
    first_space, second_space = head["first_space"], head["second_space"]
    both = len(set(first_space) & set(second_space))
    return {
        "mode": "normal", "max_guesses": head["max_guesses"], "word_lists_sha256": head["word_lists_sha256"],
        "cut": head["cut"], "first_space": len(first_space), "second_space": len(second_space),
        "every_guess": head.get("every_guess", False),
        "ordered_pairs": len(first_space) * len(second_space) - both,
        "first_words_cut": len(first_space) - len(head["firsts"]),
        "second_words_cut": len(second_space) - len(head["second_words"]), "first_words": len(head["firsts"]),
        "first_words_done": len(results),
        "pairs_cut_by_bound": sum(r.bound_cut for r in results),
        "pairs_solved": len(exact), "pairs_rejected": rejected,
        "best": None if best is None else {"first": best[0], "second": best[1], "total": best[2],
                                           "long_games": best[3]},
        "proved_best_over_space": bool(complete and best is not None and best[2] <= head["cut"]),
        "proved_none_at_most_cut": bool(complete and best is None),
        "proved_best_over_every_pair": bool(complete and best is not None and best[2] <= head["cut"]
                                            and head.get("every_guess", False)),
        "exact": sorted(([f, s, t, g] for f, s, t, g in exact), key=lambda item: (item[2], item[3], item[0], item[1])),
    }


def summary_path(out: Path) -> Path:
    """Where a results file's summary lives: FILE.summary.json beside FILE.jsonl."""
    return out.with_name(out.name.removesuffix(".jsonl") + ".summary.json")


def verify_pairs(game: Wordle, path: Path, sample: int = 20, seed: int = 0) -> tuple[list[str], list[str]]:
    """Check a pairs file: every line (as a resumed job does), the summary beside it against the lines, and, proved
    again with the solver, the best pair's total and every exact total within one guess of it, the cut-off's seed
    pairs, and `sample` words the word cut left out and first words' pair cuts (seeded).

    Returns:
        (problems, what was checked), each a line of text.
    """
    head, done = read_pairs(path)
    if not head:
        return [f"{path}: no such file"], []
    problems: list[str] = []
    checked: list[str] = []
    if head["word_lists_sha256"] != game.words.checksum:
        return [f"{path}: made with other word lists (give the --answers and --guesses it names)"], []
    results = [done[first] for first in head["firsts"] if first in done]
    digest = summary_path(path)
    proved = pairs_summary(head, results)
    if digest.exists():
        try:
            stored = json.loads(digest.read_text(encoding="utf-8"))
            for key, value in proved.items():
                if stored.get(key) != value:
                    problems.append(f"{digest.name}: '{key}' is {json.dumps(stored.get(key))[:60]}, the lines say "
                                    f"{json.dumps(value)[:60]}")
            checked.append(f"{digest.name} agrees with the lines" if not problems else f"{digest.name} checked")
        except (OSError, ValueError, AttributeError):
            problems.append(f"{digest.name}: not a summary")
    solver = Solver(game, max_guesses=head["max_guesses"])
    index = game.words.guess_index
    cut = head["cut"]
    best = proved["best"]
    again = [item for item in proved["exact"] if best is not None and item[2] <= best["total"] + 1]
    again += [[f, s, t, None] for f, s, t in head.get("seed_pairs", [])]
    for first, second, total, long_games in again:
        solver.root = None
        cost = start_cost(solver, (index[first], index[second]))
        if cost // SCALE != total or (long_games is not None and cost % SCALE != long_games):
            problems.append(f"{first.upper()},{second.upper()}: the file says {total}, proved again "
                            f"{cost // SCALE} ({cost % SCALE} over 5)")
    checked.append(f"{len(again)} pair totals proved again (the best, those within one guess of it, the seeds)")
    rng = np.random.default_rng(seed)
    left_out = [w for w in head["first_space"] if w not in set(head["firsts"])]
    for word in rng.permutation(left_out)[:sample].tolist() if left_out else []:
        bound = min(word_bound(solver, index[word], (cut + 2) * SCALE), INFEASIBLE) // SCALE
        as_second = word in set(head["second_words"])
        if bound <= cut or (not as_second and bound <= cut + 1) or bound != head["word_bounds"].get(word):
            problems.append(f"{word.upper()}: left out by a word bound of {head['word_bounds'].get(word)}, "
                            f"found {bound} (the cut needs above {cut} as a first word, {cut + 1} as a second)")
    checked.append(f"{min(sample, len(left_out))} of {len(left_out)} words left out re-bounded")
    sampled = rng.permutation(len(results))[:max(1, sample // 4)].tolist() if results else []
    seconds = np.array([index[w] for w in head["second_words"]], dtype=np.int64)
    for number in sampled:
        result = results[number]
        a = index[result.first]
        in_first = {index[w] for w in head["first_space"]}
        candidates = np.array([b for b in seconds.tolist() if b != a and (b not in in_first or judged_order(game, a, b))],
                              dtype=np.int64)
        bounds = pair_bounds(solver, a, candidates) if len(candidates) else np.zeros(0, dtype=np.int64)
        cut_here = int(np.sum(bounds >= (cut + 1) * SCALE))
        judged = {game.words.guesses[b] for b, bound in zip(candidates.tolist(), bounds.tolist())
                  if bound < (cut + 1) * SCALE}
        if cut_here != result.bound_cut or judged != {p[0] for p in result.pairs}:
            problems.append(f"{result.first.upper()}: the pair bound cuts {cut_here} and leaves "
                            f"{len(judged)} to judge; the line says {result.bound_cut} and {len(result.pairs)}")
    checked.append(f"{len(sampled)} first words' pair cuts recomputed")
    return problems, checked
