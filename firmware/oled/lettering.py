"""Type on a 128x64 OLED: Terminus at its bitmap strikes, measured and drawn as a 1-bit
panel shows it, and words fitted, cut or wrapped to the pixels a line has.

Letters whose ink would touch are drawn a pixel apart; a sum, a number and its chips, a short
bracket stay on one line, so a wrapped line never reads as something else.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

W, H = 128, 64
ON, OFF = 1, 0
# Terminus Font (SIL OFL 1.1, fonts/OFL.txt): a bitmap font drawn for small screens, with a
# designed bold. Its strikes are 12, 14, 16, 18, 20, 22, 24, 28 and 32 px (cells 6x12 to 16x32).
FONTS = Path(__file__).parent.parent / "fonts"
SIZES = (12, 14, 16, 18, 20, 22, 24, 28, 32)
SMALL, MEDIUM, BIG = 12, 14, 20
NO_BOLD = (12, 14)            # 12 has no bold of its own; 14's bold merges letters
LINE = 12                     # the pitch of small type


@lru_cache(maxsize=None)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Terminus at one of its bitmap strikes (a size between strikes takes the next smaller).
    Its 14 px bold fills the whole 8 px cell, so neighbours touch ("rn" reads "m"): at 14 px
    bold is drawn regular."""
    strike = max([s for s in SIZES if s <= size] or [SIZES[0]])
    name = "terminus-bold.otb" if bold and strike not in NO_BOLD else "terminus-normal.otb"
    return ImageFont.truetype(str(FONTS / name), strike)


def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (W, H), OFF)
    return image, ImageDraw.Draw(image)


_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


@lru_cache(maxsize=4096)
def width(text: str, size: int) -> float:
    """Width as drawn on a 1-bit image (bold Terminus is as wide as regular), with the pixel
    put between letters that would touch (`_runs`). Remembered: fitting and wrapping measure
    the same words again for every frame."""
    runs = _runs(text, size)
    return sum(_MEASURE.textlength(run, font=font(size)) for run, _ in runs) + \
        sum(gap for _, gap in runs)


@lru_cache(maxsize=None)
def _edges(size: int, char: str) -> tuple[bool, bool]:
    """Whether `char`'s ink reaches the left and the right edge of its cell at `size`, in the
    regular or the bold (Terminus's 14 px "m" fills its cell, so "am" drew as one blot)."""
    left = right = False
    for bold in (False, True):
        face = font(size, bold)
        advance = int(face.getlength(char))
        if not advance or char.isspace():
            continue
        mask = Image.new("1", (advance + 4, size + 8), OFF)
        ImageDraw.Draw(mask).text((0, 0), char, font=face, fill=ON)
        box = mask.getbbox()
        if box:
            left, right = left or box[0] <= 0, right or box[2] >= advance
    return left, right


@lru_cache(maxsize=2048)
def _runs(text: str, size: int) -> tuple[tuple[str, int], ...]:
    """`text` in runs drawn as Pillow draws them, each with the gap (0 or 1 pixel) after it:
    a gap goes between two letters whose ink would otherwise join."""
    runs, start = [], 0
    for i in range(1, len(text)):
        if _edges(size, text[i - 1])[1] and _edges(size, text[i])[0]:
            runs.append((text[start:i], 1))
            start = i
    runs.append((text[start:], 0))
    return tuple(runs)


@lru_cache(maxsize=1024)
def _glyphs(words: str, size: int, bold: bool, mode: str, anchor: str,
            start: tuple[float, float]):
    """The bitmap of `words` and its offset, as Pillow's ImageDraw.text renders it for a
    position whose fractional part is `start` (rendering is most of a frame's time)."""
    return font(size, bold).getmask2(words, mode, anchor=anchor, start=start)


def _draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
               anchor: str, fill: int, bold: bool = False) -> None:
    """ImageDraw.text for one line on a 1-bit image, from remembered bitmaps."""
    if "\n" in words or draw.fontmode != "1":
        draw.text(xy, words, font=font(size, bold), fill=fill, anchor=anchor)
        return
    ink, fill_ink = draw._getink(fill)
    ink = fill_ink if ink is None else ink
    if ink is None:
        return
    x, y = xy
    runs = _runs(words, size)
    if len(runs) > 1:               # letters that would touch: each run drawn from the left
        x -= width(words, size) * {"l": 0, "m": 0.5, "r": 1}.get(anchor[0], 0)
        anchor = "l" + anchor[1:]
    for run, gap in runs:
        mask, offset = _glyphs(run, size, bold, draw.fontmode, anchor,
                               (math.modf(x)[0], math.modf(y)[0]))
        draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)
        x += _MEASURE.textlength(run, font=font(size)) + gap


