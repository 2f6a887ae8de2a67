"""A double tap on the phone (two touches 0.15 s apart at one spot, in Debian's chromium against
a real `parlour run --sim`) is one action: the second touch lands on what the first one's
answer drew there (India's confirmation where the claim was, the next player's throw where
"End turn" was, Ann's next squares after the Pi's reply) and does nothing, as the box holds
its same press again; a tap once that has been shown for the box's guard time acts. Each
event is read from the game's log."""

from __future__ import annotations

import json
import os
import time
import urllib.request

import pytest

from browser_support import sign_in, state
from simulated_table import SimulatedTable, box_pairing_code
from test_browser import CHROMIUM, browser, phone_page, post, screenshot  # noqa: F401

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PHONE = {"width": 390, "height": 844}
GAP = 0.15                 # seconds between the two touches of a double tap
READY = ":not([aria-disabled])"       # a move that takes a tap now


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, is_mobile=True)


def events(url: str, game_id: int) -> list[dict]:
    """The game's log as the table keeps it."""
    with urllib.request.urlopen(f"{url}/api/games/{game_id}/log", timeout=5) as answer:
        return [json.loads(line) for line in answer.read().decode().splitlines() if line]


def made(url: str, game_id: int, since: int) -> list[tuple]:
    """The events after the first `since`, by phones (not the Pi's replies)."""
    return [(e["type"], e.get("seat"), e.get("value")) for e in events(url, game_id)[since:]
            if e.get("by", "").startswith(("pin-", "phone-"))]


def double_tap(phone, selector: str) -> None:
    """Two touches at the middle of the first `selector`, GAP apart."""
    spot = phone.locator(selector).first
    spot.scroll_into_view_if_needed()
    box = spot.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    phone.touchscreen.tap(x, y)
    time.sleep(GAP)
    phone.touchscreen.tap(x, y)


def until(found, seconds: float = 10.0):
    """found() once it is true (the table is asked every 0.05 s); fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while not found():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.05)
    return found()


def play_until(url: str, wanted, limit: int = 120) -> dict:
    """Play from the API (rolls, the lowest square, turns ended) until wanted(state); the Pi
    plays its own turns."""
    for _ in range(limit):
        now = state(url)
        if wanted(now):
            return now
        assert now["phase"] != "over", "the game ended before the spot wanted"
        if now["players"][now["turn"]].get("pi"):
            time.sleep(0.1)
        elif now["awaiting"] == "roll":
            post(url + "/api/control/roll", {})
        elif now["awaiting"] == "choose":
            covered = sorted(v for v in now["players"][now["turn"]]["covered"] if v)
            post(url + "/api/control/choose", {"value": covered[0]})
        else:
            post(url + "/api/control/next", {})
    raise AssertionError("never reached the spot wanted")


def shows(phone, now: dict) -> None:
    """Wait until the page shows `now` (or later)."""
    phone.wait_for_function("""([boot, version]) => {
      const [shown, at] = (document.body.getAttribute('data-version') || ':').split(':');
      return shown === boot && Number(at) >= version; }""", arg=[now["boot"], now["version"]])


def test_browser_taps_india_a_double_tap_claims_and_never_confirms(tmp_path, phone):
    """P2: "A man reaches home" tapped twice ended the game, "Ann wins", on a confirmation the
    player never saw. The claim is made once; its confirmation, tapped once it has been shown
    long enough, ends the game, and its own double tap sends the page nowhere (the links to
    keep the game came up under the second touch)."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "india", "players": ["Ann", "Ben"]})
        now = play_until(table.url, lambda s: s["phase"] == "play" and s["awaiting"] == "next")
        shows(phone, now)
        seat, since = now["turn"], len(events(table.url, now["game_id"]))
        claim = phone.locator("#moves button", has_text="A man reaches home")
        expect(claim).to_have_count(1)
        double_tap(phone, "#moves button >> text=A man reaches home")
        confirm = phone.locator("#moves button" + READY, has_text="Confirm: a man is home")
        expect(confirm).to_have_count(1)               # shown long enough: it takes a tap
        assert made(table.url, now["game_id"], since) == [("press", seat, None)]
        claimed = state(table.url)
        assert claimed["phase"] == "play" and claimed["home_claim"] == seat
        screenshot(phone, "phone-double-tap-claim.png")
        double_tap(phone, "#moves button >> text=Confirm: a man is home")
        until(lambda: state(table.url)["phase"] == "over")
        phone.wait_for_timeout(1500)                   # past the guard: any second act is done
        assert phone.url == table.url + "/"            # the second touch went nowhere
        expect(phone.locator("#winners")).to_have_text(now["players"][seat]["name"] + " wins")
        expect(phone.locator("#over-links a#record-link" + READY)).to_be_visible()
        assert made(table.url, now["game_id"], since) == [("press", seat, None)] * 2


