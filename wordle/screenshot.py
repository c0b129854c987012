"""Reading a Wordle board from a screenshot: each guess's letters and colours, in the Times' three themes.

The Times' tile colours (TILE_COLOURS) are those of the game's own stylesheet, which names them as CSS
variables: light theme `--green` #6aaa64, `--yellow` #c9b458 and the absent grey `--color-tone-2` #787c7e;
dark theme (`.nightmode`) `--darkendGreen` #538d4e, `--darkendYellow` #b59f3b and `--color-tone-4` #3a3a3c;
high contrast (`.colorblind`, in either theme) `--orange` #f5793a for the right place and `--blue` #85c0f9 for
the wrong place. Source: the game's index.html as archived on 2 February 2022, public gist
avipars/89bedbfde448b5e7c9e31a6e16f3fa29 (its `theme-color` #6aaa64 is the same green); the Times kept the
palette (this project's web page and terminal use the same dark and contrast colours: web/static/style.css,
commands/render.py).

How a board is read:
1. Colours: each pixel takes the class (green, yellow, grey) of the nearest tile colour of any theme, if it is
   within COLOUR_TOLERANCE of it; an image over MOST_PIXELS is first scaled down.
2. Tiles: the connected regions of one class that are square and mostly filled (a revealed tile is its colour
   around its letter; an empty tile's grey outline, a key of the on-screen keyboard or a button is not).
3. The board: tiles grouped into rows of five of one size, side by side at an even pitch; the board is the
   largest set of such rows in one column, evenly spaced, read top to bottom.
4. Letters: in each tile, the ink (how far each pixel's colour is from the tile's own colour, so white and dark
   letters alike) is cut to its bounding box, scaled to GLYPH_SIZE squared and compared with the shipped glyph
   templates (wordle/data/glyphs.npz: A to Z in several bold sans-serif fonts, benchmarks/make_glyphs.py): a
   letter's score is the best over fonts of the mean agreement of the two bitmaps less ASPECT_WEIGHT times how
   far their width-to-height ratios differ (in log). A row reads as the allowed guess whose letters score best
   together, so one misread letter of a real word is put right; a row whose best word still scores under
   LEAST_WORD_SCORE is refused rather than guessed.

Every failure is a ScreenshotError, one line: a file over MOST_IMAGE_BYTES, an image over MOST_DECODED_PIXELS
(checked before it is decoded), one Pillow cannot read, one with no board, a board without letters (a picture of a
share grid), or a row that does not read as a word. Pillow is needed here only (the `screenshot` extra).
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from plumbing.errors import UserError

from .feedback import GREEN, GREY, YELLOW, encode_colours
from .patterns import format_pattern

#: The Times' tile colours by the colour they mean (see the module docstring for the source).
TILE_COLOURS = {
    GREEN: ("#6aaa64", "#538d4e", "#f5793a"),  # light, dark, high contrast
    YELLOW: ("#c9b458", "#b59f3b", "#85c0f9"),
    GREY: ("#787c7e", "#3a3a3c"),  # light, dark (high contrast keeps its theme's grey)
}
#: The high-contrast colours (orange, blue): a board that has them was shot in the high-contrast theme.
CONTRAST_COLOURS = ("#f5793a", "#85c0f9")
#: How far (Euclidean, in 0-255 RGB) a pixel may be from a tile colour and still be of its class: enough for
#: scaling and JPEG, less than half the distance between any two tile colours of different classes.
COLOUR_TOLERANCE = 34.0
#: An image larger than this many pixels is scaled down first (a phone's full screenshot is about 3 million).
MOST_PIXELS = 1_000_000
#: The smallest tile side read, in pixels (after any scaling): below it letters are too small to read.
LEAST_TILE = 16
#: A tile is square within this ratio of its sides, and its colour fills at least this share of its box.
SQUARE_WITHIN = 1.2
LEAST_FILL = 0.45
#: The side of the square a letter's ink is scaled to before it is compared with the templates.
GLYPH_SIZE = 20
#: How much a difference of width-to-height ratio (in natural log) counts against a template.
ASPECT_WEIGHT = 0.25
#: The least mean letter score of a row's word (a score is 1 for a perfect match; the read letters of the
#: committed screenshots score 0.8 and more, a non-letter about 0.5).
LEAST_WORD_SCORE = 0.7
#: The most bytes of an image read (a phone's screenshot is a few megabytes).
MOST_IMAGE_BYTES = 20 * 2**20
#: The most pixels an image may have, checked before it is decoded (an 8K screen has 33 million): a small file
#: that would decode to gigabytes is refused.
MOST_DECODED_PIXELS = 40_000_000
GLYPHS_FILE = "glyphs.npz"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


class ScreenshotError(UserError):
    """An image that is not a Wordle board, or one that cannot be read."""


@dataclass(frozen=True)
class Tile:
    """One revealed tile: its box in the (scaled) image, [top, bottom) by [left, right), and its colour."""

    top: int
    left: int
    bottom: int
    right: int
    colour: int

    @property
    def side(self) -> float:
        """The tile's side, the mean of its width and height."""
        return ((self.bottom - self.top) + (self.right - self.left)) / 2


