"""The web page in a real headless Chromium: every page at phone and desktop size, play a whole game, use the
assistant by clicking and by keyboard alone, see the charts, and find no serious accessibility fault.

The browser is the distribution's `chromium` (Debian: `apt-get install chromium`), driven by
Playwright through its executable path; `playwright install` is never needed. The accessibility
check injects axe-core from npm (`.ci/run` installs it in .ci/axe; $WORDLE_ARENA_AXE names another
axe.min.js). Where any of them is missing the tests that need it are skipped, saying which. Each
test saves a screenshot of its page in $WORDLE_ARENA_SCREENSHOTS (those docs/web.md links to are made with
WORDLE_ARENA_SCREENSHOTS=results/screenshots), else in a temporary folder, so a test run never
rewrites tracked files.

The pages' Content-Security-Policy is bypassed here (Playwright's wait_for_function evaluates
strings, and axe-core is injected inline, both of which it forbids);
tests/test_web_cross_site.py loads every page under it and finds no violation.

The pages are web.app.PAGES: a page added there is checked at both sizes and by axe-core
without a line here (SCENES may say what to do on it before it is looked at).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

#: A real browser for every page at three sizes: minutes, so the slow tier.
pytestmark = pytest.mark.slow

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("uvicorn", reason="serving the page needs uvicorn (the 'web' extra)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the 'web' extra)")

from agents.base import draw_answer  # noqa: E402
from wordle import feedback  # noqa: E402
from wordle.feedback import decode_colours  # noqa: E402
from web import service as web_service  # noqa: E402
from web.app import PAGES, create_app, listen  # noqa: E402

SCREENSHOTS = Path(os.environ.get("WORDLE_ARENA_SCREENSHOTS") or Path(tempfile.gettempdir()) / "wordle-arena-screenshots")
PUBLISHED = Path(__file__).resolve().parent.parent / "results" / "published" / "tournament-depth-2"
#: The tile colours of style.css (and of the terminal's trace), as the browser computes them.
RGB = {0: "rgb(58, 58, 60)", 1: "rgb(181, 159, 59)", 2: "rgb(83, 141, 78)"}
STATE = {0: "absent", 1: "present", 2: "correct"}
WAIT_MS = 60_000
#: The viewport sizes every page is checked at: a small phone, a common phone and a laptop.
SIZES = {"small": {"width": 320, "height": 568}, "phone": {"width": 390, "height": 844},
         "desktop": {"width": 1280, "height": 800}}
#: Where .ci/run installs axe-core.
AXE = Path(__file__).resolve().parent.parent / ".ci" / "axe" / "node_modules" / "axe-core" / "axe.min.js"


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
def likely_game():
    """The game of the default answer model (`likely`), under which Assist advises unless told otherwise."""
    from agents.answer_model import DEFAULT_MODEL, load_model
    return load_model(DEFAULT_MODEL).game


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
    context = browser.new_context(viewport={"width": 1100, "height": 1000}, bypass_csp=True)
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


def type_guess(page, word: str, number: int) -> None:
    """Type guess `number` (from 1) on the computer's keyboard, press Enter and wait for its tiles to turn."""
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#board .row:nth-child({number})[data-done]")


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
    type_guess(page, "trace", 1)
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
    assert page.locator("#board .step-row.bad").get_attribute("data-step") == "2"
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


# -- every page at every size ---------------------------------------------------------------------
def page_name(path: str) -> str:
    """A page's short name, from the file that web.app serves for it: 'play', 'watch', ..."""
    return Path(PAGES[path]).stem


def play_two_guesses(page) -> None:
    """Play: two guesses of the game drawn from seed 11, typed on the on-screen keyboard."""
    for number, guess in enumerate(("tares", "colin")):
        tap_word(page, guess)
        page.wait_for_selector(f"#board .row:nth-child({number + 1})[data-done]")


def watch_a_game(page) -> None:
    """Watch: alphabeta's game on PROXY, every step shown."""
    page.select_option("#agent", "alphabeta")
    page.fill("#answer", "proxy")
    page.click("#go")
    page.wait_for_selector(".step[data-step='1']")
    page.click("#all")


def review_a_game(page) -> None:
    """Review: the game in REVIEWED, opened prefilled (ADDRESSES), reviewed at once."""
    wait_reviewed(page)


def wait_reviewed(page) -> None:
    """Wait for the whole review (the table shows each guess as it is valued, then the whole review: data-done)."""
    page.wait_for_selector("#review[data-done='true'] #review-table")


def assist_two_steps(page) -> None:
    """Assist: two steps of a game on FLOCK, typed as steps."""
    for word in ("tares", "colin"):
        page.fill("#word", f"{word}:{pattern_text(word, 'flock')}")
        page.press("#word", "Enter")
    wait_for_ranked_advice(page, f"tares:{pattern_text('tares', 'flock')} colin:{pattern_text('colin', 'flock')}")


