"""The README's test command on an install with the test extra only (`pip install -e '.[test]'`): every test module
is collected, and those needing another extra skip, saying why. In a fresh clone one module imported Starlette at its
top, and the whole run stopped at collection ("2 errors during collection")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The top-level modules of the optional extras (pyproject.toml: web, fast, distributed, learn, screenshot) and of what
#: they bring.
OPTIONAL_MODULES = ("starlette", "uvicorn", "h11", "httpx", "httpx2", "playwright", "numba", "distributed", "dask",
                    "jax", "jaxlib", "optax", "matplotlib", "PIL")


@pytest.mark.slow
def test_every_test_module_is_collected_without_the_optional_extras(tmp_path):
    """pytest --collect-only with the optional modules hidden (None in sys.modules: importing one fails as if it
    were not installed, and importlib.util.find_spec finds nothing) collects every module without an error."""
    (tmp_path / "sitecustomize.py").write_text(
        f"import sys\nsys.modules.update(dict.fromkeys({OPTIONAL_MODULES!r}))\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": path})
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    assert done.returncode == 0 and "error" not in summary, done.stdout[-3000:]
