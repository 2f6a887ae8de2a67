"""Events' `at` stamps follow the monotonic clock from an anchor, so a jump of the wall clock
(NTP on a Pi with no real-time clock, an admin) is never charged to a player's thinking time
(Fox and Geese F1); the anchor is taken again between games."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from companion.session import Session
from companion.record.store import Store
from fakes import FakeClock
from firmware.stamps import CLUB, TableClock

NOON = datetime(2025, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


class Wall:
    """A wall clock a test can jump."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> datetime:
        return self.now


def test_stamps_advance_by_elapsed_time_not_by_wall_clock_jumps():
    wall, mono = Wall(), FakeClock()
    stamps = TableClock(wall=wall, monotonic=mono)
    assert stamps() == "2025-01-01T12:00:00Z"
    mono.advance(30)
    wall.now += timedelta(hours=3)                     # NTP corrects the clock forward
    assert stamps() == "2025-01-01T12:00:30Z"
    mono.advance(5)
    wall.now -= timedelta(days=1)                      # and someone sets it back
    assert stamps() == "2025-01-01T12:00:35Z"
    stamps.between_games({"phase": "play"})            # mid-game: no new anchor
    assert stamps() == "2025-01-01T12:00:35Z"
    stamps.between_games({"phase": "over"})            # between games: the wall clock again
    assert stamps() == (NOON + timedelta(hours=3) - timedelta(days=1)).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def test_stamps_a_wall_clock_jump_is_not_charged_to_a_fox_and_geese_player(tmp_path):
    wall, mono = Wall(), FakeClock()
    stamps = TableClock(wall=wall, monotonic=mono)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    mono.advance(30)                                   # the Geese think for 30 s...
    wall.now += timedelta(hours=1)                     # ...while NTP jumps the clock an hour
    snap = session.submit({"type": "rename", "seat": 0, "name": "Anna"})   # a stamped event
    assert snap["players"][snap["turn"]]["clock_seconds"] == 30.0
    mono.advance(12)
    wall.now -= timedelta(hours=2)                     # backwards: still 12 s more
    snap = session.submit({"type": "rename", "seat": 1, "name": "Benny"})
    assert snap["players"][snap["turn"]]["clock_seconds"] == 42.0
    store.close()


def test_stamps_a_game_started_after_ntp_set_the_clock_at_boot_begins_at_the_right_time(
        tmp_path):
    """A Pi boots with its last shutdown's time; NTP sets it while the table is idle. The
    first game's `at` (its start, ended, BG Stats' playDate) kept the boot's time."""
    wall, mono = Wall(), FakeClock()
    wall.now = NOON - timedelta(days=40)               # the last shutdown's time
    stamps = TableClock(wall=wall, monotonic=mono)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())           # as the runner tells it at start
    mono.advance(30)
    wall.now = NOON                                    # NTP, while no game is running
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    assert store.events(session.game_id)[0]["at"] == "2025-01-01T12:00:00Z"
    mono.advance(20)
    wall.now += timedelta(hours=1)                     # mid-game: not followed
    session.submit({"type": "rename", "seat": 0, "name": "Anna"})
    assert store.events(session.game_id)[-1]["at"] == "2025-01-01T12:00:20Z"
    session.abandon()
    mono.advance(5)
    session.new_game("kat-en-muis", ["Ann", "Ben"])    # between games: followed again
    assert store.events(session.game_id)[0]["at"] == "2025-01-01T13:00:00Z"    # the wall
    store.close()


def test_stamps_a_page_reading_the_clock_as_a_game_starts_never_moves_its_anchor(tmp_path):
    """A page's read of the time while the table is idle took the anchor again; if a game
    started between its check and its read, and the wall clock jumped then, the whole game's
    stamps moved by the jump (charged to the first player)."""
    import threading
    wall, mono = Wall(), FakeClock()
    stamps = TableClock(wall=wall, monotonic=mono)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())
    starting = threading.Thread(target=session.new_game, args=("fox-and-geese", ["Ann", "Ben"]))
    reads = []

    def slow_wall():                    # the page's read: a game starts while it reads
        if threading.current_thread() is not starting and not reads:
            reads.append(wall.now)
            starting.start()
            starting.join(timeout=0.5)              # held back by the page's read, or done
            wall.now += timedelta(hours=1)          # and NTP steps the clock
            return wall.now                         # the page reads it after the step
        return wall.now

    stamps._wall = slow_wall
    stamps.now()                                    # the page
    starting.join(timeout=10)
    begun = store.events(session.game_id)[0]["at"]
    mono.advance(10)
    snap = session.submit({"type": "rename", "seat": 0, "name": "Anna"})
    assert snap["players"][snap["turn"]]["clock_seconds"] == 10.0, begun
    store.close()


