"""One table, one truth: a whole evening played through the box (the simulated panel's pins),
two phones in chromium paired to seats, the API and the Pi, every game once (and the Pi on
both sides of Fox and Geese, first and later in Domino Rex), then a restart. After every event
the OLED, both phones, the Pi and the club (`parlour club`, through a real Mosquitto broker)
show the state `/api/state` holds, and no phone ever shows an older state after a newer one;
at the end the club's league holds every finished game once. `make soak` plays the same table
at random for minutes."""

from __future__ import annotations

import os
import random
import time

import pytest

from club_support import Club, wait_for
from firmware.config import ClubConfig
from mqtt_broker import MOSQUITTO, Broker
from simulated_table import SimulatedTable
from table_driver import SOURCES, TABLES, VERSIONS_SCRIPT, Table, call
from browser_support import CHROMIUM, browser, phone_page  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.first, pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is not installed (apt-get install chromium)")]

PHONE = {"width": 390, "height": 844}
EVENTS_A_GAME = 4


@pytest.fixture
def phones(browser):  # noqa: F811
    a = phone_page(browser, PHONE, init_script=VERSIONS_SCRIPT, is_mobile=True)
    b = phone_page(browser, PHONE, init_script=VERSIONS_SCRIPT, is_mobile=True)
    pages = {"phone-a": next(a), "phone-b": next(b)}
    yield pages
    for gen in (a, b):                          # each checks its page had no script error
        with pytest.raises(StopIteration):
            next(gen)


def play_evening(table: Table, events_a_game: int) -> None:
    for n, (game, players, extra) in enumerate(TABLES):
        state = table.api()
        if state["game"] is not None and state["phase"] != "over":
            call(table.url, "/api/control/end", {})          # set aside: the next one starts
            table.agree()
        table.new_game(game, players, **extra)
        for i in range(events_a_game):
            if table.api()["phase"] == "over":
                break
            table.step("undo" if i == 3 and n % 3 == 0 else SOURCES[(i + n) % len(SOURCES)])
            table.agree()
            if i == 1 and table.correct():            # a phone's correction mid-game
                table.agree()


@pytest.fixture
def club(tmp_path):
    """A broker, `parlour club` on it, and the table's config naming that broker."""
    if MOSQUITTO is None:
        pytest.skip("Mosquitto is not installed (apt install mosquitto; .ci/run installs it)")
    broker = Broker(tmp_path / "broker").start()
    config = tmp_path / "config" / "parlour" / "parlour.toml"     # quiet_env's config home
    config.parent.mkdir(parents=True)
    config.write_text(f'[club]\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "Parlour"\n')
    running = Club(tmp_path / "club", ClubConfig(host="127.0.0.1", port=broker.port))
    yield running
    running.close()
    broker.stop()


def finish_two_games(table: Table) -> None:
    """Two games of Fox and Geese played to their end (one resigns), for the club's league."""
    for game, players, winner, extra in (("fox-and-geese", ["Ann", "Ben"], 0, {}),
                                         ("fox-and-geese", ["Ben", "Cy"], 1, {})):
        if table.api()["phase"] not in ("over", "idle"):
            call(table.url, "/api/control/end", {})
            table.agree()
        table.new_game(game, players, **extra)
        answer = call(table.url, "/api/control/declare", {"winners": [winner]})
        assert "error" not in answer, answer
        assert table.agree()["phase"] == "over"


def test_table_every_surface_agrees_after_every_event(tmp_path, phones, club):
    with SimulatedTable(tmp_path / "data", tmp_path) as running:
        for page in phones.values():
            page.goto(running.url + "/")
        table = Table(running.url, phones, random.Random(7), club=club.view)
        table.agree()
        table.pair("phone-a", 1)
        table.pair("phone-b", 2)
        play_evening(table, EVENTS_A_GAME)
        before = table.api()
        port = running.port
    with SimulatedTable(tmp_path / "data", tmp_path, port=port):    # a restart, same address
        after = table.agree()                 # the phones take the new run's state by themselves
        assert after["boot"] != before["boot"] and after["game_id"] == before["game_id"]
        if after["phase"] != "over":
            table.step("api")
            table.agree()
        finish_two_games(table)
        finished = [g for g in call(table.url, "/api/games")["games"] if g["status"] == "over"]
    assert len(finished) >= 2                        # each counted once, after the restart too
    view = wait_for(lambda: (v := club.view())["league"]["games"] == len(finished) and v)
    assert {(r["name"], r["game"], r["won"]) for r in view["league"]["standings"]} >= {
        ("Ann", "fox-and-geese", 1), ("Cy", "fox-and-geese", 1)}
    tally = table.tally
    assert {"box", "phone-a", "phone-b", "api", "pi", "box-undo"} <= set(tally.by_source), \
        tally.by_source
    assert tally.checks > len(TABLES) * 3 and tally.events > len(TABLES) * 3
    assert tally.chance_checks > 0                       # the chances were compared too
    assert tally.by_source.get("correction") and tally.result_checks and tally.turn_checks
    print(f"table: {tally.events} events, {tally.checks} checks ({tally.chance_checks} with "
          f"chances, {tally.result_checks} OLED results, {tally.turn_checks} turn screens), "
          f"by source {tally.by_source}, "
          f"slowest catch-up {tally.worst_lag:.2f} s")


@pytest.mark.soak
def test_table_soak_random_evening(tmp_path, phones):
    """`make soak`: the same table at random (game, sources, undos) for PARLOUR_SOAK_SECONDS
    (default 300); prints how many events and checks it made and how fast surfaces caught up."""
    seconds = float(os.environ.get("PARLOUR_SOAK_SECONDS", "300"))
    rng = random.Random(os.environ.get("PARLOUR_SOAK_SEED", "parlour"))
    with SimulatedTable(tmp_path / "data", tmp_path) as running:
        for page in phones.values():
            page.goto(running.url + "/")
        table = Table(running.url, phones, rng)
        table.agree()
        table.pair("phone-a", 1)
        table.pair("phone-b", 2)
        deadline = time.monotonic() + seconds
        games = 0
        while time.monotonic() < deadline:
            state = table.api()
            if state["game"] is None or state["phase"] == "over" or rng.random() < 0.03:
                if state["game"] is not None and state["phase"] != "over":
                    call(table.url, "/api/control/end", {})
                    table.agree()
                game, players, extra = rng.choice(TABLES)
                table.new_game(game, players, **extra)
                games += 1
                continue
            table.step("undo" if rng.random() < 0.08 else rng.choice(SOURCES))
            table.agree()
    tally = table.tally
    lags = sorted(tally.lags)
    print(f"\nsoak: {seconds:.0f} s, {games} games, {tally.events} events, {tally.checks} checks "
          f"(all agreed), by source {tally.by_source}; catch-up median "
          f"{lags[len(lags) // 2]:.2f} s, 95th {lags[int(len(lags) * 0.95)]:.2f} s, "
          f"slowest {lags[-1]:.2f} s")
    assert tally.checks > 0
