"""What a hand did with the knob, from the encoder's detent steps and the push switch's edges.

Pure: every call carries its own timestamp (seconds, any monotonic origin), nothing reads a
clock, so the same steps always give the same gestures. Two small state machines:

Steps come in bursts; a burst ends after `settle` seconds without a step and is then
classified by BURSTS (first matching row wins)::

    jitter   steps that mostly cancel out (|net| < jitter_ratio * count)   -> nothing
    flick    >= flick_steps steps, peak rate >= flick_rate steps/s          -> "flick", strength
    turn     anything else with a net movement                              -> "turn", detents

    idle ──step──▸ burst ──quiet: classify──▸ idle ──flicked──▸ coast ──still──▸ idle
                   ▴   │                                       ▴   │
                   └───┘ step: kept                            └───┘ step: swallowed (the
                                                                     heavy knob running on)

    quiet = `settle` seconds without a step, or the switch closing (a turn then a quick
    press is the turn, then the press); still = `coast_time` seconds without one.

The switch: a release before `hold_time` is a "press"; being held `hold_time` is a "hold"
(once, while still held; the release after it says nothing more). A detent while it is closed
is no step (the shaft wobbles as it is pushed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware.pins.inputs import InputEvent


@dataclass(frozen=True)
class Tuning:
    """Thresholds, in seconds and steps (detents); defaults suit an EC11 with a heavy knob."""
    settle: float = 0.12         # quiet time that ends a burst of steps
    flick_steps: int = 4         # a flick has at least this many steps...
    flick_rate: float = 30.0     # ...and reaches this rate (steps/s) over flick_steps steps
    full_rate: float = 150.0     # peak rate that alone gives half the full strength
    full_steps: int = 40         # steps that alone give half the full strength
    jitter_ratio: float = 0.5    # |net| below this share of the steps: back-and-forth, ignored
    coast_time: float = 0.4      # after a flick, steps until this quiet time are its run-on
    hold_time: float = 1.0       # the switch held this long opens the menu


@dataclass(frozen=True)
class Burst:
    """One run of steps: each (direction +1/-1, time)."""
    steps: tuple[tuple[int, float], ...]

    @property
    def count(self) -> int:
        return len(self.steps)

    @property
    def net(self) -> int:
        return sum(d for d, _ in self.steps)

    def peak_rate(self, window: int) -> float:
        """The fastest rate (steps/s) over any `window` consecutive steps; 0 if too few."""
        times = [t for _, t in self.steps]
        if len(times) < max(window, 2):
            return 0.0
        spans = (times[i + window - 1] - times[i] for i in range(len(times) - window + 1))
        return (window - 1) / max(min(spans), 1e-4)


def _strength(burst: Burst, tuning: Tuning) -> float:
    """Half from the peak rate, half from the number of steps; always in (0, 1]."""
    rate = min(1.0, burst.peak_rate(tuning.flick_steps) / tuning.full_rate)
    count = min(1.0, burst.count / tuning.full_steps)
    return max(0.01, round(0.5 * rate + 0.5 * count, 3))


BURSTS: tuple[tuple[str, Callable[[Burst, Tuning], bool]], ...] = (
    ("jitter", lambda b, t: abs(b.net) < t.jitter_ratio * b.count),
    ("flick", lambda b, t: b.count >= t.flick_steps
        and b.peak_rate(t.flick_steps) >= t.flick_rate),
    ("turn", lambda b, t: b.net != 0),
)


def classify(burst: Burst, tuning: Tuning = Tuning()) -> InputEvent | None:
    """The gesture a finished burst of steps was, or None for jitter."""
    kind = next((name for name, test in BURSTS if test(burst, tuning)), "jitter")
    if kind == "flick":
        return InputEvent("flick", detents=burst.net, strength=_strength(burst, tuning))
    if kind == "turn":
        return InputEvent("turn", detents=burst.net)
    return None


# (state, event) -> (next state, what to do). Events: "step"; "quiet" (settle time passed);
# "flicked" (the burst just classified was a flick); "still" (coast time passed).
# Pairs not listed leave the state as it is and do nothing.
STEPS = {
    ("idle", "step"): ("burst", "start"),
    ("burst", "step"): ("burst", "add"),
    ("burst", "quiet"): ("idle", "classify"),
    ("idle", "flicked"): ("coast", None),
    ("coast", "step"): ("coast", None),
    ("coast", "still"): ("idle", None),
}

# (state, event) -> (next state, input kind to emit). Events: "down", "up", "long".
SWITCH = {
    ("up", "down"): ("down", None),
    ("down", "up"): ("up", "press"),
    ("down", "long"): ("held", "hold"),
    ("held", "up"): ("up", None),
}


@dataclass
class Gestures:
    """Feeds steps and switch edges through STEPS and SWITCH; each call returns new inputs."""
    tuning: Tuning = field(default_factory=Tuning)
    state: str = "idle"
    switch: str = "up"
    _steps: list[tuple[int, float]] = field(default_factory=list)
    _last_step: float = 0.0
    _down_at: float = 0.0

    def step(self, direction: int, at: float) -> list[InputEvent]:
        """One detent, +1 clockwise or -1 anticlockwise, completed at time `at`. None while
        the switch is closed: the shaft wobbles a detent as it is pushed (a turn taken before
        the press made the move next to the one on the screen)."""
        out = self.poll(at)
        if self.switch != "up":
            return out
        action = self._feed("step")
        if action == "start":
            self._steps = []
        if action in ("start", "add"):
            self._steps.append((1 if direction > 0 else -1, at))
        self._last_step = at
        return out

    def down(self, at: float) -> list[InputEvent]:
        """The push switch closed: a burst of steps still open ends here, before the press
        (a turn then a quick press came as the press, then the turn: the old pick was made)."""
        out = self.poll(at) + self._end_burst()
        if (self.switch, "down") in SWITCH:
            self._down_at = at
        return out + self._switch("down")

    def up(self, at: float) -> list[InputEvent]:
        """The push switch opened."""
        return self.poll(at) + self._switch("up")

    def poll(self, now: float) -> list[InputEvent]:
        """Gestures that time alone completes: a burst gone quiet, a switch held long enough."""
        out: list[InputEvent] = []
        quiet = now - self._last_step
        if quiet >= self.tuning.settle:
            out += self._end_burst()
        if quiet >= self.tuning.coast_time:
            self._feed("still")
        if self.switch == "down" and now - self._down_at >= self.tuning.hold_time:
            out += self._switch("long")
        return out

    def _end_burst(self) -> list[InputEvent]:
        """The open burst of steps, if any, classified now."""
        if self._feed("quiet") != "classify":
            return []
        event = classify(Burst(tuple(self._steps)), self.tuning)
        if event is None:
            return []
        if event.kind == "flick":
            self._feed("flicked")
        return [event]

    def _feed(self, event: str) -> str | None:
        self.state, action = STEPS.get((self.state, event), (self.state, None))
        return action

    def _switch(self, event: str) -> list[InputEvent]:
        self.switch, kind = SWITCH.get((self.switch, event), (self.switch, None))
        return [InputEvent(kind)] if kind else []
