"""The house's layers: imports flow one way (engine <- game <- heuristics <- agents <- tournament / web / commands).

Each package may import only the packages below it; the engine imports no game and no higher layer, the
plumbing nothing of the project. Importing any package changes nothing outside Python's own module table.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("search", "wordle", "variants", "plumbing", "heuristics", "agents", "tournament", "web", "commands", "cli")
#: What each package may import from the project (besides itself).
ALLOWED = {
    "plumbing": set(),
    "search": set(),
    "wordle": {"search", "plumbing"},
    "variants": {"search", "wordle", "plumbing"},
    "heuristics": {"search", "wordle", "variants", "plumbing"},
    "agents": {"search", "wordle", "variants", "plumbing", "heuristics"},
    "tournament": {"search", "wordle", "variants", "plumbing", "heuristics", "agents"},
    "web": {"search", "wordle", "variants", "plumbing", "heuristics", "agents", "tournament"},
    "commands": {"search", "wordle", "variants", "plumbing", "heuristics", "agents", "tournament", "web"},
}


def project_imports(path: Path) -> set[str]:
    """The top-level project packages a module imports, wherever in the module the import stands."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & set(PROJECT)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_the_layers_below_it(package):
    """No module of `package` (doctests and conftest included) imports a package above it or beside it."""
    wrong = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        if bad := project_imports(path) - ALLOWED[package] - {package}:
            wrong[str(path.relative_to(ROOT))] = sorted(bad)
    assert not wrong, f"imports against the layers: {wrong}"


def test_the_engine_names_no_game():
    """The engine's source, docstrings included, does not mention Wordle, its guesses, patterns or Indicator: it knows
    only the Game protocol."""
    for path in (ROOT / "search").glob("*.py"):
        code = path.read_text(encoding="utf-8")
        assert "import wordle" not in code and "from wordle" not in code, path.name
        named = re.findall(r"\b(?:wordle(?!-arena)|guess\w*|guesser|indicator|pattern\w*)\b", code, re.IGNORECASE)
        assert not named, (path.name, named)


def test_the_engine_is_tested_on_games_that_are_not_wordle():
    """The toy games' tests import the engine alone: every algorithm and policy hook runs with no game package."""
    for name in ("toy_games.py", "test_engine_toy.py", "test_algorithms.py", "test_table.py", "test_ranking.py"):
        assert project_imports(ROOT / "tests" / name) <= {"search"}, name


def test_importing_any_package_has_no_side_effects(tmp_path):
    """Importing every package leaves the environment and the cache folder as they were."""
    script = (
        "import os, json, sys; before = dict(os.environ); "
        f"import {', '.join(p for p in PROJECT if p != 'cli')}; import cli; "
        "after = dict(os.environ); print(json.dumps({k: after.get(k) for k in set(before) ^ set(after) "
        "| {k for k in before if before[k] != after.get(k)}}))"
    )
    cache = tmp_path / "cache"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "WORDLE_ARENA_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {}
    assert not cache.exists()
