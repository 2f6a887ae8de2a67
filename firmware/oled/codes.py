"""What the start screen's codes are made of: the phone page's address in lines that are
typed as read, and QR codes drawn as big as the room allows (never too fine to scan).
"""

from __future__ import annotations

import re

import qrcode
from PIL import Image, ImageDraw

from firmware.oled.lettering import OFF, ON, SMALL, clip, width


def break_address(host: str, room: int) -> list[str]:
    """"192.168.1.23:8080" in lines no wider than `room`, broken after a dot or before the
    port (never inside a number, so the address is typed as read)."""
    pieces = re.findall(r"[^.:]*\.|:+[^.:]*|[^.:]+", host)      # IPv6's "::" kept whole
    lines: list[str] = []
    for piece in pieces:
        if lines and width(lines[-1] + piece, SMALL) <= room:
            lines[-1] += piece
        else:
            lines.append(piece)
    return [clip(line, SMALL, room) for line in lines]


def qr_matrix(data: str) -> list[list[bool]]:
    """The modules of the smallest code for `data` (low error correction: it is printed or lit,
    not scuffed), without its quiet zone."""
    code = qrcode.QRCode(border=0, box_size=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    return code.get_matrix()


MIN_MODULE = 2         # pixels a module at the least: one pixel (0.17 mm) is too fine to scan


def qr_fits(data: str, room: int) -> bool:
    """Whether `data`'s code draws at `MIN_MODULE` pixels a module or more in `room`."""
    return (room - 4) // len(qr_matrix(data)) >= MIN_MODULE


def draw_qr(image: Image.Image, data: str, at: tuple[int, int], room: int) -> None:
    """A QR code, dark modules on a lit square with a quiet zone, as big as `room` allows."""
    matrix = qr_matrix(data)
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
