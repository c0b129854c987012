"""Issue 49 items 5, 6 and 7: verify and --resume on damaged runs of dealt games (Fibble, Dordle).

Every case of tests/damaged_runs.py is refused as the rule says (verify: exit 1, one problem a line;
--resume: exit 2 in one line, nothing written), never a traceback, never a false pass. Each command
runs in its own process, as a person runs it; the same cases fail on the code before the one
tournament (see the audit's "dealt runs" area).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .damaged_runs import CASES, DORDLE, FIBBLE, UNFINISHED, command_of, folder_bytes, judgement, run_cli, unfinished_run

RUNS = {"fibble": FIBBLE, "dordle": DORDLE, "unfinished": UNFINISHED}


@pytest.fixture(scope="module")
def runs(tmp_path_factory, session_cache) -> dict[str, Path]:
    """One finished Fibble run, one finished Dordle run and one interrupted Dordle run, made once."""
    base = tmp_path_factory.mktemp("dealt-runs")
    env = {"WORDLE_ARENA_CACHE": str(session_cache)}
    made = {}
    for name in ("fibble", "dordle"):
        code, _, err = run_cli([*RUNS[name], "--out", str(base / name)], env)
        assert code == 0, err
        made[name] = base / name
    made["unfinished"] = unfinished_run(base / "unfinished", env)
    return made


@pytest.mark.slow
@pytest.mark.parametrize("item, case, run, edit, check", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_a_damaged_dealt_run_is_refused_in_one_line(runs, tmp_path, session_cache, item, case, run, edit, check):
    copy = tmp_path / run
    shutil.copytree(runs[run], copy)
    (copy / ".lock").unlink(missing_ok=True)
    edit(copy)
    before = folder_bytes(copy)
    code, out, err = run_cli(command_of(check, copy, RUNS[run]), {"WORDLE_ARENA_CACHE": str(session_cache)})
    assert judgement(check, code, out, err, copy, before) is None, (code, err[-600:])


@pytest.mark.slow
def test_the_undamaged_runs_verify_and_resume(runs, tmp_path, session_cache):
    env = {"WORDLE_ARENA_CACHE": str(session_cache)}
    for name in ("fibble", "dordle"):
        code, out, err = run_cli(["verify", str(runs[name]), "--replay"], env)
        assert code == 0 and "replayed move for move" in out, err
    copy = tmp_path / "unfinished"
    shutil.copytree(runs["unfinished"], copy)
    code, _, err = run_cli([*UNFINISHED[:-1], "40", "--out", str(copy), "--resume"], env)
    assert code == 2 and "other settings" in err  # a resume with another sample is refused
