"""GET /api/events: Server-Sent Events through the test client, the stream cap, keepalives,
and the end of a stream when its client goes or the app shuts down."""

import json
import threading

import pytest

from web import shutdown
from web.stream import Hub, sse


class Reader:
    """Reads SSE messages from a streamed test-client response."""

    def __init__(self, response):
        self.response = response
        self.chunks = iter(response.response)
        self.buffer = ""

    def message(self) -> dict:
        """The next message or comment: {"event": ..., "data": ...} or {"comment": ...}."""
        while "\n\n" not in self.buffer:
            self.buffer += next(self.chunks).decode()
        block, self.buffer = self.buffer.split("\n\n", 1)
        out: dict = {}
        for line in block.split("\n"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "":
                out["comment"] = value
            elif field == "data":
                out["data"] = out.get("data", "") + value
            else:
                out[field] = value
        if "data" in out:
            out["data"] = json.loads(out["data"])
        return out

    def state(self) -> dict:
        """The next `state` message's data, skipping keepalives and the retry hint."""
        for _ in range(1000):
            message = self.message()
            if message.get("event") == "state":
                return message["data"]
        raise AssertionError("no state message")

    def close(self):
        self.response.close()


@pytest.fixture
def stream(client):
    readers = []

    def open_stream():
        response = client.get("/api/events", buffered=False)
        reader = Reader(response)
        readers.append(reader)
        return response, reader

    yield open_stream
    for reader in readers:
        reader.close()


def test_stream_sends_the_current_state_first(stream, kat):
    response, reader = stream()
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    assert reader.message() == {"retry": "3000"}
    first = reader.message()
    assert first["event"] == "state"
    assert first["data"]["version"] == kat["version"]
    assert first["data"]["prompt"] == "Ann - throw the dice for the lead"


def test_stream_sends_a_state_message_on_every_change(stream, kat, control):
    _, reader = stream()
    assert reader.state()["version"] == kat["version"]
    after_roll = control("roll").get_json()
    after_undo = control("undo").get_json()
    assert reader.state() == after_roll
    assert reader.state() == after_undo
    assert after_undo["version"] == kat["version"] + 2


def test_stream_sends_keepalive_comments_when_quiet(stream):
    _, reader = stream()
    reader.state()
    assert reader.message() == {"comment": "keepalive"}


def test_stream_cap_answers_503_json(make_app):
    client = make_app(max_streams=2).test_client()
    open_ones = [client.get("/api/events", buffered=False) for _ in range(2)]
    refused = client.get("/api/events")
    assert refused.status_code == 503
    assert "poll /api/state" in refused.get_json()["error"]
    assert refused.headers["Retry-After"]
    open_ones[0].close()                           # a phone leaves: its place is free again
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()
    open_ones[1].close()


def test_stream_closing_unsubscribes_from_the_session(app, client, session, kat):
    before = len(session._listeners)
    response = client.get("/api/events", buffered=False)
    assert len(session._listeners) == before + 1
    assert app.extensions["parlour"].hub.active == 1
    response.close()
    assert len(session._listeners) == before
    assert app.extensions["parlour"].hub.active == 0


def test_stream_ends_at_shutdown(app, stream):
    _, reader = stream()
    reader.state()
    shutdown(app)
    with pytest.raises(StopIteration):
        for _ in range(100):
            reader.message()
    assert app.extensions["parlour"].hub.active == 0
    assert stream()[0].status_code == 503


def test_stream_ends_after_its_longest_life(make_app):
    client = make_app(test_config={"SSE_MAX_SECONDS": 0.2}).test_client()
    reader = Reader(client.get("/api/events", buffered=False))
    reader.state()
    with pytest.raises(StopIteration):
        for _ in range(1000):
            reader.message()


def test_stream_ends_when_the_server_says_the_client_left():
    gone = threading.Event()
    hub = Hub(lambda listener: (lambda: None), lambda: {"version": 1}, max_streams=1,
              keepalive=0.01)
    stream = hub.open(gone.is_set)
    assert next(stream).startswith(b"retry:")
    assert next(stream).startswith(b"event: state")
    gone.set()
    with pytest.raises(StopIteration):
        next(stream)
    assert hub.active == 0


def test_stream_slow_client_keeps_only_the_newest_states():
    listeners = []
    hub = Hub(lambda listener: listeners.append(listener) or (lambda: None),
              lambda: {"version": 0}, max_streams=1, keepalive=0.01)
    stream = hub.open()
    for version in range(1, 500):                  # never blocks the session
        listeners[0]({"version": version})
    next(stream)
    versions = []
    for chunk in stream:
        if chunk.startswith(b"event: state"):
            versions.append(json.loads(chunk.split(b"data: ", 1)[1])["version"])
        else:
            break
    assert versions == sorted(versions) and versions[-1] == 499 and len(versions) <= 64
    stream.close()


def test_stream_sse_splits_multiline_data():
    assert sse("state", "a\nb") == b"event: state\ndata: a\ndata: b\n\n"
