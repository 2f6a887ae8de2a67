"""The OLED's screens: small functions that draw a view onto a 1-bit 128x64 image.

Nothing here knows about pins, the session or time: a screen is a picture of its arguments,
so the reference-PNG tests can pin each one down. The key line of every screen is big type.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import qrcode
from PIL import Image, ImageDraw, ImageFont

from firmware.views import Row, SpinFrame, TurnView

W, H = 128, 64
ON, OFF = 1, 0
SMALL, MEDIUM, BIG = 10, 12, 20
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font, rendered without antialiasing on a 1-bit image."""
    return ImageFont.load_default(size=size)


def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (W, H), OFF)
    return image, ImageDraw.Draw(image)


_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


@lru_cache(maxsize=4096)
def width(text: str, size: int) -> float:
    """Width as drawn on a 1-bit image (no antialiasing: wider than `font.getlength`).
    Remembered: fitting and wrapping measure the same words again for every frame."""
    return _MEASURE.textlength(text, font=font(size))


@lru_cache(maxsize=1024)
def _glyphs(words: str, size: int, mode: str, anchor: str, start: tuple[float, float]):
    """The bitmap of `words` and its offset, as Pillow's ImageDraw.text renders it for a
    position whose fractional part is `start` (rendering is most of a frame's time)."""
    return font(size).getmask2(words, mode, anchor=anchor, start=start, stroke_filled=True)


def _draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
               anchor: str, fill: int) -> None:
    """ImageDraw.text for one line on a 1-bit image, from remembered bitmaps."""
    if "\n" in words or draw.fontmode != "1":
        draw.text(xy, words, font=font(size), fill=fill, anchor=anchor)
        return
    ink, fill_ink = draw._getink(fill)
    ink = fill_ink if ink is None else ink
    if ink is None:
        return
    x, y = xy
    mask, offset = _glyphs(words, size, draw.fontmode, anchor,
                           (math.modf(x)[0], math.modf(y)[0]))
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def fit(text: str, room: int, sizes: Sequence[int] = (BIG, 18, 16, 14, MEDIUM, SMALL)) -> int:
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


def wrap(text: str, size: int, room: int = W - 2) -> list[str]:
    """Words of `text` in lines no wider than `room` (a lone long word is clipped)."""
    lines: list[str] = []
    for word in text.split():
        if lines and width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(clip(word, size, room))
    return lines


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int, *,
         anchor: str = "la", bold: bool = False, fill: int = ON) -> None:
    """Draw `words`; bold is drawn twice one pixel apart (crisper than a stroke at 1 bit)."""
    _draw_text(draw, xy, words, size, anchor, fill)
    if bold:
        _draw_text(draw, (xy[0] + 1, xy[1]), words, size, anchor, fill)


