"""The web under a table's worth of phones: a real `parlour run --sim` on 127.0.0.1, 30 live
streams on /api/events and 20 phones polling /api/state; events go in through the control API
(as a phone with the PIN sends them). Measured: from sending the event to every stream holding
its state (p50/p99 of the slowest stream, and of all streams), the control call itself, and
/api/state latency while this goes on."""

from __future__ import annotations

import json
import re
import socket
import tempfile
import threading
import time
from pathlib import Path

from common import PIN, Client, Server, summary

STREAMS = 30
POLLERS = 20
POLL_INTERVAL = 0.5          # s between one phone's polls (40 requests/s from 20 phones)
EVENT_GAP = 0.1              # s between events
GAME = {"game": "lifes-mishaps", "players": ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]}
VERSION = re.compile(rb'"version":(\d+)')


class Streams:
    """STREAMS EventSource-like readers; `arrivals[i][version]` = perf_counter on receipt.
    Each phone signs in first, as a table's players do (guests share only 24 of the 36)."""

    def __init__(self, port: int, count: int):
        self.port = port
        self.cond = threading.Condition()
        self.arrivals: list[dict[int, float]] = [{} for _ in range(count)]
        self.socks: list[socket.socket] = []
        self.errors: list[str] = []
        self.stopping = False
        self.threads = [threading.Thread(target=self._read, args=(i,), daemon=True)
                        for i in range(count)]
        for t in self.threads:
            t.start()

    def _read(self, index: int) -> None:
        import http.client
        try:
            login = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                               source_address=(f"127.0.0.{20 + index}", 0))
            login.request("POST", "/api/login", body=json.dumps({"pin": PIN}),
                          headers={"Content-Type": "application/json"})
            if login.getresponse().status != 200:
                raise RuntimeError("/api/login refused")
            login.close()
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,  # a phone
                                              source_address=(f"127.0.0.{20 + index}", 0))
            conn.request("GET", "/api/events")
            with self.cond:
                self.socks.append(conn.sock)
            response = conn.getresponse()
            if response.status != 200:
                raise RuntimeError(f"/api/events: {response.status}")
            while True:
                line = response.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    match = VERSION.search(line)
                    if match:
                        now = time.perf_counter()
                        with self.cond:
                            self.arrivals[index][int(match.group(1))] = now
                            self.cond.notify_all()
        except (OSError, http.client.HTTPException, RuntimeError, ValueError) as err:
            if not self.stopping:
                self.errors.append(f"stream {index}: {type(err).__name__}: {err}")

    def wait(self, version: int, timeout: float = 10.0) -> list[float] | None:
        """Every stream's arrival time of `version`; None if one lacks it by the timeout."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                times = [a.get(version) for a in self.arrivals]
                if all(t is not None for t in times):
                    return times
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def close(self) -> None:
        self.stopping = True
        with self.cond:
            socks = list(self.socks)
        for sock in socks:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for t in self.threads:
            t.join(5)


class Pollers:
    def __init__(self, port: int, count: int, interval: float):
        self.port, self.interval = port, interval
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._poll, args=(f"127.0.0.{100 + i}",),
                                         daemon=True) for i in range(count)]   # a phone each
        for t in self.threads:
            t.start()

    def _poll(self, source: str) -> None:
        client = Client(self.port, source=source)
        try:
            while not self.stop.is_set():
                start = time.perf_counter()
                status, body = client.get("/api/state")
                took = time.perf_counter() - start
                if status != 200:
                    self.errors.append(f"/api/state: {status}")
                with self.lock:
                    self.latencies.append(took)
                self.stop.wait(self.interval)
        except OSError as err:
            self.errors.append(f"poller: {err}")
        finally:
            client.close()

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(10)


def run(quick: bool = False) -> dict:
    events = 40 if quick else 150
    with tempfile.TemporaryDirectory(prefix="parlour-bench-web-") as tmp:
        server = Server(Path(tmp))
        streams = pollers = None
        control = None
        try:
            control = Client(server.port)
            snap = control.control("new-game", GAME)
            streams = Streams(server.port, STREAMS)
            if streams.wait(snap["version"], timeout=20) is None:
                raise RuntimeError(f"not every stream opened: {streams.errors[:3]}")
            pollers = Pollers(server.port, POLLERS, POLL_INTERVAL)
            time.sleep(0.5)
            slowest, every, posts, sizes = [], [], [], []
            cpu0, wall0 = server.cpu_seconds(), time.perf_counter()
            for _ in range(events):
                if snap.get("phase") == "over":
                    snap = control.control("new-game", GAME)
                    streams.wait(snap["version"])
                    continue
                start = time.perf_counter()
                snap = control.control("roll")
                posts.append(time.perf_counter() - start)
                times = streams.wait(snap["version"])
                if times is None:
                    raise RuntimeError(f"an event never reached every stream: "
                                       f"{streams.errors[:3]}")
                slowest.append(max(times) - start)
                every.extend(t - start for t in times)
                sizes.append(len(json.dumps(snap, separators=(",", ":"))))
                time.sleep(EVENT_GAP)
            load_cpu = (server.cpu_seconds() - cpu0) / (time.perf_counter() - wall0)
        finally:
            if pollers is not None:
                pollers.close()
            if streams is not None:
                streams.close()
            if control is not None:
                control.close()
            server.stop()
    return {
        "streams": STREAMS, "pollers": POLLERS, "poll_interval_s": POLL_INTERVAL,
        "events": len(slowest),
        "event_to_all_streams_ms": summary(slowest, 1000),
        "event_to_each_stream_ms": summary(every, 1000),
        "control_post_ms": summary(posts, 1000),
        "state_get_ms": summary(pollers.latencies, 1000),
        "state_json_bytes": summary(sizes, digits=0),
        "server_cpu_share_under_load": round(load_cpu, 3),
        "errors": (streams.errors + pollers.errors)[:5],
    }


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
