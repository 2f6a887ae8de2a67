"""`parlour run`: the device program. Pins and OLED (real, or simulated), the session, the web
app on a background thread and the main loop that ties them together.

The main loop sleeps on the input queue: inputs, session changes and signals wake it; while
idle it wakes only to let the controls see time pass (POLL_IDLE), so idle CPU stays tiny.
"""

from __future__ import annotations

import queue
import secrets
import signal
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import ParlourError
from companion.session import Session
from companion.store import Store
from firmware.animation import FPS
from firmware.config import Config, load_config
from firmware.controller import Controller
from firmware.inputs import InputEvent
from firmware.keys import stored_pin
from firmware.notify import Notifier
from firmware.phones import connect_phones, phone_options
from firmware.recovery import open_table

POLL_BUSY = 0.01        # s between control polls while a knob gesture is under way
POLL_IDLE = 0.1         # s between polls while the table is in use (a hold seen <= 0.1 s late)
POLL_DORMANT = 0.25     # s between polls after ACTIVE_SECONDS without input: each wake-up
ACTIVE_SECONDS = 120.0  # costs far more than the poll itself, so an unattended table rests
WAKE = object()         # queue item: "look again" (a session change from the web, a signal)
NOTICE_SECONDS = 12.0   # a start-up notice (a store moved aside) stays on the OLED this long
PI_MODEL = Path("/proc/device-tree/model")


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def on_pi(model: Path = PI_MODEL) -> bool:
    """True on a Raspberry Pi (its device tree says so)."""
    try:
        return "Raspberry Pi" in model.read_text(errors="replace")
    except OSError:
        return False


def lan_address(host: str) -> str:
    """The address phones should use: the host if it is specific, else this machine's LAN IP
    (found by routing a UDP socket, which sends nothing), else loopback."""
    if host not in ("", "0.0.0.0", "::"):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))        # TEST-NET-1: never actually contacted
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


@dataclass
class Table:
    """Everything `run` opened, so `close` can shut it all down in order."""

    config: Config
    session: Session
    store: Store
    controls: Any
    display: Any
    controller: Controller
    inputs: queue.Queue
    panel: Any = None
    web: Any = None
    stop: threading.Event = field(default_factory=threading.Event)
    frames: int = 0
    notifier: Notifier = field(default_factory=lambda: Notifier({}))   # systemd, when under it
    notices: list[str] = field(default_factory=list)   # what start-up had to mend

    def close(self) -> None:
        for step in (self.controller.close, self._close_web, self.controls.close,
                     self.display.close, self.store.close):
            try:
                step()
            except Exception as err:  # noqa: BLE001 - shutting down: report, carry on
                print(f"parlour: while stopping: {err}", file=sys.stderr)

    def _close_web(self) -> None:
        if self.web is not None:
            self.web.close()


