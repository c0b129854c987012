"""Another origin's page in a real Chromium cannot drive the server: a second origin, served by this test on its own
port, makes the requests a hostile page can (no-cors fetches, a text/plain form, a frame) and none takes effect.

The browser and its skips are tests/test_web_browser.py's (the system Chromium, driven by Playwright).
"""

from __future__ import annotations

import http.server
import json
import threading
import time

import pytest

pytest.importorskip("uvicorn", reason="serving the page needs uvicorn (the 'web' extra)")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the 'web' extra)")

from tests.test_web_browser import browser  # noqa: E402,F401  (the fixture)
from web.app import PAGES, create_app, listen  # noqa: E402


@pytest.fixture(scope="module")
def served(official_game):
    """The app served by uvicorn on a free loopback port: (its URL, its Service)."""
    import uvicorn

    sock = listen("127.0.0.1", 0)
    app = create_app(official_game, workers=1)
    instance = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "the server did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", app.state.service
    instance.should_exit = True
    thread.join(timeout=10)


def hostile_page(target: str) -> str:
    """A page elsewhere that tries what a hostile page can: no-cors text/plain fetches that would make a game and
    ask for advice, a text/plain form whose body parses as JSON, and a frame of the page."""
    advice = json.dumps({"steps": ["tares:-y---"], "top": 1})
    return f"""<!doctype html><html><body>
<form id="form" method="POST" action="{target}/api/play/new" enctype="text/plain" target="sink">
<input name='{{"seed":7,"x":"' value='"}}'></form>
<iframe name="sink"></iframe><iframe id="framed" src="{target}/"></iframe>
<script>
window.done = Promise.all([
  fetch("{target}/api/play/new", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}},
                                  body: '{{"seed": 8}}'}}).catch(() => null),
  fetch("{target}/api/advise", {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}},
                                body: '{advice}'}}).catch(() => null),
  fetch("{target}/api/play/new", {{method: "POST", headers: {{"Content-Type": "application/json"}},
                                  body: '{{"seed": 9}}'}}).then(r => r.status, () => "blocked"),
]).then(results => {{ document.getElementById("form").submit(); return results[2]; }});
</script></body></html>"""


@pytest.fixture(scope="module")
def elsewhere(served):
    """A second origin: a plain HTTP server on another loopback port serving the hostile page."""
    page = hostile_page(served[0]).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        """Serves the hostile page at every path."""

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            """The page."""
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            """Quiet."""

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.mark.slow  # a browser
def test_a_page_on_another_origin_makes_no_game_gets_no_advice_and_cannot_frame_the_page(browser, served,  # noqa: F811
                                                                                         elsewhere):
    target, service = served
    games_before = len(service.games)
    context = browser.new_context()
    page = context.new_page()
    responses: list[tuple[str, int]] = []
    page.on("response", lambda response: responses.append((response.url, response.status)))
    page.goto(elsewhere)
    cors_status = page.evaluate("window.done")
    page.wait_for_function("() => { try { return frames['sink'].document.body.innerText.length > 0 } "
                           "catch (e) { return true } }", timeout=30_000)
    time.sleep(1)
    assert len(service.games) == games_before, "a game was made from another origin"
    answered = {url.removeprefix(target): status for url, status in responses if url.startswith(target)}
    assert answered.get("/api/advise") == 403 and answered.get("/api/play/new") == 403, answered
    assert cors_status == "blocked"  # the JSON request needs a preflight, which the server does not grant
    framed = page.frame_locator("#framed").locator("#board")
    assert framed.count() == 0, "the page was shown inside another site's frame"
    context.close()


@pytest.mark.slow  # a browser
@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_page_works_under_its_content_security_policy(browser, served, path):  # noqa: F811
    """The page loads its scripts and styles and runs with no CSP violation and no JavaScript error."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("window.violations = []; document.addEventListener('securitypolicyviolation', "
                         "event => window.violations.push(event.violatedDirective + ' ' + event.blockedURI));")
    page.goto(served[0] + path)
    page.wait_for_load_state("networkidle")
    violations = page.evaluate("window.violations")
    context.close()
    assert not violations and not errors, (violations, errors)
