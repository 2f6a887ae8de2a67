"""Input to screen: from a mock pin edge to the frame handed to the display.

The real pieces, built as firmware.runner.build builds them but in-process: gpiozero
MockFactory pins -> Controls (debounce, quadrature, gestures) -> the input queue ->
Controller.handle (session: rules, SQLite commit) -> Controller.render -> Display.show on
luma's real ssd1306 driver over a recording serial interface (page updates, bytes counted).

Cases (each timed with perf_counter, time for the controls is a fake clock moved by hand):
  seat_flash    the armed seat pressed while a throw is awaited: "Flick the knob to throw"
  seat_capture  Cats and Mice: the spinner's seat button records a capture (an event stored)
  flick         Cats and Dogs: the last encoder edge of a flick to the spin's first frame.
                A flick is only known once the knob has been quiet for Tuning.settle
                (120 ms, by design): that wait is left out and reported apart.
  seat_threaded seat_flash through runner.loop on its own thread, as `parlour run` has it:
                the edge comes from another thread, the loop wakes on the queue.
  knob_resting  the knob on a table at rest, the loop on its own thread and the controls on
                the real clock, idle (POLL_IDLE) and dormant (POLL_DORMANT, ACTIVE_SECONDS
                quiet): how late past its threshold the controller gets a hold (switch down
                for Tuning.hold_time), a one-detent turn (quiet for Tuning.settle) and a quick
                tap let go inside the debounce interval (believed DEBOUNCE after the press).
                Each touch comes at a random moment of the loop's sleep.
"""

from __future__ import annotations

import json
import queue
import random
import tempfile
import threading
import time
from pathlib import Path

import common
from common import RecordingSerial, luma_device, summary
from fakes import FakeClock  # noqa: E402  (tests/ is on the path once common is imported)
from companion.session import Session
from companion.record.store import Store
from firmware import runner
from firmware.config import Config, DisplayConfig
from firmware.controller import Controller
from firmware.pins.controls import DEBOUNCE, Controls
from firmware.oled.display import Display
from firmware.pins.gestures import Tuning
from firmware.pins.inputs import InputEvent

SEED = bytes(range(32))
FLICK_DETENTS = 12
FLICK_STEP = 0.004             # s per detent, as the simulator's flick


