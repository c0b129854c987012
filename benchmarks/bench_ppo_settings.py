"""Train PPO from scratch for a few minutes with some settings changed, and record its learning curve.

Run: python benchmarks/bench_ppo_settings.py NAME --minutes 16 [--set FIELD=VALUE ...] [--hard] [--seed 0]
Example: taskset -c 0 python benchmarks/bench_ppo_settings.py cost-0.2 --minutes 16 --set guess_cost=0.2

The settings are PPOConfig's fields (agents/ppo/learn.py); the rest keep their defaults.
The learner evaluates greedy play on every answer every `eval_every` iterations, as
`train` does. Writes results/ppo-settings/NAME.json: the settings, the curve, the best
and last evaluation, with command, seed, word-list checksum, commit and machine. Pin
each run to one core (taskset) to run two side by side. Needs the learn extra.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.ppo.learn import Learner, PPOConfig  # noqa: E402
from agents.training import TrainingBudget  # noqa: E402
from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import provenance, write_atomically  # noqa: E402


#: The spellings a true/false setting accepts.
BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
#: The values `init` takes (the mode is not a setting here: it is --hard).
INITS = ("scratch", "imitation")


def setting(text: str) -> tuple[str, object]:
    """FIELD=VALUE as a PPOConfig field and a value of that field's type (argparse error when it is not one)."""
    name, _, value = text.partition("=")
    fields = {field.name for field in dataclasses.fields(PPOConfig)} - {"hard"}
    if name not in fields or not value:
        raise argparse.ArgumentTypeError(f"not FIELD=VALUE with a PPOConfig field (the mode is --hard): {text!r}")
    kind = type(getattr(PPOConfig(), name))
    if kind is bool:
        if value.lower() not in BOOLEANS:
            raise argparse.ArgumentTypeError(f"{name} takes true or false, not {value!r}")
        return name, BOOLEANS[value.lower()]
    if kind is str:
        if value not in INITS:
            raise argparse.ArgumentTypeError(f"{name} takes one of {', '.join(INITS)}, not {value!r}")
        return name, value
    try:
        number = kind(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name} takes a {kind.__name__}, not {value!r}") from None
    if not math.isfinite(number) or (kind is int and number < 1):
        wanted = "a whole number of at least 1" if kind is int else "a finite number"
        raise argparse.ArgumentTypeError(f"{name} takes {wanted}, not {value!r}")
    return name, number


def minutes(text: str) -> float:
    """A positive, finite number of minutes."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"minutes are a positive number, not {text!r}")
    return value


def main() -> None:
    """Train, then write the curve to results/ppo-settings/NAME.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the run's name (its file name)")
    parser.add_argument("--minutes", type=minutes, required=True)
    parser.add_argument("--set", type=setting, action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not re.fullmatch(r"[\w.-]+", args.name):
        parser.error(f"a name is letters, digits, '.', '-' and '_', not {args.name!r}")
    words = load_words()
    changed = dict(args.set)
    learner = Learner(Wordle(words, load_matrix(words)), PPOConfig(hard=args.hard, **changed), args.seed)
    learner.train(TrainingBudget(seconds=args.minutes * 60))
    best = learner.best[1]
    figures = {"command": "python benchmarks/bench_ppo_settings.py " + " ".join(sys.argv[1:]), "seed": args.seed,
               "changed": changed, "config": dataclasses.asdict(learner.config), "word_lists_sha256": words.checksum,
               **provenance(), "episodes": learner.episodes, "seconds": round(learner.seconds, 1),
               "best": best, "last": learner.curve[-1], "curve": learner.curve}
    out = ROOT / "results" / "ppo-settings" / f"{args.name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out, json.dumps(figures, indent=1) + "\n")
    print(f"{args.name}: best {best['average']:.4f} ({best['solved']:.2%} solved) at {best['episodes']:,} games; "
          f"last {learner.curve[-1]['average']:.4f} at {learner.episodes:,} -> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
