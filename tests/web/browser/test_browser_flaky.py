"""A phone on a table's Wi-Fi, in a real browser against `parlour run --sim`: a tap sent twice
while the dial spins, an answer lost on the way back, a stream that goes quiet without an
error, and a stream that comes back after a throw (shown, not spun again)."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error

import pytest

from browser_support import CHROMIUM, browser, phone_page  # noqa: F401
from browser_support import sign_in as signed_in, state
from simulated_table import SimulatedTable
from test_browser import post

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PHONE = {"width": 390, "height": 844}
# Whether the dial ever spun on this page, and a quiet stream asked about after 1.5 s, not 20.
WATCH = """
window.PARLOUR_QUIET_MS = 1500;
window.spun = 0;
document.addEventListener("DOMContentLoaded", function () {
  new MutationObserver(function () {
    if (document.getElementById("dial").classList.contains("spinning")) window.spun += 1;
  }).observe(document.getElementById("dial"), {attributes: true, attributeFilter: ["class"]});
});
"""


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, init_script=WATCH, is_mobile=True)


def kat_en_muis(url: str) -> dict:
    return post(url + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})


def sign_in(phone, url: str, live: str = "Live") -> None:
    signed_in(phone, url, live)


def move_chips(phone, amount: int) -> None:
    """Ann pays Ben `amount` chips, by the page's correction form."""
    details = phone.locator("#transfer-box")
    if details.get_attribute("open") is None:
        phone.locator("#transfer-box summary").click()
    phone.select_option("#transfer select[name=from]", "0")
    phone.select_option("#transfer select[name=to]", "1")
    phone.fill("#transfer input[name=amount]", str(amount))
    phone.click("#transfer button[type=submit]")
    phone.get_by_role("button", name="Move them").click()


def test_browser_flaky_a_second_tap_while_the_dial_spins_throws_nothing(tmp_path, phone):
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        before = kat_en_muis(table.url)["rolls"]
        sign_in(phone, table.url)
        phone.locator("#dial").scroll_into_view_if_needed()
        box = phone.locator("#dial").bounding_box()
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        phone.mouse.click(*middle)                                   # a tap on the dial ...
        phone.mouse.click(*middle)                                   # ... and one more
        expect(phone.locator("#dial")).to_have_class(re.compile(r"\bspinning\b"))
        expect(phone.locator("#moves button").first).to_be_disabled()   # Ann's throw is spinning
        phone.mouse.click(*middle)                                   # a third, mid-spin
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
        expect(phone.locator("#dial")).not_to_have_class(re.compile(r"\bspinning\b"))
        assert state(table.url)["rolls"] == before + 1
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        expect(phone.locator("#moves button").first).to_be_enabled()    # Ben's throw, now


def test_browser_flaky_a_lost_answer_says_the_game_changed_and_pays_once(tmp_path, phone):
    from playwright.sync_api import expect

    def lose_the_answer(route):
        route.fetch()                    # the table gets it and answers; the answer is lost
        route.abort()

    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        chips = [p["chips"] for p in kat_en_muis(table.url)["players"]]
        sign_in(phone, table.url)
        phone.route("**/control/transfer", lose_the_answer)
        move_chips(phone, 3)
        expect(phone.locator("#transfer + .answer")).to_have_text(
            "No answer from the table, and the game has changed since: read the log before "
            "you send it again.")
        expect(phone.locator("#log li").first).to_contain_text("Ann pays Ben 3 chips")
        assert [p["chips"] for p in state(table.url)["players"]] == [chips[0] - 3, chips[1] + 3]


