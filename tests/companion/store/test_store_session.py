"""The store (SQLite) and the session: durable events, resuming, refusals storing nothing,
listeners, export with the seed revealed only after the end, and files it must not open."""

import hashlib
import itertools
import os
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from companion.errors import Refused, StoreError
from companion.randomness.randomizers import dice, spinner
from companion.replay import replay
from companion.randomness.rollstream import draw
from companion.session import Session
from companion.record.store import Store

SEED = hashlib.sha256(b"store and session").digest()
SHORT = {"track_length": 12, "arrows": {}}


def clock():
    """A clock for the session: one second later at every call."""
    ticks = itertools.count()
    start = datetime(2024, 5, 1, 20, 0, tzinfo=timezone.utc)
    return lambda: (start + timedelta(seconds=next(ticks))).isoformat()


def open_session(path, seed=SEED):
    store = Store(path)
    return store, Session(store, new_seed=lambda: seed, clock=clock())


def without_version(snapshot):
    """The state without what tells one run of the table from another."""
    return {k: v for k, v in snapshot.items() if k not in ("version", "state_version", "boot")}


def play_to_the_end(session, limit=2000):
    for _ in range(limit):
        if session.snapshot()["phase"] == "over":
            return
        session.roll()
    raise AssertionError("the game did not end")  # pragma: no cover


@pytest.fixture
def db(tmp_path):
    return tmp_path / "data" / "games.db"


# -- durable events -------------------------------------------------------------------------

def test_store_events_survive_closing_and_reopening(db):
    store, session = open_session(db)
    session.new_game("kat-en-muis", ["Ann", "Ben"], options={"stake": 3})
    for _ in range(5):
        session.roll()
    session.undo()
    session.submit({"type": "transfer", "from": 0, "to": 1, "amount": 1, "reason": "x"})
    game_id = session.game_id
    stored = store.events(game_id)
    store.close()

    again = Store(db)
    assert again.events(game_id) == stored
    assert [e["type"] for e in stored] == ["new_game"] + ["roll"] * 5 + ["undo", "transfer"]
    assert stored[0]["options"] == {"stake": 3}
    assert stored[0]["at"] == "2024-05-01T20:00:00+00:00" and "at" in stored[-1]
    record = again.game(game_id)
    assert (record.game, record.players, record.status) == ("kat-en-muis", ["Ann", "Ben"],
                                                            "playing")
    assert record.events == 8
    again.close()


def test_store_reopening_resumes_the_unfinished_game(db):
    store, session = open_session(db)
    session.new_game("lifes-mishaps", ["Ann", "Ben", "Cy"])
    for _ in range(9):
        session.roll()
    session.undo()
    before = session.snapshot()
    store.close()

    store, resumed = open_session(db, seed=b"never used")
    assert resumed.resumed
    after = resumed.snapshot()
    assert without_version(after) == without_version(before)
    assert after["seed"] is None                     # still secret
    # It carries on from the same roll stream position.
    values = resumed.roll()["last_roll"]["values"]
    assert tuple(values) == draw(SEED, before["rolls"], dice(1))
    store.close()


def test_store_stored_log_replays_to_the_session_state(db):
    store, session = open_session(db)
    session.new_game("cats-and-dogs", ["Ann", "Ben"], board=SHORT)
    for _ in range(7):
        session.roll()
    table = replay(store.events(session.game_id))
    assert table.to_json() == session.table.to_json()
    store.close()


def test_store_session_without_a_game_is_idle(db):
    store, session = open_session(db)
    assert not session.resumed
    snap = session.snapshot()
    assert (snap["phase"], snap["game"], snap["turn"]) == ("idle", None, None)
    with pytest.raises(Refused, match="no game"):
        session.roll()
    with pytest.raises(Refused, match="no game"):
        session.submit({"type": "undo"})
    store.close()


# -- refusals store nothing -----------------------------------------------------------------

@pytest.mark.parametrize("event", [
    {"type": "undo"},                                         # nothing to undo yet
    {"type": "next"},
    {"type": "press", "seat": 0},
    {"type": "transfer", "from": 0, "to": 5, "amount": 1},
    {"type": "transfer", "from": 0, "to": "pool", "amount": 0},
    {"type": "dance"},
    {"type": "new_game", "game": "kat-en-muis", "players": ["A", "B"]},
])
def test_store_refused_event_stores_nothing(db, event):
    store, session = open_session(db)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    before, version = store.events(session.game_id), session.snapshot()["version"]
    with pytest.raises(Refused):
        session.submit(event)
    assert store.events(session.game_id) == before
    assert session.snapshot()["version"] == version
    store.close()


def test_store_refused_new_game_stores_nothing(db):
    store, session = open_session(db)
    with pytest.raises(Refused):
        session.new_game("kat-en-muis", ["Ann"])
    with pytest.raises(Refused):
        session.new_game("cats-and-dogs", ["Ann", "Ben"], board={"track_length": 3})
    assert store.games() == []
    store.close()


