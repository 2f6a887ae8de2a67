"""A finished game's chances step by step, kept beside its log so history can draw them.

Its own table in the store's SQLite file (its own connection: the game store's schema is
left alone). A game's chances are written once, when they are all known; finished games never
change, so they are never written again.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

SCHEMA = "CREATE TABLE IF NOT EXISTS chances (game_id INTEGER PRIMARY KEY, body TEXT NOT NULL)"


class ChanceStore:
    """game id -> each step's chances (a list of per-seat lists, None where unknown)."""

    def __init__(self, path: str | Path):
        self._db = sqlite3.connect(Path(path), check_same_thread=False, isolation_level=None,
                                   timeout=5)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute(SCHEMA)

    def load(self, game_id: int) -> list[list[float] | None] | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM chances WHERE game_id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def save(self, game_id: int, win: list[list[float] | None]) -> None:
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO chances (game_id, body) VALUES (?, ?)",
                             (game_id, json.dumps(win, separators=(",", ":"))))

    def close(self) -> None:
        with self._lock:
            self._db.close()
