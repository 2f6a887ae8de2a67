"""The simulated table: the web page's buttons and knob drive MockFactory pins.

Panel inputs go through gpiozero, the debouncing, the quadrature decoder and the gestures
exactly as the real pins do. Time is a `SimClock` the panel can move forward, so a knob turn
looks slow, a flick fast and a hold lasts a second, without anyone waiting for real.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageOps

from companion.checks import is_whole

MAX_DETENTS = 60
SCALE = 4
LIT, DARK = (120, 200, 255), (4, 10, 24)       # a blue OLED
PRESS_SECONDS = 0.08                          # a finger on a button
TURN_STEP = 0.06                               # s per detent: slow, a "turn"
FLICK_STEP = 0.004                             # s per detent: fast, a "flick"
HOLD_SECONDS = 1.2
QUIET_SECONDS = 0.5                            # past the gesture settle and coast times


class SimClock:
    """Monotonic time plus an offset the simulator advances (`advance`) to skip waiting."""

    def __init__(self, base: Callable[[], float] = time.monotonic):
        self._base = base
        self._offset = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._base() + self._offset

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._offset += seconds


def _number(payload: dict[str, Any], key: str, low: int, high: int, default: int | None) -> int:
    value = payload.get(key, default)
    if not is_whole(value) or not low <= value <= high:
        raise ValueError(f"'{key}' must be a whole number from {low} to {high}, not {value!r}")
    return value


class SimPanel:
    """web's DevicePanel: `handle_input` moves the mock pins, `screen_png` shows the frame."""

    def __init__(self, factory, pin_map: dict[str, int], clock: SimClock, *,
                 poll: Callable[[], None] | None = None, leds: Sequence[int] = ()):
        self.factory = factory
        self.pin_map = pin_map
        self.leds = tuple(leds)                 # the seat LEDs' pins, seat 0's first
        self.clock = clock
        self.poll = poll or (lambda: None)      # Controls.poll: let the gestures see time pass
        self.seats = sum(1 for name in pin_map if name.startswith("seat"))
        self._lock = threading.Lock()           # one hand on the panel at a time
        self._frame = Image.new("1", (128, 64))
        self._png: bytes | None = None
        self._version = 0
        self._view: dict[str, Any] = {}
        self._frame_lock = threading.Lock()

    # -- input ------------------------------------------------------------------------------

    def handle_input(self, payload: dict) -> dict:
        """Act out one panel input on the pins; ValueError (for people) if it makes no sense."""
        if not isinstance(payload, dict):
            raise ValueError("an input is a JSON object such as {\"input\": \"seat\", \"seat\": 0}")
        kind = payload.get("input")
        with self._lock:
            self._forget_history()
            if kind == "seat":
                seat = _number(payload, "seat", 0, self.seats - 1, None)
                self._tap(f"seat{seat}")
                return {"ok": True, "input": "seat", "seat": seat}
            if kind in ("undo", "menu"):
                self._tap(kind)
                return {"ok": True, "input": kind}
            if kind == "knob":
                return self._knob(payload)
        raise ValueError(f"unknown input {kind!r}: use seat, knob, undo or menu")

    def _knob(self, payload: dict[str, Any]) -> dict[str, Any]:
        action = payload.get("action")
        if action == "press":
            self._tap("encoder_button")
        elif action == "hold":
            pin = self._pin("encoder_button")
            pin.drive_low()
            self._wait(HOLD_SECONDS)
            pin.drive_high()
            self._wait(PRESS_SECONDS)
        elif action in ("turn", "flick"):
            default = 1 if action == "turn" else 12
            detents = _number(payload, "detents", -MAX_DETENTS, MAX_DETENTS, default)
            if detents == 0:
                raise ValueError("'detents' must not be 0")
            if action == "flick" and abs(detents) < 4:
                raise ValueError("a flick needs at least 4 detents")
            self._rotate(detents, TURN_STEP if action == "turn" else FLICK_STEP)
            self._wait(QUIET_SECONDS)
        else:
            raise ValueError(f"unknown knob action {action!r}: use press, hold, turn or flick")
        out = {"ok": True, "input": "knob", "action": action}
        if action in ("turn", "flick"):
            out["detents"] = detents
        return out

    def _forget_history(self) -> None:
        """MockPin records every state change for test assertions; a long-running simulator
        would grow without bound, so keep only the present state."""
        for number in (*self.pin_map.values(), *self.leds):
            self.factory.pin(number).clear_states()

    def _pin(self, name: str):
        return self.factory.pin(self.pin_map[name])

    def _wait(self, seconds: float) -> None:
        """Let `seconds` pass on the simulated clock and let the controls notice."""
        self.clock.advance(seconds)
        self.poll()

    def _tap(self, name: str) -> None:
        pin = self._pin(name)
        pin.drive_low()
        self._wait(PRESS_SECONDS)
        pin.drive_high()
        self._wait(PRESS_SECONDS)

    def _rotate(self, detents: int, step: float) -> None:
        """Quadrature edges, A leading for clockwise (pulled low = active)."""
        a, b = self._pin("encoder_a"), self._pin("encoder_b")
        lines = (a, b) if detents > 0 else (b, a)
        for _ in range(abs(detents)):
            for pin, low in ((lines[0], True), (lines[1], True), (lines[0], False),
                             (lines[1], False)):
                self.clock.advance(step / 4)
                pin.drive_low() if low else pin.drive_high()

    # -- output -----------------------------------------------------------------------------

    def lit_seats(self) -> list[int]:
        """The seat buttons whose LED is on: read from the LED pins, as a player would see."""
        return [seat for seat, number in enumerate(self.leds)
                if self.factory.pin(number).state]

    def publish_view(self, view: dict[str, Any]) -> None:
        """What the screen shows in words and which state it was drawn from (the runner hands
        it over whenever the controller takes in a change, even one that draws the same)."""
        with self._frame_lock:
            self._view = view

    def publish(self, image: Image.Image) -> None:
        """The runner hands over every frame it shows; a different one bumps the version."""
        with self._frame_lock:
            if image.tobytes() != self._frame.tobytes():
                self._frame = image.copy()
                self._png = None
                self._version += 1

    def screen_png(self) -> bytes:
        """The current frame, x4, lit pixels blue on near-black like the OLED."""
        with self._frame_lock:
            if self._png is None:
                grey = self._frame.convert("L").resize(
                    (self._frame.width * SCALE, self._frame.height * SCALE), Image.NEAREST)
                out = io.BytesIO()
                ImageOps.colorize(grey, DARK, LIT).save(out, format="PNG")
                self._png = out.getvalue()
            return self._png

    def screen_version(self) -> int:
        with self._frame_lock:
            return self._version

    def screen_view(self) -> dict[str, Any]:
        """What the frame on the screen says and the state it was drawn from."""
        with self._frame_lock:
            return dict(self._view)
