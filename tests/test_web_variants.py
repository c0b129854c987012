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


def won_variant_game(client, seed: int) -> None:
    """Start a Dordle game from `seed` and win it, guessing its two answers (dealt as the server deals them)."""
    from agents.base import deal_answers
    from wordle import load_words

    answers = load_words().answers
    game = client.post("/api/variant/new", json={"boards": 2, "seed": seed})
    assert game.status_code == 200, game.text
    for answer in deal_answers(2, len(answers), seed, 0):
        reply = client.post("/api/variant/guess", json={"game": game.json()["game"], "guess": answers[answer]}).json()
    assert reply["over"] and reply["won"]


def test_finished_variant_games_do_not_lock_a_player_out(client):
    """Issue 49: 20 games started and won, then the 21st new game got 429 (finished games counted for an hour)."""
    from web.variant_games import CLIENT_VARIANT_GAMES

    for _ in range(CLIENT_VARIANT_GAMES + 5):
        won_variant_game(client, 5)
    response = client.post("/api/variant/new", json={"boards": 2, "seed": 5})
    assert response.status_code == 200, response.text


def test_unfinished_variant_games_are_limited_per_address(official_game):
    """An address holding CLIENT_VARIANT_GAMES unfinished games is refused one more (429); its finishing one frees a
    place."""
    from web.variant_games import CLIENT_VARIANT_GAMES, TooManyVariantGames, VariantGames

    games = VariantGames(official_game)
    keys = [games.new_game({"boards": 2, "seed": 5}, "127.0.0.2")["game"] for _ in range(CLIENT_VARIANT_GAMES)]
    with pytest.raises(TooManyVariantGames, match=f"already has {CLIENT_VARIANT_GAMES} unfinished variant games"):
        games.new_game({"boards": 2, "seed": 5}, "127.0.0.2")
    for _ in range(7):  # lose the first game: seven guesses of a word that is neither answer
        games.guess({"game": keys[0], "guess": "fuzzy"})
    games.new_game({"boards": 2, "seed": 5}, "127.0.0.2")


def test_a_variant_game_played_recently_is_never_dropped_by_a_flood(official_game, monkeypatch):
    """Issue 49: new games from 500 addresses evicted a game guessed seconds earlier (its next guess: 404). Now the
    flood is refused (503) once only recent games are left, and every game played in the last 10 minutes stays."""
    import web.variant_games as variant_games
    from web.workers import Busy

    monkeypatch.setattr(variant_games, "MAX_VARIANT_GAMES", 200)  # the flood to scale: 2,000 new games for 200 places
    games = variant_games.VariantGames(official_game)
    mine = games.new_game({"boards": 2, "seed": 1}, "127.0.0.1")["game"]
    games.guess({"game": mine, "guess": "crane"})
    refused = 0
    for number in range(2_000):
        try:
            games.new_game({"boards": 2, "seed": number}, f"127.0.{number % 500 // 250}.{number % 250 + 2}")
        except Busy as busy:
            refused += 1
            assert "try again in a few minutes" in str(busy)
    assert refused == 2_000 - 199 and len(games.games) == 200
    assert games.guess({"game": mine, "guess": "slate"})["guesses_used"] == 2
    clock = games.games.clock
    monkeypatch.setattr(games.games, "clock", lambda: clock() + variant_games.KEEP_SECONDS + 1)
    games.new_game({"boards": 2, "seed": 1}, "127.0.9.9")  # ten minutes on, the game left alone longest makes room
    assert len(games.games) == 200
