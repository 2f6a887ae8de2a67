"""The store: games and their events in SQLite. Every event is committed before it is applied
or shown (WAL, synchronous=FULL), so a power cut loses nothing that was acknowledged."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import StoreError, StoreUnreadable

SCHEMA_VERSION = 1
UNREADABLE = (11, 26)     # SQLITE_CORRUPT, SQLITE_NOTADB: the file itself is bad
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    players     TEXT NOT NULL,            -- JSON list of names
    seed        TEXT,                     -- hex; secret until the game is over
    commitment  TEXT,
    created_at  TEXT,
    ended_at    TEXT,
    winners     TEXT,                     -- JSON list of seats, set when over
    status      TEXT NOT NULL DEFAULT 'playing'   -- playing | over | abandoned
);
CREATE TABLE IF NOT EXISTS events (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,         -- 1.. in log order; undos are events too
    body        TEXT NOT NULL,            -- the event as one JSON object
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS roster (
    name        TEXT PRIMARY KEY COLLATE NOCASE,   -- a player's name as typed at the table
    added_at    TEXT
);
"""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: list[str]
    seed: str | None
    commitment: str | None
    created_at: str | None
    ended_at: str | None
    winners: list[int] | None
    status: str = "playing"
    events: int = 0

    @property
    def over(self) -> bool:
        return self.status == "over"


class Store:
    """One SQLite file of games. Thread-safe; one writer at a time."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:        # checked before anything writes to the file
                self._db.close()
                raise StoreUnreadable(f"{self.path} was written by a newer Parlour "
                                      f"(store version {version}, this one reads "
                                      f"{SCHEMA_VERSION})", newer=True)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("SELECT count(*) FROM games").fetchone()
        except (sqlite3.DatabaseError, OSError) as err:
            if getattr(self, "_db", None) is not None:
                self._db.close()                    # do not keep a file we refuse open
            unreadable = (getattr(err, "sqlite_errorcode", 0) & 0xFF) in UNREADABLE
            raise (StoreUnreadable if unreadable else StoreError)(
                f"cannot open the store {self.path}: {err}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, args)
            except sqlite3.DatabaseError as err:
                raise StoreError(f"cannot write the store {self.path}: {err}") from None

    def create_game(self, first_event: dict[str, Any], *, seed: str | None,
                    commitment: str | None, created_at: str | None) -> int:
        """A new game with its new_game event, in one transaction."""
        with self._lock:
            try:
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    cur = self._db.execute(
                        "INSERT INTO games (game, players, seed, commitment, created_at) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (first_event["game"], json.dumps(first_event["players"]), seed,
                         commitment, created_at))
                    game_id = cur.lastrowid
                    self._db.execute("INSERT INTO events (game_id, seq, body) VALUES (?, 1, ?)",
                                     (game_id, json.dumps(first_event)))
                    return game_id
            except sqlite3.DatabaseError as err:
                raise StoreError(f"cannot write the store {self.path}: {err}") from None

    def append(self, game_id: int, seq: int, event: dict[str, Any]) -> None:
        self._write("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                    (game_id, seq, json.dumps(event)))

    def finish(self, game_id: int, winners: list[int], ended_at: str | None) -> None:
        self._write("UPDATE games SET winners = ?, ended_at = ?, status = 'over' WHERE id = ?",
                    (json.dumps(winners), ended_at, game_id))

    def abandon(self, game_id: int, ended_at: str | None) -> None:
        """A game left unfinished when another was started."""
        self._write("UPDATE games SET ended_at = ?, status = 'abandoned' WHERE id = ?",
                    (ended_at, game_id))

    def set_players(self, game_id: int, names: list[str]) -> None:
        """The game's players as now named (renames included): what history and totals show."""
        self._write("UPDATE games SET players = ? WHERE id = ?", (json.dumps(names), game_id))

    def remember_names(self, names: list[str], added_at: str | None = None) -> None:
        """Add names to the roster (a name already there, in any case, is kept as first spelt)."""
        with self._lock:
            try:
                with self._db:
                    self._db.executemany(
                        "INSERT OR IGNORE INTO roster (name, added_at) VALUES (?, ?)",
                        [(n, added_at) for n in names if n.strip()])
            except sqlite3.DatabaseError as err:
                raise StoreError(f"cannot write the store {self.path}: {err}") from None

    def roster(self) -> list[str]:
        """The remembered names, alphabetical."""
        with self._lock:
            rows = self._db.execute("SELECT name FROM roster ORDER BY name COLLATE NOCASE")
            return [name for (name,) in rows.fetchall()]

    def _record(self, row: tuple) -> GameRecord:
        gid, game, players, seed, commitment, created, ended, winners, status, count = row
        return GameRecord(gid, game, json.loads(players), seed, commitment, created, ended,
                          None if winners is None else json.loads(winners), status, count)

    _SELECT = ("SELECT g.id, g.game, g.players, g.seed, g.commitment, g.created_at, g.ended_at, "
               "g.winners, g.status, (SELECT count(*) FROM events e WHERE e.game_id = g.id) FROM games g ")

    def game(self, game_id: int) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(self._SELECT + "WHERE g.id = ?", (game_id,)).fetchone()
        return None if row is None else self._record(row)

    def games(self) -> list[GameRecord]:
        """Every game, newest first."""
        with self._lock:
            rows = self._db.execute(self._SELECT + "ORDER BY g.id DESC").fetchall()
        return [self._record(r) for r in rows]

    def latest_unfinished(self) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(self._SELECT + "WHERE g.status = 'playing' ORDER BY g.id DESC "
                                   "LIMIT 1").fetchone()
        return None if row is None else self._record(row)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [json.loads(body) for (body,) in rows]