def test_store_roll_after_the_end_stores_nothing(db):
    store, session = open_session(db)
    session.new_game("cats-and-dogs", ["Ann", "Ben"], board=SHORT)
    play_to_the_end(session)
    count = len(store.events(session.game_id))
    with pytest.raises(Refused):
        session.roll()
    with pytest.raises(Refused, match="over"):
        session.undo()
    assert len(store.events(session.game_id)) == count
    assert store.game(session.game_id).status == "over"
    store.close()
    store, reopened = open_session(db)
    assert not reopened.resumed and reopened.snapshot()["phase"] == "idle"
    store.close()


# -- listeners ------------------------------------------------------------------------------

def test_session_listeners_get_each_new_snapshot(db):
    store, session = open_session(db)
    heard = []
    unsubscribe = session.subscribe(heard.append)
    session.new_game("lifes-mishaps", ["Ann", "Ben"])
    first = session.roll()
    assert heard[-1] == first == session.snapshot()
    assert [h["version"] for h in heard] == [1, 2]
    assert heard[-1]["rolls"] == 1
    with pytest.raises(Refused):
        session.submit({"type": "next"})
    assert len(heard) == 2                                  # a refusal tells no one
    unsubscribe()
    session.roll()
    assert len(heard) == 2
    store.close()


# -- export ---------------------------------------------------------------------------------

def test_session_export_log_reveals_the_seed_only_once_over(db):
    store, session = open_session(db)
    session.new_game("cats-and-dogs", ["Ann", "Ben"], board=SHORT)
    for _ in range(3):
        session.roll()
    game_id = session.game_id
    log = session.export_log(game_id)
    assert "seed" not in log[0]
    assert log[0]["commitment"] == hashlib.sha256(SEED).hexdigest()
    assert session.snapshot()["seed"] is None
    play_to_the_end(session)
    log = session.export_log(game_id)
    assert log[0]["seed"] == SEED.hex()
    assert sum("seed" in event for event in log) == 1
    assert session.snapshot()["seed"] == SEED.hex()
    # The exported log replays to the same end, the seed checked against the commitment,
    # and every roll is the committed stream's.
    state = replay(log).to_json()
    assert state["phase"] == "over" and state["winners"] == session.snapshot()["winners"]
    rolls = [e["values"] for e in log if e["type"] == "roll"]
    assert rolls == [list(draw(SEED, n, spinner(6))) for n in range(len(rolls))]
    store.close()


def test_session_export_unknown_game(db):
    store, session = open_session(db)
    with pytest.raises(KeyError):
        session.export_log(99)
    store.close()


def test_session_new_game_sets_an_unfinished_game_aside(db):
    store, session = open_session(db)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    first = session.game_id
    session.new_game("lifes-mishaps", ["Ann", "Ben"])
    assert store.game(first).status == "abandoned"
    assert "seed" not in session.export_log(first)[0]     # never finished: stays secret
    assert [g.id for g in store.games()] == [session.game_id, first]
    assert store.latest_unfinished().id == session.game_id
    store.close()


# -- files the store must not open ----------------------------------------------------------

def test_store_newer_schema_version_refused(tmp_path):
    path = tmp_path / "future.db"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)


def test_store_file_that_is_not_a_database_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database" * 200)
    with pytest.raises(StoreError, match="cannot open the store"):
        Store(path)
    assert path.read_bytes().startswith(b"these are my notes")


