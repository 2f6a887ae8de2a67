"""The phone as players hold it (390x844, touch) in Debian's chromium against a real
`parlour run --sim`: pairing a seat and spinning from it, Domino Rex squares, refusals shown
where the player looks, history and the BG Stats link. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
import urllib.request

import pytest

from companion.games import GAMES
from companion.record.store import Store
from companion.session import Session
from companion.state import row_order
from web.pages import LOG_PAGE, LOG_SHOWN
from browser_support import sign_in, state
from simulated_table import (PIN, SimulatedTable, box_drawn, box_input, box_menu, box_pairing_code,
                             box_unpair, box_view)
from test_browser import ARTIFACTS, CHROMIUM, browser, phone_page, post, screenshot  # noqa: F401

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PHONE = {"width": 390, "height": 844}
BUZZ = "navigator.vibrate = function (p) { window.buzzes = (window.buzzes || 0) + 1; return true; };"


def roll_until(url: str, awaiting: tuple[str, ...]) -> dict:
    """Throw for the lead (through the API) until the game awaits one of `awaiting`."""
    now = state(url)
    for _ in range(40):
        if now["phase"] == "play" and now["awaiting"] in awaiting:
            return now
        now = post(url + "/api/control/roll", {})
    raise AssertionError(f"the lead never ended: {now['prompt']}")


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, init_script=BUZZ, is_mobile=True)


def fits(phone) -> None:
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def in_view(phone, selector: str) -> None:
    box = phone.locator(selector).bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box


def test_browser_phone_pairs_a_seat_spins_from_the_dial_and_stays_paired(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "cats-and-mice", "players": ["Ann", "Benedictcumberbatchsmyth"]})
        now = roll_until(table.url, ("roll",))
        seat = now["turn"]
        name = now["players"][seat]["name"]
        phone.goto(table.url + "/")
        expect(phone.locator("#moves button")).to_have_count(0)          # watching: no moves
        phone.locator("#pair-code").fill("123456")                       # a guess: refused
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#pair-answer")).to_contain_text("no pairing code now")
        expect(phone.locator("#pair-code")).to_have_attribute("aria-invalid", "true")
        code = box_pairing_code(table.url, seat + 1)         # Menu, Pair a phone, the seat
        phone.locator("#pair-code").fill(f"{code[:3]} {code[3:]}")         # as the OLED shows it
        screenshot(phone, "phone-pairing.png")
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text(f"seat button {seat + 1}")
        expect(phone.locator("#your-turn")).to_have_text(f"Your turn, {name}")
        assert phone.evaluate("window.buzzes") >= 1                      # told by vibration
        assert phone.title().startswith("Your turn · ")
        expect(phone.locator("#moves button")).to_have_text(["Spin"])    # not "Throw", no PIN
        before = state(table.url)["rolls"]
        box = phone.locator("#dial").bounding_box()
        phone.mouse.move(box["x"] + 10, box["y"] + box["height"] / 2)    # a swipe on the dial
        phone.mouse.down()
        phone.mouse.move(box["x"] + box["width"] - 10, box["y"] + box["height"] / 2, steps=5)
        phone.mouse.up()
        expect(phone.locator("#moves-answer")).to_contain_text(f"{name} spins")
        assert state(table.url)["rolls"] == before + 1
        expect(phone.locator("#moves button")).to_have_text(["Cat takes a mouse", "End turn"])
        fits(phone)
        screenshot(phone, "phone-paired-spun.png")
        expect(phone.locator("#mice-line")).to_have_text("Mice left on the board: 12")
        phone.get_by_role("button", name="Cat takes a mouse").click()      # M3
        expect(phone.locator("#mice-left")).to_have_text("11")             # live, from the state
        assert state(table.url)["mice_left"] == 11
        phone.get_by_role("button", name="End turn").click()
        expect(phone.locator("#your-turn")).to_be_hidden()
        expect(phone.locator("#moves button")).to_have_count(0)          # the other seat's turn
        assert state(table.url)["turn"] != seat
    # a page no one has touched yet (the automation's own calls count as touches)
    phone.add_init_script("Object.defineProperty(navigator, 'userActivation', "
                          "{value: {hasBeenActive: false}});")
    with SimulatedTable(tmp_path / "data", tmp_path) as again:           # a restart
        phone.goto(again.url + "/")
        expect(phone.locator("#paired-line")).to_contain_text(f"seat button {seat + 1} ({name})")
        post(again.url + "/api/control/rename", {"seat": seat, "name": "Bo"})
        expect(phone.locator("#your-turn")).to_have_text("Your turn, Bo")
        expect(phone.locator("#paired-line")).to_contain_text(f"seat button {seat + 1} (Bo)")
        post(again.url + "/api/control/roll", {})
        post(again.url + "/api/control/next", {})
        expect(phone.locator("#your-turn")).to_be_visible()
        assert phone.evaluate("window.buzzes || 0") == 0    # a page not yet touched may not
                                                            # vibrate (the browser logs it)
        phone.get_by_role("button", name="Unpair this phone").click()
        expect(phone.locator("#pair-answer")).to_have_text(
            "Unpaired: this phone no longer plays a seat.")
        expect(phone.locator("#pair-form")).to_be_visible()


def test_browser_phone_chooses_a_domino_rex_square_and_stays_signed_in(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Ben"]})
        expect(phone.locator("#spin-pointer")).to_have_text("Swipe or tap the die to throw")
        now = roll_until(table.url, ("choose",))
        covered = sorted(set(now["players"][now["turn"]]["covered"]))
        expect(phone.locator("#moves button .spots")).to_have_text([str(v) for v in covered])
        for v in covered:                  # a screen reader says what a square does, not "4"
            expect(phone.get_by_role("button", name=f"Uncover a {v}: it opens the game; "
                                     "nothing moves", exact=True)).to_have_count(1)
        # the lead's die once play (which has none) began: a throw, as the box says, not a roll
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: ")
        assert phone.get_by_role("button", name="End turn").count() == 0     # D2: never offered
        phone.locator("#moves button .spots", has_text=str(covered[0])).first.click()
        expect(phone.locator("#moves-answer")).to_contain_text(f"uncovers {covered[0]}")
        after = state(table.url)
        assert after["turn"] != now["turn"]
        # live: the square uncovered last in place of the lead's die; the next player's squares
        # with their sums; each player's checkers (D2) as the state has them
        expect(phone.locator("#roll-text")).to_have_text(f"Last uncovered: {covered[0]}")
        nxt = sorted(set(after["players"][after["turn"]]["covered"]))
        expect(phone.locator("#moves button .detail span:first-child")).to_have_text(
            [f"{v}+{covered[0]}={v + covered[0]}" for v in nxt])
        expect(phone.locator("#prompt")).not_to_contain_text("; covered:")
        expect(phone.locator("#players .checkers")).to_have_count(2)
        expect(phone.locator("#checkers-key")).to_be_visible()
        fits(phone)
        screenshot(phone, "phone-domino-rex.png")
        phone.locator("#moves button.square").last.click()              # a sum that moves one
        expect(phone.locator("#moves-answer")).to_contain_text(f"{nxt[-1]} + {covered[0]} = ")
        moved = state(table.url)
        for row, p in zip(phone.locator("#players tbody tr").all(),
                          [moved["players"][i] for i in row_order(moved)]):
            expect(row.locator(".checker")).to_have_class(
                [re.compile(f"checker {p['checkers'][str(n)]}") for n in range(7, 12)])
    with SimulatedTable(tmp_path / "data", tmp_path) as again:           # signed in after a restart
        phone.goto(again.url + "/")
        expect(phone.locator("#logout")).to_be_visible()


def test_browser_phone_refusals_show_beside_the_control(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        phone.fill("#login input[name=pin]", "0000")
        phone.click("#login button")
        expect(phone.locator("#login + .answer")).to_have_text("Wrong PIN.")
        in_view(phone, "#login + .answer")
        pin = phone.locator("#login input[name=pin]")         # read out with its field
        expect(pin).to_have_attribute("aria-invalid", "true")
        expect(pin).to_have_accessible_description("Wrong PIN.")
        expect(pin).to_have_value("")                        # its dots: typed again whole
        expect(pin).to_be_focused()
        sign_in(phone, table.url)
        phone.locator("#new-game-box summary").click() if not phone.locator(
            "#new-game").is_visible() else None
        phone.select_option("#game-choice", "kat-en-muis")
        phone.click("#new-game button[type=submit]")
        expect(phone.locator("#new-game + .answer")).to_have_text("Kat en Muis is for 2 players: tick their seat buttons or type their names.")
        in_view(phone, "#new-game + .answer")
        screenshot(phone, "phone-refused.png")
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        phone.fill("#new-game input[name=player] >> nth=0", "Cy")
        phone.fill("#new-game input[name=player] >> nth=1", "Di")
        phone.click("#new-game button[type=submit]")
        expect(phone.locator("#new-game .confirm")).to_contain_text("starting this one sets it aside")
        phone.get_by_role("button", name="No, go back").click()
        assert [p["name"] for p in state(table.url)["players"]] == ["Ann", "Ben"]
        phone.locator("#end-box summary").click()
        phone.click("#end button[type=submit]")
        expect(phone.locator("#end .confirm")).to_contain_text("Set this game aside?")
        in_view(phone, "#end .confirm")
        phone.get_by_role("button", name="No, go back").click()
        assert state(table.url)["game"] == "kat-en-muis"                  # nothing happened
        phone.click("#end button[type=submit]")
        phone.get_by_role("button", name="Set it aside").click()
        expect(phone.locator("#end + .answer")).to_have_text("Game set aside")
        assert state(table.url)["game"] is None


NARROW = {"width": 320, "height": 844}
LINE_OF = """e => { const r = e.getClientRects()[0]; return Math.round(r.top + r.height / 2); }"""


def test_browser_phone_history_keeps_a_rank_and_dot_on_the_line_where_the_name_begins(
        tmp_path, browser):  # noqa: F811
    """At 320 px a winner's "1." stood alone on a line above "(1) Margaretha van der / Walle",
    and a 24-letter name without a space left its dot alone above it: the rank and the dot
    broke away from the name they belong to; on the game's page "(2) Blue" stood above the
    name. They stay on the name's first line."""
    from playwright.sync_api import expect
    names = ["Margaretha van der Walle", "W" * 24, "Ann"]
    for page in phone_page(browser, NARROW, is_mobile=True):
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            post(table.url + "/api/control/new-game",
                 {"game": "free-play", "players": names,
                  "options": {"randomizer": {"kind": "none"}}})
            for seat in (0, 1):
                post(table.url + "/api/control/press", {"seat": seat})
            post(table.url + "/api/control/declare", {"winners": [0, 1]})
            page.goto(table.url + "/history")
            rows = page.locator("#games > li .result > li")
            expect(rows).to_have_count(3)
            for i in range(3):
                row = rows.nth(i)
                words = row.locator(".who").evaluate(
                    "e => { const r = document.createRange();"
                    " const t = Array.from(e.childNodes).filter(n => n.nodeType === 3).pop();"
                    " r.setStart(t, t.data.indexOf(t.data.trim()[0]));"
                    " r.setEnd(t, t.data.indexOf(t.data.trim()[0]) + 1);"
                    " const b = r.getClientRects()[0];"
                    " return Math.round(b.top + b.height / 2); }")
                dot, rank = row.locator(".dot"), row.locator(".rank")
                assert abs(dot.evaluate(LINE_OF) - words) <= 6, (names[i], "dot")
                assert abs(rank.evaluate(LINE_OF) - words) <= 6, (names[i], "rank")
            assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
            page.goto(table.url + "/history/1")              # the game's page: "Players: ..."
            who = page.locator("p .who").nth(1)
            expect(who).to_contain_text(names[1])
            first = who.evaluate(
                "e => { const r = document.createRange();"
                " const t = Array.from(e.childNodes).filter(n => n.nodeType === 3)"
                ".find(n => n.data.includes('W'));"
                " r.setStart(t, t.data.indexOf('W')); r.setEnd(t, t.data.indexOf('W') + 1);"
                " const b = r.getClientRects()[0]; return Math.round(b.top + b.height / 2); }")
            assert abs(who.locator(".dot").evaluate(LINE_OF) - first) <= 6, "game page's dot"


