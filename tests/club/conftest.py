"""The club's fixtures: a real Mosquitto broker on loopback (see mqtt_broker.py)."""

from __future__ import annotations

import pytest
from mqtt_broker import Broker


@pytest.fixture
def broker(tmp_path):
    running = Broker(tmp_path / "broker").start()
    yield running
    running.stop()
