"""A tournament's figures as pictures: SVG charts drawn from its summary alone.

Scores are guesses used, lower is better. Two charts:

- `histograms.svg`: for each agent, how many games it solved in 1, 2, ... guesses and how
  many it did not solve (X), normal and hard mode side by side, on one shared scale;
- `hard-vs-normal.svg`: hard minus normal mean guesses per agent, with its 95% interval.

The SVG is written by hand rather than with matplotlib: the charts are a few dozen
rectangles and lines, the text is the same byte for byte for the same summary (so
`verify`, which re-derives report.md from summary.json, can trust the pictures too), and
the web page serves the very same drawing without a plotting library installed.

>>> summary = {"max_guesses": 2, "failure_score": 3, "results": [
...     {"agent": "a", "mode": "normal", "histogram": [1, 1], "failures": 0, "mean": 1.5, "games": 2}],
...     "comparisons": []}
>>> sorted(charts(summary))
['histograms.svg']
>>> charts(summary)["histograms.svg"].count('class="bar normal"')
3
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from plumbing.storage import write_atomically

HISTOGRAM_FILE = "histograms.svg"
DIFFERENCE_FILE = "hard-vs-normal.svg"
#: Colours that stay apart for colour-blind readers (Paul Tol's bright scheme).
MODE_COLOURS = {"normal": "#4477aa", "hard": "#ee6677"}
FONT = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif"


def _number(value: float) -> str:
    """A coordinate with two decimals and no trailing zeros, so the text is stable."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    """A standalone SVG document around `body`."""
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(width)}" height="{_number(height)}" '
        f'viewBox="0 0 {_number(width)} {_number(height)}" role="img" aria-label="{escape(title)}" style="{FONT}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{_number(width)}" height="{_number(height)}" fill="#ffffff"/>',
        *body,
        "</svg>",
        "",
    ])


def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "start", weight: str = "normal",
          fill: str = "#222222") -> str:
    """One SVG text element."""
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{_number(x)}" y="{_number(y)}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}"{bold}>{escape(text)}</text>')


def _legend(x: float, y: float, modes: list[str]) -> list[str]:
    """A colour key for the modes present."""
    parts = []
    for mode in modes:
        parts.append(f'<rect x="{_number(x)}" y="{_number(y - 10)}" width="12" height="12" fill="{MODE_COLOURS[mode]}"/>')
        parts.append(_text(x + 16, y, f"{mode} mode"))
        x += 110
    return parts


def histogram_chart(summary: dict[str, Any]) -> str:
    """Games solved in each number of guesses (and not solved, X), per agent, both modes on one scale."""
    columns = summary.get("histogram_columns", summary["max_guesses"])  # the histograms' length, not the guess limit
    labels = [str(n) for n in range(1, columns + 1)] + ["X"]
    by_agent: dict[str, dict[str, dict[str, Any]]] = {}
    for row in summary["results"]:
        by_agent.setdefault(row["agent"], {})[row["mode"]] = row
    modes = [mode for mode in MODE_COLOURS if any(mode in rows for rows in by_agent.values())]
    tallest = max([1] + [max(list(row["histogram"]) + [row["failures"]]) for row in summary["results"]])
    columns = 2 if len(by_agent) > 1 else 1
    panel_width, panel_height, plot_height = 440.0, 170.0, 110.0
    left, top = 20.0, 50.0
    width = left * 2 + columns * panel_width
    rows = -(-len(by_agent) // columns)
    height = top + rows * panel_height + 10
    body = [_text(left, 22, "Guesses per game, per agent (X: not solved); bar height: games", 15, weight="bold"),
            *_legend(width - 20 - 110 * len(modes), 22, modes)]
    group = (panel_width - 60) / len(labels)
    bar = (group - 8) / max(1, len(modes))
    for number, (agent, mode_rows) in enumerate(by_agent.items()):
        x0 = left + (number % columns) * panel_width + 40
        y0 = top + (number // columns) * panel_height
        base = y0 + 24 + plot_height
        means = ", ".join(f"{mode} {mode_rows[mode]['mean']:.3f}" for mode in modes if mode in mode_rows)
        body.append(f'<g class="panel" data-agent="{escape(agent)}">')
        body.append(_text(x0, y0 + 14, f"{agent}  (mean: {means})", 13, weight="bold"))
        body.append(f'<line x1="{_number(x0)}" y1="{_number(base)}" x2="{_number(x0 + group * len(labels))}" '
                    f'y2="{_number(base)}" stroke="#888888"/>')
        body.append(_text(x0 - 4, y0 + 30, str(tallest), 10, "end", fill="#666666"))
        body.append(_text(x0 - 4, base, "0", 10, "end", fill="#666666"))
        for slot, label in enumerate(labels):
            gx = x0 + slot * group + 4
            for index, mode in enumerate(modes):
                row = mode_rows.get(mode)
                if row is None:
                    continue
                count = row["failures"] if label == "X" else row["histogram"][slot]
                bar_height = plot_height * count / tallest
                what = "not solved" if label == "X" else f"solved in {label}"
                body.append(f'<rect class="bar {mode}" x="{_number(gx + index * bar)}" y="{_number(base - bar_height)}" '
                            f'width="{_number(bar - 1)}" height="{_number(bar_height)}" fill="{MODE_COLOURS[mode]}">'
                            f"<title>{escape(agent)}, {mode} mode: {count} games {what}</title></rect>")
            body.append(_text(gx + group / 2 - 4, base + 14, label, 11, "middle"))
        body.append("</g>")
    return _svg(width, height, "Guess histogram per agent and mode", body)


def difference_chart(summary: dict[str, Any]) -> str:
    """Hard minus normal mean guesses per agent: a dot at the mean, a bar across its 95% interval."""
    comparisons = summary["comparisons"]
    confidence = round(100 * summary.get("confidence", 0.95))
    ends = [0.0]
    for row in comparisons:
        ends += [row["mean_difference"]] + [row[k] for k in ("ci_low", "ci_high") if row[k] is not None]
    low, high = min(ends), max(ends)
    pad = 0.1 * (high - low or 1.0)
    low, high = low - pad, high + pad
    left, plot_width, top, row_height = 150.0, 420.0, 60.0, 26.0
    width, height = left + plot_width + 330, top + row_height * len(comparisons) + 40

    def x(value: float) -> float:
        """Where a difference falls on the plot."""
        return left + plot_width * (value - low) / (high - low)

    body = [_text(20, 22, f"Hard minus normal mode: mean extra guesses a game, with its {confidence}% interval",
                  15, weight="bold"),
            _text(20, 42, "right of 0: hard mode took more guesses; p: Wilcoxon signed-rank test", 12, fill="#555555"),
            f'<line x1="{_number(x(0))}" y1="{_number(top - 8)}" x2="{_number(x(0))}" '
            f'y2="{_number(top + row_height * len(comparisons))}" stroke="#888888" stroke-dasharray="4 3"/>']
    for number, row in enumerate(comparisons):
        y = top + row_height * number + row_height / 2
        interval = ""
        body.append(f'<g class="difference" data-agent="{escape(row["agent"])}">')
        body.append(_text(left - 10, y + 4, row["agent"], 12, "end"))
        if row["ci_low"] is not None and row["ci_high"] is not None:
            interval = f" [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]"
            body.append(f'<line class="interval" x1="{_number(x(row["ci_low"]))}" y1="{_number(y)}" '
                        f'x2="{_number(x(row["ci_high"]))}" y2="{_number(y)}" stroke="{MODE_COLOURS["hard"]}" '
                        'stroke-width="3"/>')
        body.append(f'<circle class="mean" cx="{_number(x(row["mean_difference"]))}" cy="{_number(y)}" r="5" '
                    f'fill="{MODE_COLOURS["normal"]}"><title>{escape(row["agent"])}: '
                    f'{row["mean_difference"]:+.3f}{interval}</title></circle>')
        body.append(_text(left + plot_width + 12, y + 4,
                          f"{row['mean_difference']:+.3f}{interval}  p={row['p_value']:.2g}  {row['finding']}", 12))
        body.append("</g>")
    axis = top + row_height * len(comparisons) + 16
    for value in sorted({round(low + pad, 2), 0.0, round(high - pad, 2)}):
        body.append(_text(x(value), axis, f"{value:+.2f}", 10, "middle", fill="#666666"))
    return _svg(width, height, "Hard minus normal mode per agent", body)


def charts(summary: dict[str, Any]) -> dict[str, str]:
    """Every chart the summary has data for, by file name (the comparison needs both modes).

    Args:
        summary: a tournament summary as summary.json holds it (`Summary.to_dict()`).
    """
    drawers = {HISTOGRAM_FILE: histogram_chart, DIFFERENCE_FILE: difference_chart}
    return {name: drawers[name](summary) for name in chart_names(summary)}


def chart_names(summary: dict[str, Any]) -> list[str]:
    """The file names of the charts the summary has data for."""
    return [HISTOGRAM_FILE, *([DIFFERENCE_FILE] if summary.get("comparisons") else [])]


def chart_links(summary: dict[str, Any]) -> list[str]:
    """report.md's Markdown lines showing the charts that `write_charts` writes beside it."""
    titles = {HISTOGRAM_FILE: "Guess histogram per agent and mode", DIFFERENCE_FILE: "Hard minus normal mode per agent"}
    return [line for name in chart_names(summary) for line in (f"![{titles[name]}]({name})", "")]


def write_charts(folder: str | Path, summary: dict[str, Any]) -> list[Path]:
    """Write every chart of the summary into the run folder; returns the paths written."""
    written = []
    for name, text in charts(summary).items():
        path = Path(folder) / name
        write_atomically(path, text)
        written.append(path)
    return written