def test_browser_phone_history_and_the_bg_stats_link(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        long_name = "Wilhelmina Konstantinopo"
        post(table.url + "/api/control/new-game", {"game": "lost-diamond", "players": ["Ann", "Ben"]})
        post(table.url + "/api/control/end", {})
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Cy", long_name],
              "options": {"randomizer": {"kind": "none"}}})
        post(table.url + "/api/control/press", {"seat": 1})
        post(table.url + "/api/control/press", {"seat": 1})
        post(table.url + "/api/control/rename", {"seat": 0, "name": "Cyril"})
        post(table.url + "/api/control/declare", {"winners": [1]})
        phone.goto(table.url + "/")
        link = phone.locator("#bg-stats-link")
        expect(link).to_be_visible()
        href = link.get_attribute("href")
        prefix = "https://app.bgstatsapp.com/createPlay.html?data="
        assert href.startswith(prefix)
        play = json.loads(urllib.parse.unquote(href[len(prefix):]))
        assert play["sourceName"] == "Parlour" and play["game"]["name"] == "Free play"
        assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == \
            [("Cyril", 0, False), (long_name, 2, True)]
        expect(phone.locator("#record-link")).to_be_visible()
        fits(phone)
        screenshot(phone, "phone-game-over.png")
        phone.goto(table.url + "/history")
        rows = phone.locator("#games > li")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text(f"won by {long_name}")
        expect(rows.nth(0)).to_contain_text("2 pts")
        expect(rows.nth(0)).to_contain_text("Cyril")                      # the rename
        expect(rows.nth(1)).to_contain_text("set aside")
        assert "UTC" not in rows.nth(0).locator("time").inner_text()      # the phone's own time
        fits(phone)
        screenshot(phone, "phone-history.png")
        rows.nth(0).get_by_role("link", name="Free play").click()
        expect(phone.locator("#log li").last).to_contain_text(long_name)
        overflow = phone.evaluate(
            "getComputedStyle(document.getElementById('log')).overflowY")
        assert overflow == "visible"                                     # the log in full
        screenshot(phone, "phone-history-game.png")


def test_browser_phone_bg_stats_date_is_the_phones_own_time(tmp_path, browser):  # noqa: F811
    """BG Stats reads a play's date as local time on the phone that opens the link: a phone in
    Auckland sends the game's start in Auckland's time, whatever the box's own zone (UTC)."""
    from datetime import datetime
    from zoneinfo import ZoneInfo
    from playwright.sync_api import expect
    prefix = "https://app.bgstatsapp.com/createPlay.html?data="
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben"],
              "options": {"randomizer": {"kind": "none"}}})
        post(table.url + "/api/control/press", {"seat": 0})
        post(table.url + "/api/control/declare", {"winners": [0]})
        game_id = state(table.url)["game_id"]
        with urllib.request.urlopen(f"{table.url}/api/games/{game_id}/record") as answer:
            record = json.loads(answer.read())
        started = datetime.fromisoformat(record["started"].replace("Z", "+00:00"))
        here = started.astimezone(ZoneInfo("Pacific/Auckland")).strftime("%Y-%m-%d %H:%M:%S")
        assert json.loads(urllib.parse.unquote(record["bg_stats"][len(prefix):]))["playDate"] \
            != here                                                 # the box alone cannot know
        for phone in phone_page(browser, PHONE, timezone_id="Pacific/Auckland", is_mobile=True):
            for page, selector in (("/", "#bg-stats-link"), (f"/history/{game_id}", "#bg-stats")):
                phone.goto(table.url + page)
                link = phone.locator(selector)
                expect(link).to_be_visible()
                expect(link).to_have_attribute("href", re.compile(re.escape(prefix)))
                play = json.loads(urllib.parse.unquote(link.get_attribute("href")[len(prefix):]))
                assert play["playDate"] == here, page
                assert [p["name"] for p in play["players"]] == ["Ann", "Ben"]   # the rest kept


def test_browser_phone_without_javascript_still_plays_and_asks_first(
        tmp_path, browser):  # noqa: F811
    from playwright.sync_api import expect
    for phone in phone_page(browser, PHONE, java_script_enabled=False):
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            post(table.url + "/api/control/new-game",
                 {"game": "cats-and-dogs", "players": ["Ann", "Ben"]})
            phone.goto(table.url + "/")
            phone.fill("#login input[name=pin]", PIN)
            phone.click("#login button")
            expect(phone.locator(".flash.ok")).to_have_text(
                "PIN accepted: you can run the table from this phone.")
            phone.click("#moves button")                                  # Spin, as a form
            expect(phone.locator(".flash.ok")).to_contain_text(" spins ")
            phone.locator("#end-box summary").click()
            phone.click("#end button[type=submit]")                     # not ticked: not sent
            assert state(table.url)["game"] == "cats-and-dogs"
            phone.check("#end input[name=sure]")
            phone.click("#end button[type=submit]")
            expect(phone.locator(".flash.ok")).to_have_text("Game set aside")
            assert state(table.url)["game"] is None
            screenshot(phone, "phone-no-javascript.png")


@pytest.mark.parametrize("width", [390, 1280])
def test_browser_phone_india_dial_labels_never_overlap_or_clip(tmp_path, browser, width):  # noqa: F811
    """India's twelve segments: every label inside the disc and clear of every other and of the
    arrow, on a phone and on a desktop; the dial's title still says the segment in words."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "india", "players": ["Ann", "Ben"]})
        post(table.url + "/api/control/roll", {})
        for page in phone_page(browser, {"width": width, "height": 844}):
            page.goto(table.url + "/")
            page.wait_for_selector("#dial svg.disc text.tick")
            boxes = page.evaluate("""() => {
              var svg = document.querySelector('#dial svg.disc').getBoundingClientRect();
              var ticks = Array.from(document.querySelectorAll('#dial svg.disc text.tick'));
              return {svg: [svg.left, svg.top, svg.right, svg.bottom], labels: ticks.map(t => {
                var b = t.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom,
                t.textContent]; })};
            }""")
            left, top, right, bottom = boxes["svg"]
            labels = boxes["labels"]
            assert len(labels) == 12 and {"2×6", "1"} <= {b[4] for b in labels}
            for a in labels:
                assert left <= a[0] and a[2] <= right and top <= a[1] and a[3] <= bottom, a
            for i, a in enumerate(labels):
                for b in labels[i + 1:]:
                    apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                    assert apart, (a, b)
            title = page.locator("#dial svg.disc title").text_content()
            assert title.startswith("the spinner on ")
            expect(page.locator("#dial")).not_to_have_class(re.compile("spinning"))
            tip = page.evaluate("""() => {        // the arrow's point, where it stopped
              var poly = document.querySelector('#dial svg.disc .arrow-1 polygon');
              var p = new DOMPoint(poly.points[0].x, poly.points[0].y)
                .matrixTransform(poly.getScreenCTM());
              return [p.x, p.y]; }""")
            for a in labels:                    # its tip hid the "2×4" it pointed at
                assert not (a[0] - 1 <= tip[0] <= a[2] + 1 and a[1] - 1 <= tip[1] <= a[3] + 1), \
                    (tip, a)


def test_browser_phone_an_open_page_names_the_newest_last_game(tmp_path, phone):
    """A page opened with no game in play said "The last game: Kat en Muis"; a game of Fox
    and Geese was then started and set aside, and the page, still open, went back to naming
    Kat en Muis (a page loaded then named Fox and Geese). It names the newest, live."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Ann", "Ben"]})
        post(table.url + "/api/control/end", {})
        phone.goto(table.url + "/")
        expect(phone.locator("#last-game")).to_contain_text("The last game: Kat en Muis")
        fox = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Cy", "Dee"]})["game_id"]
        expect(phone.locator("#last-game")).to_be_hidden()
        post(table.url + "/api/control/end", {})
        expect(phone.locator("#last-game")).to_contain_text("The last game: Fox and Geese")
        expect(phone.locator("#last-game a")).to_have_attribute("href", f"/history/{fox}")
        live = phone.locator("#last-game time").inner_text()
        assert "UTC" not in live, live          # the phone's own time, as a page loaded says
        screenshot(phone, "phone-last-game-live.png")
        # a page that never sees the game in play (it polls every 3 s, as when the streams
        # are full or the phone slept): the next state without one still brings the newest
        phone.route("**/api/events", lambda route: route.fulfill(status=503))
        phone.reload()
        expect(phone.locator("#last-game")).to_contain_text("The last game: Fox and Geese")
        assert phone.locator("#last-game time").inner_text() == live
        kat = post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                         "players": ["Cy", "Dee"]})["game_id"]
        post(table.url + "/api/control/end", {})                # between two polls
        expect(phone.locator("#last-game a")).to_have_attribute("href", f"/history/{kat}",
                                                                 timeout=8000)


