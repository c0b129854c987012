"""Make the screenshot reader's committed test images, tests/boards/, and their answers, tests/boards/boards.json.

Run: python benchmarks/make_screenshots.py
Two kinds of board, all shot in headless Chromium (Debian's `chromium`, driven by Playwright):
- boards drawn in the Times' style (benchmarks/screenshot_boards.py) in its light, dark and high-contrast themes,
  at desktop and phone sizes (device pixel ratio 1 to 3), in several fonts, PNG and JPEG;
- this project's own Play page (web/static/play.html) after real games typed on the keyboard, light, dark (the
  system's dark setting) and high contrast (its Contrast button), at phone and desktop widths.
Needs the fonts of benchmarks/make_glyphs.py. Each image is kept small (a phone-sized window, PNG or JPEG).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshot_boards import Camera, Style, chromium_path  # noqa: E402

from wordle import feedback, format_pattern  # noqa: E402

OUTPUT = ROOT / "tests" / "boards"
#: The Times-style boards: file, words, answer, style, JPEG quality (None: PNG).
TIMES_STYLE = [
    ("light-desktop.png", ["shone", "trail", "lumpy", "fully", "bulky"], "bulky",
     Style(theme="light", font="Clear Sans", tile=62, width=500, height=760), None),
    ("dark-phone-3x.png", ["shone", "caput", "lunch"], "lunch",
     Style(theme="dark", font="Liberation Sans", tile=52, width=390, height=600, scale=3.0), None),
    ("light-contrast-small-2x.png", ["slate", "beech", "check"], "check",
     Style(theme="light", contrast=True, font="FreeSans", tile=44, width=320, height=560, scale=2.0), None),
    ("dark-contrast-lost.png", ["crane", "point", "gumbo", "fizzy", "jazzy", "dizzy"], "pizza",
     Style(theme="dark", contrast=True, font="Roboto", tile=62, width=1280, height=720), None),
    ("light-phone-2x.jpg", ["crane", "tangy", "guano"], "guano",
     Style(theme="light", font="Open Sans", tile=52, width=390, height=600, scale=2.0), 80),
    ("dark-small-tiles.png", ["salet", "kazoo"], "kazoo",
     Style(theme="dark", font="Lato", tile=34, width=320, height=480), None),
    ("light-double-letters-3x.jpg", ["allay", "llama"], "llama",
     Style(theme="light", font="DejaVu Sans", tile=40, width=390, height=480, scale=3.0), 90),
    ("dark-contrast-one-row-2x.png", ["squid"], "squid",
     Style(theme="dark", contrast=True, font="Clear Sans", tile=58, width=500, height=560, scale=2.0), None),
]
#: Games played on the project's own Play page: file, words, answer, colour scheme, contrast, width, height, ratio.
PLAY_PAGE = [
    ("project-play-light.png", ["salet", "corny", "crony"], "crony", "light", False, 1100, 900, 1.0),
    ("project-play-dark-phone-2x.png", ["crane", "fjord", "wimpy", "vouch"], "vouch", "dark", False, 390, 844, 2.0),
    ("project-play-contrast.png", ["adieu", "snort", "north"], "north", "light", True, 700, 900, 1.0),
]


def times_style(camera: Camera) -> list[dict]:
    """Shoot the Times-style boards; return their entries."""
    entries = []
    for name, words, answer, style, quality in TIMES_STYLE:
        image = camera.shoot(words, answer, style, "png" if quality is None else "jpeg", quality or 0)
        (OUTPUT / name).write_bytes(image)
        entries.append(entry(name, words, answer, style.theme, style.contrast, "the Times' style",
                             f"{style.font}, tile {style.tile} px, window {style.width} x {style.height}, "
                             f"ratio {style.scale:g}" + (f", JPEG {quality}" if quality else "")))
    return entries


def entry(name: str, words: list[str], answer: str, theme: str, contrast: bool, source: str, look: str) -> dict:
    """One image's record: what it shows and how it was made."""
    return {"file": name, "steps": [f"{w}:{format_pattern(feedback(w, answer))}" for w in words], "answer": answer,
            "theme": theme, "contrast": contrast, "source": source, "look": look}


def serve() -> tuple[str, object, threading.Thread]:
    """The project's web page on a free loopback port in a thread: its base URL, the server and the thread."""
    import uvicorn

    from web.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    if not server.started:
        raise SystemExit("the web page did not start")
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread


def play_page() -> list[dict]:
    """Play the games on the project's own Play page and shoot each finished board; return their entries."""
    from playwright.sync_api import sync_playwright

    url, server, thread = serve()
    entries = []
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            for name, words, answer, scheme, contrast, width, height, ratio in PLAY_PAGE:
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                              device_scale_factor=ratio)
                page = context.new_page()
                page.set_default_timeout(60_000)
                page.goto(f"{url}/?answer={answer}")
                page.wait_for_selector("body[data-game]")
                if contrast:
                    page.click("#contrast")
                for number, word in enumerate(words, start=1):
                    page.keyboard.type(word)
                    page.keyboard.press("Enter")
                    page.wait_for_selector(f"#board .row:nth-child({number})[data-done]")
                page.wait_for_timeout(800)  # the last row's turn
                page.locator("#board").scroll_into_view_if_needed()
                (OUTPUT / name).write_bytes(page.screenshot(type="png"))
                entries.append(entry(name, words, answer, scheme, contrast, "this project's Play page",
                                     f"window {width} x {height}, ratio {ratio:g}"))
                context.close()
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    return entries


def main() -> None:
    """Make every image and the list of what each shows."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("WORDLE_ARENA_CACHE", "/tmp/wa-cache")
    with Camera() as camera:
        entries = times_style(camera)
    entries += play_page()
    (OUTPUT / "boards.json").write_text(json.dumps({"made_by": "python benchmarks/make_screenshots.py",
                                                    "boards": entries}, indent=1) + "\n")
    sizes = {e["file"]: (OUTPUT / e["file"]).stat().st_size for e in entries}
    print(f"{len(entries)} images, {sum(sizes.values()):,} bytes: {sizes}")


if __name__ == "__main__":
    main()
