"""The tournament's SVG charts: drawn from the summary alone, the same bytes each time, and the published ones current."""

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from tournament.charts import DIFFERENCE_FILE, HISTOGRAM_FILE, chart_links, charts, write_charts

PUBLISHED = Path(__file__).resolve().parent.parent / "results" / "published" / "tournament-depth-2"
SVG = "{http://www.w3.org/2000/svg}"


def small_summary(comparisons: bool = True) -> dict:
    """Two agents, both modes, a guess limit of 3: counts small enough to check by hand."""
    results = [
        {"agent": "a", "mode": "normal", "histogram": [0, 2, 1], "failures": 1, "mean": 2.75, "games": 4},
        {"agent": "a", "mode": "hard", "histogram": [0, 1, 2], "failures": 1, "mean": 3.0, "games": 4},
        {"agent": "b", "mode": "normal", "histogram": [1, 3, 0], "failures": 0, "mean": 1.75, "games": 4},
        {"agent": "b", "mode": "hard", "histogram": [1, 3, 0], "failures": 0, "mean": 1.75, "games": 4},
    ]
    rows = [
        {"agent": "a", "mean_difference": 0.25, "ci_low": -0.5, "ci_high": 1.0, "p_value": 0.32, "finding": "no difference"},
        {"agent": "b", "mean_difference": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p_value": 1.0, "finding": "no difference"},
    ]
    return {"max_guesses": 3, "failure_score": 4, "confidence": 0.95, "results": results,
            "comparisons": rows if comparisons else []}


def test_histogram_bars_are_the_counts_on_one_scale():
    root = ElementTree.fromstring(charts(small_summary())[HISTOGRAM_FILE])
    bars = [rect for rect in root.iter(SVG + "rect") if "bar" in rect.get("class", "")]
    assert len(bars) == 2 * 2 * 4  # agents x modes x (3 guess counts + X)
    titles = [bar.find(SVG + "title").text for bar in bars]
    assert "a, normal mode: 1 games not solved" in titles
    heights = {title: float(bar.get("height")) for title, bar in zip(titles, bars)}
    tallest = heights["b, normal mode: 3 games solved in 2"]
    assert heights["a, normal mode: 2 games solved in 2"] == round(tallest * 2 / 3, 2)
    assert heights["b, hard mode: 0 games solved in 3"] == 0


def test_difference_chart_only_with_both_modes():
    assert sorted(charts(small_summary())) == [DIFFERENCE_FILE, HISTOGRAM_FILE]
    assert list(charts(small_summary(comparisons=False))) == [HISTOGRAM_FILE]
    assert chart_links(small_summary(comparisons=False)) == [f"![Guess histogram per agent and mode]({HISTOGRAM_FILE})", ""]
    root = ElementTree.fromstring(charts(small_summary())[DIFFERENCE_FILE])
    intervals = [line for line in root.iter(SVG + "line") if line.get("class") == "interval"]
    assert len(intervals) == 2
    wide, flat = intervals
    assert float(wide.get("x1")) < float(wide.get("x2")) and flat.get("x1") == flat.get("x2")


def test_write_charts_is_deterministic(tmp_path):
    first = [path.read_bytes() for path in write_charts(tmp_path / "one", small_summary())]
    second = [path.read_bytes() for path in write_charts(tmp_path / "two", small_summary())]
    assert first == second and len(first) == 2


def test_published_charts_are_drawn_from_the_published_summary():
    summary = json.loads((PUBLISHED / "summary.json").read_text())["summary"]
    for name, text in charts(summary).items():
        assert (PUBLISHED / name).read_text(encoding="utf-8") == text, f"{name} is stale: re-run write_charts"
    report = (PUBLISHED / "report.md").read_text(encoding="utf-8")
    assert all(line in report for line in chart_links(summary) if line)
