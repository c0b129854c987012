"""The web's review from a screenshot (the phone's path): POST /api/review/screenshot reads the board as
`review --screenshot` does and reviews it as /api/review does; a bad upload is a one-line 4xx, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("PIL.Image", reason="the screenshot extra (Pillow) reads images")
try:
    from starlette.testclient import TestClient
except RuntimeError as missing:  # Starlette's test client needs httpx2 (also in the 'web' extra)
    pytest.skip(str(missing).splitlines()[0], allow_module_level=True)

from web.app import MAX_UPLOAD, create_app  # noqa: E402
from web.service import Service  # noqa: E402

from .conftest import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "tests" / "boards"
#: A committed board (tests/boards/boards.json): SLATE BEECH CHECK, light theme, high contrast.
BOARD = BOARDS / "light-contrast-small-2x.png"
BOARD_STEPS = ["slate:----y", "beech:--ggy", "check:ggggg"]
PNG = {"Content-Type": "image/png"}


@pytest.fixture(scope="module")
def client(official_game):
    """A test client over the official game, its work in worker processes as `serve` runs it."""
    with TestClient(create_app(official_game, workers=1), base_url="http://localhost",
                    raise_server_exceptions=False) as test_client:
        upload(test_client, b"x")  # the worker process started (seconds), once for the module, not in one test's time
        yield test_client


def upload(client, data: bytes, query: str = "", headers: dict | None = None):
    """POST a picture to the screenshot review."""
    return client.post(f"/api/review/screenshot{query}", content=data, headers=PNG if headers is None else headers)


@pytest.mark.parametrize("query, data, headers, status, message", [
    ("", b"not a picture", PNG, 400, "not an image that can be read"),
    ("", b"", PNG, 400, "no picture: send the screenshot of the board as the request's body"),
    ("", (ROOT / "results" / "screenshots" / "api-desktop.png").read_bytes(), PNG, 400, "no Wordle board found"),
    ("", BOARD.read_bytes()[:5000], PNG, 400, "not an image that can be read (damaged or cut short"),
    ("", BOARD.read_bytes(), {"Content-Type": "application/json"}, 415, "read only as a picture's body"),
    ("", BOARD.read_bytes(), {"Content-Type": "multipart/form-data; boundary=x"}, 415, "got \"multipart/form-data\""),
    ("?steps=crane:-----", BOARD.read_bytes(), PNG, 400, "takes only answers, exclude, hard, max_guesses beside it"),
    ("?answer=check", BOARD.read_bytes(), PNG, 400, "got \"answer\""),
    ("?answers=nosuch", BOARD.read_bytes(), PNG, 400, "'answers' must be one of"),
    ("?hard=maybe", BOARD.read_bytes(), PNG, 400, "'hard' must be true or false"),
    ("", b"\0" * (MAX_UPLOAD + 1), PNG, 413, f"the API reads at most {MAX_UPLOAD}"),
], ids=["not-a-picture", "empty", "no-board", "cut-short", "json", "multipart", "steps", "answer", "answers", "hard",
        "too-large"])  # short names: a picture's bytes as a test's name filled CI's log, hiding the failure's message
def test_a_bad_upload_is_a_one_line_4xx(client, query, data, headers, status, message):
    reply = upload(client, data, query, headers)
    error = reply.json()["error"]
    assert reply.status_code == status and message in error and "\n" not in error, (reply.status_code, error)


def test_an_upload_sent_in_pieces_is_cut_off_past_the_limit(client):
    """A body without Content-Length (chunked) is counted as it arrives and refused once past MAX_UPLOAD."""
    def pieces():
        """Chunks of 1 MiB, one more than the limit holds."""
        for _ in range(MAX_UPLOAD // 2**20 + 1):
            yield b"\0" * 2**20
    reply = client.post("/api/review/screenshot", content=pieces(), headers=PNG)
    assert reply.status_code == 413 and "over 10485760 bytes" in reply.json()["error"]


def test_another_sites_page_cannot_upload(client):
    reply = client.post("/api/review/screenshot", content=BOARD.read_bytes(),
                        headers={**PNG, "Origin": "http://evil.example"})
    assert reply.status_code == 403


def test_the_board_read_is_what_the_review_gets(official_game, monkeypatch):
    """In a worker's Service (no pool): the picture's rows become review's steps, its options pass through, and
    what was read is answered beside the review."""
    given = []
    monkeypatch.setattr(Service, "review", lambda self, body: given.append(body) or {"reviewed": True})
    service = Service(official_game, workers=1)
    data = service.review_screenshot({"image": BOARD.read_bytes(), "answers": "original", "hard": "1",
                                      "exclude": "crane, salet"})
    assert given == [{"answers": "original", "hard": "1", "exclude": ["crane", "salet"], "steps": BOARD_STEPS}]
    assert data["reviewed"] and data["screenshot"]["steps"] == BOARD_STEPS
    assert data["screenshot"]["theme"] == "light" and data["screenshot"]["contrast"]


def test_the_review_page_offers_a_screenshot_upload(client):
    page = client.get("/review").text
    assert 'type="file"' in page and 'accept="image/*"' in page and 'id="screenshot"' in page
    script = client.get("/static/review.js").text
    assert "/api/review/screenshot" in script
    assert "/api/review/screenshot" in client.get("/api").text  # the API page lists it


@pytest.mark.slow
def test_the_upload_is_reviewed_as_review_screenshot_reviews_the_file(client, capsys):
    reply = upload(client, BOARD.read_bytes(), "?answers=original")
    assert reply.status_code == 200, reply.text
    data = reply.json()
    code, out, _ = run_cli(capsys, "review", "--screenshot", str(BOARD), "--answers", "original", "--json")
    cli = json.loads(out)
    assert code == 0 and data["screenshot"] == cli["screenshot"] and data["screenshot"]["steps"] == BOARD_STEPS
    assert [step["guess"] for step in data["steps"]] == [step["guess"] for step in cli["steps"]]
    assert data["solved"] and data["answer"] == "check" and data["steps"][-1]["colours"] == ["correct"] * 5
