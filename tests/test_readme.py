"""The README and docs/ against the project: the results table is the published summary's, the two commands a newcomer
needs are there, and every relative link points at a file that exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PUBLISHED = "results/published/tournament-depth-2/summary.json"
MARKER = f"<!-- table: generated from {PUBLISHED} -->"
#: A markdown link or image: [text](target) or ![alt](target).
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def published_rows() -> list[str]:
    """The README's tournament table, one markdown row per agent, computed from the published summary alone."""
    summary = json.loads((ROOT / PUBLISHED).read_text(encoding="utf-8"))["summary"]
    stats = {(row["agent"], row["mode"]): row for row in summary["results"]}
    rows = []
    for comparison in summary["comparisons"]:
        agent = comparison["agent"]
        cells = [agent]
        for mode in ("normal", "hard"):
            row = stats[agent, mode]
            worst = "X" if row["failures"] else str(row["worst"])
            cells += [f"{row['mean']:.4f}", worst, str(row["failures"])]
        finding = comparison["finding"]
        if comparison["same_games"] == comparison["answers"]:
            finding += " (same games)"
        p_value = comparison["p_value"]
        cells += [f"{comparison['mean_difference']:+.3f}", f"{p_value:.1e}" if p_value < 1e-3 else f"{p_value:.2g}",
                  finding]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def readme_table_rows(text: str) -> list[str]:
    """The body rows of the first table after the marker (its header and rule left out)."""
    after = text.split(MARKER, 1)[1].lstrip("\n").splitlines()
    table = []
    for line in after:
        if not line.startswith("|"):
            break
        table.append(line.strip())
    return table[2:]


def test_the_tournament_table_is_the_published_summarys():
    """Every row of the README's results table equals the row computed from summary.json (a re-run that changes a
    figure must change the table, and an edited figure is caught)."""
    text = README.read_text(encoding="utf-8")
    assert MARKER in text
    assert readme_table_rows(text) == published_rows()


def test_the_first_screen_gives_the_set_up_and_test_commands():
    """The set-up and main-job command and the test command appear in the README's first 40 lines."""
    first_screen = "\n".join(README.read_text(encoding="utf-8").splitlines()[:40])
    assert "pip install -e '.[test]' && python cli.py tournament --depth 2" in first_screen
    assert "python -m pytest -q" in first_screen


def test_every_relative_link_in_the_readme_and_docs_exists():
    """A link to a file or folder of the repository (not a web address, not an anchor alone) names one that exists."""
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    missing = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (page.parent / path).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, missing
