"""Fixtures every test folder shares.

The MockFactory fixture follows gpiozero's own tests/conftest.py: save the global
Device.pin_factory, install a MockFactory, and reset and restore it afterwards.
"""

from __future__ import annotations

import secrets
import socket

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


def pytest_collection_modifyitems(items):
    """Tests marked `first` (minutes long) are started before the rest: on several workers
    (`make test` runs one a core) the longest test then runs beside the others, not after."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)


@pytest.fixture
def mock_factory():
    """The global pin factory is a fresh MockFactory for the test, then as it was."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def abstract_listener():
    """An abstract unix datagram socket standing in for systemd's notify socket; yields
    (NOTIFY_SOCKET value, recv)."""
    name = f"parlour-test-{secrets.token_hex(6)}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(15)
    try:
        yield "@" + name, lambda: sock.recv(4096).decode()
    finally:
        sock.close()