def test_browser_phone_paired_after_loading_moves_on_the_board_and_forgets_the_last_game(
        tmp_path, phone):
    """A phone that pairs after its page loaded can move its pieces on the board at once (no
    reload), and a new game clears the last game's answers and shows the paired seat's new
    name; in a game without its button, the phone says why it plays nothing (it said only
    "This phone plays seat 5")."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                   "players": ["Ann", "Ben"]})
        now = state(table.url)
        geese = now["turn"]                                   # the Geese move first
        phone.goto(table.url + "/")
        expect(phone.locator("#board-hint")).to_contain_text("pair this phone")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, geese + 1))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text(f"seat button {geese + 1} (Ben)")
        expect(phone.locator("#board-hint")).to_contain_text("tap one of your pieces")
        path = now["board"]["moves"][0]
        for point in path:
            phone.locator(f'#board [data-point="{point}"] rect.hit').click(force=True)
        expect(phone.locator("#board-error")).to_be_hidden()
        after = state(table.url)
        assert after["board"]["last_move"] == path and after["turn"] != geese
        post(table.url + "/api/control/end", {})
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Cy", "Dee"]})
        expect(phone.locator("#paired-line")).to_contain_text(f"seat button {geese + 1} (Dee)")
        expect(phone.locator("#board-card")).to_be_hidden()
        for answer in phone.locator(".answer").all():
            assert answer.is_hidden() or answer.inner_text() == ""
        expect(phone.locator("#paired-idle")).to_be_hidden()
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Cy", "Dee"], "buttons": [3, 4]})
        expect(phone.locator("#paired-idle")).to_be_visible()            # its button sits out
        expect(phone.locator("#paired-line")).to_contain_text(
            f"seat button {geese + 1}, which has no player in this game: unpair this phone")
        phone.reload()
        expect(phone.locator("#paired-idle")).to_be_visible()
        phone.locator("#pairing").screenshot(path=str(ARTIFACTS / "phone-paired-idle.png"))


def test_browser_phone_a_taps_answer_goes_with_the_move_it_was_about(tmp_path, phone):
    """Ben's paired phone (Geese) tapped a goose on the Fox's turn: "That is a goose: it is the
    Fox's move. Tap the Fox." (a move it may not make), and the words stayed under "Your turn,
    Ben" once Ann had moved. On another's turn a tap says whose turn it is, and a tap's
    answer goes when the game moves on."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Ann", "Ben"]})
        geese = now["turn"]
        now = post(table.url + "/api/control/move", {"path": now["board"]["moves"][0]})
        phone.goto(table.url + "/")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, geese + 1))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text("(Ben)")
        goose = now["board"]["geese"][0]
        phone.locator(f'#board [data-point="{goose}"] rect.hit').click(force=True)
        expect(phone.locator("#board-hint")).to_have_text(
            "It is Ann's turn: your move comes after theirs.")
        assert phone.locator("#board .chosen").count() == 0
        post(table.url + "/api/control/move", {"path": now["board"]["moves"][0]})
        expect(phone.locator("#your-turn")).to_be_visible()
        expect(phone.locator("#board-hint")).to_have_text(
            "On your turn, tap one of your pieces, then where it goes.")
        fox = state(table.url)["board"]["fox"]
        phone.locator(f'#board [data-point="{fox}"] rect.hit').click(force=True)
        expect(phone.locator("#board-hint")).to_contain_text("That is the Fox: it is the Geese")
        phone.wait_for_timeout(300)                     # (a smooth scroll's time)
        in_view(phone, "#board-hint")                   # not below the fold: seen
        now = post(table.url + "/api/control/move", {"path": state(table.url)["board"]["moves"][0]})
        expect(phone.locator("#board-hint")).to_have_text(
            "On your turn, tap one of your pieces, then where it goes.")


def test_browser_phone_a_finished_game_offers_no_play(tmp_path, phone):
    """Once the game is over the page offers no undo, declaration, setting aside, chip
    correction or rename (each would be refused or do nothing, X11) and the board says it is
    over, live as it ends; with the game set aside, no rename form with an empty seat list."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        for selector in ("#quick-actions", "#declare-box", "#end-box", "#rename-box"):
            expect(phone.locator(selector)).to_be_visible()
        expect(phone.locator("#board-hint")).to_contain_text("Tap a piece")
        post(table.url + "/api/control/declare", {"winners": [0]})        # the Geese resign
        expect(phone.locator("#winners")).to_be_visible()
        for selector in ("#quick-actions", "#declare-box", "#end-box", "#rename-box"):
            expect(phone.locator(selector)).to_be_hidden()
        expect(phone.locator("#board-hint")).to_have_text(
            "The game is over: the board shows how it ended.")
        phone.reload()                                                   # and as the page loads
        expect(phone.locator("#board-hint")).to_contain_text("The game is over")
        for selector in ("#quick-actions", "#declare-box", "#end-box", "#rename-box"):
            expect(phone.locator(selector)).to_be_hidden()
        screenshot(phone, "phone-fox-and-geese-over.png")
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Cy", "Dee"]})
        for selector in ("#rename-box", "#transfer-box"):
            expect(phone.locator(selector)).to_be_visible()
        post(table.url + "/api/control/end", {})                          # set aside
        for selector in ("#rename-box", "#transfer-box", "#quick-actions"):
            expect(phone.locator(selector)).to_be_hidden()


def test_browser_phone_a_chip_correction_on_a_page_loaded_before_the_game_is_from_a_player(
        tmp_path, phone):
    """A phone signed in before any game kept "From: the pool" once Kat en Muis began (the
    list's only choice then), so its correction went from the pool to the pool, refused."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Cy", "Dee"]})
        expect(phone.locator("#transfer-box")).to_be_visible()
        expect(phone.locator("#transfer select[name=from]")).to_have_value("0")
        expect(phone.locator("#transfer select[name=to]")).to_have_value("pool")


def test_browser_phone_F3_a_resignation_names_one_winner_free_play_any(tmp_path, phone):
    """F3: Fox and Geese ends by a resignation, so the phone's declaration picks one winner
    (radio buttons, as the game refuses a shared win); a free-play game that follows, live,
    may name several (check boxes)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        phone.locator("#declare-box summary").click()
        expect(phone.locator("#declare-box summary")).to_have_text(
            "End the game: a player resigns")
        expect(phone.locator("#declare input[type=radio]")).to_have_count(2)
        expect(phone.locator("#declare input[type=checkbox]")).to_have_count(0)
        expect(phone.locator("#declare legend")).to_have_text(
            "Who wins? The other player resigns")                   # not a bare "Winner"
        phone.locator("#declare label", has_text="Ben").click()
        phone.locator("#declare-box").screenshot(path=str(ARTIFACTS / "phone-resign.png"))
        phone.click("#declare button[type=submit]")
        expect(phone.locator("#declare .confirm p")).to_have_text(
            "Ann resigns: Ben wins. End the game now? A finished game cannot be taken back.")
        phone.get_by_role("button", name="End the game").click()
        expect(phone.locator("#winners")).to_be_visible()
        assert state(table.url)["winners"] == [1]
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben"]})          # the same players
        expect(phone.locator("#declare input[type=checkbox]")).to_have_count(2)
        expect(phone.locator("#declare-box summary")).to_have_text(
            "End the game by declaring the winners")
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})      # and back, live
        expect(phone.locator("#declare input[type=radio]")).to_have_count(2)
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben", "Cy"]})
        expect(phone.locator("#declare input[type=checkbox]")).to_have_count(3)
        expect(phone.locator("#declare-box")).to_be_hidden()    # in the lead it was refused
        phone.reload()
        expect(phone.locator("#declare-box")).to_be_hidden()    # and as the page loads
        while state(table.url)["phase"] == "lead":
            post(table.url + "/api/control/roll", {})
        expect(phone.locator("#declare-box")).to_be_visible()
        phone.reload()
        expect(phone.locator("#declare input[type=checkbox]")).to_have_count(3)
        expect(phone.locator("#declare input[type=radio]")).to_have_count(0)
        phone.locator("#declare-box summary").click()
        for name in ("Ann", "Cy"):
            phone.locator("#declare label", has_text=name).click()
        phone.click("#declare button[type=submit]")
        expect(phone.locator("#declare .confirm p")).to_have_text(         # the choice, said
            "Ann and Cy share the win. End the game now? A finished game cannot be taken back.")
        phone.get_by_role("button", name="No, go back").click()
        assert state(table.url)["phase"] != "over"


def test_browser_phone_an_answer_goes_when_the_next_turn_begins(tmp_path, phone):
    """"Ann throws ..." stayed in green under the moves 13 turns later."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        phone.locator('#moves button[data-action="roll"]').first.click()
        answer = phone.locator("#moves-answer")
        expect(answer).to_be_visible(timeout=15_000)                     # once the dial stops
        said = answer.inner_text()
        turn = state(table.url)["turn"]
        expect(answer).to_be_visible()                                   # for this turn
        for _ in range(20):     # the next turn (the table's seeds are random: a tied lead
            if state(table.url)["turn"] != turn:        # or a double can keep the turn a while)
                break
            post(table.url + "/api/control/roll", {})
        assert state(table.url)["turn"] != turn
        expect(answer).to_be_hidden()
        assert said


def test_browser_phone_the_answer_to_a_move_that_ends_the_turn_stays_for_the_next(tmp_path, phone):
    """"Ann uncovers 1" went at once when the answer came before the state it led to: here the
    live stream is cut, so the page polls and the answer always comes first."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.route("**/api/events", lambda route: route.fulfill(status=503))   # closes it
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("choose",))
        square = min(now["players"][now["turn"]]["covered"])
        name = now["players"][now["turn"]]["name"]
        phone.reload()
        expect(phone.locator("#live")).to_contain_text("Updating every few seconds")
        phone.locator("#moves button", has_text=str(square)).first.click()
        answer = phone.locator("#moves-answer")
        expect(answer).to_contain_text(f"{name} uncovers {square}")
        after = state(table.url)
        assert after["turn"] != now["turn"]
        other = after["players"][after["turn"]]
        expect(phone.locator("#prompt")).to_contain_text(f"{other['name']} - uncover",
                                                         timeout=10_000)   # polled: the next turn
        expect(answer).to_contain_text(f"{name} uncovers {square}")        # still said
        post(table.url + "/api/control/choose", {"value": min(other["covered"])})
        expect(phone.locator("#prompt")).to_contain_text(f"{name} - uncover", timeout=10_000)
        expect(answer).to_be_hidden()                                      # that turn is over


NUMBERS_FIT = """() => {
    const list = document.getElementById("log"), first = list.querySelector("li");
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = getComputedStyle(first).font;
    const widest = Math.max(...[...list.children].map(li => pen.measureText(
        li.value + ". ").width));
    return [widest, parseFloat(getComputedStyle(list).paddingLeft)];
}"""


def test_browser_phone_log_numbers_past_99_are_whole(tmp_path, phone):
    """The live log (a scrolling list) cut "109." to "09.": its numbers need room by their
    digits, live as the log grows past 99 lines and as the page loads."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben"],
              "options": {"randomizer": {"kind": "none"}}})
        phone.goto(table.url + "/")
        for _ in range(105):
            post(table.url + "/api/control/press", {"seat": 0})
        expect(phone.locator("#log li")).to_have_count(len(state(table.url)["log"]))
        widest, room = phone.evaluate(NUMBERS_FIT)
        assert len(state(table.url)["log"]) >= 100 and widest <= room, (widest, room)
        phone.reload()
        widest, room = phone.evaluate(NUMBERS_FIT)
        assert widest <= room, (widest, room)
        phone.locator("#log-card").screenshot(path=str(ARTIFACTS / "phone-log-numbers.png"))


def long_free_play(data_dir, presses: int) -> None:
    """A store at `data_dir` holding free play (no dice) in play with `presses` points."""
    data_dir.mkdir()
    store = Store(data_dir / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"b" * 32)
        session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "none"}})
        for n in range(presses):
            session.submit({"type": "press", "seat": n % 2}, by="web")
    finally:
        store.close()


LISTED = """() => [...document.querySelectorAll("#log li")].map(li => [li.value, li.textContent])"""


