"""The web's variants: a Dordle or Fibble game dealt from a seed as the terminal deals it, advice as `assist` gives it,
and one-line 400s for bad requests."""

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


@pytest.fixture(scope="module")
def client(official_game):
    """A test client over the official game."""
    with TestClient(create_app(official_game, results="results/published/tournament-depth-2", request_seconds=600),
                    base_url="http://localhost", raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize("body, argv", [({"boards": 2}, ("--boards", "2")), ({"fibble": True}, ("--indicator", "fibble"))])
def test_a_seeded_variant_game_plays_as_the_terminal_deals_it(client, capsys, body, argv):
    code, out, _ = run_cli(capsys, "play", *argv, "--agent", "entropy", "--seed", "11", "--json")
    played = json.loads(out)
    game = client.post("/api/variant/new", json={**body, "seed": 11}).json()
    assert code == 0 and game["max_guesses"] == played["game"]["max_guesses"]
    for guess, replies in zip(played["guesses"], played["replies"]):
        reply = client.post("/api/variant/guess", json={"game": game["game"], "guess": guess}).json()
        assert [None if r is None else r["pattern"] for r in reply["replies"]] == replies
    assert reply["over"] and reply["won"] and reply["answers"] == played["answers"]


def test_variant_advice_is_assists(client, capsys):
    steps = ["crane:--g-y,g----", "doilt:-----,--y--"]
    code, out, _ = run_cli(capsys, "assist", "--boards", "2", *steps, "--json", "--top", "5")
    web = client.post("/api/variant/advise", json={"boards": 2, "steps": steps, "top": 5})
    assert code == 0 and web.status_code == 200 and web.json() == json.loads(out)


@pytest.mark.parametrize("path, body, message", [
    ("/api/variant/new", {"boards": 3}, "'boards' must be one of 2, 4, 8"),
    ("/api/variant/new", {"boards": 2, "length": 6}, "the web plays five-letter words"),
    ("/api/variant/new", {"fibble": True, "boards": 2}, "fibble plays one board"),
    ("/api/variant/advise", {"boards": 2, "steps": ["crane:--g-y"]}, "dordle needs 2 patterns"),
    ("/api/variant/advise", {"boards": 2, "steps": ["cranes:--g-y,-----"]}, "'cranes' has 6 letters"),
    ("/api/variant/advise", {"boards": 2, "steps": [], "agent": "expectimax"}, "the web advises on variants with entropy"),
])
def test_bad_variant_requests_are_one_line_400s(client, path, body, message):
    response = client.post(path, json=body)
    assert response.status_code == 400 and message in response.json()["error"] and "\n" not in response.json()["error"]


def test_a_bad_variant_guess_is_a_400_and_an_unknown_game_a_404(client):
    response = client.post("/api/variant/guess", json={"game": "nope", "guess": "crane"})
    assert response.status_code == 404 and "no variant game" in response.json()["error"]
    game = client.post("/api/variant/new", json={"boards": 4, "seed": 1}).json()
    response = client.post("/api/variant/guess", json={"game": game["game"], "guess": "zzzzz"})
    assert response.status_code == 400 and "not in the list of allowed guesses" in response.json()["error"]
    page = client.get("/variants")
    assert page.status_code == 200 and "Play a variant" in page.text
