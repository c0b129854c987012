"""What every learner's training shares: its budget (episodes and seconds), its progress reports and its learning curve.

A learning curve has one row per evaluation: episodes trained so far, seconds spent,
and the greedy policy's average guesses and solved share over every answer (a loss
counts as max_guesses + 1, as in the tournament).
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from plumbing.storage import write_atomically

#: Columns of a learning-curve CSV.
CURVE_COLUMNS = ("episodes", "seconds", "average", "solved", "worst")


@dataclass(frozen=True)
class TrainingBudget:
    """How long a training run goes on: episodes trained in all (resumed ones included) and seconds of this run,
    whichever limit comes first (None: no limit of that kind).

    >>> TrainingBudget(episodes=100, seconds=90).minutes
    1.5
    """

    episodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        """Refuse a budget no run can spend."""
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"a budget's seconds must be positive, got {self.seconds}")
        if self.episodes is not None and self.episodes < 1:
            raise ValueError(f"a budget's episodes must be at least 1, got {self.episodes}")

    @property
    def minutes(self) -> float | None:
        """The seconds in minutes (how training budgets are typed), or None."""
        return None if self.seconds is None else self.seconds / 60

    def done(self, episodes: int, started: float) -> bool:
        """Whether a training run that began at `started` (time.monotonic) has spent it, `episodes` trained in all."""
        if self.episodes is not None and episodes >= self.episodes:
            return True
        return self.seconds is not None and time.monotonic() - started >= self.seconds

    def fraction(self, episodes: int, started: float, first: int) -> float:
        """How much of the budget is spent, 0 to 1, by whichever limit is nearer (a progress bar, a schedule)."""
        spent = 0.0
        if self.episodes is not None:
            spent = (episodes - first) / max(1, self.episodes - first)
        if self.seconds is not None:
            spent = max(spent, (time.monotonic() - started) / max(1e-9, self.seconds))
        return min(1.0, spent)


@dataclass
class Progress:
    """What a training run tells its caller as it goes."""

    episodes: int
    fraction: float
    games_per_second: float
    recent_average: float
    recent_solved: float
    last_eval: dict | None = None


@dataclass
class Recent:
    """Guesses and wins of the most recent training games (a sliding window)."""

    window: int = 2000
    guesses: list[float] = field(default_factory=list)
    wins: list[bool] = field(default_factory=list)

    def add(self, guesses: float, won: bool) -> None:
        """Record one finished training game."""
        self.guesses.append(guesses)
        self.wins.append(won)
        del self.guesses[:-self.window], self.wins[:-self.window]

    def summary(self) -> tuple[float, float]:
        """(average guesses, solved share) over the window; (nan, nan) when empty."""
        if not self.guesses:
            return float("nan"), float("nan")
        return float(np.mean(self.guesses)), float(np.mean(self.wins))


def curve_row(episodes: int, seconds: float, guesses: np.ndarray, solved: np.ndarray) -> dict:
    """One learning-curve row from the greedy policy's games over every answer."""
    return {"episodes": int(episodes), "seconds": round(float(seconds), 1), "average": round(float(np.mean(guesses)), 4),
            "solved": round(float(np.mean(solved)), 5), "worst": int(np.max(guesses))}


def write_curve(rows: list[dict], path: str | Path, title: str) -> list[Path]:
    """Write the curve as CSV (always) and PNG (when matplotlib is installed); the paths written."""
    path = Path(path)
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=CURVE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: row[key] for key in CURVE_COLUMNS} for row in rows)
    write_atomically(path.with_suffix(".csv"), text.getvalue())
    written = [path.with_suffix(".csv")]
    if rows and plot_curves({title: rows}, path.with_suffix(".png"), title):
        written.append(path.with_suffix(".png"))
    return written


def plot_curves(curves: dict[str, list[dict]], path: str | Path, title: str) -> bool:
    """Average guesses against episodes, one line per curve, as a PNG; False when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(figsize=(7, 4))
    for label, rows in curves.items():
        axes.plot([row["episodes"] for row in rows], [row["average"] for row in rows], marker=".", label=label)
    axes.set_xlabel("training episodes (games)")
    axes.set_ylabel("average guesses, all answers (loss = 7)")
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend()
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    write_atomically(path, buffer.getvalue())
    return True


Reporter = Callable[[Progress], None]
