"""The phone page's layout in Debian's chromium against a real `parlour run --sim`: the players'
table of every game in 320 px, its columns apart, names broken between their words at 200 %
text. Boxes are measured, not pictures compared; screenshots go to test-artifacts/."""

from __future__ import annotations

import os

import pytest

from browser_support import state
from companion.games import GAMES
from simulated_table import SimulatedTable, box_pairing_code
from test_browser import CHROMIUM, browser, phone_page, post, screenshot  # noqa: F401

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

SMALL = {"width": 320, "height": 568}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bartholomew", "Cleo", "Dmitri", "Evangeline", "Fatima"]

# A state of the game as wide as its players' table gets: three-digit chips, two-digit scores,
# the furthest square with turns missed, every role's words, a clock past the hour, and the
# "to play" marker beside the 11-letter name.
WIDEST = """s => {
  s = JSON.parse(JSON.stringify(s));
  s.state_version += 1000; s.version += 1000; s.turn = 1;
  const roles = {'kat-en-muis': ['cat', 'mouse'], 'fox-and-geese': ['fox', 'geese'],
                 'cats-and-mice': ['cat', 'mouse']}, scored = %s;
  if (s.pool !== undefined && %s.includes(s.game)) s.pool = 40;
  s.players.forEach((p, i) => {
    if (s.pool) p.chips = 125;
    if (scored.includes(s.game)) p.score = 12;
    p.position = 45; p.lost_turns = 2;
    if (roles[s.game]) p.role = roles[s.game][Math.min(i, 1)];
    if (s.game === 'gantlope') p.in_goal = 4;
    if (s.game === 'lost-diamond') p.diamond = i === 1;
    if (s.game === 'fox-and-geese') p.clock_seconds = 3725;
  });
  window.ParlourState.offer(s);
}""" % ([g for g, r in GAMES.items() if r.keeps_score or not r.score_is_points],
        [g for g, r in GAMES.items() if r.uses_chips])

# Each shown cell of the players' table past its region's right edge (or the screen's).
CUT_OFF = """() => {
  const region = document.querySelector('.table-scroll').getBoundingClientRect();
  const edge = Math.min(region.right, document.documentElement.clientWidth) + 0.5;
  return Array.from(document.querySelectorAll('#players th, #players td'))
    .filter(c => c.getClientRects().length && c.getBoundingClientRect().right > edge)
    .map(c => c.textContent.replace(/\\s+/g, ' ').trim());
}"""


@pytest.fixture
def small(browser):  # noqa: F811
    yield from phone_page(browser, SMALL, is_mobile=True)


@pytest.fixture
def phone(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, is_mobile=True)


def screenshot_path(name: str):
    from browser_support import ARTIFACTS
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def shows_game(page, url: str, game_id: int) -> None:
    page.goto(url + "/")
    page.wait_for_function("id => window.ParlourState && window.ParlourState.latest() && "
                           "window.ParlourState.latest().game_id === id", arg=game_id)