@dataclass(frozen=True)
class ReadRow:
    """One row of the board as read: the word, its pattern code, each letter's score and the best reading letter
    by letter (which the word may correct)."""

    word: str
    pattern: int
    scores: tuple[float, ...]
    letters: str


@dataclass(frozen=True)
class ReadBoard:
    """A board read from a screenshot: its rows top to bottom, the theme, and the tiles' side in the image."""

    rows: tuple[ReadRow, ...]
    theme: str
    contrast: bool
    tile_pixels: int

    @property
    def steps(self) -> list[str]:
        """The rows as `word:pattern` steps, as review and assist read them."""
        return [f"{row.word}:{format_pattern(row.pattern)}" for row in self.rows]


def hex_rgb(colour: str) -> tuple[int, int, int]:
    """A #rrggbb colour as an (r, g, b) triple.

    >>> hex_rgb("#6aaa64")
    (106, 170, 100)
    """
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def load_image(data: bytes) -> np.ndarray:
    """An image's pixels as an (height, width, 3) uint8 RGB array, turned upright as its EXIF orientation says and
    scaled down to at most MOST_PIXELS.

    Raises:
        ScreenshotError: more than MOST_IMAGE_BYTES, more than MOST_DECODED_PIXELS (checked before decoding), not an
            image Pillow knows, or one it cannot decode (damaged or cut short).
    """
    if len(data) > MOST_IMAGE_BYTES:
        raise ScreenshotError(f"the file is larger than {MOST_IMAGE_BYTES // 2**20} MiB, too large for a screenshot")
    try:
        from PIL import Image, ImageOps, UnidentifiedImageError
    except ImportError:  # pragma: no cover - the extra is installed where this runs
        raise ScreenshotError("reading a screenshot needs Pillow: pip install 'wordle-arena[screenshot]'") from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pillow's decompression-bomb warning: the size is checked here instead
        try:
            opened = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError:
            raise ScreenshotError(f"the image has more than the {MOST_DECODED_PIXELS:,} pixels a screenshot could "
                                  "have") from None
        except UnidentifiedImageError:
            raise ScreenshotError("not an image that can be read (not a PNG, JPEG, WebP, GIF or another picture "
                                  "format)") from None
        except MemoryError:
            raise
        except Exception as error:  # noqa: BLE001 - a decoder fed any bytes may raise anything: all of it is bad input
            raise ScreenshotError(f"not an image that can be read (damaged: {one_line(error)})") from None
        with opened:
            width, height = opened.size
            if width * height > MOST_DECODED_PIXELS:
                raise ScreenshotError(f"the image is {width:,} x {height:,} pixels, more than the "
                                      f"{MOST_DECODED_PIXELS:,} pixels a screenshot could have")
            if width == 0 or height == 0:
                raise ScreenshotError("not an image that can be read (it has no pixels)")
            try:
                opened.load()
                image = ImageOps.exif_transpose(opened).convert("RGB")
            except MemoryError:
                raise
            except Exception as error:  # noqa: BLE001 - as above: Pillow's decoders raise more than OSError
                raise ScreenshotError(f"not an image that can be read (damaged or cut short: {one_line(error)})"
                                      ) from None
    pixels = image.width * image.height
    if pixels > MOST_PIXELS:
        scale = (MOST_PIXELS / pixels) ** 0.5
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.Resampling.BOX)
    return np.asarray(image, dtype=np.uint8)


