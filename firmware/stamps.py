"""The time stamped on each event (`at`): UTC, but advancing with time.monotonic.

Fox and Geese charges the time between two stamped events to the player whose turn it was
(F1), and history shows when games began and ended. A Pi has no real-time clock: at boot its
wall clock is the last shutdown's, and NTP may jump it by hours mid-game (or an admin may set
it back). Stamps read straight from the wall clock would charge that jump to a player.

So the wall clock is read once (the anchor) and stamps advance by the monotonic clock from
there: the time between two stamps is always the time that really passed. The trade-off:
stamps drift from the wall clock by any jump that happens while anchored, so between games
(when the table is idle or a game is over), where no one's thinking time runs, every stamp
reads the wall clock afresh: a new game started after NTP set the clock at boot begins at the
right time of day, and a game played across a jump keeps consistent, if shifted, times of day.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any


def wall_now() -> datetime:
    return datetime.now(timezone.utc)


class TableClock:
    """`clock()` -> "2025-01-01T12:00:00Z"; monotonic between anchors (see the module)."""

    def __init__(self, *, wall: Callable[[], datetime] = wall_now,
                 monotonic: Callable[[], float] = time.monotonic):
        self._wall, self._monotonic = wall, monotonic
        self._between = False             # until told: a game may be running (one resumed)
        self._lock = threading.Lock()     # a page's read and the session's stamps meet here
        self.reanchor()

    def reanchor(self) -> None:
        """Read the wall clock again; later stamps follow it from here."""
        self._anchor = (self._wall(), self._monotonic())     # one assignment: read whole

    def now(self) -> datetime:
        with self._lock:                  # checked and taken again at once: a game that starts
            if self._between:             # meanwhile keeps its anchor (no jump charged)
                self.reanchor()           # no game running: the wall clock as it is now
            base, started = self._anchor
        return base + timedelta(seconds=self._monotonic() - started)

    def __call__(self) -> str:
        return self.now().isoformat(timespec="seconds").replace("+00:00", "Z")

    def between_games(self, snap: dict[str, Any]) -> None:
        """A session listener (and told the state at start): whether a game is running; the
        anchor is taken again once none is, and at every stamp until one starts."""
        with self._lock:
            self._between = snap.get("phase") in ("idle", "over")
            if self._between:
                self.reanchor()
