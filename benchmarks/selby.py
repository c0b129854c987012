"""Alex Selby's optimal solver (github alex1770/wordle), asked about one first guess, for the benchmarks that put
it beside ours. It is built by hand outside the repository (`g++ -O3 -std=c++17`; none of its code is here) and
run from its own folder, its original word lists beside the binary."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import NamedTuple

#: The score Selby's solver prints for a first guess with no tree within the guess limit.
SELBY_INFINITE = 1_000_000_000


class FirstGuess(NamedTuple):
    """Selby's verdict on one first guess: its total (SELBY_INFINITE: no tree within the limit), whether that total
    is only a bound (it stopped at its cut-off, printing ">="), and its own CPU seconds for the guess."""

    total: int
    bound: bool
    cpu_seconds: float


def first_guess(binary: Path, word: str, *options: str) -> FirstGuess | str:
    """Selby's solver on the original lists with `word` first and `options` (-H, -b CUT, -d -g6, ...): its verdict,
    or the end of its output where that names none."""
    argv = [str(binary), "-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden", "-w", word, *options]
    run = subprocess.run(argv, cwd=binary.parent, capture_output=True, text=True, timeout=3600)
    found = re.search(r"First guess \w+\s+(>=|=)\s+(\d+).*?dCPU =\s+([\d.]+)", run.stdout)
    if not found:
        return run.stdout[-300:] + run.stderr[-300:]
    return FirstGuess(total=int(found.group(2)), bound=found.group(1) == ">=", cpu_seconds=float(found.group(3)))
