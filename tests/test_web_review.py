"""The web's Review view: /api/review gives review --json's data, the page is served, bad input is a one-line 400."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
try:
    from starlette.testclient import TestClient
except RuntimeError as missing:  # Starlette's test client needs httpx2 (also in the 'web' extra)
    pytest.skip(str(missing).splitlines()[0], allow_module_level=True)

from web.app import create_app  # noqa: E402

from .conftest import run_cli  # noqa: E402

GAME = ["salet", "crony", "cigar"]


@pytest.fixture(scope="module")
def client(official_game):
    """A test client over the official game."""
    with TestClient(create_app(official_game), base_url="http://localhost", raise_server_exceptions=False) as test_client:
        yield test_client


def without_times(data: dict) -> dict:
    """Review data less its wall time, and the page's colour names (which the CLI's JSON lacks)."""
    data = dict(data, seconds=None)
    data["steps"] = [{k: v for k, v in step.items() if k != "colours"} for step in data["steps"]]
    return data


@pytest.mark.slow
def test_the_api_gives_the_cli_review(client, capsys):
    reply = client.post("/api/review", json={"answer": "cigar", "words": GAME, "answers": "original"})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    code, out, _ = run_cli(capsys, "review", "--answers", "original", "--answer", "cigar", *GAME, "--json")
    assert code == 0
    cli = json.loads(out)
    # proved values are the same everywhere; the root's bounds depend on the time the solver had
    for web_step, cli_step in zip(data["steps"], cli["steps"]):
        for key in ("guess", "pattern", "before", "after", "luck", "reply_chance"):
            assert web_step[key] == cli_step[key]
        if cli_step["played"]["proved"] and web_step["played"]["proved"]:
            assert web_step["played"] == cli_step["played"]
    assert data["steps"][2]["colours"] == ["correct"] * 5 and data["answer"] == "cigar"
    assert set(data) == set(cli)


def test_the_review_page_is_served_with_tiles_in_words(client):
    page = client.get("/review")
    assert page.status_code == 200 and "/static/review.js" in page.text
    script = client.get("/static/review.js").text
    assert "tileRow(" in script  # Play's tiles, each labelled with its letter and colour in words (common.js)
    assert "green" in client.get("/static/common.js").text and "right place" in client.get("/static/common.js").text


@pytest.mark.parametrize("body, message", [
    ({"answer": "cigar", "words": ["zzzzz"], "answers": "original"}, "'zzzzz' is not in the list of allowed guesses"),
    ({"answer": "cigar", "words": "salet", "answers": "original"}, "'words' must be a list"),
    ({"steps": [], "answers": "original"}, "no guesses to review"),
    ({"steps": ["salet:-y---"], "answers": "nosuch"}, "'answers' must be one of likely, fresh, original, nyt, played, all"),
    ({"grid": "⬛⬛⬛⬛⬛", "words": ["crane", "slate"], "answers": "original"}, "the share grid has 1 rows but 2"),
])
def test_bad_review_requests_are_one_line_400s(client, body, message):
    reply = client.post("/api/review", json=body)
    assert reply.status_code == 400 and message in reply.json()["error"] and "\n" not in reply.json()["error"]
