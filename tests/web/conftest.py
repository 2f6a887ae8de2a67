"""Fixtures for the web layer: a real Session on a real SQLite store, a fake device panel,
the app and its test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.session import Session
from companion.record.store import Store
from web import create_app
from web_support import FAST, PIN, FakeDevice, clock, seeds


@pytest.fixture
def store(tmp_path) -> Iterator[Store]:
    store = Store(tmp_path / "parlour.db")
    yield store
    store.close()


@pytest.fixture
def session(store) -> Session:
    seed, now = seeds(), clock()
    return Session(store, new_seed=lambda: next(seed), clock=lambda: next(now))


@pytest.fixture
def device(session) -> FakeDevice:
    return FakeDevice(session)


@pytest.fixture
def make_app(session, device):
    def make(**kwargs):
        config = {**FAST, **kwargs.pop("test_config", {})}
        kwargs.setdefault("device", device)
        return create_app(session, pin=PIN, test_config=config, **kwargs)
    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def control(client):
    """control(action, body=None, pin=PIN): POST /api/control/<action> with the PIN header."""
    def control(action: str, body: dict | None = None, pin: str | None = PIN):
        headers = {"X-Parlour-Pin": pin} if pin is not None else {}
        return client.post(f"/api/control/{action}", json=body, headers=headers)
    return control


@pytest.fixture
def kat(control):
    """Kat en Muis started by Ann and Ben through the API (lead throw awaited)."""
    response = control("new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"],
                                    "options": {"stake": 3}})
    assert response.status_code == 200
    return response.get_json()
