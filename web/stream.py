"""Server-Sent Events: one `state` message per change to every phone, within a cap, and a
`pairing` message when a phone is paired or unpaired (each phone then asks whether it still
plays its seat: pairings are each phone's own, so no stream carries them).

Each stream holds a bounded queue the session's listener fills (never blocking the session);
the stream sends the current state first, then every newer state, and a keepalive comment
when quiet so a dead client is noticed within one keepalive. A stream ends when its client
goes away (looked at every `poll` seconds, so its slot is free within about a second), after
`max_seconds` (EventSource reconnects by itself) or when the hub closes. One address may hold
at most `per_address` streams, so one guest cannot take every slot, and guests (addresses with
no signed-in or paired phone) together all but `known_streams`, so many guests cannot either.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

QUEUE_SIZE = 64
POLL = 1.0                # s between looks at whether the client has gone
_CLOSE = object()


class _Note:
    """A message for every stream that is not a state (`Hub.notify`)."""

    def __init__(self, event: str, data: Any):
        self.event, self.data = event, data


def sse(event: str, data: Any) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    lines = "".join(f"data: {line}\n" for line in text.split("\n"))
    return f"event: {event}\n{lines}\n".encode()


class Hub:
    """Counts the open streams and hands out new ones while under `max_streams` (and under
    `per_address` for the asking address; for a guest's, while guests hold fewer than
    `max_streams - known_streams`: `known(address)` says whose are the table's phones)."""

    def __init__(self, subscribe: Callable, snapshot: Callable[[], dict], *, max_streams: int,
                 keepalive: float = 15.0, max_seconds: float = 900.0, retry_ms: int = 3000,
                 clock: Callable[[], float] = time.monotonic, per_address: int | None = None,
                 poll: float = POLL, known_streams: int = 0,
                 known: Callable[[str], bool] | None = None):
        self._subscribe, self._snapshot = subscribe, snapshot
        self.known_streams, self._known = known_streams, known or (lambda address: False)
        self.max_streams, self.keepalive = max_streams, keepalive
        self.per_address, self.poll = per_address, poll
        self.max_seconds, self.retry_ms, self._clock = max_seconds, retry_ms, clock
        self._lock = threading.Lock()
        self._streams: set[Stream] = set()
        self._encoded: tuple[Any, bytes] | None = None     # the last state and its message
        self.closed = False

    @property
    def active(self) -> int:
        with self._lock:
            return len(self._streams)

    def open(self, disconnected: Callable[[], bool] | None = None,
             address: str | None = None) -> "Stream | None":
        """A new stream, or None when a cap is reached or the hub is closed."""
        with self._lock:
            if self.closed or len(self._streams) >= self.max_streams:
                return None
            if self.per_address is not None and address is not None and sum(
                    s.address == address for s in self._streams) >= self.per_address:
                return None
            known = address is not None and self._known(address)
            if not known and self.known_streams and sum(not s.known for s in self._streams) \
                    >= self.max_streams - self.known_streams:
                return None             # the rest are kept for the table's phones
            stream = Stream(self, disconnected, address)
            stream.known = known
            self._streams.add(stream)
        stream.start()
        return stream

    def message(self, state: dict) -> bytes:
        """The `state` message of a state: encoded once per change, not once per stream
        (every stream is handed the same snapshot; a new stream's first one is equal)."""
        encoded = self._encoded
        if encoded is not None and (encoded[0] is state or encoded[0] == state):
            return encoded[1]
        message = sse("state", state)
        self._encoded = (state, message)
        return message

    def _release(self, stream: "Stream") -> None:
        with self._lock:
            self._streams.discard(stream)

    def notify(self, event: str, data: Any = None) -> None:
        """Send every open stream the message `event` (with `data`, JSON) after what it holds."""
        with self._lock:
            streams = list(self._streams)
        for stream in streams:
            stream._put(_Note(event, {} if data is None else data))

    def close(self) -> None:
        """End every stream (at shutdown) and refuse new ones."""
        with self._lock:
            self.closed = True
            streams = list(self._streams)
        for stream in streams:
            stream.wake()


class Stream:
    """One client's stream: an iterable of SSE bytes with close(), as WSGI wants."""

    known = False            # a signed-in or paired phone's when it opened (`Hub.open`)

    def __init__(self, hub: Hub, disconnected: Callable[[], bool] | None,
                 address: str | None = None):
        self._hub, self.address = hub, address
        self._disconnected = disconnected or (lambda: False)
        self._queue: queue.Queue = queue.Queue(QUEUE_SIZE)
        self._unsubscribe: Callable[[], None] | None = None
        self._done = False
        self._greeted = False
        self._sent_version = -1
        self._deadline = 0.0
        self._quiet_until = 0.0          # a keepalive is due after this

    def start(self) -> None:
        self._unsubscribe = self._hub._subscribe(self._put)
        self._put(self._hub._snapshot())
        now = self._hub._clock()
        self._deadline = now + self._hub.max_seconds
        self._quiet_until = now + self._hub.keepalive

    def _put(self, item: Any) -> None:
        """The session's listener: never blocks; a slow client loses its oldest state."""
        while True:
            try:
                self._queue.put_nowait(item)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                except queue.Empty:  # pragma: no cover - emptied meanwhile
                    pass

    def wake(self) -> None:
        self._put(_CLOSE)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._done:
            raise StopIteration
        if not self._greeted:
            self._greeted = True
            return f"retry: {self._hub.retry_ms}\n\n".encode()
        while True:
            if self._hub.closed or self._disconnected():
                return self._end()
            now = self._hub._clock()
            left = self._deadline - now
            if left <= 0:
                return self._end()
            try:
                item = self._queue.get(timeout=max(0.0, min(self._quiet_until - now, left,
                                                             self._hub.poll)))
            except queue.Empty:
                now = self._hub._clock()
                if now >= self._deadline:
                    return self._end()
                if now < self._quiet_until:
                    continue                          # only a look at the client
                self._quiet_until = now + self._hub.keepalive
                return b": keepalive\n\n"
            if item is _CLOSE:
                return self._end()
            if isinstance(item, _Note):
                self._quiet_until = self._hub._clock() + self._hub.keepalive
                return sse(item.event, item.data)
            version = item.get("version", 0)
            if version > self._sent_version:          # a state already sent is skipped
                self._sent_version = version
                self._quiet_until = self._hub._clock() + self._hub.keepalive
                return self._hub.message(item)

    def _end(self) -> bytes:
        self.close()
        raise StopIteration

    def close(self) -> None:
        """Called by the WSGI server when the response ends or the client has gone."""
        if self._done:
            return
        self._done = True
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._hub._release(self)
