"""The screenshot reader: every committed board read exactly, its parts on hand-made cases, and images that are not
boards refused in one line."""

from __future__ import annotations

import argparse
import io
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from commands.review import screenshot_board
from tests.conftest import run_cli
from wordle import GREEN, GREY, YELLOW, feedback, format_pattern, load_words
from wordle.screenshot import (LETTERS, MOST_DECODED_PIXELS, MOST_IMAGE_BYTES, TILE_COLOURS, ScreenshotError, Tile,
                               best_word, board_of, colour_classes, glyph_templates, hex_rgb, letter_scores,
                               read_board, read_upload, tile_rows)

PIL = pytest.importorskip("PIL.Image", reason="the screenshot extra (Pillow) reads images")
ROOT = Path(__file__).resolve().parents[1]
BOARDS = ROOT / "tests" / "boards"
MADE = json.loads((BOARDS / "boards.json").read_text())["boards"]


@pytest.fixture(scope="module")
def guesses() -> tuple[str, ...]:
    """The Times' guess list, the widest a row may read as."""
    return load_words(guesses="nyt").guesses


@pytest.mark.parametrize("made", MADE, ids=[made["file"] for made in MADE])
def test_every_committed_board_is_read_exactly(made, guesses):
    board = read_board((BOARDS / made["file"]).read_bytes(), guesses)
    assert board.steps == made["steps"]
    assert (board.theme, board.contrast) == (made["theme"], made["contrast"])
    assert all(score > 0.8 for row in board.rows for score in row.scores)


#: The template font each committed board's letters are set in (the project's page asks for system-ui: DejaVu Sans).
BOARD_FONTS = {made["file"]: (made["look"].split(",")[0] if made["source"] == "the Times' style" else "DejaVu Sans")
               + " Bold" for made in MADE}


@pytest.mark.parametrize("made", [made for made in MADE if BOARD_FONTS[made["file"]] != "Clear Sans Bold"],
                         ids=lambda made: made["file"])
def test_a_board_is_read_exactly_without_its_own_fonts_templates(made, guesses):
    """The Times sets its tiles in NYT Franklin, a font the templates lack: each board is read again with its own
    font's templates left out. (Clear Sans is left out of this check: its I has slab serifs no other font has.)"""
    bitmaps, aspects, fonts = glyph_templates()
    others = np.array([font != BOARD_FONTS[made["file"]] for font in fonts])
    assert not others.all()  # the board's font is one of the templates', and is left out
    board = read_board((BOARDS / made["file"]).read_bytes(), guesses, (bitmaps[others], aspects[others]))
    assert board.steps == made["steps"]


def test_a_photo_turned_by_its_exif_orientation_is_read_upright(guesses):
    from PIL import Image

    made = next(made for made in MADE if made["file"] == "light-contrast-small-2x.png")
    with Image.open(BOARDS / made["file"]) as image:
        stored = image.convert("RGB").rotate(90, expand=True)  # as a camera stores it, turned
    exif = Image.Exif()
    exif[0x0112] = 6  # EXIF orientation 6: turn 90 degrees clockwise to show
    buffer = io.BytesIO()
    stored.save(buffer, format="JPEG", quality=90, exif=exif)
    assert read_board(buffer.getvalue(), guesses).steps == made["steps"]


def png_chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk: its length, kind, body and checksum."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_header(width: int, height: int) -> bytes:
    """A small PNG file claiming a size, with a few bytes of pixels: what a decompression bomb looks like."""
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + png_chunk(b"IEND", b""))


@pytest.mark.parametrize("data, message", [
    (png_header(7_000, 7_000), "the image is 7,000 x 7,000 pixels, more than the 40,000,000 pixels"),
    (png_header(30_000, 30_000), "more than the 40,000,000 pixels a screenshot could have"),
    (b"\0" * (MOST_IMAGE_BYTES + 1), "the file is larger than 20 MiB"),
    (b"", "not an image that can be read"),
])
def test_a_huge_or_empty_file_is_refused_before_it_is_decoded(data, message, guesses):
    assert MOST_DECODED_PIXELS == 40_000_000
    with pytest.raises(ScreenshotError, match=message) as refused:
        read_board(data, guesses)
    assert "\n" not in str(refused.value)


def test_the_committed_boards_cover_three_themes_several_sizes_and_both_sources():
    looks = {(made["theme"], made["contrast"]) for made in MADE}
    assert looks == {("light", False), ("dark", False), ("light", True), ("dark", True)}
    assert {made["source"] for made in MADE} == {"the Times' style", "this project's Play page"}
    assert any(made["file"].endswith(".jpg") for made in MADE)
    assert sum((BOARDS / made["file"]).stat().st_size for made in MADE) < 600_000  # small enough to commit
    for made in MADE:  # each image's steps are a real game: colours as the answer gives them
        for step in made["steps"]:
            word, pattern = step.split(":")
            assert format_pattern(feedback(word, made["answer"])) == pattern


