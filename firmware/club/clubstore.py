"""The club's own SQLite: every accepted record once (by uid) and each table's newest live
state. The league is worked out from the records alone (companion/record/league.py)."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

from companion.errors import ParlourError
from companion.record.league import RecordRefused, same_game_differs

SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    uid         TEXT PRIMARY KEY,         -- <table id>-<game number>: once, however often sent
    table_id    TEXT NOT NULL,
    ended       TEXT,
    body        TEXT NOT NULL,            -- JSON: the record as the league counts it
    raw         TEXT,                     -- JSON: the whole record as the table sent it
    received_at TEXT NOT NULL,
    commitment  TEXT                      -- the game's seed commitment: one game, one record
);
CREATE TABLE IF NOT EXISTS tables (
    table_id    TEXT PRIMARY KEY,
    name        TEXT,
    status      TEXT,                     -- online | offline
    state       TEXT,                     -- JSON: the newest state payload
    updated_at  TEXT
);
"""


def name_order(name: str) -> list[tuple[int, str, int]]:
    """A table's name as a club lists it: case aside, numbers by their value ("Table 2"
    before "Table 10", "back room" before "Window")."""
    return [(0, "", int(part)) if part.isdecimal() else (1, part, 0)
            for part in re.split(r"(\d+)", name.casefold()) if part]


def unreadable(path: Path, err: sqlite3.DatabaseError) -> ParlourError:
    """What to say when the club's store cannot be opened: the file, why, and what to do.
    Nothing is moved or deleted: the store is the club's to keep or set aside."""
    if getattr(err, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
        return ParlourError(
            f"{path} is damaged ({err}): move it aside, with any {path.name}-wal and "
            f"{path.name}-shm beside it, and start again; the league is rebuilt from the "
            "broker's retained records")
    return ParlourError(f"{path}: cannot open the club's store there ({err})")


class ClubStore:
    """Thread-safe: paho's thread writes, the web's threads read."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.DatabaseError as err:
            raise unreadable(self.path, err) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            columns = [c[1] for c in self._db.execute("PRAGMA table_info(records)")]
            if "commitment" not in columns:                    # a club store made before it
                self._db.execute("ALTER TABLE records ADD COLUMN commitment TEXT")
            self._db.execute("CREATE INDEX IF NOT EXISTS records_by_commitment "
                             "ON records (table_id, commitment)")
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise unreadable(self.path, err) from None
        self.version = 0                  # changes whenever something new is kept

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_record(self, record: dict[str, Any], received_at: str, raw: str | None = None
                   ) -> bool:
        """Keep a checked record (and the whole record as sent, `raw`); False when the game is
        already kept (a repeat: its uid, or its table's game of the same commitment under
        another uid). RecordRefused when that copy counts otherwise (other winners, scores,
        players): a game that ended never changes, so one of the two is not the game."""
        with self._lock:
            kept = self._kept_copy(record)
            if kept is not None:
                differs = same_game_differs(kept, record)
                if differs is not None:
                    raise RecordRefused(f"differs from the record kept of game {kept['uid']} "
                                        f"(its {differs.replace('_', ' ')}): kept as it was")
                return False
            added = self._db.execute(
                "INSERT OR IGNORE INTO records (uid, table_id, ended, body, raw, received_at, "
                "commitment) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (record["uid"], record["table"], record["ended"], json.dumps(record), raw,
                 received_at, record.get("commitment"))
            ).rowcount == 1
            if added:
                self.version += 1
            return added

    def _kept_copy(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The kept record of the same game: by uid, or by its table and commitment."""
        row = self._db.execute("SELECT body FROM records WHERE uid = ?",
                               (record["uid"],)).fetchone()
        if row is None and record.get("commitment"):
            row = self._db.execute("SELECT body FROM records WHERE table_id = ? AND "
                                   "commitment = ?", (record["table"],
                                                      record["commitment"])).fetchone()
        return None if row is None else json.loads(row[0])

    def records(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM records ORDER BY ended, uid").fetchall()
        return [json.loads(body) for (body,) in rows]

    def raw_record(self, uid: str) -> str | None:
        """The whole record of a game as its table sent it, or None."""
        with self._lock:
            row = self._db.execute("SELECT raw FROM records WHERE uid = ?", (uid,)).fetchone()
        return row[0] if row else None

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """The newest games, as the league orders them (companion/record/league.py's
        `game_order`) but newest first: games that ended in one second by table, then by
        their number there (10 before 9; the uid's number, not its text), whenever each
        arrived, so a club rebuilt from the broker lists them as the live club did."""
        with self._lock:
            rows = self._db.execute(
                "SELECT body FROM records ORDER BY ended DESC, table_id DESC, "
                "CAST(substr(uid, 18) AS INTEGER) DESC, uid DESC LIMIT ?",
                (limit,)).fetchall()
        return [json.loads(body) for (body,) in rows]

    def set_table(self, table_id: str, *, state: dict[str, Any] | None = None,
                  status: str | None = None, at: str) -> None:
        """A table's newest state or status (None leaves that part as it was); a state that
        is older than the kept one (same boot, lower version) is ignored."""
        with self._lock:
            row = self._db.execute("SELECT state FROM tables WHERE table_id = ?",
                                   (table_id,)).fetchone()
            kept = json.loads(row[0]) if row and row[0] else None
            if state is not None and kept is not None and kept.get("boot") == state.get("boot") \
                    and (kept.get("version") or 0) > (state.get("version") or 0):
                state = None
            self._db.execute(
                "INSERT INTO tables (table_id, name, status, state, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET "
                "name = coalesce(excluded.name, name), status = coalesce(excluded.status, "
                "status), state = coalesce(excluded.state, state), updated_at = ?",
                (table_id, state.get("name") if state else None, status,
                 json.dumps(state) if state is not None else None, at, at))
            self.version += 1

    def statuses_unknown(self) -> None:
        """Every table's status not known (the club has just (re)connected: the broker sends
        each table's retained status again; one that lost its broker while it stopped has
        none, and must not stay "online")."""
        with self._lock:
            self._db.execute("UPDATE tables SET status = NULL")
            self.version += 1

    def status_unknown(self, table_id: str) -> None:
        """A known table's status not known (the broker holds none the club can read): never
        the last one kept. A table not known stays so."""
        with self._lock:
            self._db.execute("UPDATE tables SET status = NULL WHERE table_id = ?", (table_id,))
            self.version += 1

    def forget_table(self, table_id: str) -> None:
        """The table took its state off the broker (left the club)."""
        with self._lock:
            self._db.execute("DELETE FROM tables WHERE table_id = ?", (table_id,))
            self.version += 1

    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT table_id, name, status, state, updated_at "
                                    "FROM tables").fetchall()
        rows.sort(key=lambda row: (name_order(row[1] or row[0]), row[0]))
        names = [n or t for t, n, *_ in rows]
        return [{"table": t, "name": n or t, "status": s or "unknown",
                 "state": json.loads(st) if st else None, "updated_at": u,
                 "name_shared": names.count(n or t) > 1}       # two boxes called alike
                for t, n, s, st, u in rows]
