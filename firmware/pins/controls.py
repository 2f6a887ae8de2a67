"""The table's buttons and knob as input events, through gpiozero (any pin factory).

Seat, Undo and Menu buttons and the knob's push switch are wired to ground with pull-ups
(pressed = low) and debounced here by time, not by gpiozero's bounce_time (MockFactory and
RotaryEncoder ignore it). The encoder's A/B edges are decoded by QUADRATURE below, so noise
and half steps never count. Every time-dependent decision reads the injected `clock`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import warnings
from collections.abc import Callable, Collection

from gpiozero import LED, Buzzer, DigitalInputDevice, GPIOZeroError, PinFactoryFallback

from companion.errors import ParlourError
from firmware.config import Config
from firmware.pins.gestures import Gestures, Tuning
from firmware.pins.inputs import InputEvent

log = logging.getLogger("parlour.controls")
DEBOUNCE = 0.03   # s: a second edge this soon after a believed change is contact bounce

# Quadrature decoding. A code is (A active << 1) | B active; active = pulled low by the
# encoder. A full detent clockwise is 00 -> 10 -> 11 -> 01 -> 00 (A leads), anticlockwise
# 00 -> 01 -> 11 -> 10 -> 00. Each row lists the next state for the new code 0, 1, 2, 3.
# "+1"/"-1" = a full cycle completed; "bad" = both lines changed at once (a lost edge);
# stepping back towards rest abandons a half step without counting it.
#
#            ┌──10──▸ cw1 ──11──▸ cw2 ──01──▸ cw3 ──00──▸ +1 ─┐
#    rest ◂──┤                                               ├──▸ rest
#            └──01──▸ ccw1 ─11──▸ ccw2 ─10──▸ ccw3 ─00──▸ -1 ─┘
#    (each arrow can also be walked back; "lost" waits for 00 after a bad transition)
QUADRATURE = {
    #        code: 00      01      10      11
    "rest": ("rest", "ccw1", "cw1", "bad"),
    "cw1": ("rest", "bad", "cw1", "cw2"),
    "cw2": ("bad", "cw3", "cw1", "cw2"),
    "cw3": ("+1", "cw3", "bad", "cw2"),
    "ccw1": ("rest", "ccw1", "bad", "ccw2"),
    "ccw2": ("bad", "ccw1", "ccw3", "ccw2"),
    "ccw3": ("-1", "bad", "ccw3", "ccw2"),
    "lost": ("rest", "lost", "lost", "lost"),
}

BEEPS = {  # pattern -> (on seconds, off seconds, count); each tells its event by ear
    "click": (0.02, 0.0, 1),        # an input was accepted
    "turn": (0.06, 0.06, 2),
    "capture": (0.04, 0.04, 4),     # a seat press was recorded (a capture, a point, a goal)
    "error": (0.35, 0.0, 1),        # a refusal: one long tone
    "win": (0.12, 0.08, 3),         # the game is won
}



def config_words(name: str) -> str:
    """A part as the config names it: "seat 1 ([pins] seats)", not "seat0" (players count
    seats from 1)."""
    for prefix, key, what in (("seat_led", "seat_leds", "'s LED"), ("seat", "seats", "")):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            return f"seat {int(name[len(prefix):]) + 1}{what} ([pins] {key})"
    return f"[pins] {name}"

class ControlsError(ParlourError, RuntimeError):
    """A pin that cannot be used (in use, absent) or an unknown beep pattern."""


class Quadrature:
    """Counts detents from A/B levels with QUADRATURE; `noise` counts rejected transitions."""

    def __init__(self) -> None:
        self.state = "rest"
        self.code = 0
        self.noise = 0

    def reset(self, code: int) -> None:
        """Start from the lines' current levels; off rest, wait for rest before counting."""
        self.code, self.state = code, "rest" if code == 0 else "lost"

    def feed(self, code: int) -> int:
        """The lines now read `code`; returns +1/-1 when that completed a detent, else 0."""
        if code == self.code:
            return 0
        self.code = code
        nxt = QUADRATURE[self.state][code]
        if nxt == "bad":
            self.noise += 1
            nxt = "rest" if code == 0 else "lost"
        if nxt in ("+1", "-1"):
            self.state = "rest"
            return int(nxt)
        self.state = nxt
        return 0


