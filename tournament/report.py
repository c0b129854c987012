"""Rendering a tournament: the Markdown report, the rich tables and the progress bars.

Scores are guesses used, lower is better; an unsolved game counts as the guess limit plus one.
"""

from __future__ import annotations

import math
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from plumbing.storage import WORD_LISTS_KEY
from variants import GameSpec

from .charts import chart_links
from .plan import Plan
from .records import GameRecord
from .stats import AgentModeStats, PairedComparison, Summary

RESULT_HEADERS = ("agent", "mode", "solved%", "avg±95%", "worst")
COMPARISON_HEADERS = ("agent", "answers", "normal", "hard", "hard-normal±95%", "harder", "easier", "equal",
                      "same games", "p", "test", "finding")


def _plus_minus(value: float, low: float | None, high: float | None, signed: bool = False) -> str:
    """A mean with the half-width of its (symmetric Student-t) interval."""
    text = f"{value:+.3f}" if signed else f"{value:.3f}"
    return text if low is None or high is None else f"{text}±{(high - low) / 2:.3f}"


def _percent_down(value: float) -> str:
    """A percentage to one decimal, rounded down, so 2314 of 2315 reads 99.9 and never 100.0.

    >>> _percent_down(100 * 2314 / 2315), _percent_down(100.0), _percent_down(98.06)
    ('99.9', '100.0', '98.0')
    """
    return f"{math.floor(value * 10 + 1e-9) / 10:.1f}"


def _worst(stats: AgentModeStats, max_guesses: int) -> str:
    """The worst game: its guess count, or 'X' when some game was not solved."""
    return "X" if stats.worst > max_guesses else str(stats.worst)


def result_headers(columns: int) -> list[str]:
    """The results table's column names: figures, histogram 1..N (N = `columns`) and X (unsolved), speed."""
    return [*RESULT_HEADERS, *[str(n) for n in range(1, columns + 1)], "X", "s/game", "nodes"]


def result_cells(stats: AgentModeStats, max_guesses: int) -> list[str]:
    """One row of the results table as text."""
    return [
        stats.agent, stats.mode, _percent_down(stats.solved_pct), _plus_minus(stats.mean, stats.ci_low, stats.ci_high),
        _worst(stats, max_guesses), *[str(n) for n in stats.histogram], str(stats.failures),
        "n/a" if stats.seconds_per_game is None else f"{stats.seconds_per_game:.4f}",
        "-" if stats.nodes_per_game is None else f"{stats.nodes_per_game:,.0f}",
    ]


def comparison_cells(comparison: PairedComparison) -> list[str]:
    """One row of the hard-vs-normal table as text."""
    return [
        comparison.agent, str(comparison.answers), f"{comparison.normal_mean:.3f}", f"{comparison.hard_mean:.3f}",
        _plus_minus(comparison.mean_difference, comparison.ci_low, comparison.ci_high, signed=True),
        str(comparison.harder), str(comparison.easier), str(comparison.equal), str(comparison.same_games),
        f"{comparison.p_value:.3g}",
        comparison.test,
        comparison.finding,
    ]


