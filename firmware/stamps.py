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

Away from any time server (the box's own hotspot, a club night in a hall) the wall clock stays
where the last shutdown left it, days behind: the phones at the table know the time. While no
time server has set the clock, what signed-in and paired phones say of theirs (`learn`) moves
the wall clock the stamps read, by the lower middle one of the differences of the phones
believed, once that is more than `BELIEVE_AFTER` seconds (a phone a few seconds out changes
nothing). A phone's clock is believed only if it reads no earlier than `EARLIEST` and the
box's last stamp, and either another phone (another sign-in or pairing, from another
address) agrees with it within `AGREE` seconds, or it reads at most `LONE_AHEAD` past both the
box's own clock and its last stamp (a box put away for a season, its clock stopped with it,
is set right by the one phone signed in; 400 days is more than a box's clock falls behind
between two evenings of one owner's): a lone phone, or a few set wrong, cannot date the games
2199 (one said so in a header, and the next game was stamped 2199-01-01), nor before games
already played. A club's clock, told live over its broker, is believed before the phones':
every table of the club then dates its games alike. Like a jump, it is taken up only between
games. A game resumed after a restart never goes back before its last stamp (`not_before`).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any


BELIEVE_AFTER = 120.0            # s: the phones' clocks differ more from the box's: believe them
AGREE = 300.0                    # s: two phones' clocks this close agree
LONE_AHEAD = 400 * 86_400.0      # s: a clock no other agrees with, past the box's and its stamps
EARLIEST = datetime(2025, 1, 1, tzinfo=timezone.utc)   # older than Parlour: no clock set right
REPORTS_KEPT = 30 * 60.0         # s: a phone not heard from for this long no longer counts
MOST_PHONES = 32
SYNCED = "/run/systemd/timesync/synchronized"     # made by systemd-timesyncd at its first sync
CLUB = "the club"         # the club's clock (firmware/club/publisher.py): before the phones'
POWER_CUT_LOSS = 86_400.0  # s: a clock at most this far behind the last stamp lost it in a cut


def wall_now() -> datetime:
    return datetime.now(timezone.utc)


def time_server_synced() -> bool:
    """Whether a time server has set the clock since boot (systemd-timesyncd says so)."""
    return os.path.exists(SYNCED)


