"""The join card: Wi-Fi and address QR codes on a printable page."""

import errno
import os
import re
from pathlib import Path

import pytest

from firmware.card import card_html, qr_svg, wifi_text
from firmware.oled.codes import qr_matrix
from firmware.config import WiFi


@pytest.mark.parametrize("wifi, text", [
    (WiFi("Parlour", "secret"), "WIFI:T:WPA;S:Parlour;P:secret;;"),
    (WiFi('Tea;Room', 'a:b,c"d\\e'), 'WIFI:T:WPA;S:Tea\\;Room;P:a\\:b\\,c\\"d\\\\e;;'),
    (WiFi("Open house", "ignored", "nopass"), "WIFI:T:nopass;S:Open house;;"),
    (WiFi("Hidden", "pw", "WPA", hidden=True), "WIFI:T:WPA;S:Hidden;P:pw;H:true;;"),
])
def test_card_wifi_text_escapes_the_special_characters(wifi, text):
    assert wifi_text(wifi) == text


def _modules(svg: str, border: int = 2) -> set[tuple[int, int]]:
    """The dark modules an SvgPathImage draws (its path is one unit square per module)."""
    return {(int(y) - border, int(x) - border)
            for x, y in re.findall(r"M(\d+),(\d+)H\d+V\d+H\d+z", svg)}


@pytest.mark.parametrize("data", ["http://192.168.1.20:8080/", "WIFI:T:WPA;S:Parlour;P:pw;;"])
def test_card_svg_draws_the_code_for_its_data(data):
    matrix = qr_matrix(data)
    dark = {(r, c) for r, row in enumerate(matrix) for c, on in enumerate(row) if on}
    assert _modules(qr_svg(data, label="x")) == dark
    assert dark != _modules(qr_svg(data + "x", label="x"))


def test_card_has_both_codes_with_words_when_wifi_is_set():
    page = card_html("http://192.168.1.20:8080/", WiFi("Parlour <guests>", "pw&1"))
    assert page.count("<svg ") == 2
    assert 'aria-label="Join the Wi-Fi Parlour &lt;guests&gt;"' in page
    assert "1. Join the Wi-Fi" in page and "2. Open the table" in page
    assert "pw&amp;1" in page and "http://192.168.1.20:8080/" in page


def test_card_without_wifi_has_only_the_address():
    page = card_html("http://parlour.local:8080/", WiFi())
    assert page.count("<svg ") == 1 and "Wi-Fi" not in page
    assert "Open the table" in page and "1. " not in page


@pytest.fixture
def on_a_lan(monkeypatch):
    """The box's address on its network, whatever this machine's routes are."""
    monkeypatch.setattr("firmware.runner.lan_address", lambda host: "192.168.1.20")


