"""The web page's JSON API through Starlette's test client: right answers, and one-line 4xx errors for bad input."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
try:
    from starlette.testclient import TestClient
except RuntimeError as missing:  # Starlette's test client needs httpx2 (also in the 'web' extra)
    pytest.skip(str(missing).splitlines()[0], allow_module_level=True)

from agents import game_rng, make_agent  # noqa: E402
from agents.assistant import ADVISOR, advice_data, advise  # noqa: E402
from plumbing.errors import UserError  # noqa: E402
from wordle import feedback, format_pattern  # noqa: E402
from tournament.charts import charts  # noqa: E402
from web import service as web_service  # noqa: E402
from web.app import create_app  # noqa: E402
from web.service import MAX_NODES, Service, keyboard, share_text  # noqa: E402

from .conftest import run_cli  # noqa: E402

PUBLISHED = "results/published/tournament-depth-2"
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client(official_game):
    """A test client over the official game, showing the published tournament.

    Its time budget is generous: this machine is shared, and these tests check answers; the
    budget itself is held in tests/test_hostile.py.
    """
    with TestClient(create_app(official_game, results=PUBLISHED, request_seconds=600), base_url="http://localhost",
                    raise_server_exceptions=False) as test_client:
        yield test_client


def error_of(response, status: int = 400) -> str:
    """The one-line error of a failed response, after checking its status."""
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


def message_of(call) -> str:
    """The message of the UserError that `call()` raises (what the command line would print)."""
    with pytest.raises(UserError) as raised:
        call()
    return str(raised.value)


# -- feedback ---------------------------------------------------------------------------
@pytest.mark.parametrize("guess, answer", [("speed", "abide"), ("ninny", "annex"), ("crane", "crane"), ("eerie", "there")])
def test_feedback_is_the_engines(client, guess, answer):
    reply = client.get("/api/feedback", params={"guess": guess, "answer": answer}).json()
    assert reply["pattern"] == format_pattern(feedback(guess, answer))
    assert reply["code"] == feedback(guess, answer)
    posted = client.post("/api/feedback", json={"guess": guess.upper(), "answer": answer})
    assert posted.json() == reply


def test_feedback_refuses_bad_words_with_the_cli_message(client, official_game):
    assert error_of(client.get("/api/feedback", params={"guess": "xxxxx", "answer": "abide"})) == \
        message_of(lambda: official_game.words.guess_id("xxxxx"))
    assert "not in the list of possible answers" in error_of(client.post("/api/feedback", json={"guess": "speed", "answer": "aahed"}))
    assert error_of(client.post("/api/feedback", json={"guess": "speed"})) == "'answer' is missing"
    assert error_of(client.post("/api/feedback", json={"guess": 5, "answer": "abide"})) == "'guess' must be text, got 5"


# -- play -----------------------------------------------------------------------------------
def test_a_whole_game_is_answered_by_the_engine(client, official_game):
    started = client.post("/api/play/new", json={"answer": "crane"}).json()
    assert started["remaining"] == 2315 and not started["hard"]
    for number, guess in enumerate(["tares", "lions", "crane"], start=1):
        reply = client.post("/api/play/guess", json={"game": started["game"], "guess": guess}).json()
        assert reply["pattern"] == format_pattern(feedback(guess, "crane"))
        assert reply["guesses_used"] == number
    assert reply["solved"] and reply["over"] and reply["answer"] == "crane"
    assert reply["share"].splitlines()[0] == "wordle-arena 3/6"
    assert reply["keyboard"]["c"] == "correct" and reply["keyboard"]["o"] == "absent"
    assert error_of(client.post("/api/play/guess", json={"game": started["game"], "guess": "tares"})) == \
        "the game is over; start a new one"


def test_play_refuses_unknown_words_and_hard_mode_breaches_naming_the_hint(client, official_game):
    game = client.post("/api/play/new", json={"answer": "crane", "hard": True}).json()["game"]
    assert error_of(client.post("/api/play/guess", json={"game": game, "guess": "crann"})) == \
        "'crann' is not in the list of allowed guesses"
    client.post("/api/play/guess", json={"game": game, "guess": "trace"})  # -gg-yg... R and A green
    history = [("trace", feedback("trace", "crane"))]
    from wordle import violation
    expected = violation("lions", history)
    assert expected is not None
    assert error_of(client.post("/api/play/guess", json={"game": game, "guess": "lions"})) == f"hard mode: {expected}"
    assert client.post("/api/play/guess", json={"game": game, "guess": "crane"}).json()["solved"]


@pytest.mark.parametrize("seed", [7, 2024])
@pytest.mark.slow
def test_play_from_a_seed_draws_the_answer_as_the_cli_does(client, capsys, seed):
    code, out, _ = run_cli(capsys, "play", "--agent", "random", "--seed", str(seed), "--max-guesses", "1", "--json")
    assert code in (0, 1)
    played = json.loads(out)
    game = client.post("/api/play/new", json={"seed": seed, "max_guesses": 1}).json()
    reply = client.post("/api/play/guess", json={"game": game["game"], "guess": "zzzzz"})
    assert reply.status_code == 400
    reply = client.post("/api/play/guess", json={"game": game["game"], "guess": "fuzzy"}).json()
    assert reply["over"] and reply["answer"] == played["answer"] and reply["seed"] == seed


def test_random_indicator_from_a_seed_replies_as_the_cli_does(client, capsys):
    """`play --indicator random --seed S` and the page's game with the same seed give the same replies."""
    code, out, _ = run_cli(capsys, "play", "--agent", "letter-frequency", "--indicator", "random", "--seed", "11",
                           "--json")
    played = json.loads(out)
    game = client.post("/api/play/new", json={"seed": 11, "indicator": "random"}).json()
    replies = [client.post("/api/play/guess", json={"game": game["game"], "guess": turn["guess"]}).json()["pattern"]
               for turn in played["turns"]]
    assert replies == [turn["pattern"] for turn in played["turns"]] and len(replies) >= 2
    assert error_of(client.post("/api/play/guess", json={"game": "nope", "guess": "fuzzy"}), 404).startswith("no game 'nope'")
    assert error_of(client.post("/api/play/new", json={"hard": "maybe"})) == "'hard' must be true or false, got \"maybe\""
    assert error_of(client.post("/api/play/new", json={"max_guesses": 0})) == "'max_guesses' must be from 1 to 20, got 0"


