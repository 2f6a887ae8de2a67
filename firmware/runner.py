"""`parlour run`: the device program. Pins and OLED (real, or simulated), the session, the web
app on a background thread and the main loop that ties them together.

The main loop sleeps on the input queue: inputs, session changes and the edge that starts a
knob gesture (the switch down, a first detent) wake it, and it polls every POLL_BUSY until
the gesture is done; while idle it wakes only every POLL_IDLE (POLL_DORMANT after quiet), so
idle CPU stays tiny. Signals are seen at the next wake.
"""

from __future__ import annotations

import errno
import queue
import re
import secrets
import shlex
import shutil
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.errors import ParlourError, StoreError
from companion.session import Session
from companion.record.store import Store
from companion.randomness.rollstream import SEED_BYTES
from firmware.oled.animation import FPS, REMOTE_STRENGTH, spin_seconds
from firmware.config import Config, load_config, pin_problem
from firmware.controller import Controller
from firmware.datadir.datalock import DataDirBusy, DataDirLock, make_data_dir
from firmware.pins.inputs import InputEvent
from firmware.datadir.keys import stored_pin
from firmware.notify import Notifier
from firmware.datadir.phones import connect_phones, phone_options
from firmware.datadir.recovery import open_table
from firmware.stamps import TableClock

POLL_BUSY = 0.01        # s between control polls while a knob gesture is under way
POLL_IDLE = 0.1         # s between polls while the table is in use (a gesture's first edge
POLL_DORMANT = 0.25     # wakes the loop at once); after ACTIVE_SECONDS without input: each
ACTIVE_SECONDS = 120.0  # wake-up costs far more than the poll, so an unattended table rests
WAKE = object()         # queue item: "look again" (a session change, a knob gesture begun)
NOTICE_SECONDS = 12.0   # a start-up notice (a store moved aside) stays on the OLED this long
PI_MODEL = Path("/proc/device-tree/model")
FAULT_PAUSE = 0.5       # s before drawing again after a frame failed (no busy retry loop)
ALERT_SECONDS = 8.0     # a store that cannot be written ("the SD card is full") shows this long


@dataclass(frozen=True)
class Alert:
    """Input queue item: words for the OLED from another thread (a write that failed)."""
    words: str


def on_pi(model: Path | None = None) -> bool | None:
    """True on a Raspberry Pi: only a model file that can be read and says so counts. False
    when there is no model file or it names another board; None when it exists but cannot be
    read (permissions, a sandbox): that is "cannot tell", never "not a Pi"."""
    try:
        return "Raspberry Pi" in (model or PI_MODEL).read_text(errors="replace")
    except FileNotFoundError:
        return False
    except OSError:
        return None


def simulated(config: Config, model: Path | None = None) -> bool:
    """Whether to simulate the hardware when `--sim` was not given: the config's `hardware`,
    else the device tree. A Pi whose model file cannot be read must not quietly become a
    simulated table (a dead box and an open panel), so that stops start-up with what to do."""
    if config.hardware != "auto":
        return config.hardware == "simulated"
    found = on_pi(model)
    if found is None:
        raise ParlourError(f"cannot tell whether this is a Raspberry Pi: {model or PI_MODEL} "
                           "exists but cannot be read; run with --sim, or set hardware = "
                           "\"pi\" (or \"simulated\") in the config")
    if not found:
        print("parlour: no Raspberry Pi hardware found: running simulated (--sim)", flush=True)
    return not found


def lan_address(host: str) -> str:
    """The address phones should use: the host if it is specific, else this machine's LAN IP
    (found by routing a UDP socket, which sends nothing), else loopback."""
    from firmware.webserver import EVERY_ADDRESS       # "[::]" too: every address
    if host not in EVERY_ADDRESS:
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))        # TEST-NET-1: never actually contacted
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def table_address(address: str, port: int) -> str:
    """The table's URL: an IPv6 address in brackets, as a URL needs ("http://::1:8080/" is no
    address a phone can open)."""
    if ":" in address and not address.startswith("["):
        address = f"[{address}]"
    return f"http://{address}:{port}/"


