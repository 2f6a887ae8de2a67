"""A game as long as one may be (MAX_GAME_EVENTS, 10,000 events of free-play points, as a
paired phone could make): the time and memory to resume it at start-up, the size of its state
JSON, and the box's memory after three concurrent `GET /api/games/<id>/chart`, the
requests that each took +413 MiB before the states shared one log.

Run alone: `python tests/bench/bench_long_game.py` (or `run.py --only long_game`).
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from pathlib import Path

from common import Client, Server
from companion.session import MAX_GAME_EVENTS, Session
from companion.record.store import Store


def long_game(data_dir: Path, events: int) -> int:
    """A free-play game of `events` events in a store at `data_dir`; its id."""
    store = Store(data_dir / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"b" * 32)
        session.new_game("free-play", ["Ann", "Ben"])
        made = 1
        while made < events:
            if session.snapshot()["awaiting"] == "roll":
                session.roll(by="bench")
            else:
                session.submit({"type": "press", "seat": made % 2}, by="web")
            made += 1
        return session.game_id
    finally:
        store.close()


def run(quick: bool = False) -> dict:
    events = 2000 if quick else MAX_GAME_EVENTS
    with tempfile.TemporaryDirectory(prefix="parlour-bench-long-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        started = time.perf_counter()
        game_id = long_game(data, events)
        written = time.perf_counter() - started
        server = Server(Path(tmp))
        try:
            time.sleep(1.0)
            resumed = server.box_memory_mib()
            client = Client(server.port)
            status, body = client.get("/api/state")
            client.close()
            state_kib = len(body) / 1024
            answers: list[int] = []

            def chart(n: int) -> None:
                c = Client(server.port, timeout=120, source=f"127.0.0.{30 + n}")
                answers.append(c.get(f"/api/games/{game_id}/chart")[0])
                c.close()

            t0 = time.perf_counter()
            threads = [threading.Thread(target=chart, args=(n,)) for n in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            charts_s = time.perf_counter() - t0
            after = server.box_memory_mib()
            return {"events": events, "write_s": round(written, 1),
                    "resume_s": round(server.ready_seconds, 2), "box_after_resume": resumed,
                    "state_json_kib": round(state_kib), "chart_answers": answers,
                    "three_charts_s": round(charts_s, 2), "box_after_three_charts": after}
        finally:
            server.stop()


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
