"""Ports held for the tests of a port in use: the port asked for and the one after it, so a
message that suggests "the next port" without looking is caught."""

from __future__ import annotations

import contextlib
import socket


@contextlib.contextmanager
def held_next(taken: socket.socket):
    """Listen on a free loopback port with `taken` and hold the port after it too (if another
    program has that one, it is held all the same); yields the first port."""
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    with socket.socket() as after:
        with contextlib.suppress(OSError):
            after.bind(("127.0.0.1", port + 1))
            after.listen()
        yield port


def free_now(port: int) -> None:
    """Fails unless a server could listen on loopback `port` now."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
