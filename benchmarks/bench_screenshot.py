"""Measure the screenshot reader on boards it has not seen: random games, themes, sizes, fonts and JPEG.

Run: python benchmarks/bench_screenshot.py [--boards N] [--seed S]
Each board: an answer drawn from the Times' record, 1 to 6 guesses drawn from the original answers (the last the
answer, unless the game is lost), drawn in the Times' style (benchmarks/screenshot_boards.py) in a random theme
(light or dark, high contrast or not), font (one of the template fonts of benchmarks/make_glyphs.py), tile size
(30 to 66 CSS pixels), window width and device pixel ratio (1, 2 or 3), and saved as PNG or as JPEG of quality
70 to 95; shot in headless Chromium. Each is read twice: with the shipped templates, and with templates built
without the board's font (leave one font out: how a font the reader has never seen, such as the Times' own NYT
Franklin, fares). Counts: boards read exactly (every word and colour), rows, colours, letters as read one by one
and after the row is read as an allowed word, and boards refused. Writes results/bench_screenshot.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_glyphs import FONTS, templates  # noqa: E402
from screenshot_boards import Camera, Style  # noqa: E402

from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import feedback, load_words  # noqa: E402
from wordle.nyt import daily_answers  # noqa: E402
from wordle.screenshot import ScreenshotError, read_board  # noqa: E402

OUTPUT = ROOT / "results" / "bench_screenshot.json"
#: The CSS family each template font is asked for by (the names fontconfig knows).
FAMILIES = {"Clear Sans Bold": "Clear Sans", "Liberation Sans Bold": "Liberation Sans", "FreeSans Bold": "FreeSans",
            "Roboto Bold": "Roboto", "DejaVu Sans Bold": "DejaVu Sans", "Open Sans Bold": "Open Sans",
            "Lato Bold": "Lato"}


def draw_game(rng: np.random.Generator, answers: list[str], originals: tuple[str, ...]) -> tuple[list[str], str]:
    """A random game: its words and answer (lost about one time in eight, with six wrong guesses)."""
    answer = answers[rng.integers(len(answers))]
    lost = rng.random() < 0.125
    count = 6 if lost else int(rng.integers(1, 7))
    words = [originals[i] for i in rng.choice(len(originals), size=count, replace=False)]
    words = [w for w in words if w != answer][:count - (0 if lost else 1)]
    return words + ([] if lost else [answer]), answer


def draw_style(rng: np.random.Generator) -> tuple[Style, str, str | None]:
    """A random look: the style, the template font's name, and JPEG quality (None: PNG)."""
    font = list(FONTS)[rng.integers(len(FONTS))]
    scale = float(rng.choice([1.0, 2.0, 3.0]))
    width = int(rng.choice([320, 390, 500, 1280]))
    tile = int(rng.integers(30, 67))
    quality = None if rng.random() < 0.6 else int(rng.integers(70, 96))
    return (Style(theme=str(rng.choice(["light", "dark"])), contrast=bool(rng.random() < 0.5),
                  font=FAMILIES[font], tile=min(tile, (width - 20) // 6), width=width, height=900, scale=scale),
            font, None if quality is None else str(quality))


def score(board, words: list[str], answer: str) -> dict:
    """How a read board compares with the game drawn."""
    truth = [(w, feedback(w, answer)) for w in words]
    rows = list(board.rows)
    return {
        "exact": len(rows) == len(truth) and all((r.word, r.pattern) == t for r, t in zip(rows, truth)),
        "rows": len(truth), "rows_right": sum((r.word, r.pattern) == t for r, t in zip(rows, truth)),
        "colours_right": sum(r.pattern == p for r, (_, p) in zip(rows, truth)),
        "letters": 5 * len(truth),
        "letters_right_alone": sum(a == b for r, (w, _) in zip(rows, truth) for a, b in zip(r.letters, w)),
        "letters_right": sum(a == b for r, (w, _) in zip(rows, truth) for a, b in zip(r.word, w)),
    }


def main() -> None:
    """Draw, shoot, read, count, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    words = load_words(guesses="nyt")
    answers = [day.word for day in daily_answers()]
    without = {font: templates({f: p for f, p in FONTS.items() if f != font}) for font in FONTS}
    totals = {mode: {} for mode in ("shipped templates", "font left out")}
    failures, started = [], time.time()
    with Camera() as camera:
        for number in range(args.boards):
            game, answer = draw_game(rng, answers, load_words().answers)
            style, font, quality = draw_style(rng)
            image = camera.shoot(game, answer, style, "png" if quality is None else "jpeg",
                                 int(quality or 0))
            for mode, chosen in (("shipped templates", None), ("font left out", without[font])):
                try:
                    figures = score(read_board(image, words.guesses, chosen), game, answer)
                except ScreenshotError as error:
                    figures = {"exact": False, "refused": 1, "rows": len(game), "letters": 5 * len(game)}
                    failures.append({"board": number, "mode": mode, "error": str(error)})
                if not figures["exact"] and "refused" not in figures:
                    failures.append({"board": number, "mode": mode, "game": game, "answer": answer,
                                     "style": style.__dict__, "jpeg": quality, "font": font})
                for key, value in figures.items():
                    totals[mode][key] = totals[mode].get(key, 0) + int(value)
    result = results_record(f"python benchmarks/bench_screenshot.py --boards {args.boards} --seed {args.seed}",
                            args.seed, words.checksum)
    result.update({"boards": args.boards, "seconds": round(time.time() - started, 1),
                   "note": "machine shared with other jobs: the time is not a benchmark", "totals": totals,
                   "rates": {mode: {"boards_exact": t.get("exact", 0) / args.boards,
                                    "rows_right": t.get("rows_right", 0) / t["rows"],
                                    "colours_right": t.get("colours_right", 0) / t["rows"],
                                    "letters_right_alone": t.get("letters_right_alone", 0) / t["letters"],
                                    "letters_right": t.get("letters_right", 0) / t["letters"],
                                    "refused": t.get("refused", 0) / args.boards} for mode, t in totals.items()},
                   "failures": failures})
    print(json.dumps(result["rates"], indent=1))
    write_atomically(OUTPUT, (json.dumps(result, indent=1) + "\n").encode())


if __name__ == "__main__":
    main()
