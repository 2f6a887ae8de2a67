"""Start-up after a crash: the game resumes exactly; a store that cannot be read is moved aside
untouched (never written over) and a fresh one started; a game that no longer replays is set
aside with its log, and start-up goes on."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from companion.errors import StoreError
from companion.replay import replay
from companion.randomness.rollstream import draw
from companion.session import Session
from companion.record.store import SCHEMA_VERSION, Store
from firmware import runner
from firmware.oled import screens
from firmware.config import Config
from firmware.datadir.recovery import open_table, probe, set_aside
from firmware.oled.views import split_prompt
from reliability_support import comparable

STAMP = "20250101T120000Z"


def seeds():
    n = 0
    while True:
        n += 1
        yield hashlib.sha256(f"seed {n}".encode()).digest()


def make_session(store: Store) -> Session:
    seed = seeds()
    return Session(store, new_seed=lambda: next(seed), clock=lambda: "2025-01-01T12:00:00Z")


def played_store(path: Path, rolls: int = 12, games: int = 1) -> list[dict]:
    """A store of `games` Kat en Muis games of `rolls` rolls, the last one unfinished; the
    last game's snapshots."""
    store = Store(path)
    session = make_session(store)
    for _ in range(games):
        snaps = [session.new_game("kat-en-muis", ["Ann", "Ben"])]
        for _ in range(rolls):
            snaps.append(session.roll())
    assert snaps[-1]["phase"] == "play"
    store.close()
    return snaps


def open_here(path: Path):
    return open_table(path, make_session, now=lambda: "2025-01-02T00:00:00Z",
                      stamp=lambda: STAMP)


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_recovery_resumes_the_same_turn_chips_and_roll_stream(tmp_path):
    db = tmp_path / "parlour.db"
    store = Store(db)
    session = make_session(store)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    for _ in range(9):
        session.roll()
    session.undo()                                   # roll 8 is taken back: roll 8 comes again
    crashed = tmp_path / "crashed"                   # the files as a power cut leaves them
    crashed.mkdir()
    for name in ("parlour.db", "parlour.db-wal"):
        shutil.copy(tmp_path / name, crashed / name)
    opened = open_here(crashed / "parlour.db")
    again = opened.session
    assert again.resumed and not opened.notices
    assert comparable(again.snapshot()) == comparable(session.snapshot())
    state = again.state
    assert state.rolls == 8
    expected = draw(bytes.fromhex(opened.store.game(again.game_id).seed), 8,
                    again.table.rulebook.randomizer_now(state))
    assert again.roll()["last_roll"]["values"] == list(expected)
    assert session.roll()["last_roll"]["values"] == list(expected)   # as if never stopped
    assert comparable(again.snapshot()) == comparable(session.snapshot())
    opened.store.close()
    store.close()


def test_recovery_every_change_is_stored_before_anyone_is_told(tmp_path):
    store = Store(tmp_path / "parlour.db")
    session = make_session(store)
    seen = []

    def listener(snap):
        if snap["game_id"] is not None:
            stored = replay(store.events(snap["game_id"])).to_json()
            seen.append(comparable(stored) == comparable(snap))

    session.subscribe(listener)
    session.new_game("cats-and-dogs", ["Ann", "Ben", "Cy"])
    for _ in range(6):
        session.roll()
    session.undo()
    session.submit({"type": "rename", "seat": 1, "name": "Bea"})
    assert seen == [True] * 9
    store.close()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "half", "header"])
