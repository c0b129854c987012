"""Openers under a weighted answer model: each one's real tree (its expected guesses) and a proved bound, and the book.

Run: python benchmarks/weighted_openers.py [--model likely] [--guesses nyt] [--hard] [--openers salet,crane,...]
                                          [--exact-nodes 0] [--breadths 1] [--pack]

--guesses defaults to the player's list (today's nyt guesses, `wordle.words.PLAYER_GUESSES`), the list
`assist`, `review` and the web load the model with: the book is checked against the lists' and weights'
checksums, so a book built over other guesses is never read by them.

Each opener is valued over every answer the model allows, reply by reply (wordle/weighted_openers.py):
per reply the exact weighted solver within --exact-nodes sets, else the breadth-limited searches
(--breadths, in turn; the best tree kept); the tree found is replayed over every answer and its cost
must be the value recorded. One line per opener in results/weighted-openers-MODEL-MODE.jsonl
(resumed: openers already there are skipped), after a header with the command, the word-list and
weights checksums, the weight scale, commit and machine. --pack writes the weighted opening book
(wordle/data/book/weighted-openers-...json.gz, never over a shipped one) from every opener in the
file and prints its SHA-256 to name in wordle/weighted_book.py SHIPPED_WEIGHTED.

The machine is shared (2 cores, other jobs running): the seconds recorded include whatever else ran.
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

from agents.answer_model import MODELS, load_model  # noqa: E402
from plumbing.storage import results_record  # noqa: E402
from wordle.hardmode import Hints  # noqa: E402
from wordle.words import NAMED_GUESSES, PLAYER_GUESSES  # noqa: E402
from wordle.solver.weighted import WEIGHT_SCALE, integer_weights, tree_cost  # noqa: E402
from wordle.weighted_book import WEIGHTED_FORMAT, pack_weighted, weights_checksum  # noqa: E402
from wordle.weighted_openers import guess_interval  # noqa: E402

#: Openers the book covers by default: the openers of benchmarks/bench_review.py's players, then common ones
#: (wordle/positions.py) and the best of the uniform book.
DEFAULT_OPENERS = ("salet", "crane", "slate", "trace", "crate", "soare", "adieu", "audio", "stare", "raise", "arise",
                   "house", "tares", "roate", "irate", "least", "carte", "reast", "parse", "later")


def read_done(path: Path) -> tuple[dict | None, dict[str, dict]]:
    """The header and the openers' lines of a run's file (none if it does not exist)."""
    if not path.exists():
        return None, {}
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], {row["opener"]: row for row in lines[1:]}


def main() -> int:
    """Value the openers, append their lines, and pack the book if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="likely")
    parser.add_argument("--guesses", default=PLAYER_GUESSES,
                        help=f"the allowed guesses: {', '.join(NAMED_GUESSES)} or a file (default {PLAYER_GUESSES}, "
                             "the player's)")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--openers", default=",".join(DEFAULT_OPENERS))
    parser.add_argument("--exact-nodes", type=int, default=0, help="exact sets per reply before quick trees")
    parser.add_argument("--breadths", default="1", help="breadth-limited searches per reply, in turn")
    parser.add_argument("--repair-nodes", type=int, default=0,
                        help="exact sets for a reply whose quick tree loses answers")
    parser.add_argument("--max-guesses", type=int, default=6)
    parser.add_argument("--out", default=None)
    parser.add_argument("--pack", action="store_true", help="write the weighted opening book from the file")
    args = parser.parse_args()
    model = load_model(args.model, args.guesses)
    game = model.game
    weights = integer_weights(model.weights)
    mode = "hard" if args.hard else "normal"
    out = Path(args.out or ROOT / "results" / f"weighted-openers-{args.model}-{mode}.jsonl")
    answers = np.asarray(model.initial_state(args.hard, args.max_guesses).candidates)
    total = int(weights[answers].sum())
    loss_unit = (args.max_guesses + 1) * int(weights.sum()) + 1
    checksum = weights_checksum(game.words.answers, weights)
    breadths = tuple(int(b) for b in args.breadths.split(","))
    header, done = read_done(out)
    if header is None:
        header = {**results_record("python benchmarks/weighted_openers.py " + " ".join(sys.argv[1:]), None,
                                   game.words.checksum),
                  "format": WEIGHTED_FORMAT, "model": args.model, "weights_sha256": checksum,
                  "weight_scale": WEIGHT_SCALE, "total_weight": total, "loss_unit": loss_unit, "hard": args.hard,
                  "max_guesses": args.max_guesses, "guesses": len(game.words.guesses),
                  "exact_nodes": args.exact_nodes, "breadths": list(breadths), "repair_nodes": args.repair_nodes,
                  "note": "the machine (2 cores) is shared with other jobs: seconds include whatever else ran"}
        out.write_text(json.dumps(header) + "\n", encoding="utf-8")
    elif (header.get("weights_sha256") != checksum or header.get("hard") != args.hard
          or header.get("word_lists_sha256") != game.words.checksum):
        raise SystemExit(f"{out}: made for other word lists, other weights or another mode")
    hints = Hints() if args.hard else None
    for word in args.openers.split(","):
        word = word.strip().lower()
        if not word or word in done:
            continue
        guess = game.words.guess_id(word)
        started = time.perf_counter()
        found = guess_interval(game, weights, answers, args.max_guesses, hints, guess, args.hard, args.max_guesses,
                               exact_nodes=args.exact_nodes, breadths=breadths, repair_nodes=args.repair_nodes)
        replayed = tree_cost(game, weights, found.tree, answers, args.max_guesses, loss_unit)
        if replayed != found.high:
            raise SystemExit(f"{word}: its tree replays to {replayed}, not {found.high}")
        lost, guesses = divmod(found.high, loss_unit)
        row = {"opener": word, "low": found.low, "high": found.high, "high_average": round(guesses / total, 6),
               "low_average": round(found.low % loss_unit / total, 6) if found.low < loss_unit else None,
               "weight_lost": lost, "replies": found.replies, "replies_settled": found.settled,
               "nodes": found.nodes, "seconds": round(time.perf_counter() - started, 1), "tree_nodes": found.tree.size()}
        with out.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        done[word] = row
        print(f"{word}: {row['high_average']:.5f} (≥ {row['low_average']}), lost {lost}, "
              f"{found.settled}/{found.replies} replies exact, {row['seconds']} s", flush=True)
    if args.pack:
        best = min(done, key=lambda w: (done[w]["high"], w))
        data = {key: header[key] for key in ("format", "word_lists_sha256", "weights_sha256", "weight_scale",
                                             "total_weight", "loss_unit", "hard", "max_guesses", "guesses")}
        data.update({"model": args.model, "command": header["command"], "commit": header.get("commit"),
                     "openers": {w: {"low": row["low"], "high": row["high"]} for w, row in sorted(done.items())},
                     "best": best})
        path, digest = pack_weighted(data)
        print(f"{path}: {len(done)} openers, best {best}; sha256 {digest} (name it in wordle/weighted_book.py "
              "SHIPPED_WEIGHTED)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