def test_browser_phone_a_long_game_lists_its_newest_lines_each_numbered(tmp_path, phone):
    """The log was an <ol reversed> of every line, built anew at every state: a browser lays a
    reversed list out in a time that grows with the square of its length (9,000 lines took
    7 s, and a long game froze the page). Now its newest LOG_SHOWN lines, newest first, each
    numbered, link to the rest on the game's page (a page of LOG_PAGE lines); a new line goes
    on top and an undo takes it back off, the lines already shown left as they are."""
    from playwright.sync_api import expect
    long_free_play(tmp_path / "data", 700)
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        log, game = state(table.url)["log"], state(table.url)["game_id"]
        total = len(log)
        phone.goto(table.url + "/")
        listed = phone.locator("#log li")
        assert phone.locator("#log").get_attribute("reversed") is None
        expect(listed).to_have_count(LOG_SHOWN)
        shown = phone.evaluate(LISTED)
        assert shown == [[n, log[n - 1]] for n in range(total, total - LOG_SHOWN, -1)]
        more = phone.locator("#log-more")
        expect(more).to_contain_text(f"The newest {LOG_SHOWN} of {total} lines.")
        phone.evaluate("document.querySelectorAll('#log li')[3].dataset.kept = 'yes'")
        post(table.url + "/api/control/press", {"seat": 0})
        expect(listed.first).to_have_attribute("value", str(total + 1))
        now = state(table.url)["log"]
        assert phone.evaluate(LISTED) == [[total + 1, now[-1]]] + shown[:-1]
        assert phone.evaluate("document.querySelectorAll('#log li')[4].dataset.kept") == "yes"
        expect(more).to_contain_text(f"of {total + 1} lines.")
        screenshot(phone, "phone-long-game.png")
        post(table.url + "/api/control/undo", {})
        expect(listed.first).to_have_attribute("value", str(total))
        assert phone.evaluate(LISTED) == shown                   # the oldest line back, too
        assert phone.evaluate("document.querySelectorAll('#log li')[3].dataset.kept") == "yes"
        earlier = total - LOG_SHOWN                              # the line before the shown
        link = phone.locator("#log-more-link")
        assert link.get_attribute("href") == \
            f"/history/{game}?page={(earlier - 1) // LOG_PAGE + 1}#line-{earlier}"
        link.click()
        expect(phone.locator(f"#line-{earlier}")).to_have_text(log[earlier - 1])
        lines = phone.locator("#log li")
        expect(lines).to_have_count(total - LOG_PAGE)            # the second page: the rest
        assert phone.locator("#log").get_attribute("start") == str(LOG_PAGE + 1)
        phone.get_by_role("link", name="Earlier lines").click()
        expect(lines).to_have_count(LOG_PAGE)
        expect(lines.first).to_have_text(log[0])


def test_browser_phone_a_new_pin_at_the_box_asks_the_open_page_for_it(tmp_path, phone):
    """After "New PIN" at the box, an open phone still offered Undo, Rename and Set aside and
    answered a tap with "Enter the table's PIN first." and no field to type it in: now that
    tap brings the page back to the PIN form, saying why."""
    from playwright.sync_api import expect
    from firmware.datadir import keys
    with SimulatedTable(tmp_path / "data", tmp_path, pin=None) as table:   # a PIN it keeps
        old = keys.stored_pin(tmp_path / "data")
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Ann", "Ben"]}, pin=old)
        phone.goto(table.url + "/")
        phone.fill("#login input[name=pin]", old)
        phone.click("#login button")
        expect(phone.locator("#logout")).to_be_visible()

        box_menu(table.url, "New PIN")
        box_view(table.url, lambda v: v.get("screen") == "confirm")
        box_input(table.url, {"input": "knob", "action": "turn", "detents": 1})
        box_input(table.url, {"input": "knob", "action": "press"})
        box_view(table.url, lambda v: v.get("screen") == "pin")
        assert keys.stored_pin(tmp_path / "data") != old
        phone.locator("#rename-box summary").click()
        phone.fill("#rename input[name=name]", "Zed")
        phone.click("#rename button[type=submit]")
        expect(phone.locator("#login input[name=pin]")).to_be_visible()
        expect(phone.locator("#logout")).to_have_count(0)
        expect(phone.get_by_text("The table's PIN has changed, or this phone was signed out: "
                                 "enter the PIN.")).to_be_visible()
        fits(phone)
        screenshot(phone, "phone-after-new-pin.png")


def test_browser_phone_live_prompts_name_the_phones_controls(tmp_path, phone):
    """"Ann - flick to spin, or press the knob to move in the Field" on a phone whose buttons are
    "Spin" and "Move in the Field": live, the prompt is in the phone's words."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "lost-diamond", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        expect(phone.locator("#prompt")).to_contain_text("spin for the lead")
        now = roll_until(table.url, ("roll",))
        assert "press the knob to move in the Field" in now["prompt"]    # the box's words
        mover = now["players"][now["turn"]]["name"]
        expect(phone.locator("#prompt")).to_have_text(f"{mover} - spin, or move in the Field")
        expect(phone.locator('#moves button[data-action="next"]')).to_have_text(
            "Move in the Field")
        post(table.url + "/api/control/press", {"seat": now["turn"]})      # takes the diamond
        expect(phone.locator("#players tr.turn")).to_contain_text("has the diamond")
        expect(phone.locator("#players th.col-square")).to_be_hidden()   # no squares kept
        post(table.url + "/api/control/new-game", {"game": "cats-and-dogs",
                                                   "players": ["Ann", "Ben"]})
        expect(phone.locator("#players th.col-square")).to_be_visible()  # live, a new game
        expect(phone.locator("#players td.col-square").first).to_have_text("Start")
        screenshot(phone, "phone-prompt-lost-diamond.png")
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",    # K1: whose numbers
                                                   "players": ["Ann", "Ben"]})
        for _ in range(60):
            now = state(table.url)
            if now["phase"] == "play" and all(p["position"] for p in now["players"]):
                break
            post(table.url + "/api/control/roll", {})
        cat = next(p for p in now["players"] if p["role"] == "cat")
        expect(phone.locator("#players td.col-square")).to_contain_text(
            [re.compile(r"^(red|black) \d+\b")] * 2)
        expect(phone.locator("#players tr", has_text=cat["name"]).locator(
            "td.col-square")).to_have_text(re.compile(r"^red \d+\b"))
        screenshot(phone, "phone-kat-en-muis-squares.png")


def test_browser_phone_c1_chances_are_listed_in_the_players_order(tmp_path, phone):
    """C1: Cats and Dogs plays in the order of its lead spins and the players' table lists
    them so; the chances beneath listed them by seat, a second order for the same people."""
    from playwright.sync_api import expect
    from companion.state import row_order
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        for _ in range(30):          # a lead whose order is not the seats turning round
            post(table.url + "/api/control/new-game",
                 {"game": "cats-and-dogs", "players": ["Ann", "Ben", "Cy", "Dee"]})
            now = roll_until(table.url, ("roll",))
            if row_order(now) != [0, 1, 2, 3]:
                break
        order = [now["players"][i]["name"] for i in row_order(now)]
        assert order != ["Ann", "Ben", "Cy", "Dee"]       # else the test could not fail
        phone.goto(table.url + "/")
        expect(phone.locator("#chance-list li")).to_have_count(4)
        listed = lambda: phone.evaluate(  # noqa: E731
            "() => [...document.querySelectorAll('#chance-list li')]"
            ".map(li => li.childNodes[1].textContent.trim())")
        assert listed() == order                               # as the page is served
        post(table.url + "/api/control/roll", {})
        phone.wait_for_function("v => +document.body.dataset.version.split(':')[1] >= v",
                                arg=state(table.url)["version"])
        assert listed() == order                               # and live


def test_browser_phone_script_offers_the_moves_the_server_offers(tmp_path, phone):
    """moves.js mirrors web/moves.py for every live state; the Lost Diamond's seat press went
    missing on the phone once, and the two must not drift apart: every game's states of
    seeded random tables, offered by both, for a signed-in phone and for each seat; and the
    players' rows in the order of play (C1) as the server lists them."""
    from companion.replay import replay
    from companion.state import row_order
    from web.domino import checkers_words, covered_words
    from web.moves import moves, phone_prompt
    from web.pages import role_text, roll_text
    from web_support import random_table
    ranked = replay([{"type": "new_game", "game": "cats-and-dogs",
                      "players": ["Ann", "Ben", "Cy", "Dee"]}] +
                    [{"type": "roll", "values": [v]} for v in (6, 3, 6, 3, 1, 2, 5, 4)]).to_json()
    cases = []
    for game in sorted(GAMES):
        for seed in range(3):
            for snapshot, _ in random_table(game, seed, steps=150):
                snapshot = {k: v for k, v in snapshot.items() if k != "log"}
                for seat in (None, 0, 1):
                    cases.append((snapshot, seat, moves(snapshot, seat)))
    met = {m["label"] for _, _, offered in cases for m in offered}
    assert {"Field move: take the diamond (if it reaches)",
            "Field move: capture the diamond (if it reaches)", "Capture the diamond",
            "Home with the diamond", "Confirm: home with the diamond", "Move in the Field",
            "Pass", "Cat takes a mouse", "End turn", "1"} <= met
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        phone.wait_for_function("() => !!(window.ParlourMoves && window.ParlourMoves.offered)")
        offered = phone.evaluate("cases => cases.map(c => window.ParlourMoves.offered(c[0], c[1]))",
                                 [[s, seat] for s, seat, _ in cases])
        rows = phone.evaluate("states => states.map(s => window.ParlourState.rowOrder(s))",
                              [ranked] + [s for s, seat, _ in cases if seat is None])
        said = phone.evaluate("states => states.map(s => window.ParlourState.said(s))",
                              [s for s, seat, _ in cases if seat is None])
    assert rows == [row_order(s) for s in [ranked] + [s for s, seat, _ in cases if seat is None]]
    served = [{"prompt": phone_prompt(s), "roll": roll_text(s),    # the roles, the checkers
               "roles": [role_text(p) for p in s["players"]],
               "checkers": [[checkers_words(p), covered_words(p)] if p.get("checkers")
                            else None for p in s["players"]]}
              for s, seat, _ in cases if seat is None]
    assert said == served
    assert any("Last uncovered" in s["roll"] for s in said)      # Domino Rex's were among them
    assert rows[0] == [2, 0, 1, 3]                       # C1: Cy, Ann, Ben, Dee
    assert len(offered) == len(cases) > 1000
    wrong = [(s["game"], s["awaiting"], seat, js, py) for (s, seat, py), js
             in zip(cases, offered) if js != py]
    assert wrong == [], wrong[:3]


def pi_waits_after_an_undo(url: str) -> dict:
    """Fox and Geese, Ann against the Pi's Geese: the Pi's first move taken back (it waits to
    be asked). The state then."""
    post(url + "/api/control/new-game", {"game": "fox-and-geese", "players": ["Ann", "Pi"],
                                         "pi": [1]})
    box_view(url, lambda v: state(url)["turn"] == 0)                       # the Pi moved
    post(url + "/api/control/undo", {})                                    # taken back: it waits
    return state(url)