def test_keyboard_and_share_text():
    history = [("tares", int("01002", 3)), ("glory", int("22222", 3))]
    assert keyboard(history)["s"] == "correct" and keyboard(history)["a"] == "present" and keyboard(history)["t"] == "absent"
    assert share_text(history, True, 6, hard=True) == "wordle-arena 2/6*\n\n⬛🟨⬛⬛🟩\n🟩🟩🟩🟩🟩"
    assert share_text(history[:1], False, 1, hard=False).startswith("wordle-arena X/1\n")


# -- watch ---------------------------------------------------------------------------------
@pytest.mark.parametrize("agent, answer, hard", [("entropy", "crane", False), ("alphabeta", "proxy", False),
                                                 ("entropy", "ionic", True),
                                                 ("letter-frequency", "eerie", False)])
@pytest.mark.slow
def test_watch_is_the_cli_trace(client, capsys, official_game, agent, answer, hard):
    """The trace of `play --agent NAME --answer WORD --seed 3` (searching agents with the web's --nodes budget)."""
    reply = client.post("/api/watch", json={"agent": agent, "answer": answer, "hard": hard, "seed": 3}).json()
    code, out, _ = run_cli(capsys, "play", "--agent", agent, "--answer", answer, "--seed", "3", "--json",
                           *(["--hard"] if hard else []))
    terminal = json.loads(out)["turns"]
    assert [(s["guess"], s["guess_value"]) for s in reply["steps"]] == \
        [(t["guess"], t["value"]) for t in terminal]  # the terminal's figure, lower is better
    for step in reply["steps"]:
        assert all(a["guess_value"] is None or a["guess_value"]["low"] is None or a["guess_value"]["low"] >= 1
                   for a in step["alternatives"])  # low None: no win
        played = [a for a in step["alternatives"] if a["guess"] == step["guess"]]
        assert all(a["guess_value"] == step["guess_value"] for a in played)
    player = make_agent(agent, official_game, nodes=MAX_NODES if agent == "alphabeta" else None)
    rng = game_rng(3, official_game.words.answer_id(answer))
    decisions = []

    def choose(state):
        decisions.append(player.decide(state, rng))
        return decisions[-1].guess

    played = official_game.play(choose, official_game.words.answer_id(answer), hard=hard)
    assert [s["guess"] for s in reply["steps"]] == [official_game.words.guesses[t.guess] for t in played.turns]
    assert [s["remaining_after"] for s in reply["steps"]] == [t.remaining_after for t in played.turns]
    assert [s["nodes"] for s in reply["steps"]] == [d.nodes for d in decisions]
    assert [[a["guess"] for a in s["alternatives"]] for s in reply["steps"]] == \
        [[official_game.words.guesses[g] for g, _ in d.alternatives[:10]] for d in decisions]
    assert reply["solved"] == played.solved and reply["stopped"] is None
    assert reply["settings"].get("nodes") == (MAX_NODES if agent == "alphabeta" else None)
    unbudgeted = make_agent(agent, official_game)
    rng = game_rng(3, official_game.words.answer_id(answer))
    default = official_game.play(lambda state: unbudgeted.decide(state, rng).guess, played.answer, hard=hard)
    assert default.turns == played.turns  # the budget is not reached: the same moves as with none


