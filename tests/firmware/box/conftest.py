"""The controller's tests share a table: a real session and store, the stand-in controls and
the fake clock (tests/firmware/conftest.py), four seats and the start screen's address."""

from __future__ import annotations

import pytest

from companion.record.store import Store
from companion.session import Session
from controller_support import SEED, FakeControls
from firmware.controller import Controller


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "parlour.db")
    yield store
    store.close()


@pytest.fixture
def session(store):
    return Session(store, new_seed=lambda: SEED, clock=lambda: "2025-01-01T12:00:00Z")


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
