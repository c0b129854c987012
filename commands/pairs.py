"""`openers --exact --pairs`: the best fixed pair of first words over a space of words, proved (or rejected above a cut)."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from plumbing.errors import UserError
from plumbing.storage import prepare_output, write_atomically

from .games import load_game
from .options import EXIT_INTERRUPTED, canonical_command


def command_exact_pairs(args: argparse.Namespace, console: Console) -> int:
    """Prove the best fixed pair over the space (every guess, or the best --words N by their root bound)."""
    from tournament.exact_openers import JobStopped
    from tournament.exact_pairs import pairs_summary, plan_pairs, read_pairs, run_pairs, space_words, summary_path

    if args.hard or args.ultra:
        raise UserError("--pairs is normal mode only: in hard mode a fixed second word is illegal after some reply of "
                        "almost every first word (solve --start checks one pair in any mode)")
    if args.opener is not None or args.all or args.top is not None:
        raise UserError("--pairs judges a space of words: it takes --words N (or every guess), not --opener, --all "
                        "or --top")
    game = load_game(args, named=True)
    every = args.words is None or args.words >= len(game.words.guesses)
    words = space_words(game, None if every else args.words)  # the first words; the second: every guess
    scope = "all" if every else f"top{len(words)}"
    out = prepare_output(args.out or Path("results") / f"pairs-exact-normal-{scope}.jsonl")
    jobs = args.cluster or args.jobs or os.cpu_count() or 1
    dask = bool(args.scheduler or args.cluster)
    command = canonical_command("openers --exact --pairs", ("--words", None if every else len(words)),
                                ("--answers", args.answers), ("--guesses", args.guesses),
                                ("--max-guesses", args.max_guesses), ("--against", args.against), ("--out", args.out),
                                ("--scheduler", args.scheduler or None), ("--cluster", args.cluster),
                                ("--jobs", None if dask else jobs))
    started = time.perf_counter()
    head, _ = read_pairs(out)
    against = args.against if args.against is not None else head.get("cut")  # a resumed job keeps its cut-off
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("planning the pair job", total=None)
        plan = plan_pairs(game, args.max_guesses, words, against, out,
                          on_step=lambda what: progress.update(task, description=what))
        progress.update(task, total=len(plan.firsts), completed=0,
                        description=f"pairs (cut-off {plan.settings.cut}): first words")
        seen: list[Any] = []

        def arrived(result: Any) -> None:
            """Count one first word in."""
            seen.append(result)
            exact = [p for r in seen for p in r.pairs if p[3] and p[1] >= 0]
            best = min(exact, key=lambda p: (p[1], p[2]), default=None)
            progress.update(task, completed=len(seen),
                            description=f"pairs (cut-off {plan.settings.cut}): {len(seen)}/{len(plan.firsts)} first "
                                        f"words, best {best[1] if best else '-'}")
        try:
            results = run_pairs(game, plan, command, engine="dask" if dask else "local",
                                jobs=jobs, address=args.scheduler, every_guess=every, on_result=arrived)
        except (KeyboardInterrupt, JobStopped) as stop:
            progress.stop()
            console.print(f"stopped: {len(seen)} of {len(plan.firsts)} first words are saved in {out}; the same "
                          "command resumes from there", markup=False, soft_wrap=True)
            if isinstance(stop, KeyboardInterrupt):
                return EXIT_INTERRUPTED
            raise
    head, _ = read_pairs(out)
    proved = pairs_summary(head, results)
    digest = summary_path(out)
    from plumbing.storage import machine
    try:
        write_atomically(digest, json.dumps({"command": command, **proved,
                                             "timing": {"wall_seconds": round(time.perf_counter() - started, 1),
                                                        "cpu_seconds": round(sum(r.cpu_seconds for r in results), 1),
                                                        "machine": machine()}}, indent=1) + "\n")
    except OSError as error:
        raise UserError(f"{digest}: cannot write there ({error.strerror or error.__class__.__name__})") from None
    space = ("every pair of every allowed guess" if every else
             f"the pairs whose first word is one of the best {len(words)} by root bound")
    console.print(f"{len(words)} first words x {proved['second_space']} second words, {proved['ordered_pairs']} ordered "
                  f"pairs: {proved['first_words_cut']} first and {proved['second_words_cut']} second words left out by "
                  f"their own bound, {proved['pairs_cut_by_bound']} pairs cut by the pair bound, "
                  f"{proved['pairs_rejected']} rejected above {plan.settings.cut} by the solver, "
                  f"{proved['pairs_solved']} solved", markup=False, soft_wrap=True)
    best = proved["best"]
    if best is not None:
        claim = ("proved best over " + space if proved["proved_best_over_space"] else "best so far (not complete)")
        console.print(f"{best['first'].upper()},{best['second'].upper()}: {best['total']} "
                      f"({best['total'] / len(game.words.answers):.4f} a game), {claim}", markup=False, soft_wrap=True)
    elif proved["proved_none_at_most_cut"]:
        console.print(f"no pair of {space} has a total at most {plan.settings.cut} (proved)", markup=False,
                      soft_wrap=True)
    console.print(f"saved {out} and {digest}", markup=False, soft_wrap=True)
    return 0
