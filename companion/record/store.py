"""The store: games and their events in SQLite. Every event is committed before it is applied
or shown (WAL, synchronous=FULL), so a power cut loses nothing that was acknowledged."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import StoreError, StoreFull, StoreUnreadable

SCHEMA_VERSION = 1
UNREADABLE = (11, 26)     # SQLITE_CORRUPT, SQLITE_NOTADB: the file itself is bad
SQLITE_IOERR, SQLITE_FULL = 10, 13
ROOM_NEEDED = 64 * 1024   # bytes: with less free, an I/O error is the disk being full
FULL_WORDS = {"write": "The SD card is full: that was not done, and the game stands as it was. "
                       "Free some space to play on. The games so far are safe",   # not "not
                                                                      # saved": a throw again?
              "open": "The SD card is full: the game store cannot be opened until some "
                      "space is freed"}
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
-- Figures of a game that has left play, kept so that pages never replay every game: what
-- its log tells (rolls per face, final names and scores, the roll check), written once.
CREATE TABLE IF NOT EXISTS game_figures (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    rolls       INTEGER NOT NULL,         -- rolls in effect at the end
    names       TEXT NOT NULL,            -- JSON list: the players' names at the end
    scores      TEXT NOT NULL,            -- JSON list: each seat's final score
    checked     TEXT,                     -- JSON: the roll check (ok, status, message, problems)
    result      TEXT                      -- JSON: history's rows (name, figure, place, won)
);
CREATE TABLE IF NOT EXISTS game_faces (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    randomizer  TEXT NOT NULL,            -- what was thrown, e.g. dice-d6
    face        INTEGER NOT NULL,
    count       INTEGER NOT NULL,         -- every face of it, 0 too
    PRIMARY KEY (game_id, randomizer, face)
);
-- A finished game's chances to win, step by step (derived, for its chart): written once.
CREATE TABLE IF NOT EXISTS chances (
    game_id     INTEGER PRIMARY KEY,
    body        TEXT NOT NULL             -- JSON: per step, each seat's chance, or null
);
-- Finished games the club's broker has acknowledged (QoS 1): every other finished game is
-- still to be sent, across restarts and power cuts. An older program ignores this table.
CREATE TABLE IF NOT EXISTS club_sent (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    sent_at     TEXT
);
-- Finished games the club itself said it has (its answer on the broker), or refused: only
-- these are delivered; a game the broker took and the club has not answered is sent again
-- when a club that answers is about (the broker may have lost it).
CREATE TABLE IF NOT EXISTS club_received (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id),
    received_at TEXT,
    refused     TEXT                      -- the club's reason, or NULL: it kept the game
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


def _seats(text: str | None) -> list[int]:
    """A new_game event's `pi` (seats the Pi plays) as kept: a JSON list, or none."""
    try:
        seats = json.loads(text) if text else []
    except ValueError:
        return []
    return [s for s in seats if isinstance(s, int)] if isinstance(seats, list) else []