def test_watch_refuses_bad_agents_and_options_as_the_cli_does(client, capsys):
    assert error_of(client.post("/api/watch", json={"agent": "nobody", "answer": "crane"})).startswith("unknown agent 'nobody'")
    message = error_of(client.post("/api/watch", json={"agent": "minimax", "answer": "crane", "options": {"depth": "x"}}))
    assert message == "depth must be a whole number, got 'x'"
    code, _, stderr = run_cli(capsys, "play", "--agent", "minimax", "--answer", "crane", "--depth", "x")
    assert code == 2 and message in stderr
    assert error_of(client.post("/api/watch", json={"agent": "entropy", "answer": "crane", "options": {"depth": 2}})) == \
        "agent 'entropy' does not take depth"
    assert "at most 100000 nodes" in error_of(client.post("/api/watch", json={"agent": "expectimax", "answer": "crane",
                                                                               "options": {"nodes": MAX_NODES + 1}}))
    assert "at most 3 guesses ahead" in error_of(client.post("/api/watch", json={"agent": "expectimax", "answer": "crane",
                                                                                 "options": {"depth": 4}}))
    assert error_of(client.post("/api/watch", json={"agent": "minimax", "answer": "crane", "options": [1]})).startswith(
        "'options' must be an object")


def test_watch_with_a_small_node_budget_says_it_reached_it(client):
    reply = client.post("/api/watch", json={"agent": "expectimax", "answer": "crane", "options": {"nodes": 50}}).json()
    assert reply["settings"]["nodes"] == 50 and reply["steps"][0]["budget_reached"]


def test_a_watched_game_past_its_time_stops_and_says_so(official_game, monkeypatch):
    monkeypatch.setattr(web_service, "WATCH_SECONDS", -1.0)
    reply = Service(official_game).watch({"agent": "entropy", "answer": "crane"})
    assert reply["steps"] == [] and reply["stopped"].startswith("stopped after 0 guesses")


# -- advise ---------------------------------------------------------------------------------
def test_advise_is_the_assistants_answer(client, official_game):
    steps = [f"{word}:{format_pattern(feedback(word, 'flock'))}" for word in ("tares", "colin")]
    reply = client.post("/api/advise", json={"steps": steps, "top": 5, "agent": "entropy", "answers": "original"}).json()
    expected = advice_data(official_game, advise(official_game, make_agent("entropy", official_game), steps, top=5))
    assert reply["suggestions"] == expected["suggestions"] and reply["answers"] == expected["answers"]
    assert reply["remaining"] == expected["remaining"] and all("worst" in s for s in reply["suggestions"])
    as_objects = client.post("/api/advise", json={"steps": [{"guess": word, "pattern": format_pattern(feedback(word, "flock"), "digits")}
                                                             for word in ("tares", "colin")], "top": 5,
                                                   "agent": "entropy", "answers": "original"}).json()
    assert as_objects["suggestions"] == reply["suggestions"]
    first = reply["suggestions"][0]
    left = expected["answers"]
    assert 1 < len(left) < 100
    groups = {}
    for answer in left:
        groups.setdefault(feedback(first["guess"], answer), []).append(answer)
    assert first["worst"] == max(len(g) for g in groups.values())
    assert first["chance"] == (round(1 / len(left), 6) if first["guess"] in left else 0.0)