def wait_for_ranked_advice(page, steps: str) -> None:
    """Wait until Assist shows its advice on these steps with the suggestions ranked: while the values are found the
    page already shows the answers left under the same steps (a slow machine shows that part first)."""
    page.wait_for_selector(f"#advice[data-steps='{steps}']")
    page.wait_for_function("!document.body.dataset.pending")


#: What to do on a page (by path) before it is measured and photographed; a page not named is taken as it loads.
SCENES = {"/": play_two_guesses, "/watch": watch_a_game, "/assist": assist_two_steps, "/review": review_a_game}
#: A game the Review page is shown with: its answer and guesses, under the original answers.
REVIEWED = ("cigar", ["salet", "crony", "cigar"])
#: The address each page is opened at.
ADDRESSES = {"/": "/?seed=11",
             "/review": f"/review?answer={REVIEWED[0]}&words={'+'.join(REVIEWED[1])}&answers=original"}


def pattern_text(guess: str, answer: str) -> str:
    """The reply as the assistant's letters: 'g-y--'."""
    return "".join("-yg"[colour] for colour in decode_colours(feedback(guess, answer)))


def tap_word(page, word: str) -> None:
    """Type `word` and Enter on the on-screen keyboard."""
    for letter in word:
        page.click(f".key[data-key='{letter}']")
    page.click(".key[data-key='enter']")


@pytest.fixture
def sized(browser):
    """A function opening a fresh page at one of SIZES; every page it opened fails the test on a JavaScript error."""
    contexts, errors = [], []

    def open_page(size: str, theme: str = "light"):
        context = browser.new_context(viewport=SIZES[size], color_scheme=theme, bypass_csp=True)
        contexts.append(context)
        opened = context.new_page()
        opened.set_default_timeout(WAIT_MS)
        opened.on("pageerror", lambda error: errors.append(str(error)))
        return opened

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def open_page_at(sized, server, path: str, size: str, theme: str = "light"):
    """The page at `path` in a fresh `size` viewport in the `theme` colour scheme, loaded and set up by its scene."""
    page = sized(size, theme)
    page.goto(server + ADDRESSES.get(path, path))
    page.wait_for_selector("body[data-ready]")
    SCENES.get(path, lambda _: None)(page)
    return page


def boxes_outside(page, selector: str) -> list[str]:
    """The elements matching `selector` whose box is not wholly inside the viewport (as they are, unscrolled)."""
    return page.eval_on_selector_all(selector, """nodes => nodes.filter(node => {
        const box = node.getBoundingClientRect();
        return box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight;
    }).map(node => node.dataset.key || node.textContent.trim() || node.id)""")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_fits_the_screen(server, sized, path, size):
    page = open_page_at(sized, server, path, size)
    page.evaluate("window.scrollTo(0, 0)")
    width = SIZES[size]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    assert boxes_outside(page, "header nav a, #contrast") == []  # the nav is in reach at the top
    assert page.locator("header nav a").count() == len(PAGES)
    if page.locator(".key").count():  # the whole keyboard on screen with the board
        assert boxes_outside(page, ".key, #board") == []
    for box in page.locator(".scroll, figure").all():  # wide tables and charts scroll inside their own box
        assert box.evaluate("node => node.getBoundingClientRect().right") <= width
    screenshot(page, f"{page_name(path)}-{size}", full=False)


@pytest.mark.parametrize("path", PAGES)
def test_no_page_scrolls_sideways_on_a_320_px_phone(server, browser, path):
    context = browser.new_context(viewport={"width": 320, "height": 640}, bypass_csp=True)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(server + ADDRESSES.get(path, path))
        page.wait_for_selector("body[data-ready]")
        SCENES.get(path, lambda _: None)(page)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        assert boxes_outside(page, "header nav a, #contrast") == []
    finally:
        context.close()