def test_recovery_unreadable_store_is_moved_aside_untouched(tmp_path, damage):
    db = tmp_path / "parlour.db"
    played_store(db, rolls=10, games=8)
    data = db.read_bytes()
    # truncated: a whole page gone (SQLite reads a page cut short as zero-padded, which its
    # quick check may or may not notice, depending on what the page held)
    damaged = {"garbage": bytes(range(256)) * 20, "truncated": data[:-5000],
               "half": data[:len(data) // 2], "header": b"SQLite format 2\0" + data[16:]}[damage]
    db.write_bytes(damaged)
    (tmp_path / "parlour.db-wal").write_bytes(b"an old journal")
    assert probe(db) is not None
    opened = open_here(db)
    aside = tmp_path / f"parlour.db.corrupt-{STAMP}"
    assert aside.read_bytes() == damaged                        # kept exactly as it was
    assert (tmp_path / f"parlour.db.corrupt-{STAMP}-wal").read_bytes() == b"an old journal"
    assert len(opened.notices) == 1 and str(aside) in opened.notices[0]
    assert opened.screen == ["Store damaged: kept aside, new one started"]
    assert not opened.session.resumed and opened.store.games() == []
    opened.session.new_game("kat-en-muis", ["Ann", "Ben"])       # the fresh store works
    assert len(opened.store.games()) == 1
    opened.store.close()


def test_recovery_damaged_header_keeps_the_write_ahead_log(tmp_path):
    """The newest committed events may be only in the -wal: refusing the store must not let
    SQLite checkpoint or delete it (a read-write open and close of a damaged file did)."""
    db = tmp_path / "parlour.db"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (0)")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for n in range(5):
        conn.execute("INSERT INTO t VALUES (?)", (n,))      # only in the -wal
    crashed = tmp_path / "crashed"                          # the files as a crash leaves them
    crashed.mkdir()
    for name in ("parlour.db", "parlour.db-wal"):
        shutil.copy(tmp_path / name, crashed / name)
    conn.close()
    damaged = b"not SQLite at all" + (crashed / "parlour.db").read_bytes()[17:]
    (crashed / "parlour.db").write_bytes(damaged)
    wal = (crashed / "parlour.db-wal").read_bytes()
    assert len(wal) > 1000
    opened = open_here(crashed / "parlour.db")
    assert (crashed / f"parlour.db.corrupt-{STAMP}-wal").read_bytes() == wal
    assert (crashed / f"parlour.db.corrupt-{STAMP}").read_bytes() == damaged
    opened.store.close()


def test_recovery_store_from_a_newer_parlour_is_kept_aside(tmp_path):
    db = tmp_path / "parlour.db"
    played_store(db)
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = files(tmp_path)
    with pytest.raises(StoreError, match="newer Parlour"):
        Store(db)
    assert files(tmp_path) == before                 # refusing it wrote nothing
    opened = open_here(db)
    assert (tmp_path / f"parlour.db.newer-{STAMP}").read_bytes() == before["parlour.db"]
    assert "newer Parlour" in opened.notices[0]
    assert opened.screen == ["Store from a newer Parlour: kept aside, new one started"]
    opened.store.close()


def test_recovery_set_aside_never_overwrites_an_earlier_one(tmp_path):
    db = tmp_path / "parlour.db"
    for n in range(3):
        db.write_bytes(f"junk {n}".encode() * 300)
        set_aside(db, "corrupt", STAMP)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"parlour.db.corrupt-{STAMP}", f"parlour.db.corrupt-{STAMP}-2",
        f"parlour.db.corrupt-{STAMP}-3"]


def test_recovery_a_store_it_cannot_open_is_not_moved(tmp_path):
    db = tmp_path / "parlour.db"
    db.mkdir()                                       # not damaged, just not openable
    with pytest.raises(StoreError):
        open_here(db)
    assert [p.name for p in tmp_path.iterdir()] == ["parlour.db"]


def test_recovery_a_game_that_no_longer_replays_is_set_aside(tmp_path):
    db = tmp_path / "parlour.db"
    played_store(db)
    conn = sqlite3.connect(db)                       # as if the rules had changed under it
    conn.execute("INSERT INTO events (game_id, seq, body) VALUES (1, 14, ?)",
                 ('{"type": "press", "seat": 7}',))
    conn.commit()
    conn.close()
    opened = open_here(db)
    assert not opened.session.resumed and opened.session.snapshot()["phase"] == "idle"
    assert "game 1 (kat-en-muis) could not be resumed" in opened.notices[0]
    record = opened.store.game(1)
    assert record.status == "abandoned" and record.events == 14          # its log is kept
    opened.store.close()


def test_recovery_unknown_game_in_the_store_does_not_stop_start_up(tmp_path):
    db = tmp_path / "parlour.db"
    played_store(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE events SET body = replace(body, 'kat-en-muis', 'retired-game') "
                 "WHERE seq = 1")
    conn.commit()
    conn.close()
    opened = open_here(db)
    assert opened.session.snapshot()["phase"] == "idle" and opened.screen
    opened.store.close()


def test_recovery_runner_says_so_on_stderr_and_the_oled(tmp_path, mock_factory, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "parlour.db").write_bytes(b"\x00garbage" * 1000)
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=data,
                         config=Config(data_dir=data), pin="1234", web=False)
    try:
        err = capsys.readouterr().err
        assert "moved aside" in err and "parlour.db.corrupt-" in err
        assert table.controller.view()["flash"] == "Store damaged: kept aside, new one started"
        assert table.session.snapshot()["phase"] == "idle"
    finally:
        table.close()
    assert len(list(data.glob("parlour.db.corrupt-*"))) == 1


def test_recovery_runner_shows_resumed_with_the_player_to_play(tmp_path, mock_factory,
                                                             monkeypatch):
    data = tmp_path / "data"
    snaps = played_store(data / "parlour.db", rolls=5)
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=data,
                         config=Config(data_dir=data), pin="1234", web=False)
    try:
        controller = table.controller
        assert controller.screen == "resumed" and controller.view()["flash"] == ""
        name, _ = split_prompt(snaps[-1]["prompt"])
        assert name.split(" (")[0] in ("Ann", "Ben")
        said = []
        monkeypatch.setattr(screens, "message", lambda *lines: said.append(lines) or
                            Image.new("1", (128, 64)))
        controller.render()
        assert said == [("Resumed", "Kat en Muis", f"{name} to play")]
        assert comparable(table.session.snapshot()) == comparable(snaps[-1])
    finally:
        table.close()
