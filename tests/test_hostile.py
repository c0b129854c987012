"""Issue 24's reproductions, each shown fixed: budgets the server holds, stops it obeys, workers that die with
their parent, models checked before any game, full disks, damaged files and output encodings."""

from __future__ import annotations

import errno
import importlib.util
import json
import multiprocessing
import os
import pickle
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import numpy as np
import pytest

from agents.models import ModelError, load_model, save_model
from plumbing.processes import child_processes, is_alive, tie_to_parent
from plumbing.storage import keep_numba_cache
from tests.conftest import run_cli
from tests.test_tournament import lists, tournament  # noqa: F401  (fixture and helper)
from tournament.records import Journal

ROOT = Path(__file__).resolve().parents[1]
NEEDS_WEB = pytest.mark.skipif(not importlib.util.find_spec("uvicorn"), reason="serve needs the web extra")
#: How long a process may outlive what should end it ("a few seconds").
FEW_SECONDS = 5.0


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The processes of `pids` still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while (left := [pid for pid in pids if is_alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


# -- the web server: its budget and its stop ---------------------------------------------------------
def post(port: int, path: str, body: dict, timeout: float) -> tuple[int, dict]:
    """POST JSON to the local server; the status and the JSON answer."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@NEEDS_WEB
def test_the_server_holds_its_budget_serves_the_next_request_and_stops_on_one_sigterm():
    """An unbounded search is stopped at the budget (503, one line), a cheap request right after is served, and
    one SIGTERM stops the server mid-search within seconds, its workers with it."""
    from web.service import REQUEST_SECONDS

    server = subprocess.Popen([sys.executable, "cli.py", "serve", "--port", "0", "--workers", "2"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        began = time.monotonic()
        # the optimal agent from another opener solves that opener's whole tree first: minutes, unbounded
        expensive = {"agent": "optimal", "options": {"opener": "fuzzy"}, "steps": ["fuzzy:-----"]}
        status, answer = post(port, "/api/advise", expensive, 120)
        spent = time.monotonic() - began
        assert status == 503 and "ran past the web page's 20 s budget and was stopped" in answer["error"], answer
        assert spent < REQUEST_SECONDS + 30  # the budget, plus the worker's start on a shared machine
        began = time.monotonic()
        status, answer = post(port, "/api/feedback", {"guess": "crane", "answer": "slate"}, 10)
        assert status == 200 and answer["pattern"] == "--g-g" and time.monotonic() - began < FEW_SECONDS
        status, answer = post(port, "/api/advise", {"steps": ["tares:-y---"], "top": 3}, 60)
        assert status == 200 and len(answer["suggestions"]) == 3  # the killed worker was replaced
        workers = child_processes(server.pid)
        assert workers
        import threading

        busy = threading.Thread(target=post, args=(port, "/api/advise", {"agent": "optimal", "steps": ["fuzzy:-----"]},
                                                   60))
        busy.start()
        time.sleep(2)  # mid-search
        began = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=FEW_SECONDS * 3)
        assert time.monotonic() - began < FEW_SECONDS, "the server took too long to stop"
        assert "wordle-arena: stopped" in server.stdout.read()
        busy.join(10)
        assert wait_gone(workers, FEW_SECONDS) == []
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


# -- workers that die with their parent --------------------------------------------------------------
def test_killing_the_tournaments_parent_leaves_no_worker_behind(tmp_path):
    """SIGKILL of the tournament's parent mid-run: every worker ends within a few seconds."""
    parent = subprocess.Popen([sys.executable, "cli.py", "tournament", "--agents", "entropy,letter-frequency",
                               "--sample", "400", "--jobs", "2", "--out", str(tmp_path / "run")], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(workers := child_processes(parent.pid)) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.2)
        assert len(workers) >= 2, "the tournament never started its workers"
        time.sleep(1)
        parent.kill()
        parent.wait()
        assert wait_gone(workers, FEW_SECONDS) == [], "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_sigterm_stops_a_tournament_as_ctrl_c_does(tmp_path):
    """SIGTERM: the run says it was interrupted (exit 130), its workers end, and --resume finishes it."""
    run = tmp_path / "run"
    argv = ["tournament", "--agents", "entropy", "--sample", "300", "--jobs", "2", "--out", str(run)]
    parent = subprocess.Popen([sys.executable, "cli.py", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(workers := child_processes(parent.pid)) < 2 and time.monotonic() < deadline and parent.poll() is None:
        time.sleep(0.2)
    time.sleep(1)
    parent.send_signal(signal.SIGTERM)
    code = parent.wait(timeout=30)
    assert code == 130 and "interrupted: every finished game is saved" in parent.stderr.read()
    assert wait_gone(workers, FEW_SECONDS) == []
    assert (run / "journal.csv").exists()


# -- models checked before any game --------------------------------------------------------------------
@pytest.fixture
def models(tmp_path, monkeypatch) -> Path:
    """A copy of the shipped q-learning models in a folder of their own, used by every agent."""
    folder = tmp_path / "models"
    folder.mkdir()
    for mode in ("normal", "hard"):
        name = f"q-learning-{mode}.npz"
        (folder / name).write_bytes((ROOT / "results" / "models" / name).read_bytes())
    monkeypatch.setenv("WORDLE_ARENA_MODELS", str(folder))
    return folder


def damage_deflate(path: Path) -> None:
    """Flip the first byte of one array's compressed data, as a bad disk could (zlib says 'invalid block type')."""
    with zipfile.ZipFile(path) as archive:
        info = next(i for i in archive.infolist() if i.compress_size > 64)
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + int.from_bytes(data[info.header_offset + 26:info.header_offset + 28], "little") \
        + int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")
    data[start] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage, message", [
    (lambda path: path.unlink(), "no q-learning model at"),
    (lambda path: path.write_bytes(path.read_bytes()[:1000]), "is damaged"),
    (damage_deflate, "is damaged"),
], ids=["missing", "truncated", "bit-flipped"])
def test_a_tournament_refuses_a_broken_model_before_any_game(damage, message, models, tmp_path, capsys):
    """One line naming the model, exit 2, no game played or journaled; with the model back the run plays in full."""
    damage(models / "q-learning-normal.npz")
    run = tmp_path / "run"
    argv = ("tournament", "--agents", "random,q-learning", "--mode", "both", "--sample", "5", "--jobs", "1",
            "--out", str(run))
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err, err
    assert not (run / "journal.csv").exists() and not (run / "games.csv").exists()
    (models / "q-learning-normal.npz").write_bytes((ROOT / "results/models/q-learning-normal.npz").read_bytes())
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    games = (run / "games.csv").read_text()
    assert "ModelError" not in games and games.count("\nq-learning,") == 10


def test_a_bit_flipped_model_is_damaged_not_a_zlib_traceback(tmp_path):
    """A flip inside the compressed data raises zlib.error in numpy; load_model says the file is damaged."""
    path = tmp_path / "q-learning-normal.npz"
    save_model(path, {"weights": np.arange(10_000, dtype=np.float64)}, {"learner": "q-learning", "hard": False})
    damage_deflate(path)
    with pytest.raises(ModelError, match="is damaged"):
        load_model(path, "q-learning", False)


def test_a_model_for_the_other_mode_says_both_modes(tmp_path):
    """The message names what the file holds and what was wanted, not 'not q-learning'."""
    path = tmp_path / "q-learning-normal.npz"
    save_model(path, {"weights": np.zeros(3)}, {"learner": "q-learning", "hard": True})
    with pytest.raises(ModelError, match="holds a q-learning model for hard mode, not a q-learning model for "
                                         "normal mode"):
        load_model(path, "q-learning", False)


def test_train_checks_its_output_before_training(tmp_path, capsys):
    """An occupied checkpoint path is refused in one line before any training (it was found only at save time)."""
    (tmp_path / "checkpoints" / "q-learning-normal.npz").mkdir(parents=True)
    started = time.monotonic()
    code, _, err = run_cli(capsys, "train", "q-learning", "--episodes", "100000", "--out", str(tmp_path))
    assert code == 2 and "is not a regular file" in err and len(err.strip().splitlines()) == 1, err
    assert time.monotonic() - started < 60  # 100,000 episodes were not trained first


# -- a full disk --------------------------------------------------------------------------------------
def test_a_full_disk_is_one_line_and_resume_recovers(capsys, lists, tmp_path, monkeypatch):
    """ENOSPC while journaling: one line, exit 2; once there is space, --resume finishes a run that verifies."""
    folder = tmp_path / "full"
    write = Journal.write
    written = []

    def fill_up(self, record):
        if len(written) == 3:
            self.out.write("random,normal,ci")  # a line cut off by the full disk
            self.out.flush()
            raise OSError(errno.ENOSPC, "No space left on device", str(self.path))
        written.append(record)
        write(self, record)

    monkeypatch.setattr(Journal, "write", fill_up)
    code, _, err = tournament(capsys, lists, folder)
    assert code == 2 and err.count("\n") == 1 and "the disk is full" in err and "--resume" in err, err
    monkeypatch.setattr(Journal, "write", write)
    assert tournament(capsys, lists, folder, "--resume")[0] == 0
    assert run_cli(capsys, "verify", str(folder), "--answers", str(lists[0]), "--guesses", str(lists[1]))[0] == 0


# -- caches -------------------------------------------------------------------------------------------
def test_a_damaged_numba_index_is_removed_so_numba_compiles_again(tmp_path, monkeypatch):
    """An emptied .nbi (numba raised EOFError reading it) goes, with its compiled code; a sound one stays."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (tmp_path / "search").mkdir()
    empty = tmp_path / "search" / "optimal.count-1.py311.nbi"
    empty.write_bytes(b"")
    (tmp_path / "search" / "optimal.count-1.py311.1.nbc").write_bytes(b"code")
    sound = tmp_path / "search" / "optimal.count-2.py311.nbi"
    sound.write_bytes(pickle.dumps("0.68") + pickle.dumps((1.0, {})))
    assert keep_numba_cache() == tmp_path
    assert sorted(p.name for p in (tmp_path / "search").iterdir()) == [sound.name]


def test_numbas_cache_lives_with_the_other_caches(tmp_path):
    """Not in the source tree's __pycache__: under the project's cache folder, set when the solver first needs numba."""
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    script = ("import os, wordle.optimal as o; assert 'NUMBA_CACHE_DIR' not in os.environ; "
              "o.fast_lower_bounds(); print(os.environ['NUMBA_CACHE_DIR'])")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT,
                          capture_output=True, text=True, env={**env, "WORDLE_ARENA_CACHE": str(tmp_path)}, timeout=120)
    assert done.stdout.strip() == str(tmp_path / "numba"), done.stderr


def test_a_resealed_matrix_cache_with_impossible_codes_is_rebuilt(tmp_path):
    """Pattern codes of 250 in a cache whose checksum was made to fit: decoded as no matrix, so rebuilt."""
    from wordle import load_words
    from wordle.matrix import _decode

    words = load_words(answers=None, guesses=None)
    payload = bytearray(len(words.guesses) * len(words.answers))
    payload[7] = 250
    assert _decode(bytes(payload), words) is None
    payload[7] = 242
    assert _decode(bytes(payload), words) is not None


# -- output ---------------------------------------------------------------------------------------------
def test_play_prints_under_an_ascii_only_encoding():
    """PYTHONIOENCODING=ascii: the emoji grid prints ('?' for what ASCII lacks), no UnicodeEncodeError."""
    done = subprocess.run([sys.executable, "cli.py", "play", "--agent", "entropy", "--answer", "crane", "--seed", "0"],
                          cwd=ROOT, capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"}, timeout=300)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert b"wordle-arena" in done.stdout


def test_verify_shows_at_most_its_limit(capsys, lists, tmp_path):
    """--limit 3 shows 3 problems, however the check ended (829 were shown)."""
    folder = tmp_path / "run"
    assert tournament(capsys, lists, folder)[0] == 0
    games = folder / "games.csv"
    text = games.read_text().splitlines()
    rows = [row.split(",") for row in text[2:]]
    for fields in rows:  # no game of this tournament: one problem each, found in one pass
        fields[0] = "nosuch"
    games.write_text("\n".join(text[:2] + [",".join(fields) for fields in rows]) + "\n")
    code, _, err = run_cli(capsys, "verify", str(folder), "--limit", "3", "--answers", str(lists[0]), "--guesses",
                           str(lists[1]))
    assert code == 1 and len(err.strip().splitlines()) == 4, err  # 3 problems and the verdict


def _swallows_sigterm_then_ties_itself():
    """A worker that inherited a handler catching SIGTERM (as the CLI's Ctrl-C one can be), then tied to its parent."""
    signal.signal(signal.SIGTERM, lambda *_: None)
    tie_to_parent()
    time.sleep(30)


def test_a_tied_worker_ends_at_once_on_sigterm_whatever_handler_it_inherited():
    """A pool's terminate() sends SIGTERM: a worker that survived it left the indicator matrix's pool waiting."""
    worker = multiprocessing.get_context("fork").Process(target=_swallows_sigterm_then_ties_itself)
    worker.start()
    time.sleep(1)
    worker.terminate()
    worker.join(5)
    assert worker.exitcode == -signal.SIGTERM
