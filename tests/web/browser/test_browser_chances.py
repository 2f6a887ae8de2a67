"""Chances on a real phone page: Debian's chromium at 390 px, light and dark, against a real
`parlour run --sim` whose chances worker publishes as the game goes."""

from __future__ import annotations

import time

import pytest

from browser_support import ARTIFACTS as ARTIFACTS_DIR
from test_browser import ARGS, CHROMIUM, WAIT_MS, post, screenshot  # noqa: F401 (skipif)
from test_browser import browser, pytestmark, table  # noqa: F401 - fixtures and the skip

PHONE = {"width": 390, "height": 844}


def _looked_again(read, whole):
    """What `read()` finds once `whole` of it (a chances update may be redrawing the chart:
    it is looked at again, 50 times at most); the last look otherwise."""
    for _ in range(50):
        found = read()
        if whole(found):
            break
        time.sleep(0.1)
    return found


def _ann_plays_until_the_chart_has(table, page, lines: int, words: str) -> None:
    """Domino Rex against the Pi: Ann (seat 0) throws and uncovers her lowest number on her
    turns until the page's chart of chances to win draws `lines` lines (within a minute)."""
    from test_browser_phone import state as get_state
    deadline = time.monotonic() + 60
    while page.locator("#chart-win svg path.line").count() < lines:
        assert time.monotonic() < deadline, f"no chart of {words} lines"
        state = get_state(table)
        if state["phase"] != "over" and state["turn"] == 0:
            if state["awaiting"] == "roll":
                post(table + "/api/control/roll", {})
            elif state["awaiting"] == "choose":
                post(table + "/api/control/choose",
                     {"value": min(state["players"][0]["covered"])})
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_browser_chances_chart_follows_the_game(table, browser, scheme):  # noqa: F811
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(table + "/")
        expect(page.locator("#chances")).to_be_hidden()
        post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        for _ in range(8):
            post(table + "/api/control/roll", {})
        expect(page.locator("#chance-list li")).to_have_count(2)
        expect(page.locator("#chance-note")).to_have_text("Exact, from the rules.")
        expect(page.locator("#chart-win svg path.line")).to_have_count(2)
        expect(page.locator("#chart-chips svg path.line")).to_have_count(2)
        shown = page.locator("#chance-list strong").all_inner_texts()
        assert sum(int(t.rstrip("%")) for t in shown) in (99, 100, 101)
        box = page.locator("#chart-win svg").bounding_box()
        assert box["width"] <= PHONE["width"] and box["height"] > 100
        fill = page.locator("#chart-win .axis").first.evaluate("n => getComputedStyle(n).fill")
        brightness = sum(int(v) for v in fill[4:-1].split(",")) / 3
        assert brightness > 128 if scheme == "dark" else brightness < 128   # readable on card
        page.locator("#chances").scroll_into_view_if_needed()
        screenshot(page, f"chances-{scheme}.png")
    finally:
        context.close()
    assert errors == [], errors


def test_browser_chances_a_game_without_chances_heads_its_chips_so(table, browser):  # noqa: F811
    """Free play keeps chips but works out no chances: its card was headed "Chances to win"
    over a chips chart alone."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    try:
        post(table + "/api/control/new-game",
             {"game": "free-play", "players": ["Ann", "Ben"],
              "options": {"randomizer": {"kind": "none"}, "chips": 10}})
        page.goto(table + "/")
        for amount in (3, 2):
            post(table + "/api/control/transfer", {"from": 0, "to": 1, "amount": amount})
        expect(page.locator("#chart-chips svg path.line")).to_have_count(2)
        expect(page.locator("#chances-title")).to_have_text("Chips")
        expect(page.locator("#chart-win")).to_be_hidden()
        expect(page.locator("#chance-list li")).to_have_count(0)
        post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        for _ in range(6):
            post(table + "/api/control/roll", {})
        expect(page.locator("#chances-title")).to_have_text("Chances to win")   # live
    finally:
        context.close()


def test_browser_chances_six_seats_values_stay_on_the_chart_and_apart(table, browser):  # noqa: F811
    """Six seats at one chance: the values at the chart's right edge were nudged apart
    downwards and the last ones fell below the chart, read as the axis's ("6% 4%"); and none
    said whose it was. Each now has its seat's dot."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    try:
        page.goto(table + "/")
        post(table + "/api/control/new-game",
             {"game": "lifes-mishaps", "players": ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]})
        tags = page.locator("#chart-win svg text.tag")
        expect(tags).to_have_count(6)
        height = float(page.locator("#chart-win svg").get_attribute("viewBox").split()[3])
        baselines = sorted(float(y) for y in tags.evaluate_all(
            "ts => ts.map(t => t.getAttribute('y'))"))
        assert all(lower - upper >= 12 for upper, lower in zip(baselines, baselines[1:])), \
            baselines                                                   # apart, not stacked
        assert 10 <= baselines[0] and baselines[-1] <= height - 2, baselines   # on the chart
        seats = tags.evaluate_all("ts => ts.map(t => t.parentNode.getAttribute('class') + ' ' +"
                                  " t.parentNode.querySelectorAll('circle.dot').length)")
        assert len(set(seats)) == 6 and all(s.endswith(" 1") for s in seats), seats  # whose
    finally:
        context.close()