# -- away from any time server, the phones say the time ---------------------------------------

TONIGHT = datetime(2025, 3, 8, 19, 30, 0, tzinfo=timezone.utc)


def away_from_home(synced: list[bool] | None = None) -> tuple[Wall, FakeClock, TableClock]:
    """A box booted with its last shutdown's time (40 days behind) and no time server."""
    wall, mono = Wall(), FakeClock()
    wall.now = TONIGHT - timedelta(days=40)
    flag = synced if synced is not None else [False]
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: flag[0])
    stamps.between_games({"phase": "idle"})
    return wall, mono, stamps


def test_stamps_a_box_with_no_time_server_stamps_the_next_game_by_the_phones_clock(tmp_path):
    """Away from home (the box's hotspot, a hall) the clock stays at the last shutdown's: the
    evening's games went into history, BG Stats and a club's league 40 days in the past."""
    wall, mono, stamps = away_from_home()
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.learn("pin-1a2b3c", TONIGHT)                # a signed-in phone: its clock
    stamps.learn("phone-4d5e6f", TONIGHT + timedelta(seconds=20))    # a paired one agrees
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    assert store.events(session.game_id)[0]["at"] == "2025-03-08T19:30:00Z"
    mono.advance(30)
    session.submit({"type": "rename", "seat": 0, "name": "Anna"})
    assert store.events(session.game_id)[-1]["at"] == "2025-03-08T19:30:30Z"
    store.close()


def test_stamps_the_phones_time_is_taken_up_between_games_not_charged_to_a_player(tmp_path):
    wall, mono, stamps = away_from_home()
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    session.new_game("fox-and-geese", ["Ann", "Ben"])  # before any phone spoke
    mono.advance(30)
    stamps.learn("pin-1a2b3c", TONIGHT + timedelta(seconds=30))
    stamps.learn("phone-4d5e6f", TONIGHT + timedelta(seconds=31))
    snap = session.submit({"type": "rename", "seat": 0, "name": "Anna"})
    assert snap["players"][snap["turn"]]["clock_seconds"] == 30.0    # not 40 days
    assert store.events(session.game_id)[-1]["at"] == "2025-01-27T19:30:30Z"
    session.submit({"type": "declare", "winners": [0]})              # over: taken up now
    assert stamps() == "2025-03-08T19:30:30Z"
    store.close()


def test_stamps_a_phone_a_few_seconds_out_changes_nothing():
    wall, mono, stamps = away_from_home()
    wall.now = TONIGHT
    stamps.learn("pin-1a2b3c", TONIGHT + timedelta(seconds=100))
    assert stamps() == "2025-03-08T19:30:00Z"
    stamps.learn("pin-1a2b3c", TONIGHT + timedelta(seconds=150))     # more than 2 minutes
    assert stamps() == "2025-03-08T19:32:30Z"


def test_stamps_one_phone_set_wrong_among_three_does_not_move_the_clock():
    wall, mono, stamps = away_from_home()
    stamps.learn("pin-aaaaaa", TONIGHT)
    stamps.learn("phone-bbbbbb", TONIGHT + timedelta(days=730))      # set by hand, wrongly
    stamps.learn("pin-cccccc", TONIGHT + timedelta(seconds=2))
    assert stamps() == "2025-03-08T19:30:00Z"          # the earlier of the two that agree
    stamps.learn("pin-aaaaaa", TONIGHT + timedelta(seconds=10))      # a phone heard again
    assert stamps() == "2025-03-08T19:30:02Z"          # counts once, as it says now


def test_stamps_a_phone_not_heard_from_for_half_an_hour_no_longer_counts():
    wall, mono, stamps = away_from_home()
    for phone in ("phone-bbbbbb", "phone-dddddd"):                   # gone home long ago
        stamps.learn(phone, TONIGHT - timedelta(days=3))
    mono.advance(31 * 60)
    stamps.learn("pin-aaaaaa", TONIGHT + timedelta(seconds=31 * 60))
    stamps.learn("pin-cccccc", TONIGHT + timedelta(seconds=31 * 60 + 5))
    assert stamps() == "2025-03-08T20:01:00Z"


