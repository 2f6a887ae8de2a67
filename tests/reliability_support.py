"""Helpers for the reliability tests (a module of its own, not conftest, so test modules import
it by a name no other test folder uses): plain HTTP on loopback, the stored log read without
touching the store, and states compared with replays."""

from __future__ import annotations

import http.client
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.events import parse_event
from companion.replay import Table
from simulated_table import PIN

UNSTABLE = ("version", "game_id", "seed", "boot",   # per process, or revealed once over
            "spin",                          # how the box shows a throw: not in the log
            "state_version", "odds", "chart",  # the session's chances, worked out beside
            "taken_back", "undone", "undone_by", "put_back",   # the undo itself: the Pi
            "undos")                                         # waits to be asked


def request(port: int, method: str, path: str, body: Any = None, *,
            headers: dict[str, str] | None = None, timeout: float = 5.0) -> tuple[int, Any]:
    """One HTTP request on a fresh connection: (status, parsed JSON or raw bytes)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = None if body is None else json.dumps(body).encode()
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        conn.request(method, path, body=data, headers=hdrs)
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw
    finally:
        conn.close()


def control(port: int, action: str, body: dict | None = None) -> tuple[int, Any]:
    return request(port, "POST", f"/api/control/{action}", body or {},
                   headers={"X-Parlour-Pin": PIN})


def device(port: int, payload: dict) -> tuple[int, Any]:
    return request(port, "POST", "/device/input", payload)


@dataclass
class StoredGame:
    id: int
    game: str
    seed: str | None
    status: str
    events: list[dict[str, Any]]
    winners: list[int] | None = None


def read_store(db: Path) -> list[StoredGame]:
    """Every stored game with its events, through a read-only connection (which neither
    recovers nor checkpoints: the program under test must do that itself)."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT id, game, seed, status, winners FROM games "
                             "ORDER BY id").fetchall()
        out = []
        for gid, game, seed, status, winners in games:
            rows = conn.execute("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq",
                                (gid,)).fetchall()
            assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)), "a gap in the log"
            out.append(StoredGame(gid, game, seed, status, [json.loads(b) for _, b in rows],
                                  None if winners is None else json.loads(winners)))
        return out
    finally:
        conn.close()


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in UNSTABLE}


def prefix_states(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The state JSON after each event of a stored log (index 0: after new_game)."""
    table = Table()
    states = []
    for body in events:
        table.apply(parse_event(body))
        states.append(comparable(table.to_json()))
    return states
