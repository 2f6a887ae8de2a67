"""The controller's tests share a table: the session and store and the fake clock of
tests/firmware/conftest.py, the stand-in controls, four seats and the start screen's address."""

from __future__ import annotations

import pytest

from controller_support import FakeControls
from firmware.controller import Controller


@pytest.fixture
def controls():
    return FakeControls()


@pytest.fixture
def table(session, controls, clock):
    c = Controller(session, controls=controls, seats=4, url="http://10.0.0.2:8080/",
                   pin="4821", clock=clock)
    c.attach()
    yield c
    c.close()
