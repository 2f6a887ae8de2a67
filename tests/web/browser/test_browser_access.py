"""The pages as everyone uses them, in Debian's chromium at 390x844: axe-core (installed from
npm by `make test`) finds no serious or critical issue on the status page (watching, and signed
in with the Fox and Geese board), the history, a game's page and the fairness page; every tap
target is at least 44 px each way; the board's points and the log are reachable and named."""

from __future__ import annotations

import os
import time

import pytest

from browser_support import AXE, CHROMIUM, browser, check, phone_page  # noqa: F401
from simulated_table import PIN, SimulatedTable, call

PHONE = {"width": 390, "height": 844}

pytestmark = [
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is not installed (apt-get install chromium)"),
    pytest.mark.skipif(not AXE.exists(), reason=f"axe-core is not installed at {AXE} "
                       "(make test installs it with npm)")]

@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A table with a finished game (for the history pages) and Fox and Geese in play."""
    tmp = tmp_path_factory.mktemp("access")
    with SimulatedTable(tmp / "data", tmp) as running:
        call(running.url, "/api/control/new-game", {"game": "kat-en-muis",
                                                    "players": ["Ann", "Bartholomeus"]})
        for _ in range(400):
            state = call(running.url, "/api/state")
            if state["phase"] == "over":
                break
            call(running.url, "/api/control/" + ("roll" if state["awaiting"] == "roll"
                                                 else "next"), {})
        assert state["phase"] == "over"
        call(running.url, "/api/control/new-game", {"game": "fox-and-geese",
                                                    "players": ["Ann", "Ben"]})
        yield running.url, state["game_id"]


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, bypass_csp=True)    # axe is added as a script


def test_browser_access_pages_have_no_serious_issue_and_44px_targets(table, phone):
    url, finished = table
    for path in ("/", "/history", f"/history/{finished}", "/fairness"):
        check(phone, url + path)


def test_browser_access_signed_in_board_and_log_can_be_reached_and_read(table, phone):
    url, _ = table
    phone.goto(url + "/")
    phone.fill("#login input[name=pin]", PIN)
    phone.click("#login button")
    phone.wait_for_selector("#logout")
    check(phone, url + "/")
    points = phone.locator("#board [data-point]")
    assert points.count() == 33
    labels = [points.nth(i).get_attribute("aria-label") for i in range(33)]
    assert sum(label.endswith("the Fox") for label in labels) == 1
    geese = len(call(url, "/api/state")["board"]["geese"])
    assert sum("a goose" in label for label in labels) == geese
    movable = phone.locator('#board [data-point][tabindex="0"]')
    assert movable.count() > 0                   # the side to move's pieces take the keyboard
    first = movable.first
    name = first.get_attribute("data-point")
    first.focus()
    phone.keyboard.press("Enter")                # a tap by keyboard: the piece is chosen
    chosen = phone.locator(f'#board [data-point="{name}"]')
    assert chosen.get_attribute("aria-label").endswith(", chosen")
    assert phone.locator("#log").get_attribute("tabindex") == "0"
    for i, label in enumerate(labels):    # a point that cannot be used now is no button
        point = points.nth(i)
        usable = point.get_attribute("tabindex") == "0"
        assert point.get_attribute("role") == ("button" if usable else "img"), label


def test_browser_access_board_says_each_move_and_where_the_pieces_stand(table, phone):
    """Fox and Geese without seeing the board: a move (another phone's, the Pi's) was only in
    the log and the arrow, the board named no square though the log does ("a3 to a4"), and the
    board as a whole said nothing of where the pieces stand."""
    url, _ = table
    phone.goto(url + "/")
    coords = phone.locator("#board text.coord")
    assert sorted(coords.evaluate_all("ts => ts.map(t => t.textContent)")) == \
        sorted("abcdefg1234567")
    assert {coords.nth(i).get_attribute("aria-hidden") for i in range(14)} == {"true"}
    said = phone.locator("#board-said")
    assert said.get_attribute("aria-live") is None          # the page's news says it, once
    state = call(url, "/api/state")
    move = state["board"]["moves"][0]
    after = call(url, "/api/control/move", {"path": move})   # as another phone would
    words = "Last move \u2014 " + after["log"][-1]
    phone.wait_for_function("w => document.getElementById('board-said').textContent === w",
                            arg=words)
    assert " to ".join(move) in words and said.is_visible()
    phone.wait_for_function("w => document.getElementById('news').textContent.includes(w)",
                            arg=after["log"][-1])
    label = phone.locator("#board").get_attribute("aria-label")
    board = after["board"]
    assert label.startswith(f"The board: the Fox on {board['fox']}; {len(board['geese'])} geese")
    assert all(goose in label for goose in board["geese"])
    box = phone.locator('#board [data-point="d4"] rect').bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44          # the coordinates took no room
    # a move that ends the game: "Last move — Ben wins" said the winner, not the move; now the
    # move and why it ended the game (the winners have their own line)
    ended = {**after, "phase": "over", "log": after["log"] + [
        "The Fox on d4 cannot move: it is penned", "Ann wins"]}
    said_now = phone.evaluate("s => { window.ParlourBoard.draw(s); "
                              "return document.getElementById('board-said').textContent; }", ended)
    assert said_now == "Last move \u2014 " + after["log"][-1] + \
        ". The Fox on d4 cannot move: it is penned"


# Every text shown, on its real background (the nearest one painted; a board's piece for its
# letter), with its size as drawn: [what, words, contrast, px].
TEXTS = r"""() => {
  const rgba = c => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const under = e => {
    const piece = e instanceof SVGElement && e.closest('[data-point]');
    if (piece) return rgba(getComputedStyle(piece.querySelector('circle')).fill);
    for (let n = e; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor); if (c[3] > 0) return c; }
    return rgba(getComputedStyle(document.documentElement).backgroundColor); };
  const out = [], seen = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || seen.has(e) || e.closest('[aria-disabled=true], .sr-only')) continue;
    seen.add(e);
    const box = e.getBoundingClientRect();
    if (!e.getClientRects().length || box.width <= 1) continue;
    const s = getComputedStyle(e), bg = under(e);
    const fg = rgba(e instanceof SVGElement ? s.fill : s.color);
    const seenFg = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
    const px = parseFloat(s.fontSize) * (e instanceof SVGElement ? e.getScreenCTM().a : 1);
    out.push([e.tagName + '.' + (e.getAttribute('class') || e.id), t.textContent.trim().slice(0, 20),
              +ratio(seenFg, bg).toFixed(2), +px.toFixed(1)]);
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_browser_access_small_text_reads_at_4_5_to_1_and_12px(table, browser, scheme):  # noqa: F811
    """At 320 px wide: the board's letters and numbers were 9 px, the commitment's digest 11
    px, the Fox's F on its piece 4.3:1. Every text is 12 px or more and 4.5:1 or more on what
    is under it, in the light scheme and the dark."""
    url, _ = table
    for phone in phone_page(browser, {"width": 320, "height": 700}, color_scheme=scheme):
        phone.goto(url + "/")
        phone.fill("#login input[name=pin]", PIN)
        phone.click("#login button")
        phone.wait_for_selector("#logout")
        phone.wait_for_selector("#board text.coord")          # drawn by its script, after load
        texts = phone.evaluate(TEXTS)
        assert any(what.endswith("coord") for what, *_ in texts)
        assert any(words == "F" for _, words, *_ in texts)
        faint = [t for t in texts if t[2] < 4.5]
        small = [t for t in texts if t[3] < 12]
        assert faint == [] and small == [], (faint, small)