def test_browser_flaky_a_question_with_no_answer_is_given_up_and_the_stream_opened_again(
        tmp_path, phone):
    """A connection that went silent (a phone at the Wi-Fi's edge): the quiet stream's check
    of /api/state never came back, so the page said "Live" over an old state for ever. The
    check gives up after a while, says so, and opens the stream afresh."""
    from playwright.sync_api import expect
    held, streams = [], []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("""window.PARLOUR_ASK_MS = 1000; window.liveSaid = [];
document.addEventListener("DOMContentLoaded", function () {
  var live = document.getElementById("live");
  new MutationObserver(function () { window.liveSaid.push(live.textContent); })
    .observe(live, {childList: true, characterData: true, subtree: true});
});""")
        phone.on("request", lambda r: streams.append(r.url) if "/api/events" in r.url else None)
        sign_in(phone, table.url)
        phone.route("**/api/state", lambda route: held.append(route))     # asked: no answer
        for _ in range(100):                                            # 1.5 s quiet, 1 s asked
            if "Reconnecting…" in phone.evaluate("window.liveSaid"):
                break
            phone.wait_for_timeout(100)
        assert "Reconnecting…" in phone.evaluate("window.liveSaid")
        expect(phone.locator("#live")).to_have_text("Live")              # and on again
        assert held and len(streams) >= 2, (held, streams)
        post(table.url + "/api/control/roll", {})                       # the new stream brings it
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")


def test_browser_flaky_a_quiet_stream_is_asked_about_and_the_page_catches_up(tmp_path, phone):
    from playwright.sync_api import expect
    held = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.route("**/api/events", lambda route: held.append(route))     # a stream that never says a word
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        post(table.url + "/api/control/roll", {})
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
        assert phone.evaluate("window.spun") == 0       # caught up: shown, not spun late
        assert len(held) >= 2                           # the stream was opened afresh


def test_browser_flaky_a_stream_back_after_a_throw_shows_it_without_spinning(tmp_path, phone):
    from playwright.sync_api import expect
    held = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_QUIET_MS = 600000;")   # no asking: the stream
        phone.route("**/api/events", lambda route: held.append(route))
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        thrown = post(table.url + "/api/control/roll", {})
        assert thrown["spin"]["seconds"] > 0                        # a throw the box spins
        held[0].fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                        body="event: state\ndata: " + json.dumps(state(table.url)) + "\n\n")
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        assert phone.evaluate("window.spun") == 0
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")


def test_browser_flaky_a_page_opened_just_after_a_throw_does_not_spin_it_again(tmp_path,
                                                                            phone):
    """A phone opened a moment after a throw showed it, then the chances for that throw
    came (the same throw, its keys in another order than the page's own copy) and the dial
    spun it again as new for 2 s, over a prompt that had moved on (3 of 4 tries)."""
    from playwright.sync_api import expect
    held = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        thrown = post(table.url + "/api/control/roll", {})
        assert thrown["spin"]["seconds"] > 0                        # a throw the box spins
        phone.add_init_script("window.PARLOUR_QUIET_MS = 600000;")   # no asking: the stream
        phone.route("**/api/events", lambda route: held.append(route))
        phone.goto(table.url + "/")
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
        shown = int(phone.locator("body").get_attribute("data-version").split(":")[1])
        now = dict(state(table.url), spin=thrown["spin"], version=shown)    # the page's own
        now["last_roll"] = dict(reversed(list(now["last_roll"].items())))   # in the stream's
        later = dict(now, version=shown + 1)                        # its chances, say
        held[0].fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                        body="".join("event: state\ndata: " + json.dumps(s) + "\n\n"
                                     for s in (now, later)))  # as the stream: then, now
        expect(phone.locator("body")).to_have_attribute(
            "data-version", re.compile(rf":{later['version']}$"))
        assert phone.evaluate("window.spun") == 0
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")