def own_names(host: str, configured: tuple[str, ...]) -> tuple[str, ...]:
    """The names and addresses phones may reach this table by (the Host/Origin check):
    loopback, the listening and LAN addresses, this machine's name (and its .local mDNS
    name), and the configured names."""
    name = socket.gethostname().lower()
    names = ("localhost", "127.0.0.1", "::1", host.lower(), lan_address(host), name,
             f"{name}.local", *configured)
    return tuple(dict.fromkeys(n for n in names if n not in ("", "0.0.0.0", "::")))


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
    signalled: bool = False              # SIGTERM or SIGINT came: the loop ends at its next turn
    frames: int = 0
    notifier: Notifier = field(default_factory=lambda: Notifier({}))   # systemd, when under it
    notices: list[str] = field(default_factory=list)   # what start-up had to mend
    faults: Faults = field(default_factory=lambda: Faults())   # what the main loop survived
    lock: Any = None                                   # the data directory's DataDirLock
    odds: Any = None                                   # the chances worker, when on
    network: Any = None                                # the hotspot fallback, on a Pi
    club: Any = None                                   # the club's publisher, with [club]
    clock: Any = None                                  # the events' TableClock (stamps.py)

    def close(self) -> None:
        self.stop.set()
        for step in (self._close_club, self._close_odds, self._close_network,
                     self.controller.close,
                     self._close_web,
                     self.controls.close, self.display.close, self.store.close, self._release):
            try:
                step()
            except Exception as err:  # noqa: BLE001 - shutting down: report, carry on
                print(f"parlour: while stopping: {err}", file=sys.stderr)

    def _release(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def _close_web(self) -> None:
        if self.web is not None:
            self.web.close()

    def _close_odds(self) -> None:
        if self.odds is not None:
            self.odds.close()

    def _close_club(self) -> None:
        if self.club is not None:
            self.club.close()

    def _close_network(self) -> None:
        if self.network is not None:
            self.network.close()


def board_dir(config: Config) -> Path:
    """The table's own board data files: `boards/<game>.toml` beside the config file in use
    (or beside the user's config location when running on defaults)."""
    from firmware.config import search_path
    return (config.source or search_path()[0]).parent / "boards"


def run_again(**changes: object) -> str:
    """This `parlour run`'s own arguments with `changes` made (port=8622 sets --port), as the
    user would type them again: a way out that drops their --host or --data-dir leads into
    the next refusal."""
    given = sys.argv[2:] if len(sys.argv) > 1 and sys.argv[1] == "run" else []
    changed = {"--" + name.replace("_", "-"): str(value) for name, value in changes.items()}
    kept, skip = [], False
    for arg in given:
        if skip:
            skip = False
        elif arg.split("=", 1)[0] in changed:
            skip = "=" not in arg                     # "--port 8621" or "--port=8621"
        else:
            kept.append(arg)
    return shlex.join(kept + [part for flag, value in changed.items() for part in (flag, value)])


def make_run(again: str, *, or_parlour: bool = False) -> str:
    """How to type `parlour run` with these arguments again: `make run ARGS="..."` (and `or
    parlour run ...`), or only `.venv/bin/parlour run ...` where a `$`, a double quote, a
    backquote, a backslash or a `!` (a path may hold one) would not pass make and the shell's
    double quotes as it is (bash takes `!` there for its history)."""
    if set(again) & set('$"`\\!'):
        return f".venv/bin/parlour run {again}"
    return f'make run ARGS="{again}"' + (f" or parlour run {again}" if or_parlour else "")


def lock_data_dir(data_dir: Path, host: str, port: int) -> DataDirLock:
    """The data directory's lock, or DataDirBusy saying how to run a second table (a second
    `make run`), with its own data directory and a port free now (one something listens on,
    a club's among them, is skipped): the one asked for when it is free (the first table is on
    another), else the next free one."""
    try:
        return DataDirLock(data_dir)
    except DataDirBusy as err:
        from firmware.webserver import can_listen, free_port_after
        try:
            can_listen(host, port)
            free: int | None = port
        except (OSError, OverflowError, ValueError):
            free = free_port_after(host, port)
        again = run_again(data_dir=f"{data_dir}-2", port=free or port + 1)
        raise DataDirBusy(f"{err}: stop that one, or give a second table its own, e.g. "
                          f"{make_run(again)}") from None


def build(*, sim: bool, host: str, port: int, data_dir: Path, config: Config, pin: str,
          web: bool = True, pin_kept: bool = False) -> Table:
    """Open the store and session, the controls and display (real or simulated), the web."""
    from firmware.pins.controls import Controls
    from firmware.oled.display import Display
    lock = lock_data_dir(data_dir, host, port)     # one table per data directory, for life
    stamps = TableClock()                   # events' `at`: wall clock jumps are not charged
    try:
        recovered = open_table(data_dir / "parlour.db", lambda store: Session(
            store, new_seed=lambda: secrets.token_bytes(SEED_BYTES), clock=stamps,
            board_dir=board_dir(config),
            spin_seconds=spin_seconds(REMOTE_STRENGTH)), now=stamps)
    except BaseException:
        lock.release()
        raise
    store, session = recovered.store, recovered.session
    for notice in recovered.notices:
        print(f"parlour: {notice}", file=sys.stderr, flush=True)
    inputs: queue.Queue = queue.Queue()

    def wake() -> None:                          # "look again", from any thread
        inputs.put(WAKE)

    session.on_store_error = lambda err: inputs.put(Alert(str(err)))   # a phone's write too
    session.subscribe(stamps.between_games)
    stamps.between_games(session.snapshot())        # idle at start: stamps read the wall clock
    stamps.restarted(store.newest_stamp())          # phones' clocks are read against it
    if session.resumed:
        stamps.not_before(session.resumed_at)       # a game resumed: never back before it
    opened: list = [lock.release, store.close]
    try:
        if sim:
            from gpiozero.pins.mock import MockFactory
            from luma.core.device import dummy
            from firmware.pins.sim import SimClock, SimPanel
            clock = SimClock()
            factory = MockFactory()
            controls = Controls(config, inputs.put, pin_factory=factory, clock=clock,
                                wake=wake)
            opened.append(controls.close)
            display = Display(config.display, device=dummy(width=config.display.width,
                                                            height=config.display.height,
                                                            mode="1"))
            panel = SimPanel(factory, controls.pin_map, clock, poll=controls.poll,
                             leds=config.seat_led_pins())
        else:
            controls = Controls(config, inputs.put, wake=wake)
            opened.append(controls.close)
            display = Display(config.display)
            panel = None
        opened.append(display.close)
        network = hotspot_fallback(config, data_dir, sim=sim, host=host, port=port)
        server = None
        if web:
            try:
                from firmware.webserver import WebServer
                phones = phone_options(data_dir)      # its own errors name the data directory
            except ImportError as err:   # the web layer missing: the table still plays
                print(f"parlour: no web app ({err}); the device runs alone", file=sys.stderr)
            else:
                try:
                    server = WebServer(session, pin=pin, panel=panel, host=host, port=port,
                                       threads=config.threads, panel_open=config.open_panel,
                                       allowed_hosts=own_names(host, config.allowed_hosts),
                                       buttons=config.seat_colours(), network=network,
                                       table_time=stamps.now, learn_time=stamps.learn,
                                       **phones)
                except OSError as err:
                    raise cannot_listen(host, port, err) from None
        url = table_address(lan_address(host), server.port if server else port)
        controller = Controller(session, controls=controls, seats=config.seats, url=url,
                                pin=pin, colours=config.colours)
    except BaseException:
        for close in reversed(opened):
            close()
        raise
    table = Table(config, session, store, controls, display, controller, inputs, panel, server,
                  notices=recovered.notices, lock=lock, network=network, clock=stamps)
    try:            # all that can still fail, before the Pi may move: a failed start plays none
        controller.wake = wake
        connect_phones(controller, server.app if server else None, data_dir,
                       pin_kept=pin_kept, wifi=config.wifi)
        controller.network = network
        if network is None and host in ("", "0.0.0.0", "::"):   # the address follows the LAN
            from firmware.network.address import LanAddress
            controller.address = LanAddress(lambda: lan_address(host),
                                            server.port if server else port)
        if network is not None:
            network.port = server.port if server else port
            if server is not None:               # a phone's live page keeps the hotspot up
                network.in_use, network.game_on = hotspot_uses(
                    server.app.extensions["parlour"], session)
            network.start()
        table.odds = start_odds(session) if config.odds else None
        table.club = club_for(table, data_dir)
    except BaseException:
        table.close()            # the chances worker too: no crash reported at the exit
        raise
    controller.attach()                          # the session's changes, and the Pi, from now
    said = [*recovered.screen, controls.held_at_start_words()]
    if any(said):
        controller.show_flash(" / ".join(w for w in said if w), NOTICE_SECONDS)
    return table


def club_for(table: Table, data_dir: Path):
    """The club's publisher (firmware/club/), or None without a `[club]` section."""
    from firmware.club.publisher import start_club
    from firmware.datadir.keys import table_id
    return start_club(table.session, table.config.club, data_dir, table_id(data_dir),
                      table.stop, buttons=[c.name for c in table.config.colours],
                      learn_time=table.clock.learn if table.clock is not None else None)


PHONE_HEARD_SECONDS = 30.0     # a signed-in or paired phone heard this lately has the table open


def hotspot_uses(parlour, session: Session) -> tuple[Callable[[], bool], Callable[[], bool]]:
    """What keeps the hotspot up (firmware/network/hotspot.py): a phone has the table open
    (a live page, or a signed-in or paired one polling where it has no stream); a game is in
    play (phones that slept between turns come back to it: a hotspot stepping aside for a
    minute every five cut them off mid-game at a table away from home)."""
    return (lambda: parlour.hub.active > 0
            or parlour.known_addresses.any_within(PHONE_HEARD_SECONDS),
            lambda: session.snapshot()["phase"] not in ("idle", "over"))


def hotspot_fallback(config: Config, data_dir: Path, *, sim: bool, host: str, port: int):
    """The hotspot fallback (firmware/network/hotspot.py), or None: in the simulator, with
    [hotspot] mode = "off", or where NetworkManager's nmcli is missing. It never touches a
    laptop's network: the simulator is where a laptop runs."""
    if sim or config.hotspot.mode == "off" or shutil.which("nmcli") is None:
        return None
    from firmware.network.hotspot import Hotspot, table_hotspot
    return Hotspot(table_hotspot(config.hotspot, data_dir), port=port,
                   lan_address=lambda: lan_address(host))


def start_odds(session: Session):
    """The chances worker (a low-priority process), keeping finished games' charts."""
    from firmware.workers.odds_worker import OddsWorker
    worker = OddsWorker(session, keep=True)
    worker.start()
    return worker


class Faults:
    """Exceptions the main loop survived. Each kind (where, type, the line that raised) is
    written to stderr once with its traceback; repeats are only counted, so a screen that
    fails every frame cannot flood the journal."""

    LIMIT = 50                  # distinct kinds logged; later new ones are only counted

    def __init__(self, out=None):
        self.out = out
        self.count = 0
        self.kinds: set[tuple] = set()

    def report(self, where: str, err: BaseException) -> None:
        self.count += 1
        tb = traceback.extract_tb(err.__traceback__)
        origin = (tb[-1].filename, tb[-1].lineno) if tb else None
        kind = (where, type(err).__name__, origin)
        if kind in self.kinds or len(self.kinds) >= self.LIMIT:
            return
        self.kinds.add(kind)
        out = self.out or sys.stderr
        print(f"parlour: {where} failed ({type(err).__name__}: {str(err)!r}); the table carries on "
              "(logged once)", file=out)
        traceback.print_exception(err, file=out)
        out.flush()


def loop(table: Table) -> None:
    """Inputs -> controller -> frames, until `table.stop` is set.

    Nothing a frame, an input or a session change raises can stop it: the fault is logged
    once (`Faults`), the last good frame stays on the OLED, and the watchdog is still fed at
    the top of every turn, so systemd never restarts the table into the same fault."""
    next_frame = 0.0
    active_until = time.monotonic() + ACTIVE_SECONDS
    while not table.stop.is_set() and not table.signalled:
        table.notifier.heartbeat()          # systemd's watchdog: this loop is still turning
        try:
            next_frame, active_until = _turn(table, next_frame, active_until)
        except Exception as err:  # noqa: BLE001 - a bug must not stop the table: log it
            table.faults.report("the main loop", err)
            next_frame = time.monotonic() + FAULT_PAUSE
            table.stop.wait(FAULT_PAUSE)    # a fault that repeats cannot spin the CPU


def _turn(table: Table, next_frame: float, active_until: float) -> tuple[float, float]:
    """One turn of the main loop: wait, poll, handle inputs, draw; (next frame, active until)."""
    controller, controls = table.controller, table.controls
    now = time.monotonic()
    busy = controls.busy
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
        try:
            if isinstance(item, InputEvent):
                controller.handle(item)
            elif isinstance(item, Alert):
                controller.show_flash(item.words, ALERT_SECONDS)
        except Exception as err:  # noqa: BLE001 - a bug must not stop the table: log it
            table.faults.report(f"handling {item!r}", err)
        try:
            item = table.inputs.get_nowait()
        except queue.Empty:
            item = None
    changed = controller.update()
    if changed and time.monotonic() >= next_frame:
        try:
            image = controller.render()
        except Exception as err:  # noqa: BLE001 - the last good frame stays on the panel
            table.faults.report(f"drawing the {controller.screen} screen", err)
            return time.monotonic() + FAULT_PAUSE, active_until
        table.display.show(image)
        if table.panel is not None:
            table.panel.publish(image)
        table.frames += 1
        next_frame = time.monotonic() + (1 / FPS if controller.animating else 0.0)
    if table.panel is not None:      # the words and state of the frame drawn, even when a new
        table.panel.publish_view(controller.view())     # state (the chances) draws the same
    return next_frame, active_until


def stop_on_signal(table: Table) -> Callable[[int, Any], None]:
    """The SIGTERM and SIGINT handler: it only raises `table.signalled`, which the main loop
    reads at its next turn (within POLL_DORMANT). A handler runs between two bytecodes of the
    main thread, which may hold the input queue's or an Event's lock just then: taking either
    from the handler would deadlock the table on its way out."""
    def stop(signum: int, frame: Any) -> None:
        table.signalled = True
    return stop


def cannot_listen(host: str, port: int, err: OSError) -> ParlourError:
    """Why the table cannot serve on `host`:`port`, with what to do (the data directory was
    named for an address not on this machine: "/var/lib/parlour: Cannot assign requested
    address")."""
    if err.errno == errno.EADDRINUSE:
        from firmware.webserver import free_port_after
        free = free_port_after(host, port)
        again = run_again(port=free or "N")
        return ParlourError(f"port {port} is already in use (another Parlour, or another "
                            f"program): choose another, " + ("e.g. " if free else "with ") +
                            make_run(again, or_parlour=True))
    if err.errno == errno.EADDRNOTAVAIL:
        return ParlourError(f"cannot listen on {host}: no address of this machine (set [web] "
                            "host, or --host, to one of its own, or 0.0.0.0 for all of them)")
    if err.errno == errno.EACCES and 0 < port < 1024:
        return ParlourError(f"port {port}: ports below 1024 need root; choose 1024 or above, "
                            "such as 8080")
    return ParlourError(f"cannot listen on {host or '0.0.0.0'}:{port} "
                        f"({err.strerror or err})")


def check_listen(host: str, port: int) -> None:
    """A table that cannot serve is refused before its data directory is made or touched (a
    refused start left a store, a PIN and keys behind)."""
    try:
        from firmware.webserver import can_listen
    except ImportError:                          # no web layer: the device runs alone
        return
    try:
        can_listen(host, port)
    except OSError as err:
        raise cannot_listen(host, port, err) from None
    except (OverflowError, ValueError) as err:    # a port out of range, a name none can be
        raise ParlourError(f"cannot listen on {host or '0.0.0.0'}:{port} ({err})") from None


CARD_FAULTS = {errno.EROFS: "The SD card is read-only", errno.ENOSPC: "The SD card is full",
               errno.EIO: "The SD card cannot be read"}


def card_words(err: OSError, name: str) -> str:
    """A failed start's reason for the OLED: the card's fault in plain words and the file
    ("The SD card is read-only (parlour.lock)"), else the system's words."""
    if err.errno in CARD_FAULTS:
        return CARD_FAULTS[err.errno] + (f" ({name})" if name else "")
    return f"{name + ': ' if name else ''}{err.strerror or err}"


def file_names(words: str) -> str:
    """A reason with each file in it named alone, as the OLED's few lines can hold it
    ("cannot open the store parlour.db: database disk image is malformed"; its whole path
    cut the reason off): the journal has the paths."""
    return re.sub(r"(?<![^\s(])/(?:[^\s/]+/)+(?=[^\s/])", "", words)


def tell_the_oled(config: Config, words: str, device=None) -> None:
    """A start that failed for the card or its files says why on the OLED, and leaves it
    there: a box whose card had gone read-only stayed dark, the reason only in the journal.
    The panel's own faults are ignored (the journal has the reason)."""
    from firmware.oled import screens
    from firmware.oled.display import Display
    try:
        display = Display(config.display, device=device)
        if display.device is not None:
            display.device.persist = True            # not blanked as the program exits
        display.show(screens.cannot_start(words))
    except Exception as err:  # noqa: BLE001 - no panel, or a panel that failed: said anyway
        print(f"parlour: the OLED could not say it ({err})", file=sys.stderr)


def run(*, sim: bool | None = None, host: str | None = None, port: int | None = None,
        data_dir: str | None = None, config_path: str | None = None,
        pin: str | None = None, open_panel: bool = False) -> int:
    """`parlour run`: returns the exit status (0 after SIGTERM/SIGINT, 2 for bad setup)."""
    data_path: Path | None = None
    config: Config | None = None
    try:
        config = load_config(config_path)
        if pin is not None and pin_problem(pin):
            raise ParlourError(f"--pin: {pin_problem(pin)}")
        if open_panel:
            config = replace(config, open_panel=True)
        if sim is None:
            sim = simulated(config)
        data_path = Path(data_dir).expanduser() if data_dir else config.data_dir
        host, port = host or config.host, config.port if port is None else port
        try:
            check_listen(host, port)
        except ParlourError:
            if data_path.is_dir():               # a second `make run`: that says how to run two
                lock_data_dir(data_path, host, port).release()
            raise
        make_data_dir(data_path)                 # before its PIN file is read or made
        table = build(sim=sim, host=host, port=port,
                      data_dir=data_path,
                      config=config, pin=pin or config.pin or stored_pin(data_path),
                      pin_kept=not (pin or config.pin))
    except ParlourError as err:
        print(f"parlour: {err}", file=sys.stderr)
        if sim is False and config is not None and isinstance(err, StoreError):
            tell_the_oled(config, file_names(str(err)))    # the store (full, unopenable)
        return 2
    except OSError as err:                  # "<file>: Permission denied", not "[Errno 13] ..."
        where = err.filename or data_path   # a write with no file named: the data directory
        print(f"parlour: {f'{where}: ' if where else ''}{err.strerror or err}", file=sys.stderr)
        if sim is False and config is not None:      # at a table the journal is out of sight
            tell_the_oled(config, card_words(err, Path(where).name if where else ""))
        return 2

    stop = stop_on_signal(table)
    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    table.notifier = Notifier()              # systemd (Type=notify, WatchdogSec), if under it
    try:
        if table.web is not None:
            table.web.start()
        mode = "simulated" if sim else "hardware"
        # The PIN goes to a person at a terminal, never into a service's journal.
        pin_note = (f"PIN {table.controller.pin}" if sys.stdout.isatty()
                    else "PIN in the box's menu")
        url = table.controller.codes.url
        print(f"parlour: table at {url} ({pin_note}), "
              f"{mode}" + (f"; the panel is at {url}device" if sim else ""),
              flush=True)
        if table.session.resumed:
            print(f"parlour: resumed {table.session.snapshot().get('title')}", flush=True)
        table.notifier.ready(status=f"serving {url}" + (
            f"; resumed {table.session.snapshot().get('title')}" if table.session.resumed
            else ""))
        loop(table)
    finally:
        table.notifier.stopping(status="stopping")
        table.close()                     # a second signal (make's, say) cannot cut it short
        table.notifier.close()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    print("parlour: stopped", flush=True)
    return 0