def axe_script() -> Path:
    """axe-core's browser script, or a skip saying how to install it."""
    path = Path(os.environ.get("WORDLE_ARENA_AXE") or AXE)
    if not path.is_file():
        pytest.skip(f"no axe-core at {path} (npm install --prefix .ci/axe axe-core@4.10.3, as .ci/run does)")
    return path


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", PAGES)
def test_no_serious_accessibility_violations(server, sized, path, size, theme):
    """axe-core on every page, at 320, 390 and 1280 px, in the light and the dark theme (contrast included)."""
    script = axe_script()
    page = open_page_at(sized, server, path, size, theme)
    page.add_script_tag(path=str(script))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
        .map(v => ({id: v.id, impact: v.impact, help: v.help, where: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))""")
    serious = [v for v in found if v["impact"] in ("serious", "critical")]
    assert serious == [], serious


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_game_won_on_the_on_screen_keyboard(server, sized, official_game, size):
    seed = 11
    answer = official_game.words.answers[draw_answer(seed, len(official_game.words.answers))]
    page = sized(size)
    page.goto(f"{server}/?seed={seed}")
    page.wait_for_selector("body[data-ready]")
    guesses = [word for word in ("tares", "colin") if word != answer] + [answer]
    for number, guess in enumerate(guesses):
        assert boxes_outside(page, ".key") == []
        tap_word(page, guess)
        page.wait_for_selector(f"#board .row:nth-child({number + 1})[data-done]")
        check_row(page.locator("#board .row").nth(number), guess, answer)
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#outcome") == f"Solved in {len(guesses)}/6!"
    assert boxes_outside(page, "#outcome, #share, #copy, #review-link") == []  # the result, its grid and review link in view
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    screenshot(page, f"play-won-{size}", full=False)
    page.click("#review-link")  # the Review of this game, prefilled and reviewed at once
    page.wait_for_selector("#review-table")
    assert page.input_value("#answer") == answer and page.input_value("#words") == " ".join(guesses)
    assert page.input_value("#answers") == "original"  # the answers Play draws from
    assert page.locator("#review-table tbody tr").count() == len(guesses)
    assert f"solved {answer.upper()} in {len(guesses)}/6" in page.inner_text("#verdict")


def test_every_tile_and_key_says_its_letter_and_colour_in_words(server, page):
    page.goto(f"{server}/?answer=crane")
    page.wait_for_selector("body[data-ready]")
    type_guess(page, "trace", 1)
    labels = page.locator("#board .row").nth(0).locator(".tile").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
    words = {0: "grey, not in the word", 1: "yellow, in the word, elsewhere", 2: "green, right place"}
    assert labels == [f"{letter.upper()}: {words[colour]}" for letter, colour in zip("trace", decode_colours(feedback("trace", "crane")))]
    assert page.get_attribute(".key[data-key='c']", "aria-label") == "C: yellow, in the word, elsewhere"
    assert page.get_attribute(".key[data-key='t']", "aria-label") == "T: grey, not in the word"
    marks = page.locator("#board .row").nth(0).locator(".tile").evaluate_all(
        "nodes => nodes.map(n => getComputedStyle(n, '::after').content)")
    assert marks == ["none", '"\u2713"', '"\u2713"', '"\u2022"', '"\u2713"']  # a mark besides the colour
    page.click("#contrast")  # high contrast: orange and blue, said so, and remembered
    assert page.get_attribute("#contrast", "aria-pressed") == "true"
    assert page.get_attribute(".key[data-key='c']", "aria-label") == "C: blue, in the word, elsewhere"
    assert page.locator("#board .tile.correct").first.get_attribute("aria-label") == "R: orange, right place"
    page.keyboard.type("crane")  # the toggle gave the focus back: typing still plays
    page.keyboard.press("Enter")
    page.wait_for_selector("#end:not([hidden])")
    assert "\U0001F7E7" in page.inner_text("#share") and "\U0001F7E9" not in page.inner_text("#share")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.classList.contains('contrast')")
    type_guess(page, "trace", 1)
    assert page.locator("#board .tile.present").first.evaluate("node => getComputedStyle(node).backgroundColor") == "rgb(133, 192, 249)"
    assert page.locator("#board .tile.correct").first.evaluate("node => getComputedStyle(node).backgroundColor") == "rgb(245, 121, 58)"
    screenshot(page, "play-contrast")
    page.click("#contrast")
    assert page.evaluate("localStorage.getItem('wordle-arena-contrast')") == "0"


def test_focus_returns_to_the_board_and_a_new_setting_asks_first(server, page, official_game):
    page.goto(f"{server}/?answer=flock")
    page.wait_for_selector("body[data-ready]")
    page.click("#show-left")
    type_guess(page, "crane", 1)
    left = remaining_after(official_game, [("crane", "flock")])
    assert page.inner_text("#message").startswith(f"{left} answer{'s' if left != 1 else ''} left (")
    page.click("#hard")  # mid-game: asks before throwing the game away
    page.wait_for_selector("#confirm:not([hidden])")
    assert "this one (1 guess in) is lost" in page.inner_text("#confirm")
    page.click("#confirm-no")
    assert not page.is_checked("#hard") and page.locator("#board .row[data-done]").count() == 1
    type_guess(page, "stick", 2)
    page.select_option("#indicator", "absurdle")
    page.wait_for_selector("#confirm:not([hidden])")
    page.click("#confirm-yes")
    page.wait_for_function("!document.querySelector('#board .row[data-done]')")
    page.keyboard.type("crane")
    page.keyboard.press("Enter")  # the board has the focus again: typing plays
    page.wait_for_selector("#board .row:nth-child(1)[data-done]")
    assert "absurdle kept" in page.inner_text("#message")


def test_a_server_that_cannot_be_reached_is_named(server, page):
    page.goto(f"{server}/?answer=flock")
    page.wait_for_selector("body[data-ready]")
    page.route("**/api/play/guess", lambda route: route.abort())
    page.keyboard.type("crane")
    page.keyboard.press("Enter")
    page.wait_for_selector(".message.error")
    assert page.inner_text("#message").startswith("Cannot reach the wordle-arena server: is 'python cli.py serve' still running?")


def test_a_watched_game_the_page_stopped_says_so(server, page, monkeypatch, official_game):
    # the server's agents work in worker processes of their own: the stopped game is the service's own answer,
    # made here in-process with no time for the game, and handed to the page
    monkeypatch.setattr(web_service, "WATCH_SECONDS", -1.0)
    stopped = web_service.Service(official_game).watch({"agent": "entropy", "answer": "crane"})
    assert stopped["stopped"]
    page.route("**/api/watch**", lambda route: route.fulfill(status=200, content_type="application/json",
                                                             body=json.dumps(stopped)))
    page.goto(f"{server}/watch?agent=entropy&answer=crane")
    page.wait_for_selector("body[data-ready]")
    page.click("#go")
    page.wait_for_function("document.getElementById('summary').textContent.includes('stopped')")
    summary = page.inner_text("#summary")
    assert summary.startswith("The page stopped entropy's game on CRANE after 0 guesses") and "did not solve" not in summary


def remaining_after(game, steps: list[tuple[str, str]]) -> int:
    """How many of `game`'s answers fit every (guess, answer-it-was-scored-against) step."""
    fits = np.ones(len(game.words.answers), dtype=bool)
    for guess, answer in steps:
        fits &= game.matrix[game.words.guess_id(guess)] == feedback(guess, answer)
    return int(fits.sum())


def test_assist_shows_advice_for_the_tiles_shown_when_answers_cross(server, page, likely_game):
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    held = []

    def hold_the_first(route):
        if not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/advise", hold_the_first)
    page.fill("#word", "pilot")
    page.press("#word", "Enter")  # asks for pilot:----- ...
    for _ in range(600):  # the first request reaches the route within 30 s
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the first request never came"
    tiles = page.locator("#board .row").nth(0).locator(".tile")
    tiles.nth(1).click()
    tiles.nth(1).click()  # ... then for pilot:-g--- (the second answer arrives first)
    page.wait_for_selector("#advice[data-steps='pilot:-g---']")
    with page.expect_response("**/api/advise") as late:
        held[0].continue_()
    answer = late.value.json()  # the whole advice, or (HTTP 202) what is known so far while its values are found
    if answer.get("done") is False and "steps" not in answer:
        assert "job" in answer, answer  # a busy machine: a job with nothing known yet, which the page drops unasked
    else:
        assert answer["steps"][0]["pattern"] == "-----", answer
    page.wait_for_timeout(300)
    assert page.get_attribute("#advice", "data-steps") == "pilot:-g---"
    fits = likely_game.matrix[likely_game.words.guess_id("pilot")] == int("02000", 3)
    assert int(page.get_attribute("#remaining", "data-remaining")) == int(fits.sum())
    assert [t.get_attribute("data-state") for t in tiles.all()] == ["absent", "correct", "absent", "absent", "absent"]


def test_assist_by_keyboard_alone(server, page, likely_game):
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    for _ in range(40):  # Tab to the guess box
        if page.evaluate("document.activeElement.id") == "word":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "word"
    page.keyboard.type("tares")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .step-row[data-step='1']")
    for _ in range(40):  # Tab on to the first tile
        if page.evaluate("document.activeElement.classList.contains('tile')"):
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("step 1, letter 1: T, grey")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    target = pattern_text("tares", "taste")
    for position, letter in enumerate(target):
        if letter == "y":
            page.keyboard.press(" ")  # Space cycles grey -> yellow
        elif letter == "g":
            page.keyboard.press("g")
        else:
            page.keyboard.press("y")
            page.keyboard.press("b")  # yellow, then grey again
        if position < 4:
            page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#advice[data-steps='tares:{target}']")
    assert int(page.get_attribute("#remaining", "data-remaining")) == remaining_after(likely_game, [("tares", "taste")])
    check_row(page.locator("#board .row").nth(0), "tares", "taste")
    assert page.get_attribute("#contrast", "aria-pressed") == "false"
    screenshot(page, "assist-keyboard")


def post(server: str, path: str, body: dict) -> dict:
    """The JSON reply of a POST to the page's API."""
    import json
    import urllib.request
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.loads(reply.read())


def test_a_game_reviewed_on_the_page_shows_the_apis_figures(server, page):
    """The page's table is the API's review (which tests/test_web_review.py checks against `review --json`)."""
    answer, words = REVIEWED
    page.goto(f"{server}/review")
    page.wait_for_selector("body[data-ready]")
    assert page.input_value("#answers") == "likely"  # review's default answer model
    page.fill("#answer", answer)
    page.fill("#words", " ".join(words))
    page.select_option("#answers", "original")
    page.click("#go")
    wait_reviewed(page)
    data = post(server, "/api/review", {"answer": answer, "words": words, "answers": "original"})
    rows = page.locator("#review-table tbody tr")
    assert rows.count() == len(data["steps"])
    for number, step in enumerate(data["steps"]):
        row = rows.nth(number)
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == str(step["number"]) and cells[2] == step["pattern"]
        assert cells[3] == f"{step['before']} → {step['after']}" and cells[7] == str(step["luck"])
        check_row(row.locator(".row"), step["guess"], answer)
        if step["played"]["proved"]:  # a proved value is the same in every run; a bound depends on the time
            assert cells[4] == step["played"]["text"]
        if step["best"]["proved"] and step["played"]["proved"]:
            best = "same" if step["best_guess"] == step["guess"] else step["best_guess"]
            assert cells[5] == f"{best} {step['best']['text']}" and cells[6] == ("" if step["skill_exact"] else "≈") + str(step["skill"])
    assert any(step["played"]["proved"] for step in data["steps"])
    labels = rows.nth(0).locator(".tile").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert labels[0] == "S: grey, not in the word"  # labelled as Play's tiles
    verdict = page.inner_text("#verdict")
    assert verdict.startswith(f"Skill {'' if data['skill_exact'] else '≈'}{data['skill']}/99, luck {data['luck']}/99")


def test_a_review_of_steps_without_the_answer(server, page):
    """As Play's link gives a game against an Indicator: the steps with their colours, no answer."""
    steps = [f"{word}:{pattern_text(word, 'cigar')}" for word in REVIEWED[1]]
    page.goto(f"{server}/review?steps={'+'.join(steps)}&answers=original")
    wait_reviewed(page)
    assert page.input_value("#words") == " ".join(steps) and page.input_value("#answer") == ""
    patterns = page.locator("#review-table td.pattern").all_inner_texts()
    assert patterns == [step.split(":")[1] for step in steps]


def test_a_review_that_fails_says_why_in_one_line(server, page):
    page.goto(f"{server}/review?answer=cigar&words=salet+zzzzz&answers=original")
    page.wait_for_selector(".message.error")
    assert page.inner_text("#message") == "'zzzzz' is not in the list of allowed guesses"


def test_a_screenshot_chosen_on_the_review_page_is_read_and_reviewed(server, page):
    """The phone's path: a picture of the board chosen in the file input is read and reviewed; what was read is shown
    and put under the guesses to correct; a picture that is no board says why in one line."""
    pytest.importorskip("PIL.Image", reason="the screenshot extra (Pillow) reads images")
    boards = Path(__file__).resolve().parent / "boards"
    page.goto(f"{server}/review")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#answers", "original")
    page.set_input_files("#screenshot", str(boards / "dark-phone-3x.png"))  # SHONE CAPUT LUNCH, dark theme
    wait_reviewed(page)
    assert page.locator("#review-table td.pattern").all_inner_texts() == ["-y-y-", "y--y-", "ggggg"]
    assert page.inner_text("#screenshot-read").startswith(
        "Read from the screenshot (dark theme): SHONE -y-y-, CAPUT y--y-, LUNCH ggggg.")
    assert page.input_value("#words") == "shone:-y-y- caput:y--y- lunch:ggggg"
    reviewed = int(page.get_attribute("body", "data-reviewed"))
    page.set_input_files("#screenshot", str(Path(__file__).resolve().parents[1] / "results" / "screenshots" /
                                            "api-desktop.png"))
    page.wait_for_function(f"Number(document.body.dataset.reviewed) > {reviewed}")
    assert page.inner_text("#message") == "no Wordle board found: no row of five coloured tiles (green, yellow or grey)"


def test_assist_widens_a_contradicted_answer_model_and_goes_on(server, page):
    """GUANO (a 2023 answer) is not among the original answers: the page says so in one line and advises on."""
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    assert page.input_value("#answers") == "likely"  # assist's default
    page.select_option("#answers", "original")
    for step in ("crane:--gg-", "tangy:-yyy-", "gland:g-gg-"):  # the original list's GLAND and SLANG both ruled out
        page.fill("#word", step)
        page.press("#word", "Enter")
    wait_for_ranked_advice(page, "crane:--gg- tangy:-yyy- gland:g-gg-")
    notes = page.locator("#advice .note").all_inner_texts()
    assert len(notes) >= 1 and notes[0].startswith("The answer is outside the original model's list")
    assert "guano" in page.inner_text("#advice .answers").split()
    assert page.locator("#suggestions tr[data-guess]").count() >= 1
    screenshot(page, "assist-widened")
    asked = int(page.get_attribute("body", "data-asked") or 0)
    page.check("#only-answers")  # only words that can still be the answer
    page.wait_for_function(f"Number(document.body.dataset.asked) > {asked} && !document.body.dataset.pending")
    possible = set(page.inner_text("#advice .answers").split())
    suggested = page.locator("#suggestions tr[data-guess]").evaluate_all("rows => rows.map(r => r.dataset.guess)")
    assert suggested and set(suggested) <= possible


# -- issue 29: the phone ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["small", "phone"])
def test_review_shows_every_column_of_every_guess_on_a_phone(server, sized, size):
    page = open_page_at(sized, server, "/review", size)
    width = SIZES[size]["width"]
    cells = page.locator("#review-table tbody td")
    assert cells.count() == 8 * len(REVIEWED[1])
    for label in ("reply", "left", "yours", "best", "skill", "luck"):  # each figure on every card, labelled, in view
        for cell in page.locator(f"#review-table tbody td[data-label='{label}']").all():
            box = cell.bounding_box()
            assert cell.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= width, label
            assert cell.evaluate("node => getComputedStyle(node, '::before').content") == f'"{label}"'
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#review-share").inner_text().startswith("wordle-arena 3/6")
    screenshot(page, f"review-{size}")


def test_assist_shows_each_answers_chance_likeliest_first(server, sized, likely_game):
    page = sized("small")
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    for step in ("crane:--gg-", "tangy:-yyy-"):
        page.fill("#word", step)
        page.press("#word", "Enter")
    page.wait_for_selector("#advice[data-steps='crane:--gg- tangy:-yyy-']", state="attached")
    page.wait_for_selector("#possible li")
    words = page.locator("#possible li .word").all_inner_texts()
    chances = [float(text.rstrip("%")) for text in page.locator("#possible li .chance").all_inner_texts()]
    assert chances == sorted(chances, reverse=True) and set(words[:2]) == {"gland", "slang"}
    assert words.index("guano") < words.index("liang")  # a real answer above a name
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    screenshot(page, "assist-small")


def test_play_fits_a_320_by_568_phone_with_no_wrapped_key(server, sized):
    page = sized("small")
    page.goto(f"{server}/?seed=11")
    page.wait_for_selector("body[data-game]")
    assert boxes_outside(page, ".key, #board") == []
    heights = page.locator(".key").evaluate_all("nodes => nodes.map(n => n.getBoundingClientRect().height)")
    assert max(heights) - min(heights) < 1  # one height: no key's label wraps onto a second line
    lines = page.locator(".key.wide").evaluate_all("""nodes => nodes.map(n => {
        const range = document.createRange(); range.selectNodeContents(n);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })""")
    assert all(count <= 1 for count in lines), lines
    screenshot(page, "play-small", full=False)


def test_the_first_tab_reaches_the_skip_link_and_it_skips_the_navigation(server, sized):
    page = sized("phone")
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").bounding_box()["y"] >= 0  # shown once it has the focus
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "MAIN"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "word"  # the page's own input, not seven links later


def test_the_dark_theme_follows_the_system(server, browser):
    context = browser.new_context(viewport=SIZES["phone"], color_scheme="dark", bypass_csp=True)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{server}/?answer=crane")
        page.wait_for_selector("body[data-game]")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 19)"
        assert page.evaluate("getComputedStyle(document.querySelector('header')).backgroundColor") != "rgb(255, 255, 255)"
        type_guess(page, "trace", 1)
        screenshot(page, "play-dark", full=False)
        script = axe_script()
        page.add_script_tag(path=str(script))
        found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .filter(v => ["serious", "critical"].includes(v.impact)).map(v => v.id)""")
        assert found == []
    finally:
        context.close()


def test_statistics_and_streak_are_kept_and_shown_after_a_game(server, sized):
    page = sized("phone")
    page.goto(f"{server}/?answer=crane")
    page.wait_for_selector("body[data-game]")
    page.evaluate("localStorage.removeItem('wordle-arena-stats')")
    for game in (1, 2):
        if game == 2:
            page.click("#again")
            page.wait_for_function("!document.querySelector('#board .row[data-done]')")
        type_guess(page, "trace", 1)
        page.keyboard.type("crane")
        page.keyboard.press("Enter")
        page.wait_for_selector("#end:not([hidden]) #stats:not([hidden])")
        figures = page.locator("#stats .stats b").all_inner_texts()
        assert figures == [str(game), "100", str(game), str(game)]  # played, win %, current and max streak
    assert page.locator("#stats .distribution .bar.this").inner_text() == "2"  # two games won in 2
    stored = json.loads(page.evaluate("localStorage.getItem('wordle-arena-stats')"))
    assert stored["played"] == 2 and stored["streak"] == 2 and stored["guesses"] == {"2": 2}
    screenshot(page, "play-statistics", full=False)


# -- Variants: several boards, their keyboard, one screen -------------------------------------------
def start_variant(page, server: str, boards: int, seed: int) -> None:
    """Open Variants and start a game of `boards` boards dealt from `seed`."""
    page.goto(f"{server}/variants")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#variant", str(boards))
    page.fill("#seed", str(seed))
    page.click("#new")
    page.wait_for_selector("body[data-game]")


def tap_variant_word(page, word: str, number: int) -> None:
    """Type `word` and Enter on the Variants page's on-screen keyboard; wait for guess `number` to be shown."""
    for letter in word:
        page.click(f"#keyboard .key[data-key='{letter}']")
    page.click("#keyboard .key[data-key='enter']")
    page.wait_for_selector(f"body[data-guesses='{number}']")


