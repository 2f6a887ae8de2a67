"""Changes made elsewhere (a phone, the API, the Pi) while another screen covers the game's (a
menu, a question, a pairing code): kept to be shown once the game's screen is back, as they
would have been shown then. The controller records them (`ChangesFromElsewhere._apply`), clears
them when the box's own action comes after them (`Controller._call`) and shows what `take`
gives (`ChangesFromElsewhere._show_missed`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from companion.words import is_undo
from firmware.controller.drawing import state_mark

State = dict[str, Any]
KEPT = 12               # states kept to head each mover, as many as one frame keeps


class Uncovered(NamedTuple):
    """The changes missed, to show: from the game as drawn (or as the last undo left it) to
    the newest state, and each run of undos among them (from, to), in order."""
    old: State
    snap: State
    undos: list[tuple[State, State]]


class MissedChanges:
    """The changes missed under another screen. An undo among them is kept to be said as it
    was made, and the changes after it go on from the game it left; undos one after another are
    one run. The box's own action clears them; they are shown only on the state they end at."""

    def __init__(self):
        self._change: tuple[State, State] | None = None    # from, to
        self._undos: list[tuple[State, State]] = []        # runs of undos among them: from, to
        self.passed: list[State] = []       # each state they went through: who made each move

    @property
    def waiting(self) -> bool:
        return self._change is not None

    def record(self, drawn: State, snap: State, passed: list[State] | None = None) -> None:
        """`snap`, made while another screen is up; `drawn` is the game as the OLED drew it
        (used by the first change only); `passed`, the states it replaced within one frame."""
        base, last = self._change or (drawn, drawn)
        if is_undo(last, snap):                    # undos one after another: said as one
            runs = self._undos
            if runs and runs[-1][1] is last:
                runs[-1] = (runs[-1][0], snap)
            else:   # a move since `base` began the undos anew: none of its own are said here;
                # corrections alone (a rename) keep them, said by the run before, not again
                runs.append((base if last is base or last.get("taken_back") else
                             {**base, "taken_back": False}, snap))
            base = snap
        self._change = (base, snap)
        self.passed = [*self.passed, *(passed or []), snap][-KEPT:]

    def clear(self) -> None:
        """The box's own action came after them: they are the past, not to be shown."""
        self._change, self._undos, self.passed = None, [], []

    def take(self, current: State) -> Uncovered | None:
        """The changes missed, to show now on the game as `current` has it; none are kept
        after. None with none, or when the game has moved on from them since (`current` is
        not their newest state)."""
        change, undos = self._change, self._undos
        self.clear()
        if change is None:
            return None
        old, snap = change
        if state_mark(snap) != state_mark(current) or snap.get("game_id") != old.get("game_id"):
            return None
        return Uncovered(old, snap, undos)