def test_browser_phone_the_pis_turn_offers_no_move_and_says_the_pi_moves(tmp_path, phone):
    """A phone signed in with the PIN once moved the Pi's geese (and the box headed it "Pi"):
    on the Pi's turn the board has no piece to move, the prompt says the Pi moves by itself,
    and after an undo the knob at the box asks it."""
    from playwright.sync_api import expect
    from simulated_table import call
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = pi_waits_after_an_undo(table.url)
        assert now["turn"] == 1 and now["board"]["moves"]
        sign_in(phone, table.url)
        expect(phone.locator("#prompt")).to_have_text(      # not the knob alone: this phone
            "Pi (Geese) - the Pi waits after the undo: Let the Pi move, or press the knob at "
            "the box")
        expect(phone.locator("#board-hint")).to_have_text(     # under the board too
            "The Pi waits after the undo: Let the Pi move (above), or press the knob at the box.")
        expect(phone.locator("#moves button")).to_have_text(["Let the Pi move"])   # no goose
        expect(phone.locator("#board-card")).to_be_visible()
        assert phone.locator('[data-point][aria-label$=", can move"]').count() == 0
        goose = now["board"]["moves"][0]
        phone.locator(f'[data-point="{goose[0]}"]').click()
        phone.locator(f'[data-point="{goose[1]}"]').click()
        assert state(table.url)["log"] == now["log"]                       # nothing moved
        fits(phone)
        screenshot(phone, "phone-pi-turn.png")
        knob = {"input": "knob", "action": "press"}
        box_view(table.url, lambda v: v.get("state", {}).get("version") == now["version"])
        for _ in range(3):      # a press reads the undo's notice away (or comes just after it
            call(table.url, "/device/input", knob, pin=False)    # went by itself): the next asks
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline and state(table.url)["version"] == now["version"]:
                time.sleep(0.05)
            if state(table.url)["version"] != now["version"]:
                break
        expect(phone.locator("#prompt")).to_contain_text("Ann")            # the Pi moved, live
        assert state(table.url)["turn"] == 0
        expect(phone.locator("#board-hint")).to_have_text(     # Ann's turn: what a tap does
            "Tap a piece of the side to move, then where it goes.")


def test_browser_phone_after_an_undo_a_phone_lets_the_pi_move(tmp_path, phone):
    """After an undo the Pi waits to be asked, and only the box's knob could ask it: a table
    playing from phones (the box across the room) was stuck on "press the knob at the box".
    A phone signed in (or paired) offers "Let the Pi move", and the Pi moves."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = pi_waits_after_an_undo(table.url)
        assert now["turn"] == 1 and now["taken_back"]
        time.sleep(0.5)
        assert state(table.url)["log"] == now["log"]                       # it waits indeed
        sign_in(phone, table.url)
        phone.get_by_role("button", name="Let the Pi move").click()
        expect(phone.locator("#prompt")).to_contain_text("Ann")            # the Pi moved, live
        after = state(table.url)
        assert after["turn"] == 0 and len(after["log"]) == len(now["log"]) + 1
        assert after["log"][-1].startswith("Pi"), after["log"][-1]
        expect(phone.locator("#moves button", has_text="Let the Pi move")).to_have_count(0)


def test_browser_phone_the_pis_reply_shown_before_the_answer_joins_it_and_no_more(tmp_path,
                                                                                  phone):
    """"Let the Pi move" answered "The Pi moves" after the stream had shown the Pi's move (the
    Pi replies in milliseconds), so the answer waited on the Pi's turn and took the next
    person's move made elsewhere, and the Pi's next, as "Then: ..." as if this phone had made
    them. The Pi's reply shown already joins the answer at once; a move by anyone else makes
    the answer the past."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = pi_waits_after_an_undo(table.url)
        sign_in(phone, table.url)

        def late(route):                     # the answer comes after the live state does
            response = route.fetch()
            box_view(table.url, lambda v: state(table.url)["turn"] == 0)     # the Pi moved
            time.sleep(1.0)                  # and the stream has brought it to the page
            route.fulfill(response=response)
        phone.route("**/control/pi-move", late)
        phone.get_by_role("button", name="Let the Pi move").click()
        answer = phone.locator("#moves-answer")
        expect(answer).to_contain_text("The Pi moves")
        replied = state(table.url)
        assert replied["last_by"] == "pi" and len(replied["log"]) == len(now["log"]) + 1
        expect(answer).to_contain_text("Then: " + replied["log"][-1])      # the Pi's reply
        fox = replied["board"]["moves"][0]
        post(table.url + "/api/control/move", {"path": fox})              # Ann, elsewhere
        box_view(table.url, lambda v: len(state(table.url)["log"]) >= len(replied["log"]) + 2)
        after = state(table.url)
        phone.wait_for_function(SHOWS_AT_LEAST, arg=[after["boot"], after["version"]])
        assert "Ann's Fox" not in answer.inner_text()       # not this phone's: the past
        assert after["log"][len(replied["log"])] not in answer.inner_text()


PLAYER_COLUMNS = r"""() => {
  const shown = n => !n.hidden, words = n => n.textContent.replace(/\s+/g, ' ').trim();
  return [Array.from(document.querySelectorAll('#players thead th')).filter(shown).map(words),
          Array.from(document.querySelectorAll('#players tbody tr'))
            .map(r => Array.from(r.cells).filter(shown).slice(2).map(c =>
              c.classList.contains('col-clock') ? words(c).replace(/\d/g, '#') : words(c)))];
}"""


SHOWS_AT_LEAST = """([boot, version]) => {
  const [shown, at] = (document.body.getAttribute('data-version') || ':').split(':');
  return shown === boot && Number(at) >= version;
}"""


def players_table(phone, url: str, now: dict, plain) -> list:
    """The players table's shown headings and cells (past Button and Player; a clock's digits
    as #, as it ticks) once the open page shows `now`, checked against the server's first
    render of it."""
    phone.wait_for_function(SHOWS_AT_LEAST, arg=[now["boot"], now["version"]])  # or newer:
    live = phone.evaluate(PLAYER_COLUMNS)                  # the chances coming in add versions
    plain.goto(url + "/")
    assert plain.evaluate(PLAYER_COLUMNS) == live
    return live


def test_browser_phone_a_role_column_only_where_it_holds_something_live_and_first(
        tmp_path, phone, browser):  # noqa: F811
    """Life's Mishaps and India showed "Role" over an empty column, Gantlope "1 in Goal" and
    The Lost Diamond "has the diamond" under "Role": the column is there only where a player
    has something in it, headed "Role" for sides and "Now" for how a player stands, alike
    live on an open page and in the server's first render."""
    for plain in phone_page(browser, PHONE, java_script_enabled=False):
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            phone.goto(table.url + "/")

            def start(game: str) -> dict:
                return post(table.url + "/api/control/new-game",
                            {"game": game, "players": ["Ann", "Ben"]})

            heads, _ = players_table(phone, table.url, start("lifes-mishaps"), plain)
            assert "Role" not in heads and "Now" not in heads
            heads, rows = players_table(phone, table.url, start("fox-and-geese"), plain)
            assert heads[2] == "Role" and sorted(r[0] for r in rows) == ["Fox", "Geese"]
            now = start("gantlope")
            while now["phase"] != "play" or now["awaiting"] == "roll":
                now = post(table.url + "/api/control/roll", {})
            now = post(table.url + "/api/control/press", {"seat": now["turn"]})
            heads, rows = players_table(phone, table.url, now, plain)
            assert heads[2] == "Now" and sorted(r[0] for r in rows) == ["", "1 in Goal"]
            fits(phone)
            screenshot(phone, "phone-players-now.png")
            start("lost-diamond")
            now = roll_until(table.url, ("roll",))
            now = post(table.url + "/api/control/press", {"seat": now["turn"]})
            heads, rows = players_table(phone, table.url, now, plain)
            assert heads[2] == "Now" and sorted(r[0] for r in rows) == ["", "has the diamond"]
            heads, _ = players_table(phone, table.url, start("india"), plain)
            assert "Role" not in heads and "Now" not in heads


def clock_cells(page) -> list[str]:
    return page.evaluate("() => Array.from(document.querySelectorAll("
                         "'#players tbody td.col-clock'))"
                         ".map(c => c.hidden ? null : c.textContent.trim())")


