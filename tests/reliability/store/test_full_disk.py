"""A full SD card, for real: `parlour run --sim` with its store on a 512 KiB tmpfs, mounted
without root in a user and mount namespace of its own (`unshare -rm`; the test reaches the
files through /proc/<pid>/root and runs parlour there with `nsenter`).

A write that does not fit is a 507 JSON error "The SD card is full" to the phone and the same
words on the OLED; nothing is changed and nothing stored before is lost; once space is freed
play carries on. Starting on a full card (SQLite's "disk I/O error" while making its -shm
index) opens the store anyway, says so, and resumes the game."""

from __future__ import annotations

import errno
import io
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from PIL import Image

from companion.errors import StoreFull
from companion.record.store import FULL_WORDS, Store
from firmware.oled import screens
from reliability_support import control, request
from simulated_table import SimulatedTable

SIZE = "512k"


class TinyCard:
    """A tmpfs of SIZE at `mount` inside a held namespace."""

    def __init__(self, mount: Path):
        self.mount = mount
        self.holder = subprocess.Popen(
            ["unshare", "-rm", "sh", "-c",
             f'mount -t tmpfs -o size={SIZE} tmpfs "{mount}" && echo mounted && exec sleep 600'],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.ready = self.holder.stdout.readline().strip() == "mounted"
        self.enter = ("nsenter", "-t", str(self.holder.pid), "-U", "-m",
                      "--preserve-credentials")

    def outside(self, path: Path) -> Path:
        """`path` (under the mount) as this process reaches it."""
        return Path(f"/proc/{self.holder.pid}/root") / path.relative_to("/")

    def fill(self) -> None:
        """Take every free byte with a filler file."""
        with open(self.outside(self.mount / "filler"), "ab", buffering=0) as filler:
            chunk = b"\0" * 4096
            while True:
                try:
                    filler.write(chunk)
                except OSError as err:
                    assert err.errno == errno.ENOSPC
                    if len(chunk) == 1:
                        return
                    chunk = chunk[:len(chunk) // 2]

    def free(self) -> None:
        self.outside(self.mount / "filler").unlink()

    def copy_store(self, data: Path, to: Path) -> Store:
        """The store as it is on the card, copied out (SQLite resolves /proc's links)."""
        to.mkdir(exist_ok=True)
        for name in ("parlour.db", "parlour.db-wal"):
            source = self.outside(data / name)
            if source.exists():
                shutil.copy(source, to / name)
        return Store(to / "parlour.db")

    def close(self) -> None:
        self.holder.kill()
        self.holder.communicate()          # reaps it and closes its pipes


@pytest.fixture
def card(tmp_path):
    if shutil.which("unshare") is None or shutil.which("nsenter") is None:
        pytest.skip("unshare/nsenter (util-linux) are needed to mount a tiny filesystem")
    mount = tmp_path / "sd"
    mount.mkdir()
    card = TinyCard(mount)
    if not card.ready:
        card.close()
        pytest.skip("unprivileged user and mount namespaces are not allowed here")
    yield card
    card.close()


def frame(png: bytes) -> Image.Image:
    """The 128x64 one-bit frame behind the panel's x4 coloured PNG."""
    big = Image.open(io.BytesIO(png)).convert("L")
    small = big.resize((big.width // 4, big.height // 4), Image.NEAREST)
    return small.point(lambda v: 255 if v > 60 else 0).convert("1")


def settled_frame(port: int) -> Image.Image:
    """The screen once it has stopped changing."""
    last = None
    while True:
        version = request(port, "GET", "/device/screen")[1]["version"]
        if version == last:
            return frame(request(port, "GET", "/device/screen.png")[1])
        last = version
        time.sleep(0.4)


@pytest.mark.slow
def test_full_disk_says_the_sd_card_is_full_and_loses_nothing(card, tmp_path):
    data = card.mount / "data"
    with SimulatedTable(data, tmp_path, prefix=card.enter) as table:
        status, state = control(table.port, "new-game",
                                {"game": "free-play", "players": ["Ann", "Ben"]})
        assert status == 200
        before = settled_frame(table.port)
        card.fill()
        status, body = control(table.port, "roll")
        assert status == 507 and body == {"error": FULL_WORDS["write"]}
        assert body["error"].lower().startswith("the sd card is full")
        time.sleep(0.5)
        shown = frame(request(table.port, "GET", "/device/screen.png")[1])
        assert shown.tobytes() == screens.flash(before, FULL_WORDS["write"]).tobytes()
        shown.resize((512, 256), Image.NEAREST).save(tmp_path / "sd-card-full.png")
        assert request(table.port, "GET", "/api/state")[1]["version"] == state["version"]
        card.free()
        status, rolled = control(table.port, "roll")            # room again: play goes on
        assert status == 200 and rolled["rolls"] == 1
        out, err = table.stop()
    assert "Traceback" not in err

    card.fill()                                                  # a clean stop, then full
    with SimulatedTable(data, tmp_path, prefix=card.enter) as table:
        resumed = table.first_state
        assert (resumed["game_id"], resumed["rolls"]) == (rolled["game_id"], 1)
        status, body = control(table.port, "roll")
        assert status == 507 and body["error"] == FULL_WORDS["write"]
        out, err = table.stop()
    assert "the SD card is full" in err and "Traceback" not in err
    card.free()

    store = card.copy_store(data, tmp_path / "copy")
    (game,) = store.games()
    assert game.events == 2 and store.events(game.id)[-1]["type"] == "roll"   # nothing lost
    store.close()


class FullForInserts:
    """A store connection on which every INSERT meets SQLite's SQLITE_FULL (an UPDATE, which
    takes no new page here, still goes through)."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql, *args):
        if sql.startswith("INSERT"):
            err = sqlite3.OperationalError("database or disk is full")
            err.sqlite_errorcode = 13
            raise err
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)

    def __enter__(self):
        return self.db.__enter__()

    def __exit__(self, *exc):
        return self.db.__exit__(*exc)


def test_full_disk_write_is_store_full_and_rolls_back(tmp_path, monkeypatch):
    """Without a tiny filesystem: SQLite's own SQLITE_FULL, injected at the connection."""
    store = Store(tmp_path / "parlour.db")
    store.create_game({"type": "new_game", "game": "free-play", "players": ["A", "B"]},
                      seed=None, commitment=None, created_at=None)
    Full = FullForInserts
    real = store._db
    store._db = Full(real)
    with pytest.raises(StoreFull, match="The SD card is full"):
        store.append(1, 2, {"type": "roll", "values": [3]})
    store._db = real
    assert len(store.events(1)) == 1
    store.close()


def test_full_disk_a_new_game_refused_leaves_the_game_in_play_as_it_was(tmp_path):
    """Starting a game sets the unfinished one aside: on a full card both are refused together,
    so the game in play is not marked set aside while it goes on, its next throw is stored
    with it, and a restart resumes it."""
    from companion.session import Session
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    playing = session.game_id
    real, store._db = store._db, FullForInserts(store._db)
    with pytest.raises(StoreFull):
        session.new_game("kat-en-muis", ["Cy", "Dee"])
    store._db = real
    assert session.game_id == playing and store.game(playing).status == "playing"
    assert [g.id for g in store.games()] == [playing]
    session.roll()
    assert store.game(playing).events == 2
    store.close()
    again = Session(Store(tmp_path / "parlour.db"), new_seed=lambda: bytes(32))
    assert again.game_id == playing and again.snapshot()["game"] == "cats-and-dogs"
    again.store.close()
