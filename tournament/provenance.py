"""Where a result came from: git commit and library versions, recorded in every results file."""

from __future__ import annotations

import functools
import subprocess
import sys
from importlib import metadata
from pathlib import Path

#: Libraries whose versions can change a tournament's numbers or files.
LIBRARIES = ("numpy", "scipy", "rich", "wordle-arena")


def _git(*arguments: str) -> str | None:
    """Output of a git command run in the project folder, or None if git is unavailable."""
    try:
        done = subprocess.run(
            ["git", *arguments], cwd=Path(__file__).resolve().parent.parent,
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _version(library: str) -> str:
    """Installed version of a distribution, or 'not installed'."""
    try:
        return metadata.version(library)
    except metadata.PackageNotFoundError:
        return "not installed"


@functools.lru_cache(maxsize=1)
def provenance() -> dict[str, object]:
    """The commit (with whether the code, anything outside results/, had uncommitted changes) and library versions.

    Computed once per process, so every file one run writes records the same values.

    Returns:
        {"commit": hash or "unknown", "dirty": bool or None, "versions": {library: version}}.
    """
    commit = _git("rev-parse", "HEAD")
    # Results files do not change results: a benchmark rewriting one must not mark the next run dirty.
    status = _git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)results")
    versions = {"python": sys.version.split()[0]}
    versions.update({library: _version(library) for library in LIBRARIES})
    return {
        "commit": commit or "unknown",
        "dirty": None if status is None else bool(status),
        "versions": versions,
    }