def png(pixels: np.ndarray) -> bytes:
    """An RGB array as PNG bytes."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "RGB").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("data, message", [
    (b"not an image at all", "not an image that can be read"),
    (png(np.zeros((1, 1, 3))), "no Wordle board found"),
    (png(np.full((400, 300, 3), 255)), "no Wordle board found"),
    (png(np.random.default_rng(0).integers(0, 256, (300, 400, 3))), "no Wordle board found"),
    ((BOARDS / "light-desktop.png").read_bytes()[:3000], "not an image that can be read"),  # cut short
    ((ROOT / "results" / "screenshots" / "api-desktop.png").read_bytes(), "no Wordle board found"),  # a page, no board
])
def test_an_image_that_is_not_a_board_is_refused_in_one_line(data, message, guesses):
    with pytest.raises(ScreenshotError, match=message) as refused:
        read_board(data, guesses)
    assert "\n" not in str(refused.value)


def test_five_coloured_squares_without_letters_are_refused():
    rgb = {code: hex_rgb(hexes[0]) for code, hexes in TILE_COLOURS.items()}
    image = np.full((100, 330, 3), 255)
    for place, colour in enumerate((GREEN, YELLOW, GREY, GREY, GREEN)):
        image[20:80, 10 + 64 * place:70 + 64 * place] = rgb[colour]
    with pytest.raises(ScreenshotError, match="row 1 of the board has no letter in tile 1"):
        read_board(png(image), ("crane",))


def test_every_tile_colour_of_every_theme_is_its_class_and_the_page_colours_none():
    codes = [(hexes, code) for code, group in TILE_COLOURS.items() for hexes in group]
    pixels = np.array([[hex_rgb(hexes) for hexes, _ in codes]], dtype=np.uint8)
    classes, _ = colour_classes(pixels)
    assert classes[0].tolist() == [code for _, code in codes]
    page = np.array([[hex_rgb(c) for c in ("#ffffff", "#121213", "#d3d6da", "#1a1a1b", "#d7dadc")]], dtype=np.uint8)
    assert colour_classes(page)[0].tolist() == [[-1] * 5]


def test_the_shipped_templates_read_as_their_own_letters():
    bitmaps, aspects, fonts = glyph_templates()
    assert bitmaps.shape == (len(fonts), 26, 20, 20) and "Clear Sans Bold" in fonts
    for font in range(len(fonts)):
        for letter in range(26):
            scores = letter_scores(bitmaps[font, letter], float(aspects[font, letter]))
            assert LETTERS[int(np.argmax(scores))] == LETTERS[letter], (fonts[font], LETTERS[letter])


def test_a_row_reads_as_the_allowed_word_its_letters_fit_best():
    scores = np.full((5, 26), 0.5)
    for place, letter in enumerate("crane"):
        scores[place, LETTERS.index(letter)] = 0.95
    scores[2, LETTERS.index("o")] = 0.97  # one letter misread alone: CRONE is no word of this list
    assert best_word(scores, ("crane", "slate", "trace")) == ("crane", pytest.approx((0.95 * 5 - 0.95 + 0.95) / 5))


def tiles_at(rows: list[int], left: int = 10, side: int = 40, pitch: int = 45) -> list[Tile]:
    """Five tiles side by side at each of some tops."""
    return [Tile(top, left + pitch * i, top + side, left + pitch * i + side, GREY) for top in rows for i in range(5)]


def test_rows_of_five_make_a_board_and_uneven_rows_are_refused():
    board = board_of(tile_rows(tiles_at([100, 10, 55])))
    assert [row[0].top for row in board] == [10, 55, 100]
    assert tile_rows(tiles_at([10])[:4]) == []  # four tiles are no row
    with pytest.raises(ScreenshotError, match="not evenly spaced"):
        board_of(tile_rows(tiles_at([10, 55, 190])))
    with pytest.raises(ScreenshotError, match="no Wordle board found"):
        board_of([])


def test_the_web_gets_the_steps_and_what_was_read_as_json():
    data = json.loads(json.dumps(read_upload((BOARDS / "light-contrast-small-2x.png").read_bytes())))
    assert data["steps"] == [f"{w}:{format_pattern(feedback(w, 'check'))}" for w in ("slate", "beech", "check")]
    assert data["theme"] == "light" and data["contrast"] and data["tile_pixels"] > 40
    assert [row["word"] for row in data["rows"]] == ["slate", "beech", "check"]


def test_review_screenshot_puts_the_read_steps_in_its_arguments():
    args = argparse.Namespace(screenshot=str(BOARDS / "dark-small-tiles.png"), steps=[], grid=None, answer=None)
    board = screenshot_board(args)
    assert args.steps == board.steps == ["salet:-g---", "kazoo:ggggg"]


@pytest.mark.parametrize("argv, message", [
    (("--screenshot", "README.md"), "README.md: not an image that can be read"),
    (("--screenshot", "no-such-file.png"), "no-such-file.png: No such file or directory"),
    (("--screenshot", "results/screenshots/api-desktop.png"), "no Wordle board found"),
    (("--screenshot", "tests/boards/light-desktop.png", "crane"), "give no steps, --grid or --answer with it"),
    (("--screenshot", "tests/boards/light-desktop.png", "--boards", "2"), "not dordle's"),
    (("--screenshot", "tests/boards/light-desktop.png", "--indicator", "fibble"), "not fibble's"),
])
def test_review_screenshot_refuses_bad_input_in_one_line_with_exit_2(capsys, monkeypatch, argv, message):
    monkeypatch.chdir(ROOT)
    code, _, err = run_cli(capsys, "review", *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.slow
def test_review_screenshot_reviews_the_game_read(capsys):
    code, out, _ = run_cli(capsys, "review", "--screenshot", str(BOARDS / "light-contrast-small-2x.png"),
                           "--answers", "original", "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"] and [s["guess"] for s in data["steps"]] == ["slate", "beech", "check"]
    assert data["screenshot"]["contrast"] and data["screenshot"]["steps"][-1] == "check:ggggg"
