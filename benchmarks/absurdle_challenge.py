"""Absurdle's challenge for every answer: the fewest guesses that force each target, proved, or the interval proved.

Run: nice -n 10 python benchmarks/absurdle_challenge.py [--workers 2] [--nodes 2000] [--seconds 60]

Three stages, each kept as it goes so that a killed run resumes where it stopped (run the same
command again):
1. Every answer that three guesses can leave alone (a win in 4), by the exhaustive two-guess
   pass over every distinct bucket of a first guess (`Challenge.reached_in_three`), split into
   chunks over `--workers` processes; no answer is left alone by two guesses (a win in 3), which
   the pass over all the answers checks first. After it, every other answer needs 5 at least.
2. Lines of 5 guesses for the others: the same two-guess pass run from buckets of two guesses,
   first buckets smallest first, until every answer has a line or `--stage2-buckets` buckets are
   spent (each line found is replayed against Absurdle before it is kept).
3. One line per answer in results/absurdle-challenge.jsonl (target, low, high, the line, how it was
   found); an answer with no line yet gets a search of its own (`Challenge.prove` from 5, within
   `--nodes` nodes and `--seconds`), else the greedy Guesser's game as its upper bound.
Then results/absurdle-challenge.json: the command, word-list checksum, commit, machine, seconds,
the count of targets by fewest guesses, and the answer to qntm's question (every target in 4?).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents.absurdle_challenge import ChallengeLimit, Challenge  # noqa: E402
from plumbing.storage import append_json_line, cache_dir, results_record, write_atomically  # noqa: E402
from wordle import Wordle  # noqa: E402

#: Version of the checkpoints and results lines: a run resumes only from files of its own version.
VERSION = 1
#: First buckets per chunk of stage 1.
CHUNK = 50

_worker: Challenge | None = None
_firsts: list[tuple[int, np.ndarray]] = []


def _start_worker() -> None:
    """A worker process's Challenge over the official lists, with the first buckets."""
    global _worker, _firsts
    _worker = Challenge(Wordle())
    _firsts = _worker.first_buckets()


def _sweep_chunk(numbers: list[int]) -> tuple[list[int], np.ndarray]:
    """Stage 1 over some first buckets (by their number): the chunk's numbers and the lines it found."""
    assert _worker is not None
    firsts = _firsts
    lines = np.full((len(_worker.answers), 3), -1, np.int64)
    for number in numbers:
        first, bucket = firsts[number]
        kept = lines[:, 0] >= 0
        before = kept.copy()
        second, third = lines[:, 1].copy(), lines[:, 2].copy()
        order, ceilings, rows = _worker.layout(bucket)
        _worker.kernels.two(rows, ceilings, order, bucket, _worker.tie, _worker.keys[bucket], -1, kept, second,
                            third)
        new = kept & ~before
        lines[new, 0], lines[new, 1], lines[new, 2] = first, second[new], third[new]
    return numbers, lines