def test_store_folder_that_cannot_be_made_refused(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(StoreError, match="cannot open the store"):
        Store(blocker / "games.db")


def test_store_refused_file_is_not_kept_open(tmp_path, monkeypatch):
    opened = []
    real_connect = sqlite3.connect

    def connect(*args, **kwargs):
        opened.append(real_connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(sqlite3, "connect", connect)
    path = tmp_path / "notes.db"
    path.write_bytes(b"not a database" * 300)
    with pytest.raises(StoreError):
        Store(path)
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[0].execute("SELECT 1")


def test_store_error_is_a_parlour_error():
    from companion.errors import ParlourError
    assert issubclass(StoreError, ParlourError) and issubclass(StoreError, RuntimeError)


def test_session_x12_buttons_are_logged_and_kept_on_resume(db):
    store, session = open_session(db)
    session.new_game("cats-and-dogs", ["Blue", "Yellow"], buttons=[2, 4])
    session.roll()
    assert store.first_event(session.game_id)["buttons"] == [2, 4]
    store.close()
    store, resumed = open_session(db)
    assert resumed.resumed
    assert [p["button"] for p in resumed.snapshot()["players"]] == [2, 4]
    store.close()


def test_session_new_game_without_buttons_logs_one_to_n(db):
    store, session = open_session(db)
    session.new_game("lifes-mishaps", ["Ann", "Ben", "Cy"])
    assert store.first_event(session.game_id)["buttons"] == [1, 2, 3]
    with pytest.raises(Refused, match="two players cannot share seat button 3"):
        session.new_game("kat-en-muis", ["Ann", "Ben"], buttons=[3, 3])
    assert len(store.games()) == 1                       # the refused game stored nothing
    store.close()


def test_session_a_throw_carries_its_spin_only_in_its_own_snapshot(db):
    store = Store(db)
    session = Session(store, new_seed=lambda: SEED, spin_seconds=1.9)
    heard = []
    session.subscribe(heard.append)
    session.new_game("cats-and-mice", ["Ann", "Ben"])
    assert heard[-1]["spin"] is None
    session.roll(spin=2.75)                              # a flick: its own spin time
    assert heard[-1]["spin"] == {"roll": 1, "seconds": 2.75} == session.snapshot()["spin"]
    session.roll()                                       # from a phone: the table's default
    assert heard[-1]["spin"] == {"roll": 2, "seconds": 1.9}
    session.undo()
    assert heard[-1]["spin"] is None and session.snapshot()["spin"] is None
    assert "spin" not in store.events(session.game_id)[1]        # not part of the game
    store.close()


def test_store_files_are_readable_by_the_tables_user_only(tmp_path):
    """The store holds the seed of the game in play: the database, its WAL and its shared
    memory file are 0600 whatever the umask, and an old store left 0644 is made so."""
    old = os.umask(0o022)
    try:
        store, session = open_session(tmp_path / "parlour.db")
        session.new_game("kat-en-muis", ["Ann", "Ben"])
        session.roll()
        for name in ("parlour.db", "parlour.db-wal", "parlour.db-shm"):
            assert (tmp_path / name).stat().st_mode & 0o777 == 0o600, name
        store.close()
        os.chmod(tmp_path / "parlour.db", 0o644)
        Store(tmp_path / "parlour.db").close()
        assert (tmp_path / "parlour.db").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def test_session_a_game_set_up_at_the_box_is_in_every_view_until_it_begins(db):
    """The phones said "No game in play" while the players joined at the box: the state says
    which game is being set up and who has joined, with no game in play or the last one over,
    and not once it has begun."""
    _, session = open_session(db)
    seen = []
    session.subscribe(seen.append)
    session.show_setup("domino-rex", ["Ann"])
    snap = session.snapshot()
    assert snap["setup"] == {"game": "domino-rex", "title": "Domino Rex", "players": ["Ann"]}
    assert snap["prompt"] == "Joining Domino Rex at the box: Ann so far"
    assert seen and seen[-1]["version"] == snap["version"] and snap["state_version"] == 0
    session.show_setup("domino-rex", ["Ann"])              # the same: no new version
    assert session.snapshot()["version"] == snap["version"]
    session.show_setup("kat-en-muis", [])
    assert session.snapshot()["prompt"] == \
        "Joining Kat en Muis at the box: press your seat button there"
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    assert "setup" not in session.snapshot()               # begun
    play_to_the_end(session)
    session.show_setup("kat-en-muis", ["Ann", "Ben"])       # the next, after one over
    over = session.snapshot()
    assert over["phase"] == "over" and over["setup"]["players"] == ["Ann", "Ben"]
    assert over["prompt"] == "Joining Kat en Muis at the box: Ann and Ben so far"
    session.show_setup(None)                                # the box left it
    assert "setup" not in session.snapshot()


def test_session_the_newest_games_end_is_told_after_a_restart(db):
    """The Pi's winning reply, shown on the box when the power went, was never seen again:
    the restarted session had no game; nor was a person's last move read to its end. With no
    game to resume it tells the newest game's end (its last event's lines and the state it
    left), whoever made it, and not while a game is in play; `ending` tells any game's."""
    store, session = open_session(db)
    session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy",
                     board={"sideways": ["c3", "e3"], "vacant": ["a4", "g4"],
                            "geese_to_pen": 17})              # one goose taken ends it
    session.submit({"type": "move", "path": ["b4", "b5"]}, by="pin-1a2b3c")
    ended = session.submit({"type": "move", "path": ["d4", "b4"]}, by="pi")
    assert ended["phase"] == "over" and ended["winners"] == [0]
    store.close()

    store, again = open_session(db)
    assert not again.resumed and again.snapshot()["phase"] == "idle"
    told = again.last_ended
    assert told["game_id"] == session.game_id
    assert told["lines"] == ended["log"][-len(told["lines"]):] and told["lines"]
    assert told["state"]["winners"] == [0] and told["state"]["board"]["last_move"] == ["d4", "b4"]
    again.new_game("fox-and-geese", ["Ann", "Ben"])                 # in play: nothing to tell
    store.close()
    store, third = open_session(db)
    assert third.resumed and third.last_ended is None
    assert third.ending(third.game_id) is None                        # in play: no end
    assert third.ending(session.game_id) == told
    resigned = third.submit({"type": "declare", "winners": [0]}, by="pin-1a2b3c")  # Ben resigns
    store.close()
    store, fourth = open_session(db)
    assert fourth.last_ended["lines"] == ["Ben resigns", "Ann wins"]    # a person ended it
    assert fourth.last_ended["state"]["winners"] == resigned["winners"] == [0]
    store.close()
