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
    # a pasted grid of Wordle 1,590 (PLUMP, the Times' record) with another answer: refused, as in the terminal
    ({"grid": "Wordle 1,590 1/6\n🟩🟩🟩🟩🟩", "words": ["cigar"], "answer": "cigar", "answers": "original"},
     "Wordle 1,590 was PLUMP, not CIGAR"),
])
def test_bad_review_requests_are_one_line_400s(client, body, message):
    reply = client.post("/api/review", json=body)
    assert reply.status_code == 400 and message in reply.json()["error"] and "\n" not in reply.json()["error"]


#: WATER's game from issue 48: at the last step TATER loses 2 where EATER (or WATER) loses 1.
WATER = ["later", "cater", "hater", "mater", "pater", "tater"]


def test_the_web_advice_names_the_guess_losing_fewest_where_nothing_wins(client):
    steps = [f"{word}:-gggg" for word in WATER[:5]]
    data = client.post("/api/advise", json={"steps": steps, "answers": "original", "top": 3}).json()
    first = data["suggestions"][0]
    assert first["guess"] in ("eater", "water") and first["value"]["text"] == "loses 1"
    assert "Infinity" not in json.dumps(data) and "inf" not in first["value"]["text"]


@pytest.mark.slow
def test_the_web_review_names_the_guess_losing_fewest_and_skill_follows(client):
    data = client.post("/api/review", json={"answer": "water", "words": WATER, "answers": "original"}).json()
    last = data["steps"][5]
    assert last["played"]["text"] == "loses 2" and last["best_guess"] == "eater" and last["skill"] == 0
    assert "inf" not in data["lost_text"] and "1 more of 2 answers lost at guess 6" in data["lost_text"]


@pytest.mark.slow
def test_the_web_plays_and_advises_on_todays_lists_by_default(today_game):
    """Served as `serve` serves it by default, the page takes every word the Times accepts: FUROS is played on Play,
    read in Assist's steps, and the answer models are over the same 14855 guesses."""
    with TestClient(create_app(today_game, request_seconds=600), base_url="http://localhost") as today:
        info = today.get("/api/agents").json()
        assert info["guesses"] == {"list": "nyt", "count": 14855}
        game = today.post("/api/play/new", json={"answer": "cigar"}).json()["game"]
        played = today.post("/api/play/guess", json={"game": game, "guess": "furos"})
        assert played.status_code == 200 and played.json()["pattern"] == "--y--"
        # a second step that leaves CIGAR alone keeps the advice quick (FUROS alone leaves 280 answers)
        advice = today.post("/api/advise", json={"steps": ["furos:--y--", "crane:gyy--"], "top": 3})
        assert advice.status_code == 200 and advice.json()["model"] == "likely"
        refused = today.post("/api/advise", json={"steps": ["qzxvy:-----"]})
        assert refused.status_code == 400 and "'qzxvy' is not in the list of allowed guesses" in refused.text


def test_the_advice_order_is_known_or_all_else_a_400(client):
    reply = client.post("/api/advise", json={"steps": ["crane:-----"], "words": "most"})
    assert reply.status_code == 400 and reply.json()["error"] == "'words' must be one of known, all, got \"most\""
