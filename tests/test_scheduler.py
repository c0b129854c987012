"""`openers --exact --scheduler ADDRESS` where ADDRESS is not a Dask scheduler: one line and exit 2, in bounded time.

Every listener is on 127.0.0.1 (nothing leaves the machine). The deadline is cut to 3 s here; the command's is
SCHEDULER_SECONDS. Before the check, a server answering bytes gave a traceback ('Unable to allocate 3.07 EiB'),
one that never spoke (or http.server) held the job forever, and ucx:// and tls:// raised TypeError.
"""

from __future__ import annotations

import http.server
import importlib.util
import socket
import threading
from collections.abc import Iterator

import pytest

import plumbing.scheduler
from plumbing.errors import UserError
from plumbing.scheduler import check_scheduler
from tests.conftest import run_cli

pytestmark = pytest.mark.skipif(not importlib.util.find_spec("distributed"),
                                reason="--scheduler needs the distributed extra")

ANSWERS = "cigar crane slate tares salet rebut sissy humph".split()


def loopback_listener(backlog: int = 16) -> socket.socket:
    """A TCP listener on a free port of 127.0.0.1."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(backlog)
    return listener


def serve(listener: socket.socket, answer: bytes | None) -> None:
    """Accept connections forever: send `answer` and close each, or (None) hold each open and silent."""
    held = []
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:  # the listener was closed: the test is over
            return
        if answer is None:
            held.append(connection)
        else:
            connection.sendall(answer)
            connection.close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's handler, logging nothing (its 400 lines would land in the command's stderr)."""

    def log_message(self, *args) -> None:
        """Log nothing."""


@pytest.fixture
def not_a_scheduler(request) -> Iterator[str]:
    """The address of a loopback listener that is not a Dask scheduler, of the kind the test names."""
    kind = request.param
    if kind == "http.server":
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
        server.shutdown()
        server.server_close()
        return
    if kind == "unanswered":  # as an address that does not route: every SYN is dropped (its accept queue is full)
        listener = loopback_listener(0)
        fillers = [socket.socket() for _ in range(3)]
        for filler in fillers:
            filler.setblocking(False)
            filler.connect_ex(listener.getsockname())
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        for filler in fillers:
            filler.close()
        listener.close()
        return
    listener = loopback_listener()
    answer = {"bytes": b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "silent": None}[kind]
    threading.Thread(target=serve, args=(listener, answer), daemon=True).start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


@pytest.fixture
def lists(tmp_path) -> list[str]:
    """--answers/--guesses over eight words (the job starts in a moment)."""
    path = tmp_path / "words.txt"
    path.write_text("\n".join(ANSWERS) + "\n")
    return ["--answers", str(path), "--guesses", str(path)]


@pytest.fixture(autouse=True)
def short_deadline(monkeypatch) -> None:
    """Three seconds for the check (the command's is 20)."""
    monkeypatch.setattr(plumbing.scheduler, "SCHEDULER_SECONDS", 3.0)


def refused_in_one_line(capsys, argv: list[str], out) -> str:
    """Run the command; assert exit 2, one line on stderr and no results file; return that line."""
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not out.exists()
    return err.strip()


@pytest.mark.parametrize("not_a_scheduler", ["bytes", "silent", "http.server", "unanswered"], indirect=True)
def test_a_listener_that_is_not_a_scheduler_is_refused_in_one_line(not_a_scheduler, lists, tmp_path, capsys):
    out = tmp_path / "openers.jsonl"
    line = refused_in_one_line(capsys, ["openers", "--exact", "--all", "--scheduler", not_a_scheduler, *lists,
                                        "--out", str(out)], out)
    assert line.startswith(f"wordle-arena: error: cannot reach the Dask scheduler at {not_a_scheduler}: ")


@pytest.mark.parametrize("scheme, says", [("ucx", "ucx:// needs Dask's UCX support"),
                                          ("tls", "tls:// needs TLS settings in Dask's configuration"),
                                          ("inproc", "an inproc:// address names a scheduler inside one process"),
                                          ("bogus", "unknown address scheme 'bogus'")])
def test_a_scheme_this_client_cannot_use_is_refused_in_one_line(scheme, says, lists, tmp_path, capsys):
    if scheme == "ucx" and importlib.util.find_spec("distributed_ucxx") is not None:
        pytest.skip("UCX support is installed here")
    out = tmp_path / "openers.jsonl"
    line = refused_in_one_line(capsys, ["openers", "--exact", "--all", "--scheduler", f"{scheme}://127.0.0.1:1",
                                        *lists, "--out", str(out)], out)
    assert says in line


def test_a_dask_worker_is_not_taken_for_a_scheduler(monkeypatch):
    """A Dask server that answers 'identity' as something else (a worker's address given by mistake) is named."""
    async def a_worker(address, args, seconds):
        return {"type": "Worker", "id": "x"}

    monkeypatch.setattr(plumbing.scheduler, "scheduler_identity", a_worker)
    with pytest.raises(UserError, match=r"tcp://127.0.0.1:1 is a Dask Worker, not a scheduler"):
        check_scheduler("tcp://127.0.0.1:1")


@pytest.mark.slow
def test_a_real_scheduler_passes_the_check(tmp_path):
    """A scheduler started apart answers 'identity' as a Scheduler (the job's own check lets it through)."""
    import asyncio

    from distributed import Scheduler

    async def check_against_one() -> None:
        async with Scheduler(host="127.0.0.1", port=0, dashboard=False, dashboard_address="127.0.0.1:0") as scheduler:
            await asyncio.get_running_loop().run_in_executor(None, check_scheduler, scheduler.address, 20.0)

    asyncio.run(check_against_one())