class TableClock:
    """`clock()` -> "2025-01-01T12:00:00Z"; monotonic between anchors (see the module)."""

    def __init__(self, *, wall: Callable[[], datetime] = wall_now,
                 monotonic: Callable[[], float] = time.monotonic,
                 synced: Callable[[], bool] = time_server_synced):
        self._wall, self._monotonic, self._synced = wall, monotonic, synced
        self._between = False             # until told: a game may be running (one resumed)
        self._lock = threading.Lock()     # a page's read and the session's stamps meet here
        # phone -> (its clock - ours, when heard, its address)
        self._phones: dict[str, tuple[float, float, str | None]] = {}
        self._offset = 0.0                # s added to the wall clock: what the phones say
        self._last: datetime | None = None      # the newest stamp given (or stored)
        self._in_order = False            # `restarted`: between games, never before `_last`
        self.reanchor()

    @property
    def offset(self) -> float:
        """Seconds the stamps' wall clock is moved by, as the phones say (0 when it is right)."""
        if self._offset and self._synced():     # a time server has set it since: believe it
            self._offset = 0.0
            self._phones.clear()
        return self._offset

    def reanchor(self) -> None:
        """Read the wall clock again; later stamps follow it from here (see `restarted`)."""
        wall = self._wall() + timedelta(seconds=self.offset)
        last = self._last
        if (self._in_order and last is not None
                and timedelta(0) < last - wall <= timedelta(seconds=POWER_CUT_LOSS)
                and not self._synced()):
            wall = last
        self._anchor = (wall, self._monotonic())             # one assignment: read whole

    def restarted(self, stamp: str | None) -> None:
        """The store's newest stamp as the box starts (see `stamped`). A box back from a power
        cut has the time it last saved (fake-hwclock's, up to an hour old) and none of the time
        it was off: with no time server, the next game began before the last one had ended. So
        from now, until a time server sets the clock, a game never begins before the newest
        stamp where the clock reads at most a day behind it (further is no power cut, but a
        stamp once dated wrong, which must not date every game after it)."""
        self.stamped(stamp)
        with self._lock:
            self._in_order = True
            if self._between:
                self.reanchor()

    def not_before(self, stamp: str | None) -> None:
        """A game resumed after a restart goes on from its last stamp (`stamp`) where the wall
        clock reads earlier: a box that lost its time with the power stamped the rest of the
        game days before its start (its end three days before its beginning, first in a
        league's order), whatever the club or the phones then said."""
        last = stamp_time(stamp)
        if last is None:
            return
        self.stamped(stamp)
        with self._lock:
            base, started = self._anchor
            mono = self._monotonic()
            if base + timedelta(seconds=mono - started) < last:
                self._anchor = (last, mono)

    def stamped(self, stamp: str | None) -> None:
        """A stamp the box has given (the store's newest, at start): phones' clocks are read
        against the newest."""
        at = stamp_time(stamp)
        with self._lock:
            if at is not None and (self._last is None or at > self._last):
                self._last = at

    def learn(self, phone: str, phone_now: datetime, source: str | None = None) -> None:
        """What `phone` (signed in or paired; `source`: its address) says the time is; taken
        up between games."""
        if self._synced():
            return
        seen = self._monotonic()
        wall = self._wall()
        difference = (phone_now - wall).total_seconds()
        with self._lock:
            self._phones[phone] = (difference, seen, source)
            for other, (_, when, _) in list(self._phones.items()):
                if seen - when > REPORTS_KEPT:
                    del self._phones[other]
            while len(self._phones) > MOST_PHONES:           # the longest unheard goes
                del self._phones[min(self._phones, key=lambda p: self._phones[p][1])]
            club = self._phones.get(CLUB)
            differences = [club[0]] if club else self._believed(wall)
            middle = differences[(len(differences) - 1) // 2] if differences else 0.0
            self._offset = middle if abs(middle) > BELIEVE_AFTER else 0.0

    def _believed(self, wall: datetime) -> list[float]:
        """The differences of the phones whose clocks are believed, in order (the module
        says which); call holding the lock."""
        floor = max(EARLIEST, self._last or EARLIEST)
        lone_up_to = max(wall, self._last or wall) + timedelta(seconds=LONE_AHEAD)
        heard = [(phone, difference, source)
                 for phone, (difference, _, source) in self._phones.items()
                 if wall + timedelta(seconds=difference) >= floor]
        believed = []
        for phone, difference, source in heard:
            agreed = any(other != phone and (source is None or source != where) and
                         abs(said - difference) <= AGREE for other, said, where in heard)
            if agreed or wall + timedelta(seconds=difference) <= lone_up_to:
                believed.append(difference)
        return sorted(believed)

    def now(self) -> datetime:
        with self._lock:                  # checked and taken again at once: a game that starts
            if self._between:             # meanwhile keeps its anchor (no jump charged)
                self.reanchor()           # no game running: the wall clock as it is now
            base, started = self._anchor
        return base + timedelta(seconds=self._monotonic() - started)

    def __call__(self) -> str:
        stamp = self.now().isoformat(timespec="seconds").replace("+00:00", "Z")
        self.stamped(stamp)
        return stamp

    def between_games(self, snap: dict[str, Any]) -> None:
        """A session listener (and told the state at start): whether a game is running; the
        anchor is taken again once none is, and at every stamp until one starts."""
        with self._lock:
            self._between = snap.get("phase") in ("idle", "over")
            if self._between:
                self.reanchor()


def stamp_time(stamp: str | None) -> datetime | None:
    """A stamp (`at`) as a UTC time; one without a zone is UTC; None for none or a bad one."""
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        at = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)