class Debounce:
    """A switch's believed level from its raw edges (and polls), by time alone.

    A change is believed at once if the last believed change is `interval` old (a press
    registers on first contact); a raw level that then stays `interval` is believed too, so a
    quick tap whose release edge fell in the bounce window is not lost.
    """

    def __init__(self, interval: float = DEBOUNCE):
        self.interval = interval
        self.level = False            # believed: True = pressed
        self.changed_at = -math.inf
        self.raw = False
        self.raw_at = -math.inf

    def update(self, raw: bool, now: float) -> list[tuple[bool, float]]:
        """Feed the pin's level at `now`; returns the believed changes (level, when)."""
        out = []
        if self.raw != self.level and now - self.raw_at >= self.interval:
            self.level, self.changed_at = self.raw, self.raw_at
            out.append((self.level, self.raw_at))
        if raw != self.raw:
            self.raw, self.raw_at = raw, now
        if raw != self.level and now - self.changed_at >= self.interval:
            self.level, self.changed_at = raw, now
            out.append((raw, now))
        return out


class Controls:
    """Seat, Undo, Menu buttons, the knob (encoder + switch), seat LEDs and buzzer.

    `on_input(InputEvent)` is called for each input, from gpiozero's callback thread or (under
    MockFactory) synchronously; the main loop calls poll() every ~10 ms while `busy`, so
    time-based gestures (a turn's end, a hold) are seen on time. `wake()` is called when an
    edge makes the controls busy (the knob's switch down, a first detent): an edge that emits
    no input must still rouse a loop asleep for its longer idle poll.
    """

    def __init__(self, config: Config, on_input: Callable[[InputEvent], None], *,
                 pin_factory=None, clock: Callable[[], float] = time.monotonic,
                 debounce: float = DEBOUNCE, tuning: Tuning | None = None,
                 wake: Callable[[], None] | None = None):
        self._on_input = on_input
        self._wake = wake
        self._clock = clock
        self._lock = threading.Lock()
        self._factory = pin_factory
        self._devices: list = []
        self._armed: frozenset[int] | None = None
        self.gestures = Gestures(tuning or Tuning())
        self.quadrature = Quadrature()
        pins = config.pins
        self.pin_map: dict[str, int] = {f"seat{i}": p for i, p in enumerate(config.seat_pins())}
        self.pin_map.update(undo=pins.undo, menu=pins.menu, encoder_a=pins.encoder_a,
                            encoder_b=pins.encoder_b, encoder_button=pins.encoder_button)
        try:
            with warnings.catch_warnings(record=True) as fallbacks:   # gpiozero's tries
                warnings.simplefilter("always", PinFactoryFallback)
                self._make_devices(config)
        except ControlsError as err:
            self.close()
            tried = "; ".join(str(w.message).removeprefix("Falling back from ")
                              for w in fallbacks if issubclass(w.category, PinFactoryFallback))
            if not tried:
                raise
            raise ControlsError(f"{err} (tried {tried}): on a Raspberry Pi, install its GPIO "
                                "library (python3-lgpio); elsewhere hardware = \"auto\" or "
                                "--sim simulates the box") from None
        for found in fallbacks:                  # a Pi that fell back from one library to
            log.warning("controls: %s", found.message)     # another: said once, in words
        self._debounce = {name: Debounce(debounce) for name in self._buttons}
        self.held_at_start = [name for name, button in self._buttons.items() if button.is_active]
        for name in self.held_at_start:        # not a press: it must be let go first
            held = self._debounce[name]
            held.level = held.raw = True
            log.warning("controls: %s (BCM %d) reads pressed at start: not counted until it is "
                        "let go; check it is wired to the switch's normally open contact",
                        name, self.pin_map[name])
        for name, button in self._buttons.items():
            button.when_activated = lambda name=name: self._button(name, True)
            button.when_deactivated = lambda name=name: self._button(name, False)
        self._a.when_activated = lambda: self._line(0b10, True)
        self._a.when_deactivated = lambda: self._line(0b10, False)
        self._b.when_activated = lambda: self._line(0b01, True)
        self._b.when_deactivated = lambda: self._line(0b01, False)
        self.quadrature.reset((self._a.is_active << 1) | self._b.is_active)

    def held_at_start_words(self) -> str:
        """What the OLED says of switches that read pressed as the box started ("" if none):
        each is not counted until let go, so a stuck Undo cannot take back a resumed move."""
        if not self.held_at_start:
            return ""
        names = [f"Seat {int(n[4:]) + 1}" if n.startswith("seat") else
                 "The knob" if n == "encoder_button" else n.capitalize()
                 for n in self.held_at_start]
        pins = ", ".join(f"BCM {self.pin_map[n]}" for n in self.held_at_start)
        return (f"{' and '.join(names)} read pressed at start ({pins}): not counted until let "
                "go. Check the wiring (normally open).")

    def _make_devices(self, config: Config) -> None:
        # DigitalInputDevice, not Button: holds are timed here by `clock`, and Button's
        # hold thread would wake 10 times a second per button (and take 0.1 s to close).
        pins = config.pins
        self._buttons = {name: self._make(DigitalInputDevice, name, pin, pull_up=True)
                         for name, pin in self.pin_map.items()
                         if not name.startswith("encoder_") or name == "encoder_button"}
        self._a = self._make(DigitalInputDevice, "encoder_a", pins.encoder_a, pull_up=True)
        self._b = self._make(DigitalInputDevice, "encoder_b", pins.encoder_b, pull_up=True)
        self.leds = [self._make(LED, f"seat_led{i}", p)
                     for i, p in enumerate(config.seat_led_pins())]
        self.buzzer = (self._make(Buzzer, "buzzer", pins.buzzer)
                       if pins.buzzer is not None else None)

    def _make(self, cls, name: str, pin: int, **options):
        try:
            device = cls(pin, pin_factory=self._factory, **options)
        except (GPIOZeroError, OSError) as err:
            raise ControlsError(f"cannot use BCM {pin} for {config_words(name)}: {err}") \
                from None
        self._devices.append(device)
        return device

    def arm(self, seats: Collection[int] | None) -> None:
        """Only these seat buttons count (None = all, for joining); others emit "ignored"."""
        self._armed = None if seats is None else frozenset(seats)

    def light(self, seats: Collection[int]) -> None:
        """Light exactly these seats' LEDs (no-op without LEDs)."""
        for seat, led in enumerate(self.leds):
            led.value = seat in seats

    @property
    def lit(self) -> frozenset[int]:
        return frozenset(seat for seat, led in enumerate(self.leds) if led.is_lit)

    def beep(self, pattern: str = "click") -> None:
        """Sound a pattern from BEEPS in the background (no-op without a buzzer)."""
        if pattern not in BEEPS:
            raise ControlsError(f"unknown beep pattern {pattern!r} (known: {', '.join(BEEPS)})")
        if self.buzzer is not None:
            on, off, n = BEEPS[pattern]
            self.buzzer.beep(on_time=on, off_time=off or on, n=n, background=True)

    @property
    def busy(self) -> bool:
        """Whether time alone will complete a gesture: a burst of steps (or a flick's coast)
        under way, or the knob's switch down (a hold to come)."""
        return self.gestures.state != "idle" or self.gestures.switch != "up"

    def poll(self) -> None:
        """Let time pass: end a quiet turn or flick, report a hold, settle bouncy buttons."""
        events: list[InputEvent] = []
        with self._lock:
            now = self._clock()
            for name, button in self._buttons.items():
                events += self._changes(name, self._debounce[name].update(button.is_active, now))
            events += self.gestures.poll(now)
        self._emit(events)

    def close(self) -> None:
        """Turn the seat lights and the buzzer off, then release every pin (safe to call
        twice): a pin released while driven high is left as it was (a lit LED, a sounding
        buzzer) or, on a Pi, floating under its transistor."""
        for output in self._devices:
            if isinstance(output, (LED, Buzzer)):
                output.off()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- callbacks (any thread) --

    def _button(self, name: str, pressed: bool) -> None:
        with self._lock:
            was_busy = self.busy
            now = self._clock()
            events = self._changes(name, self._debounce[name].update(pressed, now))
            woken = self.busy and not was_busy
        self._emit(events, woken)

    def _line(self, bit: int, active: bool) -> None:
        with self._lock:
            was_busy = self.busy
            code = (self.quadrature.code | bit) if active else (self.quadrature.code & ~bit)
            step = self.quadrature.feed(code)
            events = self.gestures.step(step, self._clock()) if step else []
            woken = self.busy and not was_busy
        self._emit(events, woken)

    def _changes(self, name: str, changes: list[tuple[bool, float]]) -> list[InputEvent]:
        events: list[InputEvent] = []
        for pressed, at in changes:
            if name == "encoder_button":
                events += self.gestures.down(at) if pressed else self.gestures.up(at)
            elif pressed and name.startswith("seat"):
                seat = int(name[4:])
                armed = self._armed is None or seat in self._armed
                events.append(InputEvent("seat" if armed else "ignored", seat=seat))
            elif pressed:
                events.append(InputEvent(name))
        return events

    def _emit(self, events: list[InputEvent], woken: bool = False) -> None:
        for event in events:
            self._on_input(event)
        if woken and self._wake is not None:
            self._wake()
