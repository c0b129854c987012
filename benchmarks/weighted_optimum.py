"""The optimum under a weighted answer model (WordleBot's objective): the best tree found and a proved bound over
every opener.

Run: python benchmarks/weighted_optimum.py [--model likely] [--hard] [--exact-openers salet] [--exact-nodes 20000]

Values are expected guesses to finish when the answer is drawn with the model's weights
(integers, wordle/solver/weighted.py: 2^24 units for an original answer); lower is better.

- High: the least real tree found, from results/weighted-openers-MODEL-MODE.jsonl
  (benchmarks/weighted_openers.py: each opener's tree, replayed over every answer) and, for
  --exact-openers, a run here with the exact solver on every reply (--exact-nodes sets each): where
  every reply settles, that opener's value is exact, its optimum given that opener.
- Low, for every one of the allowed openers g: a tree opening with g, followed on the model's
  full-weight answers alone (the original answers, all alike), is a tree for them, so it costs at least
  the uniform book's proved total for g (wordle/data/book: SALET's exact 7920, every other opener's proved
  bound) times their weight; followed on the other answers alone, at least their one-step bound with g
  (each of them pays g, each reply's heaviest one more guess, every other answer two more). The two
  parts add (they are different answers). The least over every opener bounds the optimum.

Writes results/weighted-optimum-MODEL-MODE.json: the interval, the openers the bound refutes (their
low at least the best high), the closest ones, the command, commit, word-list and weights checksums,
the model's coefficients, and the machine (shared: times include whatever else ran).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents.answer_model import LIKELY_COEFFICIENTS, MODELS, load_model  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle.book import opening_book  # noqa: E402
from wordle.hardmode import Hints  # noqa: E402
from wordle.solver import INFEASIBLE, SCALE, Solver  # noqa: E402
from wordle.solver.weighted import WEIGHT_SCALE, integer_weights, tree_cost  # noqa: E402
from wordle.weighted_book import weights_checksum  # noqa: E402
from wordle.weighted_openers import guess_interval, reply_game  # noqa: E402


def rest_bounds(game, weights: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """Per guess as opener, the one-step bound of the answers in `rest` alone: 3W - 2 hit - tops (integers)."""
    local = reply_game(game, rest)
    solver = Solver(local)
    from wordle.solver.weighted import fast_reply_weights
    hit, tops, _ = fast_reply_weights()(solver.passes.columns, local.all_guesses, np.arange(len(rest)), weights[rest], None)
    return 3 * int(weights[rest].sum()) - 2 * hit - tops


def main() -> int:
    """Bound every opener, take the best tree found, write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="likely")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--exact-openers", default="", help="openers searched exactly, reply by reply")
    parser.add_argument("--exact-nodes", type=int, default=20_000)
    args = parser.parse_args()
    started = time.perf_counter()
    model = load_model(args.model)
    game, mode, max_guesses = model.game, "hard" if args.hard else "normal", 6
    record = results_record("python benchmarks/weighted_optimum.py " + " ".join(sys.argv[1:]), None,
                            game.words.checksum)
    weights = integer_weights(model.weights)
    answers = np.asarray(model.initial_state(args.hard, max_guesses).candidates)
    total = int(weights[answers].sum())
    loss_unit = (max_guesses + 1) * int(weights.sum()) + 1
    full = int(weights.max())
    tier = answers[weights[answers] == full]
    rest = answers[weights[answers] < full]
    # the full-weight answers' proved totals per opener: the uniform book of their lists
    tier_game = model.tier_game
    book = opening_book(tuple(tier_game.words.guesses), tier_game.words.checksum, args.hard, max_guesses)
    if book.best is None or len(tier) != len(tier_game.words.answers):
        raise SystemExit("no uniform book for the model's full-weight answers")
    tier_total = np.zeros(len(game.words.guesses), dtype=object)
    for opener in range(len(game.words.guesses)):
        cost = book.exact.get(opener, book.lower.get(opener))
        tier_total[opener] = INFEASIBLE if opener in book.no_win or cost is None else cost // SCALE
    rest_low = rest_bounds(game, weights, rest)
    lows = [None if tier_total[g] >= INFEASIBLE else full * int(tier_total[g]) + int(rest_low[g])
            for g in range(len(game.words.guesses))]
    # the trees found
    runs = ROOT / "results" / f"weighted-openers-{args.model}-{mode}.jsonl"
    lines = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines() if line.strip()]
    if lines[0].get("weights_sha256") != weights_checksum(game.words.answers, weights):
        raise SystemExit(f"{runs}: made for other weights")
    highs = {row["opener"]: {"high": row["high"], "low": row["low"], "source": runs.name} for row in lines[1:]}
    exact_runs = {}
    for word in filter(None, (w.strip() for w in args.exact_openers.split(","))):
        guess = game.words.guess_id(word)
        found = guess_interval(game, weights, answers, max_guesses, Hints() if args.hard else None, guess, args.hard,
                               max_guesses, exact_nodes=args.exact_nodes, breadths=(1, 2))
        assert tree_cost(game, weights, found.tree, answers, max_guesses, loss_unit) == found.high
        exact_runs[word] = {"low": found.low, "high": found.high, "proved": found.proved, "replies": found.replies,
                            "replies_settled": found.settled, "nodes": found.nodes,
                            "seconds": round(found.seconds, 1)}
        previous = highs.get(word)
        if previous is None or found.high < previous["high"]:
            highs[word] = {"high": found.high, "low": found.low, "source": "exact run"}
        highs[word]["low"] = max(highs[word]["low"], found.low)
        print(f"{word}: {found.low / total:.6f} .. {found.high / total:.6f}, {found.settled}/{found.replies} replies "
              f"exact, {found.seconds:.0f} s", flush=True)
    best = min(highs, key=lambda w: (highs[w]["high"], w))
    best_high = highs[best]["high"]
    for word, row in highs.items():  # an opener's own search may prove more than the decomposition
        index = game.words.guess_index[word]
        lows[index] = max(lows[index] or 0, row["low"])
    finite = [(low, g) for g, low in enumerate(lows) if low is not None]
    least_low, least_opener = min(finite)
    refuted = sum(low >= best_high for low, _ in finite)
    closest = sorted(finite)[:30]
    result = {**record, "model": args.model, "coefficients": LIKELY_COEFFICIENTS if args.model == "likely" else None,
              "weights_sha256": weights_checksum(game.words.answers, weights), "weight_scale": WEIGHT_SCALE,
              "mode": mode, "max_guesses": max_guesses, "answers": len(answers), "full_weight_answers": len(tier),
              "total_weight": total, "loss_unit": loss_unit, "openers": len(game.words.guesses),
              "best_tree": {"opener": best, "expected_guesses": round(best_high / total, 6), "cost": best_high,
                            "source": highs[best]["source"]},
              "lower_bound": {"expected_guesses": round(least_low / total, 6), "cost": least_low,
                              "opener": game.words.guesses[least_opener]},
              "proved_optimal": least_low >= best_high,
              "openers_refuted": refuted,
              "closest_openers": [{"opener": game.words.guesses[g], "low": round(low / total, 6)} for low, g in closest],
              "trees": {w: {"high": round(r["high"] / total, 6), "low": round(r["low"] / total, 6),
                            "source": r["source"]} for w, r in sorted(highs.items(), key=lambda kv: kv[1]["high"])},
              "exact_runs": exact_runs, "seconds": round(time.perf_counter() - started, 1),
              "note": "the machine is shared (2 cores, other jobs running): seconds include whatever else ran"}
    out = ROOT / "results" / f"weighted-optimum-{args.model}-{mode}.json"
    write_atomically(out, json.dumps(result, indent=1) + "\n")
    print(f"best tree: {best} {best_high / total:.6f}; proved over every opener: at least {least_low / total:.6f} "
          f"({game.words.guesses[least_opener]}); {refuted} of {len(finite)} openers refuted; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
