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
import threading
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


def server_port(server: subprocess.Popen) -> int:
    """The port a starting `serve` names in its address line (after any progress lines on the same pipe)."""
    for _ in range(50):
        if found := re.search(r"https?://[^\s:]+:(\d+)/", server.stdout.readline()):
            return int(found.group(1))
    raise AssertionError("the server never printed its address")


@NEEDS_WEB
@pytest.mark.slow
def test_the_server_holds_its_budget_serves_the_next_request_and_stops_on_one_sigterm():
    """An unbounded search is stopped at the budget (503, one line), a cheap request right after is served, and
    one SIGTERM stops the server mid-search within seconds, its workers with it."""
    from web.service import REQUEST_SECONDS

    server = subprocess.Popen([sys.executable, "cli.py", "serve", "--port", "0", "--workers", "2"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = server_port(server)
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
        assert status == 200 and len(answer["suggestions"]) == 3, answer  # the killed worker was replaced
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
@pytest.mark.slow
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


@pytest.mark.slow
def test_sigterm_stops_a_tournament_as_ctrl_c_does(tmp_path):
    """SIGTERM: the run says it was interrupted (exit 130), its workers end, and --resume finishes it."""
    run = tmp_path / "run"
    # every answer, both modes, stopped once a few games are journaled: the rest of the run is the window for the
    # signal (300 answers and a second's sleep once let the run finish first, on a fast machine)
    argv = ["tournament", "--agents", "entropy", "--jobs", "2", "--out", str(run)]
    parent = subprocess.Popen([sys.executable, "cli.py", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    journal = run / "journal.csv"
    while True:
        workers = child_processes(parent.pid)
        started = len(workers) >= 2 and journal.exists() and len(journal.read_text().splitlines()) >= 10
        if started or parent.poll() is not None or time.monotonic() > deadline:
            break
        time.sleep(0.02)
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
    script = ("import os, wordle.solver.kernels as k; assert 'NUMBA_CACHE_DIR' not in os.environ; "
              "k.fast_lower_bounds(); print(os.environ['NUMBA_CACHE_DIR'])")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT,
                          capture_output=True, text=True, env={**env, "WORDLE_ARENA_CACHE": str(tmp_path)}, timeout=120)
    assert done.stdout.strip() == str(tmp_path / "numba"), done.stderr


#: Compiles every kernel of the solver on a tiny game (the bound passes, the parts' helpers and the three-guess checks)
#: and prints, per kernel module, how many of its functions numba compiled and how many it read from its cache.
KERNELS_SCRIPT = """
import json, numpy as np
from tests.conftest import small_game
from wordle.solver import Solver
from wordle.solver import kernels, short_wins
game = small_game(["cater", "later", "water", "hater", "eater", "taper"], ["salet", "champ"])
solver = Solver(game, hard=True, max_guesses=4)
assert solver.solve_set(game.all_answers, 4, solver.state_hints(game.initial_state(hard=True))) > 0
assert solver.can_win(game.all_answers, 3, None) in (True, False)
assert solver.passes.least_bound(game.all_answers, 3, None, None) > 0
solver.passes.features_of(solver.passes.letters[0], game.all_answers, np.ones(182, bool))
def counts(module, names):
    stats = [getattr(module, name).stats for name in names]
    return {"hits": sum(sum(s.cache_hits.values()) for s in stats),
            "misses": sum(sum(s.cache_misses.values()) for s in stats)}
print(json.dumps({"kernels": counts(kernels, ["_bounds_kernel", "_least_kernel", "_ceiling_least_kernel"]),
                  "short_wins": counts(short_wins, ["least_cost3", "can_win3"])}))
"""


@pytest.mark.slow
def test_the_solvers_kernels_compile_into_an_empty_cache_and_are_read_back_from_it(tmp_path):
    """A cold cache: numba compiles every kernel (index files named for the solver's kernel modules appear under the
    project's cache folder); a second process reads each one back, compiling nothing."""
    pytest.importorskip("numba")
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", KERNELS_SCRIPT], cwd=ROOT, capture_output=True, text=True,
                              env={**env, "WORDLE_ARENA_CACHE": str(tmp_path)}, timeout=900)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    cold, warm = runs
    assert all(cold[module]["misses"] > 0 and cold[module]["hits"] == 0 for module in cold), cold
    assert all(warm[module]["hits"] > 0 and warm[module]["misses"] == 0 for module in warm), warm
    indexes = {path.name.split(".")[0] for path in (tmp_path / "numba").rglob("*.nbi")}
    assert {"kernels", "short_wins"} <= indexes, indexes


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
@pytest.mark.slow
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


# -- issue 31: only the page's own requests, cheap requests first, floods, memory, surrogates -----------------------
@pytest.fixture(scope="module")
def guarded_client(official_game):
    """A test client of the app as `serve` makes it (worker processes), addressed as http://localhost."""
    from starlette.testclient import TestClient

    from web.app import create_app

    with TestClient(create_app(official_game, workers=1), base_url="http://localhost",
                    raise_server_exceptions=False) as client:
        yield client


#: Requests that change state or cost an agent's work: method, path, JSON body.
GUARDED = [("POST", "/api/play/new", {}), ("POST", "/api/play/guess", {"game": "x", "guess": "crane"}),
           ("POST", "/api/advise", {"steps": ["tares:-y---"], "top": 1}),
           ("POST", "/api/watch", {"agent": "random", "answer": "crane"}),
           ("POST", "/api/review", {"answer": "crane", "words": ["slate", "crane"]}),
           ("POST", "/api/feedback", {"guess": "crane", "answer": "slate"}),
           ("GET", "/api/advise?steps=tares:-y---&top=1", None), ("GET", "/api/watch?agent=random&answer=crane", None)]
FOREIGN = [{"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": "http://localhost:8001"},
           {"Origin": "https://localhost"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}]


def one_line_error(response, status: int) -> str:
    """The one-line JSON error of a response, its status checked."""
    assert response.status_code == status, (response.status_code, response.text)
    message = response.json()["error"]
    assert isinstance(message, str) and "\n" not in message
    return message


@NEEDS_WEB
@pytest.mark.parametrize("method, path, body", GUARDED, ids=[f"{m} {p.split('?')[0]}" for m, p, _ in GUARDED])
@pytest.mark.slow
def test_another_origins_page_cannot_drive_the_server(guarded_client, method, path, body):
    """What a page elsewhere can send (its Origin or Sec-Fetch-Site says so, or a body a form or no-cors fetch can
    make: text/plain, a form's types) is refused before any work; the page's own requests are not."""
    for headers in FOREIGN:
        response = guarded_client.request(method, path, json=body, headers=headers)
        assert "another site's page" in one_line_error(response, 403), headers
    if method == "POST":
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            response = guarded_client.post(path, content=json.dumps(body), headers={"Content-Type": kind})
            assert "application/json" in one_line_error(response, 415)
        own = guarded_client.post(path, json=body, headers={"Origin": "http://localhost",
                                                            "Sec-Fetch-Site": "same-origin"})
        assert own.status_code not in (403, 415, 421)


@NEEDS_WEB
def test_a_text_plain_form_makes_no_game(guarded_client):
    """The reproduction: a form with enctype text/plain sent {"seed":7,"x":"="}, and a game was made."""
    form = b'{"seed":7,"x":"="}'
    assert guarded_client.post("/api/play/new", content=form, headers={"Content-Type": "text/plain"}).status_code == 415
    response = guarded_client.post("/api/play/new", content=form, headers={"Content-Type": "text/plain",
                                                                           "Origin": "http://evil.example"})
    assert response.status_code == 403


@NEEDS_WEB
def test_only_local_names_and_the_served_host_are_answered(guarded_client, official_game):
    """DNS rebinding: a page at evil.example resolving to 127.0.0.1 sends Host: evil.example; it is refused on every
    path, in one line. The local names are answered, and `serve --host` adds its own."""
    from starlette.testclient import TestClient

    from web.app import create_app

    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil", "", "0.0.0.0",
                 "localhost:80@evil.example", "[::2]", "localhost:x"):
        for path in ("/", "/static/common.js", "/api/agents", "/api/feedback?guess=crane&answer=slate", "/static"):
            response = guarded_client.get(path, headers={"Host": host}, follow_redirects=False)
            assert "serve --host NAME" in one_line_error(response, 421), (host, path)
    for host in ("localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:8000", "[::1]", "[::1]:8000"):
        assert guarded_client.get("/api/agents", headers={"Host": host}).status_code == 200, host
    assert guarded_client.get("/api/agents", headers={"Host": "wordle.lan:8000"}).status_code == 421
    with TestClient(create_app(official_game, workers=1, host="wordle.lan"), base_url="http://wordle.lan") as named:
        assert named.get("/api/agents").status_code == 200


@NEEDS_WEB
def test_every_answer_forbids_framing_sets_a_csp_and_redirects_to_a_path(guarded_client):
    """Pages, files, JSON, errors of every kind and refusals alike; a redirect names a path, never a Host."""
    answers = [guarded_client.get(path, follow_redirects=False) for path in
               ("/", "/review", "/static/common.js", "/static/style.css", "/api/agents", "/api/nothing",
                "/api/feedback?guess=zzzzz&answer=crane", "/api/charts/none.svg", "/static")]
    answers += [guarded_client.get("/", headers={"Host": "evil.example"}),
                guarded_client.post("/api/play/new", json={}, headers={"Origin": "http://evil.example"}),
                guarded_client.post("/api/play/new", content=b"{}", headers={"Content-Type": "text/plain"})]
    for response in answers:
        policy = response.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, response.request.url
        assert response.headers.get("x-frame-options") == "DENY"
    assert answers[-4].status_code == 307 and answers[-4].headers["location"] == "/static/"


@NEEDS_WEB
def test_the_results_show_no_server_path(guarded_client, tmp_path, official_game):
    """The published run's folder by name only; a missing one is named by its folder, not its path."""
    from starlette.testclient import TestClient

    from web.app import create_app

    text = guarded_client.get("/api/results").text
    assert str(ROOT) not in text and json.loads(text)["folder"] == "tournament-depth-2"
    with TestClient(create_app(official_game, results=tmp_path / "runs" / "gone", workers=1),
                    base_url="http://localhost") as client:
        message = one_line_error(client.get("/api/results"), 404)
        assert str(tmp_path) not in message and message.startswith("gone/summary.json")


def audit_module():
    """benchmarks/audit_hostile.py as a module (it is a script, not a package): its tables of hostile cases."""
    spec = importlib.util.spec_from_file_location("audit_hostile", ROOT / "benchmarks" / "audit_hostile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Each endpoint's valid body and its text fields (paths into the body), as the audit tries them.
TEXT_FIELDS = audit_module().TEXT_FIELDS


@NEEDS_WEB
@pytest.mark.parametrize("path, where", [(path, where) for path, (_, fields) in TEXT_FIELDS.items() for where in fields],
                         ids=[f"{path}:{'.'.join(map(str, where))}" for path, (_, fields) in TEXT_FIELDS.items()
                              for where in fields])
def test_a_lone_surrogate_in_any_text_field_is_a_400(guarded_client, path, where):
    """'\\ud800' is valid JSON but no text: it was a 500 (the error echoed it and could not be encoded)."""
    for value in ("\ud800", "cr\udfffne", "\udc00"):
        body = json.loads(json.dumps(TEXT_FIELDS[path][0]))
        inner = body
        for key in where[:-1]:
            inner = inner[key]
        inner[where[-1]] = value
        response = guarded_client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})
        assert "lone surrogate" in one_line_error(response, 400)
    response = guarded_client.post(path, content=json.dumps({"\ud800": 1}), headers={"Content-Type": "application/json"})
    assert "lone surrogate" in one_line_error(response, 400)


