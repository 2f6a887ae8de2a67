"""What the club's tests (and the table test) share: a table (a session on its own store)
with the club's publisher, `parlour club` in a thread, a subscriber that keeps every message,
and waiting for a condition."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt

from companion.session import Session
from companion.record.store import Store
from firmware.club.publisher import ClubPublisher
from firmware.config import ClubConfig
from firmware.stamps import TableClock


def wait_for(what, timeout: float = 15.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(step)
    raise AssertionError(f"not within {timeout} s: {what}")


class Table:
    """A table's session and store in `folder`, reporting to the broker when `club` is set."""

    def __init__(self, folder: Path, club: ClubConfig | None, table_id: str, seeds_from: int = 1,
                 buttons: tuple[str, ...] = (), clock: TableClock | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.folder / "parlour.db")
        counter = iter(range(seeds_from, 10**6))
        self.clock = clock or TableClock()
        self.session = Session(self.store, new_seed=lambda: bytes([next(counter) % 256]) * 32,
                               board_dir=self.folder / "boards", clock=self.clock)
        self.session.subscribe(self.clock.between_games)          # as the runner has it
        self.clock.between_games(self.session.snapshot())
        self.table_id = table_id
        self.publisher = None
        if club is not None:
            self.publisher = ClubPublisher(self.session, club, table_id=table_id,
                                           data_dir=self.folder, buttons=buttons,
                                           learn_time=self.clock.learn)
            self.publisher.start()

    def play(self, winner: int = 0, names=("Ann", "Ben")) -> int:
        """A Fox and Geese game ended by resigning: `winner` wins."""
        self.session.new_game("fox-and-geese", list(names))
        self.session.submit({"type": "declare", "winners": [winner]})
        return self.session.game_id

    def close(self) -> None:
        if self.publisher is not None:
            self.publisher.close()
        self.store.close()


class Listener:
    """A subscriber to `topic` keeping (topic, payload, retained) of every message."""

    def __init__(self, port: int, topic: str = "#", **login):
        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if login:
            self.client.username_pw_set(login["username"], login["password"])
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, u, f, r, p: c.subscribe(topic, qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client, userdata, message) -> None:
        with self._lock:
            self.messages.append((message.topic, message.payload, message.retain))

    def on(self, suffix: str) -> list[dict]:
        with self._lock:
            return [json.loads(p) for t, p, _ in self.messages if t.endswith(suffix) and p]

    def topics(self) -> list[str]:
        with self._lock:
            return [t for t, _, _ in self.messages]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Club:
    """`parlour club`'s run_club in a thread, on its own data folder and a free web port."""

    def __init__(self, folder: Path, club: ClubConfig, connected: bool = True):
        """`connected`: wait until it is on the broker (False: one that cannot be)."""
        from firmware.club.league_server import run_club
        self.stop = threading.Event()
        self._ready = threading.Event()

        def ready(port, listener):
            self.port, self.listener = port, listener
            self._ready.set()

        self.thread = threading.Thread(target=run_club, args=(club, folder),
                                       kwargs={"host": "127.0.0.1", "port": 0,
                                               "on_ready": ready, "stop": self.stop},
                                       daemon=True)
        self.thread.start()
        assert self._ready.wait(15), "the club did not start"
        if connected:
            wait_for(self.listener.connected.is_set)

    def view(self) -> dict:
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/club", timeout=5) as r:
            return json.loads(r.read())

    def page(self) -> str:
        import urllib.request
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5) as r:
            return r.read().decode()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=10)


class ClubProcess:
    """`parlour club` as its own process (its config naming the broker), on a free port;
    `view()` and `page()` as Club's; `close()` stops it as systemd would (SIGTERM)."""

    def __init__(self, folder: Path, broker_port: int, *, env: dict[str, str] | None = None,
                 **club):
        import subprocess

        from simulated_table import ROOT, free_port, parlour_command, quiet_env
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "club.toml"
        extra = "".join(f'{k} = "{v}"\n' for k, v in club.items())
        config.write_text(f'[club]\nhost = "127.0.0.1"\nport = {broker_port}\n{extra}')
        self.port = free_port()
        self.proc = subprocess.Popen(
            parlour_command("club", "--config", str(config), "--data-dir",
                            str(self.folder / "data"), "--host", "127.0.0.1", "--port",
                            str(self.port)),
            cwd=ROOT, env=quiet_env(self.folder, **(env or {})), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        wait_for(lambda: self._answers() or self.proc.poll() is not None)
        assert self.proc.poll() is None, self.proc.stderr.read()
        wait_for(lambda: self.view()["broker"]["connected"])

    def _answers(self) -> bool:
        try:
            self.view()
            return True
        except OSError:
            return False

    view = Club.view
    page = Club.page

    def close(self) -> None:
        import signal
        self.proc.send_signal(signal.SIGTERM)
        self.out, self.err = self.proc.communicate(timeout=10)     # what it printed and logged
        code = self.proc.returncode
        assert code == 0, f"parlour club ended with {code}"


def a_table_restarted_quickly(folder: Path, club: ClubConfig, table_id: str,
                              **login) -> None:
    """A table's old connection that the broker has not seen go (a power cut, a fast reboot:
    no DISCONNECT), the table started again, then the old connection cut off abruptly: the
    broker fires the old connection's will ("offline", retained) after the new one said
    "online". The table must say "online" again, and "offline" once it closes. `login`: the
    watcher's (the club's, say)."""
    from firmware.club import topics
    from firmware.club.publisher import client_for
    status = topics.status_topic(table_id)
    old = client_for(club, f"parlour-{table_id}-before", v5=True)     # as the publisher's
    old.will_set(status, "offline", qos=1, retain=True)
    old.connect(club.host, club.port, keepalive=club.keepalive)
    old.loop_start()
    old.publish(status, "online", qos=1, retain=True).wait_for_publish(10)
    old.loop_stop()                                    # the power went: nothing more said
    table = Table(folder, club, table_id)
    try:
        wait_for(table.publisher.connected.is_set)
        seen = Listener(club.port, topic=status, **login)
        wait_for(lambda: seen.messages and seen.messages[-1][1] == b"online")
        old.socket().close()                           # the broker sees it go, no DISCONNECT
        wait_for(lambda: (status, b"offline", False) in seen.messages)      # the will fired
        wait_for(lambda: seen.messages[-1][1] == b"online")
        seen.close()
        assert retained(club.port, status, login) == b"online"
    finally:
        table.close()
    assert retained(club.port, status, login) == b"offline"      # its own close stands


def retained(port: int, topic: str, login: dict) -> bytes:
    """The broker's retained message on `topic`, as a new subscriber gets it."""
    reader = Listener(port, topic=topic, **login)
    try:
        return wait_for(lambda: next((p for t, p, kept in reader.messages if kept), None))
    finally:
        reader.close()