def fit(text: str, room: int, sizes: Sequence[int] = (BIG, 18, 16, MEDIUM, SMALL)) -> int:
    """The biggest size in `sizes` at which `text` fits `room` pixels (the smallest otherwise)."""
    for size in sizes:
        if width(text, size) <= room:
            return size
    return sizes[-1]


def clip(text: str, size: int, room: int) -> str:
    """`text` cut with an ellipsis so it fits `room` pixels."""
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


SUM = re.compile(r"\d+ \+ \d+ = \d+\S*|\S+")     # "1 + 1 = 2," one word, else words


UNIT = re.compile(r"(?:chips?|points?)[.,;:)]?")
ENDING_NUMBER = re.compile(r"\d+[.!?]")           # a sentence's last word, a number


def unbreakable(text: str) -> list[str]:
    """The words of `text`, a short bracket such as "(7 left)" and a sum such as "4 + 3 = 7"
    kept as one word ("1 + 1" / "= 2" read as two sums), as are a number and its chips or
    points, and a number ending a sentence and the word before it ("then" / "1." read as a
    list's first item)."""
    words: list[str] = []
    for word in SUM.findall(text):
        if words and words[-1].startswith("(") and ")" not in words[-1] and \
                word.endswith(")") and len(words[-1]) + len(word) < 12:
            words[-1] = f"{words[-1]} {word}"
        elif words and (words[-1].isdigit() and UNIT.fullmatch(word)
                        or ENDING_NUMBER.fullmatch(word)):
            words[-1] = f"{words[-1]} {word}"    # "1 chip", "then 1.": never a number alone
        else:
            words.append(word)
    return words


def _pieces(word: str, size: int, room: int) -> list[str]:
    """A word too long for a line, in pieces that fit: after its hyphens or a path's slashes
    where it has them ("Vanderbilt-" / "Oppenheimer", "/var/lib/parlour/" / "parlour.db"),
    else as many letters as fit; never cut off."""
    if width(word, size) <= room:
        return [word]
    parts = [part for part in re.split(r"(?<=[-/])", word) if part]
    out: list[str] = []
    for part in parts:
        if out and width(out[-1] + part, size) <= room:
            out[-1] += part
            continue
        while width(part, size) > room:
            cut = max(1, max(n for n in range(1, len(part) + 1)
                             if width(part[:n], size) <= room))
            out.append(part[:cut])
            part = part[cut:]
        if part:
            out.append(part)
    return out


def wrap(text: str, size: int, room: int = W - 2) -> list[str]:
    """Words of `text` in lines no wider than `room` (a lone long word in pieces, never cut);
    a short bracket stays on one line ("(7" / "left)" would be misread)."""
    lines: list[str] = []
    for word in unbreakable(text):
        if lines and width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.extend(_pieces(word, size, room))
    return lines


def two_line_name(name: str, room: int) -> tuple[int, list[str]]:
    """A player's name in `room` pixels, at most two lines: one line at MEDIUM or SMALL where
    it fits; else two small lines, a word broken with a hyphen; a name longer still keeps its
    start and its end ("Margaretha" / "…der Berg"), where two such names differ ("Margareth…"
    was both Margaretha van der Berg and Margaretha van der Bosch)."""
    for size in (MEDIUM, SMALL):
        if width(name, size) <= room:
            return size, [name]
    first = wrap(name, SMALL, room)[0]
    if not name.startswith(first + " "):            # a word broken: "Bartholo-" / "mew"
        while len(first) > 1 and width(first + "-", SMALL) > room:
            first = first[:-1]
        rest, first = name[len(first):], first + "-"
    else:
        rest = name[len(first) + 1:]
    if width(rest, SMALL) > room:
        tail = rest
        while tail and width("…" + tail, SMALL) > room:
            tail = tail[1:]
        rest = "…" + tail.lstrip()
    return SMALL, [first, rest]


def wrapped(lines: Sequence[str], size: int = SMALL, room: int = W - 2) -> list[str]:
    """Every sentence of `lines` wrapped to `room`, one after another."""
    return [w for line in lines for w in wrap(line, size, room)]


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int, *,
         anchor: str = "la", bold: bool = False, fill: int = ON) -> None:
    """Draw `words`; bold is the font's own bold (never a smear that merges letters)."""
    _draw_text(draw, xy, words, size, anchor, fill, bold)


def centred(draw: ImageDraw.ImageDraw, y: float, words: str, size: int, *,
            bold: bool = False, fill: int = ON) -> None:
    text(draw, (W // 2, y), clip(words, size, W - 2), size, anchor="mt", bold=bold, fill=fill)