@pytest.mark.parametrize("guesses, answer, hard, model", [
    (("fuzzy", "jumbo"), "humor", False, None),
    (("crane", "plaid"), "nasal", False, None), (("fuzzy", "jumbo"), "humor", True, None),
    (("salet", "crony"), "robin", True, None), (("crane", "plaid"), "nasal", False, "original"),
    (("salet", "crony"), "robin", True, "original")])
@pytest.mark.slow
def test_the_web_advises_as_the_terminal_does(client, capsys, guesses, answer, hard, model):
    """`assist --json` and /api/advise with no advisor named: the same advisor, model, counts and figures."""
    steps = [f"{word}:{format_pattern(feedback(word, answer))}" for word in guesses]
    options = (["--hard"] if hard else []) + (["--answers", model] if model else [])
    code, out, _ = run_cli(capsys, "assist", *steps, *options, "--guesses", "original", "--json")  # the client's
    terminal = json.loads(out)
    web = client.post("/api/advise", json={"steps": steps, "hard": hard, **({"answers": model} if model else {})}).json()
    assert code == 0 and web["agent"] == terminal["agent"] == ADVISOR
    for field in ("remaining", "bits_left", "answers", "fallback", "model", "notes"):
        assert web[field] == terminal[field], field
    # a guess's partition figures are the same; its value too where both proved it (a bound depends on the time)
    web_by_guess = {s["guess"]: s for s in web["suggestions"]}
    both = [(web_by_guess[s["guess"]], s) for s in terminal["suggestions"] if s["guess"] in web_by_guess]
    assert both
    for mine, theirs in both:
        for field in ("information", "chance", "worst", "expected_left"):
            assert mine[field] == theirs[field], field
        if mine["value"]["proved"] and theirs["value"]["proved"]:
            assert mine["value"] == theirs["value"] and mine["expected_guesses"] == theirs["expected_guesses"]
    if model == "original":
        assert any(mine["value"]["proved"] and theirs["value"]["proved"] for mine, theirs in both)
    assert all(s["expected_guesses"] >= 1 for s in web["suggestions"])


def test_advise_takes_the_answer_model_exclusions_and_only_answers(client):
    info = client.get("/api/agents").json()
    assert info["advisor"] == ADVISOR and info["answer_model"] == "likely"  # the page's defaults are assist's
    assert [model["name"] for model in info["answer_models"]] == ["likely", "fresh", "original", "nyt", "played", "all"]
    steps = ["crane:--gg-", "tangy:-yyy-"]
    body = {"steps": steps, "answers": "original", "agent": "entropy"}
    assert client.post("/api/advise", json=body).json()["answers"] == ["gland", "slang"]
    assert client.post("/api/advise", json=dict(body, exclude=["gland"])).json()["answers"] == ["slang"]
    widened = client.post("/api/advise", json=dict(body, exclude=["gland", "slang"])).json()
    assert widened["model"] == "likely" and "guano" in widened["answers"]
    assert widened["notes"][0].startswith("The answer is outside the original model's list")
    only = client.post("/api/advise", json={"steps": steps, "only_answers": True}).json()  # the default advisor
    assert only["suggestions"] and {s["guess"] for s in only["suggestions"]} <= set(only["answers"])
    assert error_of(client.post("/api/advise", json=dict(body, exclude="gland"))).startswith("'exclude' must be a list")
    assert "zzzzz" in error_of(client.post("/api/advise", json=dict(body, exclude=["zzzzz"])))


