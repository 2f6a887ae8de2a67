"""Footprint of `parlour run --sim`: start-up to the first /api/state answer, resident memory
(VmRSS) after start and after 1,000 events, CPU while idle (utime + stime from
/proc/<pid>/stat over a quiet window, no phone connected), and the whole box's memory (every
process: the program, the chances worker, the resource tracker; RSS and PSS) idle and after a
six-player game watched live by six phones."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from bench_web import Streams
from common import Client, Server, summary

EVENTS = 1000
GAME = {"game": "kat-en-muis", "players": ["Ann", "Ben"]}
SIX = {"game": "cats-and-dogs", "players": ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]}
ZERO_2W_MIB = 512
ZERO_2W_OS_MIB = (110, 140)     # Raspberry Pi OS Lite at idle plus the GPU's share, on paper


def six_phone_game(server: Server) -> dict:
    """A six-player game to its end through the API, six phones' live streams open (each from
    its own address) and every state delivered to all six; the box's memory then."""
    streams = Streams(server.port, 6)
    client = Client(server.port)
    try:
        snap = client.control("new-game", SIX)
        events = 1
        while snap["phase"] != "over" and events < 2000:
            snap = client.control("roll")
            events += 1
            if streams.wait(snap["version"], timeout=20) is None:
                raise RuntimeError(f"a phone missed a state: {streams.errors[:3]}")
        time.sleep(2.0)                     # the chances worker's last answers
        return {"events": events, **server.box_memory_mib()}
    finally:
        client.close()
        streams.close()


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
                if i == 0:
                    time.sleep(3.0)                 # the chances worker is up
                    out["box_idle"] = server.box_memory_mib()
                    out["box_after_six_phone_game"] = six_phone_game(server)
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
    peak = out["box_after_six_phone_game"]["pss_mib"]
    out["zero_2w_free_mib_after_game"] = [round(ZERO_2W_MIB - os - peak) for os in
                                          reversed(ZERO_2W_OS_MIB)]
    out["startup_s"] = summary(startup)
    out["rss_mib_after_start"] = summary([r / 1024 for r in rss_start], digits=1)
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