def hogging_handler():
    """A worker's handler that allocates as many bytes as it is asked (for the memory cap's test)."""
    return lambda method, body, report: len(np.ones(body["bytes"], dtype=np.uint8))


@NEEDS_WEB
@pytest.mark.slow
def test_a_worker_over_its_memory_cap_fails_its_call_and_is_replaced():
    """A call past the worker's address-space cap is a one-line OverMemory (503); the next call is served by a
    fresh worker."""
    from web.service import status_of
    from web.workers import OverMemory, WorkerPool

    pool = WorkerPool(hogging_handler, status_of, size=1, queue_seconds=60, memory_bytes=3 * 2**30)
    try:
        assert pool.call("hog", {"bytes": 1000}, 120, "a small call") == 1000
        with pytest.raises(OverMemory, match="more than the 3 GB of memory a worker may use") as raised:
            pool.call("hog", {"bytes": 4 * 2**30}, 120, "a large call")
        assert status_of(raised.value) == 503
        assert pool.call("hog", {"bytes": 2000}, 120, "a small call") == 2000
    finally:
        pool.close()


@NEEDS_WEB
@pytest.mark.slow
def test_the_memory_cap_counts_from_what_a_started_worker_maps():
    """A cap below what a started worker already maps (its libraries' threads map more on a machine with more cores)
    still leaves a call its allowance: a fixed cap killed such a worker before its first call (HTTP 500)."""
    from web.service import status_of
    from web.workers import OverMemory, WorkerPool

    pool = WorkerPool(hogging_handler, status_of, size=1, queue_seconds=60, memory_bytes=2**28)
    try:
        assert pool.call("hog", {"bytes": 2**27}, 120, "a call within the allowance") == 2**27
        with pytest.raises(OverMemory, match="more than the 0.25 GB"):
            pool.call("hog", {"bytes": 2**29}, 120, "a call past it")
    finally:
        pool.close()