def test_stamps_attack_2_a_lone_phone_saying_2199_does_not_date_the_next_game(tmp_path):
    """A paired phone (no PIN) sent `X-Parlour-Clock` for 2199-01-01 once, on a box with no
    time server: the next game was stamped 2199-01-01 (history, BG Stats, the club's league),
    since the middle of one phone's clock is that phone's. A clock no other phone agrees
    with is believed only up to 400 days past the box's own and its last stamp; nor do a few
    set wrong together move it past those who agree."""
    wall, mono, stamps = away_from_home()
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.learn("phone-bbbbbb", datetime(2199, 1, 1, tzinfo=timezone.utc), "10.0.0.7")
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    assert store.events(session.game_id)[0]["at"] == "2025-01-27T19:30:00Z"   # the box's
    session.abandon()
    for phone, address in (("pin-aaaaaa", "10.0.0.2"), ("phone-cccccc", "10.0.0.3")):
        stamps.learn(phone, TONIGHT, address)                   # two that agree: tonight
    stamps.learn("phone-dddddd", datetime(2199, 1, 1, tzinfo=timezone.utc), "10.0.0.8")
    assert stamps() == "2025-03-08T19:30:00Z"          # two of four at 2199: not past them
    store.close()


def test_stamps_attack_2_a_lone_phone_is_believed_up_to_400_days_past_the_box():
    """A box put away for a season, its clock months behind: the one phone signed in is
    enough; a lone phone further ahead than 400 days is not believed until another agrees."""
    wall, mono, stamps = away_from_home()
    stamps.learn("phone-bbbbbb", wall.now + timedelta(hours=20))
    assert stamps() == "2025-01-28T15:30:00Z"
    stamps.learn("phone-bbbbbb", wall.now + timedelta(days=500))     # a lone phone, further
    assert stamps() == "2025-01-27T19:30:00Z"
    stamps.learn("pin-aaaaaa", wall.now + timedelta(days=500, seconds=40))   # another agrees
    assert stamps() == "2026-06-11T19:30:00Z"
    wall, mono, stamps = away_from_home()
    stamps.learn("phone-bbbbbb", wall.now + timedelta(days=300))     # put away since spring
    assert stamps() == "2025-11-23T19:30:00Z"


def test_stamps_attack_2_phones_cannot_date_games_before_the_last_stamp_or_this_parlour():
    """Phones that agree (a phone signed in twice, two set alike) took the clock back a
    week, so tonight's game was stamped before the one played just before it."""
    wall, mono, stamps = away_from_home()
    stamps.stamped("2025-01-27T19:00:00Z")             # the last game ended half an hour ago
    for said in (datetime(2025, 1, 20, tzinfo=timezone.utc),
                 datetime(2001, 1, 1, tzinfo=timezone.utc)):
        for phone, address in (("pin-aaaaaa", "10.0.0.2"), ("phone-bbbbbb", "10.0.0.3")):
            stamps.learn(phone, said, address)
        assert stamps() == "2025-01-27T19:30:00Z", said       # the box's own clock


def test_stamps_a_phone_signed_in_twice_is_one_phone():
    """Each sign-in is a phone's id, so one phone signing in again agreed with itself; a
    phone that agrees must be heard from another address."""
    wall, mono, stamps = away_from_home()
    for login in ("pin-aaaaaa", "pin-bbbbbb"):
        stamps.learn(login, wall.now + timedelta(days=500), "10.0.0.7")
    assert stamps() == "2025-01-27T19:30:00Z"


def test_stamps_a_time_server_is_believed_over_the_phones():
    synced = [True]
    wall, mono, stamps = away_from_home(synced)
    stamps.learn("pin-1a2b3c", TONIGHT)                # synced: the phones are not heard
    stamps.learn("phone-4d5e6f", TONIGHT)
    assert stamps() == "2025-01-27T19:30:00Z"
    synced[0] = False
    stamps.learn("pin-1a2b3c", TONIGHT)
    stamps.learn("phone-4d5e6f", TONIGHT)
    assert stamps() == "2025-03-08T19:30:00Z"
    wall.now = TONIGHT + timedelta(hours=1)            # home again: NTP sets the clock
    synced[0] = True
    assert stamps() == "2025-03-08T20:30:00Z"          # not moved by the phones' 40 days
    assert stamps.offset == 0


def test_stamps_the_box_knows_a_time_server_set_its_clock_from_timesyncd(tmp_path, monkeypatch):
    from firmware import stamps as module
    monkeypatch.setattr(module, "SYNCED", str(tmp_path / "synchronized"))
    assert module.time_server_synced() is False
    (tmp_path / "synchronized").touch()
    assert module.time_server_synced() is True


def test_stamps_the_clubs_clock_is_believed_before_the_phones():
    """Two signed-in phones set three days behind moved the table's clock with them; a club's
    clock, told over its broker, is the one every table of the club goes by."""
    wall, mono, stamps = away_from_home()
    wall.now = TONIGHT
    for phone in ("pin-1a2b3c", "phone-4d5e6f"):
        stamps.learn(phone, TONIGHT - timedelta(days=3))
    assert stamps() == "2025-03-05T19:30:00Z"                       # the phones' middle
    stamps.learn(CLUB, TONIGHT + timedelta(seconds=5))
    assert stamps() == "2025-03-08T19:30:00Z"                       # the club: right (to 2 min)
    stamps.learn("pin-7a8b9c", TONIGHT - timedelta(days=3))           # a third phone: no matter
    assert stamps() == "2025-03-08T19:30:00Z"