def test_browser_flaky_a_move_on_the_board_names_the_state_and_is_made_once(tmp_path, phone):
    from playwright.sync_api import expect
    sent = []

    def lose_the_answer(route):
        sent.append(route.request.post_data_json)
        route.fetch()
        route.abort()

    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        before = post(table.url + "/api/control/new-game",
                      {"game": "fox-and-geese", "players": ["Ann", "Ben"]})
        sign_in(phone, table.url)
        phone.route("**/api/control/move", lose_the_answer)
        path = before["board"]["moves"][0]
        with phone.expect_request("**/api/state"):        # no answer: the table is asked
            for point in path:
                phone.locator(f'#board [data-point="{point}"] rect.hit').click(force=True)
        assert sent == [{"path": path, "seen": f"{before['boot']}:{before['state_version']}"}]
        after = state(table.url)
        assert after["board"]["last_move"] == path
        # the board shows the move made: "No answer ... make it again" is past
        expect(phone.locator("#board-said")).to_contain_text(after["log"][-1])
        expect(phone.locator("#board-error")).to_be_hidden()
        with pytest.raises(urllib.error.HTTPError) as again:           # the same, sent again
            post(table.url + "/api/control/move", sent[0])
        assert again.value.code == 409
        assert json.loads(again.value.read())["error"].startswith("Not done: the table had moved on")
        assert state(table.url)["state_version"] == after["state_version"]


def test_browser_flaky_polling_a_tap_acts_once_and_ones_own_next_action_is_done(tmp_path, phone):
    """With the stream turned away the page polls every 3 s; an action's answer brings the
    state it led to, so the page spins the throw at once (a second tap throws nothing) and a
    second correction straight after the first is asked on the first one's result."""
    from playwright.sync_api import expect
    sent = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        chips = [p["chips"] for p in kat_en_muis(table.url)["players"]]
        before = state(table.url)["rolls"]
        phone.route("**/api/events", lambda route: route.fulfill(status=503, body="busy"))
        phone.on("request", lambda r: sent.append(r.post_data or "") if "/control/" in r.url
                 and r.method == "POST" else None)
        sign_in(phone, table.url, live="Updating every few seconds")
        phone.locator("#dial").scroll_into_view_if_needed()
        box = phone.locator("#dial").bounding_box()
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(3):
            phone.mouse.click(*middle)
            phone.wait_for_timeout(150)
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
        assert phone.evaluate("window.spun") >= 1                   # spun from the answer
        assert state(table.url)["rolls"] == before + 1
        mark_field = 'name="seen"'
        assert sent and all(mark_field in body for body in sent[1:]), sent   # [0]: the login
        move_chips(phone, 3)
        expect(phone.locator("#transfer + .answer")).to_contain_text("Ann pays Ben 3 chips")
        move_chips(phone, 2)
        expect(phone.locator("#transfer + .answer")).to_contain_text("Ann pays Ben 2 chips")
        assert [p["chips"] for p in state(table.url)["players"]] == [chips[0] - 5, chips[1] + 5]


def test_browser_flaky_two_phones_on_one_turn_the_later_is_told_and_it_stays(tmp_path, phone):
    """Another phone throws for Ann just before this one: this one's throw is not made, and
    it says so for the turn the table is at (it went as soon as the other throw's state came)."""
    from playwright.sync_api import expect

    def another_phone_first(route):
        post(table.url + "/api/control/roll", {})
        route.continue_()

    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        before = kat_en_muis(table.url)["rolls"]
        sign_in(phone, table.url)
        phone.route("**/control/roll", another_phone_first)
        phone.locator("#moves button").first.click()
        now = state(table.url)
        expect(phone.locator("#moves-answer")).to_have_text(
            f"Not done: the table had moved on. Now: {now['log'][-1]}.")
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        phone.wait_for_timeout(2500)                          # the other throw's spin is over
        expect(phone.locator("#moves-answer")).to_be_visible()
        assert now["rolls"] == before + 1


def test_browser_flaky_a_refusal_shows_the_table_without_spinning_anothers_throw(tmp_path,
                                                                                  phone):
    """A page whose stream is stuck taps after another phone's throw: the refusal brings the
    table as it is, shown at once (it spun that other throw as if new)."""
    from playwright.sync_api import expect
    held = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        sign_in(phone, table.url)
        phone.add_init_script("window.PARLOUR_QUIET_MS = 600000;")
        phone.route("**/api/events", lambda route: held.append(route))
        phone.reload()
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        post(table.url + "/api/control/roll", {})                   # another phone's throw
        phone.locator("#moves button").first.click()
        expect(phone.locator("#moves-answer")).to_contain_text("Not done: the table had moved on")
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        assert phone.evaluate("window.spun") == 0


