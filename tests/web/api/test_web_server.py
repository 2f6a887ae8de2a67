"""A real waitress server on a loopback port: several live phones see the same change."""

import http.client
import json
import socket
import urllib.request
from urllib.parse import urlsplit

import pytest

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


# -- every address: IPv4's and IPv6's --------------------------------------------------------

def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


needs_ipv6 = pytest.mark.skipif(not ipv6_loopback(),
                                reason="this machine has no IPv6 loopback (::1) to listen on")


def test_server_every_address_is_ipv4_and_ipv6_where_the_machine_has_it(monkeypatch):
    """The default host, every address, listened on 0.0.0.0 alone: `http://[::1]:8080/` was
    refused though README and the example config say "every address". It is both families
    where the machine has IPv6; a given address is itself."""
    from firmware import webserver
    monkeypatch.setattr(webserver, "ipv6_here", lambda: True)
    for every in ("0.0.0.0", "", "::", "[::]"):
        assert webserver.listen_hosts(every) == ("0.0.0.0", "::"), every
    for one in ("127.0.0.1", "::1", "192.168.1.20", "parlour.local"):
        assert webserver.listen_hosts(one) == (one,)
    monkeypatch.setattr(webserver, "ipv6_here", lambda: False)       # ipv6.disable=1
    assert webserver.listen_hosts("0.0.0.0") == ("0.0.0.0",)


def get(host: str, port: int, path: str = "/api/state") -> int:
    conn = http.client.HTTPConnection(host, port, timeout=5)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def loopbacks(monkeypatch, hosts=("127.0.0.1", "::1")) -> None:
    """Every address played on loopback: IPv4's and IPv6's (tests listen on nothing else)."""
    from firmware import webserver
    monkeypatch.setattr(webserver, "listen_hosts", lambda host: hosts)


@needs_ipv6
def test_server_every_address_answers_over_ipv6_and_ipv4_on_one_port(make_app, monkeypatch):
    """Both families on the port given (port 0: the one the first was given), stopped as one:
    no socket of either stays open."""
    import threading

    from firmware.webserver import Limits, TableServers, stop_serving, table_server
    loopbacks(monkeypatch)
    server = table_server(make_app(), host="0.0.0.0", port=0, threads=4, limits=Limits())
    assert isinstance(server, TableServers)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = int(server.effective_port)
    try:
        assert get("127.0.0.1", port) == 200
        assert get("::1", port) == 200                     # http://[::1]:port/
        assert get("::1", port, "/device") == 200          # loopback: this machine's panel
    finally:
        stop_serving(server, thread)
    assert not server.map and not thread.is_alive()
    for host in ("127.0.0.1", "::1"):
        with pytest.raises(OSError):
            socket.create_connection((host, port), timeout=2).close()


@needs_ipv6
def test_server_a_port_in_use_on_ipv6_alone_is_a_port_in_use(make_app, monkeypatch):
    """The port checks (one table per port, "port in use" and the free one suggested) see
    both families: a port another program holds on IPv6 is refused, nothing left open."""
    import errno

    from firmware.webserver import Limits, can_listen, free_port_after, table_server
    loopbacks(monkeypatch)
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as taken:
        taken.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        taken.bind(("::1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError) as refused:
            can_listen("0.0.0.0", port)
        assert refused.value.errno == errno.EADDRINUSE
        assert free_port_after("0.0.0.0", port - 1) != port
        with pytest.raises(OSError) as refused:
            table_server(make_app(), host="0.0.0.0", port=port, threads=4, limits=Limits())
        assert refused.value.errno == errno.EADDRINUSE
    can_listen("0.0.0.0", port)                         # the IPv4 half was let go too


def test_server_an_address_after_the_first_it_cannot_have_is_left_out(make_app, monkeypatch):
    """IPv6 switched off where the kernel still makes its sockets: the table serves IPv4
    rather than not starting, and what the attempt made is closed."""
    import threading

    from firmware.webserver import Limits, TableServer, can_listen, stop_serving, table_server
    loopbacks(monkeypatch, ("127.0.0.1", "192.0.2.77"))     # no address of this machine
    can_listen("0.0.0.0", 0)
    server = table_server(make_app(), host="0.0.0.0", port=0, threads=4, limits=Limits())
    assert isinstance(server, TableServer)
    assert sorted(type(s).__name__ for s in server._map.values()) == ["TableServer", "trigger"]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        assert get("127.0.0.1", int(server.effective_port)) == 200
    finally:
        stop_serving(server, thread)


@needs_ipv6
def test_server_guests_are_counted_over_both_families(make_app, monkeypatch):
    """The connections kept for signed-in and paired phones: guests' idle sockets make room
    for a new guest once guests hold all but the reserve, over IPv4 and IPv6 together (each
    listening socket counting its own would let guests take the reserve, half on each)."""
    import threading
    import time

    from firmware.webserver import Limits, stop_serving, table_server
    loopbacks(monkeypatch)
    limits = Limits(connections=12, reserved=8)              # guests: 4 sockets at most
    server = table_server(make_app(), host="0.0.0.0", port=0, threads=4, limits=limits)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = int(server.effective_port)
    guests = []
    try:
        for host in ("127.0.0.1",) * 4 + ("::1",):
            conn = http.client.HTTPConnection(host, port, timeout=5)
            conn.request("GET", "/api/state")             # answered: the server has it, idle
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            guests.append(conn)
        first = guests[0].sock
        first.setblocking(False)

        def closed() -> bool:
            try:
                return first.recv(1) == b""
            except BlockingIOError:
                return False
            except OSError:
                return True
        deadline = time.monotonic() + 10
        while not closed() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert closed()                      # the oldest idle guest, on IPv4, made the room
    finally:
        for conn in guests:
            conn.close()
        stop_serving(server, thread)
