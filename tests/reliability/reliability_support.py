"""Helpers for the reliability tests (a module of its own, not conftest, so test modules import
it by a name no other test folder uses): `parlour run --sim` as a subprocess, plain HTTP on
loopback, the stored log read without touching the store, and states compared with replays."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.events import parse_event
from companion.replay import Table

ROOT = Path(__file__).resolve().parents[2]
PARLOUR = Path(sys.executable).with_name("parlour")
PIN = "2468"
UNSTABLE = ("version", "game_id", "seed")     # per process, or revealed only once over


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def quiet_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment without the user's config or state; unbuffered output."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PARLOUR", "NOTIFY_SOCKET", "WATCHDOG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), PYTHONUNBUFFERED="1", **extra)
    return env


def parlour_command(*args: str) -> list[str]:
    """The `parlour` console script, or the same entry point without it."""
    if PARLOUR.exists():
        return [str(PARLOUR), *args]
    return [sys.executable, "-c",
            "import sys; from firmware.cli import main; sys.exit(main(sys.argv[1:]))", *args]


class Server:
    """`parlour run --sim` on 127.0.0.1 with a data dir; `kill9()` or `stop()` ends it."""

    def __init__(self, data_dir: Path, home: Path, *, env: dict[str, str] | None = None,
                 timeout: float = 20.0):
        self.port = free_port()
        self.proc = subprocess.Popen(
            parlour_command("run", "--sim", "--host", "127.0.0.1", "--port", str(self.port),
                            "--data-dir", str(data_dir), "--pin", PIN),
            cwd=ROOT, env=env or quiet_env(home), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + timeout
        while True:
            try:
                status, self.first_state = request(self.port, "GET", "/api/state")
                if status == 200:
                    break
            except OSError:
                pass
            if self.proc.poll() is not None:
                _, err = self.proc.communicate()
                raise AssertionError(f"parlour run exited {self.proc.returncode}: {err}")
            if time.monotonic() > deadline:
                self.kill9()
                raise AssertionError("parlour run never answered")
            time.sleep(0.05)

    def kill9(self) -> tuple[str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        return self.proc.communicate(timeout=10)

    def stop(self) -> tuple[str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            return self.kill9()


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


def read_store(db: Path) -> list[StoredGame]:
    """Every stored game with its events, through a read-only connection (which neither
    recovers nor checkpoints: the program under test must do that itself)."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT id, game, seed, status FROM games ORDER BY id").fetchall()
        out = []
        for gid, game, seed, status in games:
            rows = conn.execute("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq",
                                (gid,)).fetchall()
            assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)), "a gap in the log"
            out.append(StoredGame(gid, game, seed, status, [json.loads(b) for _, b in rows]))
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
