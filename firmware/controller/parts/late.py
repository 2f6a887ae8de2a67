"""Inputs a moment late: meant for what was on the box's screen just before, not for what is up
now. The controller opens a window when something goes or moves by itself (the dial stopped, a
result, a notice or a page went) and when a hand stops the dial; `handle` asks before acting on
an input (`Controller.handle`, `Notices._only_reads`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from firmware.controller.parts.notices import LATE_PRESS_SECONDS


class Window(NamedTuple):
    """Inputs of these kinds before `until` are late."""
    kinds: tuple[str, ...]
    until: float


CLOSED = Window((), 0.0)


class LateInputs:
    """Two windows, each used up by the first input it catches: inputs that only read (what
    they were meant for went or moved by itself a moment before) and another hand's just after
    the dial was stopped (two hands slapping to stop it: a seat after the knob or a flick,
    anything after a seat). The next input after one used up acts."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.reading = CLOSED
        self.stopping = CLOSED

    def moved_on(self, at: float, kinds: tuple[str, ...] = ("press", "seat")) -> None:
        """The screen moved on by itself at `at` (the dial stopped; a result, a notice or a
        page went): an input of `kinds` within LATE_PRESS_SECONDS was meant for what was up."""
        self.reading = Window(kinds, at + LATE_PRESS_SECONDS)

    def close(self) -> None:
        """A screen opened on purpose (the menu): the inputs after it are meant for it."""
        self.reading = self.stopping = CLOSED

    def reads(self, kind: str) -> bool:
        """Whether an input of `kind` only reads now; one does, and the window is used up."""
        if kind in self.reading.kinds and self.clock() < self.reading.until:
            self.reading = self.reading._replace(until=0.0)
            return True
        return False

    def dial_stopped_by(self, kind: str) -> None:
        """The dial was stopped by an input of `kind`: another hand's a moment later was meant
        to stop it too."""
        others = ("seat",) if kind in ("press", "flick") else ("press", "seat", "flick")
        self.stopping = Window(others, self.clock() + LATE_PRESS_SECONDS)

    def meant_to_stop(self, kind: str) -> bool:
        """Whether an input of `kind` is another hand's meant to stop the dial; one is, and
        the window is closed."""
        if kind not in self.stopping.kinds or self.clock() >= self.stopping.until:
            return False
        self.stopping = CLOSED
        return True