def test_stamps_a_game_resumed_after_a_power_cut_never_goes_back_before_its_last_stamp(
        tmp_path):
    """At a club, a game begun on the club's clock, then a power cut: the box came back with
    its last shutdown's time, three days behind, and the game's end was stamped three days
    before its start (the club took the club's time only between games), first in the league's
    order. The resumed game goes on from its last stamp, by the time that really passes."""
    wall, mono, stamps = away_from_home()
    stamps.learn(CLUB, TONIGHT)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    mono.advance(40)
    session.submit({"type": "rename", "seat": 0, "name": "Anna"})
    game_id = session.game_id
    store.close()

    wall.now, mono = TONIGHT - timedelta(days=3), FakeClock()       # back on, the clock lost
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: False)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())
    assert session.resumed and session.resumed_at == "2025-03-08T19:30:40Z"
    stamps.not_before(session.resumed_at)
    stamps.learn(CLUB, TONIGHT + timedelta(minutes=5))             # the club, heard mid-game
    mono.advance(20)
    session.submit({"type": "declare", "winners": [0]})
    ended = store.events(game_id)[-1]["at"]
    assert ended == "2025-03-08T19:31:00Z"                          # 20 s after its last stamp
    assert store.events(game_id)[0]["at"] <= ended
    store.close()


def test_stamps_a_resumed_game_on_a_clock_already_right_keeps_the_wall_clock():
    """not_before only ever holds the clock back from going backwards: a box whose clock is
    right (or ahead of the last stamp, the downtime passed) stamps by the wall clock."""
    wall, mono = Wall(), FakeClock()
    stamps = TableClock(wall=wall, monotonic=mono)
    stamps.not_before("2025-01-01T11:00:00Z")                       # an hour before noon
    assert stamps() == "2025-01-01T12:00:00Z"
    stamps.not_before(None)
    assert stamps() == "2025-01-01T12:00:00Z"


def test_stamps_a_game_begun_after_a_power_cut_never_begins_before_the_last_one_ended(
        tmp_path):
    """A game over, then the power pulled: the box came back with the time it last saved
    (fake-hwclock's, up to an hour old, and none of the time it was off) and no time server.
    The next game was stamped as begun before the last one ended, out of order in the history,
    the exports and a club's league. Between games the stamps now never go back before the
    newest one the store holds, until a time server has set the clock."""
    wall, mono = Wall(), FakeClock()
    wall.now = TONIGHT
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: False)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    mono.advance(300)
    session.submit({"type": "declare", "winners": [0]})
    first = session.game_id
    ended = store.events(first)[-1]["at"]
    assert ended == "2025-03-08T19:35:00Z"
    store.close()

    wall.now, mono = TONIGHT - timedelta(minutes=20), FakeClock()   # back on: the hour's save
    synced = [False]
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: synced[0])
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=stamps)
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())
    stamps.restarted(store.newest_stamp())                         # as `parlour run` starts
    assert not session.resumed
    session.new_game("fox-and-geese", ["Cy", "Di"])
    begun = store.events(session.game_id)[0]["at"]
    assert begun >= ended, (begun, ended)
    mono.advance(60)
    session.submit({"type": "declare", "winners": [1]})
    assert store.events(session.game_id)[-1]["at"] == "2025-03-08T19:36:00Z"   # a minute on

    synced[0] = True                      # a time server set the clock: it is believed
    wall.now = TONIGHT - timedelta(minutes=10)
    session.new_game("fox-and-geese", ["Ed", "Flo"])
    assert store.events(session.game_id)[0]["at"] == "2025-03-08T19:20:00Z"
    store.close()


def test_stamps_a_stamp_once_dated_far_ahead_is_no_floor_after_a_restart():
    """A store holding a stamp dated wrong (a phone's 2199, before phones were checked) must
    not date every game after it: only a clock at most a day behind is taken for one that
    lost its time in a power cut."""
    wall, mono = Wall(), FakeClock()
    wall.now = TONIGHT
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: False)
    stamps.between_games({"phase": "idle"})
    stamps.restarted("2199-01-01T00:00:00Z")
    assert stamps() == "2025-03-08T19:30:00Z"
    stamps = TableClock(wall=wall, monotonic=mono, synced=lambda: False)
    stamps.between_games({"phase": "idle"})
    stamps.restarted("2025-03-08T20:10:00Z")                # 40 minutes on: a power cut
    assert stamps() == "2025-03-08T20:10:00Z"
