"""The tournament's terminal tables fit 80 columns, nothing cut, on the published run's figures."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

from rich.console import Console

from tournament.report import comparison_table, histogram_table, results_table
from tournament.stats import AgentModeStats, PairedComparison, Summary

PUBLISHED = Path(__file__).resolve().parent.parent / "results" / "published" / "tournament-depth-2" / "summary.json"


def published_summary() -> Summary:
    """The published run's Summary, rebuilt from its summary.json."""
    data = json.loads(PUBLISHED.read_text())["summary"]
    fields = {f.name for f in dataclasses.fields(AgentModeStats)}
    results = tuple(AgentModeStats(**{k: tuple(v) if isinstance(v, list) else v for k, v in row.items() if k in fields})
                    for row in data["results"])
    fields = {f.name for f in dataclasses.fields(PairedComparison)}
    comparisons = tuple(PairedComparison(**{k: v for k, v in row.items() if k in fields}) for row in data["comparisons"])
    return Summary(max_guesses=data["max_guesses"], failure_score=data["failure_score"],
                   histogram_columns=data["histogram_columns"], results=results, comparisons=comparisons, verdict="")


def test_the_terminal_tables_fit_80_columns_with_nothing_cut():
    summary = published_summary()
    for table in (results_table(summary), histogram_table(summary), comparison_table(summary)):
        out = io.StringIO()
        Console(file=out, width=80, force_terminal=False).print(table)
        lines = out.getvalue().splitlines()
        assert max(len(line) for line in lines) <= 80 and "…" not in out.getvalue()
