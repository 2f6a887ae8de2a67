"""The club's page in a real browser (chromium) at a phone's size: the tables, the league and
the recent games drawn without sideways scrolling, no serious accessibility issue (axe-core)
and 44 px tap targets, and a new game's end reaching the open page by itself (it polls
/api/club)."""

from __future__ import annotations

import os

import pytest
from browser_support import ARTIFACTS, AXE, CHROMIUM, browser, check, phone_page  # noqa: F401
from club_support import Club, Table, wait_for
from mqtt_broker import needs_mosquitto

from firmware.config import ClubConfig


pytestmark = [needs_mosquitto, pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed (apt-get install chromium)")]


PHONE = {"width": 390, "height": 844}


@pytest.fixture
def club_and_table(tmp_path, broker):
    """`parlour club` and a table on the broker, the table's first game (Ann beat Ben) in
    the league."""
    club = Club(tmp_path / "club", ClubConfig(host="127.0.0.1", port=broker.port))
    table = Table(tmp_path / "t", ClubConfig(host="127.0.0.1", port=broker.port,
                                             table="Front room"), "a" * 16)
    table.play(winner=0, names=("Ann", "Ben"))
    wait_for(lambda: club.view()["league"]["games"] == 1)
    yield club, table
    table.close()
    club.close()


def test_club_page_at_a_phones_size_follows_new_games(club_and_table, browser):  # noqa: F811
    club, table = club_and_table
    pages = phone_page(browser, PHONE)
    page = next(pages)
    page.goto(f"http://127.0.0.1:{club.port}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert "Front room" in page.locator("#tables").inner_text()
    table.play(winner=1, names=("Ann", "Christabel Montgomery"))  # the page takes it itself
    wait_for(lambda: "Christabel" in page.locator("#league").inner_text())   # CSP: no eval
    assert "2 games in all" in page.locator("#league").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390   # a long name wraps
    # the longest names X10 allows, with no space to break at, in every part of the page: the
    # card of tables now ran 19 px past the screen's edge
    table.play(winner=0, names=("W" * 24, "Bo"))
    table.session.new_game("kat-en-muis", ["M" * 24, "Eve"])
    wait_for(lambda: "M" * 24 in page.locator("#tables").inner_text()
             and "W" * 24 in page.locator("#league").inner_text())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "club-phone.png"), full_page=True)
    with pytest.raises(StopIteration):
        next(pages)


@pytest.mark.skipif(not AXE.exists(), reason=f"axe-core is not installed at {AXE} "
                    "(make test installs it with npm)")
def test_club_page_has_no_serious_accessibility_issue(club_and_table, browser):  # noqa: F811
    club, table = club_and_table
    table.session.new_game("kat-en-muis", ["Dee", "Eve"])          # a game in play too
    wait_for(lambda: any((t["state"] or {}).get("turn") for t in club.view()["tables"]))
    pages = phone_page(browser, PHONE, bypass_csp=True)
    check(next(pages), f"http://127.0.0.1:{club.port}/")
    with pytest.raises(StopIteration):
        next(pages)


def test_club_page_says_by_itself_when_the_broker_is_lost_and_found(club_and_table, broker,
                                                                    browser):  # noqa: F811
    """An open page tells the room the club is off its broker (what it shows may be old),
    and drops the warning when it is back, without a reload by hand; and says so when the
    club itself is gone."""
    from playwright.sync_api import expect
    club, table = club_and_table
    pages = phone_page(browser, PHONE)
    page = next(pages)
    page.goto(f"http://127.0.0.1:{club.port}/")
    expect(page.locator("#broker-off")).to_have_count(0)
    ended = page.locator("#recent time")
    assert ended.get_attribute("datetime").endswith("Z")        # shown in the phone's zone
    assert "UTC" not in ended.inner_text()
    broker.stop()
    expect(page.locator("#broker-off")).to_contain_text("not connected to its broker",
                                                       timeout=20_000)
    # the reason as it is now, not the first one the page saw ("lost the connection ...")
    expect(page.locator("#broker-off")).to_contain_text("(Connection refused)", timeout=20_000)
    broker.start()
    expect(page.locator("#broker-off")).to_have_count(0, timeout=60_000)
    expect(page.locator("#club-off")).to_be_hidden()
    club.close()                                        # the club itself stops
    expect(page.locator("#club-off")).to_contain_text("cannot reach the club", timeout=20_000)
    expect(page.locator(".table-status")).to_have_text("status not known")   # not "online"
    with pytest.raises(StopIteration):
        next(pages)
