"""The status page and the device panel in a real browser (Debian's chromium, headless) at
phone size, against a real `parlour run --sim` (and, for the stream cap, the app under
waitress with no streams allowed). Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import math
import os
import re
import time
import urllib.request
from collections.abc import Iterator

import pytest

from browser_support import ARGS, ARTIFACTS, CHROMIUM, WAIT_MS, browser, phone_page  # noqa: F401
from simulated_table import PIN, SimulatedTable, box_drawn
from web_support import FakeDevice, serving

PHONE = {"width": 360, "height": 740}

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")


@pytest.fixture
def table(tmp_path) -> Iterator[str]:
    """`parlour run --sim` on a loopback port: the phone page and the simulated device."""
    with SimulatedTable(tmp_path / "data", tmp_path) as running:
        yield running.url


@pytest.fixture
def phone(browser):
    yield from phone_page(browser, PHONE)


def post(url: str, body: dict, pin: str | None = PIN) -> dict:
    headers = {"Content-Type": "application/json"}
    if pin:
        headers["X-Parlour-Pin"] = pin
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_browser_status_page_follows_the_table_live(table, phone):
    from playwright.sync_api import expect
    phone.goto(table + "/")
    expect(phone.locator("#live")).to_have_text("Live")
    post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    expect(phone.locator("#title")).to_have_text("Kat en Muis")
    expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
    expect(phone.locator("#players tbody tr")).to_have_count(2)
    post(table + "/device/input", {"input": "knob", "action": "flick", "detents": 12}, pin=None)
    expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
    expect(phone.locator("#dial svg rect.face")).to_have_count(2)
    expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for _ in range(3):
        post(table + "/api/control/roll", {})
    expect(phone.locator("#log li").first).not_to_have_text("Kat en Muis: Ann, Ben")
    screenshot(phone, "status-phone.png")
    phone.goto(table + "/fairness")
    expect(phone.locator("h1")).to_have_text("Are the dice fair?")
    expect(phone.locator(".histogram")).to_have_count(1)
    screenshot(phone, "fairness-phone.png")
    # India's spinner of 12: its chart squeezed 12 bars into the phone's width, and its
    # numbers were drawn 6.6 px tall (the charts of 6 faces: 12.7 px)
    post(table + "/api/control/new-game", {"game": "india", "players": ["Ann", "Ben"]})
    post(table + "/api/control/roll", {})
    phone.goto(table + "/fairness")
    expect(phone.locator(".histogram")).to_have_count(2)
    for chart in phone.locator(".histogram").all():
        smallest = chart.evaluate("c => Math.min(...Array.from(c.querySelectorAll('text'), "
                                  "t => t.getBoundingClientRect().height))")
        assert smallest >= 12, (chart.get_attribute("aria-label"), smallest)


def rolls(table: str) -> int:
    with urllib.request.urlopen(table + "/api/state", timeout=5) as answer:
        return json.loads(answer.read())["rolls"]


def test_browser_device_knob_swipe_flicks_and_buttons_send(table, phone):
    from playwright.sync_api import expect
    post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    phone.goto(table + "/device")
    expect(phone.locator("#screen")).to_be_visible()
    box_drawn(table)              # as a player at it: the box acts on the state it last drew
    first_frame = phone.locator("#screen").get_attribute("data-version")
    box = phone.locator("#knob").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 3
    flicks = []
    phone.on("request", lambda q: flicks.append(q) if q.url.endswith("/device/input")
             and '"flick"' in (q.post_data or "") else None)
    for _ in range(3):          # a hand swipes again if the box took it for a slow turn: on a
        phone.mouse.move(cx + r, cy)                # loaded machine the browser may see the
        phone.mouse.down()                          # moves late, and so slow
        for step in range(1, 7):                    # three quarters of a turn, fast
            angle = step * math.pi / 4
            phone.mouse.move(cx + r * math.cos(angle), cy + r * math.sin(angle))
        phone.mouse.up()
        phone.wait_for_timeout(500)
        if flicks:
            break
    assert flicks, "no swipe was read as a flick"
    assert json.loads(flicks[0].post_data)["detents"] > 0
    deadline = time.monotonic() + 10
    while rolls(table) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert rolls(table) == 1, "the swipe did not spin"
    expect(phone.locator("#screen")).not_to_have_attribute("data-version", first_frame)
    for name, payload in [("Undo", {"input": "undo"}),
                          (re.compile(r"^1 Red(, lit)?$"), {"input": "seat", "seat": 0}),
                          ("Press", {"input": "knob", "action": "press"})]:
        with phone.expect_response(lambda a: a.url.endswith("/device/input")) as answer:
            phone.get_by_role("button", name=name, exact=True).click()
        assert json.loads(answer.value.request.post_data) == payload
        assert answer.value.status < 500
    screenshot(phone, "device-phone.png")


def test_browser_falls_back_to_polling_when_streams_are_full(make_app, phone, session):
    from playwright.sync_api import expect
    app = make_app(max_streams=0, device=FakeDevice(session))
    with serving(app) as url:
        phone.goto(url + "/")
        expect(phone.locator("#live")).to_have_text("Updating every few seconds")
        post(url + "/api/control/new-game", {"game": "cats-and-dogs", "players": ["Cy", "Di"]})
        expect(phone.locator("#title")).to_have_text("Cats and Dogs")
        post(url + "/api/control/roll", {})
        expect(phone.locator("#roll-text")).to_contain_text("Last spin: Cy")
        expect(phone.locator("#dial svg path.seg-a")).to_have_count(3)


def first_time(page, selector: str, words: str, limit: float) -> float | None:
    """Seconds until `selector`'s text contains `words` (None if not within `limit`)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if words in (page.locator(selector).text_content() or ""):
            return time.monotonic() - start
        time.sleep(0.05)
    return None


