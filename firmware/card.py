"""The join card: a printable page with the table's Wi-Fi and address as QR codes, so a guest
scans one code to join the network and another to open the phone page.

The Wi-Fi code uses the `WIFI:` text that phone cameras (Android 10+, iOS 11+) read:
`WIFI:T:WPA;S:<name>;P:<password>;H:true;;`, with `\\ ; , : "` escaped by a backslash. Both codes
come from `qrcode`, the library that also draws the OLED's code: its SVG factory needs no Pillow.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import qrcode
import qrcode.image.svg
from PIL import Image

from firmware.config import WiFi
from firmware.oled.codes import draw_qr, qr_fits
from firmware.oled.screens import message

_SPECIAL = '\\;,:"'


def _escape(text: str) -> str:
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def wifi_text(wifi: WiFi) -> str:
    """The text of a Wi-Fi QR code for `wifi`."""
    parts = [f"T:{wifi.security}", f"S:{_escape(wifi.ssid)}"]
    if wifi.security != "nopass":
        parts.append(f"P:{_escape(wifi.password)}")
    if wifi.hidden:
        parts.append("H:true")
    return "WIFI:" + ";".join(parts) + ";;"


def two_codes(url: str, wifi: WiFi, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The OLED page with the Wi-Fi code on the left and the table's address on the right."""
    image = Image.new("1", size, 0)
    half = size[0] // 2
    room = min(half, size[1])
    draw_qr(image, wifi_text(wifi), (0, (size[1] - room) // 2), room)
    draw_qr(image, url, (half, (size[1] - room) // 2), room)
    return image


PAGE_SECONDS = 5.0     # the start screen alternates: both codes, then the words
CODES_SAID = "codes: left the Wi-Fi, right the table"   # what the two codes' page is


def start_pages(url: str, wifi: WiFi, words: Callable[[], Image.Image]) -> list[Image.Image]:
    """The start screen's pages: with a Wi-Fi name, both codes (Wi-Fi on the left), then
    `words()` (the address and PIN screen), then the network's name whole (a note beside the
    address had room for 11 characters of it); without one, the words alone. A Wi-Fi code
    too big for half the screen at two pixels a module (a long name and password) is left to
    the join card, which prints it large."""
    if not wifi.ssid:
        return [words()]
    if not qr_fits(wifi_text(wifi), 64):
        return [words(), message("Join the Wi-Fi", wifi.ssid, "its code: parlour card")]
    return [two_codes(url, wifi), words(),
            message("Join the Wi-Fi", wifi.ssid, CODES_SAID)]


def qr_svg(data: str, *, label: str) -> str:
    """An inline SVG of the code, scaled by CSS, with an accessible label."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2,
                        error_correction=qrcode.constants.ERROR_CORRECT_L)
    svg = image.to_string(encoding="unicode")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" class="qr" ', 1)


def _steps(url: str, wifi: WiFi) -> list[str]:
    """One network's figures: join its Wi-Fi (when it has a name), then open the table."""
    steps = []
    if wifi.ssid:
        shown = f"Password: <b>{escape(wifi.password)}</b>" if wifi.security != "nopass" \
            else "No password"
        steps.append(f"""<figure>{qr_svg(wifi_text(wifi), label=f"Join the Wi-Fi {wifi.ssid}")}
  <figcaption><b>1. Join the Wi-Fi</b><br>{escape(wifi.ssid)}<br>{shown}</figcaption></figure>""")
    number = "2. " if wifi.ssid else ""
    steps.append(f"""<figure>{qr_svg(url, label=f"Open the table at {url}")}
  <figcaption><b>{number}Open the table</b><br>{escape(url)}</figcaption></figure>""")
    return steps


def card_html(url: str, wifi: WiFi, *, title: str = "Parlour",
              hotspot: tuple[WiFi, str] | None = None) -> str:
    """The printable join card: Wi-Fi (when configured) and the table's address; with
    `hotspot` (its Wi-Fi, its address), a second pair for a table away from home Wi-Fi."""
    sections = [("At home" if hotspot else "", _steps(url, wifi))]
    if hotspot:
        sections.append(("Anywhere else: the box's own Wi-Fi, a minute after it starts",
                         _steps(hotspot[1], hotspot[0])))
    codes = sum(len(steps) for _, steps in sections)
    body = "\n".join((f"<h2>{escape(heading)}</h2>\n" if heading else "")
                     + '<div class="codes">\n' + "\n".join(steps) + "\n</div>"
                     for heading, steps in sections)
    size = 50 if codes <= 2 else 38           # four codes and their words still fit one page
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}: join the table</title>
<style>
  @page {{ margin: 12mm; }}   /* A4 or Letter, as the printer has it: one page either way */
  body {{ font: 12pt/1.35 Georgia, serif; color: #000; background: #fff; margin: 0; }}
  main {{ max-width: 160mm; margin: 0 auto; padding: 6mm; text-align: center;
         border: 0.4mm dashed #777; break-inside: avoid; }}   /* a card to cut out */
  h1 {{ font-size: 20pt; margin: 0 0 2mm; letter-spacing: .04em; }}
  h2 {{ font-size: 13pt; margin: 4mm 0 2mm; }}
  p {{ margin: 0 0 4mm; }}
  .codes {{ display: flex; justify-content: center; gap: 10mm; flex-wrap: wrap; }}
  figure {{ margin: 0; width: 70mm; break-inside: avoid; }}
  .qr {{ width: {size}mm; height: {size}mm; display: block; margin: 0 auto 2mm; }}
  figcaption {{ font-size: 11pt; overflow-wrap: anywhere; }}
</style></head>
<body><main>
<h1>{escape(title)}</h1>
<p>Point your phone's camera at {"each code in turn" if codes > 1 else "the code"}.</p>
{body}
</main></body></html>
"""