class WebServer:
    """The Flask app served by waitress on a background thread; `close` ends it."""

    def __init__(self, session: Session, *, pin: str, panel, host: str, port: int,
                 threads: int, **options: Any):
        import waitress
        from web import create_app
        self.app = create_app(session, pin=pin, device=panel, **options)
        self.server = waitress.create_server(self.app, host=host, port=port, threads=threads,
                                             ident="parlour")
        self.port = self.server.effective_port if hasattr(self.server, "effective_port") \
            else port
        self.thread = threading.Thread(target=self.server.run, name="web", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        """End the live streams, stop accepting, let running requests finish, then close the
        connections from the server's own thread (closing them under its select, or under a
        worker still writing a response, is a race that ends in EBADF)."""
        from waitress import wasyncore
        try:
            from web import shutdown
            shutdown(self.app)
        except ImportError:
            pass
        sockets = getattr(self.server, "map", None) or self.server._map
        trigger = getattr(self.server, "trigger", None)
        running = trigger is not None and self.thread.is_alive()
        self.server.accepting = False                         # no new connections
        self.server.task_dispatcher.shutdown(timeout=5)       # workers finish their requests
        if running:
            trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
            self.thread.join(timeout=3)
        if self.thread.is_alive() or not self.thread.ident:
            wasyncore.close_all(sockets)


def board_dir(config: Config) -> Path:
    """The table's own board data files: `boards/<game>.toml` beside the config file in use
    (or beside the user's config location when running on defaults)."""
    from firmware.config import search_path
    return (config.source or search_path()[0]).parent / "boards"


def build(*, sim: bool, host: str, port: int, data_dir: Path, config: Config, pin: str,
          web: bool = True, pin_kept: bool = False) -> Table:
    """Open the store and session, the controls and display (real or simulated), the web."""
    from firmware.controls import Controls
    from firmware.display import Display
    recovered = open_table(data_dir / "parlour.db", lambda store: Session(
        store, new_seed=lambda: secrets.token_bytes(32), clock=utc_now,
        board_dir=board_dir(config)), now=utc_now)
    store, session = recovered.store, recovered.session
    for notice in recovered.notices:
        print(f"parlour: {notice}", file=sys.stderr, flush=True)
    inputs: queue.Queue = queue.Queue()
    opened: list = [store.close]
    try:
        if sim:
            from gpiozero.pins.mock import MockFactory
            from luma.core.device import dummy
            from firmware.sim import SimClock, SimPanel
            clock = SimClock()
            factory = MockFactory()
            controls = Controls(config, inputs.put, pin_factory=factory, clock=clock)
            opened.append(controls.close)
            display = Display(config.display, device=dummy(width=config.display.width,
                                                            height=config.display.height,
                                                            mode="1"))
            panel = SimPanel(factory, controls.pin_map, clock, poll=controls.poll)
        else:
            controls = Controls(config, inputs.put)
            opened.append(controls.close)
            display = Display(config.display)
            panel = None
        opened.append(display.close)
        server = None
        if web:
            try:
                server = WebServer(session, pin=pin, panel=panel, host=host, port=port,
                                   threads=config.threads, **phone_options(data_dir))
            except ImportError as err:   # the web layer missing: the table still plays
                print(f"parlour: no web app ({err}); the device runs alone", file=sys.stderr)
        url = f"http://{lan_address(host)}:{server.port if server else port}/"
        controller = Controller(session, controls=controls, seats=config.seats, url=url,
                                pin=pin)
    except BaseException:
        for close in reversed(opened):
            close()
        raise
    controller.wake = lambda: inputs.put(WAKE)
    connect_phones(controller, server.app if server else None, data_dir, pin_kept=pin_kept,
                   wifi=config.wifi)
    controller.attach()
    if recovered.screen:
        controller.show_flash(" / ".join(recovered.screen), NOTICE_SECONDS)
    return Table(config, session, store, controls, display, controller, inputs, panel, server,
                 notices=recovered.notices)


def loop(table: Table) -> None:
    """Inputs -> controller -> frames, until `table.stop` is set."""
    controller, controls = table.controller, table.controls
    next_frame = 0.0
    active_until = time.monotonic() + ACTIVE_SECONDS
    while not table.stop.is_set():
        table.notifier.heartbeat()          # systemd's watchdog: this loop is still turning
        now = time.monotonic()
        busy = controls.gestures.state != "idle" or controls.gestures.switch != "up"
        timeout = POLL_BUSY if busy else POLL_IDLE if now < active_until else POLL_DORMANT
        wait = controller.wait_time()
        if controller.animating:
            timeout = max(0.0, next_frame - now)
        elif wait is not None:
            timeout = min(timeout, wait)
        try:
            item = table.inputs.get(timeout=timeout)
        except queue.Empty:
            item = None
        controls.poll()
        table.display.poll()               # a panel that failed comes back without a new frame
        if item is not None or busy:
            active_until = time.monotonic() + ACTIVE_SECONDS
        while item is not None:
            if isinstance(item, InputEvent):
                try:
                    controller.handle(item)
                except Exception:  # noqa: BLE001 - a bug must not stop the table: log it
                    traceback.print_exc()
            try:
                item = table.inputs.get_nowait()
            except queue.Empty:
                item = None
        if controller.update() and time.monotonic() >= next_frame:
            image = controller.render()
            table.display.show(image)
            if table.panel is not None:
                table.panel.publish(image)
            table.frames += 1
            next_frame = time.monotonic() + (1 / FPS if controller.animating else 0.0)


def run(*, sim: bool | None = None, host: str | None = None, port: int | None = None,
        data_dir: str | None = None, config_path: str | None = None,
        pin: str | None = None) -> int:
    """`parlour run`: returns the exit status (0 after SIGTERM/SIGINT, 2 for bad setup)."""
    try:
        config = load_config(config_path)
        if sim is None:
            sim = not on_pi()
            if sim:
                print("parlour: no Raspberry Pi hardware found: running simulated (--sim)",
                      flush=True)
        data_path = Path(data_dir).expanduser() if data_dir else config.data_dir
        table = build(sim=sim, host=host or config.host,
                      port=config.port if port is None else port,
                      data_dir=data_path,
                      config=config, pin=pin or config.pin or stored_pin(data_path),
                      pin_kept=not (pin or config.pin))
    except (ParlourError, OSError) as err:
        print(f"parlour: {err}", file=sys.stderr)
        return 2

    def stop(signum, frame) -> None:
        table.stop.set()
        table.inputs.put(WAKE)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    table.notifier = Notifier()              # systemd (Type=notify, WatchdogSec), if under it
    try:
        if table.web is not None:
            table.web.start()
        mode = "simulated" if sim else "hardware"
        # The PIN goes to a person at a terminal, never into a service's journal.
        pin_note = (f"PIN {table.controller.pin}" if sys.stdout.isatty()
                    else "PIN on the device's menu")
        print(f"parlour: table at {table.controller.url} ({pin_note}), "
              f"{mode}" + (f"; the panel is at {table.controller.url}device" if sim else ""),
              flush=True)
        if table.session.resumed:
            print(f"parlour: resumed {table.session.snapshot().get('title')}", flush=True)
        table.notifier.ready(status=f"serving {table.controller.url}" + (
            f"; resumed {table.session.snapshot().get('title')}" if table.session.resumed
            else ""))
        loop(table)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        table.notifier.stopping(status="stopping")
        table.close()
        table.notifier.close()
    print("parlour: stopped", flush=True)
    return 0
