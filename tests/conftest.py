"""Fixtures every test folder shares.

The MockFactory fixture follows gpiozero's own tests/conftest.py: save the global
Device.pin_factory, install a MockFactory, and reset and restore it afterwards.
"""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


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