def test_browser_layout_every_games_players_table_fits_320_px(tmp_path, small):
    """At 320x568 the players' table cut off its last column (Kat en Muis' Chips, Fox and
    Geese's "Geese taken") with no sign it scrolled, the "to play" marker widening the name
    column. Every game's columns, filled at their widest with an 11-letter name to play, fit."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        for game, rulebook in GAMES.items():
            now = post(table.url + "/api/control/new-game",
                       {"game": game, "players": NAMES[:rulebook.max_players]})
            shows_game(small, table.url, now["game_id"])
            small.evaluate(WIDEST, now)
            expect(small.locator("#players tr.turn")).to_contain_text("Bartholomew")
            assert small.evaluate(CUT_OFF) == [], game
            region = small.locator(".table-scroll")
            assert region.evaluate("e => e.scrollWidth <= e.clientWidth"), game
            expect(small.locator("#players-scrolls")).to_be_hidden()
            assert small.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]
            if game in ("kat-en-muis", "fox-and-geese"):
                small.locator("#table-state").screenshot(
                    path=str(screenshot_path(f"phone-320-players-{game}.png")))


@pytest.fixture
def small_large_text(browser):  # noqa: F811
    yield from phone_page(browser, SMALL, init_script=TEXT_200, is_mobile=True)


def test_browser_layout_a_table_too_wide_says_it_scrolls(tmp_path, small_large_text):
    """Where the columns cannot fit (200 % text in 320 px), the table scrolls in its region
    and says so under it; it said nothing, the last column cut at the edge."""
    from playwright.sync_api import expect
    small = small_large_text
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                         "players": NAMES[:2]})
        shows_game(small, table.url, now["game_id"])
        small.evaluate(WIDEST, now)
        region = small.locator(".table-scroll")
        assert region.evaluate("e => e.scrollWidth > e.clientWidth")
        expect(small.locator("#players-scrolls")).to_be_visible()
        expect(small.locator("#players-scrolls")).to_have_text(
            "The table is wider than the screen: scroll it sideways.")
        assert small.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]


LONGEST = "Maximilianusbartholomews"           # 24 letters, no space: the longest name (X10)


@pytest.mark.parametrize("screen", ["phone", "small"])
def test_browser_layout_a_24_letter_name_breaks_in_its_column(tmp_path, request, screen):
    """A 24-letter name with no space widened its column past the screen at 390 px: the
    players' table scrolled, its Chips out of sight. The word breaks where its column ends;
    every game's columns fit, filled at their widest, the name whole across its lines."""
    from playwright.sync_api import expect
    page, width = request.getfixturevalue(screen), {"phone": 390, "small": 320}[screen]
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        for game, rulebook in GAMES.items():
            now = post(table.url + "/api/control/new-game",
                       {"game": game, "players": [LONGEST, *NAMES[1:rulebook.max_players]]})
            shows_game(page, table.url, now["game_id"])
            for widest in (False, True):              # as the page came, and rebuilt live
                if widest:
                    page.evaluate(WIDEST, now)
                cell = page.locator("#players td.name", has_text="Maximilianus")
                assert cell.evaluate("c => c.firstChild.textContent") == LONGEST, game
                assert page.evaluate(CUT_OFF) == [], (game, widest)
                region = page.locator(".table-scroll")
                assert region.evaluate("e => e.scrollWidth <= e.clientWidth"), (game, widest)
                expect(page.locator("#players-scrolls")).to_be_hidden()
                assert page.evaluate("document.documentElement.scrollWidth") <= width, game
        page.locator("#table-state").screenshot(
            path=str(screenshot_path(f"phone-{width}-players-24-letter-name.png")))


# Between each two shown cells of a row, the gap from one's words to the next one's, in px.
GAPS = """row => {
  const words = c => { const r = document.createRange(); r.selectNodeContents(c);
                       return r.getBoundingClientRect(); };
  const cells = Array.from(row.cells).filter(c => c.getClientRects().length).slice(2);
  return cells.slice(1).map((c, i) => Math.round(words(c).left - words(cells[i]).right));
}"""