def _table(title: str, headers: list[str] | tuple[str, ...], left: set[int]) -> Table:
    """A compact rich table with the given columns, left-aligned where named."""
    table = Table(title=title, header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for number, header in enumerate(headers):
        table.add_column(header, justify="left" if number in left else "right", no_wrap=True, min_width=len(header))
    return table


def results_table(summary: Summary) -> Table:
    """The terminal's table of every agent and mode, narrow enough for 80 columns: the figures and the speed
    (the guess histogram is histogram_table; report.md has every column in one table)."""
    table = _table(f"Tournament (X: not solved, counted as {summary.failure_score} guesses)",
                   ["agent", "mode", "solved%", "avg±95%", "worst", "X", "s/game"], {0, 1})
    for stats in summary.results:
        cells = result_cells(stats, summary.max_guesses)
        table.add_row(*cells[:5], str(stats.failures), cells[-2])
    return table


def histogram_table(summary: Summary) -> Table:
    """The terminal's table of how many games each agent solved in 1, 2, ... guesses, and not at all (X)."""
    table = _table("Games solved in N guesses", ["agent", "mode", *[str(n) for n in range(1, summary.histogram_columns + 1)],
                                                 "X"], {0, 1})
    for stats in summary.results:
        table.add_row(stats.agent, stats.mode, *[str(n) for n in stats.histogram], str(stats.failures))
    return table


def comparison_table(summary: Summary) -> Table:
    """The terminal's table of hard against normal mode, per agent, in 80 columns (report.md has the counts)."""
    table = _table("Hard against normal mode, paired by answer", ["agent", "normal", "hard", "hard-normal±95%", "p",
                                                                  "finding"], {0, 5})
    for comparison in summary.comparisons:
        cells = comparison_cells(comparison)
        table.add_row(cells[0], cells[2], cells[3], cells[4], cells[9], cells[11])
    return table


def _markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A GitHub Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown_report(document: dict[str, Any], summary: Summary) -> str:
    """The report.md text: provenance, the results table, the comparison and the verdict."""
    settings = document["settings"]
    provenance = document["provenance"]
    commits = ", ".join(f"{p['commit']}{' (uncommitted changes)' if p.get('dirty') else ''}" for p in provenance)
    versions = ", ".join(f"{name} {version}" for name, version in (sorted(provenance[0]["versions"].items()) if provenance else []))
    typed = [" ".join(s["argv"]) for s in document.get("sessions", []) if s.get("argv")]
    shape = settings.get("game")
    game = [] if shape is None else [f"- Game: {GameSpec.from_shape(shape, max_guesses=settings['max_guesses']).describe()}"]
    played = (f"answers: {settings['answers_played']}{'' if settings['sample'] is None else ' (seeded sample)'}"
              if shape is None else f"games: {settings['answers_played']}, dealt from the seed")
    note = document.get("converted")
    converted = [] if note is None else [
        f"- Converted from the `{note['format']}` format by `{note['by']}` at commit {note['commit']}: the games, "
        "seed, word lists, commits and machine are the original run's"]
    lines = [
        "# Tournament report",
        "",
        *game,
        f"- Command (reproduces every game): `{document['command']}`",
        *converted,
        *[f"- Typed: `{command}`" for command in typed],
        f"- Seed: {settings['seed']}; agent options: {settings['options'] or 'none'}; "
        f"{played}; modes: {', '.join(settings['modes'])}; guess limit: {settings['max_guesses']}",
        f"- Word lists: {settings['words']['answers_file'] or 'shipped answers'}, "
        f"{settings['words']['guesses_file'] or 'shipped guesses'}; checksum `{settings['words'][WORD_LISTS_KEY]}`",
        f"- Git commit: {commits}",
        f"- Versions: {versions}",
        f"- Written: {document['written']}",
        "",
        "## Results",
        "",
        f"Scores are guesses used; an unsolved game (or one the agent ended with an error) counts as "
        f"{summary.failure_score} guesses in every average. "
        "avg±95% is the mean and the half-width of its 95% Student-t interval. Columns 1..N count games solved in that many "
        "guesses, X those not solved; `worst` X means some game was not solved. s/game is wall-clock seconds a game in a "
        "worker; nodes is the search nodes behind a game's decisions, where a decision an agent reuses from its cache "
        "(the opening move, above all) counts the nodes of the search that first made it.",
        "",
        _markdown_table(result_headers(summary.histogram_columns),
                        [result_cells(stats, summary.max_guesses) for stats in summary.results]),
        "",
        *chart_links(document["summary"]),
    ]
    if summary.comparisons:
        lines += [
            "## Hard mode against normal mode",
            "",
            _markdown_table(list(COMPARISON_HEADERS), [comparison_cells(c) for c in summary.comparisons]),
            "",
        ]
    lines += ["## Verdict", "", summary.verdict, ""]
    return "\n".join(lines)


class ProgressDisplay:
    """Rich progress bars: one per agent and one overall, started when the run knows what is left."""

    def __init__(self, console: Console):
        """Bars drawn on `console`; nothing shows until `start`."""
        self.console = console
        self.progress: Progress | None = None
        self.bars: dict[str, TaskID] = {}
        self.overall: TaskID | None = None

    def start(self, plan: Plan, done: list[GameRecord]) -> None:
        """Show the bars, advanced by the games already played."""
        self.progress = Progress(
            TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TimeRemainingColumn(), console=self.console, transient=False,
        )
        per_agent = len(plan.modes) * len(plan.games)
        for agent in plan.agents:
            already = sum(1 for record in done if record.agent == agent)
            self.bars[agent] = self.progress.add_task(agent, total=per_agent, completed=already)
        self.overall = self.progress.add_task("all agents", total=plan.game_count(), completed=len(done))
        self.progress.start()

    def advance(self, record: GameRecord) -> None:
        """One more game finished."""
        if self.progress is not None and self.overall is not None:
            self.progress.advance(self.bars[record.agent])
            self.progress.advance(self.overall)

    def stop(self) -> None:
        """Leave the bars as they stand."""
        if self.progress is not None:
            self.progress.stop()