def best_states(guesses: list[str], answer: str) -> dict[str, str]:
    """One board's best state for each letter guessed while it was open (as the keyboard shows it)."""
    best: dict[str, int] = {}
    for guess in guesses:
        for letter, colour in zip(guess, decode_colours(feedback(guess, answer))):
            best[letter] = max(best.get(letter, 0), colour)
        if guess == answer:
            break
    return {letter: STATE[colour] for letter, colour in best.items()}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_quordle_boards_and_their_keyboard_share_one_screen(server, sized, official_game, size):
    """Quordle at 390 x 844 (2 x 2) and 1280 x 800 (4 in a row): every tile as the engine says, each key's cells in
    every board's colour for its letter (a solved board's faded), all four boards and the keys in the viewport, no
    sideways scroll, and no serious accessibility fault."""
    from agents.base import deal_answers

    seed = 5
    answers = [official_game.words.answers[a] for a in deal_answers(4, len(official_game.words.answers), seed, 0)]
    page = sized(size)
    start_variant(page, server, 4, seed)
    guesses = ["crane", answers[1]]  # the second guess solves board 2
    for number, guess in enumerate(guesses, start=1):
        tap_variant_word(page, guess, number)
    boards = page.locator(".variant-board")
    for board, answer in enumerate(answers):
        played = guesses[:guesses.index(answer) + 1] if answer in guesses else guesses
        for number, guess in enumerate(played):
            check_row(boards.nth(board).locator(".row").nth(number), guess, answer)
    assert page.get_attribute(".variant-board:nth-child(2)", "aria-label") == "board 2: solved"
    shown = page.eval_on_selector_all("#keyboard .key.split", """keys => Object.fromEntries(keys.map(key => [key.dataset.key,
        {label: key.getAttribute("aria-label"), cells: [...key.querySelectorAll(".cell")].map(cell => [cell.dataset.state,
         getComputedStyle(cell).backgroundColor, cell.classList.contains("done")])}]))""")
    assert sorted(shown) == sorted("abcdefghijklmnopqrstuvwxyz")
    for letter, key in shown.items():
        wanted = [best_states(guesses, answer).get(letter, "") for answer in answers]
        assert [state for state, _, _ in key["cells"]] == wanted, letter
        assert all(colour == RGB[{v: k for k, v in STATE.items()}[state]] for state, colour, _ in key["cells"] if state)
        assert [done for _, _, done in key["cells"]] == [False, True, False, False]  # board 2 solved: its cells fade
        assert key["label"].startswith(f"{letter.upper()}: board 1 ") and "board 2 solved" in key["label"]
    words = {"correct": "green, right place", "present": "yellow, in the word, elsewhere", "absent": "grey, not in the word"}
    assert shown["c"]["label"].startswith(f"C: board 1 {words[best_states(guesses, answers[0])['c']]}; ")  # in words
    assert boxes_outside(page, ".variant-board") == [], "a board is off the screen"
    assert boxes_outside(page, "#keyboard .key") == [], "a key is off the screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    tops = sorted({round(box["y"]) for box in (boards.nth(i).bounding_box() for i in range(4))})
    assert len(tops) == (2 if size == "phone" else 1)  # 2 x 2 on the phone, one line of four on the laptop
    screenshot(page, f"variants-quordle-{size}", full=False)
    script = axe_script()
    page.add_script_tag(path=str(script))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
        .filter(v => ["serious", "critical"].includes(v.impact)).map(v => ({id: v.id, where: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))""")
    assert found == []


def test_a_dordle_typed_on_the_computers_keyboard_is_won_and_its_answers_told(server, sized, official_game):
    from agents.base import deal_answers

    seed = 8
    answers = [official_game.words.answers[a] for a in deal_answers(2, len(official_game.words.answers), seed, 0)]
    page = sized("phone")
    start_variant(page, server, 2, seed)
    page.locator("main h2").first.click()  # the focus off the fields: typing plays on the boards
    for number, guess in enumerate(answers, start=1):
        page.keyboard.type(guess)
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body[data-guesses='{number}']")
    assert page.inner_text("#message") == (f"Won in 2/7. The answers: {', '.join(a.upper() for a in answers)} "
                                           f"(seed {seed}).")
    assert page.locator(".variant-board.solved").count() == 2
    page.click("#keyboard .key[data-key='q']")  # the game is over: the keys type nothing more
    assert page.input_value("#guess") == ""


def test_the_first_tab_on_play_reaches_the_skip_link(server, sized):
    """Play takes typing wherever the focus is, so nothing holds the focus when it opens: the first Tab lands on the
    skip link (not on the Q key), and typing still plays."""
    page = sized("phone")
    page.goto(f"{server}/?answer=crane")
    page.wait_for_selector("body[data-game]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "MAIN"
    page.keyboard.type("trace")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .row:nth-child(1)[data-done]")


def test_every_text_meets_4_5_to_1_in_the_dark_theme_on_assist(server, sized, likely_game):
    """The suggestion words (links in the accent's hue) are readable on the dark background: 4.5:1 at least."""
    page = sized("phone", "dark")
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    assist_two_steps(page)
    ratio = page.evaluate("""() => {
        const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
        const lum = (c) => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                             return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const link = document.querySelector('#suggestions button.link');
        const a = lum(rgb(getComputedStyle(link).color)), b = lum(rgb(getComputedStyle(document.body).backgroundColor));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }""")
    assert ratio >= 4.5, ratio


@pytest.mark.parametrize("size", ["small", "phone"])
def test_assist_suggestions_are_cards_with_every_figure_in_view_on_a_phone(server, sized, size, likely_game):
    """At 320 and 390 px no column of the suggestions hides off to the right: each is a card whose every figure
    (guesses, worst case, left, chance, bits) is on screen and says what it is."""
    page = sized(size)
    page.goto(f"{server}/assist")
    page.wait_for_selector("body[data-ready]")
    assist_two_steps(page)
    width = SIZES[size]["width"]
    cells = page.locator("#suggestions tbody td").evaluate_all("""cells => cells.map(c => ({
        label: c.dataset.label, right: c.getBoundingClientRect().right, left: c.getBoundingClientRect().left,
        shown: c.getBoundingClientRect().width > 0}))""")
    assert cells and all(cell["shown"] and 0 <= cell["left"] and cell["right"] <= width for cell in cells), cells
    labels = {cell["label"] for cell in cells}
    assert {"worst case", "left", "chance", "bits", "guesses (lower is better)"} <= labels
    scroller = page.locator("#suggestions").evaluate("t => t.parentElement.scrollWidth - t.parentElement.clientWidth")
    assert scroller <= 0  # nothing to scroll sideways to
    screenshot(page, f"assist-cards-{size}", full=False)


def test_statistics_are_reachable_at_any_time_on_play(server, sized):
    """Before any game (zeros), mid-game and after a reload, the Statistics button shows the figures kept."""
    page = sized("small")
    page.goto(f"{server}/?answer=crane")
    page.wait_for_selector("body[data-game]")
    page.evaluate("localStorage.removeItem('wordle-arena-stats')")
    assert not boxes_outside(page, "#show-stats")  # in reach on a 320 x 568 phone
    page.click("#show-stats")
    assert page.locator("#stats-panel .stats b").all_inner_texts() == ["0", "0", "0", "0"]
    assert page.get_attribute("#show-stats", "aria-expanded") == "true"
    page.click("#show-stats")
    assert page.locator("#stats-panel").is_hidden()
    page.focus("#board")  # Enter on the focused button would press it
    page.keyboard.type("crane")
    page.keyboard.press("Enter")
    page.wait_for_selector("#end:not([hidden]) #stats:not([hidden])")
    page.reload()
    page.wait_for_selector("body[data-game]")
    page.click("#show-stats")
    assert page.locator("#stats-panel .stats b").all_inner_texts() == ["1", "100", "1", "1"]
    assert page.locator("#stats-panel .distribution span.bar").nth(0).inner_text() == "1"  # won in 1
    screenshot(page, "play-statistics-panel", full=False)