def test_a_flood_of_new_games_from_one_client_forgets_nobodys_game(official_game):
    """10,200 new games from one address: past CLIENT_GAMES it is refused (429), and a player's game, from the same
    address or another, is still there to play."""
    from web.service import CLIENT_GAMES, Service, TooMany, status_of

    service = Service(official_game)
    mine = service.new_game({"answer": "crane"}, client="127.0.0.1")["game"]
    theirs = service.new_game({"answer": "slate"}, client="10.0.0.2")["game"]
    refused = 0
    for _ in range(10_200):
        try:
            service.new_game({}, client="127.0.0.1")
        except TooMany as error:
            refused += 1
            assert status_of(error) == 429
    assert refused == 10_200 - (CLIENT_GAMES - 1)
    assert service.guess({"game": mine, "guess": "slate"})["remaining"] > 0
    assert service.guess({"game": theirs, "guess": "slate"})["solved"]
    assert service.new_game({}, client="10.0.0.3")["game"]


@NEEDS_WEB
def test_a_clients_game_limit_is_a_one_line_429(official_game, monkeypatch):
    import web.service as web_service
    from starlette.testclient import TestClient

    from web.app import create_app

    monkeypatch.setattr(web_service, "CLIENT_GAMES", 2)
    with TestClient(create_app(official_game, workers=1), base_url="http://localhost") as client:
        assert [client.post("/api/play/new", json={}).status_code for _ in range(2)] == [200, 200]
        assert "unfinished games" in one_line_error(client.post("/api/play/new", json={}), 429)


