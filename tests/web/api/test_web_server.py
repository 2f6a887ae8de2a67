"""A real waitress server on a loopback port: several live phones see the same change."""

import http.client
import json
import socket
import urllib.request
from urllib.parse import urlsplit

from web_support import PIN, serving


def open_stream(url: str) -> http.client.HTTPResponse:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
    return conn.getresponse()


def next_state(response: http.client.HTTPResponse) -> dict:
    """Read lines until a whole `state` message has arrived (keepalives are skipped)."""
    event, data = None, []
    for _ in range(10_000):
        line = response.fp.readline().decode().rstrip("\n")
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            data.append(line.split(":", 1)[1].strip())
        elif line == "" and event == "state":
            return json.loads("".join(data))
        elif line == "":
            event, data = None, []
    raise AssertionError("no state message")


def test_server_live_streams_see_a_change(make_app, kat):
    app = make_app(max_streams=3)
    with serving(app) as url:
        streams = [open_stream(url) for _ in range(3)]
        for response in streams:
            assert response.status == 200
            assert response.getheader("Content-Type").startswith("text/event-stream")
            assert next_state(response)["version"] == kat["version"]
        over = urllib.request.Request(url + "/api/events")
        try:
            urllib.request.urlopen(over, timeout=5)
            raise AssertionError("a fourth stream was let in")
        except urllib.error.HTTPError as err:
            assert err.code == 503
            assert "error" in json.loads(err.read())
        request = urllib.request.Request(url + "/api/control/roll", data=b"{}", method="POST",
                                         headers={"X-Parlour-Pin": PIN,
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            rolled = json.loads(answer.read())
        for response in streams:
            assert next_state(response) == rolled
        for response in streams:
            response.close()
        with urllib.request.urlopen(url + "/api/state", timeout=5) as answer:
            assert json.loads(answer.read())["rolls"] == 1


def test_server_stream_ends_when_the_phone_goes_away(make_app, session):
    import time
    app = make_app()
    hub = app.extensions["parlour"].hub
    with serving(app) as url:
        response = open_stream(url)
        next_state(response)
        assert hub.active == 1
        listeners = len(session._listeners)
        response.close()
        deadline = time.monotonic() + 5
        while hub.active and time.monotonic() < deadline:
            time.sleep(0.02)
        assert hub.active == 0
        assert len(session._listeners) == listeners - 1


def test_server_stops_cleanly_when_its_trigger_is_already_closed(make_app):
    """Shutting down races the server's own loop: if its trigger is gone by the time the stop
    pulls it, the stop closes the connections itself instead of raising EBADF."""
    import threading

    from firmware.webserver import Limits, stop_serving, table_server

    server = table_server(make_app(), host="127.0.0.1", port=0, threads=1, limits=Limits())
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = server.effective_port
    server.trigger.close()                   # as the loop does when it ends first
    stop_serving(server, thread)
    assert not server._map                   # every socket closed, the listener too
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        refused = False
    except OSError:
        refused = True
    assert refused