def save_arrays(path: Path, **arrays: np.ndarray) -> None:
    """Write a checkpoint of arrays in one step."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def load_arrays(path: Path, checksum: str) -> dict[str, np.ndarray] | None:
    """A checkpoint written for these word lists and this version, or None."""
    try:
        with np.load(path) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError):
        return None
    if str(arrays.get("checksum")) != checksum or int(arrays.get("version", -1)) != VERSION:
        return None
    return arrays


def stage_one(challenge: Challenge, workers: int, checkpoint: Path, checksum: str,
              partial: bool) -> tuple[np.ndarray, np.ndarray, float]:
    """Every answer three guesses leave alone, with its line (rows of -1 elsewhere), the first buckets searched, and
    the seconds spent (`partial`: take the checkpoint as it stands, searching no more)."""
    count = len(challenge.first_buckets())
    saved = load_arrays(checkpoint, checksum)
    if saved is not None and len(saved["finished"]) == count:
        lines, finished, seconds = saved["lines"], saved["finished"], float(saved["seconds"])
    else:
        lines, finished, seconds = np.full((len(challenge.answers), 3), -1, np.int64), np.zeros(count, bool), 0.0
    todo = [] if partial else [number for number in range(count) if not finished[number]]
    chunks = [todo[start:start + CHUNK] for start in range(0, len(todo), CHUNK)]
    started = time.perf_counter()
    if not todo:
        return lines, finished, seconds
    with get_context("fork").Pool(workers, initializer=_start_worker) as pool:
        for numbers, found in pool.imap_unordered(_sweep_chunk, chunks):
            new = (found[:, 0] >= 0) & (lines[:, 0] < 0)
            lines[new] = found[new]
            finished[numbers] = True
            elapsed = seconds + time.perf_counter() - started
            save_arrays(checkpoint, lines=lines, finished=finished, seconds=np.array(elapsed),
                        checksum=np.array(checksum), version=np.array(VERSION))
            print(f"stage 1: {int(finished.sum())}/{count} first buckets, {int((lines[:, 0] >= 0).sum())} targets "
                  f"won in 4 so far ({elapsed:.0f} s)", flush=True)
    return lines, finished, seconds + time.perf_counter() - started


def settled(challenge: Challenge, finished: np.ndarray) -> np.ndarray:
    """For each answer, whether every first bucket holding it was searched by stage 1 (then an answer stage 1 did
    not reach is proved to need 5 guesses at least)."""
    open_buckets = np.zeros(len(challenge.answers), np.int64)
    for number, (_, bucket) in enumerate(challenge.first_buckets()):
        if not finished[number]:
            open_buckets[bucket] += 1
    return open_buckets == 0


def stage_two(challenge: Challenge, missing: np.ndarray, most_buckets: int, checkpoint: Path,
              checksum: str, most_seconds: float) -> tuple[np.ndarray, int]:
    """Lines of 4 guesses leaving alone the answers of `missing` (rows of -1 where none was found), and the
    buckets of two guesses searched (at most `most_buckets`, for at most about `most_seconds` this run)."""
    started = time.perf_counter()
    saved = load_arrays(checkpoint, checksum)
    if saved is not None:
        lines, searched = saved["lines"], int(saved["searched"])
        done_firsts = set(saved["done_firsts"].tolist())
    else:
        lines, searched, done_firsts = np.full((len(challenge.answers), 4), -1, np.int64), 0, set()
    wanted = np.zeros(len(challenge.answers), bool)
    wanted[missing] = True
    firsts = sorted(challenge.first_buckets(), key=lambda pair: len(pair[1]))
    for first, bucket in firsts:
        if searched >= most_buckets or time.perf_counter() - started > most_seconds \
                or not (wanted & (lines[:, 0] < 0)).any():
            break
        if first in done_firsts:
            continue
        open_targets = bucket[wanted[bucket] & (lines[bucket, 0] < 0)]
        if not len(open_targets):
            done_firsts.add(first)
            continue
        patterns, _ = challenge.replies(bucket)
        seen: set[bytes] = set()
        for second in map(int, challenge.guesses):
            inner = bucket[challenge.matrix[second, bucket] == patterns[second]]
            name = inner.tobytes()
            if name in seen or not (wanted[inner] & (lines[inner, 0] < 0)).any():
                continue
            seen.add(name)
            searched += 1
            kept = ~wanted | (lines[:, 0] >= 0)
            before = kept.copy()
            third, fourth = np.full(len(kept), -1, np.int64), np.full(len(kept), -1, np.int64)
            order, ceilings, rows = challenge.layout(inner)
            challenge.kernels.two(rows, ceilings, order, inner, challenge.tie, challenge.keys[inner], -1, kept,
                                  third, fourth)
            for answer in np.flatnonzero(kept & ~before):
                line = [first, second, int(third[answer])] + ([int(fourth[answer])] if fourth[answer] >= 0 else [])
                row = int(challenge.game.words.answer_rows[answer])
                if len(line) == 4 and challenge.wins(int(answer), [*line, row]):
                    lines[answer] = line
            if searched >= most_buckets or time.perf_counter() - started > most_seconds:
                break
        else:
            done_firsts.add(first)
        save_arrays(checkpoint, lines=lines, searched=np.array(searched), done_firsts=np.array(sorted(done_firsts)),
                    checksum=np.array(checksum), version=np.array(VERSION))
        print(f"stage 2: {searched} buckets of two guesses, {int((wanted & (lines[:, 0] >= 0)).sum())}/"
              f"{int(wanted.sum())} targets with a 5-guess line", flush=True)
    return lines, searched


def stage_two_targeted(challenge: Challenge, lines: np.ndarray, missing: np.ndarray, most_seconds: float,
                       checkpoint: Path, checksum: str, tries: int = 3) -> int:
    """Stage 2 aimed at each target still without a line (in place in `lines`): its `tries` smallest first buckets,
    in each its `tries` smallest buckets of a second guess that keep it, each searched by the marking two-guess pass
    (which also marks the other targets it reaches). Returns the buckets of two guesses searched."""
    started, searched = time.perf_counter(), 0
    wanted = np.zeros(len(challenge.answers), bool)
    wanted[missing] = True
    firsts = sorted(challenge.first_buckets(), key=lambda pair: len(pair[1]))
    for target in missing:
        if lines[target, 0] >= 0:
            continue
        if time.perf_counter() - started > most_seconds:
            break
        holding = [(first, bucket) for first, bucket in firsts if target in bucket][:tries]
        for first, bucket in holding:
            if lines[target, 0] >= 0:
                break
            for second, inner in challenge.children(bucket, int(target))[:tries]:
                searched += 1
                kept = ~wanted | (lines[:, 0] >= 0)
                before = kept.copy()
                third, fourth = np.full(len(kept), -1, np.int64), np.full(len(kept), -1, np.int64)
                order, ceilings, rows = challenge.layout(inner)
                challenge.kernels.two(rows, ceilings, order, inner, challenge.tie, challenge.keys[inner], -1, kept,
                                      third, fourth)
                for answer in np.flatnonzero(kept & ~before):
                    line = [first, second, int(third[answer]), int(fourth[answer])]
                    row = int(challenge.game.words.answer_rows[answer])
                    if fourth[answer] >= 0 and challenge.wins(int(answer), [*line, row]):
                        lines[answer] = line
                if lines[target, 0] >= 0:
                    break
        save_arrays(checkpoint, lines=lines, searched=np.array(searched), done_firsts=np.zeros(0, np.int64),
                    checksum=np.array(checksum), version=np.array(VERSION))
        print(f"stage 2 (aimed): {searched} buckets, {int((wanted & (lines[:, 0] >= 0)).sum())}/{int(wanted.sum())} "
              f"targets with a 5-guess line", flush=True)
    return searched


def read_done(path: Path, checksum: str, answers: tuple[str, ...], own_search: bool) -> dict[str, dict]:
    """The results lines already written for these lists (a line that does not read back is dropped, and redone; so
    is a line written from an unfinished stage 1, and one with no line when targets get their `own_search` now)."""
    done: dict[str, dict] = {}
    if not path.exists():
        return done
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            continue
        if (isinstance(record, dict) and record.get("word_lists_sha256") == checksum and record.get("version") == VERSION
                and record.get("target") in answers and record.get("stage1_complete") is True
                and (record.get("high") is not None or not own_search)):
            done[record["target"]] = record
    return done


def main() -> int:
    """Run the three stages and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="processes for stage 1 (default 2)")
    parser.add_argument("--stage2-buckets", type=int, default=200_000,
                        help="buckets of two guesses stage 2 may search (default 200000)")
    parser.add_argument("--stage2-seconds", type=float, default=1800.0,
                        help="time cap of stage 2 in this run (default 1800)")
    parser.add_argument("--stage2-aimed-seconds", type=float, default=1800.0,
                        help="time cap of stage 2's pass aimed at each target left without a line (default 1800)")
    parser.add_argument("--nodes", type=int, default=300, help="node budget of a target's own search (default 300)")
    parser.add_argument("--seconds", type=float, default=20.0, help="time cap of a target's own search (default 20)")
    parser.add_argument("--partial", action="store_true",
                        help="take stage 1 as far as its checkpoint got (the rest is left for a later run): an answer "
                             "every first bucket of which was searched is proved, the others get the interval proved "
                             "(from 4 to stage 2's line, or open when it found none)")
    parser.add_argument("--no-own-search", action="store_true",
                        help="a target left without a line by stage 2 gets an open interval, not the greedy line and "
                             "its own search (a later run without this flag redoes those targets)")
    parser.add_argument("--stage2-only", action="store_true",
                        help="run stage 2 from stage 1's checkpoint as it stands, then stop (lines can be found while "
                             "another run finishes stage 1; run this while no other run is in stage 2)")
    args = parser.parse_args()
    started = time.perf_counter()
    game = Wordle()
    checksum = game.words.checksum
    challenge = Challenge(game)
    command = "python benchmarks/absurdle_challenge.py " + " ".join(sys.argv[1:])
    out_lines = ROOT / "results" / "absurdle-challenge.jsonl"
    out_summary = ROOT / "results" / "absurdle-challenge.json"
    folder = cache_dir() / "absurdle-challenge"
    folder.mkdir(parents=True, exist_ok=True)

    # stage 0: no answer is alone after two guesses (from all the answers, every guess, every split of its bucket)
    kept = np.zeros(len(challenge.answers), bool)
    second, third = np.full(len(kept), -1, np.int64), np.full(len(kept), -1, np.int64)
    order, ceilings, rows = challenge.layout(challenge.answers)
    challenge.kernels.two(rows, ceilings, order, challenge.answers, challenge.tie, challenge.keys, -1, kept, second,
                          third)
    if kept.any():
        raise SystemExit(f"{int(kept.sum())} answers are alone after two guesses: this job assumes none are")
    print("stage 0: no answer is alone after two guesses (no win in 3)", flush=True)

    in_three, finished, stage_one_seconds = stage_one(challenge, args.workers, folder / f"stage1-{checksum[:16]}.npz",
                                                      checksum, args.partial or args.stage2_only)
    reached = in_three[:, 0] >= 0
    complete = bool(finished.all())
    known = settled(challenge, finished)
    print(f"stage 1 {'done' if complete else f'cut at {int(finished.sum())}/{len(finished)} first buckets'}: "
          f"{int(reached.sum())} targets won in 4; {int((known & ~reached).sum())} need 5 at least; "
          f"{int((~known & ~reached).sum())} not settled (4 or more)", flush=True)
    in_four, searched = stage_two(challenge, np.flatnonzero(~reached), args.stage2_buckets,
                                  folder / f"stage2-{checksum[:16]}.npz", checksum, args.stage2_seconds)
    aimed = folder / f"stage2-aimed-{checksum[:16]}.npz"
    if (saved := load_arrays(aimed, checksum)) is not None:
        found = (saved["lines"][:, 0] >= 0) & (in_four[:, 0] < 0)
        in_four[found] = saved["lines"][found]
    searched += stage_two_targeted(challenge, in_four, np.flatnonzero(~reached & (in_four[:, 0] < 0)),
                                   args.stage2_aimed_seconds, aimed, checksum)
    if args.stage2_only:
        return 0

    done = read_done(out_lines, checksum, game.words.answers, not args.no_own_search)
    limit = ChallengeLimit(nodes=args.nodes, seconds=args.seconds)
    for answer, word in enumerate(game.words.answers):
        if word in done:
            continue
        row = int(game.words.answer_rows[answer])
        target_start = time.perf_counter()
        if reached[answer]:
            line, low, how = [int(g) for g in in_three[answer] if g >= 0] + [row], 4, "stage 1 (every line of 4)"
        elif not known[answer]:  # only in a --partial run: no own search, which a later full run makes
            line = [int(g) for g in in_four[answer]] + [row] if in_four[answer, 0] >= 0 else []
            low, how = 4, "no win in 3 (stage 0); stage 1 unfinished for it; " + (
                "stage 2 (a line)" if line else "no line yet")
        elif in_four[answer, 0] >= 0:
            line, low, how = [int(g) for g in in_four[answer]] + [row], 5, "stage 1 (no line of 4), stage 2 (a line)"
        elif args.no_own_search:
            line, low, how = [], 5, "stage 1 (no line of 4); no line yet (no own search in this run)"
        else:
            greedy = challenge.greedy_line(answer)
            if greedy is not None and len(greedy) == 5:
                line, low, how = greedy, 5, "stage 1 (no line of 4), greedy line of 5"
            else:
                proof = challenge.prove(answer, limit, known_low=5, line=greedy)
                low, line = proof.low, list(proof.line)
                how = f"stage 1 (no line of 4); greedy line, then own search ({proof.nodes} nodes, {proof.cut or 'done'})"
        if line and not challenge.wins(answer, line):
            raise SystemExit(f"{word}: the line {line} does not win; refusing to write it")
        high = len(line) if line else None
        record = {"target": word, "low": low, "high": high, "proved": high == low,
                  "line": [game.words.guesses[g] for g in line], "how": how,
                  "seconds": round(time.perf_counter() - target_start, 3), "stage1_complete": complete,
                  "word_lists_sha256": checksum, "version": VERSION}
        append_json_line(out_lines, record)
        done[word] = record
        print(f"{word}: {low if high == low else f'{low}..{high or chr(63)}'} ({how})", flush=True)

    records = [done[word] for word in game.words.answers]
    summary = results_record(command, None, checksum)
    by_fewest: dict[str, int] = {}
    for record in records:
        key = str(record["low"]) if record["proved"] else f"{record['low']}..{record['high'] or '?'}"
        by_fewest[key] = by_fewest.get(key, 0) + 1
    summary.update({
        "rule": "qntm's challenge mode (https://qntm.org/challenge): Absurdle keeps its largest bucket (ties: fewest "
                "greens, then fewest yellows, then colours left to right); a guess whose bucket loses the target "
                "loses; the count includes the final guess of the target",
        "targets": len(records), "proved": sum(record["proved"] for record in records),
        "by_fewest_guesses": dict(sorted(by_fewest.items())),
        "every_target_within_4": (False if any(record["low"] >= 5 for record in records) else
                                  True if all(record["proved"] and record["high"] <= 4 for record in records) else None),
        "targets_needing_5_or_more": sum(record["low"] >= 5 for record in records),
        "stage_one_first_buckets": {"searched": int(finished.sum()), "all": len(finished)},
        "targets_not_settled": int((~known & ~reached).sum()),
        "stage_one_seconds": round(stage_one_seconds, 1), "stage_two_buckets": searched,
        "seconds_this_run": round(time.perf_counter() - started, 1),
        "note": "2-core machine shared with other work while it ran: the seconds are noisy; stage_one_seconds adds up "
                "the runs that resumed stage 1 from its checkpoint (each under nice -n 10, with its own --workers)",
    })
    write_atomically(out_summary, json.dumps(summary, indent=1) + "\n")
    print(json.dumps({key: summary[key] for key in ("targets", "proved", "by_fewest_guesses", "every_target_within_4")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
