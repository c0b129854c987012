"""Wordle boards drawn in the Times' style and shot in headless Chromium: the screenshot reader's test images.

A board is a page of this project's own making (its HTML and CSS written here) with the Times' layout and
colours (wordle/screenshot.TILE_COLOURS): a header, six rows of five square tiles with the guesses' letters in a
bold sans-serif font, white on the coloured tiles, empty tiles outlined, and the on-screen keyboard with each
letter's best colour. Themes: light or dark, each with or without high contrast; any tile size, font, window
width and device pixel ratio. Chromium (Debian's `chromium`, driven by Playwright) renders it as a phone or a
desktop would, with its own anti-aliasing and scaling.

Used by benchmarks/make_screenshots.py (the committed test images) and benchmarks/bench_screenshot.py (the
accuracy measurement).
"""

from __future__ import annotations

import html
import os
import shutil
from dataclasses import dataclass

from wordle import GREEN, GREY, YELLOW, decode_colours, feedback

#: Page colours by theme: background, text, empty tile outline, unused key, key text.
PAGE = {
    "light": {"background": "#ffffff", "text": "#1a1a1b", "outline": "#d3d6da", "key": "#d3d6da", "key_text": "#1a1a1b"},
    "dark": {"background": "#121213", "text": "#d7dadc", "outline": "#3a3a3c", "key": "#818384", "key_text": "#ffffff"},
}
#: Tile colours by theme and contrast (wordle/screenshot.TILE_COLOURS' source).
TILES = {
    ("light", False): {GREEN: "#6aaa64", YELLOW: "#c9b458", GREY: "#787c7e"},
    ("dark", False): {GREEN: "#538d4e", YELLOW: "#b59f3b", GREY: "#3a3a3c"},
    ("light", True): {GREEN: "#f5793a", YELLOW: "#85c0f9", GREY: "#787c7e"},
    ("dark", True): {GREEN: "#f5793a", YELLOW: "#85c0f9", GREY: "#3a3a3c"},
}
KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


@dataclass(frozen=True)
class Style:
    """How a board is drawn and shot."""

    theme: str = "light"
    contrast: bool = False
    font: str = "Clear Sans"
    tile: int = 62
    width: int = 500
    height: int = 900
    scale: float = 1.0


def board_html(words: list[str], answer: str, style: Style) -> str:
    """The page of a game's board: its guesses coloured against `answer`, the rest of the six rows empty."""
    page, tiles = PAGE[style.theme], TILES[(style.theme, style.contrast)]
    rows, best = [], {}
    for number in range(6):
        cells = []
        if number < len(words):
            for letter, colour in zip(words[number], decode_colours(feedback(words[number], answer))):
                best[letter] = max(best.get(letter, -1), colour)
                cells.append(f'<div class="t" style="background:{tiles[colour]};border-color:{tiles[colour]}">'
                             f"{html.escape(letter.upper())}</div>")
        else:
            cells = ['<div class="t e"></div>'] * 5
        rows.append(f'<div class="r">{"".join(cells)}</div>')
    keys = []
    for row in KEY_ROWS:
        cells = []
        for letter in row:
            colour = tiles[best[letter]] if letter in best else page["key"]
            text = "#ffffff" if letter in best else page["key_text"]
            cells.append(f'<div class="k" style="background:{colour};color:{text}">{letter.upper()}</div>')
        if row == KEY_ROWS[-1]:
            cells = ['<div class="k w">ENTER</div>'] + cells + ['<div class="k w">&#9003;</div>']
        keys.append(f'<div class="kr">{"".join(cells)}</div>')
    gap = max(2, round(style.tile / 12))
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; background: {page['background']}; color: {page['text']}; font-family: '{style.font}', sans-serif; }}
header {{ height: 50px; border-bottom: 1px solid {page['outline']}; display: flex; align-items: center;
          justify-content: center; font-weight: 700; font-size: 28px; }}
.b {{ display: grid; grid-template-rows: repeat(6, {style.tile}px); gap: {gap}px; justify-content: center;
      padding: 24px 0; }}
.r {{ display: grid; grid-template-columns: repeat(5, {style.tile}px); gap: {gap}px; }}
.t {{ display: flex; align-items: center; justify-content: center; font-weight: 700; color: #ffffff;
      font-size: {round(style.tile * 0.52)}px; box-sizing: border-box; border: 2px solid transparent; }}
.t.e {{ border-color: {page['outline']}; }}
.kb {{ max-width: 484px; margin: 0 auto; padding: 0 8px; }}
.kr {{ display: flex; gap: 6px; margin-bottom: 8px; justify-content: center; }}
.k {{ flex: 1; height: 58px; border-radius: 4px; display: flex; align-items: center; justify-content: center;
      font-weight: 700; font-size: 13px; background: {page['key']}; color: {page['key_text']}; max-width: 43px; }}
.k.w {{ flex: 1.5; max-width: 65px; font-size: 12px; }}
</style></head><body><header>Wordle</header><div class="b">{"".join(rows)}</div>
<div class="kb">{"".join(keys)}</div></body></html>"""


def chromium_path() -> str:
    """The system's Chromium ($WORDLE_ARENA_CHROMIUM, else chromium on PATH)."""
    path = os.environ.get("WORDLE_ARENA_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise SystemExit("no Chromium: apt-get install chromium (or set WORDLE_ARENA_CHROMIUM)")
    return path


class Camera:
    """One headless Chromium, kept open to shoot many boards."""

    def __enter__(self) -> "Camera":
        """Start Playwright and the browser."""
        from playwright.sync_api import sync_playwright

        self._driver = sync_playwright().start()
        self._browser = self._driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        return self

    def shoot(self, words: list[str], answer: str, style: Style, image_type: str = "png", quality: int = 85) -> bytes:
        """A screenshot of a board's page, PNG or JPEG."""
        page = self._browser.new_page(viewport={"width": style.width, "height": style.height},
                                      device_scale_factor=style.scale)
        try:
            page.set_content(board_html(words, answer, style))
            page.evaluate("document.fonts.ready")
            options = {"type": image_type, "full_page": False}
            if image_type == "jpeg":
                options["quality"] = quality
            return page.screenshot(**options)
        finally:
            page.close()

    def __exit__(self, *exc: object) -> None:
        """Close the browser and Playwright."""
        self._browser.close()
        self._driver.stop()