def test_advise_contradiction_names_the_step(client):
    message = error_of(client.post("/api/advise", json={"steps": ["tares:-y--g", "glory:ggggg"]}))
    assert message.startswith("step 2 (glory:ggggg) made the game impossible")
    assert "pattern" in error_of(client.post("/api/advise", json={"steps": ["tares:-y--q"]}))
    assert error_of(client.post("/api/advise", json={"steps": "tares"})).startswith("'steps' must be a list")
    assert error_of(client.post("/api/advise", json={"steps": [3]})).startswith("step 1 must be")
    assert error_of(client.post("/api/advise", json={"top": 999})) == "'top' must be from 1 to 50, got 999"


def test_concurrent_advice_is_the_same_as_sequential(official_game):
    service = Service(official_game, workers=2)
    requests = [{"steps": [f"{word}:{format_pattern(feedback(word, answer))}"], "agent": agent, "answers": "original"}
                for word, answer in [("tares", "crane"), ("salet", "proxy"), ("crane", "eerie")]
                for agent in ("entropy", "demarcate", "alphabeta")]
    alone = [service.advise(request) for request in requests]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(service.advise, requests * 3))
    assert together == alone * 3


def test_a_request_that_waits_too_long_is_told_the_server_is_busy(official_game, monkeypatch):
    monkeypatch.setattr(web_service, "QUEUE_SECONDS", 0.01)
    app = create_app(official_game, workers=1)
    app.state.service.pool.slots.acquire()
    try:
        with TestClient(app, base_url="http://localhost") as busy:
            assert "the server is busy" in error_of(busy.post("/api/advise", json={}), 503)
    finally:
        app.state.service.pool.slots.release()


