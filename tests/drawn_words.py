"""Whether words are drawn on a frame: the words set alone as the screens set them, and found
pixel for pixel somewhere on the frame. A test that reads only the controller's text would pass
with a name it says but never draws."""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware.oled import lettering


def glyphs(words: str, size: int = lettering.SMALL, bold: bool = False) -> Image.Image:
    """`words` as `lettering.text` draws them, cropped to their ink."""
    room = int(lettering.width(words, size)) + 8
    probe = Image.new("1", (room, size + 8), lettering.OFF)
    lettering.text(ImageDraw.Draw(probe), (2, 2), words, size, bold=bold)
    return probe.crop(probe.getbbox())


def shows(frame: Image.Image, words: str, size: int = lettering.SMALL,
          bold: bool = False) -> bool:
    """True if `words` are on `frame` whole, in the type given, with clear pixels between
    their letters as when drawn alone (a cut "Margaretha van der B…" is not "... Berg")."""
    ink = glyphs(words, size, bold)
    w, h = ink.size
    want = ink.tobytes()
    frame = frame.convert("1")
    for y in range(frame.height - h + 1):
        for x in range(frame.width - w + 1):
            if frame.crop((x, y, x + w, y + h)).tobytes() == want:
                return True
    return False
