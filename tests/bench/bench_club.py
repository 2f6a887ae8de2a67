"""The club on a real Mosquitto broker (loopback): how many records a second `parlour club`
takes in (checked, kept once, the league's view rebuilt on the next request), and the time from
a game's end on a table to the league page counting it, with 10 tables ending games at once.

Run alone: `python tests/bench/bench_club.py [--quick]` (or `run.py --only club`).
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
from pathlib import Path

import common
from club_support import Club, Listener, Table, wait_for
from mqtt_broker import MOSQUITTO, Broker

from firmware.club import topics
from firmware.config import ClubConfig

TABLES = 10


def raw_record(table_id: str, number: int) -> bytes:
    return json.dumps({"v": 1, "table": table_id, "name": "Bench", "uid": f"{table_id}-{number}",
                       "record": {"id": number, "game": "fox-and-geese",
                                  "title": "Fox and Geese", "status": "over",
                                  "ended": f"2026-11-25T09:{number % 60:02d}Z",
                                  "scored_by": "score",
                                  "players": [{"name": f"P{number % 7}", "winner": True,
                                               "score": 1},
                                              {"name": f"Q{number % 5}", "winner": False,
                                               "score": 0}]}}).encode()


def intake(folder: Path, broker: Broker, records: int) -> dict:
    """`records` records published as fast as the broker takes them; the club's rate."""
    club = Club(folder / "club", ClubConfig(host="127.0.0.1", port=broker.port))
    sender = Listener(broker.port, topic="nothing/at/all")
    wait_for(sender.client.is_connected)
    table_id = "c" * 16
    payloads = [(topics.record_topic(table_id, f"{table_id}-{n}"), raw_record(table_id, n))
                for n in range(1, records + 1)]
    started = time.perf_counter()
    for topic, body in payloads:
        sender.client.publish(topic, body, qos=1)
    wait_for(lambda: club.listener.accepted == records, timeout=300, step=0.01)
    took = time.perf_counter() - started
    view_started = time.perf_counter()
    games = club.view()["league"]["games"]                  # the league over all of them
    view_s = time.perf_counter() - view_started
    sender.close()
    club.close()
    return {"records": records, "seconds": round(took, 2),
            "records_per_s": round(records / took), "league_view_after_s": round(view_s, 3),
            "counted": games}


def latency(folder: Path, broker: Broker, games_a_table: int) -> dict:
    """10 tables, each ending `games_a_table` games at the same moments; per game, the time
    from its end (the store's commit) to the first /api/club answer that counts it (in its
    recent games: the newest 20, so a round ends in a second of its own, as a table's next
    game does; games of one second are listed by table, and a round's game of the first table
    sorted below the round before's of the others)."""
    club = Club(folder / "club", ClubConfig(host="127.0.0.1", port=broker.port))
    tables = [Table(folder / f"t{n}", ClubConfig(host="127.0.0.1", port=broker.port,
                                                table=f"Table {n}"), f"{n:016x}")
              for n in range(1, TABLES + 1)]
    for table in tables:
        wait_for(table.publisher.connected.is_set)
    ended: dict[str, float] = {}
    seen: dict[str, float] = {}
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            view = club.view()
            now = time.perf_counter()
            for game in view["recent"]:
                seen.setdefault(game["uid"], now)
            time.sleep(0.005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    for _ in range(games_a_table):
        barrier = threading.Barrier(TABLES)

        def end_one(table: Table) -> None:
            table.session.new_game("fox-and-geese", ["Ann", "Ben"])
            barrier.wait()
            table.session.submit({"type": "declare", "winners": [0]})
            ended[topics.game_uid(table.table_id, table.session.game_id,
                                  table.session.snapshot()["commitment"])] = time.perf_counter()

        threads = [threading.Thread(target=end_one, args=(t,)) for t in tables]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wait_for(lambda: all(uid in seen for uid in ended), timeout=60, step=0.01)
        time.sleep(1.0 - time.time() % 1.0 + 0.05)              # the next whole second
    stop.set()
    watcher.join()
    for table in tables:
        table.close()
    club.close()
    return {"tables": TABLES, "games": len(ended),
            "end_to_league_ms": common.summary([seen[u] - ended[u] for u in ended], 1000, 1)}


def run(quick: bool = False) -> dict:
    if MOSQUITTO is None:
        return {"skipped": "Mosquitto is not installed"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker").start()
        try:
            return {"intake": intake(folder / "intake", broker, 500 if quick else 5_000),
                    "latency": latency(folder / "latency", broker, 3 if quick else 10)}
        finally:
            broker.stop()


if __name__ == "__main__":
    print(json.dumps(run("--quick" in sys.argv), indent=1))
    sys.exit(0)
