"""Footprint of `parlour run --sim`: start-up to the first /api/state answer, resident memory
(VmRSS) after start and after 1,000 events, and CPU while idle (utime + stime from
/proc/<pid>/stat over a quiet window, no phone connected)."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from common import Client, Server, summary

EVENTS = 1000
GAME = {"game": "kat-en-muis", "players": ["Ann", "Ben"]}


def run(quick: bool = False) -> dict:
    starts = 2 if quick else 4
    idle_seconds = 5.0 if quick else 10.0
    startup, rss_start = [], []
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-fp-") as tmp:
        for i in range(starts):
            server = Server(Path(tmp) / f"run{i}")
            try:
                startup.append(server.ready_seconds)
                time.sleep(0.5)
                rss_start.append(server.rss_kib())
                if i < starts - 1:
                    continue
                # The last start also measures idle CPU, then memory after many events.
                time.sleep(1.0)
                cpu0, wall0 = server.cpu_seconds(), time.perf_counter()
                time.sleep(idle_seconds)
                idle = (server.cpu_seconds() - cpu0) / (time.perf_counter() - wall0)
                client = Client(server.port)
                try:
                    snap = client.control("new-game", GAME)
                    made, games, posts = 1, 1, []
                    while made < EVENTS:
                        if snap["phase"] == "over":
                            snap = client.control("new-game", GAME)
                            games += 1
                        else:
                            start = time.perf_counter()
                            snap = client.control("roll")
                            posts.append(time.perf_counter() - start)
                        made += 1
                finally:
                    client.close()
                time.sleep(0.5)
                out.update({
                    "idle_cpu_percent_of_core": round(idle * 100, 3),
                    "idle_window_s": idle_seconds,
                    "rss_mib_after_events": round(server.rss_kib() / 1024, 1),
                    "events": made, "games": games,
                    "control_roll_ms_no_phones": summary(posts, 1000),
                })
            finally:
                server.stop()
    out["startup_s"] = summary(startup)
    out["rss_mib_after_start"] = summary([r / 1024 for r in rss_start], digits=1)
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
