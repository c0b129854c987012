"""The web page in a real headless Chromium: play a whole game by typing, use the assistant by clicking, see the charts.

The browser is the distribution's `chromium` (Debian: `apt-get install chromium`), driven by
Playwright through its executable path; `playwright install` is never needed. Where either
is missing these tests are skipped, saying which. Each test saves a screenshot of its page
in $WORDLE_ARENA_SCREENSHOTS (the README's are made with WORDLE_ARENA_SCREENSHOTS=results/screenshots),
else in a temporary folder, so a test run never rewrites tracked files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="serving the page needs uvicorn (the 'web' extra)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the 'web' extra)")

from agents.base import draw_answer  # noqa: E402
from search import feedback  # noqa: E402
from search.feedback import decode_colours  # noqa: E402
from web.app import create_app, listen  # noqa: E402

SCREENSHOTS = Path(os.environ.get("WORDLE_ARENA_SCREENSHOTS") or Path(tempfile.gettempdir()) / "wordle-arena-screenshots")
PUBLISHED = Path(__file__).resolve().parent.parent / "results" / "published" / "tournament-depth-2"
#: The tile colours of style.css (and of the terminal's trace), as the browser computes them.
RGB = {0: "rgb(58, 58, 60)", 1: "rgb(181, 159, 59)", 2: "rgb(83, 141, 78)"}
STATE = {0: "absent", 1: "present", 2: "correct"}
WAIT_MS = 60_000


def chromium_path() -> str | None:
    """The system's Chromium: $WORDLE_ARENA_CHROMIUM, else chromium or chromium-browser on PATH."""
    return os.environ.get("WORDLE_ARENA_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def server(official_game):
    """The page served by uvicorn on a free loopback port in a background thread; yields its base URL."""
    import uvicorn

    sock = listen("127.0.0.1", 0)
    app = create_app(official_game, results=os.path.relpath(PUBLISHED))
    instance = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.05)
    assert instance.started, "the server did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    instance.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    """A headless system Chromium, or a skip saying why there is none."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium, or set WORDLE_ARENA_CHROMIUM)")
    with playwright_api.sync_playwright() as driver:
        try:
            launched = driver.chromium.launch(executable_path=path,
                                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        except playwright_api.Error as error:
            pytest.skip(f"Chromium at {path} would not start: {str(error).splitlines()[0]}")
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    """A fresh page, 1100 px wide, that fails a test on any JavaScript error."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    opened = context.new_page()
    opened.set_default_timeout(WAIT_MS)
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def screenshot(page, name: str, full: bool = True) -> None:
    """Save the page as NAME.png in the screenshots folder."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full, timeout=WAIT_MS)


def check_row(row, guess: str, answer: str) -> None:
    """Every tile of a revealed row shows its letter in the colour the engine gives."""
    tiles = row.locator(".tile")
    for position, colour in enumerate(decode_colours(feedback(guess, answer))):
        tile = tiles.nth(position)
        assert tile.inner_text().lower() == guess[position]
        assert tile.get_attribute("data-state") == STATE[colour]
        assert tile.evaluate("node => getComputedStyle(node).backgroundColor") == RGB[colour]


def test_play_a_whole_game_by_typing(server, page, official_game):
    seed = 11
    answer = official_game.words.answers[draw_answer(seed, len(official_game.words.answers))]  # as play --seed draws it
    page.goto(f"{server}/?seed={seed}")
    page.wait_for_selector("body[data-game]")
    guesses = [word for word in ("tares", "colin") if word != answer] + [answer]
    page.keyboard.type("xqzzy")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.error")
    assert page.inner_text("#message") == "'xqzzy' is not in the list of allowed guesses"
    for _ in range(5):
        page.keyboard.press("Backspace")
    for number, guess in enumerate(guesses):
        if number == 1:  # the second guess on the on-screen keyboard
            for letter in guess:
                page.click(f".key[data-key='{letter}']")
            page.click(".key[data-key='enter']")
        else:
            page.keyboard.type(guess)
            page.keyboard.press("Enter")
        row = page.locator("#board .row").nth(number)
        page.wait_for_selector(f"#board .row:nth-child({number + 1})[data-done]")
        check_row(row, guess, answer)
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#outcome") == f"Solved in {len(guesses)}/6!"
    share = page.inner_text("#share").splitlines()
    assert share[0] == f"wordle-arena {len(guesses)}/6" and len(share) == 2 + len(guesses)
    best: dict[str, int] = {}
    for guess in guesses:
        for letter, colour in zip(guess, decode_colours(feedback(guess, answer))):
            best[letter] = max(colour, best.get(letter, 0))
    for letter, colour in best.items():
        assert STATE[colour] in page.get_attribute(f".key[data-key='{letter}']", "class").split(), letter
    screenshot(page, "play")


def test_hard_mode_refuses_a_guess_naming_the_hint(server, page):
    page.goto(f"{server}/?answer=crane&hard=1")
    page.wait_for_selector("body[data-game]")
    page.keyboard.type("trace")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .row:nth-child(1)[data-done]")
    page.keyboard.type("lions")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.error")
    assert page.inner_text("#message") == "hard mode: 2nd letter must be R (green in TRACE)"
    screenshot(page, "play-hard-mode")


def test_watch_an_agent_step_by_step(server, page):
    page.goto(f"{server}/watch?agent=alphabeta&answer=proxy")
    page.wait_for_selector("body[data-ready]")
    page.click("#go")
    page.wait_for_selector(".step[data-step='1']")
    total = int(page.inner_text("#position").split()[-1])
    page.click("#next")
    page.wait_for_selector(".step[data-step='2']")
    page.click("#all")
    assert page.locator(".step").count() == total
    for number in range(total):
        step = page.locator(".step").nth(number)
        guess = "".join(step.locator(".tile").all_inner_texts()).lower()
        check_row(step.locator(".row"), guess, "proxy")
    first = page.locator(".step").nth(0)
    assert "nodes searched" in first.inner_text() and first.locator(".alternatives tr").count() >= 2
    assert "solved PROXY" in page.inner_text("#summary")
    screenshot(page, "watch")


def test_the_assistant_by_clicking_tiles(server, page, official_game):
    page.goto(f"{server}/assist")
    page.wait_for_selector("#suggestions")
    page.fill("#word", "tares")
    page.click("#add")
    colours = decode_colours(feedback("tares", "flock"))
    asked = int(page.get_attribute("body", "data-asked") or 0)
    for position, colour in enumerate(colours):
        for _ in range(colour):  # grey -> yellow -> green, one click each
            page.locator("#board .row").nth(0).locator(".tile").nth(position).click()
    page.wait_for_function(f"Number(document.body.dataset.asked) > {asked} && !document.body.dataset.pending")
    page.wait_for_timeout(400)
    page.wait_for_function("!document.body.dataset.pending")
    from agents.answer_model import DEFAULT_MODEL, load_model  # the page advises under the default answer model
    model = load_model(DEFAULT_MODEL)
    expected = int(np.count_nonzero(model.game.matrix[model.game.words.guess_id("tares")] == feedback("tares", "flock")))
    assert int(page.get_attribute("#remaining", "data-remaining")) == expected
    check_row(page.locator("#board .row").nth(0), "tares", "flock")
    assert page.locator("#suggestions tr[data-guess]").count() == 10
    screenshot(page, "assist")
    page.fill("#word", "tares")
    page.click("#add")
    first_tile = page.locator("#board .row").nth(1).locator(".tile").nth(0)
    first_tile.click()
    first_tile.click()  # TARES again, T now green: no answer can give both replies
    page.wait_for_function("document.getElementById('message').textContent.includes('tares:g----')")
    assert page.inner_text("#message").startswith("step 2 (tares:g----) made the game impossible")
    assert page.locator("#board .row.bad").get_attribute("data-step") == "2"
    screenshot(page, "assist-contradiction")


def test_results_page_draws_the_charts(server, page):
    import json

    summary = json.loads((PUBLISHED / "summary.json").read_text())["summary"]
    page.goto(f"{server}/results")
    page.wait_for_selector("body[data-ready]")
    bars = page.locator("#histograms svg rect.bar")
    assert bars.count() == len(summary["results"]) * (summary["max_guesses"] + 1)
    tallest = bars.evaluate_all("nodes => Math.max(...nodes.map(n => n.getBoundingClientRect().height))")
    assert tallest > 50  # drawn, and drawn at a visible size
    assert page.locator("#difference svg circle.mean").count() == len(summary["comparisons"])
    assert page.locator("#results-table tr").count() == len(summary["results"]) + 1
    assert page.locator("#comparison-table tr").count() == len(summary["comparisons"]) + 1
    screenshot(page, "results")
