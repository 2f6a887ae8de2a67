"""The OLED's font: every digit unmistakable at every size the screens draw, letters never
touching. Sizes are Terminus's strikes (firmware.oled.screens.SIZES), regular and bold.

The threshold: two digits drawn at the same pen position (as the screen aligns them in a line)
must differ in at least a quarter of the glyph's height in pixels, ceil(size / 4): one whole
stroke of the digit. At 12 px that is 3 pixels, the open top of a 6 against an 8.
"""

from __future__ import annotations

import itertools
import math
import string

import pytest
from PIL import Image, ImageChops, ImageDraw

from firmware.oled import lettering

STYLES = [(size, bold) for size in lettering.SIZES for bold in (False, True)]


def glyph(size: int, bold: bool, char: str) -> Image.Image:
    image = Image.new("1", (size * 2, size * 2), 0)
    ImageDraw.Draw(image).text((size // 2, size // 2), char, font=lettering.font(size, bold),
                               fill=1)
    return image


def differing(a: Image.Image, b: Image.Image) -> int:
    return ImageChops.logical_xor(a, b).histogram()[-1]


@pytest.mark.parametrize("size,bold", STYLES)
def test_font_every_pair_of_digits_differs_clearly(size, bold):
    digits = {d: glyph(size, bold, d) for d in string.digits}
    need = math.ceil(size / 4)
    close = [(a + b, differing(digits[a], digits[b]))
             for a, b in itertools.combinations(string.digits, 2)
             if differing(digits[a], digits[b]) < need]
    assert not close, f"{size} px{' bold' if bold else ''}: digits too alike {close}"


# Letters drawn edge to edge in every monospaced bitmap font (their shape is unmistakable);
# every other letter and digit must leave a blank column.
WIDE = set("mwMWTY")
NARROW = "".join(c for c in string.ascii_letters + string.digits if c not in WIDE)


def filling(font, size: int) -> str:
    """The NARROW characters whose ink fills their whole cell (they touch a neighbour)."""
    advance = font.getlength("n")
    out = ""
    for char in NARROW:
        image = Image.new("1", (size * 2, size * 2), 0)
        ImageDraw.Draw(image).text((size // 2, size // 2), char, font=font, fill=1)
        box = image.getbbox()
        if box is not None and box[2] - box[0] >= advance:
            out += char
    return out


@pytest.mark.parametrize("size,bold", STYLES)
def test_font_letters_never_touch_their_neighbours(size, bold):
    """Each glyph leaves a blank column in its cell, so "rn" never reads "m" (a smeared bold
    merged "Not your turn" into "Not your tum")."""
    touching = filling(lettering.font(size, bold), size)
    assert not touching, f"{size} px{' bold' if bold else ''}: {touching} fill the cell"


def test_font_14px_bold_would_merge_so_it_is_drawn_regular():
    """The check can fail: Terminus's own 14 px bold fills its cells ("nn" merges)."""
    from PIL import ImageFont
    raw = ImageFont.truetype(str(lettering.FONTS / "terminus-bold.otb"), 14)
    assert "n" in filling(raw, 14)
    assert 14 in lettering.NO_BOLD and not filling(lettering.font(14, True), 14)


def test_font_is_the_shipped_terminus_with_its_licence():
    assert "SIL OPEN FONT LICENSE" in (lettering.FONTS / "OFL.txt").read_text()
    assert lettering.font(12).getname()[0].startswith("Terminus")


def ink_runs(image: Image.Image) -> int:
    """How many groups of inked columns an image has (letters apart: one group each)."""
    columns = image.convert("L").reduce((1, image.height)).tobytes()   # any ink: above 0
    return sum(1 for x, ink in enumerate(columns) if ink and (x == 0 or not columns[x - 1]))


@pytest.mark.parametrize("size,bold", STYLES)
def test_font_two_letters_side_by_side_never_join(size, bold):
    """Any letter or digit beside any other keeps a blank column between them as the screens
    draw text: at 14 px "m" fills its cell and "a" reaches its right edge, so "Diamond" and
    "Emma" drew "am" and "mm" as one blot; such a pair gets a pixel between."""
    chars = string.ascii_letters + string.digits
    single = [c for c in chars if ink_runs(drawn(c, size, bold)) == 1]
    joined = [a + b for a in single for b in single if ink_runs(drawn(a + b, size, bold)) != 2]
    assert not joined, f"{size} px{' bold' if bold else ''}: {joined[:12]} join"


def drawn(words: str, size: int, bold: bool) -> Image.Image:
    image = Image.new("1", (size * (len(words) + 2), size * 2), 0)
    lettering.text(ImageDraw.Draw(image), (size // 2, size // 2), words, size, bold=bold)
    return image


def test_font_14px_am_would_join_without_the_gap():
    """The check can fail: Pillow alone draws Terminus's 14 px "am" as one blot."""
    image = Image.new("1", (40, 28), 0)
    ImageDraw.Draw(image).text((7, 7), "am", font=lettering.font(14), fill=1)
    assert ink_runs(image) == 1 and ink_runs(drawn("am", 14, False)) == 2
