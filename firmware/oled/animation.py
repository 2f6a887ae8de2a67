"""The spin on the OLED: arrows or dice that slow down and stop on the committed result.

The result is already drawn from the roll stream when the animation starts; the flick's
strength only sets how long and how far things spin. Each arrow turns with a constant
deceleration (angle = end - travel * (1 - u)^2, u = elapsed / duration), so it stops exactly on
its value. Time comes from an injected clock; the main loop asks for frames.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from firmware.oled.views import SpinFrame

FPS = 30
MIN_SECONDS, MAX_SECONDS = 0.8, 3.0
MIN_STRENGTH = 0.05
REMOTE_STRENGTH = 0.5          # a roll made elsewhere (a phone) spins as a middling flick
TAU = 2 * math.pi
LANDED_AT = 0.75               # of the spin: the dice's last change of face, then they rest


def duration_for(strength: float) -> float:
    """Seconds of spin for a flick of `strength` in (0, 1]: a harder flick spins longer."""
    strength = min(1.0, max(0.0, strength))
    return MIN_SECONDS + (MAX_SECONDS - MIN_SECONDS) * strength


def spin_seconds(strength: float) -> float:
    """How long an `Animation` of a flick of `strength` spins (the phone reveals the roll then)."""
    return duration_for(min(1.0, max(MIN_STRENGTH, strength)))


def sector_angle(value: int, faces: int) -> float:
    """Where an arrow points to show `value`: the middle of its sector, clockwise from top."""
    return (value - 0.5) / faces * TAU


class Animation:
    """One spin. `frame()` is the picture now; `done` once it has stopped; `skip()` stops it."""

    def __init__(self, randomizer: dict[str, Any] | None, values: Sequence[int], *,
                 strength: float, name: str = "", clock: Callable[[], float] = time.monotonic):
        randomizer = randomizer or {"kind": "dice", "count": len(values), "faces": 6}
        self.kind = randomizer.get("kind", "dice")
        self.faces = int(randomizer.get("faces", 6))
        self.labels = tuple(str(x) for x in randomizer.get("labels", ()))
        self.values = tuple(values)
        self.name = name
        self.strength = min(1.0, max(MIN_STRENGTH, strength))
        self.duration = spin_seconds(self.strength)
        self._clock = clock
        self.started = clock()
        self._skipped = False
        # Whole turns each arrow travels: the second arrow runs the other way, a little slower.
        turns = 1.5 + 4.5 * self.strength
        self._travel = tuple((turns + 0.6 * i) * (-1 if i % 2 else 1) * TAU
                             for i in range(len(self.values)))
        self._tumbles = int(6 + 18 * self.strength)   # face changes of a die before it settles

    def progress(self, now: float | None = None) -> float:
        """0 at the flick, 1 when stopped."""
        if self._skipped:
            return 1.0
        elapsed = (self._clock() if now is None else now) - self.started
        return min(1.0, max(0.0, elapsed / self.duration))

    @property
    def done(self) -> bool:
        return self.progress() >= 1.0

    def skip(self) -> None:
        """A press during the spin: straight to the result."""
        self._skipped = True

    def frame(self, now: float | None = None) -> SpinFrame:
        u = self.progress(now)
        left = (1.0 - u) ** 2                      # fraction of the travel still to go
        angles = tuple(sector_angle(v, self.faces) - travel * left
                       for v, travel in zip(self.values, self._travel))
        if self.kind == "dice":
            # they tumble ever slower and land with a quarter of the spin still to run: the
            # dice are seen to rest on the roll (they showed the faces before it until the
            # result screen took over, and the box seemed to change the throw)
            landed = 1.0 - (1.0 - min(1.0, u / LANDED_AT)) ** 2
            done_tumbles = int(self._tumbles * landed)
            up = tuple(self._face(v, i, self._tumbles - done_tumbles)
                       for i, v in enumerate(self.values))
        else:
            up = tuple(self._pointing(a) for a in angles)
        shown = tuple(self.labels[v - 1] if self.labels else str(v) for v in self.values)
        return SpinFrame(self.kind, self.faces, self.name, angles, up, shown, u >= 1.0,
                         self.labels)

    def _face(self, value: int, die: int, to_go: int) -> int:
        """The face a tumbling die shows with `to_go` changes left; the value at 0."""
        if to_go <= 0 or self.faces < 2:
            return value
        step = 1 + (to_go * 7 + die * 3 + to_go * to_go) % (self.faces - 1)
        return (value - 1 + step) % self.faces + 1

    def _pointing(self, angle: float) -> int:
        return int((angle % TAU) / TAU * self.faces) % self.faces + 1
