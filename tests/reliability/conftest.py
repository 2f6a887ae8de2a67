"""Fixtures for the reliability tests: gpiozero's MockFactory (as tests/firmware does it), a
clock tests move, and a store on a temp dir."""

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