class Rig:
    """Controls, display, session and controller wired as runner.build wires them."""

    def __init__(self, data_dir: Path, clock=None):
        from gpiozero.pins.mock import MockFactory
        self.config = Config()
        self.clock = clock or FakeClock()
        self.factory = MockFactory()
        self.inputs: queue.Queue = queue.Queue()
        self.controls = Controls(self.config, self.inputs.put, pin_factory=self.factory,
                                 clock=self.clock, wake=lambda: self.inputs.put(runner.WAKE))
        self.serial = RecordingSerial()
        self.display = Display(DisplayConfig(), device=luma_device(self.serial),
                               clock=self.clock)
        self.store = Store(data_dir / "parlour.db")
        self.session = Session(self.store, new_seed=lambda: SEED,
                               clock=lambda: "2025-01-01T12:00:00Z")
        self.controller = Controller(self.session, controls=self.controls,
                                     seats=self.config.seats, url="http://127.0.0.1:8080/",
                                     pin="1234", clock=self.clock)
        self.controller.wake = lambda: self.inputs.put(runner.WAKE)
        self.controller.attach()
        self.pins = {name: self.factory.pin(number)
                     for name, number in self.controls.pin_map.items()}
        self.step()

    def close(self) -> None:
        self.controller.close()
        self.controls.close()
        self.display.close()
        self.store.close()
        self.factory.reset()

    def step(self) -> dict[str, float] | None:
        """One pass of runner.loop's body; the times its parts ended, if a frame was shown."""
        self.controls.poll()
        marks: dict[str, float] = {}
        while True:
            try:
                item = self.inputs.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, InputEvent):
                self.controller.handle(item)
        marks["handled"] = time.perf_counter()
        if not self.controller.update():
            return None
        image = self.controller.render()
        marks["rendered"] = time.perf_counter()
        self.display.show(image)
        marks["shown"] = time.perf_counter()
        return marks

    def settle(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.step()

    def new_game(self, game: str, players: int) -> None:
        self.session.new_game(game, [f"P{i + 1}" for i in range(players)], by="bench")
        self.step()

    def tap(self, name: str) -> tuple[float, dict | None]:
        """Press a button (edge timed); returns (edge time, frame marks); then release it."""
        pin = self.pins[name]
        self.clock.advance(0.05)
        start = time.perf_counter()
        pin.drive_low()
        marks = self.step()
        self.clock.advance(0.05)
        pin.drive_high()
        self.step()
        return start, marks

    def flick(self) -> tuple[float, dict | None]:
        """Quadrature edges of a fast clockwise turn; the last edge is timed."""
        a, b = self.pins["encoder_a"], self.pins["encoder_b"]
        edges = [(a, True), (b, True), (a, False), (b, False)] * FLICK_DETENTS
        start = 0.0
        for index, (pin, low) in enumerate(edges):
            self.clock.advance(FLICK_STEP / 4)
            if index == len(edges) - 1:
                start = time.perf_counter()
            pin.drive_low() if low else pin.drive_high()
        edge_done = time.perf_counter()
        self.clock.advance(Tuning().settle + 0.001)      # the designed wait: not timed
        settle_cost = edge_done - start
        before = time.perf_counter()
        marks = self.step()
        if marks is not None:
            for key in marks:
                marks[key] -= before - edge_done         # remove the untimed gap
        return start, marks and {**marks, "edge_cost": settle_cost}

    def armed_button(self) -> str:
        turn = self.controller.snap.get("turn")
        return f"seat{self.controller.buttons[turn]}"


def _record(samples: dict[str, list[float]], start: float, marks: dict | None,
            serial: RecordingSerial, bus: list[float]) -> None:
    if marks is None:
        samples.setdefault("missed", []).append(1)
        return
    samples.setdefault("total", []).append(marks["shown"] - start)
    samples.setdefault("input+handle", []).append(marks["handled"] - start)
    samples.setdefault("render", []).append(marks["rendered"] - marks["handled"])
    samples.setdefault("show", []).append(marks["shown"] - marks["rendered"])
    bus.append(serial.bus_seconds())


def seat_flash(rig: Rig, n: int) -> dict:
    rig.new_game("kat-en-muis", 2)
    samples: dict[str, list[float]] = {}
    bus: list[float] = []
    for i in range(n):
        if rig.controller.snap.get("phase") == "over":
            rig.new_game("kat-en-muis", 2)
        rig.serial.reset()
        start, marks = rig.tap(rig.armed_button())
        _record(samples, start, marks, rig.serial, bus)
        rig.settle(1.5)                                  # the flash goes
    return _result(samples, bus, rig)


def seat_capture(rig: Rig, n: int) -> dict:
    rig.new_game("cats-and-mice", 2)
    samples: dict[str, list[float]] = {}
    bus: list[float] = []
    for _ in range(n):
        snap = rig.controller.snap
        if snap.get("phase") == "over":
            rig.new_game("cats-and-mice", 2)
            snap = rig.controller.snap
        if snap.get("awaiting") == "next" and rig.session.state.data.get("presses", 0) >= 2:
            rig.session.submit({"type": "next"}, by="bench")
            rig.step()
        if rig.controller.snap.get("awaiting") == "roll":
            rig.session.roll(by="bench")
            rig.step()
            rig.settle(4.0)                               # the spin ends
            rig.settle(7.0)                               # the result times out
        if rig.controller.snap.get("awaiting") != "next":
            continue
        version = rig.session.version
        rig.serial.reset()
        start, marks = rig.tap(rig.armed_button())
        if rig.session.version == version:
            raise RuntimeError(f"the capture was not recorded: {rig.controller.view()}")
        _record(samples, start, marks, rig.serial, bus)
    return _result(samples, bus, rig)


def flick(rig: Rig, n: int) -> dict:
    rig.new_game("cats-and-dogs", 2)
    samples: dict[str, list[float]] = {}
    bus: list[float] = []
    edge: list[float] = []
    for _ in range(n):
        if rig.controller.snap.get("phase") == "over":
            rig.new_game("cats-and-dogs", 2)
        rolls = rig.session.state.rolls
        rig.serial.reset()
        start, marks = rig.flick()
        if rig.session.state.rolls != rolls + 1 or rig.controller.screen != "spin":
            raise RuntimeError(f"the flick did not spin: {rig.controller.view()}")
        _record(samples, start, marks, rig.serial, bus)
        if marks:
            edge.append(marks["edge_cost"])
        rig.settle(4.0)                                   # the spin ends (coast too)
        rig.settle(7.0)                                   # the result times out
    out = _result(samples, bus, rig)
    out["designed_wait_ms"] = {"settle": Tuning().settle * 1000,
                               "poll_busy": runner.POLL_BUSY * 1000}
    return out


def seat_threaded(data_dir: Path, n: int) -> dict:
    """seat_flash with runner.loop on its own thread; edges driven from this one."""
    rig = Rig(data_dir)
    rig.new_game("kat-en-muis", 2)
    shown = threading.Event()
    real_show = rig.display.show
    stamps: list[float] = []

    class TimedDisplay:
        def show(self, image):
            real_show(image)
            stamps.append(time.perf_counter())
            shown.set()

        def poll(self):
            rig.display.poll()

    table = runner.Table(rig.config, rig.session, rig.store, rig.controls, TimedDisplay(),
                         rig.controller, rig.inputs)
    loop = threading.Thread(target=runner.loop, args=(table,), name="loop", daemon=True)
    loop.start()
    totals: list[float] = []
    try:
        time.sleep(0.2)
        for _ in range(n):
            button = rig.pins[rig.armed_button()]
            rig.clock.advance(1.5)                        # past debounce and the last flash
            time.sleep(0.02)                              # the loop has drawn and sleeps
            shown.clear()
            del stamps[:]
            start = time.perf_counter()
            button.drive_low()
            if not shown.wait(2.0):
                raise RuntimeError("no frame after a seat press")
            totals.append(stamps[0] - start)
            rig.clock.advance(0.05)
            button.drive_high()
    finally:
        table.stop.set()
        rig.inputs.put(runner.WAKE)
        loop.join(5)
        rig.close()
    return {"total_ms": summary(totals, 1000)}


def knob_resting(data_dir: Path, n: int) -> dict:
    """Holds, turns and quick taps of the knob through runner.loop on its own thread, idle and
    dormant; each figure is ms past the moment the gesture could first be known."""
    out = {}
    saved = runner.ACTIVE_SECONDS
    try:
        for rest, quiet in (("idle", 1e9), ("dormant", 0.0)):
            runner.ACTIVE_SECONDS = quiet              # dormant at once: no two quiet minutes
            out[rest] = _knob_resting(data_dir / rest, n)
    finally:
        runner.ACTIVE_SECONDS = saved
    out["designed_wait_ms"] = {"hold": Tuning().hold_time * 1000,
                               "settle": Tuning().settle * 1000, "debounce": DEBOUNCE * 1000,
                               "poll_busy": runner.POLL_BUSY * 1000}
    return out


def _knob_resting(data_dir: Path, n: int) -> dict:
    rig = Rig(data_dir, clock=time.monotonic)
    seen: list[tuple[str, float]] = []
    handle = rig.controller.handle
    rig.controller.handle = lambda item: (seen.append((item.kind, time.monotonic())),
                                          handle(item))[1]
    table = runner.Table(rig.config, rig.session, rig.store, rig.controls, rig.display,
                         rig.controller, rig.inputs)
    loop = threading.Thread(target=runner.loop, args=(table,), name="loop", daemon=True)
    pins = rig.pins
    a, b, knob = pins["encoder_a"], pins["encoder_b"], pins["encoder_button"]

    def late(kind: str, since: float, due: float) -> float:
        deadline = since + 3.0
        while time.monotonic() < deadline:
            for what, at in seen:
                if what == kind and at >= since:
                    return at - due
            time.sleep(0.001)
        raise RuntimeError(f"no {kind} from the knob: {rig.controller.view()}")

    holds: list[float] = []
    turns: list[float] = []
    taps: list[float] = []
    loop.start()
    try:
        time.sleep(0.3)
        for _ in range(n):
            time.sleep(random.uniform(0.3, 0.6))       # a random moment of the loop's sleep
            seen.clear()
            down = time.monotonic()
            knob.drive_low()
            holds.append(late("hold", down, down + Tuning().hold_time))
            knob.drive_high()
            time.sleep(random.uniform(0.5, 0.8))       # past the coast time too
            seen.clear()
            for pin, low in ((a, True), (b, True), (a, False), (b, False)):
                time.sleep(0.005)
                pin.drive_low() if low else pin.drive_high()
            edge = time.monotonic()
            turns.append(late("turn", edge, edge + Tuning().settle))
            time.sleep(random.uniform(0.5, 0.8))
            seen.clear()
            down = time.monotonic()
            knob.drive_low()
            time.sleep(0.015)
            knob.drive_high()
            taps.append(late("press", down, down + DEBOUNCE))
    finally:
        table.stop.set()
        rig.inputs.put(runner.WAKE)
        loop.join(5)
        rig.close()
    return {"hold_late_ms": summary(holds, 1000), "turn_late_ms": summary(turns, 1000),
            "quick_tap_late_ms": summary(taps, 1000)}


def _result(samples: dict[str, list[float]], bus: list[float], rig: Rig) -> dict:
    out = {f"{k}_ms": summary(v, 1000) for k, v in samples.items() if k != "missed"}
    out["missed_frames"] = len(samples.get("missed", []))
    out["bus_ms_of_frame"] = summary(bus, 1000)
    return out


def run(quick: bool = False) -> dict:
    n = 60 if quick else 200
    out = {}
    with tempfile.TemporaryDirectory(prefix="parlour-bench-") as tmp:
        for name, case in (("seat_flash", seat_flash), ("seat_capture", seat_capture),
                           ("flick", flick)):
            rig = Rig(Path(tmp) / name)
            try:
                out[name] = case(rig, n)
            finally:
                rig.close()
        out["seat_threaded"] = seat_threaded(Path(tmp) / "threaded", n // 2)
        out["knob_resting"] = knob_resting(Path(tmp) / "knob", 12 if quick else 40)
    out["budget"] = {"full_frame_ms": round(common.LUMA_FRAME_SECONDS * 1000, 2),
                     "goal_ms": round(common.LUMA_FRAME_SECONDS * 1000 / 5, 2)}
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