def one_line(error: BaseException) -> str:
    """An exception's message on one short line (a library's message may span several)."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def colour_classes(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's tile class (GREEN, YELLOW, GREY, or -1 for none) and the index in `palette()` of the tile
    colour it matched (-1 for none)."""
    colours = palette()
    flat = pixels.reshape(-1, 3).astype(np.int32)
    best = np.full(len(flat), np.iinfo(np.int32).max, dtype=np.int64)
    which = np.full(len(flat), -1, dtype=np.int64)
    for index, (_, rgb) in enumerate(colours):
        distance = ((flat - np.array(rgb, dtype=np.int32)) ** 2).sum(axis=1)
        closer = distance < best
        best[closer] = distance[closer]
        which[closer] = index
    which[best > COLOUR_TOLERANCE ** 2] = -1
    classes = np.array([colour for colour, _ in colours] + [-1], dtype=np.int8)[which]
    return classes.reshape(pixels.shape[:2]), which.reshape(pixels.shape[:2])


@cache
def palette() -> tuple[tuple[int, tuple[int, int, int]], ...]:
    """Every tile colour with its class, in TILE_COLOURS' order."""
    return tuple((colour, hex_rgb(hexes)) for colour, group in TILE_COLOURS.items() for hexes in group)


def find_tiles(classes: np.ndarray) -> list[Tile]:
    """The revealed tiles: connected regions of one class, square, at least LEAST_TILE across, mostly filled, and
    not inside another."""
    from scipy import ndimage  # imported here: only reading a screenshot needs it

    tiles = []
    for colour in (GREEN, YELLOW, GREY):
        labels, count = ndimage.label(classes == colour)
        if count == 0:
            continue
        areas = np.bincount(labels.ravel(), minlength=count + 1)
        for number, box in enumerate(ndimage.find_objects(labels), start=1):
            if box is None:
                continue
            height, width = box[0].stop - box[0].start, box[1].stop - box[1].start
            if min(height, width) < LEAST_TILE or max(height, width) > SQUARE_WITHIN * min(height, width):
                continue
            if areas[number] < LEAST_FILL * height * width:
                continue
            tiles.append(Tile(box[0].start, box[1].start, box[0].stop, box[1].stop, colour))
    return [tile for tile in tiles if not any(other is not tile and other.top <= tile.top and other.left <= tile.left
                                              and other.bottom >= tile.bottom and other.right >= tile.right
                                              for other in tiles)]  # not a letter's hole, as in O's


def tile_rows(tiles: list[Tile]) -> list[list[Tile]]:
    """The rows of exactly five tiles of one size side by side at an even pitch, each left to right."""
    rows, pending = [], sorted(tiles, key=lambda t: (t.top + t.bottom) / 2)
    while pending:
        first = pending[0]
        middle = (first.top + first.bottom) / 2
        group = [t for t in pending if abs((t.top + t.bottom) / 2 - middle) < first.side / 3
                 and abs(t.side - first.side) < first.side / 6]
        pending = [t for t in pending if t not in group]
        if len(group) != 5:
            continue
        group.sort(key=lambda t: t.left)
        pitches = np.diff([(t.left + t.right) / 2 for t in group])
        if pitches.min() < first.side * 0.95 or pitches.max() > 1.1 * pitches.min() or pitches.max() > 1.5 * first.side:
            continue
        rows.append(group)
    return rows


def board_of(rows: list[list[Tile]]) -> list[list[Tile]]:
    """The board: the largest set of rows in one column (same left edge and size), evenly spaced, top to bottom.

    Raises:
        ScreenshotError: no row of five tiles, or rows that are not evenly spaced.
    """
    if not rows:
        raise ScreenshotError("no Wordle board found: no row of five coloured tiles (green, yellow or grey)")
    columns: list[list[list[Tile]]] = []
    for row in rows:
        for column in columns:
            if (abs(column[0][0].left - row[0].left) < row[0].side / 4
                    and abs(column[0][0].side - row[0].side) < row[0].side / 8):
                column.append(row)
                break
        else:
            columns.append([row])
    board = max(columns, key=lambda column: (len(column), column[0][0].side))
    board.sort(key=lambda row: row[0].top)
    if len(board) > 1:
        pitches = np.diff([row[0].top for row in board])
        if pitches.max() > 1.1 * pitches.min() or pitches.min() < board[0][0].side * 0.95:
            raise ScreenshotError(f"the board's {len(board)} rows of tiles are not evenly spaced one under another")
    return board