@NEEDS_WEB
def test_a_guess_against_a_searching_indicator_is_inside_the_killable_budget(official_game):
    """The adversary searches for its reply: that runs in a worker process under the request budget (here 0.2 s:
    over it, 503 and the worker killed), not in a server thread nothing can stop."""
    from starlette.testclient import TestClient

    from web.app import create_app

    with TestClient(create_app(official_game, workers=1, request_seconds=0.2), base_url="http://localhost") as client:
        game = client.post("/api/play/new", json={"indicator": "adversary", "seed": 1}).json()["game"]
        message = one_line_error(client.post("/api/play/guess", json={"game": game, "guess": "fuzzy"}), 503)
        assert "Indicator's reply ran past the web page's 0.2 s budget" in message


@NEEDS_WEB
@pytest.mark.slow
def test_cheap_requests_and_static_files_never_wait_behind_expensive_ones():
    """While more expensive requests than the server admits are in (unbounded advice, on one worker), a cheap
    request, a page and a static file each answer within a second; those past the admission bound are a 503 at
    once. (A functional bound, far from the 16 s such a request waited when expensive work filled the threads.)"""
    server = subprocess.Popen([sys.executable, "cli.py", "serve", "--port", "0", "--workers", "1"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    answers: list[tuple[int, dict]] = []
    try:
        port = server_port(server)
        assert post(port, "/api/feedback", {"guess": "crane", "answer": "slate"}, 60)[0] == 200
        expensive = {"agent": "optimal", "options": {"opener": "fuzzy"}, "steps": ["fuzzy:-----"]}
        senders = [threading.Thread(target=lambda: answers.append(post(port, "/api/advise", expensive, 120)),
                                    daemon=True) for _ in range(60)]
        for sender in senders:
            sender.start()
        time.sleep(2)
        for path in ("/api/feedback?guess=crane&answer=slate", "/static/common.js", "/", "/api/agents"):
            began = time.monotonic()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as response:
                assert response.status == 200
            assert time.monotonic() - began < 1.0, path
        began = time.monotonic()
        assert post(port, "/api/play/new", {}, 30)[0] == 200 and time.monotonic() - began < 1.0
        busy = [answer for status, answer in answers if status == 503 and "reviews and advices are under way" in
                answer["error"]]
        assert len(busy) >= 60 - 5 - 10  # at most 5 jobs run at once on one worker (some may still be sending)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