# -- results, pages and HTTP errors -------------------------------------------------------------------
def test_results_and_charts(client, tmp_path, official_game):
    document = client.get("/api/results").json()
    assert document["summary"]["results"] and document["folder"] == PUBLISHED.rsplit("/", 1)[1]
    svg = client.get("/api/charts/histograms.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text == charts(document["summary"])["histograms.svg"]
    assert error_of(client.get("/api/charts/pie.svg"), 404).startswith("no chart 'pie.svg'")
    with TestClient(create_app(official_game, results=tmp_path), base_url="http://localhost") as empty:
        assert "no tournament results there" in error_of(empty.get("/api/results"), 404)
    (tmp_path / "summary.json").write_text("{not json")
    with TestClient(create_app(official_game, results=tmp_path), base_url="http://localhost") as broken:
        assert "summary.json: not valid JSON" in error_of(broken.get("/api/charts/histograms.svg"), 404)


def test_pages_and_assets_are_served(client):
    for path in ("/", "/watch", "/assist", "/results", "/api"):
        page = client.get(path)
        assert page.status_code == 200 and page.text.startswith("<!doctype html>")
        for asset in ("/static/style.css", "/static/common.js"):
            assert asset in page.text
    assert client.get("/static/play.js").status_code == 200
    assert "http" not in "".join(client.get(p).text.replace("http://www.w3.org", "") for p in ("/static/common.js", "/static/play.js"))


def test_http_errors_are_one_line_json(client):
    assert error_of(client.get("/api/nothing"), 404) == "no such page or endpoint: /api/nothing"
    assert error_of(client.delete("/api/advise"), 405) == "DELETE is not allowed on /api/advise"
    assert error_of(client.post("/api/advise", content=b"{not json", headers=JSON)).startswith("the request body is not JSON")
    assert error_of(client.post("/api/advise", content=b"[1, 2]", headers=JSON)) == "the request body must be a JSON object of fields"
    assert "at most" in error_of(client.post("/api/advise", content=b" " * 70_000), 413)
    assert error_of(client.post("/api/play/new", content=json.dumps({"seed": -1}), headers=JSON)) == \
        "'seed' must be from 0 to 9223372036854775807, got -1"


def test_an_unexpected_failure_is_a_one_line_500(client, monkeypatch):
    def broken(code, style="letters"):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(web_service, "format_pattern", broken)
    assert error_of(client.get("/api/feedback", params={"guess": "speed", "answer": "abide"}), 500) == \
        "internal error (ZeroDivisionError); the server log has the details"


# -- the serve command -------------------------------------------------------------------------
def test_serve_refuses_an_address_it_cannot_use(capsys):
    import socket
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code, _, stderr = run_cli(capsys, "serve", "--port", str(port))
    finally:
        taken.close()
    assert code == 2 and stderr.startswith(f"wordle-arena: error: cannot listen on 127.0.0.1:{port}:")
    assert len(stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_serve_says_where_it_listens_and_stops_cleanly_on_ctrl_c():
    import signal
    import subprocess
    import sys
    import urllib.request
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    server = subprocess.Popen([sys.executable, str(root / "cli.py"), "serve", "--port", "0"], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("wordle-arena: serving on http://127.0.0.1:"), line
        url = line.split("serving on ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "api/feedback?guess=speed&answer=abide", timeout=60) as reply:
            assert json.loads(reply.read())["pattern"] == "--y-y"
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0 and out.strip() == "wordle-arena: stopped" and "Traceback" not in err


# -- any request body: a reply, never a 500 --------------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FIELDS = ["guess", "answer", "game", "hard", "seed", "max_guesses", "agent", "options", "steps", "top"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["crane", "tares:-y--g", "entropy", "random", "2", "true", "depth", "ggggg"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["depth", "nodes", "beam", "x", "guess", "pattern"]),
                                                                inner, max_size=3),
    max_leaves=8)
bodies = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=st.sampled_from(["/api/feedback", "/api/play/new", "/api/play/guess", "/api/watch", "/api/advise"]),
       body=bodies)
@pytest.mark.slow
def test_any_request_body_gets_an_answer_or_a_one_line_4xx(client, endpoint, body):
    if "agent" in body or endpoint == "/api/advise":
        body["agent"] = "random"  # keep the work small: the other agents and their options are tested above
    reply = client.post(endpoint, json=body)
    assert reply.status_code in (200, 400, 404), (reply.status_code, reply.text)
    if reply.status_code != 200:
        assert "\n" not in reply.json()["error"]


def test_serve_refuses_a_port_out_of_range(capsys):
    code, _, stderr = run_cli(capsys, "serve", "--port", "70000")
    assert code == 2 and stderr == "wordle-arena serve: error: argument --port: must be at most 65535, got 70000\n"


def test_a_person_plays_against_absurdle_and_each_reply_is_absurdles(client, official_game):
    from agents.indicators import make_indicator

    game = client.post("/api/play/new", json={"indicator": "absurdle"}).json()
    assert game["indicator"] == "absurdle" and game["remaining"] == 2315
    absurdle, state = make_indicator("absurdle", official_game), official_game.initial_state()
    for word in ("aesir", "yauld", "tench", "whoop"):  # the 4-guess win `python cli.py absurdle` finds
        reply = client.post("/api/play/guess", json={"game": game["game"], "guess": word}).json()
        pending = official_game.result(state, official_game.words.guess_id(word))
        choice = absurdle.reply(pending, None)
        state = official_game.result(pending, choice.pattern)
        assert reply["pattern"] == format_pattern(choice.pattern) and reply["indicator"]["kept"] == choice.kept
    assert reply["solved"] and reply["answer"] == "whoop" and reply["guesses_used"] == 4
    assert error_of(client.post("/api/play/new", json={"indicator": "bogus"})) == \
        "'indicator' must be one of honest, absurdle, adversary, random, got \"bogus\""


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\k',
                                                                                              max_size=3), inner,
                                                                                      max_size=3), max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_the_raw_bracket_depth_equals_the_parsed_nesting(value):
    """raw_nesting reads a JSON text's depth without parsing it (brackets, quotes and backslashes in strings
    included); its oracle is the parsed value's nesting."""
    from web.app import nesting, raw_nesting

    assert raw_nesting(json.dumps(value).encode(), scan_from=0) == nesting(value)


def test_a_body_nested_past_the_scan_is_refused_before_parsing_and_brackets_in_text_are_not_nesting():
    from web.app import RAW_NESTING_SCAN, raw_nesting

    deep = b"[" * (RAW_NESTING_SCAN + 1) + b"]" * (RAW_NESTING_SCAN + 1)
    assert raw_nesting(deep) == RAW_NESTING_SCAN + 1
    assert raw_nesting(b'{"guess": "' + b"[" * 1000 + b'"}') == 1
    assert raw_nesting(b"[" * 10) == 0  # few brackets: not scanned