def settled(url: str) -> dict:
    """The table's state once no version has come for half a second (its chances worked out)."""
    import time
    last = state(url)
    for _ in range(40):
        time.sleep(0.5)
        now = state(url)
        if now["version"] == last["version"]:
            return now
        last = now
    raise AssertionError("the table's state kept changing")


# The page hidden and shown again, as a phone's browser does when it sleeps and wakes.
SLEEP = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
WAKE = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_browser_flaky_a_phone_woken_after_a_while_opens_its_stream_afresh(tmp_path, phone):
    """A phone asleep while its Wi-Fi dropped kept a stream that had died without closing:
    woken with nothing new at the table, it trusted it and showed the next throw 18 s late
    under "Live". Woken after a while, it opens the stream afresh."""
    from playwright.sync_api import expect
    held, streams = [], []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_WAKE_MS = 300; window.PARLOUR_QUIET_MS = 600000;")
        phone.on("request", lambda r: streams.append(r.url) if "/api/events" in r.url else None)
        phone.route("**/api/events", lambda route: route.continue_() if held else
                    held.append(route))                           # the first: dead, silent
        settled(table.url)                          # its chances in: the page opens on the newest
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        phone.evaluate(SLEEP)
        phone.wait_for_timeout(100)
        phone.evaluate(WAKE)                                      # a nap: the stream kept
        phone.wait_for_timeout(300)
        assert len(streams) == 1, streams
        phone.evaluate(SLEEP)
        phone.wait_for_timeout(500)
        phone.evaluate(WAKE)
        expect(phone.locator("#live")).to_have_text("Live")
        post(table.url + "/api/control/roll", {})
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")
        assert len(streams) == 2 and len(held) == 1, streams


def test_browser_flaky_a_late_answer_from_before_a_restart_does_not_put_the_page_back(
        tmp_path, phone):
    """An action's answer held up until after the box restarted put the page back at the state
    of before the restart ("Ben - throw", under "Live") for 17 s: a state of another run is
    taken from the stream or the table's answer to a question, and an action's answer of
    another run makes the page ask."""
    from playwright.sync_api import expect
    asked = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_QUIET_MS = 600000;")   # no asking of its own
        phone.goto(table.url + "/")
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        before = state(table.url)
        ben = post(table.url + "/api/control/roll", {})          # Ben's turn, then taken back
        post(table.url + "/api/control/undo", {})
        now = settled(table.url)                                 # nothing more on the stream
        expect(phone.locator("body")).to_have_attribute(
            "data-version", re.compile(rf":{now['version']}$"))
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        phone.on("request", lambda r: asked.append(r.url) if "/api/state" in r.url else None)
        late = dict(ben, boot=before["boot"][::-1], spin=None)   # the same from another run
        phone.evaluate("s => window.ParlourState.offer(s, true)", late)
        phone.wait_for_timeout(800)
        expect(phone.locator("#prompt")).to_have_text("Ann - throw the dice for the lead")
        assert asked, "the page did not ask the table"


def test_browser_flaky_on_a_slow_link_sending_stays_and_a_shown_throw_is_not_called_lost(
        tmp_path, phone):
    """With 12 s of latency the stream brought the throw before its answer: "Sending…" went
    as it came, and when the answer and the question after it timed out the page said "check
    the Wi-Fi" beside the throw it showed. "Sending…" stays until the answer, and a change the
    page has seen is said to be one."""
    from playwright.sync_api import expect
    held = []

    def slow(route):
        route.fetch()                    # the table does it; its answer is still on the way
        held.append(route)

    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        before = kat_en_muis(table.url)["rolls"]
        phone.add_init_script("window.PARLOUR_GIVE_UP_MS = 5000; window.PARLOUR_ASK_MS = 500;")
        sign_in(phone, table.url)
        phone.route("**/control/roll", slow)
        phone.route("**/api/state", lambda route: held.append(route))     # asked: no answer
        phone.locator("#moves button").first.click()
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")   # by the stream
        expect(phone.locator("#prompt")).to_have_text("Ben - throw the dice for the lead")
        expect(phone.locator("#moves-answer")).to_have_text("Sending…")
        expect(phone.locator("#moves-answer")).to_have_text(
            "No answer from the table, and the game has changed since: read the log before "
            "you send it again.")
        assert state(table.url)["rolls"] == before + 1


