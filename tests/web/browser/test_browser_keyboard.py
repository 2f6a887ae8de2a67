"""The phone page by keyboard and screen reader, in Debian's chromium against a real
`parlour run --sim`: the focus stays where the player was when the table moves on (a throw of
one's own, another phone's, a confirmation), the seat buttons keep their names on a narrow
screen, "Your turn" is said once a turn, and 200 % zoom never scrolls sideways."""

from __future__ import annotations

import json
import os
import re

import pytest

from browser_support import CHROMIUM, browser, phone_page  # noqa: F401
from browser_support import sign_in as signed_in, state
from simulated_table import PIN, SimulatedTable
from test_browser import post

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PHONE = {"width": 390, "height": 844}
FOCUS = """() => { const e = document.activeElement;
  return e ? (e.id ? '#' + e.id : e.tagName) + (e.closest('#moves') ? ' in #moves' : '') +
    (e.closest('#board') ? ' in #board ' + (e.closest('[data-point]') || e).getAttribute('data-point') : '')
    : 'none'; }"""


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, is_mobile=True)


def sign_in(phone, url: str) -> None:
    signed_in(phone, url, live="Live")


def tab_to(phone, selector: str) -> None:
    phone.locator("body").focus()
    for _ in range(80):
        phone.keyboard.press("Tab")
        if phone.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_browser_keyboard_a_throw_keeps_the_focus_on_the_moves(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        for turn in range(6):                        # the lead, then play: throws and ends
            before = state(table.url)
            if phone.locator('#moves button[data-action="roll"]').count():
                tab_to(phone, '#moves button[data-action="roll"]')
                phone.keyboard.press("Enter")
                expect(phone.locator("#log li")).not_to_have_count(len(before["log"]))
                expect(phone.locator("#dial")).not_to_have_class(re.compile(r"\bspinning\b"))
                expect(phone.locator("#roll-text")).to_contain_text("Last throw")
                assert state(table.url)["rolls"] == before["rolls"] + 1
            else:
                tab_to(phone, "#moves button")
                phone.keyboard.press("Enter")
                expect(phone.locator("#log li")).not_to_have_count(len(before["log"]))
            phone.wait_for_timeout(300)
            assert phone.evaluate(FOCUS).endswith("in #moves"), (turn, phone.evaluate(FOCUS))


def test_browser_keyboard_another_phones_throw_keeps_the_focus_on_the_moves(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        for turn in range(6):
            tab_to(phone, "#moves button")
            now = state(table.url)
            post(table.url + "/api/control/" + ("roll" if now["awaiting"] == "roll" else "next"), {})
            expect(phone.locator("#log li")).not_to_have_count(len(now["log"]))
            expect(phone.locator("#dial")).not_to_have_class(re.compile(r"\bspinning\b"))
            phone.wait_for_timeout(300)
            assert phone.evaluate(FOCUS).endswith("in #moves"), (turn, phone.evaluate(FOCUS))


def test_browser_keyboard_moves_redrawn_under_the_focus_keep_it(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        kinds = set()
        for turn in range(8):              # a throw, then squares to choose: other buttons
            tab_to(phone, "#moves button")
            now = state(table.url)
            kinds.add(now["awaiting"])
            if now["awaiting"] == "choose":
                value = sorted(set(now["players"][now["turn"]]["covered"]))[0]
                post(table.url + "/api/control/choose", {"value": value})
            else:
                post(table.url + "/api/control/" + now["awaiting"], {})
            expect(phone.locator("#log li")).not_to_have_count(len(now["log"]))
            expect(phone.locator("#dial")).not_to_have_class(re.compile(r"\bspinning\b"))
            phone.wait_for_timeout(300)
            assert phone.evaluate(FOCUS).endswith("in #moves"), (turn, phone.evaluate(FOCUS))
        assert "choose" in kinds, kinds


def test_browser_keyboard_a_move_by_another_keeps_the_focus_on_the_board(tmp_path, phone):
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        point = phone.locator('#board [data-point][tabindex="0"]').first
        name = point.get_attribute("data-point")
        point.focus()
        version = state(table.url)["state_version"]
        move = state(table.url)["board"]["moves"][-1]
        post(table.url + "/api/control/move", {"path": move})
        phone.wait_for_function("v => window.ParlourState.latest().state_version > v",
                                arg=version)          # a function: the page's CSP bars eval
        phone.wait_for_timeout(300)
        assert phone.evaluate(FOCUS) == f"g in #board {name}"
        # its outline is drawn whole, inside the board (a3 is on the board's edge)
        assert phone.evaluate("""() => { const g = document.activeElement, s = getComputedStyle(g);
            const r = g.getBoundingClientRect(), b = document.getElementById('board').getBoundingClientRect();
            const grow = parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset);
            return s.outlineStyle === 'solid' && r.left - grow >= b.left && r.top - grow >= b.top &&
              r.right + grow <= b.right && r.bottom + grow <= b.bottom; }""")


def test_browser_keyboard_a_confirmation_gives_the_focus_back(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        phone.locator("#end-box summary").click()
        phone.locator("#end button[type=submit]").focus()
        phone.keyboard.press("Enter")
        expect(phone.locator("#end .confirm")).to_be_visible()
        assert phone.evaluate("document.activeElement.textContent") == "Set it aside"
        dialog = phone.get_by_role("alertdialog", name=re.compile(r"^Set this game aside\?"))
        expect(dialog).to_have_count(1)                     # the question names the dialog
        phone.keyboard.press("Escape")                      # Escape is "No, go back"
        expect(phone.locator("#end .confirm")).to_have_count(0)
        assert phone.evaluate("document.activeElement.textContent") == "Set aside"
        assert state(table.url)["game"] is not None
        phone.keyboard.press("Enter")
        tab_to(phone, "#end .confirm button.quiet")                      # "No, go back"
        phone.keyboard.press("Enter")
        assert phone.evaluate("document.activeElement.textContent") == "Set aside"
        phone.keyboard.press("Enter")
        phone.keyboard.press("Enter")                                     # "Set it aside"
        expect(phone.locator("#end + .answer")).to_have_text("Game set aside")
        assert state(table.url)["game"] is None
        phone.wait_for_timeout(300)
        assert phone.evaluate("document.activeElement !== document.body"), phone.evaluate(FOCUS)


def test_browser_keyboard_a_control_the_table_hides_hands_the_focus_to_what_is_shown(
        tmp_path, phone):
    """Another phone set the game aside while this one's focus was on "Set aside": the section
    was hidden under it and the focus fell to the page's top; it goes to the nearest part of
    the page still shown."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        phone.locator("#end-box summary").click()
        phone.locator("#end button[type=submit]").focus()
        post(table.url + "/api/control/end", {})                    # at another phone
        expect(phone.locator("#end-box")).to_be_hidden()
        phone.wait_for_timeout(300)
        assert phone.evaluate("document.activeElement !== document.body"), phone.evaluate(FOCUS)
        assert phone.evaluate("document.activeElement.getClientRects().length > 0")


def test_browser_keyboard_a_narrow_players_table_still_names_the_seat_buttons(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        phone.goto(table.url + "/")
        cells = phone.locator("#players tbody tr td:first-child")
        expect(cells).to_have_count(2)
        width = cells.first.locator(".colour").evaluate(    # measured where it is, at once:
            "n => n.getBoundingClientRect().width")          # status.js may redraw the row
        assert width <= 1                                    # only the dot shows
        expect(phone.locator("#players").get_by_role("cell", name=re.compile(r"^Button 1\b"))
               ).to_have_count(1)
        post(table.url + "/api/control/roll", {})                 # redrawn by status.js
        expect(phone.locator("#players").get_by_role("cell", name=re.compile(r"^Button 2\b"))
               ).to_have_count(1)


WORDS_CUT = """() => Array.from(document.querySelectorAll('#players td.name')).flatMap(cell => {
  const text = cell.firstChild, cut = [];
  for (const m of text.textContent.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    if (range.getClientRects().length > 1) cut.push(m[0]);
  }
  return cut; })"""
LONG_NAMES = ["Anne-Marie Vandenbroucke", "Christopher Wellington", "Bartholomew Fitzgerald",
              "Wilhelmina Oosterhout", "Maximiliaan van Oranjeb", "Jo"]


@pytest.fixture(params=[320, 390])
def sized_phone(browser, request):  # noqa: F811
    yield from phone_page(browser, {"width": request.param, "height": 844}, is_mobile=True)


def test_browser_keyboard_long_names_break_between_words_and_the_page_never_sideways(
        tmp_path, sized_phone):
    """Six long names at 320 px: the players table cut "Christoph/er/Wellingto/n" (the name
    column shrank to a letter while "Button" kept its width), and the chances list's names,
    kept on one line, made the page 485 px wide. Names now break between their words, the
    Button column is its dot, and nothing scrolls the page sideways."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "lifes-mishaps", "players": LONG_NAMES})
        for _ in range(3):
            post(table.url + "/api/control/roll", {})
        page, width = sized_phone, sized_phone.viewport_size["width"]
        page.goto(table.url + "/")
        expect(page.locator("#chance-list li")).to_have_count(6, timeout=20_000)
        assert page.evaluate(WORDS_CUT) == []
        region = page.locator(".table-scroll")
        assert region.evaluate("e => e.scrollWidth <= e.clientWidth")         # every column
        assert page.evaluate("document.documentElement.scrollWidth") <= width


BANNER = """window.bannerChanges = 0;
new MutationObserver(function (list) { window.bannerChanges += list.length; }).observe(
  document.getElementById("your-turn"), {childList: true, characterData: true, subtree: true,
                                         attributes: true});"""


def test_browser_keyboard_your_turn_is_said_once_a_turn(tmp_path, phone):
    from playwright.sync_api import expect
    from simulated_table import box_pairing_code
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = post(table.url + "/api/control/new-game",
                   {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        seat = now["turn"]
        phone.goto(table.url + "/")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, seat + 1))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#your-turn")).to_be_visible()
        phone.evaluate(BANNER)
        log = len(state(table.url)["log"])
        for i in range(3):                     # three states of the same turn: chips corrected
            post(table.url + "/api/control/transfer", {"from": 0, "to": 1, "amount": 1})
            expect(phone.locator("#log li")).to_have_count(log + i + 1)
        assert state(table.url)["turn"] == seat
        expect(phone.locator("#your-turn")).to_be_visible()
        assert phone.evaluate("window.bannerChanges") <= 1


CONTRAST = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const card = getComputedStyle(document.getElementById("control")).backgroundColor;
  return Array.from(document.querySelectorAll("#control input:not([type=hidden]), #control select"))
    .filter(e => e.getClientRects().length)
    .map(e => [e.name, ratio(getComputedStyle(e).borderTopColor, card)]);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_browser_keyboard_text_size_borders_focus_and_disclosures(tmp_path, phone, scheme):
    from playwright.sync_api import expect
    phone.emulate_media(color_scheme=scheme)
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        cdp = phone.context.new_cdp_session(phone)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
        phone.goto(table.url + "/")                         # the player's text size: 24 px
        assert phone.evaluate("getComputedStyle(document.body).fontSize") == "24px"
        ratios = phone.evaluate(CONTRAST)
        assert ratios and all(r >= 3 for _, r in ratios), ratios     # controls' edges, 3:1
        tab_to(phone, "#login input[name=pin]")
        outline = phone.evaluate("""() => { const s = getComputedStyle(document.activeElement);
            return [s.outlineStyle, s.outlineWidth, parseFloat(s.outlineOffset) > 0]; }""")
        assert outline == ["solid", "3px", True]
        sign_in(phone, table.url)
        assert phone.evaluate("getComputedStyle(document.body).fontSize") == "24px"
        ratios = phone.evaluate(CONTRAST)                    # the new game's names and choices
        assert len(ratios) > 5 and all(r >= 3 for _, r in ratios), ratios
        summary = phone.locator("#new-game-box summary")
        marker = """e => { const s = getComputedStyle(e, '::before');
            return [s.content, s.transform, e.parentElement.open]; }"""
        opened = summary.evaluate(marker)
        summary.click()
        phone.wait_for_function(                    # the chevron turns in 0.15 s, not at once
            "([e, t]) => getComputedStyle(e, '::before').transform !== t",
            arg=[summary.element_handle(), opened[1]], timeout=5_000)
        closed = summary.evaluate(marker)
        assert opened[0] != "none" and closed[0] != "none", (opened, closed)
        assert opened[2] != closed[2] and opened[1] != closed[1], (opened, closed)
        expect(phone.locator("#new-game")).to_be_hidden()


ZOOMED = {"width": 195, "height": 422}          # a 390 px phone at 200 % zoom


def test_browser_keyboard_at_200_percent_nothing_scrolls_sideways(tmp_path, browser):  # noqa: F811
    from playwright.sync_api import expect
    for page in phone_page(browser, ZOOMED, is_mobile=True):
        with SimulatedTable(tmp_path / "data", tmp_path) as table:
            page.goto(table.url + "/")
            page.fill("#login input[name=pin]", PIN)
            page.press("#login input[name=pin]", "Enter")
            expect(page.locator("#new-game")).to_be_visible()       # no game: the form is open
            wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1] == ZOOMED["width"], wide
            names = page.locator("#new-game input[name=player]")
            widths = [names.nth(i).bounding_box()["width"] for i in range(names.count())]
            assert widths and min(widths) >= 100, widths
            # In play, the players' table had five columns in 150 px: the page was 246 px wide
            # (Fox and Geese 245, /fairness's command 204). The table scrolls in its region.
            for game in ("kat-en-muis", "fox-and-geese"):
                post(table.url + "/api/control/new-game", {"game": game,
                                                           "players": ["Ann", "Ben"]})
                page.goto(table.url + "/")
                expect(page.locator("#players tbody tr")).to_have_count(2)
                wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
                assert wide[0] <= wide[1] == ZOOMED["width"], (game, wide)
                region = page.locator(".table-scroll")
                assert region.evaluate("e => e.scrollWidth > e.clientWidth")   # it scrolls
                region.focus()
                page.keyboard.press("ArrowRight")
                for _ in range(50):                      # a smooth scroll takes a moment
                    if region.evaluate("e => e.scrollLeft") > 0:
                        break
                    page.wait_for_timeout(20)
                assert region.evaluate("e => e.scrollLeft") > 0, game         # by keyboard
            page.goto(table.url + "/fairness")
            wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1] == ZOOMED["width"], ("fairness", wide)


LIVE = """() => Array.from(document.querySelectorAll(
    '[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]'))
  .map(e => [e.id, ['title', 'prompt', 'roll', 'players', 'log', 'board-said']
    .filter(id => e.querySelector('#' + id))])"""
LIVE_WRITES = """window.liveWrites = 0;
new MutationObserver(function (list) { window.liveWrites += list.length; }).observe(
  document.getElementById("live"), {childList: true, characterData: true, subtree: true});"""


def test_browser_keyboard_a_screen_reader_hears_what_changed_once(tmp_path, phone):
    """The whole game card was live: every state (a redrawn dial, a clock) had it read out
    again. One polite line says what changed: the new log line and the prompt; a line this
    phone's own action added is said by its answer only; the connection line is written only
    when it changes."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        regions = phone.evaluate(LIVE)
        assert all(not inside for _, inside in regions), regions      # nothing big is live
        assert "news" in [region for region, _ in regions], regions
        phone.evaluate(LIVE_WRITES)
        news = phone.locator("#news")
        for _ in range(2):                                  # another phone's throws
            after = post(table.url + "/api/control/roll", {})
            expect(news).to_contain_text(after["log"][-1])
            expect(news).to_have_text(re.compile(
                re.escape(phone.locator("#prompt").text_content()) + r"\.?$"))
        phone.evaluate("document.getElementById('news').textContent = ''")
        before = state(table.url)
        phone.locator("#moves button").first.click()        # this phone's own move
        answer = phone.locator("#moves-answer")
        expect(answer).not_to_have_text("")
        phone.wait_for_function("v => window.ParlourState.latest().version > v",
                                arg=before["version"])
        phone.wait_for_timeout(1_000)
        line = state(table.url)["log"][-1]
        assert line in answer.text_content()
        assert line not in news.text_content(), (news.text_content(), answer.text_content())
        assert phone.evaluate("window.liveWrites") == 0     # "Live" all along: not rewritten


def test_browser_keyboard_a_move_taken_back_before_it_was_said_is_not_said(tmp_path, phone):
    """A move and its undo within a moment: the screen reader heard the move as if it stood,
    then nothing of the undo ("Ann's goose: b4 to b5. ..."). It hears only what was taken
    back."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        news = phone.locator("#news")
        phone.evaluate("document.getElementById('news').textContent = ''")
        moved = post(table.url + "/api/control/move", {"path": ["b4", "b5"]})   # elsewhere
        post(table.url + "/api/control/undo", {})                              # at once
        expect(news).to_have_text(f"Taken back: {moved['log'][-1]}.")


def test_browser_keyboard_a_phone_that_polls_hears_every_undo(tmp_path, phone):
    """Two undos between two polls: a phone without the live stream heard the last one only
    (the first one's square to cover was never said)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        post(table.url + "/api/control/move", {"path": ["b4", "b5"]})
        post(table.url + "/api/control/move", {"path": ["d4", "b4"]})   # the jump (F2)
        phone.route("**/api/events*", lambda route: route.fulfill(status=503))   # it polls
        held = [json.dumps(state(table.url))]       # its polls answered as before the undos
        phone.route("**/api/state*", lambda route: route.fulfill(
            status=200, content_type="application/json", body=held[0]) if held else
            route.continue_())
        phone.goto(table.url + "/")
        news = phone.locator("#news")
        phone.evaluate("document.getElementById('news').textContent = ''")
        first = post(table.url + "/api/control/undo", {})
        second = post(table.url + "/api/control/undo", {})
        held.clear()                                # both between two polls, however slow
        said = [re.sub(r" \(\d+ left\)$", "", u["undone"][0]) for u in (first, second)]
        expect(news).to_have_text(f"Taken back: {said[0]}. Taken back: {said[1]}.",
                                  timeout=10_000)   # (the count then, which the undo changed)


def test_browser_keyboard_a_line_ending_in_a_bracket_is_said_as_a_sentence(tmp_path, phone):
    """"... taking 1 goose (16 left) Ben (Geese) ..." ran two sentences together for a
    screen reader: a line that ends in a bracket gets its full stop too."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        post(table.url + "/api/control/move", {"path": ["b4", "b5"]})    # another phone's
        after = post(table.url + "/api/control/move", {"path": ["d4", "b4"]})   # the jump
        assert after["log"][-1].endswith("(16 left)")
        expect(phone.locator("#news")).to_contain_text(after["log"][-1] + ". ")


def test_browser_keyboard_a_win_is_said_once(tmp_path, phone):
    """"Red wins. Red wins. Game over.": the log's last line and the headline said it twice."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game",
             {"game": "fox-and-geese", "players": ["Red", "Blue"]})
        sign_in(phone, table.url)
        after = post(table.url + "/api/control/declare", {"winners": [0]})   # Blue resigns
        assert after["log"][-2:] == ["Blue resigns", "Red wins"]
        expect(phone.locator("#news")).to_have_text("Blue resigns. Red wins. Game over.")


def accessible(phone, selector: str) -> tuple[str, str]:
    """The name and description chromium gives a screen reader for the node."""
    cdp = phone.context.new_cdp_session(phone)
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    found = ax["nodes"][0]
    return (found.get("name", {}).get("value", ""),
            found.get("description", {}).get("value", ""))


def test_browser_keyboard_the_dial_names_the_button_not_the_swipe(tmp_path, phone):
    """The dial's name read "swipe or tap the dial to spin" (a hint drawn by CSS, and its
    title): no use to a keyboard or a screen reader. It names the button that throws; the
    swipe stays on the screen for a finger."""
    from playwright.sync_api import expect
    pointer = re.compile(r"swipe|tap|drag|flick", re.I)
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        for thrown in (False, True):
            expect(phone.locator("#roll")).to_have_class(re.compile(r"\bcan-spin\b"))
            name, description = accessible(phone, "#roll")
            assert not pointer.search(name + " " + description), (name, description)
            assert name.endswith("The \u201cThrow the dice\u201d button, below, throws"), name
            assert name.startswith("Last throw: ") == thrown, name
            expect(phone.locator("#spin-pointer")).to_have_text(       # seen, not said; dice
                re.compile(r"swipe or tap the dice to throw", re.I))     # are thrown, as the
            # button says ("Swipe or tap the dial to spin" stood beside "Throw the dice")
            if not thrown:
                log = len(state(table.url)["log"])
                post(table.url + "/api/control/roll", {})
                expect(phone.locator("#log li")).to_have_count(log + 1)
                expect(phone.locator("#dial")).not_to_have_class(re.compile(r"\bspinning\b"))