def test_browser_layout_fox_and_geese_columns_apart_and_no_count_for_the_geese(tmp_path, phone):
    """Fox and Geese at 390 px read "Fox 0:11 1" and "Geese 0:26 0": the Clock and "Geese
    taken" columns ran together, and the Geese had a meaningless "Geese taken 0". The columns
    stand apart, and the Geese's cell is a dash a screen reader hears as "not counted"."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = post(table.url + "/api/control/new-game", {"game": "fox-and-geese",
                                                         "players": ["Ann", "Ben"]})
        fox = now["players"].index(next(p for p in now["players"] if p["role"] == "fox"))
        for path in (["c4", "c5"], ["d4", "c4"], ["e4", "e5"], ["c4", "c6"]):   # a jump
            now = post(table.url + "/api/control/move", {"path": path})
        assert now["players"][fox]["score"] == 1
        phone.goto(table.url + "/")
        rows = phone.locator("#players tbody tr")
        fox_row, geese_row = rows.filter(has_text="Fox"), rows.filter(has_text="Geese")
        expect(fox_row.locator("td.col-score")).to_have_text("1")
        expect(geese_row.locator("td.col-score")).to_have_text("\u2014not counted")
        assert geese_row.locator("td.col-score span[aria-hidden]").inner_text() == "\u2014"
        for row in (fox_row, geese_row):
            assert min(row.evaluate(GAPS)) >= 16, row.evaluate(GAPS)      # a 1rem gap
        post(table.url + "/api/control/move", {"path": now["board"]["moves"][0]})  # live
        expect(geese_row.locator("td.col-score")).to_have_text("\u2014not counted")
        for row in (fox_row, geese_row):
            assert min(row.evaluate(GAPS)) >= 16, row.evaluate(GAPS)      # a 1rem gap
        phone.locator("#table-state").screenshot(
            path=str(screenshot_path("phone-390-players-fox-and-geese.png")))


TEXT_200 = ("document.addEventListener('DOMContentLoaded', () => "      # the page's CSP
            "{ document.documentElement.style.fontSize = '200%'; });")   # allows the CSSOM

# The words of the element split across two lines (a word broken inside).
WORDS_CUT = """id => {
  const cut = [], walker = document.createTreeWalker(document.getElementById(id),
                                                     NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (const m of text.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
      if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) {
        cut.push(m[0]);
      }
    }
  }
  return cut; }"""


@pytest.fixture
def large_text(browser):  # noqa: F811
    yield from phone_page(browser, PHONE, init_script=TEXT_200, is_mobile=True)


def test_browser_layout_at_200_percent_text_a_name_breaks_between_words(tmp_path, large_text):
    """At 200 % text an 11-letter name was cut inside in the prompt ("Bartholome / w - throw
    the dice") and the winner's headline ("Bartholo / mew wins"): both were larger than a line
    of the card holds. The name fits its line; the lines break between words."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        now = post(table.url + "/api/control/new-game", {"game": "free-play",
                                                         "players": ["Bartholomew", "Ann"]})
        large_text.goto(table.url + "/")
        expect(large_text.locator("#prompt")).to_contain_text("Bartholomew - ")
        assert large_text.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 32
        assert large_text.evaluate(WORDS_CUT, "prompt") == []
        while now["phase"] == "lead":
            now = post(table.url + "/api/control/roll", {})
        post(table.url + "/api/control/declare", {"winners": [0]})
        expect(large_text.locator("#winners")).to_have_text("Bartholomew wins")
        assert large_text.evaluate(WORDS_CUT, "winners") == []
        size = large_text.evaluate("parseFloat(getComputedStyle("
                                   "document.getElementById('winners')).fontSize)")
        assert size >= 32                                   # never below the body's text
        assert large_text.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        large_text.locator("#game").screenshot(
            path=str(screenshot_path("phone-200-percent-winner.png")))


def test_browser_layout_at_200_percent_text_your_turn_keeps_the_name_whole(tmp_path,
                                                                          large_text):
    """At 200 % text the paired phone's banner read "Your turn, Bartholo / mew": it is sized
    as the prompt is, the name whole on its line."""
    from playwright.sync_api import expect
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        post(table.url + "/api/control/new-game", {"game": "kat-en-muis",
                                                   "players": ["Bartholomew", "Ann"]})
        large_text.goto(table.url + "/")
        large_text.locator("#pair-code").fill(box_pairing_code(table.url, 1))
        large_text.get_by_role("button", name="Pair this phone").click()
        expect(large_text.locator("#your-turn")).to_have_text("Your turn, Bartholomew")
        assert large_text.evaluate(WORDS_CUT, "your-turn") == []
