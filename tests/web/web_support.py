"""Helpers for the web tests (a module of its own, not conftest, so that test modules import
it by a name no other test folder uses): the PIN, a fake device panel, seeds and clocks,
playing a game to its end, and a real waitress server on a loopback port."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import random
import threading
from collections.abc import Iterator

from waitress import wasyncore
from waitress.server import create_server

from companion.errors import Refused
from companion.events import parse_event
from companion.games import GAMES
from companion.replay import Table
from companion.session import Session
from web import shutdown

PIN = "2468"
SECRET = "test-secret-key"
FAST = {"TESTING": True, "SECRET_KEY": SECRET, "SSE_KEEPALIVE": 0.05, "SSE_MAX_SECONDS": 30.0}
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
       b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00"
       b"\x00\x00\x00IEND\xaeB`\x82")


class FakeDevice:
    """A DevicePanel that records inputs; a flick rolls through the session the way firmware
    would, and the frame's version goes up on every input."""

    seats = 4

    def __init__(self, session: Session | None = None):
        self.session = session
        self.inputs: list[dict] = []
        self.version = 1

    def handle_input(self, payload: dict) -> dict:
        if payload.get("input") == "menu" and self.session is None:
            raise ValueError("the menu is not available now")
        self.inputs.append(payload)
        self.version += 1
        if self.session is not None and payload.get("input") == "knob" and \
                payload.get("action") == "flick":
            self.session.roll(by="knob")
        return {"ok": True, "screen": self.version}

    def screen_png(self) -> bytes:
        return PNG

    def screen_version(self) -> int:
        return self.version


def seeds() -> Iterator[bytes]:
    for n in itertools.count():
        yield hashlib.sha256(f"seed {n}".encode()).digest()


def clock() -> Iterator[str]:
    for n in itertools.count():
        yield f"2024-05-01T19:{n // 60 % 60:02d}:{n % 60:02d}"


def play_to_the_end(session: Session, limit: int = 3000) -> dict:
    """Roll until the game is over (Kat en Muis always ends; the limit keeps a test bounded)."""
    for _ in range(limit):
        snap = session.snapshot()
        if snap["phase"] == "over":
            return snap
        session.roll(by="test")
    raise AssertionError("the game did not end")


@contextlib.contextmanager
def serving(app, threads: int = 8) -> Iterator[str]:
    """A waitress server for `app` on 127.0.0.1 (a free port) in a thread; yields its URL and
    stops it when the block ends: streams ended, then the loop thread itself joins the workers
    and closes the sockets (closing them from another thread races with its select())."""
    server = create_server(app, host="127.0.0.1", port=0, threads=threads,
                           clear_untrusted_proxy_headers=True)
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)
        server.task_dispatcher.shutdown(timeout=5)
        wasyncore.close_all(server._map)

    thread = threading.Thread(target=run, name="waitress-test", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        shutdown(app)
        stop.set()
        thread.join(timeout=10)
        assert not thread.is_alive(), "the test server did not stop"


def random_table(game: str, seed: int, steps: int = 400) -> Iterator[tuple[dict, str | None]]:
    """A seeded random table of `game`: each state JSON it passes through, with the refusal
    that the step after it met (None: taken). Mostly the awaited step; a seat's press and the
    knob now and then, so claims are made and refused presses are met."""
    rng = random.Random(seed)
    rulebook = GAMES[game]
    table = Table()
    table.apply(parse_event({"type": "new_game", "game": game,
                             "players": ["Ann", "Ben", "Cy"][:max(2, rulebook.min_players)]}))
    for _ in range(steps):
        state = table.state
        if state.over:
            yield table.to_json(), None
            return
        dice = table.rulebook.randomizer_now(state)
        if state.awaiting == "roll" and rng.random() < 0.75 and dice is not None:
            event = {"type": "roll", "values": [rng.randint(1, dice.faces)
                                                for _ in range(dice.count)]}
        elif state.awaiting == "choose":
            event = {"type": "choose", "value": rng.randint(1, 6)}
        elif rng.random() < 0.5:
            event = {"type": "press", "seat": state.turn}
        else:
            event = {"type": "next"}
        before = table.to_json()
        try:
            table.apply(parse_event(event))
        except Refused as err:
            yield before, str(err)
            continue
        yield before, None