def test_browser_live_view_reveals_a_throw_when_the_box_spin_stops(make_app, browser, phone,
                                                                   session):
    from playwright.sync_api import expect
    with serving(make_app()) as url:
        phone.goto(url + "/")
        expect(phone.locator("#live")).to_have_text("Live")
        session.new_game("kat-en-muis", ["Ann", "Ben"])
        expect(phone.locator("#title")).to_have_text("Kat en Muis")
        session.roll(spin=1.5)                       # the box's dial spins for 1.5 s
        expect(phone.locator("#roll-text")).to_have_text("Ann throws…")
        expect(phone.locator("#dial.spinning svg.dice")).to_have_count(1)
        screenshot(phone, "status-spinning.png")
        assert phone.locator("#prompt").text_content() == "Ann - throw the dice for the lead"
        late = browser.new_page(viewport=PHONE)      # a phone that loads now sees the result
        late.goto(url + "/")
        expect(late.locator("#roll-text")).to_contain_text("Last throw: Ann", timeout=500)
        late.close()
        shown = first_time(phone, "#roll-text", "Last throw: Ann", limit=5)
        assert shown is not None
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        expect(phone.locator("#dial.spinning")).to_have_count(0)
        session.roll(spin=1.5)
        expect(phone.locator("#roll-text")).to_have_text("Ben throws…")
        session.undo()                               # anything newer shows at once
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann", timeout=1000)
        start = time.monotonic()
        session.roll(spin=1.5)
        shown = first_time(phone, "#roll-text", "Last throw: Ben", limit=5)
        assert shown is not None and time.monotonic() - start >= 1.4   # not before the dial stops


def test_browser_live_view_domino_rex_the_throw_that_settles_the_lead_is_a_throw(
        make_app, browser, phone, session):
    """Domino Rex: the throw that settled the lead showed "Cat spins…" beside a die (the game
    has no randomizer once the lead is settled, and the page took that for a spinner)."""
    from playwright.sync_api import expect
    with serving(make_app()) as url:
        phone.goto(url + "/")
        expect(phone.locator("#live")).to_have_text("Live")
        session.new_game("domino-rex", ["Ann", "Ben"])
        expect(phone.locator("#title")).to_have_text("Domino Rex")
        for _ in range(20):
            session.roll(spin=1.5)
            name = session.snapshot()["players"][session.snapshot()["last_roll"]["seat"]]["name"]
            expect(phone.locator("#roll-text")).to_have_text(f"{name} throws…")
            if session.snapshot()["phase"] != "lead":
                break
            expect(phone.locator("#dial.spinning")).to_have_count(0, timeout=5000)
        assert session.snapshot()["phase"] == "play"


