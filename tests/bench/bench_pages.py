"""/fairness, /history and /api/games on a store of 10,000 finished games (2,000 with
--quick), served by `parlour run --sim`.

The store is written as an older Parlour left it: games and events, no per-game figures. The
first start fills them in the background (timed: the one-off migration); then a fresh start
times each page's first answer (cold) and later ones (warm), 48 concurrent cold /fairness
requests with /api/state asked meanwhile, and the process's resident memory.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from common import Server, summary
from companion.errors import Refused
from companion.session import Session
from companion.record.store import Store

GAMES = 10_000
PAGES = ("/fairness", "/history", "/api/games")
WARM_RUNS = 7
CONCURRENT = 48           # as many as the default worker threads


def template_games(tmp: Path) -> list[tuple[dict, list[str]]]:
    """Finished games played by the real session: (games row, event bodies)."""
    store = Store(tmp / "templates.db")
    seeds = iter(bytes([n]) * 32 for n in range(1, 100))
    session = Session(store, new_seed=lambda: next(seeds), clock=lambda: "2025-01-01T12:00:00Z")
    for game, players in (("kat-en-muis", ["Ann", "Ben"]),
                          ("lifes-mishaps", ["Ann", "Ben", "Cy"]),
                          ("cats-and-dogs", ["Di", "Ed", "Flo", "Gus"])):
        session.new_game(game, players)
        for _ in range(2000):
            if session.snapshot()["phase"] == "over":
                break
            try:
                session.roll()
            except Refused:
                session.submit({"type": "next"})
    out = []
    db = sqlite3.connect(tmp / "templates.db")
    for row in db.execute("SELECT id, game, players, seed, commitment, created_at, ended_at, "
                          "winners, status FROM games WHERE status = 'over'"):
        bodies = [b for (b,) in db.execute("SELECT body FROM events WHERE game_id = ? "
                                           "ORDER BY seq", (row[0],))]
        out.append((dict(zip(("id", "game", "players", "seed", "commitment", "created_at",
                              "ended_at", "winners", "status"), row)), bodies))
    db.close()
    store.close()
    return out


def old_store(path: Path, games: int, templates: list[tuple[dict, list[str]]]) -> int:
    """`games` finished games copied from the templates in one transaction; events in all."""
    Store(path).close()                               # the schema, as this Parlour makes it
    db = sqlite3.connect(path)
    events = 0
    with db:
        for n in range(1, games + 1):
            game, bodies = templates[n % len(templates)]
            db.execute("INSERT INTO games (id, game, players, seed, commitment, created_at, "
                       "ended_at, winners, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (n, game["game"], game["players"], game["seed"], game["commitment"],
                        game["created_at"], game["ended_at"], game["winners"], "over"))
            db.executemany("INSERT INTO events (game_id, seq, body) VALUES (?, ?, ?)",
                           [(n, seq, body) for seq, body in enumerate(bodies, start=1)])
            events += len(bodies)
    db.close()
    return events


def kept(path: Path) -> int:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM game_figures").fetchone()[0]
    finally:
        db.close()


def timed_get(port: int, path: str, source: str = "127.0.0.1") -> float:
    """One GET on a new connection from `source` (each phone has its own address)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600,
                                      source_address=(source, 0))
    try:
        t0 = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        status, elapsed = response.status, time.perf_counter() - t0
    finally:
        conn.close()
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    return elapsed * 1000


def run(quick: bool = False) -> dict:
    games = 2_000 if quick else GAMES
    out: dict = {"games": games}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-pages-") as name:
        tmp = Path(name)
        (tmp / "data").mkdir()
        db = tmp / "data" / "parlour.db"
        out["events"] = old_store(db, games, template_games(tmp))
        server = Server(tmp)                          # first start: the migration
        try:
            out["startup_with_old_store_s"] = round(server.ready_seconds, 2)
            t0 = time.perf_counter()
            while kept(db) < games and time.perf_counter() - t0 < 1800:
                time.sleep(0.1)
            out["migration_s"] = round(time.perf_counter() - t0, 1)
            out["migration_games_per_s"] = round(games / out["migration_s"])
        finally:
            server.stop()
        server = Server(tmp)                          # a fresh process: cold pages
        try:
            out["rss_mib_after_start"] = round(server.rss_kib() / 1024, 1)
            for path in PAGES:
                cold = timed_get(server.port, path)
                warm = [timed_get(server.port, path) for _ in range(WARM_RUNS)]
                out[path] = {"cold_ms": round(cold, 1), "warm_ms": summary(warm, digits=2)}
            out["rss_mib_after_pages"] = round(server.rss_kib() / 1024, 1)
        finally:
            server.stop()
        server = Server(tmp)                          # concurrent cold /fairness
        try:
            times: list[float] = []
            threads = [threading.Thread(target=lambda i=i: times.append(
                timed_get(server.port, "/fairness", f"127.0.0.{10 + i}")))
                for i in range(CONCURRENT)]
            t0 = time.perf_counter()
            for thread in threads:
                thread.start()
            state = [timed_get(server.port, "/api/state") for _ in range(5)]
            for thread in threads:
                thread.join()
            out["concurrent_fairness"] = {"requests": CONCURRENT,
                                          "all_answered_ms": round((time.perf_counter() - t0)
                                                                   * 1000, 1),
                                          "each_ms": summary(times, digits=1),
                                          "state_meanwhile_ms": summary(state, digits=2)}
            out["rss_mib_after_concurrent"] = round(server.rss_kib() / 1024, 1)
        finally:
            server.stop()
    return out


if __name__ == "__main__":
    import sys
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