def tile_ink(pixels: np.ndarray, tile: Tile, classes: np.ndarray) -> np.ndarray:
    """How much of a letter each pixel inside a tile is (0 the tile's own colour, 1 the letter's), over the tile's
    inner part (a tenth of its side in from each edge)."""
    inset = max(1, round(tile.side / 10))
    box = pixels[tile.top + inset:tile.bottom - inset, tile.left + inset:tile.right - inset].astype(np.float32)
    own = classes[tile.top + inset:tile.bottom - inset, tile.left + inset:tile.right - inset] == tile.colour
    fill = np.median(box[own], axis=0) if own.any() else np.median(box.reshape(-1, 3), axis=0)
    distance = np.sqrt(((box - fill) ** 2).sum(axis=2))
    scale = float(np.percentile(distance, 99))
    if scale < 3 * COLOUR_TOLERANCE:  # nothing stands out from the tile: no letter
        return np.zeros(distance.shape, dtype=np.float32)
    return np.clip(distance / scale, 0.0, 1.0)


def glyph_of(ink: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A letter's ink cut to its bounding box and scaled to GLYPH_SIZE squared, with its width-to-height ratio;
    None when there is no ink. Only the largest connected stroke counts (a capital letter is one): a mark beside
    it, as this project's page puts in a tile's corner, is left out.

    >>> import pytest; _ = pytest.importorskip("PIL", reason="the screenshot extra (Pillow)")  # not in '.[test]'
    >>> bar = np.zeros((30, 30)); bar[5:25, 12:18] = 1.0; bar[26:28, 26:28] = 1.0  # and a dot in the corner
    >>> glyph, aspect = glyph_of(bar)
    >>> glyph.shape, round(aspect, 2), float(glyph.min())
    ((20, 20), 0.3, 1.0)
    """
    from PIL import Image
    from scipy import ndimage

    labels, count = ndimage.label(ink > 0.5)
    if count == 0:
        return None
    largest = 1 + int(np.argmax(np.bincount(labels.ravel())[1:]))
    stroke = ndimage.binary_dilation(labels == largest, iterations=2)
    ink = np.where(stroke, ink, 0.0)
    rows, columns = np.flatnonzero((labels == largest).any(axis=1)), np.flatnonzero((labels == largest).any(axis=0))
    if len(rows) < 3 or len(columns) < 1:
        return None
    crop = np.ascontiguousarray(ink[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1], dtype=np.float32)
    scaled = Image.fromarray(crop, mode="F").resize((GLYPH_SIZE, GLYPH_SIZE), Image.Resampling.BILINEAR)
    return np.clip(np.asarray(scaled, dtype=np.float32), 0.0, 1.0), crop.shape[1] / crop.shape[0]


@cache
def glyph_templates() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """The shipped templates: bitmaps (fonts, 26, GLYPH_SIZE, GLYPH_SIZE) in [0, 1], aspects (fonts, 26), fonts."""
    with resources.files("wordle").joinpath("data").joinpath(GLYPHS_FILE).open("rb") as handle:
        data = np.load(handle)
        bitmaps = data["bitmaps"].astype(np.float32) / 255.0
        return bitmaps, data["aspects"].astype(np.float32), tuple(str(font) for font in data["fonts"])


def letter_scores(glyph: np.ndarray, aspect: float, bitmaps: np.ndarray | None = None,
                  aspects: np.ndarray | None = None) -> np.ndarray:
    """Each letter's score for one glyph (26, A first): the best over fonts of 1 - mean |glyph - template| less
    ASPECT_WEIGHT * |log(aspect / template's aspect)|."""
    if bitmaps is None or aspects is None:
        bitmaps, aspects, _ = glyph_templates()
    agreement = 1.0 - np.abs(bitmaps - glyph).mean(axis=(2, 3))
    return (agreement - ASPECT_WEIGHT * np.abs(np.log(aspect / aspects))).max(axis=0)


def best_word(scores: np.ndarray, guesses: tuple[str, ...]) -> tuple[str, float]:
    """The allowed guess whose letters score best together for a row's (5, 26) scores, and its mean score."""
    codes = _letter_codes(guesses)
    totals = scores[np.arange(5), codes].sum(axis=1)
    best = int(np.argmax(totals))
    return guesses[best], float(totals[best]) / 5


@cache
def _letter_codes(guesses: tuple[str, ...]) -> np.ndarray:
    """The guesses as an (n, 5) array of letter numbers (a=0), cached per list."""
    raw = np.frombuffer("".join(guesses).encode("ascii"), dtype=np.uint8)
    return (raw.reshape(len(guesses), 5) - ord("a")).astype(np.intp)


def read_board(data: bytes, guesses: tuple[str, ...],
               templates: tuple[np.ndarray, np.ndarray] | None = None) -> ReadBoard:
    """Read a Wordle board from an image's bytes (PNG, JPEG, WebP, ...): each row's word and colours.

    Args:
        data: the image file's bytes.
        guesses: the allowed guesses a row may read as (the Times' list, or the game's).
        templates: letter bitmaps and aspects to compare with (default: the shipped ones, glyph_templates).

    Raises:
        ScreenshotError: not an image, no board in it, a tile without a letter, or a row that is not a word.
    """
    pixels = load_image(data)
    classes, matched = colour_classes(pixels)
    board = board_of(tile_rows(find_tiles(classes)))
    rows = []
    for number, row in enumerate(board, start=1):
        scores = np.zeros((5, 26))
        for place, tile in enumerate(row):
            glyph = glyph_of(tile_ink(pixels, tile, classes))
            if glyph is None:
                raise ScreenshotError(f"row {number} of the board has no letter in tile {place + 1}: the board's "
                                      "letters must show (a share grid's squares alone cannot be reviewed)")
            scores[place] = letter_scores(*glyph, *(templates or (None, None)))
        word, score = best_word(scores, guesses)
        if score < LEAST_WORD_SCORE:
            raise ScreenshotError(f"row {number} of the board does not read as an allowed word (best {word.upper()}, "
                                  f"score {score:.2f} under {LEAST_WORD_SCORE})")
        letters = "".join(LETTERS[i] for i in scores.argmax(axis=1))
        rows.append(ReadRow(word=word, pattern=encode_colours([tile.colour for tile in row]),
                            scores=tuple(round(float(scores[i, LETTERS.index(c)]), 4) for i, c in enumerate(word)),
                            letters=letters))
    tiles = [tile for row in board for tile in row]
    inside = np.zeros(classes.shape, dtype=bool)
    for tile in tiles:
        inside[tile.top:tile.bottom, tile.left:tile.right] = True
    background = np.median(pixels[~inside].reshape(-1, 3), axis=0) if (~inside).any() else np.array([255, 255, 255])
    contrast_indices = [i for i, (_, rgb) in enumerate(palette()) if rgb in {hex_rgb(c) for c in CONTRAST_COLOURS}]
    contrast = bool(np.isin(matched[inside], contrast_indices).any())
    return ReadBoard(rows=tuple(rows), theme="dark" if float(background.mean()) < 128 else "light",
                     contrast=contrast, tile_pixels=round(float(np.mean([t.side for t in tiles]))))


def board_data(board: ReadBoard) -> dict:
    """A read board as JSON-ready data: the steps review takes, and each row as read."""
    return {
        "steps": board.steps,
        "rows": [{"word": row.word, "pattern": format_pattern(row.pattern), "letters_read": row.letters,
                  "scores": list(row.scores)} for row in board.rows],
        "theme": board.theme, "contrast": board.contrast, "tile_pixels": board.tile_pixels,
    }


def read_upload(data: bytes) -> dict:
    """What the web answers an uploaded screenshot with: board_data of the board, read against the Times' guess list
    (the review then checks each word against its own).

    Raises:
        ScreenshotError: as read_board (the web answers 400 with its message).
    """
    from .words import load_guesses

    return board_data(read_board(data, load_guesses("nyt").guesses))


__all__ = ["CONTRAST_COLOURS", "ReadBoard", "ReadRow", "ScreenshotError", "TILE_COLOURS", "Tile", "best_word",
           "board_data", "board_of", "colour_classes", "find_tiles", "glyph_of", "glyph_templates", "letter_scores",
           "load_image", "read_board", "read_upload", "tile_ink", "tile_rows"]
