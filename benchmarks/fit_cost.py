"""Fit the cost-to-go model F(n) of heuristics/cost.py on measured games.

    python benchmarks/fit_cost.py results/bench_search/<games>.json [--out results/cost_fit.json]

Reads a games file written by benchmarks/bench_search.py, replays every game's guesses
to find, for each Guesser state it passed through, the number n of answers still
possible and the guesses it then took to finish (the winning one included). States
with n >= 3 are fitted by least squares to F(n) = a + b log2 n + c (log2 n)^2, one
observation per state visited. Writes the coefficients, the per-size means and the
residual, with the command, the games file, its commit and the word-list checksum.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordle import Wordle, load_matrix, load_words  # noqa: E402
from plumbing.storage import WORD_LISTS_KEY, results_record  # noqa: E402


def observations(game: Wordle, games: list[dict]) -> list[tuple[int, int]]:
    """(answers possible, guesses still taken) for every state of every solved game."""
    seen = []
    for record in games:
        if not record["solved"]:
            continue
        answer = game.words.answer_id(record["answer"])
        state = game.initial_state()
        for number, word in enumerate(record["path"]):
            seen.append((len(state.candidates), len(record["path"]) - number))
            guess = game.words.guess_id(word)
            state = game.step(state, guess, game.reply(guess, answer))
    return seen


def main() -> int:
    """Fit and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="a results/bench_search/*.json file")
    parser.add_argument("--out", default=str(ROOT / "results" / "cost_fit.json"))
    args = parser.parse_args()
    record = json.loads(Path(args.games).read_text())
    words = load_words()
    if record.get(WORD_LISTS_KEY, record.get("checksum")) != words.checksum:  # files before the one spelling say "checksum"
        raise SystemExit(f"{args.games}: played on other word lists")
    game = Wordle(words, load_matrix(words))
    data = [(n, togo) for n, togo in observations(game, record["games"]) if n >= 3]
    sizes = np.array([n for n, _ in data], dtype=np.float64)
    to_go = np.array([t for _, t in data], dtype=np.float64)
    bits = np.log2(sizes)
    features = np.column_stack([np.ones_like(bits), bits, bits * bits])
    coefficients, *_ = np.linalg.lstsq(features, to_go, rcond=None)
    residual = float(np.sqrt(np.mean((features @ coefficients - to_go) ** 2)))
    by_size: dict[int, list[int]] = defaultdict(list)
    for n, togo in data:
        by_size[n].append(togo)
    result = {
        **results_record("python " + " ".join(sys.argv), None, words.checksum),
        "games_file": args.games, "games_command": record["command"], "games_commit": record["commit"],
        "model": "F(n) = a + b log2 n + c (log2 n)^2 for n >= 3 (F(1) = 1, F(2) = 1.5 exactly)",
        "observations": len(data),
        "coefficients": {"a": float(coefficients[0]), "b": float(coefficients[1]), "c": float(coefficients[2])},
        "rms_residual": residual,
        "mean_by_size": {str(n): [len(v), float(np.mean(v))] for n, v in sorted(by_size.items())},
    }
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps({k: result[k] for k in ("observations", "coefficients", "rms_residual")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