@pytest.mark.parametrize("phone_ahead", [0, 3600, -3600])
def test_browser_phone_f1_fox_and_geese_clocks_tick_by_the_tables_time(tmp_path, browser,  # noqa: F811
                                                                      phone_ahead):
    """F1's thinking clocks were shown nowhere: a Clock column in Fox and Geese only, the
    player to move's ticking once a second from the table's time (a phone whose clock is an
    hour out shows the same), the other's still, and none once the game is over."""
    from playwright.sync_api import expect
    skew = f"const real = Date.now; Date.now = () => real() + {phone_ahead * 1000};"
    for phone in phone_page(browser, PHONE, init_script=skew, is_mobile=True):
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            now = post(table.url + "/api/control/new-game",
                       {"game": "fox-and-geese",
                        "players": ["Ann", "Benedictcumberbatchsmyth"]})
            now = post(table.url + "/api/control/move", {"path": now["board"]["moves"][0]})
            geese = now["players"][1]["clock_seconds"]
            assert now["clock"]["seat"] == 0 == now["turn"]
            phone.goto(table.url + "/")
            expect(phone.locator("#players th.col-clock")).to_have_text("Clock")
            expect(phone.locator("#players th.col-clock")).to_be_visible()
            first = clock_cells(phone)
            assert first[1] == f"0:{int(geese):02d}" and first[0] in ("0:00", "0:01", "0:02")
            phone.wait_for_function(
                "() => document.querySelector('#players td.col-clock').textContent.trim()"
                " >= '0:03'")
            ticked = clock_cells(phone)
            assert ticked[1] == first[1] and "0:03" <= ticked[0] <= "0:06", ticked
            fits(phone)
            if phone_ahead == 0:
                screenshot(phone, "phone-fox-and-geese-clocks.png")
            now = post(table.url + "/api/control/declare", {"winners": [0]})
            phone.wait_for_function(SHOWS_AT_LEAST, arg=[now["boot"], now["version"]])
            over = clock_cells(phone)
            phone.wait_for_timeout(1500)
            assert clock_cells(phone) == over                            # stopped
            assert over[0] == clock_text_of(now["players"][0]["clock_seconds"])
            post(table.url + "/api/control/new-game",
                 {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
            expect(phone.locator("#players th.col-clock")).to_be_hidden()
            assert clock_cells(phone) == [None, None]


def test_browser_phone_f1_a_page_opened_before_the_game_ticks_at_once(tmp_path, phone):
    """F1: a phone opened before Fox and Geese began showed the Fox's clock at "0:00" for as
    long as the page had been open (70 s, 12 s...): the page's time was taken from its stamp
    when a clock was first shown, not when the page was loaded."""
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        phone.wait_for_timeout(6000)                          # the family opens the page first
        now = post(table.url + "/api/control/new-game",
                   {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        now = post(table.url + "/api/control/move", {"path": now["board"]["moves"][0]})
        phone.wait_for_function(SHOWS_AT_LEAST, arg=[now["boot"], now["version"]])
        seen = []
        for _ in range(40):                                   # 4 s: it ticks within them
            seen.append(clock_cells(phone)[0])
            if seen[-1] and seen[-1] >= "0:02":
                break
            phone.wait_for_timeout(100)
        assert seen[-1] and "0:02" <= seen[-1] <= "0:04", seen


def clock_text_of(seconds: float) -> str:
    from web.pages import clock_text
    return clock_text(seconds)


def test_browser_phone_kat_en_muis_calls_its_stakes_both_pots_live(tmp_path, phone):
    """K1, K8: the chips in the middle are the two players' pots, which the winner takes; an
    open page says so when Kat en Muis follows Life's Mishaps (whose pool is a pool, L1)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "lifes-mishaps",
                                                   "players": ["Ann", "Ben"]})
        phone.goto(table.url + "/")
        expect(phone.locator("#pool-line")).to_have_text(re.compile(r"^Pool: \d+ chips$"))
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Ann", "Ben"]})
        expect(phone.locator("#pool-line")).to_have_text("Both pots: 10 chips")



FORTY_DAYS = 40 * 86400
AHEAD = f"(function () {{ var real = Date.now; Date.now = function () {{ return real() + " \
        f"{FORTY_DAYS * 1000}; }}; }})();"


@pytest.fixture
def phone_ahead(browser):  # noqa: F811
    """A phone whose clock is 40 days ahead of the box's: the box's is the one behind."""
    yield from phone_page(browser, PHONE, init_script=AHEAD, is_mobile=True)


def test_browser_phone_a_box_away_from_any_time_server_dates_games_by_the_phones_clock(
        tmp_path, phone_ahead):
    """A Pi boots with its last shutdown's time and, on its own hotspot, never meets a time
    server: the phones' clocks date the evening's games (history, BG Stats, a club's league)."""
    from datetime import datetime, timezone
    from firmware.stamps import SYNCED
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone_ahead, table.url)                  # the sign-in carries the phone's clock
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        with urllib.request.urlopen(f"{table.url}/api/games/{state(table.url)['game_id']}/log",
                                    timeout=5) as answer:
            started = json.loads(answer.read().splitlines()[0])["at"]
    at = datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp()
    box = datetime.now(timezone.utc).timestamp()
    phones = 0 if os.path.exists(SYNCED) else FORTY_DAYS     # a time server is believed first
    assert abs(at - box - phones) < 60, (started, phones)


def test_browser_phone_an_action_refused_after_an_undo_says_what_was_taken_back(tmp_path, phone):
    """A phone that had not yet heard of an undo at the box sent End turn on the spin the
    undo took back: "Not done: the table had moved on. Now: Ben leads" named the wrong
    change; it names the lines taken back."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "gantlope", "players": ["Ann", "Ben"]})
        spun = roll_until(table.url, ("roll",))
        spun = post(table.url + "/api/control/roll", {})
        assert spun["awaiting"] == "next"
        # the phone hears nothing but its page: its stream and its polls are cut
        phone.route("**/api/events*", lambda route: route.abort())
        phone.route("**/api/state*", lambda route: route.abort())
        sign_in(phone, table.url)
        expect(phone.get_by_role("button", name="End turn")).to_be_visible()
        undone = post(table.url + "/api/control/undo", {})
        assert undone["awaiting"] == "roll"
        phone.get_by_role("button", name="End turn").click()
        expect(phone.locator("#moves-answer")).to_contain_text(
            f"Not done: taken back meanwhile: {spun['log'][-1]}")
        screenshot(phone, "phone-taken-back-meanwhile.png")


def open_form(phone) -> None:
    phone.evaluate("() => { document.getElementById('new-game').closest('details').open = true; }")


def test_browser_phone_the_next_games_form_starts_empty(tmp_path, phone):
    """A second game started from the same page joined the first one's players: their names
    were still in the form, and a name counts as a player (tick it, or give a name)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        open_form(phone)
        phone.select_option("#game-choice", "kat-en-muis")
        names = phone.locator("#new-game input[name=player]")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Ben")
        phone.get_by_role("button", name="Start the game").click()
        expect(phone.locator("#new-game")).to_be_hidden()
        assert [p["name"] for p in state(table.url)["players"]] == ["Ann", "Ben"]
        expect(phone.locator("#game")).to_contain_text("Kat en Muis")
        # the page went up to the game just begun (it stayed by the closed form, at the foot)
        expect(phone.locator("#title")).to_be_focused()
        phone.wait_for_function("() => window.scrollY === 0")
        in_view(phone, "#title")
        open_form(phone)
        assert [names.nth(i).input_value() for i in range(2)] == ["", ""]
        phone.select_option("#game-choice", "cats-and-mice")
        phone.locator("#new-game input[name=button][value='2']").check()
        phone.locator("#new-game input[name=button][value='3']").check()
        phone.get_by_role("button", name="Start the game").click()
        phone.locator("#new-game .confirm button").first.click()   # set Kat en Muis aside
        expect(phone.locator("#game")).to_contain_text("Cats and Mice")
        assert len(state(table.url)["players"]) == 2, phone.locator("#new-game").inner_text()


def test_browser_phone_the_pis_side_decides_who_plays_the_fox(tmp_path, phone):
    """The form asked "Fox seat: the first player" beside "The Pi plays: the Fox": two answers
    to one question. Once the Pi takes a side, the Fox's seat is not asked."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        open_form(phone)
        phone.select_option("#game-choice", "fox-and-geese")
        asked = phone.locator('#new-game fieldset.options[data-game="fox-and-geese"]').first
        expect(asked).to_contain_text("who plays the Fox")
        expect(asked).to_be_visible()
        phone.select_option('select[name="pi-fox-and-geese"]', "fox")
        expect(asked).to_be_hidden()
        phone.locator("#new-game input[name=player]").nth(1).fill("Ann")
        phone.get_by_role("button", name="Start the game").click()
        expect(phone.locator("#game")).to_contain_text("Fox and Geese")
        expect(phone.locator("#title")).to_be_focused()       # the form's answer is in
        players = state(table.url)["players"]
        assert [(p["name"], p["role"], bool(p.get("pi"))) for p in players] == \
            [("Pi", "fox", True), ("Ann", "geese", False)]
        open_form(phone)                          # emptied: the first game, its own options
        first = phone.locator("#game-choice").input_value()
        assert first != "fox-and-geese"
        expect(asked).to_be_hidden()
        expect(phone.locator(f'#new-game fieldset.options[data-game="{first}"]').first).to_be_visible()
        phone.select_option("#game-choice", "fox-and-geese")
        expect(asked).to_be_visible()             # no Pi, as the emptied form says: asked



def test_browser_phone_the_answer_to_a_move_stays_through_the_pis_reply(tmp_path, phone):
    """Against the Pi, Ann's answer under the squares was gone before she saw it: the Pi
    answers in a moment, and the answer went with the turn it led to. It stays for her next
    turn, with what the Pi did."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Pi"],
                                                   "pi": [1], "pi_level": "easy"})
        sign_in(phone, table.url)
        for _ in range(40):                              # the lead, then the Pi's opening
            now = state(table.url)
            if now["phase"] == "play" and now["turn"] == 0 and now["awaiting"] == "choose":
                break
            if now["awaiting"] == "roll" and now["turn"] == 0:
                post(table.url + "/api/control/roll", {})
            phone.wait_for_timeout(200)
        assert now["turn"] == 0 and now["awaiting"] == "choose"
        phone.wait_for_function("v => +document.body.dataset.version.split(':')[1] >= v",
                                arg=now["version"])
        phone.locator("#moves button.square").first.click()
        expect(phone.locator("#moves-answer")).to_contain_text("Then: ")   # the Pi answered
        after = state(table.url)
        assert after["turn"] == 0 and after["last_by"] == "pi"
        answer = phone.locator("#moves-answer").inner_text()
        assert "Ann uncovers" in answer or "Ann's" in answer, answer
        assert after["log"][-1] in answer                                 # what the Pi did
        assert "for the lead" not in answer                               # and nothing older
        assert re.search(r"[.!?:)] Then: ", answer), answer               # a sentence each
        assert answer.rstrip().endswith((".", "!", "?", ")")), answer     # the Pi's lines too
        expect(phone.locator("#moves-answer .then")).to_have_attribute("aria-hidden", "true")
        phone.wait_for_timeout(1500)
        expect(phone.locator("#moves-answer")).to_contain_text("Then: ")   # and it stays


def test_browser_phone_a_throws_late_answer_never_covers_a_newer_moves(tmp_path, phone):
    """Ann throws for the lead from the phone; the throw's answer waits for the dial to stop.
    If the lead is settled and she uncovers before then, that answer came late over her
    uncover's ("Ann throws 3 for the lead; Pi leads. Then: ..."), and every later answer
    went on from the throw's state (ten sentences by her fourth uncover)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Pi"],
                                                   "pi": [1], "pi_level": "easy"})
        sign_in(phone, table.url)

        def slow_dial(route):                             # the throw's answer waits 5 s for
            answer = route.fetch()                        # its dial: the uncover comes first
            body = answer.json()                          # however loaded the machine
            route.fulfill(response=answer, json={**body, "after": 5} if body.get("after")
                          else body)
        phone.route("**/control/roll", slow_dial)
        squares = phone.locator("#moves button.square:not([aria-disabled])")
        for _ in range(10):                               # a tie throws again (D1)
            expect(phone.locator("#moves button")).to_have_text([re.compile("Throw")])
            phone.locator("#moves button").first.click()
            phone.wait_for_function("() => !document.querySelector('#moves form[data-sending]')")
            phone.wait_for_function("() => document.querySelector('#moves button.square') || "
                                    "document.querySelector('#moves button:not(.square)')")
            if phone.locator("#moves button.square").count():
                break
        else:
            raise AssertionError("the lead never ended")
        squares.first.click()        # once shown long enough to be read, before the dial stops
        hers = re.compile(r"Ann uncovers|: Ann's")        # opening, or after the Pi's (D2)
        expect(phone.locator("#moves-answer")).to_contain_text(hers)
        phone.wait_for_timeout(5500)                      # past the dial's stop
        answer = phone.locator("#moves-answer").inner_text()
        assert hers.search(answer) and "for the lead" not in answer, answer


def test_browser_phone_f2_a_step_when_the_fox_must_jump_says_where_it_lands(tmp_path, phone):
    """F2: the Fox must jump when it can. Its step tapped said "That point has no piece that
    can move now: tap one of the side to move", as if the Fox could not move at all; it says
    the Fox must jump and where, and the Fox stays picked for the tap that does it."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {
            "game": "fox-and-geese", "players": ["Ann", "Ben"],
            "board": {"vacant": ["a4", "g4"], "geese_to_pen": 17}})
        post(table.url + "/api/control/move", {"path": ["b4", "b5"]})     # the Geese
        now = state(table.url)
        assert now["board"]["moves"] == [["d4", "b4"]]                   # the Fox must jump
        sign_in(phone, table.url)
        phone.locator('[data-point="d4"]').click()                        # the Fox
        expect(phone.locator("#board-hint")).to_have_text("Now tap where it goes.")
        phone.locator('[data-point="d5"]').click()                        # a step: not now
        expect(phone.locator("#board-hint")).to_have_text("It must jump: tap b4.")
        assert state(table.url)["version"] == now["version"]
        phone.locator('[data-point="b4"]').click()                        # the jump
        expect(phone.locator("#board-said")).to_contain_text("Fox jumps")
        expect(phone.locator("#winners")).to_be_visible()                 # 16 geese: over


