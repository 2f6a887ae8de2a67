"""Send an OLED only the bytes that changed since the last frame.

SSD1306/SH1106 memory is 8 pages (8-pixel bands, top to bottom) of 128 column bytes, bit 0
the band's top row. luma's display() rewrites all 1024 bytes every frame (~23 ms at 400 kHz
I2C); PageWriter keeps what the panel holds, and for each page that differs sends only the
span of columns that changed: first the address, then the bytes.

    ADDRESSING   chip      address one page's columns c0..c1 (x = column in the image)
    "window"     SSD1306   0x21 c0 c1, 0x22 p p     (luma leaves it in horizontal mode)
    "page"       SH1106    0xB0|p, 0x00|low(c0), 0x10|high(c0)   (column + offset 2;
                           no end address: the pointer just advances)
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

PAGE_ROWS = 8
SSD1306_COLUMNADDR = 0x21
SSD1306_PAGEADDR = 0x22
SH1106_PAGE = 0xB0

# Bit-reversal of every byte: PIL packs the leftmost pixel into the high bit, the panel wants
# the top row in the low bit.
_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _window(page: int, first: int, last: int, colstart: int) -> tuple[int, ...]:
    return (SSD1306_COLUMNADDR, colstart + first, colstart + last,
            SSD1306_PAGEADDR, page, page)


def _page(page: int, first: int, last: int, colstart: int) -> tuple[int, ...]:
    column = colstart + first
    return (SH1106_PAGE | page, column & 0x0F, 0x10 | (column >> 4))


ADDRESSING: dict[str, Callable[[int, int, int, int], tuple[int, ...]]] = {
    "window": _window,
    "page": _page,
}


def to_pages(image: Image.Image) -> list[bytes]:
    """A width x height image (height a multiple of 8) as panel memory: one bytes per page."""
    if image.mode != "1":
        image = image.convert("1", dither=Image.Dither.NONE)
    stride = image.height // PAGE_ROWS
    # Transposed, each image column is a row whose packed bytes are that column's pages.
    packed = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [packed[page::stride] for page in range(stride)]


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column where two pages differ; None if they are equal."""
    if old == new:
        return None
    first = next(i for i in range(len(new)) if old[i] != new[i])
    last = next(i for i in range(len(new) - 1, -1, -1) if old[i] != new[i])
    return first, last


def addressing_for(device) -> tuple[str, int] | None:
    """("window" | "page", column offset) for luma's ssd1306 / sh1106 (and kin); None for
    devices that take whole images (luma's dummy, or anything else)."""
    from luma.oled.device import sh1106, ssd1306
    if isinstance(device, sh1106):
        return "page", getattr(device, "_page_address_offset", 2)
    if isinstance(device, ssd1306):
        return "window", getattr(device, "_colstart", 0)
    return None


class PageWriter:
    """Writes frames to a luma device's command()/data(), page spans that changed only.

    `memory` is what the panel is believed to hold (None: unknown, so the next frame is sent
    whole). If a write fails part way, memory becomes unknown and the error goes up.
    """

    def __init__(self, device, addressing: str = "window", colstart: int = 0):
        self.device = device
        self.address = ADDRESSING[addressing]
        self.colstart = colstart
        self.memory: list[bytes] | None = None
        self.bytes_sent = 0        # data bytes, all frames
        self.command_bytes = 0     # address command bytes, all frames

    def invalidate(self) -> None:
        """Forget the panel's contents (new device, or after a fault): next frame is whole."""
        self.memory = None

    def write(self, image: Image.Image) -> int:
        """Send what differs between `image` (device-sized) and the panel; returns data bytes."""
        pages = to_pages(self.device.preprocess(image))
        old = self.memory
        self.memory = None
        sent = 0
        try:
            for number, page in enumerate(pages):
                span = (0, len(page) - 1) if old is None else changed_span(old[number], page)
                if span is None:
                    continue
                first, last = span
                command = self.address(number, first, last, self.colstart)
                self.device.command(*command)
                self.command_bytes += len(command)
                self.device.data(list(page[first:last + 1]))
                sent += last - first + 1
        finally:
            self.bytes_sent += sent
        self.memory = pages
        return sent