def test_browser_taps_lost_diamond_end_turn_twice_throws_for_no_one(tmp_path, phone):
    """"End turn" tapped twice ended Ann's turn and spun for Ben, who had not asked. The turn
    ends once, the second touch said under the moves as not taken (a player who meant it
    knows to tap again), said until a tap is taken; Ben's Spin, tapped once it has been shown
    long enough, spins."""
    from playwright.sync_api import expect
    phone.add_init_script("window.PARLOUR_HELD_NOTE_MS = 60000;")   # gone by the tap, not time
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "lost-diamond",
                                                   "players": ["Ann", "Ben"]})
        now = play_until(table.url, lambda s: s["phase"] == "play" and s["awaiting"] == "next"
                         and s.get("diamond") != s["turn"] and s.get("home_claim") is None)
        shows(phone, now)
        expect(phone.locator("#moves button", has_text="End turn")).to_have_count(1)
        since = len(events(table.url, now["game_id"]))
        double_tap(phone, "#moves button >> text=End turn")
        spin = phone.locator(f'#moves button[data-action="roll"]{READY}')
        expect(spin).to_have_count(1)
        assert made(table.url, now["game_id"], since) == [("next", None, None)]
        expect(phone.locator("#moves-held")).to_have_text(      # the second touch, said
            "Not taken: the moves had just changed. Tap again if you meant it.")
        screenshot(phone, "phone-double-tap-not-taken.png")
        after = state(table.url)
        assert after["turn"] != now["turn"] and after["awaiting"] == "roll"
        spin.tap()                                      # read, then tapped: it spins
        expect(phone.locator("#moves-held")).to_be_hidden(timeout=1000)   # the tap meant: taken
        expect(phone.locator("#moves-answer")).to_contain_text("spins")
        assert made(table.url, now["game_id"], since) == [("next", None, None),
                                                          ("roll", None, None)]


def test_browser_taps_domino_rex_against_the_pi_uncovers_once(tmp_path, phone):
    """A phone paired with Ann's seat against the Pi: one double tap on a square uncovered for
    Ann, and again for her after the Pi's reply (the Pi answers in a moment). Ann uncovers
    once; her next square, tapped once it has been shown long enough, is uncovered."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Pi"],
                                                   "pi": [1], "pi_level": "easy"})
        phone.goto(table.url + "/")
        phone.locator("#pair-code").fill(box_pairing_code(table.url, 1))
        phone.get_by_role("button", name="Pair this phone").click()
        expect(phone.locator("#paired-line")).to_contain_text("seat button 1 (Ann)")
        now = play_until(table.url, lambda s: s["phase"] == "play" and s["turn"] == 0 and
                         s["awaiting"] == "choose")
        shows(phone, now)
        since = len(events(table.url, now["game_id"]))
        double_tap(phone, "#moves button.square")
        squares = phone.locator("#moves button.square" + READY)
        expect(phone.locator("#moves-answer")).to_contain_text("Then: ")     # the Pi replied
        expect(squares.first).to_be_visible()
        ann = made(table.url, now["game_id"], since)
        assert len(ann) == 1 and ann[0][0] == "choose", ann
        assert state(table.url)["turn"] == 0
        screenshot(phone, "phone-double-tap-pi.png")
        squares.first.tap()                             # read, then tapped: it uncovers
        until(lambda: len(made(table.url, now["game_id"], since)) > 1)
        assert [e[0] for e in made(table.url, now["game_id"], since)] == ["choose"] * 2


def test_browser_taps_a_capture_tapped_twice_counts_twice(tmp_path, phone):
    """M3: a capture is the same button pressed again on purpose (the box counts each press
    of the seat button): a double tap on "Cat takes a mouse" takes two mice, as before."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "cats-and-mice",
                                                   "players": ["Ann", "Ben"]})
        now = play_until(table.url, lambda s: s["phase"] == "play" and s["awaiting"] == "next"
                         and (s.get("presses_left") or 0) >= 2)
        shows(phone, now)
        since = len(events(table.url, now["game_id"]))
        double_tap(phone, "#moves button >> text=Cat takes a mouse")
        until(lambda: len(made(table.url, now["game_id"], since)) > 1)
        assert made(table.url, now["game_id"], since) == [("press", now["turn"], None)] * 2
        expect(phone.locator("#mice-left")).to_have_text(str(now["mice_left"] - 2))


def test_browser_taps_lost_diamond_field_move_says_it_must_reach_the_diamond(tmp_path, phone):
    """LD2: the box says "your button if that reaches the diamond"; the phone offered "Field
    move: take the diamond", as if any Field move took it. Its button says the condition, and
    tapped it takes the diamond; the carrier then goes home with it, and wins, from the phone."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        sign_in(phone, table.url)
        post(table.url + "/api/control/new-game", {"game": "lost-diamond",
                                                   "players": ["Ann", "Ben"]})
        now = play_until(table.url, lambda s: s["phase"] == "play" and s["awaiting"] == "roll")
        shows(phone, now)
        seat, name = now["turn"], now["players"][now["turn"]]["name"]
        assert "your button if that reaches the diamond" in now["prompt"]
        take = phone.locator('#moves button[data-action="press"]' + READY)
        expect(take).to_have_text("Field move: take the diamond (if it reaches)")
        screenshot(phone, "phone-lost-diamond-field-move.png")
        take.tap()
        expect(phone.locator("#moves-answer")).to_contain_text(
            f"{name} takes the Lost Diamond from its square")
        expect(phone.locator("#players tr.turn")).to_contain_text("has the diamond")
        phone.locator('#moves button[data-action="next"]' + READY).tap()      # End turn
        other = state(table.url)
        assert other["turn"] != seat
        shows(phone, other)
        expect(take).to_have_text("Field move: capture the diamond (if it reaches)")
        post(table.url + "/api/control/next", {})              # Ben moves in the Field
        post(table.url + "/api/control/roll", {})              # Ann spins: home by the road
        home = phone.locator('#moves button[data-action="press"]' + READY)
        expect(home).to_have_text("Home with the diamond")
        home.tap()
        expect(home).to_have_text("Confirm: home with the diamond")
        home.tap()
        expect(phone.locator("#winners")).to_have_text(f"{name} wins")
        assert state(table.url)["winners"] == [seat]