class Store:
    """One SQLite file of games. Thread-safe; one writer at a time."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self.short_of_space = False     # opened on a full disk: reads work, writes wait
        try:
            self._open(exclusive=False)
        except StoreFull:
            # After a clean stop SQLite must make its -shm index file, which a full disk
            # refuses ("disk I/O error"). With exclusive locking the index lives in memory:
            # the table starts, shows its games, and each write says the card is full.
            self._open(exclusive=True)
            self.short_of_space = True

    @classmethod
    def read_only(cls, path: str | Path) -> "Store":
        """The store opened for reading alone (`parlour export`): nothing is written, not its
        mode, journal or version (a copy kept before an upgrade stays as the older Parlour
        left it: opened to be written, it was upgraded in place), and a store in a folder
        this user may not write is read too. StoreError as for opening."""
        store = cls.__new__(cls)
        store.path, store._lock, store.short_of_space = Path(path), threading.Lock(), False
        uri = store.path.resolve().as_uri() + "?mode=ro"
        store._db = None
        try:
            try:
                store._db = store._reading(uri)
            except sqlite3.OperationalError:
                # a WAL store with no -shm beside it, in a folder where none can be made: with
                # no -wal either, nothing else can be writing it, and it reads as it is (not a
                # store left mid-write with its rollback journal: that is read rolled back)
                if Path(f"{store.path}-journal").exists():
                    raise StoreUnreadable(
                        f"{store.path} was left in the middle of a write ({store.path.name}"
                        "-journal beside it): start the table on it once, which rolls it back, "
                        "or read a copy of both files") from None
                if not store._wal_at_rest():
                    raise
                store._db = store._reading(uri + "&immutable=1")
        except (sqlite3.DatabaseError, OSError) as err:
            raise store._error("open", err) from None
        return store

    def _wal_at_rest(self) -> bool:
        """A WAL store (its header's read and write versions 2) with no -wal beside it: every
        committed change is in the file itself."""
        try:
            with open(self.path, "rb") as file:
                header = file.read(20)
        except OSError:
            return False
        return header[18:20] == b"\x02\x02" and not Path(f"{self.path}-wal").exists()

    def _refuse_newer(self, version: int) -> None:
        """StoreUnreadable for a store a newer Parlour wrote (this one must not touch it)."""
        if version > SCHEMA_VERSION:
            raise StoreUnreadable(f"{self.path} was written by a newer Parlour (store version "
                                  f"{version}, this one reads {SCHEMA_VERSION})", newer=True)

    def _reading(self, uri: str) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        try:
            self._refuse_newer(db.execute("PRAGMA user_version").fetchone()[0])
            db.execute("SELECT count(*) FROM games").fetchone()
        except BaseException:
            db.close()
            raise
        return db

    def _open(self, *, exclusive: bool) -> None:
        self._db = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._private()
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            if exclusive:
                self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:        # checked before anything writes to the file
                self._db.close()
                self._refuse_newer(version)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)     # writes nothing when the tables exist
            if version != SCHEMA_VERSION:       # so a full disk does not stop start-up
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("SELECT count(*) FROM games").fetchone()
        except (sqlite3.DatabaseError, OSError) as err:
            if self._db is not None:
                self._db.close()                    # do not keep a file we refuse open
            raise self._error("open", err) from None

    def _private(self) -> None:
        """The store holds the seed of the game in play: readable by the table's user only
        (0600; SQLite gives its -wal and -shm files the same mode)."""
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        elif self.path.stat().st_mode & 0o077:
            os.chmod(self.path, 0o600)

    def _error(self, doing: str, err: Exception) -> StoreError:
        """The StoreError for a failed open or write: StoreFull when the disk has no room
        (SQLITE_FULL, or an I/O error with almost no space left: SQLite reports a WAL index
        it cannot grow that way), StoreUnreadable for a bad file."""
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF
        if code == SQLITE_FULL or getattr(err, "errno", None) == 28 or (
                code == SQLITE_IOERR and self._free_bytes() < ROOM_NEEDED):
            return StoreFull(FULL_WORDS[doing])
        if code in UNREADABLE:
            return StoreUnreadable(f"cannot open the store {self.path}: {err}")
        return StoreError(f"cannot {doing} the store {self.path}: {err}")

    def _free_bytes(self) -> int:
        try:
            stat = os.statvfs(self.path.parent)
        except OSError:
            return ROOM_NEEDED
        return stat.f_bavail * stat.f_frsize

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        with self._lock:
            try:
                with self._db:
                    self._db.execute("BEGIN IMMEDIATE")
                    yield self._db
            except sqlite3.DatabaseError as err:
                raise self._error("write", err) from None

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        with self._transaction() as db:
            return db.execute(sql, args)

    def create_game(self, first_event: dict[str, Any], *, seed: str | None,
                    commitment: str | None, created_at: str | None,
                    set_aside: int | None = None) -> int:
        """A new game with its new_game event, in one transaction; `set_aside`: the unfinished
        game it replaces, marked abandoned in the same transaction (a failed write leaves the
        old game in play, as if nothing had been asked)."""
        with self._transaction() as db:
            if set_aside is not None:
                db.execute(self._ABANDON, (created_at, set_aside))
            cur = db.execute(
                "INSERT INTO games (game, players, seed, commitment, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (first_event["game"], json.dumps(first_event["players"]), seed,
                 commitment, created_at))
            game_id = cur.lastrowid
            db.execute("INSERT INTO events (game_id, seq, body) VALUES (?, 1, ?)",
                       (game_id, json.dumps(first_event)))
            return game_id

    def append(self, game_id: int, seq: int, event: dict[str, Any], *,
               winners: list[int] | None = None, players: list[str] | None = None) -> None:
        """One event. With `winners` it is the game's last: the event, the game marked over
        (which reveals its seed) and the winners are one transaction, so a power cut leaves
        either none of them or all of them. With `players`, the players as now named (a
        rename, or its undo) go into the same transaction: what history and totals show."""
        with self._transaction() as db:
            db.execute("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                       (game_id, seq, json.dumps(event)))
            if players is not None:
                db.execute("UPDATE games SET players = ? WHERE id = ?",
                           (json.dumps(players), game_id))
            if winners is not None:
                self._mark_over(db, game_id, winners, event.get("at"))

    def finish(self, game_id: int, winners: list[int], ended_at: str | None) -> None:
        """Mark a game over whose last event is already stored (start-up repair)."""
        with self._transaction() as db:
            self._mark_over(db, game_id, winners, ended_at)

    @staticmethod
    def _mark_over(db: sqlite3.Connection, game_id: int, winners: list[int],
                   ended_at: str | None) -> None:
        db.execute("UPDATE games SET winners = ?, ended_at = ?, status = 'over' WHERE id = ?",
                   (json.dumps(winners), ended_at, game_id))

    _ABANDON = "UPDATE games SET ended_at = ?, status = 'abandoned' WHERE id = ?"

    def abandon(self, game_id: int, ended_at: str | None) -> None:
        """A game set aside unfinished."""
        self._write(self._ABANDON, (ended_at, game_id))

    def remember_names(self, names: list[str], added_at: str | None = None) -> None:
        """Add names to the roster (a name already there, in any case, is kept as first spelt)."""
        with self._transaction() as db:
            db.executemany("INSERT OR IGNORE INTO roster (name, added_at) VALUES (?, ?)",
                           [(n, added_at) for n in names if n.strip()])

    def unsent_to_club(self, limit: int = 20) -> list[GameRecord]:
        """Finished games the club's broker has not acknowledged, oldest first."""
        with self._lock:
            rows = self._db.execute(self._SELECT + "WHERE g.status = 'over' AND g.id NOT IN "
                                    "(SELECT game_id FROM club_sent) ORDER BY g.id LIMIT ?",
                                    (limit,)).fetchall()
        return [self._record(r) for r in rows]

    def sent_to_club(self, game_id: int, sent_at: str | None) -> None:
        """The broker acknowledged this game's record: it is not sent again."""
        self._write("INSERT OR IGNORE INTO club_sent (game_id, sent_at) VALUES (?, ?)",
                    (game_id, sent_at))

    def unanswered_by_club(self, after: int = 0, limit: int = 20) -> list[GameRecord]:
        """Finished games the broker acknowledged and the club has not answered, by number
        after `after`."""
        with self._lock:
            rows = self._db.execute(self._SELECT + "WHERE g.status = 'over' AND g.id > ? AND "
                                    "g.id IN (SELECT game_id FROM club_sent) AND g.id NOT IN "
                                    "(SELECT game_id FROM club_received) ORDER BY g.id LIMIT ?",
                                    (after, limit)).fetchall()
        return [self._record(r) for r in rows]

    def received_by_club(self, game_id: int, at: str, refused: str | None = None) -> bool:
        """The club answered for this game (kept it, or refused it with a reason): it is
        not sent again. False: it had answered before (the first answer stands)."""
        return self._write("INSERT OR IGNORE INTO club_received (game_id, received_at, "
                           "refused) VALUES (?, ?, ?)", (game_id, at, refused)).rowcount == 1

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

    def unfinished_ids(self) -> list[int]:
        """Ids of every game marked playing, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM games WHERE status = 'playing' "
                                    "ORDER BY id").fetchall()
        return [gid for (gid,) in rows]

    def latest_unfinished(self) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(self._SELECT + "WHERE g.status = 'playing' ORDER BY g.id DESC "
                                   "LIMIT 1").fetchone()
        return None if row is None else self._record(row)

    def newest_stamp(self) -> str | None:
        """The latest time (`at`) a game began or ended at, as stored; None without one."""
        with self._lock:
            row = self._db.execute("SELECT MAX(created_at), MAX(ended_at) FROM games").fetchone()
        return max((stamp for stamp in row if stamp), default=None)

    def events(self, game_id: int) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT body FROM events WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [json.loads(body) for (body,) in rows]

    # -- figures and pages: what the pages show, without replaying every game --------------

    @property
    def version(self) -> int:
        """Changes whenever this store is written (a cache key for what is read from it)."""
        return self._db.total_changes

    def games_version(self) -> tuple:
        """Changes when a game is started, finished or set aside (not on every event)."""
        with self._lock:
            return tuple(self._db.execute(
                "SELECT count(*), max(id), sum(status = 'over'), sum(status = 'abandoned') "
                "FROM games").fetchone())

    def games_page(self, *, before: int | None = None, offset: int = 0,
                   limit: int = 50) -> list[GameRecord]:
        """Up to `limit` games, newest first: those older than `before`, after `offset`."""
        where = "" if before is None else "WHERE g.id < ? "
        args = (() if before is None else (before,)) + (limit, offset)
        with self._lock:
            rows = self._db.execute(self._SELECT + where + "ORDER BY g.id DESC LIMIT ? OFFSET ?",
                                    args).fetchall()
        return [self._record(r) for r in rows]

    def player_rows(self) -> list[tuple[list[str], list[int] | None, str, list[int]]]:
        """(players, winners, status, the Pi's seats) of every game, oldest first, for the
        players' totals (a person who typed "Pi" is not the Pi)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.players, g.winners, g.status, (SELECT json_extract(e.body, '$.pi') "
                "FROM events e WHERE e.game_id = g.id AND e.seq = 1) FROM games g "
                "ORDER BY g.id").fetchall()
        return [(json.loads(p), None if w is None else json.loads(w), s, _seats(pi))
                for p, w, s, pi in rows]

    def put_figures(self, games: list[tuple[int, dict[str, Any]]]) -> None:
        """Finished games' figures, (game id, figures) each, in one transaction (a game's
        figures written again replace its old ones)."""
        with self._transaction() as db:
            for game_id, figures in games:
                db.execute("DELETE FROM game_faces WHERE game_id = ?", (game_id,))
                db.execute(
                    "INSERT OR REPLACE INTO game_figures (game_id, rolls, names, scores, "
                    "checked, result) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, figures["rolls"], json.dumps(figures["names"]),
                     json.dumps(figures["scores"]), json.dumps(figures["checked"]),
                     json.dumps(figures.get("result") or [])))
                db.executemany(
                    "INSERT INTO game_faces (game_id, randomizer, face, count) "
                    "VALUES (?, ?, ?, ?)",
                    [(game_id, key, face, n) for key, counts in figures["faces"].items()
                     for face, n in enumerate(counts, start=1)])

    def figures(self, game_ids: list[int]) -> dict[int, dict[str, Any]]:
        """The stored figures of these games (games without any are left out)."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        with self._lock:
            rows = self._db.execute(f"SELECT game_id, rolls, names, scores, checked, result "
                                    f"FROM game_figures WHERE game_id IN ({marks})",
                                    game_ids).fetchall()
            faces = self._db.execute(f"SELECT game_id, randomizer, face, count FROM game_faces "
                                     f"WHERE game_id IN ({marks})", game_ids).fetchall()
        out = {gid: {"rolls": rolls, "names": json.loads(names), "scores": json.loads(scores),
                     "checked": json.loads(checked) if checked else None, "faces": {},
                     "result": json.loads(result) if result else []}
               for gid, rolls, names, scores, checked, result in rows}
        for gid, key, face, n in faces:
            if gid in out:
                out[gid]["faces"].setdefault(key, {})[face] = n
        return out

    def face_totals(self) -> dict[str, dict[int, int]]:
        """Every face shown by every game with figures: totals[randomizer][face]."""
        with self._lock:
            rows = self._db.execute("SELECT randomizer, face, sum(count) FROM game_faces "
                                    "GROUP BY randomizer, face").fetchall()
        totals: dict[str, dict[int, int]] = {}
        for key, face, n in rows:
            totals.setdefault(key, {})[face] = n
        return totals

    _WITHOUT_FIGURES = ("WHERE g.status != 'playing' AND NOT EXISTS "
                        "(SELECT 1 FROM game_figures f WHERE f.game_id = g.id) ")

    def without_figures(self, limit: int | None = None) -> list[GameRecord]:
        """Games no longer being played whose figures are not stored yet, oldest first."""
        sql = self._SELECT + self._WITHOUT_FIGURES + "ORDER BY g.id"
        with self._lock:
            rows = self._db.execute(sql + (" LIMIT ?" if limit else ""),
                                    (limit,) if limit else ()).fetchall()
        return [self._record(r) for r in rows]

    def count_without_figures(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM games g " +
                                    self._WITHOUT_FIGURES).fetchone()[0]

    def chances(self, game_id: int) -> list[list[float] | None] | None:
        """A finished game's kept chances, step by step; None if none are kept."""
        with self._lock:
            row = self._db.execute("SELECT body FROM chances WHERE game_id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def has_chances(self, game_id: int) -> bool:
        """Whether a finished game's chances are kept (without reading them)."""
        with self._lock:
            return self._db.execute("SELECT 1 FROM chances WHERE game_id = ?",
                                    (game_id,)).fetchone() is not None

    def keep_chances(self, game_id: int, win: list[list[float] | None]) -> None:
        """Keep a finished game's chances (the first kept stay: a finished game never changes)."""
        self._write("INSERT OR IGNORE INTO chances (game_id, body) VALUES (?, ?)",
                    (game_id, json.dumps(win, separators=(",", ":"))))

    def first_event(self, game_id: int) -> dict[str, Any] | None:
        """A game's new_game event (what it was started with: players, buttons, options)."""
        with self._lock:
            row = self._db.execute("SELECT body FROM events WHERE game_id = ? AND seq = 1",
                                   (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])
