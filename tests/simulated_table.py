"""`parlour run --sim` as a subprocess on 127.0.0.1, for end-to-end tests and the benchmarks
(import as `from simulated_table import ...`)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PARLOUR = Path(sys.executable).with_name("parlour")
PIN = "2468"


def call(url: str, path: str, body: dict | None = None, *, pin: bool = True) -> dict:
    """GET (no body) or POST JSON; the table's JSON answer (a 4xx answer's JSON too)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if pin and body is not None:
        headers["X-Parlour-Pin"] = PIN
    request = urllib.request.Request(url + path, data=data, headers=headers,
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return {"error": json.loads(err.read() or b"{}").get("error", str(err)),
                "status": err.code}


def box_view(url: str, until, seconds: float = 10.0) -> dict:
    """The simulated box's screen in words (`/device/screen`'s view) once `until(view)`."""
    deadline = time.monotonic() + seconds
    while True:
        view = call(url, "/device/screen", pin=False).get("view") or {}
        if until(view) or time.monotonic() > deadline:
            assert until(view), view
            return view
        time.sleep(0.05)


def box_drawn(url: str, seconds: float = 10.0) -> dict:
    """Wait until the box has drawn the table's newest state, as a player at it would see it
    before pressing: its inputs act only on the state it last drew."""
    def newest(view: dict) -> bool:
        state = call(url, "/api/state", pin=False)
        return view.get("shown") == f"{state['boot']}:{state['state_version']}"
    return box_view(url, newest, seconds)


def box_input(url: str, body: dict) -> None:
    """One input at the simulated box (its /device panel's)."""
    call(url, "/device/input", body, pin=False)


def box_menu(url: str, item: str) -> None:
    """Menu, the knob turned to `item`, pressed: as a player does it at the box, once the
    dial has stopped (Menu while it spins only stops it: the throw is seen first)."""
    box_view(url, lambda v: v.get("screen") != "spin", seconds=20)
    box_input(url, {"input": "menu"})
    menu = box_view(url, lambda v: v.get("screen") == "menu")["menu"]
    box_input(url, {"input": "knob", "action": "turn",
                    "detents": menu["items"].index(item) - menu["index"]})
    box_view(url, lambda v: bool(v.get("menu")) and v["menu"]["items"][v["menu"]["index"]] == item)
    box_input(url, {"input": "knob", "action": "press"})


def box_pairing_code(url: str, button: int) -> str:
    """What a player does at the box to pair their phone: Menu, "Pair a phone", their seat
    button (1-based); the code the OLED then shows."""
    box_menu(url, "Pair a phone")
    box_view(url, lambda v: v.get("screen") == "pair_pick")
    box_input(url, {"input": "seat", "seat": button - 1})
    return box_view(url, lambda v: "pair_code" in v)["pair_code"]


def box_unpair(url: str, button: int) -> None:
    """Menu, "Phones", the row of seat button `button` (1-based, the first paired one here),
    and yes: the box unpairs that seat's phones."""
    box_menu(url, "Phones")
    box_view(url, lambda v: v.get("screen") == "phones")
    box_input(url, {"input": "knob", "action": "press"})
    box_view(url, lambda v: v.get("screen") == "confirm")
    box_input(url, {"input": "knob", "action": "turn", "detents": 1})
    box_input(url, {"input": "knob", "action": "press"})
    box_view(url, lambda v: v.get("flash") == "Unpaired 1 phone")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_unserved(port: int) -> None:
    """Fails if something answers on loopback `port`: a server left running there would
    answer for a restart that failed ("port in use"), and the test check the old one."""
    with socket.socket() as probe:
        probe.settimeout(1)
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise AssertionError(f"port {port} is still served: stop the table there first")


def quiet_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment without the user's config, state or service sockets; unbuffered."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PARLOUR", "NOTIFY_SOCKET", "WATCHDOG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_STATE_HOME=str(home / "state"), PYTHONUNBUFFERED="1", **extra)
    return env


def parlour_command(*args: str) -> list[str]:
    """The `parlour` console script, or the same entry point without it."""
    if PARLOUR.exists():
        return [str(PARLOUR), *args]
    return [sys.executable, "-c",
            "import sys; from firmware.cli import main; sys.exit(main(sys.argv[1:]))", *args]


class SimulatedTable:
    """A running `parlour run --sim` with its own data folder and HOME, answering /api/state
    once constructed (`first_state`, `ready_seconds`); `stop()` (SIGTERM, then SIGKILL) or
    `kill9()` ends it, and so does leaving a `with` block."""

    def __init__(self, data_dir: Path, home: Path, *, env: dict[str, str] | None = None,
                 timeout: float = 20.0, prefix: tuple[str, ...] = (), pin: str | None = PIN,
                 port: int | None = None):
        self.port = port or free_port()          # a restart may take its old port again
        self.url = f"http://127.0.0.1:{self.port}"
        if port is not None:
            port_unserved(port)
        started = time.perf_counter()
        self.proc = subprocess.Popen(       # prefix: e.g. nsenter, to run it elsewhere
            [*prefix, *parlour_command("run", "--sim", "--host", "127.0.0.1", "--port",
                                       str(self.port), "--data-dir", str(data_dir),
                                       *(("--pin", pin) if pin else ()))],
            cwd=ROOT, env=env or quiet_env(home), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self.pid = self.proc.pid
        self.first_state = self._wait(timeout)
        self.ready_seconds = time.perf_counter() - started

    def _wait(self, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                try:
                    conn.request("GET", "/api/state")
                    response = conn.getresponse()
                    body = response.read()
                finally:
                    conn.close()
                if response.status == 200 and self.proc.poll() is None:
                    return json.loads(body)
            except OSError:
                pass
            if self.proc.poll() is not None:
                _, err = self.proc.communicate()
                raise AssertionError(f"parlour run exited {self.proc.returncode}: {err}")
            if time.monotonic() > deadline:
                self.kill9()
                raise AssertionError("parlour run never answered /api/state")
            time.sleep(0.005)

    def kill9(self) -> tuple[str, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        return self.proc.communicate(timeout=10)

    def stop(self) -> tuple[str, str]:
        """SIGTERM and wait for a clean stop; SIGKILL after 15 s. Returns (stdout, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            return self.kill9()

    def __enter__(self) -> "SimulatedTable":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.returncode is None:
            self.stop()
