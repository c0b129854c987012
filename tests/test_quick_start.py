"""A player's command starts without the heavy imports it does not need (its import cost: docs/speed.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Modules no player's parser needs: graphs, statistics, the web server, learning.
HEAVY = ("networkx", "scipy", "starlette", "jax", "numba", "tournament")


@pytest.mark.parametrize("command", ["assist", "review", "solve", "play"])
def test_a_commands_parser_imports_nothing_heavy(command):
    code = (f"import sys, cli; cli.build_parser([{command!r}]); "
            f"print(__import__('json').dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(found.stdout) == []


def test_importing_agents_registers_nothing_until_the_registry_is_read():
    code = ("import sys, agents; before = 'agents.searchers' in sys.modules; names = agents.agent_names(); "
            "print(before, 'agents.searchers' in sys.modules, names[0], names[-1])")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert found.stdout.split() == ["False", "True", "random", "ppo"]