def test_browser_phone_an_undo_at_the_box_is_shown_on_every_phone(tmp_path, phone):
    """The box said "Taken back: ..."; a phone's pieces and chips jumped back and nothing it
    showed said why. Every phone says what was taken back, until the game goes on."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        before = roll_until(table.url, ("roll",))
        thrown = post(table.url + "/api/control/roll", {})
        added = thrown["log"][len(before["log"]):]
        phone.goto(table.url + "/")                                     # watching, no PIN
        notice = phone.locator("#taken-back")
        expect(notice).to_be_hidden()
        box_drawn(table.url)                                            # seen at the box
        post(table.url + "/device/input", {"input": "undo"})            # the box's Undo
        expect(notice).to_be_visible()
        expect(notice).to_have_text("Taken back: " + "; ".join(added))
        fits(phone)
        screenshot(phone, "phone-taken-back-at-the-box.png")
        phone.reload()                                                  # a page loaded now
        expect(notice).to_have_text("Taken back: " + "; ".join(added))  # is told too
        post(table.url + "/api/control/roll", {})                       # the game goes on
        expect(notice).to_be_hidden()


def test_browser_phone_d2_an_undo_says_which_square_to_cover_again_as_the_box_does(tmp_path,
                                                                                    phone):
    """D2: the box said "Taken back: Ann uncovers 3 to open the game; nothing moves. Cover
    Ann's 3 again."; the phones said the first half only, and the square stayed uncovered on
    the printed board. Every phone, and the answer to a phone's own Undo, say it too."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("choose",))
        name, value = now["players"][now["turn"]]["name"], now["players"][now["turn"]]["covered"][0]
        phone.goto(table.url + "/")
        post(table.url + "/api/control/choose", {"value": value})
        box_drawn(table.url)
        post(table.url + "/device/input", {"input": "undo"})              # the box's Undo
        notice = phone.locator("#taken-back")
        expect(notice).to_have_text(f"Taken back: {name} uncovers {value} to open the game; "
                                    f"nothing moves. Cover {name}'s {value} again.")
        fits(phone)
        screenshot(phone, "phone-undo-cover-again.png")
        post(table.url + "/api/control/choose", {"value": value})
        sign_in(phone, table.url)
        phone.get_by_role("button", name="Undo the last step").click()
        answer = phone.locator("#quick-actions + .answer, #quick-actions .answer").first
        expect(answer).to_contain_text(f"nothing moves. Cover {name}'s {value} again.")


def test_browser_phone_two_undos_in_a_row_are_both_shown_as_on_the_box(tmp_path, phone):
    """Two undos a moment apart: the box says both (the squares of each to cover again); the
    phone's line under the prompt said the second only, and the first square stayed bare."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Ben"]})
        roll_until(table.url, ("choose",))
        for _ in range(2):
            now = state(table.url)
            post(table.url + "/api/control/choose",
                 {"value": now["players"][now["turn"]]["covered"][-1]})
        phone.goto(table.url + "/")
        first = post(table.url + "/api/control/undo", {})
        second = post(table.url + "/api/control/undo", {})
        said = [f"Taken back: {u['undone'][0]}. {' '.join(u['put_back'])}" for u in (first, second)]
        expect(phone.locator("#taken-back")).to_have_text(" ".join(said))
        phone.reload()                                  # a page loaded now: both too (the
        expect(phone.locator("#taken-back")).to_have_text(" ".join(said))   # state has each)
        post(table.url + "/api/control/choose", {"value": second["players"][second["turn"]]
                                                 ["covered"][-1]})      # the game goes on
        expect(phone.locator("#taken-back")).to_be_hidden()


def test_browser_phone_the_answer_to_an_undo_goes_when_the_game_moves_on(tmp_path, phone):
    """The answer under "Undo the last step" stayed through every turn after it (and a second
    undo's answer showed beside it): an answer stays while the table is as it left it."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        roll_until(table.url, ("roll",))
        post(table.url + "/api/control/roll", {})
        sign_in(phone, table.url)
        phone.get_by_role("button", name="Undo the last step").click()
        answer = phone.locator("#quick-actions + .answer, #quick-actions .answer").first
        expect(answer).to_contain_text("Taken back: ")
        post(table.url + "/api/control/roll", {})                       # the box throws
        expect(answer).to_be_hidden()


def test_browser_phone_an_answer_goes_when_its_throw_is_taken_back(tmp_path, phone):
    """The answer stayed for the turn the action led to, however the game went on within it:
    "Ann spins 3 and 4" stayed under the moves after the box took that spin back (as a throw
    again or the box's own throw left the last one said)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "gantlope", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        sign_in(phone, table.url)
        phone.locator('#moves button[data-action="roll"]').first.click()
        answer = phone.locator("#moves-answer")
        expect(answer).to_contain_text(f"{now['players'][now['turn']]['name']} spins",
                                       timeout=15_000)                  # once the dial stops
        box_drawn(table.url)
        post(table.url + "/device/input", {"input": "undo"})
        expect(phone.locator("#taken-back")).to_be_visible()
        assert state(table.url)["turn"] == now["turn"]                  # the same turn
        expect(answer).to_be_hidden()


def test_browser_phone_a_throw_refused_for_another_says_it_when_the_dial_stops(tmp_path, phone):
    """Two phones tapped Throw at once: the other's counted, this one's was refused with
    "Not done: the table had moved on. Now: Ann throws 5 and 5 (10) ..." while its own dial
    still spun that throw, and the refusal stayed after the turn passed to Ben."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        expect(phone.locator("#moves button")).to_have_text([re.compile("Throw")])

        def another_phone_first(route):
            post(table.url + "/api/control/roll", {})     # the other tap lands first
            route.continue_()
        phone.route("**/control/roll", another_phone_first)
        phone.locator("#moves button").first.click()
        answer = phone.locator("#moves-answer")
        phone.wait_for_function("() => !document.querySelector('#moves form[data-sending]')")
        thrown = state(table.url)["log"][-1]
        assert "Ann throws" in thrown
        if phone.evaluate("document.getElementById('dial').classList.contains('spinning')"):
            assert thrown not in answer.inner_text()      # the dial has not shown it yet
        expect(phone.locator("#dial")).not_to_have_class(re.compile("spinning"), timeout=15_000)
        expect(answer).to_contain_text("Not done")
        phone.unroute("**/control/roll")
        post(table.url + "/api/control/roll", {})         # Ben's throw: the refusal goes
        expect(phone.locator("#roll-text")).to_contain_text("Ben", timeout=15_000)
        expect(answer).to_be_hidden()


def test_browser_phone_says_who_is_joining_at_the_box(tmp_path, phone):
    """While the players joined a game at the box, every phone said "No game in play" and
    "Choose a game": it says which game and who has joined, live, and the game when begun."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text(
            "Choose a game at the box, or enter the PIN below to start one here")
        box_input(table.url, {"input": "knob", "action": "press"})       # the games
        box_view(table.url, lambda v: v.get("screen") == "games")
        box_input(table.url, {"input": "knob", "action": "press"})       # the first: join
        box_view(table.url, lambda v: v.get("screen") == "join")
        title = state(table.url)["setup"]["title"]
        expect(phone.locator("#prompt")).to_have_text(
            f"Joining {title} at the box: press your seat button there")
        box_input(table.url, {"input": "seat", "seat": 0})
        box_input(table.url, {"input": "seat", "seat": 1})
        expect(phone.locator("#prompt")).to_have_text(
            f"Joining {title} at the box: Red and Blue so far")
        expect(phone.locator("#title")).to_have_text(title)           # not "No game in play"
        expect(phone).to_have_title(f"{title} · Parlour")
        phone.reload()                                                # the page as served
        expect(phone.locator("#title")).to_have_text(title)
        expect(phone).to_have_title(f"{title} · Parlour")
        box_input(table.url, {"input": "knob", "action": "press"})        # begun (or its Pi/dice)
        box_view(table.url, lambda v: v.get("screen") != "join")
        if state(table.url)["game"] is None:
            box_input(table.url, {"input": "knob", "action": "press"})
        expect(phone.locator("#title")).to_have_text(title)
        expect(phone.locator("#prompt")).not_to_contain_text("Joining")


def test_browser_phone_with_no_game_says_what_this_phone_can_do(tmp_path, browser, phone):
    """A phone not signed in read "Choose a game at the box, or below", where below were only
    the PIN box and pairing: it is told to enter the PIN there, and a signed-in phone, which
    has the game form below, keeps its words, also once a game set aside leaves no game
    (the words status.js says live)."""
    from playwright.sync_api import expect
    watching = "Choose a game at the box, or enter the PIN below to start one here"
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text(watching)
        fits(phone)
        screenshot(phone, "status-no-game-watching-390.png")
        second = phone_page(browser, PHONE)
        signed = next(second)
        sign_in(signed, table.url)
        expect(signed.locator("#prompt")).to_have_text("Choose a game at the box, or below")
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Ann", "Ben"]})
        expect(phone.locator("#title")).to_have_text("Kat en Muis")
        expect(signed.locator("#title")).to_have_text("Kat en Muis")
        post(table.url + "/api/control/end", {})
        expect(phone.locator("#prompt")).to_have_text(watching)
        expect(signed.locator("#prompt")).to_have_text("Choose a game at the box, or below")
        next(second, None)                   # its context closed, no script error on it


def test_browser_phone_asks_before_starting_over_a_game_joined_at_the_box(tmp_path, phone):
    """A signed-in phone started Life's Mishaps while Kat en Muis was being joined at the box:
    the two who had pressed their seats were left out, with no word on either side. The phone
    asks first; "No, go back" starts nothing."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        box_input(table.url, {"input": "knob", "action": "press"})       # the games
        box_view(table.url, lambda v: v.get("screen") == "games")
        box_input(table.url, {"input": "knob", "action": "press"})       # the first: join
        box_view(table.url, lambda v: v.get("screen") == "join")
        box_input(table.url, {"input": "seat", "seat": 0})
        box_input(table.url, {"input": "seat", "seat": 1})
        title = state(table.url)["setup"]["title"]
        sign_in(phone, table.url)
        expect(phone.locator("#prompt")).to_have_text(
            f"Joining {title} at the box: Red and Blue so far")
        open_form(phone)
        phone.select_option("#game-choice", "lifes-mishaps")
        names = phone.locator("#new-game input[name=player]")
        names.nth(2).fill("Ann")
        names.nth(3).fill("Ben")
        phone.get_by_role("button", name="Start the game").click()
        ask = phone.locator("#new-game .confirm")
        expect(ask).to_contain_text(f"{title} is being set up at the box (Red and Blue "
                                    "joined). Start this game instead?")
        fits(phone)
        screenshot(phone, "phone-new-game-over-a-join-at-the-box.png")
        ask.get_by_role("button", name="No, go back").click()
        assert state(table.url)["game"] is None
        phone.get_by_role("button", name="Start the game").click()
        ask.get_by_role("button", name="Start this one").click()
        expect(phone.locator("#game")).to_contain_text("Life's Mishaps")
        box_view(table.url, lambda v: "instead of the game joined here" in str(v))


def test_browser_phone_signed_in_and_paired_says_for_whom_it_moves(tmp_path, phone):
    """A phone with the PIN moves for anyone; paired with Ben's seat as well, on Ann's turn it
    offered a bare "Throw the dice" above "This phone plays seat button 2 (Ben)", and a tap
    threw for Ann as if Ann had."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        turn, other = now["turn"], 1 - now["turn"]
        names = [p["name"] for p in now["players"]]
        sign_in(phone, table.url)
        expect(phone.locator("#moves button")).to_have_text(["Throw the dice"])   # the host's
        code = box_pairing_code(table.url, now["players"][other]["button"])
        phone.locator("#pair-code").fill(code)
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text(names[other])
        expect(phone.locator("#moves button")).to_have_text([f"Throw the dice for {names[turn]}"])
        screenshot(phone, "phone-pin-and-paired-for-whom.png")


def test_browser_phone_signed_in_and_paired_names_each_buttons_player_once(tmp_path, phone):
    """Signed in and paired with another seat, on Ben's turn free play's buttons read "A point
    for Ann for Ben" (whose point?), and India's claim "Confirm: a man is home and wins for
    Ben". A button that names its player is left as it is; one that says what it does says
    for whom before its colon."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "india", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        turn = now["turn"]
        sign_in(phone, table.url)
        phone.locator("#pair-code").fill(box_pairing_code(table.url, (1 - turn) + 1))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text(now["players"][1 - turn]["name"])
        post(table.url + "/api/control/roll", {})
        post(table.url + "/api/control/press", {"seat": turn})          # a claim: a man home
        assert state(table.url)["home_claim"] == turn
        expect(phone.locator("#moves button", has_text="Confirm")).to_have_text(
            [f"Confirm for {now['players'][turn]['name']}: a man is home and wins"])
        expect(phone.locator("#log li").first).to_contain_text(    # P2: the phone's words
            ": confirm, or end the turn to withdraw it")
        post(table.url + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben", "Cat"]})
        now = roll_until(table.url, ("roll",))
        if now["turn"] == 1 - turn:                                     # the phone's own turn
            now = post(table.url + "/api/control/next", {})             # passed
        assert now["turn"] != 1 - turn
        points = phone.locator("#moves button", has_text="A point")
        expect(points).to_have_text([f"A point for {p['name']}" for p in now["players"]])


def test_browser_phone_m3_an_undone_capture_does_not_say_the_count_it_left(tmp_path, phone):
    """M3: "Taken back: Squeak! Ann's cat takes a mouse (9 left)" stayed under the prompt
    with 10 mice left, read as the count now."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "cats-and-mice",
                                                   "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        name = now["players"][now["turn"]]["name"]
        phone.goto(table.url + "/")
        post(table.url + "/api/control/roll", {})
        post(table.url + "/api/control/press", {"seat": now["turn"]})     # a mouse taken
        assert state(table.url)["log"][-1].endswith(" left)")
        post(table.url + "/api/control/undo", {})
        expect(phone.locator("#taken-back")).to_have_text(
            f"Taken back: Squeak! {name}'s cat takes a mouse")


def test_browser_phone_p2_an_undone_claim_is_taken_back_without_its_press_again(tmp_path, phone):
    """P2: a claim home taken back read "Taken back: Ann says a man is home: press again to
    confirm, or end the turn to withdraw it" on every phone, as if the claim stood; it was gone.
    The notice and the answer to the phone's own Undo name what went, and nothing more."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "india", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        name = now["players"][now["turn"]]["name"]
        phone.goto(table.url + "/")
        post(table.url + "/api/control/roll", {})
        post(table.url + "/api/control/press", {"seat": now["turn"]})    # a claim: a man home
        box_drawn(table.url)
        post(table.url + "/device/input", {"input": "undo"})              # the box's Undo
        deadline = time.monotonic() + 10      # the box's main loop takes it in its own time
        while state(table.url)["home_claim"] is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state(table.url)["home_claim"] is None
        expect(phone.locator("#taken-back")).to_have_text(f"Taken back: {name} says a man is home")
        post(table.url + "/api/control/press", {"seat": now["turn"]})    # claimed again
        sign_in(phone, table.url)
        phone.get_by_role("button", name="Undo the last step").click()
        answer = phone.locator("#quick-actions + .answer, #quick-actions .answer").first
        expect(answer).to_have_text(f"Taken back: {name} says a man is home")


def test_browser_phone_x8_an_undone_turn_end_is_shown_and_goes_when_play_goes_on(tmp_path, phone):
    """An ended turn says nothing in the log: its undo showed nothing on a phone (the turn
    just went back), and "Taken back: ..." of an earlier undo stayed up through the turns
    after it, as they added no line either."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "gantlope", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        name = now["players"][now["turn"]]["name"]
        post(table.url + "/api/control/roll", {})
        phone.goto(table.url + "/")
        notice = phone.locator("#taken-back")
        post(table.url + "/api/control/next", {})
        box_drawn(table.url)                                            # seen at the box, then
        post(table.url + "/device/input", {"input": "undo"})            # the box's Undo
        expect(notice).to_have_text(f"Taken back: the end of {name}'s turn ({name} plays on)")
        post(table.url + "/api/control/next", {})                       # no line in the log
        expect(notice).to_be_hidden()


def test_browser_phone_a_tap_on_the_dial_out_of_turn_says_whose_turn_it_is(tmp_path, phone):
    """A paired phone's tap on the dial on another player's turn did nothing and said nothing
    (a throw sent out of turn is answered "It is Ann's turn, not yours.")."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        now = roll_until(table.url, ("roll",))
        turn, other = now["turn"], 1 - now["turn"]
        phone.goto(table.url + "/")
        code = box_pairing_code(table.url, now["players"][other]["button"])
        phone.locator("#pair-code").fill(code)
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_be_visible()
        rolls = state(table.url)["rolls"]
        phone.locator("#dial").click()
        expect(phone.locator("#moves-answer")).to_have_text(
            f"It is {now['players'][turn]['name']}'s turn, not yours.")
        assert state(table.url)["rolls"] == rolls


def test_browser_phone_x12_a_phone_paired_with_the_pis_button_does_not_play_the_pi(tmp_path,
                                                                                  phone):
    """Given the Pi's button (a game started through the API names any buttons), a paired
    phone said "This phone plays seat button 2 (Pi)", buzzed "Your turn, Pi" at every Pi
    move and offered "Let the Pi move", which the server refused as no one's seat. The Pi's
    seat is no phone's, on the page as on the server."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        phone.goto(table.url + "/")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, 2))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text("(Ben)")
        now = pi_waits_after_an_undo(table.url)                     # the Pi holds button 2
        assert now["players"][1]["pi"] and now["players"][1]["button"] == 2 and now["turn"] == 1
        expect(phone.locator("#paired-idle")).to_be_visible()        # no player in this game
        expect(phone.locator("#paired-name")).to_have_text("")
        expect(phone.locator("#moves button")).to_have_count(0)
        expect(phone.locator("#your-turn")).to_be_hidden()
        assert not phone.title().startswith("Your turn")
        expect(phone.locator("#prompt")).not_to_contain_text("Let the Pi move")  # not here
        expect(phone.locator("#board-hint")).to_have_text(
            "The Pi waits after the undo: press the knob at the box.")
        screenshot(phone, "phone-paired-with-the-pis-button.png")


def test_browser_phone_a_paired_phone_signed_in_with_no_game_still_shows_its_pairing(
        tmp_path, phone):
    """Ben's paired phone, signed in with the PIN while no game was in play, lost "This phone
    plays seat button 2" and "Unpair this phone" (the card that holds them was hidden: a
    phone with the PIN has no moves without a game)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        phone.goto(table.url + "/")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, 2))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_be_visible()
        sign_in(phone, table.url)
        expect(phone.locator("#paired-line")).to_be_visible()
        expect(phone.get_by_role("button", name="Unpair this phone")).to_be_visible()
        phone.get_by_role("button", name="Unpair this phone").click()
        expect(phone.locator("#moves-card")).to_be_hidden()       # nothing left to show there


