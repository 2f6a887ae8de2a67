"""A game as long as one may be (MAX_GAME_EVENTS, 10,000 events of free-play points, as a
paired phone could make): the time and memory to resume it at start-up, the size of its state
JSON, and the box's memory after three concurrent `GET /api/games/<id>/chart`, the
requests that each took +413 MiB before the states shared one log.

Then the same game still in play, CHANGES events short of the end, played on through the API:
each page that shows it (the phone page, /history, /fairness, its chart, record and page) timed
at its first request after an event (cold) and again at the same version (warm); 8 guests
asking /history in a loop while an event comes every second, with the server's CPU and
/api/state meanwhile; and, where chromium is installed, the phone page (390x844) loading the
game and following three events: the longest time it drew no frame.

Run alone: `python tests/bench/bench_long_game.py` (or `run.py --only long_game`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

from common import Client, Server, summary
from companion.session import MAX_GAME_EVENTS, Session
from companion.record.store import Store

CHANGES = 14              # events the live game is played on by: 4 timed, 6 under load, 4 shown
WARM = 4                  # requests again at the same version, after each cold one
GUESTS = 8
LOAD_S = 6.0
CHROMIUM = "/usr/bin/chromium"


def long_game(data_dir: Path, events: int) -> int:
    """A free-play game of `events` events in a store at `data_dir` (the game in play there
    played on, if there is one); its id."""
    store = Store(data_dir / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"b" * 32)
        if session.game_id is None:
            session.new_game("free-play", ["Ann", "Ben"])
        made = len(store.events(session.game_id))
        while made < events:
            if session.snapshot()["awaiting"] == "roll":
                session.roll(by="bench")
            else:
                session.submit({"type": "press", "seat": made % 2}, by="web")
            made += 1
        return session.game_id
    finally:
        store.close()


def play_on(client: Client) -> None:
    """One event through the API: the throw asked for, or a point for Ann."""
    status, body = client.get("/api/state")
    if json.loads(body)["awaiting"] == "roll":
        client.control("roll")
    else:
        client.control("press", {"seat": 0})


def timed(client: Client, path: str) -> float:
    started = time.perf_counter()
    status, _ = client.get(path)
    if status != 200:
        raise RuntimeError(f"{path}: {status}")
    return (time.perf_counter() - started) * 1000


def live_pages(tmp: Path, game_id: int) -> dict:
    """The pages of the game in play, cold and warm; then under guests asking /history."""
    paths = ("/", "/history", "/fairness", f"/api/games/{game_id}/chart",
             f"/api/games/{game_id}/record", f"/history/{game_id}")
    server = Server(tmp)
    try:
        client = Client(server.port, timeout=120)
        cold: dict[str, list[float]] = {p: [] for p in paths}
        warm: dict[str, list[float]] = {p: [] for p in paths}
        for _ in range(4):
            play_on(client)
            for path in paths:
                cold[path].append(timed(client, path))
                warm[path] += [timed(client, path) for _ in range(WARM)]
        name = {p: p.replace(str(game_id), "<id>") for p in paths}
        out = {"pages": {name[p]: {"cold_ms": summary(cold[p], digits=1)["p50"],
                                   "warm_ms": summary(warm[p], digits=1)["p50"]}
                         for p in paths}}
        out["under_guests"] = guests(server, client)
        out["phone"] = phone_page(server)
        client.close()
        return out
    finally:
        server.stop()


def guests(server: Server, client: Client) -> dict:
    """GUESTS addresses asking /history in a loop, an event a second: the server's CPU and
    /api/state and / asked meanwhile from another address."""
    stop, answered = threading.Event(), [0]

    def guest(n: int) -> None:
        c = Client(server.port, timeout=120, source=f"127.0.2.{n + 1}")
        while not stop.is_set():
            c.get("/history")
            answered[0] += 1
        c.close()

    threads = [threading.Thread(target=guest, args=(n,)) for n in range(GUESTS)]
    cpu, started = server.cpu_seconds(), time.perf_counter()
    for t in threads:
        t.start()
    watcher = Client(server.port, timeout=120, source="127.0.3.1")
    state, page = [], []
    for _ in range(int(LOAD_S)):
        play_on(client)
        tick = time.perf_counter()
        state.append(timed(watcher, "/api/state"))
        page.append(timed(watcher, "/"))
        time.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
    stop.set()
    for t in threads:
        t.join()
    watcher.close()
    seconds = time.perf_counter() - started
    return {"guests": GUESTS, "seconds": round(seconds, 1),
            "history_answers_per_s": round(answered[0] / seconds, 1),
            "server_cpu_share": round((server.cpu_seconds() - cpu) / seconds, 2),
            "state_ms": summary(state, digits=1), "page_ms": summary(page, digits=1)}


def phone_page(server: Server) -> dict | None:
    """The phone page in chromium: its load, then three events a second apart: the longest
    gap between two frames, and the time spent in gaps over half a second."""
    def event() -> int:
        """One event, from a connection of its own (a slow page outlasts an idle one); the
        version it made."""
        c = Client(server.port, timeout=300)
        try:
            play_on(c)
            return json.loads(c.get("/api/state")[1])["version"]
        finally:
            c.close()

    if not os.path.exists(CHROMIUM):
        return None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_context(viewport={"width": 390, "height": 844},
                                       has_touch=True).new_page()
            page.set_default_timeout(300_000)
            started = time.perf_counter()
            page.goto(server.url + "/")
            page.wait_for_load_state("load")
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
            load_s = time.perf_counter() - started
            page.wait_for_timeout(2000)
            page.evaluate("""() => { window.gaps = []; let last = performance.now();
                const f = t => { window.gaps.push(t - last); last = t; requestAnimationFrame(f); };
                requestAnimationFrame(f); }""")
            for _ in range(3):
                version = event()
                page.wait_for_timeout(1000)
            page.wait_for_function(f"document.body.dataset.version.endsWith(':{version}')")
            page.wait_for_timeout(500)
            gaps = page.evaluate("window.gaps")
            items = page.evaluate("document.querySelectorAll('#log li').length")
        finally:
            browser.close()
    return {"load_s": round(load_s, 2), "longest_frame_gap_ms": round(max(gaps)),
            "frozen_s": round(sum(g for g in gaps if g > 500) / 1000, 1), "log_items": items}


def run(quick: bool = False) -> dict:
    events = 2000 if quick else MAX_GAME_EVENTS
    with tempfile.TemporaryDirectory(prefix="parlour-bench-long-") as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        started = time.perf_counter()
        long_game(data, events - CHANGES)
        shutil.copytree(data, Path(tmp) / "live" / "data")      # to be played on, live
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
        finally:
            server.stop()
        live = live_pages(Path(tmp) / "live", game_id)
        return {"events": events, "write_s": round(written, 1),
                "resume_s": round(server.ready_seconds, 2), "box_after_resume": resumed,
                "state_json_kib": round(state_kib), "chart_answers": answers,
                "three_charts_s": round(charts_s, 2), "box_after_three_charts": after,
                "live": live}


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