def streams_refused(asked: list[float], refused):
    """A route for the live stream: the nth request (from 1) turned away as a full table does
    where `refused(n)`, the others let through; each request's time kept in `asked`."""
    def route(request_route):
        asked.append(time.monotonic())
        if refused(len(asked)):
            request_route.fulfill(status=503, body='{"error": "too many live pages at once"}')
        else:
            request_route.continue_()
    return route


def test_browser_flaky_a_woken_page_turned_away_asks_for_its_stream_again_soon(tmp_path, phone):
    """At an address's limit of live pages the stream a woken page opened was turned away
    (the table still counted the one it had closed), and the page polled for a minute. It
    asks again after 2 s."""
    from playwright.sync_api import expect
    asked: list[float] = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_WAKE_MS = 300; window.PARLOUR_QUIET_MS = 600000;")
        phone.route("**/api/events", streams_refused(asked, lambda n: n == 2))   # on waking
        phone.goto(table.url + "/")
        expect(phone.locator("#live")).to_have_text("Live")
        phone.evaluate(SLEEP)
        phone.wait_for_timeout(500)
        phone.evaluate(WAKE)
        expect(phone.locator("#live")).to_have_text("Updating every few seconds")
        expect(phone.locator("#live")).to_have_text("Live", timeout=6000)
        assert len(asked) == 3, asked
        post(table.url + "/api/control/roll", {})
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")


def test_browser_flaky_a_stream_turned_away_is_asked_for_again_soon_then_less_often(tmp_path,
                                                                                    phone):
    """A new watcher turned away while a burst of reloads held every stream polled for a
    minute before it asked again. It asks again soon (5 s; 1 s here), then twice as long each
    time (at most a minute apart) while the table stays full, and is live once one is free."""
    from playwright.sync_api import expect
    asked: list[float] = []
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_RETRY_STREAM_MS = 1000;")
        phone.route("**/api/events", streams_refused(asked, lambda n: n <= 3))
        phone.goto(table.url + "/")
        expect(phone.locator("#live")).to_have_text("Updating every few seconds")
        expect(phone.locator("#live")).to_have_text("Live", timeout=30_000)
        gaps = [b - a for a, b in zip(asked, asked[1:])]
        assert len(gaps) == 3 and gaps[0] < 10, gaps         # not a minute
        assert gaps[1] > 1.4 * gaps[0] and gaps[2] > 1.4 * gaps[1], gaps   # then less often
        post(table.url + "/api/control/roll", {})
        expect(phone.locator("#roll-text")).to_contain_text("Last throw: Ann")


def test_browser_flaky_a_tap_and_its_question_unanswered_say_reconnecting_not_live(tmp_path,
                                                                                   phone):
    """Out of the Wi-Fi's reach with the stream left open, a tap got "No answer from the table:
    check the Wi-Fi" while the status line above it still said "Live" for half a minute."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        kat_en_muis(table.url)
        phone.add_init_script("window.PARLOUR_QUIET_MS = 60000;")     # no quiet check meanwhile
        sign_in(phone, table.url)
        for path in ("**/control/transfer", "**/api/state", "**/api/events"):
            phone.route(path, lambda route: route.abort())          # nothing gets through now
        move_chips(phone, 2)
        expect(phone.locator("#transfer + .answer")).to_have_text(
            "No answer from the table: check the Wi-Fi, then the log, and send it again if it "
            "is not there.")
        expect(phone.locator("#live")).to_have_text("Reconnecting…")
        phone.unroute("**/api/events")
        phone.unroute("**/api/state")
        expect(phone.locator("#live")).not_to_have_text("Reconnecting…", timeout=15_000)