def test_browser_chances_two_pi_seats_are_told_apart_on_the_chart(table, browser):  # noqa: F811
    """Domino Rex with the Pi in two seats: "Pi" and "Pi 2" were drawn in one colour, in the
    legend and the lines, so nobody could tell which line was which: the second is dashed."""
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    try:
        post(table + "/api/control/new-game", {"game": "domino-rex", "players": ["Ann", "Pi",
                                                                                 "Pi 2"],
                                                "pi": [1, 2], "pi_level": "easy"})
        page.goto(table + "/")
        _ann_plays_until_the_chart_has(table, page, 3, "three")
        dashes = _looked_again(lambda: page.locator("#chart-win svg g").evaluate_all(
            "gs => gs.filter(g => g.querySelector('path.line')).map(g => "
            "getComputedStyle(g.querySelector('path.line')).strokeDasharray)"),
            lambda found: len(found) == 3 and "" not in found)
        assert dashes[:2] == ["none", "none"] and dashes[2] not in ("none", ""), dashes
        swatches = page.locator("#chart-win .legend .swatch")
        expect(swatches.nth(2)).to_have_class("swatch button-pi pi-later")
        expect(swatches.nth(1)).to_have_class("swatch button-pi")
    finally:
        context.close()


def test_browser_chances_a_finished_game_lists_no_chances_and_keeps_its_charts(table, browser):  # noqa: F811,E501
    """Once a game is over the result says who won: each player's chance "now" beside it (100%
    and 0%, or 50% beside each of two who share a win) read as a game still open. The charts of
    how it went stay, on the live page and on one opened afterwards (drawn by the server)."""
    import json
    import re
    import urllib.request
    from playwright.sync_api import expect
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    try:
        post(table + "/api/control/new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        page.goto(table + "/")
        post(table + "/api/control/roll", {})
        expect(page.locator("#chance-list li")).to_have_count(2)       # live: listed
        for _ in range(600):
            with urllib.request.urlopen(table + "/api/state") as answer:
                if json.load(answer)["phase"] == "over":
                    break
            post(table + "/api/control/roll", {})
        else:
            pytest.fail("the game did not end in 600 throws")
        for _ in range(WAIT_MS // 50):      # the chances of the end, as the worker sends them
            with urllib.request.urlopen(table + "/api/state") as answer:
                state = json.load(answer)
            if state.get("odds"):
                break
            page.wait_for_timeout(100)
        assert state["odds"]["win"] in ([1.0, 0.0], [0.0, 1.0])
        page.wait_for_function("([boot, version]) => {"                  # shown, or newer
                               " const [b, v] = document.body.getAttribute('data-version')"
                               ".split(':'); return b === boot && +v >= version; }",
                               arg=[state["boot"], state["version"]])
        expect(page.locator("#chance-list li")).to_have_count(0)
        expect(page.locator("#chance-list")).to_be_hidden()         # no gap where it was
        expect(page.locator("#chart-win svg path.line")).to_have_count(2)
        expect(page.locator("#chances-title")).to_have_text("Chances to win")
        with urllib.request.urlopen(table + "/") as answer:
            html = answer.read().decode()
        listed = re.search(r'id="chance-list"( hidden)?>(.*?)</ul>', html, re.S)
        assert listed.group(1) and "<li" not in listed.group(2)
        page.reload()
        expect(page.locator("#chart-win svg path.line")).to_have_count(2)
        expect(page.locator("#chance-list li")).to_have_count(0)
    finally:
        context.close()


@pytest.mark.parametrize("names, marked", [(["Ann", "Pi"], ["A", "P"]),
                                           (["Ann", "Annabel"], ["Ann", "Anna"])])
def test_browser_chances_each_line_ends_with_whose_it_is(table, browser, names,  # noqa: F811
                                                         marked):
    """Domino Rex, Ann and the Pi: the lines were told apart by colour alone (red and the
    Pi's brown), the value at each line's end beside a dot of its colour. Each value now
    starts with its player's first letters ("A 62%", "P 38%"), on the chart; Ann beside
    Annabel (the Pi's seat, named so) read "1" and "2", numbers found nowhere else."""
    import re
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(WAIT_MS * 2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        post(table + "/api/control/new-game", {"game": "domino-rex", "players": names,
                                                "pi": [1], "pi_level": "easy"})
        page.goto(table + "/")
        _ann_plays_until_the_chart_has(table, page, 2, "two")
        tags = _looked_again(lambda: page.locator("#chart-win svg text.tag").evaluate_all(
            "ts => ts.map(t => [t.textContent, t.getBBox().x + t.getBBox().width,"
            " t.ownerSVGElement.viewBox.baseVal.width])"), lambda found: len(found) == 2)
        assert sorted(re.sub(r" \d+%$", "", t[0]) for t in tags) == marked, tags
        assert all(right <= width for _, right, width in tags), tags       # on the chart
        page.locator("#chances").screenshot(path=str(ARTIFACTS_DIR / "chances-marked.png"))
    finally:
        context.close()
    assert errors == [], errors