def centred(draw: ImageDraw.ImageDraw, y: float, words: str, size: int, *,
            bold: bool = False, fill: int = ON) -> None:
    text(draw, (W // 2, y), clip(words, size, W - 2), size, anchor="mt", bold=bold, fill=fill)


def header(draw: ImageDraw.ImageDraw, left: str, right: str = "") -> None:
    """A small top line: the game on the left, a detail on the right, a rule beneath."""
    room = W - 4 - (int(width(right, SMALL)) + 4 if right else 0)
    text(draw, (0, 0), clip(left, SMALL, room), SMALL)
    if right:
        text(draw, (W, 0), right, SMALL, anchor="ra")
    draw.line((0, 12, W - 1, 12), fill=ON)


def footer(draw: ImageDraw.ImageDraw, words: str) -> None:
    if words:
        centred(draw, H - 11, words, SMALL)


# -- screens ---------------------------------------------------------------------------------

def startup(url: str, pin: str, note: str = "") -> Image.Image:
    """The phone page's QR code on the left; the address and PIN beside it."""
    image, draw = canvas()
    draw_qr(image, url, (0, 3), 58)
    host = url.split("://", 1)[-1].rstrip("/")
    x = 61
    text(draw, (x, 0), "Parlour", MEDIUM, bold=True)
    lines = [host] if width(host, SMALL) <= W - x else host.split(":", 1)
    if len(lines) == 2:
        lines[1] = ":" + lines[1]
    y = 16
    for line in lines:
        text(draw, (x, y), clip(line, SMALL, W - x), SMALL)
        y += 11
    text(draw, (x, 40), f"PIN {pin}" if pin else "", MEDIUM, bold=True)
    text(draw, (x, 51), clip(note or "press knob", SMALL, W - x), SMALL)
    return image


def draw_qr(image: Image.Image, data: str, at: tuple[int, int], room: int) -> None:
    """A QR code, dark modules on a lit square with a quiet zone, as big as `room` allows."""
    code = qrcode.QRCode(border=0, box_size=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    n = len(matrix)
    scale = max(1, (room - 4) // n)
    side = n * scale + 4
    x0, y0 = at[0] + (room - side) // 2, at[1] + (room - side) // 2
    draw = ImageDraw.Draw(image)
    draw.rectangle((x0, y0, x0 + side - 1, y0 + side - 1), fill=ON)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                x, y = x0 + 2 + c * scale, y0 + 2 + r * scale
                draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=OFF)


def choice_list(heading: str, items: Sequence[str], index: int, detail: str = "") -> Image.Image:
    """A knob menu: the chosen item big and boxed, its neighbours small above and below."""
    image, draw = canvas()
    header(draw, heading, f"{index + 1}/{len(items)}" if items else "")
    if not items:
        return image
    if index > 0:
        centred(draw, 14, items[index - 1], SMALL)
    item = items[index]
    size = fit(item, W - 12, (16, 14, MEDIUM, SMALL))
    draw.rectangle((0, 26, W - 1, 45), outline=ON)
    text(draw, (W // 2, 36), clip(item, size, W - 8), size, anchor="mm", bold=True)
    below = detail or (items[index + 1] if index + 1 < len(items) else "")
    if below:
        centred(draw, 50, below, SMALL)
    return image


def game_menu(titles: Sequence[str], index: int, detail: str) -> Image.Image:
    """Turn the knob to pick a game (detail: players and randomizer), press to choose."""
    return choice_list("Choose a game", titles, index, detail)


def menu(items: Sequence[str], index: int) -> Image.Image:
    return choice_list("Menu", items, index)


def joining(title: str, joined: Sequence[bool], hint: str) -> Image.Image:
    """One box per seat button, filled once that seat has joined."""
    image, draw = canvas()
    header(draw, title, f"{sum(joined)} in")
    centred(draw, 15, "Press your seat", MEDIUM, bold=True)
    n = max(1, len(joined))
    box, gap = 16, 4
    x0 = (W - (n * box + (n - 1) * gap)) // 2
    for seat, on in enumerate(joined):
        x = x0 + seat * (box + gap)
        draw.rectangle((x, 32, x + box - 1, 47), outline=ON, fill=ON if on else OFF)
        text(draw, (x + box // 2, 40), str(seat + 1), SMALL, anchor="mm",
             fill=OFF if on else ON)
    footer(draw, hint)
    return image


def turn(view: TurnView) -> Image.Image:
    """Whose turn it is, big, and what they must do: "Ann" / "flick to spin".

    A long instruction (an assisted game's "Move your cat 3, then 5 ...") takes the lower
    half in small type and the name shrinks to make room."""
    image, draw = canvas()
    header(draw, view.heading, view.corner)
    lines = wrap(view.action, MEDIUM)
    if len(lines) <= (1 if view.detail else 2):
        size = fit(view.name, W - 2, (22, BIG, 18, 16, 14))
        centred(draw, 16, view.name, size, bold=True)
        for i, line in enumerate(lines):
            centred(draw, 40 + i * 12, line, MEDIUM)
        if len(lines) == 1:
            footer(draw, view.detail)
        return image
    size = fit(view.name, W - 2, (16, 14, MEDIUM))
    centred(draw, 14, view.name, size, bold=True)
    lines = wrap(view.action, SMALL)
    if len(lines) > 3:
        lines = lines[:2] + [clip(lines[2] + " …", SMALL, W - 2)]
    for i, line in enumerate(lines):
        centred(draw, 31 + i * 11, line, SMALL)
    return image


def result(heading: str, values: str, lines: Sequence[str]) -> Image.Image:
    """The spin's result in big type, then what it means in words."""
    image, draw = canvas()
    header(draw, heading)
    words = [w for line in lines for w in wrap(line, SMALL)]
    room = 2 if len(words) <= 2 else 3               # long words: smaller values, 3 lines
    top = 41 if room == 2 else 31
    size = fit(values, W - 2, (24, 22, BIG, 16, MEDIUM) if room == 2 else (16, MEDIUM))
    centred(draw, 14, values, size, bold=True)
    if len(words) > room:
        words = words[:room - 1] + [clip(words[room - 1] + " …", SMALL, W - 2)]
    for i, line in enumerate(words):
        centred(draw, top + i * 11, line, SMALL)
    return image


def choose(view: TurnView, value: str) -> Image.Image:
    """A knob choice (Domino Rex): the value being picked, boxed and big."""
    image, draw = canvas()
    header(draw, view.heading, view.corner)
    centred(draw, 14, view.name, MEDIUM, bold=True)
    draw.rectangle((44, 28, 83, 51), outline=ON)
    text(draw, (64, 40), value, BIG, anchor="mm", bold=True)
    text(draw, (36, 40), "<", MEDIUM, anchor="rm")
    text(draw, (92, 40), ">", MEDIUM, anchor="lm")
    footer(draw, view.detail or "press to choose")
    return image


def scores(title: str, rows: Sequence[Row], first: int = 0) -> Image.Image:
    """Name and standing of each player, four at a time (turn the knob for more)."""
    image, draw = canvas()
    header(draw, title, f"{first + 1}-{min(first + 4, len(rows))}/{len(rows)}"
           if len(rows) > 4 else "")
    for i, row in enumerate(rows[first:first + 4]):
        y = 15 + i * 12
        if row.marked:
            draw.rectangle((0, y, W - 1, y + 11), fill=ON)
        fill = OFF if row.marked else ON
        name = clip(row.name, SMALL, 52)
        figure = clip(row.figure, SMALL, W - 8 - width(name, SMALL))
        text(draw, (W - 1, y + 1), figure, SMALL, anchor="ra", fill=fill)
        text(draw, (2, y + 1), name, SMALL, fill=fill)
    return image


def game_over(title: str, winners: str, verb: str, detail: str) -> Image.Image:
    image, draw = canvas()
    header(draw, title, "Game over")
    size = fit(winners, W - 2, (22, BIG, 18, 16, 14, MEDIUM))
    centred(draw, 16, winners, size, bold=True)
    centred(draw, 40, verb, MEDIUM)
    footer(draw, detail)
    return image


def message(heading: str, big: str, small: str = "") -> Image.Image:
    """A plain notice: resumed game, the PIN, a confirmation question."""
    image, draw = canvas()
    header(draw, heading)
    lines = wrap(big, MEDIUM) if width(big, 16) > W - 2 else [big]
    if len(lines) == 1:
        centred(draw, 18, big, fit(big, W - 2, (22, BIG, 18, 16, 14, MEDIUM)), bold=True)
    else:
        for i, line in enumerate(lines[:2]):
            centred(draw, 16 + i * 13, line, MEDIUM, bold=True)
    for i, line in enumerate(wrap(small, SMALL)[:2]):
        centred(draw, 42 + i * 11, line, SMALL)
    return image


def flash(base: Image.Image, words: str) -> Image.Image:
    """A short notice boxed over the current screen ("Not your turn", a refusal)."""
    image = base.copy()
    draw = ImageDraw.Draw(image)
    lines = wrap(words, MEDIUM, W - 12)[:3]
    tall = 13 * len(lines) + 6
    top = (H - tall) // 2
    draw.rectangle((2, top, W - 3, top + tall), fill=OFF, outline=ON)
    draw.rectangle((3, top + 1, W - 4, top + tall - 1), outline=ON)
    for i, line in enumerate(lines):
        centred(draw, top + 4 + i * 13, line, MEDIUM, bold=(len(lines) == 1))
    return image


# -- the spin ---------------------------------------------------------------------------------

def spin(frame: SpinFrame) -> Image.Image:
    """One frame of the spin: the Indicator's dial, a spinner or dice, plus who spins."""
    image, draw = canvas()
    if frame.kind == "dice":
        draw_dice(draw, frame)
    else:
        draw_dial(draw, frame)
    return image


def draw_dial(draw: ImageDraw.ImageDraw, frame: SpinFrame) -> None:
    """A round dial of `faces` sectors with one arrow per value (two on the Indicator)."""
    cx, cy, r = 31, 32, 30
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ON)
    for face in range(frame.faces):
        edge = face / frame.faces * 2 * math.pi
        draw.line((cx + (r - 3) * math.sin(edge), cy - (r - 3) * math.cos(edge),
                   cx + r * math.sin(edge), cy - r * math.cos(edge)), fill=ON)
        if frame.faces <= 8:
            mid = (face + 0.5) / frame.faces * 2 * math.pi
            label = frame.labels[face] if frame.labels else str(face + 1)
            text(draw, (cx + (r - 9) * math.sin(mid), cy - (r - 9) * math.cos(mid)),
                 clip(label, SMALL, 10), SMALL, anchor="mm")
    for i, angle in enumerate(frame.angles):
        length = r - 14 if i == 0 else r - 19
        tip = (cx + length * math.sin(angle), cy - length * math.cos(angle))
        tail = (cx - 5 * math.sin(angle), cy + 5 * math.cos(angle))
        draw.line((tail, tip), fill=ON, width=3 if i == 0 else 1)
        side = (math.cos(angle), math.sin(angle))
        back = (tip[0] - 5 * math.sin(angle), tip[1] + 5 * math.cos(angle))
        head = [tip, (back[0] + 3 * side[0], back[1] + 3 * side[1]),
                (back[0] - 3 * side[0], back[1] - 3 * side[1])]
        draw.polygon(head, fill=ON if i == 0 else OFF, outline=ON)
    draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=ON)
    x = 67
    text(draw, (x, 0), clip(frame.name, MEDIUM, W - x), MEDIUM, bold=True)
    shown = " · ".join(frame.shown if frame.settled else
                       (frame.labels[v - 1] if frame.labels else str(v) for v in frame.faces_up))
    size = fit(shown, W - x, (22, BIG, 16, MEDIUM, SMALL))
    text(draw, ((x + W) // 2, 36), shown, size, anchor="mm", bold=True)
    if not frame.settled:
        text(draw, (x, 52), "press: stop", SMALL)


def draw_dice(draw: ImageDraw.ImageDraw, frame: SpinFrame) -> None:
    """`count` dice side by side, tumbling (a small hop) until they settle."""
    n = len(frame.shown)
    side, gap = 30, 8
    x0 = (W - (n * side + (n - 1) * gap)) // 2
    centred(draw, 0, frame.name, MEDIUM, bold=True)
    for i, face in enumerate(frame.faces_up):
        hop = 0 if frame.settled else int(3 * abs(math.sin(frame.angles[i])))
        x, y = x0 + i * (side + gap), 24 - hop
        draw.rounded_rectangle((x, y, x + side - 1, y + side - 1), radius=5, outline=ON,
                               width=2)
        for col, row in PIPS.get(face, []):
            px, py = x + 7 + col * 8, y + 7 + row * 8
            draw.ellipse((px - 2, py - 2, px + 2, py + 2), fill=ON)
        if face not in PIPS:
            text(draw, (x + side // 2, y + side // 2), str(face), MEDIUM, anchor="mm")
