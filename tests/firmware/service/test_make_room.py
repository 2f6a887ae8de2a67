"""Which connection makes room for a new one (`firmware.webserver.TableChannel._make_room`),
with stand-in connections: a flood's reconnections close the flood's own, a newcomer's
connection whose request is still on its way is never the one closed, and a newcomer closes
one of the address holding most."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from firmware.webserver import Limits, TableChannel



def ago(seconds: float) -> float:
    return time.time() - seconds


@dataclass(eq=False)
class Server:
    limits: Limits = field(default_factory=Limits)


@dataclass(eq=False)
class Connection:
    """What `_make_room` reads of a waitress channel, and whether it was closed."""

    address: str
    opened: float = field(default_factory=lambda: ago(30))   # time enough to send a request
    requests: list = field(default_factory=list)
    total_outbufs_len: int = 0
    last_sent: float = 0.0
    last_activity: float = field(default_factory=lambda: ago(30))
    will_close: bool = False
    closed: bool = False
    server: Server = field(default_factory=Server)

    @property
    def addr(self):
        return (self.address, 40000)

    def handle_close(self) -> None:
        self.closed = True

    @property
    def gone(self) -> bool:
        return self.will_close or self.closed


def flooding(addresses: int, each: int) -> list[Connection]:
    """A flood's connections: each waiting on an answer it never reads, the oldest first."""
    return [Connection(f"10.0.4.{a}", opened=ago(20 - n), requests=["GET /"],
                       total_outbufs_len=64 * 1024, last_sent=ago(20 - n))
            for n in range(each) for a in range(addresses)]


def make_room(new: Connection, crowd: list[Connection]) -> None:
    """As a guest's new connection does when the guests' share is full (closed ones apart)."""
    crowd = [c for c in crowd if not c.gone]
    TableChannel._make_room(new, crowd, sum(c.address == new.address for c in crowd))


def test_make_room_a_flood_reconnecting_never_closes_a_newcomer_on_its_way_in():
    """12 addresses held 11 or 12 connections each, and each reconnection closed "the oldest
    idle guest connection": a newcomer's whose request had not arrived yet. Now an address
    at the top, or one short of it, closes an idle one of its own, else its new one."""
    flood = flooding(12, 11)[:-1]                # 11 addresses hold 11, 10.0.4.11 holds 10
    newcomer = Connection("10.0.9.1", opened=ago(0.01), last_activity=ago(0.01))
    crowd = [*flood, newcomer]
    for address in ("10.0.4.3", "10.0.4.11"):
        again = Connection(address, opened=ago(0))
        make_room(again, crowd)
        assert again.will_close and not any(c.gone for c in crowd)
    idle_own = Connection("10.0.4.3", last_sent=ago(5), last_activity=ago(5))
    crowd.append(idle_own)
    again = Connection("10.0.4.3", opened=ago(0))
    make_room(again, crowd)
    assert idle_own.will_close and not again.gone
    assert [c for c in crowd if c.gone] == [idle_own]


def test_make_room_a_newcomer_closes_the_oldest_unread_of_the_address_holding_most():
    flood = flooding(3, 5)
    crowd = [*flood, *flooding(1, 6)[:6]]        # 10.0.4.0 holds 11, the others 5
    newcomer = Connection("10.0.9.2", opened=ago(0))
    make_room(newcomer, crowd)
    closed = [c for c in crowd if c.gone]
    assert not newcomer.gone and len(closed) == 1
    assert closed[0].address == "10.0.4.0" and closed[0].last_sent < ago(19)


def test_make_room_only_an_idle_connection_that_had_time_to_ask_is_closed_for_an_equal():
    """Every address holds one: a newcomer closes an idle one, not one just opened whose
    request is on its way (it may not have arrived yet), else itself."""
    fresh = Connection("10.0.5.1", opened=ago(0.5), last_activity=ago(0.5))
    busy = Connection("10.0.5.2", requests=["GET /"])
    newcomer = Connection("10.0.9.3", opened=ago(0))
    make_room(newcomer, [fresh, busy])
    assert newcomer.will_close and not fresh.gone and not busy.gone
    idle = Connection("10.0.5.3", last_sent=ago(3), last_activity=ago(3))
    make_room(newcomer := Connection("10.0.9.4", opened=ago(0)), [fresh, busy, idle])
    assert idle.will_close and not newcomer.gone and not fresh.gone
