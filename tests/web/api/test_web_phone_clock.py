"""Away from any time server the box dates its games by the phones at the table
(`X-Parlour-Clock`, firmware/stamps.py), on the real server: a lone phone cannot date them
2199, phones that agree from their own addresses date them tonight."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from companion.session import Session
from fakes import FakeClock
from firmware.stamps import TableClock
from phone_client import Phone
from web import create_app
from web.access.phones import Pairings
from web_support import FAST, PIN, seeds, serving

TONIGHT = datetime(2025, 3, 8, 19, 30, tzinfo=timezone.utc)
IN_2199 = "7226582400000"                       # 2199-01-01T00:00:00Z, in ms since 1970


def millis(at: datetime) -> str:
    return str(int(at.timestamp() * 1000))


def test_phone_clock_attack_2_one_paired_phone_cannot_date_the_next_game_2199(store, tmp_path):
    """A paired phone (no PIN) sent one request saying its clock read 2199-01-01: the next
    game begun on the box, which had no time server, was stamped 2199-01-01."""
    behind = TONIGHT - timedelta(days=40)               # the last shutdown's time
    stamps = TableClock(wall=lambda: behind, monotonic=FakeClock(), synced=lambda: False)
    seed = seeds()
    session = Session(store, new_seed=lambda: next(seed), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())
    pairings = Pairings(tmp_path / "phones.json", clock=FakeClock())
    app = create_app(session, pin=PIN, test_config=FAST, pairings=pairings,
                     table_time=stamps.now, learn_time=stamps.learn)

    def next_game_begins() -> str:
        if session.snapshot()["phase"] not in ("idle", "over"):
            session.abandon()                  # set aside: the phones' time is taken up
        game = session.new_game("kat-en-muis", ["Ann", "Ben"])["game_id"]
        return store.events(game)[0]["at"]

    with serving(app) as url:
        ben = Phone(url, "127.0.0.2")
        ben.pair(pairings.offer(2))
        assert ben.ask("GET", "/api/pair", headers={"X-Parlour-Clock": IN_2199})[0] == 200
        assert next_game_begins() == "2025-01-27T19:30:00Z"            # the box's own
        ben.sign_in(PIN, {"X-Parlour-Clock": IN_2199})                # again, as a sign-in
        assert next_game_begins() == "2025-01-27T19:30:00Z"
        ann = Phone(url, "127.0.0.3")                    # tonight's phones, which agree
        ann.sign_in(PIN, {"X-Parlour-Clock": millis(TONIGHT)})
        ben.ask("GET", "/api/state", headers={"X-Parlour-Clock": millis(TONIGHT)})
        assert next_game_begins() == "2025-03-08T19:30:00Z"
