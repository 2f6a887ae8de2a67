"""systemd's notify protocol (sd_notify) without a dependency: ready, alive, stopping, status.

Under `Type=notify` systemd puts a unix datagram socket in $NOTIFY_SOCKET (a path, or '@name'
in the abstract namespace) and, with `WatchdogSec=`, the interval in $WATCHDOG_USEC. Each
message is one datagram of `KEY=value` lines. Without $NOTIFY_SOCKET every call does nothing,
so `parlour run` is the same program outside systemd. A send that fails is counted, never
raised: the table must not stop because its supervisor's socket went away.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def socket_address(value: str | None) -> str | bytes | None:
    """$NOTIFY_SOCKET as an address for sendto: '@name' is the abstract '\\0name'."""
    if not value or value[0] not in "/@":
        return None
    return b"\0" + value[1:].encode() if value[0] == "@" else value


def watchdog_interval(env: Mapping[str, str], pid: int) -> float | None:
    """Seconds between WATCHDOG=1 pings (half $WATCHDOG_USEC), or None if no watchdog is
    asked of this process ($WATCHDOG_PID, when set, names the process it is for)."""
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
        for_pid = int(env.get("WATCHDOG_PID") or pid)
    except ValueError:
        return None
    return usec / 2e6 if usec > 0 and for_pid == pid else None


class Notifier:
    """One service's messages to systemd. `heartbeat()` is called from the main loop: it sends
    WATCHDOG=1 when half the watchdog interval has passed (by the injected clock)."""

    def __init__(self, env: Mapping[str, str] | None = None, *,
                 clock: Callable[[], float] = time.monotonic, pid: int | None = None):
        env = os.environ if env is None else env
        pid = os.getpid() if pid is None else pid
        self.address = socket_address(env.get("NOTIFY_SOCKET"))
        self.interval = watchdog_interval(env, pid) if self.address is not None else None
        self._clock = clock
        self._next_ping = float("-inf")
        self._socket: socket.socket | None = None
        self.sent = 0
        self.failures = 0

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def notify(self, *lines: str) -> bool:
        """Send one datagram of `lines`; True if it went (False outside systemd or on error)."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto("\n".join(lines).encode(), self.address)
        except OSError:
            self.failures += 1
            return False
        self.sent += 1
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.notify("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *([f"STATUS={status}"] if status else []))

    def heartbeat(self) -> bool:
        """WATCHDOG=1 if it is due; cheap enough for every turn of the main loop."""
        if self.interval is None:
            return False
        now = self._clock()
        if now < self._next_ping:
            return False
        self._next_ping = now + self.interval
        return self.notify("WATCHDOG=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
