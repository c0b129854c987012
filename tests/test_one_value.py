"""One number per guess: assist (terminal and --json), review, play's trace, solve and the web's APIs show the same
value text for the same guess, position and model (the one valuation, counted in nodes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web's APIs are among the surfaces compared: pip install -e '.[web]'")

from starlette.testclient import TestClient  # noqa: E402

from web.app import create_app  # noqa: E402
from wordle import feedback, format_pattern  # noqa: E402
from wordle.weighted_book import SHIPPED_WEIGHTED  # noqa: E402

from .conftest import run_cli  # noqa: E402

#: The seeded positions: an opener and an answer drawn with this seed.
SEED = 28
OPENERS = ("crane", "slate", "audio", "roate")


def positions(game, count):
    """`count` seeded (opener, answer, hard) positions after one guess."""
    rng = np.random.default_rng(SEED)
    found = []
    for _ in range(count):
        answer = game.words.answers[int(rng.integers(len(game.words.answers)))]
        found.append((OPENERS[int(rng.integers(len(OPENERS)))], answer, bool(rng.integers(2))))
    return found


@pytest.fixture(scope="module")
def client(official_game):
    """The web app over the official game, with a generous request budget (the machine is shared)."""
    with TestClient(create_app(official_game, request_seconds=600), base_url="http://localhost",
                    raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.slow
def test_every_surface_shows_the_same_value_text(official_game, capsys, client, monkeypatch):
    for opener, answer, hard in positions(official_game, 2):
        same_text_everywhere(opener, answer, hard, capsys, client, monkeypatch)


@pytest.mark.slow
def test_every_surface_shows_the_same_losses_where_nothing_wins(capsys, client, monkeypatch):
    """TRACE in hard mode, then WATCH's reply: seven ?ATCH words and five guesses, so every guess loses two."""
    assert same_text_everywhere("trace", "watch", True, capsys, client, monkeypatch) == "loses 2"


def same_text_everywhere(opener: str, answer: str, hard: bool, capsys, client, monkeypatch) -> str:
    """The first suggestion after `opener` (the answer's reply) shows one text on every surface; that text."""
    step = f"{opener}:{format_pattern(feedback(opener, answer))}"
    mode = ["--hard"] if hard else []
    lists = ["--answers", "original", "--guesses", "original"]  # the client's lists, the official game's
    code, out, _ = run_cli(capsys, "assist", step, *lists, "--json", "--top", "3", *mode)
    assert code == 0
    advice = json.loads(out)
    texts = {s["guess"]: s["value"]["text"] for s in advice["suggestions"]}
    guess = advice["suggestions"][0]["guess"]
    text = texts[guess]
    # the terminal's table
    code, out, _ = run_cli(capsys, "assist", step, *lists, "--top", "3", *mode)
    row = next(line for line in out.splitlines() if f" {guess} " in line and line.strip().startswith("1"))
    assert text in row, (step, guess, text, row)
    # the web's advice
    web = client.post("/api/advise", json={"steps": [step], "hard": hard, "answers": "original", "top": 3}).json()
    assert {s["guess"]: s["value"]["text"] for s in web["suggestions"]} == texts
    # review: the guess played where assist suggested it
    words = [opener, guess] + ([answer] if guess != answer else [])
    code, out, _ = run_cli(capsys, "review", *lists, "--answer", answer, *words, "--json", *mode)
    assert code == 0 and json.loads(out)["steps"][1]["played"]["text"] == text, (step, guess)
    reviewed = client.post("/api/review", json={"answer": answer, "words": words, "answers": "original",
                                                "hard": hard}).json()
    assert reviewed["steps"][1]["played"]["text"] == text
    # solve, valuing the guess at the position
    code, out, _ = run_cli(capsys, "solve", step, "--guess", guess, *mode)
    line = next(line for line in out.splitlines() if f" {guess.upper()}:" in line)
    assert code == 0 and text in line, (step, guess, text, line)
    # play's trace: the same guess from the same position
    code, out, _ = run_cli(capsys, "play", "--answer", answer, "--guesses", "original", "--json", *mode,
                           stdin="\n".join(words) + "\n", monkeypatch=monkeypatch)
    assert json.loads(out)["turns"][1]["value"]["text"] == text
    return text


@pytest.fixture(scope="module")
def today_client(today_game):
    """The web app as `serve` starts it by default: over today's lists (the 14855 guesses the Times accepts)."""
    with TestClient(create_app(today_game, request_seconds=600, guesses="nyt"), base_url="http://localhost",
                    raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_the_default_model_shows_the_same_value_text_everywhere(official_game, capsys, today_client, hard):
    """With the defaults (the `likely` model over today's 14855 guesses), in each mode: assist's terminal and --json,
    the web's advice, review and the web's review show the same text for the first suggestion after a seeded
    opener; and no surface prints the opening book's value (proved over the original list alone) as the model's:
    SALET's is a real tree's."""
    client = today_client
    opener, answer, _ = positions(official_game, 2)[int(hard)]
    step = f"{opener}:{format_pattern(feedback(opener, answer))}"
    mode = ["--hard"] if hard else []
    code, out, _ = run_cli(capsys, "assist", step, "--json", "--top", "3", *mode)
    assert code == 0
    advice = json.loads(out)
    texts = {s["guess"]: s["value"]["text"] for s in advice["suggestions"]}
    guess = advice["suggestions"][0]["guess"]
    text = texts[guess]
    code, out, _ = run_cli(capsys, "assist", step, "--top", "3", *mode)
    row = next(line for line in out.splitlines() if f" {guess} " in line and line.strip().startswith("1"))
    assert text in row, (step, guess, text, row)
    web = client.post("/api/advise", json={"steps": [step], "hard": hard, "top": 3}).json()
    assert {s["guess"]: s["value"]["text"] for s in web["suggestions"]} == texts
    words = [opener, guess] + ([answer] if guess != answer else [])
    code, out, _ = run_cli(capsys, "review", "--answer", answer, *words, "--json", *mode)
    assert code == 0 and json.loads(out)["steps"][1]["played"]["text"] == text, (step, guess)
    reviewed = client.post("/api/review", json={"answer": answer, "words": words, "hard": hard}).json()
    assert reviewed["steps"][1]["played"]["text"] == text
    # the opening: the book's SALET (3.421 normal, 3.508 hard, over the 2315) is not the likely model's value, which
    # is a real tree's under the model's weights (the weighted book's, or built reply by reply)
    code, out, _ = run_cli(capsys, "review", "--answer", "salet", "salet", "--json", *mode)
    opening = json.loads(out)["steps"][0]
    if any(name.startswith(f"weighted-openers-{'hard' if hard else 'normal'}-") for name in SHIPPED_WEIGHTED):
        assert code == 0 and opening["played"]["high"] is not None, opening  # the weighted book's tree
    else:  # no weighted book for the mode: SALET's bounded search completes no tree, so a bound, not scored
        assert code == 0 and opening["played"]["text"].startswith("≥") and not opening["scored"], opening
    assert opening["played"]["text"] not in ("3.421", "3.508") and not opening["played"]["modelled"], opening
    web_opening = client.post("/api/review", json={"answer": "salet", "words": ["salet"], "hard": hard}).json()
    assert web_opening["steps"][0]["played"]["text"] == opening["played"]["text"]