def test_browser_access_the_charts_words_are_12px_on_a_320px_phone(tmp_path, browser):  # noqa: F811
    """The charts were drawn 340 units wide and scaled to the card: their axes and values
    were 8.5 px on a 320 px phone. They are drawn at the width shown; a phone turned (a wider
    page) draws them again at the new width."""
    with SimulatedTable(tmp_path / "data", tmp_path) as running:
        call(running.url, "/api/control/new-game", {"game": "kat-en-muis",
                                                    "players": ["Ann", "Ben"]})
        for _ in range(8):
            call(running.url, "/api/control/roll", {})
        # the chances of the last throw in: no later state redraws the charts, so their first
        # drawing must be at the width shown (it measured the hidden figure once)
        deadline = time.monotonic() + 30
        while not call(running.url, "/api/state").get("odds") and time.monotonic() < deadline:
            time.sleep(0.1)
        for phone in phone_page(browser, {"width": 320, "height": 700}):
            phone.goto(running.url + "/")
            phone.wait_for_selector("#chart-win svg path.line")
            # drawn at the width shown (again, if the first drawing came before the styles)
            phone.wait_for_function("() => { const p = document.querySelector('#chart-win .plot');"
                                    " return p.querySelector('svg').getAttribute('viewBox') === "
                                    "`0 0 ${p.clientWidth} 150`; }")
            texts = [t for t in phone.evaluate(TEXTS) if t[0] in ("text.axis", "text.tag")]
            assert {"text.axis", "text.tag"} <= {t[0] for t in texts}
            small = [t for t in texts if t[3] < 12]
            faint = [t for t in texts if t[2] < 4.5]
            assert small == [] and faint == [], (small, faint)
            width = phone.evaluate("() => document.querySelector('#chart-win .plot').clientWidth")
            assert phone.locator("#chart-win svg").get_attribute("viewBox") == f"0 0 {width} 150"
            phone.set_viewport_size({"width": 600, "height": 700})
            wider = phone.evaluate("() => document.querySelector('#chart-win .plot').clientWidth")
            assert wider > width
            phone.wait_for_function("w => document.querySelector('#chart-win svg')"
                                    ".getAttribute('viewBox') === `0 0 ${w} 150`", arg=wider)