def test_browser_reduced_motion_a_spin_shows_no_still_arrows_as_a_result(make_app, browser,
                                                                        session):
    """Under reduced motion the dial does not turn, and its arrows stood at 1 for the whole
    spin, read as a result: they are faint until the throw is shown."""
    from playwright.sync_api import expect
    page = browser.new_page(viewport=PHONE, reduced_motion="reduce")
    try:
        with serving(make_app()) as url:
            page.goto(url + "/")
            session.new_game("cats-and-mice", ["Ann", "Ben"])
            expect(page.locator("#title")).to_have_text("Cats and Mice")
            session.roll(spin=1.5)
            arrows = page.locator("#dial.spinning .spin")
            expect(arrows).not_to_have_count(0)
            assert float(arrows.first.evaluate("e => getComputedStyle(e).opacity")) <= 0.3
            assert arrows.first.evaluate("e => getComputedStyle(e).animationName") == "none"
            expect(page.locator("#dial.spinning")).to_have_count(0, timeout=5_000)
            shown = page.locator("#dial .spin").first
            assert float(shown.evaluate("e => getComputedStyle(e).opacity")) == 1
    finally:
        page.close()


def test_browser_x12_panel_lights_the_armed_button_and_the_phone_shows_buttons(table, browser):
    from playwright.sync_api import expect
    post(table + "/api/control/new-game", {"game": "cats-and-mice", "players": ["Ann", "Ben"],
                                           "buttons": [2, 4]})
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page.set_default_timeout(WAIT_MS)
    page.goto(table + "/device")
    expect(page.locator("#seat-buttons .seat.lit")).to_have_count(1)
    expect(page.locator("#seat-buttons .seat.lit")).to_have_attribute("data-seat", "1")
    expect(page.get_by_role("button", name="2 Blue, lit", exact=True)).to_be_visible()
    screenshot(page, "device-lit-390.png")
    page.goto(table + "/")
    rows = page.locator("#players tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".dot")).to_have_text("2")
    expect(rows.nth(0).locator(".badge")).to_have_text("2Button 2, Blue")
    expect(rows.nth(1).locator(".dot")).to_have_text("4")
    colour = page.locator("#players .dot.button-2").evaluate(
        "node => getComputedStyle(node).backgroundColor")
    assert colour == "rgb(30, 99, 198)"                  # Blue's shade, from /buttons.css
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "status-buttons-390.png")
    page.close()


def test_browser_device_panel_says_when_the_table_cannot_be_reached(table, phone):
    """Stopped with Ctrl-C, the table left its panel showing the last screen with the seat's
    light on, as if live, until a press was answered "The table cannot be reached."."""
    from playwright.sync_api import expect
    post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    phone.goto(table + "/device")
    expect(phone.locator("#seat-buttons .seat.lit")).to_have_count(1)
    expect(phone.locator("#device-status")).to_have_text("")
    phone.route("**/device/screen", lambda route: route.abort())         # the table is down
    expect(phone.locator("#device-status")).to_have_text(
        "The table cannot be reached: the screen and lights are as they last were.")
    phone.unroute("**/device/screen")
    expect(phone.locator("#device-status")).to_have_text("")              # and back


def looking_remote(app, address: str = "192.0.2.20"):
    """The app as a phone on the table's Wi-Fi reaches it: every request from `address` (the
    browser runs here, on loopback, which the panel would let in without the PIN)."""
    inner = app.wsgi_app

    def elsewhere(environ, start_response):
        environ["REMOTE_ADDR"] = address
        return inner(environ, start_response)
    app.wsgi_app = elsewhere
    return app


def test_browser_open_panel_box_link_asks_for_the_pin_then_opens_the_box(make_app, browser):
    """With `--open-panel`, a phone following the header's "Box" link got a bare "401" page
    naming the X-Parlour-Pin header: now it is asked for the PIN there, in words, and lands on
    the box once it is given (a wrong one is said and asked again)."""
    from playwright.sync_api import expect
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page.set_default_timeout(WAIT_MS)
    with serving(looking_remote(make_app(panel_open=True))) as url:
        page.goto(url + "/")
        page.get_by_role("link", name="Box", exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "The box needs the table's PIN")
        expect(page.locator("main")).not_to_contain_text("X-Parlour-Pin")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(page, "device-pin-390.png")
        page.get_by_label("PIN").fill("0000")
        page.get_by_role("button", name="Enter").click()
        expect(page.locator(".flash.error")).to_have_text("Wrong PIN.")
        assert page.url == url + "/device"
        page.get_by_label("PIN").fill(PIN)
        page.get_by_role("button", name="Enter").click()
        expect(page.locator("#screen")).to_be_visible()
        assert page.url == url + "/device"
        with page.expect_response(lambda a: a.url.endswith("/device/input")) as answer:
            page.get_by_role("button", name="Undo", exact=True).click()
        assert answer.value.status == 200                   # the box answers this phone now
        screenshot(page, "device-signed-in-390.png")
    page.close()
