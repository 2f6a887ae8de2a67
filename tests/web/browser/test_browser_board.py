"""Fox and Geese's board on the phone (Debian's chromium against a real `parlour run --sim`):
the words under the board after a move with no answer or a refused one stay while the board
shows the state they were about and go once it moves past it; they stayed two moves on, "Now:
..." long untrue, until this phone's own next move."""

from __future__ import annotations

import os

import pytest

from browser_support import sign_in, state
from simulated_table import SimulatedTable
from test_browser import CHROMIUM, browser, phone_page, post, screenshot  # noqa: F401

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PHONE = {"width": 390, "height": 844}
IDLE = "Tap a piece of the side to move, then where it goes."     # signed in: what a tap does
NO_ANSWER = "No answer from the table: if the board does not show the move soon, make it again"


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, is_mobile=True)


def shows(phone, now: dict) -> None:
    """Wait until the page shows `now` (or later, in the same run of the table)."""
    phone.wait_for_function("""([boot, version]) => {
      const [shown, at] = (document.body.getAttribute('data-version') || ':').split(':');
      return shown === boot && Number(at) >= version; }""", arg=[now["boot"], now["version"]])


def move_on_board(phone, path: list[str]) -> None:
    for point in path:
        phone.locator(f'#board [data-point="{point}"] rect.hit').click(force=True)


def moved(url: str, path: list[str]) -> dict:
    """The move made from the API (the PIN), and the page's next state: the table's."""
    return post(url + "/api/control/move", {"path": path})