def test_browser_phone_unpaired_at_the_box_the_open_page_stops_offering_the_seat(
        tmp_path, browser):  # noqa: F811
    """Unpaired at the box (Menu, "Phones"), Ann's open page kept "Your turn, Ann" and Spin;
    a tap reloaded it with "Enter the table's PIN first.", the owner's secret, not her seat.
    Every page now hears that a phone was unpaired, asks whether it is this one, and says so;
    a second tab of the same phone hears a pairing made in the first."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    first, second, polling = context.new_page(), context.new_page(), context.new_page()
    polling.add_init_script("delete window.EventSource;")   # no stream: it polls instead
    try:
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            now = post(table.url + "/api/control/new-game",
                       {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
            first.goto(table.url + "/")
            second.goto(table.url + "/")                   # open before the phone is paired
            polling.goto(table.url + "/")
            expect(second.locator("#live")).to_have_text("Live")
            expect(polling.locator("#live")).to_have_text("Updating every few seconds")
            first.locator("#pair-code").fill(box_pairing_code(table.url, now["turn"] + 1))
            first.get_by_role("button", name="Pair this phone").click()
            expect(first.locator("#your-turn")).to_have_text("Your turn, Ann")
            expect(second.locator("#your-turn")).to_have_text("Your turn, Ann")   # no reload
            expect(second.locator("#paired-line")).to_contain_text("seat button 1 (Ann)")
            expect(second.locator("#moves button")).to_have_text(["Throw the dice"])
            expect(polling.locator("#your-turn")).to_have_text("Your turn, Ann")
            box_unpair(table.url, 1)
            for page in (first, second, polling):
                expect(page.locator("#your-turn")).to_be_hidden()
                expect(page.locator("#moves button")).to_have_count(0)
                expect(page.locator("#pair-answer")).to_have_text(
                    "Unpaired: this phone no longer plays a seat. Pair it again at the box "
                    "(Menu, \"Pair a phone\") to play from here.")
                expect(page.locator("#pair-form")).to_be_visible()
            fits(first)
            screenshot(first, "phone-unpaired-at-the-box.png")
            assert state(table.url)["rolls"] == now["rolls"]
    finally:
        context.close()


def test_browser_phone_the_longest_names_wrap_on_the_table_and_game_pages(tmp_path, phone):
    """Six 24-letter names with no space (X10 takes them): the prompt ran off the status
    page (507 px wide at 390) and the game page's players line off its card (478 px)."""
    from playwright.sync_api import expect
    names = [letter * 24 for letter in "MWQOGH"]
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        game = post(table.url + "/api/control/new-game", {"game": "free-play", "players": names})
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_contain_text(names[0])
        fits(phone)
        while state(table.url)["phase"] == "lead":
            post(table.url + "/api/control/roll", {})
        post(table.url + "/api/control/declare", {"winners": [1]})
        phone.goto(f"{table.url}/history/{game['game_id']}")
        expect(phone.get_by_text("won by " + names[1])).to_be_visible()
        fits(phone)
        screenshot(phone, "phone-game-page-longest-names.png")