CENTRES = """() => Object.fromEntries(Array.from(document.querySelectorAll('#board [data-point]'))
  .map(g => { const b = g.querySelector('circle').getBoundingClientRect();
              return [g.getAttribute('data-point'), [b.x + b.width / 2, b.y + b.height / 2,
                      g.getAttribute('tabindex') === '0']]; }))"""


def test_browser_access_board_points_take_a_46px_tap_nearest_first(tmp_path, browser):  # noqa: F811
    """At 320 px wide a point's square was 36 px: a click 22 px from a goose at the board's
    edge missed it. Each point's hit area reaches 23 px each way wherever no other point is
    nearer (the nearest point wins where hit areas overlap), the board's look unchanged."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as running:
        call(running.url, "/api/control/new-game", {"game": "fox-and-geese",
                                                    "players": ["Ann", "Ben"]})
        for phone in phone_page(browser, {"width": 320, "height": 700}, is_mobile=True):
            phone.goto(running.url + "/")
            phone.fill("#login input[name=pin]", PIN)
            phone.click("#login button")
            phone.wait_for_selector("#logout")
            phone.locator("#board").scroll_into_view_if_needed()
            square = phone.locator('#board [data-point="d4"] rect').bounding_box()
            assert 35 <= square["width"] <= 37                  # the squares as they were drawn
            centres = phone.evaluate(CENTRES)
            assert len(centres) == 33

            def reached(name: str) -> list[tuple[float, float]]:
                """Clicks 22 px from the point, each way, that no other point is nearer."""
                x, y, _ = centres[name]
                out = []
                for dx, dy in ((-22, 0), (22, 0), (0, -22), (0, 22),
                               (-22, -22), (22, -22), (-22, 22), (22, 22)):
                    at, mine = (x + dx, y + dy), (dx * dx + dy * dy) ** 0.5
                    if all(((at[0] - ox) ** 2 + (at[1] - oy) ** 2) ** 0.5 > mine
                           for other, (ox, oy, _) in centres.items() if other != name):
                        out.append(at)
                return out

            clicks = 0
            for name in (n for n, (_, _, usable) in centres.items() if usable):
                for x, y in reached(name):       # the geese at the edges: a finger beside one
                    phone.mouse.click(x, y)      # where it lands (a touch is moved onto a target)
                    chosen = phone.locator(f'#board [data-point="{name}"]')
                    assert "chosen" in chosen.get_attribute("class"), \
                        (name, x - centres[name][0], y - centres[name][1])
                    clicks += 1
            assert clicks >= 6
            x, y, _ = centres["d7"]                 # above the board: on the card around it
            phone.mouse.click(x, y - 22)
            # taken as a tap on d7, which the goose picked last cannot reach: said so
            expect(phone.locator("#board-hint")).to_contain_text(" it can go to ")
            for name in centres:                               # every point, the nearest first
                for x, y in reached(name):
                    assert phone.evaluate("([x, y]) => window.ParlourBoard.pointAt(x, y)",
                                          [x, y]) == name, (name, x, y)
                x, y, _ = centres[name]                       # past half-way: the neighbour's
                for other, (ox, oy, _) in centres.items():
                    if other != name and abs(ox - x) + abs(oy - y) < 40:
                        at = [x + (ox - x) * 0.6, y + (oy - y) * 0.6]
                        assert phone.evaluate("([x, y]) => window.ParlourBoard.pointAt(x, y)",
                                              at) == other, (name, other)


def test_browser_access_the_box_s_pin_page_has_no_serious_issue(make_app, phone):
    """The page a phone on the Wi-Fi meets at the open panel's "Box" link before the PIN."""
    from test_browser import looking_remote
    from web_support import serving
    with serving(looking_remote(make_app(panel_open=True))) as url:
        check(phone, url + "/device")
        assert phone.get_by_label("PIN").count() == 1