def test_browser_board_no_answer_stays_until_the_board_shows_the_move(tmp_path, phone):
    """A move whose answer is lost: while the board does not show it, "No answer ... make it
    again" stays; once it does (made elsewhere, or by the table that took it and whose answer
    was lost), the words go, and nothing is left picked ("Now tap where it goes." stayed,
    with no piece picked, into the next turn)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        now = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Ann", "Ben"]})
        shows(phone, now)
        notice, hint = phone.locator("#board-error"), phone.locator("#board-hint")
        phone.route("**/api/control/move", lambda route: route.abort("connectionreset"))
        goose = now["board"]["moves"][0]
        with phone.expect_request("**/api/state"):    # no answer: the table is asked
            move_on_board(phone, goose)
        expect(notice).to_have_text(NO_ANSWER)        # not made: true, and it stays
        expect(hint).to_have_text(IDLE)
        assert state(table.url)["log"] == now["log"]
        phone.wait_for_timeout(1000)
        expect(notice).to_have_text(NO_ANSWER)
        screenshot(phone, "phone-board-no-answer.png")
        now = moved(table.url, goose)                 # made at the box: the board shows it
        shows(phone, now)
        expect(notice).to_be_hidden()
        phone.unroute("**/api/control/move")

        def lost(route):                              # the table makes it; the answer is lost
            route.fetch()
            route.abort("connectionreset")
        phone.route("**/api/control/move", lost)
        fox = now["board"]["moves"][0]
        with phone.expect_request("**/api/state"):
            move_on_board(phone, fox)
        now = state(table.url)
        assert now["board"]["last_move"] == fox
        shows(phone, now)
        expect(phone.locator("#board-said")).to_contain_text(now["log"][-1])
        expect(notice).to_be_hidden()
        expect(hint).to_have_text(IDLE)
        assert phone.locator("#board .chosen").count() == 0
        now = moved(table.url, now["board"]["moves"][0])          # and the next turn
        shows(phone, now)
        expect(notice).to_be_hidden()
        expect(hint).to_have_text(IDLE)


def test_browser_board_a_refusal_stays_for_the_table_it_names(tmp_path, phone):
    """A move refused because the table had moved on says what the table shows ("Now: Ben's
    goose: ..."): it stays while the table shows that, and goes with the next move."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        now = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Ann", "Ben"]})
        shows(phone, now)
        first, other = now["board"]["moves"][0], now["board"]["moves"][-1]
        made = {}

        def elsewhere(route):                         # another phone's goose moves first
            made.update(moved(table.url, other))
            route.continue_()
        phone.route("**/api/control/move", elsewhere)
        move_on_board(phone, first)
        notice = phone.locator("#board-error")
        expect(notice).to_contain_text("Not done: the table had moved on. Now: ")
        assert made["log"][-1] in notice.inner_text()
        shows(phone, made)
        phone.wait_for_timeout(1000)
        expect(notice).to_contain_text(made["log"][-1])          # true still: it stays
        screenshot(phone, "phone-board-refused.png")
        phone.unroute("**/api/control/move")
        now = moved(table.url, made["board"]["moves"][0])        # the Fox moves: past
        shows(phone, now)
        expect(notice).to_be_hidden()
        expect(phone.locator("#board-hint")).to_have_text(IDLE)


def test_browser_board_a_refusal_after_a_restart_goes_when_the_game_goes_on(tmp_path, phone):
    """A move on a board from before the box restarted (the stream not back yet) is refused
    ("Not done: the box has restarted ... Now: ..."): it stays while the table shows what it
    names, through the stream's return, and goes with the next move."""
    from playwright.sync_api import expect
    table = SimulatedTable(tmp_path / "data", tmp_path)
    try:
        sign_in(phone, table.url)
        now = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Ann", "Ben"]})
        shows(phone, now)
        held = []
        phone.route("**/api/events", lambda route: held.append(route))   # the stream: late
        table.stop()
        table = SimulatedTable(tmp_path / "data", tmp_path, port=table.port)
        again = state(table.url)
        assert again["boot"] != now["boot"] and again["log"] == now["log"]
        move_on_board(phone, now["board"]["moves"][0])
        notice = phone.locator("#board-error")
        expect(notice).to_contain_text("Not done: the box has restarted")
        shows(phone, again)                                    # the table, asked
        assert state(table.url)["log"] == now["log"]           # nothing moved
        for route in held:                                     # the stream is back
            route.continue_()
        phone.unroute("**/api/events")
        expect(phone.locator("#live")).to_have_text("Live")
        phone.wait_for_timeout(500)
        expect(notice).to_contain_text("Not done: the box has restarted")
        now = moved(table.url, again["board"]["moves"][0])
        shows(phone, now)
        expect(notice).to_be_hidden()
    finally:
        table.stop()


# A game to the Fox's turn with twelve jump chains from a3, three to five geese long
CHAINS_AFTER = [["a3", "a4"], ["d4", "c5"], ["a4", "a5"], ["c5", "a3"], ["f4", "e5"],
                ["a3", "a4"], ["d3", "d4"], ["a4", "b4"], ["e3", "d3"], ["b4", "a4"],
                ["g3", "g4"], ["a4", "a3"], ["c3", "b4"]]


def test_browser_board_a_jump_chain_is_tapped_one_landing_at_a_time(tmp_path, phone):
    """The Fox picked with twelve jump chains: the board drew all twelve whole, arrowheads at
    their ends (g5, a3, c3, c5) under "Now tap where it goes.", and a tap on g5 was refused.
    Only the next landings are marked, with the path tapped so far, and the words say each
    landing is tapped in turn and how many geese the chains take."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        now = post(table.url + "/api/control/new-game", {
            "game": "fox-and-geese", "players": ["Ann", "Bartholomew"],
            "options": {"fox_seat": 0}})
        for path in CHAINS_AFTER:
            now = moved(table.url, path)
        assert now["board"]["fox"] == "a3" and len(now["board"]["moves"]) == 12
        shows(phone, now)
        hint = phone.locator("#board-hint")

        def marked() -> list[str]:
            return sorted(phone.locator("#board .target").evaluate_all(
                "gs => gs.map(g => g.getAttribute('data-point'))"))

        def heads() -> int:
            return phone.locator('#board polyline[marker-end="url(#head-pick)"]').count()

        move_on_board(phone, ["a3"])
        expect(hint).to_have_text("The Fox jumps one goose at a time: tap c3 or c5, then each "
                                  "landing in turn (3 to 5 geese in all).")
        assert marked() == ["c3", "c5"] and heads() == 2
        screenshot(phone, "phone-board-chain-picked.png")
        move_on_board(phone, ["g5"])                       # a landing further on
        expect(hint).to_have_text("g5 comes later: tap each landing in turn, c3 or c5 first.")
        assert marked() == ["c3", "c5"]
        move_on_board(phone, ["c3"])
        expect(hint).to_have_text("Keep jumping: tap e3 or c5 (1 goose so far, 3 to 5 in all).")
        assert marked() == ["c5", "e3"] and heads() == 2
        expect(phone.locator('#board [data-point="b3"]')).to_have_class("point goose jumped")
        move_on_board(phone, ["e3"])
        expect(hint).to_have_text("Keep jumping: tap g3 or c5 (2 geese so far, 4 in all).")
        move_on_board(phone, ["g3"])
        expect(hint).to_have_text("Last jump: tap g5 (3 geese so far, 4 in all).")
        assert marked() == ["g5"] and heads() == 1
        screenshot(phone, "phone-board-chain-last.png")
        move_on_board(phone, ["g5"])
        phone.wait_for_function("() => document.querySelector('#board .fox')"
                                ".getAttribute('data-point') === 'g5'")
        after = state(table.url)
        assert after["board"]["last_move"] == ["a3", "c3", "e3", "g3", "g5"]
        assert after["players"][0]["score"] == now["players"][0]["score"] + 4
        expect(hint).to_have_text(IDLE)


def test_browser_board_a_landing_that_ends_the_chain_is_said_as_the_end(tmp_path, phone):
    """a3, c3, c5: the next landings were e3 and a3, the Fox's own first point, drawn as the
    Fox, under "Keep jumping: tap e3 or a3": a tap on the Fox to start again sent a3-c3-c5-a3
    and ended a chain that could take 5 geese. The landing that ends the move says so."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {
            "game": "fox-and-geese", "players": ["Ann", "Bartholomew"],
            "options": {"fox_seat": 0}})
        for path in CHAINS_AFTER:
            now = moved(table.url, path)
        shows(phone, now)
        move_on_board(phone, ["a3"])
        move_on_board(phone, ["c3"])
        move_on_board(phone, ["c5"])
        expect(phone.locator("#board-hint")).to_have_text(
            "Keep jumping: tap e3 (2 geese so far, 3 to 5 in all), or a3, where it began, to "
            "end the move with 3 geese.")
        assert state(table.url)["version"] == now["version"]           # nothing sent yet
