"""Build the screenshot reader's letter templates, wordle/data/glyphs.npz, from bold sans-serif fonts.

Run: python benchmarks/make_glyphs.py
Renders A to Z in each font of FONTS (Debian's packages: fonts-clear-sans, fonts-liberation2, fonts-freefont-ttf,
fonts-roboto-unhinted, fonts-dejavu-core, fonts-open-sans, fonts-lato) at TEMPLATE_PX pixels, white on black, and
keeps each letter as the reader keeps a letter it reads (wordle/screenshot.glyph_of): its ink cut to its box, scaled
to GLYPH_SIZE squared, and its width-to-height ratio. The Times sets its tiles in its own NYT Franklin (not a
free font); these are the free fonts nearest it and the game's first font, Clear Sans. Writes the bitmaps as
uint8, the ratios and the font names.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wordle.screenshot import GLYPHS_FILE, LETTERS, glyph_of  # noqa: E402

#: The fonts by name and file (Debian's paths).
FONTS = {
    "Clear Sans Bold": "/usr/share/fonts/truetype/clear-sans/ClearSans-Bold.ttf",
    "Liberation Sans Bold": "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
    "FreeSans Bold": "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    "Roboto Bold": "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "DejaVu Sans Bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "Open Sans Bold": "/usr/share/fonts/truetype/open-sans/OpenSans-Bold.ttf",
    "Lato Bold": "/usr/share/fonts/truetype/lato/Lato-Bold.ttf",
}
TEMPLATE_PX = 96
OUTPUT = ROOT / "wordle" / "data" / GLYPHS_FILE


def render_letter(font_path: str, letter: str, size: int = TEMPLATE_PX) -> np.ndarray:
    """One capital letter, white on black, as ink in [0, 1] on a canvas with room around it."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, size)
    canvas = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 4), letter.upper(), fill=255, font=font)
    return np.asarray(canvas, dtype=np.float32) / 255.0


def templates(fonts: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The bitmaps (fonts, 26, GLYPH_SIZE, GLYPH_SIZE) in [0, 1] and aspects (fonts, 26) of some fonts."""
    bitmaps, aspects = [], []
    for path in fonts.values():
        glyphs = [glyph_of(render_letter(path, letter)) for letter in LETTERS]
        bitmaps.append([glyph for glyph, _ in glyphs])
        aspects.append([aspect for _, aspect in glyphs])
    return np.array(bitmaps, dtype=np.float32), np.array(aspects, dtype=np.float32)


def main() -> None:
    """Render, and write the templates."""
    missing = [path for path in FONTS.values() if not Path(path).exists()]
    if missing:
        raise SystemExit(f"missing fonts (install the Debian packages named in this file's docstring): {missing}")
    bitmaps, aspects = templates(FONTS)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, bitmaps=np.round(bitmaps * 255).astype(np.uint8), aspects=aspects,
                        fonts=np.array(list(FONTS)))
    OUTPUT.write_bytes(buffer.getvalue())
    print(f"{len(FONTS)} fonts x {len(LETTERS)} letters -> {OUTPUT} ({len(buffer.getvalue()):,} bytes)")


if __name__ == "__main__":
    main()
