"""The box's address when it manages no Wi-Fi of its own ([hotspot] mode = "off", or no
NetworkManager): looked up again every few seconds, so the start screen's code follows the
network. The service does not wait for the network at boot, so a box that started before its
DHCP lease showed http://127.0.0.1:8080/ until a restart, and never saw a new lease."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

CHECK_SECONDS = 10.0


def is_loopback(address: str) -> bool:
    """Whether `address` is this machine's own (no network yet): a code for it would open
    the phone that scans it."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


class LanAddress:
    """The table's address as `lookup()` finds it, with a version that moves when it
    changes; read from the main loop (`version` looks again at most every CHECK_SECONDS)."""

    def __init__(self, lookup: Callable[[], str], port: int, *,
                 clock: Callable[[], float] = time.monotonic):
        self.lookup, self.port, self.clock = lookup, port, clock
        self._address, self._version, self._next = "", -1, 0.0

    @property
    def version(self) -> int:
        now = self.clock()
        if now >= self._next:
            self._next = now + CHECK_SECONDS
            address = self.lookup()
            if address != self._address:
                self._address, self._version = address, self._version + 1
        return self._version

    @property
    def url(self) -> str:
        return f"http://{self._address}:{self.port}/"
