"""The QR codes a player scans, read back by a real decoder (ZXing's, through zxing-cpp) from
the pixels the OLED lights and from the join card as chromium prints it: each code must give
exactly the address or Wi-Fi text it was drawn from. The OLED's codes are read at its own
size (one pixel a pixel) and at 4x, as a phone's camera sees the panel larger; the card from a
screenshot of its printed page."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from browser_support import CHROMIUM, browser  # noqa: F401 - a fixture, by its name
from firmware.card import WiFi, card_html, start_pages, wifi_text
from firmware.oled import codes, screens

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is not installed (make test "
                               "installs it with the dev extras)")

ADDRESSES = ["http://192.168.178.123:8080/", "http://10.42.0.1:8080/",
             "http://parlour-front-room.local:65535/", "http://[fd00::1a2b]:8080/"]
NETWORKS = [WiFi("Home", "secret123"), WiFi("Parlour-1a2b", "k7mp-2xqa-rj9c"),
            WiFi('Den;1:"x"', 'p;a,s\\w'),                     # every character escaped
            WiFi("Café ☕", "pässwörd"), WiFi("A" * 20, "B" * 20),
            WiFi("Open house", "", security="nopass")]


def read(image: Image.Image, scale: int = 1) -> set[str]:
    """The texts of every code a decoder finds in `image`, drawn `scale` times larger."""
    grey = image.convert("L")
    if scale > 1:
        grey = grey.resize((grey.width * scale, grey.height * scale), Image.NEAREST)
    return {found.text for found in zxingcpp.read_barcodes(grey)}


@pytest.mark.parametrize("scale", [1, 4])
@pytest.mark.parametrize("url", ADDRESSES)
def test_codes_scan_the_start_screens_address(url, scale):
    assert read(screens.startup(url, "156283"), scale) == {url}


@pytest.mark.parametrize("scale", [1, 4])
@pytest.mark.parametrize("wifi", NETWORKS, ids=lambda w: w.ssid)
def test_codes_scan_both_codes_of_the_start_screen(wifi, scale):
    """The first page with a Wi-Fi name: its code on the left and the address on the right,
    each in half of the 128x64 panel (a code too big for that is left to the card)."""
    url = "http://192.168.178.123:8080/"
    first = start_pages(url, wifi, lambda: screens.startup(url, "1234"))[0]
    assert codes.qr_fits(wifi_text(wifi), 64)
    assert read(first, scale) == {wifi_text(wifi), url}


@pytest.mark.skipif(not Path(CHROMIUM).exists(),
                    reason="/usr/bin/chromium is not installed (apt-get install chromium)")
def test_codes_scan_on_the_printed_join_card(tmp_path, browser):
    """The longest Wi-Fi the config takes (a 32-byte name, a 63-character password) and the
    hotspot's: all four codes of the card, as chromium lays out an A4 page, read back."""
    home, hotspot = WiFi("Parlour-Table-in-the-Long-Room-1", "p;" * 31 + "x"), \
        WiFi("Parlour-1a2b", "k7mp-2xqa-rj9c")
    urls = ("http://parlour-table-in-the-long-room.local:65535/", "http://10.42.0.1:65535/")
    page_file = tmp_path / "card.html"
    page_file.write_text(card_html(urls[0], home, hotspot=(hotspot, urls[1])))
    shot = tmp_path / "card.png"
    page = browser.new_page(viewport={"width": 794, "height": 1123})         # A4 at 96 dpi
    page.emulate_media(media="print")
    page.goto(page_file.as_uri())
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    assert read(Image.open(shot)) == {wifi_text(home), urls[0], wifi_text(hotspot), urls[1]}