def test_card_command_writes_the_card_from_the_config(tmp_path, capsys, on_a_lan):
    from firmware.cli import main
    config = tmp_path / "parlour.toml"
    config.write_text('[web]\nport = 9000\n[wifi]\nssid = "Parlour"\npassword = "tea-at-four"\n')
    out = tmp_path / "card.html"
    assert main(["card", "--config", str(config), "--url", "http://parlour.local:9000/",
                 "--out", str(out)]) == 0
    page = out.read_text()
    assert page.count("<svg ") == 2 and "tea-at-four" in page
    assert "http://parlour.local:9000/" in page
    assert "the Wi-Fi Parlour" in capsys.readouterr().out
    assert out.stat().st_mode & 0o777 == 0o600       # it holds the password: its writer's
    out.chmod(0o644)                                  # one there already is made so too
    assert main(["card", "--config", str(config), "--out", str(out)]) == 0
    assert out.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("wifi, message", [
    ('ssid = "Parlour"', "[wifi] password: WPA needs the network's password"),
    ('ssid = "Parlour"\nsecurity = "WPA9"', "[wifi] security: expected one of WPA, WEP, nopass"),
    ('ssid = "' + "x" * 33 + '"\nsecurity = "nopass"', "[wifi] ssid: a network name is at most"),
    ('ssd = "Parlour"', "[wifi] ssd: unknown key"),
    ('ssid = "Par\\nlour"\nsecurity = "nopass"', "[wifi] ssid: a network name has no line "
                                                  "breaks"),
    ('ssid = "Parlour"\npassword = "' + "x" * 3000 + '"', "[wifi] password: a WPA password is 8 "
                                                         "to 63 printable ASCII characters"),
    ('ssid = "Parlour"\npassword = "short"', "not 5 characters"),
    ('ssid = "Parlour"\npassword = "caf\u00e9-au-lait"', "printable ASCII characters only"),
    ('ssid = "Parlour"\nsecurity = "WEP"\npassword = "abcdef"', "a WEP key is 5 or 13"),
])
def test_card_command_refuses_a_bad_wifi_config_in_one_line(tmp_path, capsys, wifi, message):
    from firmware.cli import main
    config = tmp_path / "parlour.toml"
    config.write_text("[wifi]\n" + wifi + "\n")
    assert main(["card", "--config", str(config), "--out", str(tmp_path / "c.html")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not (tmp_path / "c.html").exists()


def test_card_command_names_the_port_the_table_runs_on(tmp_path, capsys, on_a_lan):
    from firmware.cli import main
    out = tmp_path / "card.html"
    assert main(["card", "--port", "9123", "--out", str(out)]) == 0
    page = out.read_text()
    assert ":9123/" in page and ":8080/" not in page


def test_card_command_with_no_network_address_asks_for_one(tmp_path, capsys, monkeypatch):
    """With no route (the box on its own hotspot) the card's home code was
    http://127.0.0.1:8080/, which opens the phone that scans it: asked for instead."""
    from firmware.cli import main
    monkeypatch.setattr("firmware.runner.lan_address", lambda host: "127.0.0.1")
    out = tmp_path / "card.html"
    assert main(["card", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "no network address now (only 127.0.0.1)" in err and "--url" in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()
    assert main(["card", "--url", "http://parlour.local:8080/", "--out", str(out)]) == 0
    assert "http://parlour.local:8080/" in out.read_text()


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                    reason="/usr/bin/chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("hotspot", [False, True])
def test_card_prints_on_one_page_with_both_codes(tmp_path, paper, hotspot):
    """The longest Wi-Fi the config takes (a 32-byte name, a 63-character password) and a long
    address: both codes and their words on one A4 or Letter page, printed by chromium; with the
    hotspot too, all four codes."""
    from playwright.sync_api import sync_playwright
    from firmware.card import card_html
    wifi = WiFi(ssid="Parlour-Table-in-the-Long-Room-1", password="p" * 63)
    html = tmp_path / "card.html"
    html.write_text(card_html("http://parlour-table-in-the-long-room.local:65535/", wifi,
                              hotspot=(WiFi("Parlour-" + "x" * 24, "k7mp-2xqa-rj9c"),
                                       "http://10.42.0.1:65535/") if hotspot else None))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(html.as_uri())
        pdf = page.pdf(format=paper)
        browser.close()
    assert len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)) == 1, paper     # one sheet


def test_card_command_to_stdout_still_says_what_the_card_holds(tmp_path, capsys):
    """`--out -` (as the README prints it) wrote the page and returned before the hint that
    the home Wi-Fi's code needs [wifi] ssid: the card had three codes, not four, unexplained."""
    from firmware.cli import main
    config = tmp_path / "parlour.toml"
    config.write_text('[wifi]\nssid = ""\n')
    assert main(["card", "--config", str(config), "--url", "http://10.0.0.5:8080/",
                 "--out", "-"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith("<!doctype html>")                       # the page alone
    assert "no Wi-Fi code: set [wifi] ssid in the config" in said.err
    assert said.err.startswith("standard output: the join card for http://10.0.0.5:8080/")
    assert said.err.rstrip().endswith("save it as an .html file, open it and print it")


def test_card_command_leaves_a_place_it_cannot_write_as_it_was(tmp_path, capsys, monkeypatch):
    """`--out` a device (/dev/null, run as root) had its mode changed to 0600 before the write
    failed, locking every other user out of it; a file the card cannot replace is kept whole."""
    from firmware.cli import main
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo, 0o666)
    os.chmod(fifo, 0o666)
    url = ["--url", "http://parlour.local:8080/"]
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)     # so a writer's open goes through
    try:
        assert main(["card", *url, "--out", str(fifo)]) == 2
    finally:
        os.close(reader)
    err = capsys.readouterr().err
    assert "not a file (--out - writes to standard output)" in err and err.count("\n") == 1
    assert fifo.stat().st_mode & 0o777 == 0o666
    kept = tmp_path / "kept" / "card.html"
    kept.parent.mkdir()
    kept.write_text("the card printed last week")
    kept.chmod(0o644)

    def failing(*_):
        raise OSError(errno.EIO, os.strerror(errno.EIO))
    monkeypatch.setattr(os, "replace", failing)        # the card's own write fails at the end
    assert main(["card", *url, "--out", str(kept)]) == 2
    assert "cannot write it (Input/output error)" in capsys.readouterr().err
    assert kept.read_text() == "the card printed last week"
    assert kept.stat().st_mode & 0o777 == 0o644
    assert os.listdir(kept.parent) == ["card.html"]            # no part-written file left


@pytest.mark.parametrize("url", ["192.168.1.20:8080", "not a url", "ftp://10.0.0.5/",
                                 "http://", "http://10.0.0.5:port/", "http://10.0.0.5/ x"])
def test_card_command_refuses_an_address_no_phone_opens_as_the_table(tmp_path, capsys, url):
    from firmware.cli import main
    out = tmp_path / "card.html"
    assert main(["card", "--url", url, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "such as http://192.168.1.20:8080/" in err and err.count("\n") == 1
    assert not out.exists()
