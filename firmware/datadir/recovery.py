"""Opening the table's store at start-up, after a crash, a power cut or a downgrade.

SQLite (WAL, synchronous=FULL) already brings a store back to its last committed event after a
power cut, and the session resumes the unfinished game from it. This covers what SQLite cannot:
a file that is not a store this Parlour can read (damaged, truncated, not SQLite, or written by
a newer Parlour) is moved aside with its -wal and -shm files, never written over, and a fresh
store is started; an unfinished game whose log no longer replays (a rules change, say) is set
aside with its log kept, so start-up goes on. Each is said in `notices`, for people.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from companion.errors import StoreError, StoreUnreadable
from companion.session import Session
from companion.record.store import SCHEMA_VERSION, UNREADABLE, Store

COMPANIONS = ("-wal", "-shm")     # SQLite's files beside the store: they move with it


@dataclass
class Opened:
    store: Store
    session: Session
    notices: list[str] = field(default_factory=list)     # full sentences, for the log
    screen: list[str] = field(default_factory=list)      # short ones, for the OLED


def file_stamp() -> str:
    """UTC now for a file name: 20250101T120000Z."""
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def set_aside(path: Path, why: str, stamp: str) -> Path:
    """Move the store and its -wal/-shm to `<name>.<why>-<stamp>` (a free name); the journal
    files go first, so a fresh store can never pick up an old write-ahead log."""
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while any(Path(f"{target}{suffix}").exists() for suffix in ("", *COMPANIONS)):
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    for suffix in (*COMPANIONS, ""):
        source = Path(f"{path}{suffix}")
        if source.exists():
            os.replace(source, f"{target}{suffix}")
    try:                                   # make the renames themselves survive a power cut
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
    return target


def probe(path: Path) -> StoreUnreadable | None:
    """Look at an existing store through a read-only connection, which never checkpoints or
    deletes a write-ahead log: its version, then SQLite's quick integrity check (a damaged
    file can open and fail later). The problem if it is unreadable; None if fine, absent, or
    unopenable for another reason (permissions, a lock: Store reports those)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            return StoreUnreadable(f"{path} was written by a newer Parlour (store version "
                                   f"{version}, this one reads {SCHEMA_VERSION})", newer=True)
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as err:
        if (getattr(err, "sqlite_errorcode", 0) & 0xFF) not in UNREADABLE:
            return None
        rows = [(str(err),)]
    finally:
        db.close()
    if rows == [("ok",)]:
        return None
    problem = " ".join(str(rows[0][0]).split())[:200]
    return StoreUnreadable(f"the store {path} cannot be read ({problem})")


def _open_store(path: Path, stamp: Callable[[], str], notes: list[str],
                screen: list[str]) -> tuple[Store, bool]:
    """The store, and True if the old file had to be moved aside for a fresh one."""
    problem = probe(path)
    if problem is None:
        try:
            return Store(path), False
        except StoreUnreadable as err:     # changed under us, or the probe could not tell
            problem = err
    _moved(path, problem, stamp, notes, screen)
    return Store(path), True


def _moved(path: Path, err: StoreUnreadable | sqlite3.DatabaseError, stamp: Callable[[], str],
           notes: list[str], screen: list[str]) -> None:
    newer = getattr(err, "newer", False)
    moved = set_aside(path, "newer" if newer else "corrupt", stamp())
    notes.append(f"{err}: it was moved aside to {moved} (untouched) and a fresh store started")
    screen.append("Store from a newer Parlour: kept aside, new one started" if newer
                  else "Store damaged: kept aside, new one started")


def open_table(path: Path, make_session: Callable[[Store], Session], *,
               now: Callable[[], str | None], stamp: Callable[[], str] = file_stamp) -> Opened:
    """The store at `path` and the session on it, whatever state the last run left them in.
    StoreError still escapes for what moving a file cannot mend (no permission, disk full)."""
    notes: list[str] = []
    screen: list[str] = []
    store, fresh = _open_store(path, stamp, notes, screen)
    if store.short_of_space:
        notes.append(f"the SD card is full: {path} is open and every game is kept, but "
                     "nothing new can be stored until some space is freed")
        screen.append("The SD card is full: nothing new can be stored")
    tried: set[int] = set()
    while True:
        try:
            return Opened(store, make_session(store), notes, screen)
        except StoreError:
            store.close()
            raise
        except sqlite3.DatabaseError as err:      # damaged where the quick check did not look
            store.close()
            if fresh:                              # a fresh store: not the old file's fault
                raise StoreError(f"cannot read the store {path}: {err}") from None
            _moved(path, err, stamp, notes, screen)
            store, fresh = Store(path), True
        except Exception as err:  # noqa: BLE001 - any failure to replay the unfinished game
            record = store.latest_unfinished()
            if record is None or record.id in tried:
                store.close()
                raise
            tried.add(record.id)
            store.abandon(record.id, now())
            notes.append(f"game {record.id} ({record.game}) could not be resumed "
                         f"({type(err).__name__}: {err}); it is set aside, its log kept")
            screen.append(f"Game {record.id} could not be resumed: set aside")
