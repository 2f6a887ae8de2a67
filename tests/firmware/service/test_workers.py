"""How the web server shares its workers (`firmware.webserver.Workers`), with stand-in
channels: one address's share, the guests' share, the table's phones passing guests, the
address holding fewest going first, a live stream's request counted until its stream opens,
a connection closed while it waited forgotten; and waitress's queue warning once a minute."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field

from firmware.webserver import Limits, QueueWarnings, TableDispatcher, Workers

STREAM_PATH = "/api/events"


@dataclass
class Request:
    path: str = "/api/state"


@dataclass(eq=False)
class Channel:
    """What `Workers` reads of waitress's channel: its address, its requests, whether it is
    still connected, what its running requests hold and its unsent answer (each one a
    connection of its own, as waitress's are)."""

    address: str
    path: str = "/api/state"
    connected: bool = True
    held: deque = field(default_factory=deque)
    total_outbufs_len: int = 0
    last_sent: float = 0.0

    @property
    def addr(self):
        return (self.address, 40000)

    @property
    def requests(self):
        return [Request(self.path)]


KNOWN = {"10.0.0.5"}                     # a signed-in phone's address
LIMITS = Limits(requests_per_address=2, known_threads=2, reserved_threads=8)
THREADS = 12                             # 4 for streams, 8 for requests: guests 6


def workers():
    started: list = []
    return Workers(LIMITS, THREADS, KNOWN.__contains__), started


def test_workers_an_address_holds_at_most_its_share_and_the_next_waits_its_turn():
    pool, started = workers()
    first, second, third = Channel("10.0.0.9"), Channel("10.0.0.9"), Channel("10.0.0.9")
    for channel in (first, second, third):
        pool.add(channel, started.append)
    assert started == [first, second] and [c for c, _ in pool.waiting] == [third]
    pool.done(first)
    assert started == [first, second, third] and not pool.waiting
    assert pool.held == {"10.0.0.9": 2} and pool.guests == 2


def test_workers_guests_leave_the_table_its_workers_and_a_phone_passes_them():
    pool, started = workers()
    assert pool.for_guests == THREADS - LIMITS.streams(THREADS) - LIMITS.known_threads == 6
    guests = [Channel(f"10.0.1.{n % 3}") for n in range(9)]        # a flood: 3 addresses
    for channel in guests:
        pool.add(channel, started.append)
    assert len(started) == 6 and pool.guests == 6 and len(pool.waiting) == 3
    phone = Channel("10.0.0.5")
    pool.add(phone, started.append)
    assert started[-1] is phone                                    # at once, past the guests
    watcher = Channel("10.0.2.1")
    pool.add(watcher, started.append)
    assert started[-1] is not watcher                              # a guest: waits
    pool.done(guests[0])                                           # 10.0.1.0 now holds one
    assert started[-1] is watcher                                  # holds none: first
    assert [c.address for c, _ in pool.waiting] == ["10.0.1.0", "10.0.1.1", "10.0.1.2"]


def test_workers_a_stream_request_counts_until_its_stream_opens_and_a_closed_waiter_is_gone():
    """A flood of live-stream requests never read: each past the streams' caps is answered 503
    by a worker that then waits on the unread answer, so they wait their turn like any other
    request (they skipped the shares, and ~100 waited in waitress's queue ahead of the table's
    phones); once its stream opens, a worker is the stream's, capped by the app."""
    pool, started = workers()
    streams = [Channel("10.0.0.9", path=STREAM_PATH) for _ in range(3)]
    for channel in streams:
        pool.add(channel, started.append)
    assert started == streams[:2] and pool.held == {"10.0.0.9": 2} and pool.guests == 2
    pool.streaming(streams[0])                                     # its stream opened
    assert started == streams and pool.held == {"10.0.0.9": 2} and pool.guests == 2
    pool.streaming(streams[0])                                     # again: nothing more
    assert pool.held == {"10.0.0.9": 2}
    pool.streaming(streams[1])
    pool.streaming(streams[2])
    assert pool.held == {} and pool.guests == 0
    a, b, gone = Channel("10.0.0.9"), Channel("10.0.0.9"), Channel("10.0.0.9")
    for channel in (a, b, gone):
        pool.add(channel, started.append)
    gone.connected = False                                         # the phone left meanwhile
    pool.done(a)
    assert gone not in started and not pool.waiting
    for channel in streams:                                        # their ends count nothing
        pool.done(channel)
    assert pool.held == {"10.0.0.9": 1} and pool.guests == 1


def test_workers_a_request_counts_as_what_it_was_when_it_began():
    """A guest's request that signs the phone in (its address is known after it) still ends
    as a guest's, though the connection's next request (waitress asks for it before the first
    has ended) is a signed-in phone's: the guests' count comes back to nought, not below."""
    known: set[str] = set()
    pool = Workers(LIMITS, THREADS, known.__contains__)
    phone = Channel("10.0.0.7")
    pool.add(phone, lambda c: None)                                # the sign-in: a guest's
    known.add("10.0.0.7")
    pool.add(phone, lambda c: None)                                # its next: the table's
    assert pool.guests == 1 and pool.held == {"10.0.0.7": 2}
    pool.done(phone)
    assert pool.guests == 0
    pool.done(phone)
    assert pool.guests == 0 and pool.held == {}


class Logged(logging.Handler):
    """The lines a logger says."""

    def __init__(self):
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_workers_a_flood_of_queued_requests_is_warned_of_once_a_minute_with_a_count():
    """waitress warns "Task queue depth is n" for every request it queues with no worker free:
    a flood made ~1,000 lines a second (27,845 in 15 s). Now once a minute, with how many more
    there were and the deepest."""
    logger, logged, now = logging.getLogger("test.queue"), Logged(), [100.0]
    logger.addHandler(logged)
    try:
        warnings = QueueWarnings(logger, clock=lambda: now[0])
        for depth in [3, 59, 77, 12] * 250:
            warnings.warning("Task queue depth is %d", depth)
            now[0] += 0.01                                        # 1,000 in 10 s
        assert logged.lines == ["Task queue depth is 3"]
        now[0] = 160.0
        warnings.warning("Task queue depth is %d", 5)
        assert logged.lines[1:] == [
            "Task queue depth is 5 (999 more times since the last such warning, up to 77)"]
        now[0] = 300.0
        warnings.warning("Task queue depth is %d", 1)
        assert logged.lines[2:] == ["Task queue depth is 1"]
    finally:
        logger.removeHandler(logged)
    assert isinstance(TableDispatcher().queue_logger, QueueWarnings)   # the table's own
