"""A store written before names were checked (X10) may hold a name with an unpaired
surrogate, which UTF-8 cannot encode. The real server still answers every page and the log
download, and `parlour export` writes the whole log, which reads back to the same events."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.session import Session
from companion.record.store import Store
from reliability_support import request
from simulated_table import ROOT, SimulatedTable, parlour_command, quiet_env

pytestmark = pytest.mark.slow

OLD_NAME = "A\ud800"


def old_store(data_dir: Path) -> None:
    """One finished free-play game of Ann and Ben with rolls, then Ann's stored name replaced
    by OLD_NAME, as an older Parlour could have stored it."""
    store = Store(data_dir / "parlour.db")
    seed = iter(hashlib.sha256(bytes([n])).digest() for n in range(10))
    session = Session(store, new_seed=lambda: next(seed), clock=lambda: "2025-01-01T12:00:00Z")
    session.new_game("free-play", ["Ann", "Ben"],
                     {"randomizer": {"kind": "dice", "count": 1}})
    session.roll()                                       # the lead: Ann, then Ben
    session.roll()
    for _ in range(2):
        session.roll()
        session.submit({"type": "next"})
    session.submit({"type": "declare", "winners": [0]})
    store.close()
    db = sqlite3.connect(data_dir / "parlour.db")
    with db:
        first = json.loads(db.execute("SELECT body FROM events WHERE seq = 1").fetchone()[0])
        first["players"][0] = OLD_NAME
        db.execute("UPDATE events SET body = ? WHERE seq = 1", (json.dumps(first),))
        db.execute("UPDATE games SET players = ?", (json.dumps([OLD_NAME, "Ben"]),))
    db.close()


def test_old_store_x10_surrogate_name_pages_log_and_export(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    old_store(data)
    with SimulatedTable(data, tmp_path / "home") as table:
        for path in ("/history", "/history/1", "/fairness", "/api/games", "/api/games/1/log"):
            status, body = request(table.port, "GET", path)
            assert status == 200, (path, status)
        first = json.loads(body.decode("utf-8").splitlines()[0])
        assert first["players"][0] == OLD_NAME and first["seed"]
        status, games = request(table.port, "GET", "/api/games")
        assert games["games"][0]["players"][0] == OLD_NAME
    out = tmp_path / "out"
    done = subprocess.run(parlour_command("export", "--data-dir", str(data), "--out", str(out)),
                          cwd=ROOT, env=quiet_env(tmp_path / "home"), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (written,) = out.iterdir()
    lines = written.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    assert events[0]["players"][0] == OLD_NAME and events[-1]["type"] == "declare"
    db = sqlite3.connect(data / "parlour.db")
    assert len(events) == db.execute("SELECT count(*) FROM events").fetchone()[0] == 8
    db.close()
