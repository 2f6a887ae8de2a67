"""Floods against the real server: idle and trickling sockets, a 1 GiB body, live streams
taking every slot, a web page on another name (DNS rebinding). A phone is still answered,
and nothing is read or spooled that the limits refuse. Another device on the table's Wi-Fi
is played by another loopback address (127.0.0.2: Linux routes all of 127/8 to lo)."""

from __future__ import annotations

import http.client
import itertools
import json
import logging
import socket
import threading
import time
from collections import Counter
from contextlib import ExitStack

import pytest

from companion.session import Session
from companion.record.store import Store
from firmware.webserver import Limits, WebServer
from reliability_support import request
from simulated_table import PIN, SimulatedTable

pytestmark = pytest.mark.slow

PHONE = "127.0.0.2"           # another device than the guest flooding from 127.0.0.1
PATIENCE = 10.0               # a generous bound on any answer a phone waits for


def phone_get(port: int, path: str = "/api/state", source: str = PHONE,
              headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def closed_by_server(sock: socket.socket) -> bool:
    """True once the server has closed this connection (EOF or reset), without waiting."""
    sock.setblocking(False)
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def wait_until(condition, seconds: float = PATIENCE) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("flood")
    with SimulatedTable(tmp / "data", tmp / "home") as running:
        yield running


def test_flood_100_idle_sockets_leave_phones_answered(table):
    with ExitStack() as stack:
        idle = [stack.enter_context(socket.create_connection(("127.0.0.1", table.port)))
                for _ in range(100)]
        time.sleep(0.2)                                     # all accepted before the phone
        status, body = phone_get(table.port)
        assert status == 200 and json.loads(body)["phase"] == "idle"
        # the guest's own oldest sockets made room: at most the per-address cap stay open
        assert wait_until(lambda: sum(not closed_by_server(s) for s in idle)
                          <= Limits().per_address)
        status, _ = phone_get(table.port, source="127.0.0.1")   # even from the same address
        assert status == 200


def test_flood_99_trickling_sockets_leave_phones_answered(table):
    with ExitStack() as stack:
        slow = [stack.enter_context(socket.create_connection(("127.0.0.1", table.port)))
                for _ in range(99)]
        for sock in slow:
            sock.sendall(b"GET /api/state HTTP/1.1\r\n")
        for _ in range(3):                                   # a header line now and then
            for sock in slow:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass                                     # closed by the server: fine
            status, _ = phone_get(table.port)
            assert status == 200
            time.sleep(0.3)


def test_flood_1gib_body_refused_before_any_of_it_is_sent(table):
    """413 from the headers alone: the server cannot have read (or spooled) any of it."""
    with socket.create_connection(("127.0.0.1", table.port), timeout=PATIENCE) as sock:
        sock.sendall(b"POST /api/control/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nX-Parlour-Pin: " + PIN.encode() +
                     b"\r\nContent-Length: 1073741823\r\n\r\n")
        answer = whole_answer(sock)
    assert answer.split(b" ", 2)[1] == b"413", answer[:80]
    assert_json_error(answer, "Request Entity Too Large")
    with socket.create_connection(("127.0.0.1", table.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " +
                     b"b" * (Limits().header_bytes + 1) + b"\r\n\r\n")
        answer = whole_answer(sock)
        assert answer.split(b" ", 2)[1] == b"431"
    assert_json_error(answer, "Request Header Fields Too Large")
    assert phone_get(table.port)[0] == 200


def whole_answer(sock: socket.socket) -> bytes:
    """Everything the server sends before it closes (its refusals close the connection):
    the head and the body may come in separate packets."""
    answer = b""
    while chunk := sock.recv(4096):
        answer += chunk
    return answer


def assert_json_error(answer: bytes, reason: str) -> None:
    """The server's own refusal is the table's JSON error, as every HTTP error is."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), head
    error = json.loads(body)["error"]
    assert error.startswith(reason), error


class Stream:
    """A live page (GET /api/events) from `source`; `close` hangs up like a phone leaving."""

    def __init__(self, port: int, source: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE,
                                               source_address=(source, 0))
        self.conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        if self.status != 200:
            self.body = self.response.read()
            self.close()

    def close(self) -> None:
        self.response.close()
        self.conn.close()


def test_flood_live_streams_are_capped_and_a_leaving_phone_frees_its_slot(table):
    limits = Limits()
    guests = limits.streams(48) - limits.known_streams(48)   # the default 48 threads
    streams = []
    try:
        for i in range(guests):
            streams.append(Stream(table.port, f"127.0.1.{i // limits.streams_per_address}"))
            assert streams[-1].status == 200, i
        assert Stream(table.port, "127.0.2.1").status == 503   # the guests' cap
        status, _ = phone_get(table.port)                    # requests still have threads
        assert status == 200
        streams.pop().close()                                 # one phone leaves
        # its slot is free within about a second (waitress sees the close, the stream looks)
        assert wait_until(lambda: _admitted(table.port, "127.0.2.1", streams), 5.0)
    finally:
        for stream in streams:
            stream.close()


def test_flood_guests_streams_from_many_addresses_leave_the_players_theirs(table):
    """An audit found 9 guest addresses × 4 live pages took every stream: the signed-in and
    paired phones got 503 and their pages fell back to polling. Now a third of the streams
    are the table's phones' (addresses with a signed-in or paired phone) and guests share
    the rest; the table's phones are still capped in total and per address."""
    limits = Limits()
    total, kept = limits.streams(48), limits.known_streams(48)
    players = [f"127.0.5.{n + 1}" for n in range(-(-kept // limits.streams_per_address))]
    for player in players:
        signed_in_cookie(table.port, player)               # signed in before the guests come
    streams = []
    try:
        for i in range(9 * limits.streams_per_address):      # (an earlier test's slots free up)
            address = f"127.0.6.{i // limits.streams_per_address}"
            if i < total - kept:
                assert wait_until(lambda: _admitted(table.port, address, streams), 5.0), i
            else:
                assert Stream(table.port, address).status == 503, i
        for i in range(kept):
            stream = Stream(table.port, players[i // limits.streams_per_address])
            streams.append(stream)
            assert stream.status == 200, i
        assert Stream(table.port, "127.0.5.99").status == 503   # every stream taken
    finally:
        for stream in streams:
            stream.close()


def _admitted(port: int, source: str, streams: list) -> bool:
    stream = Stream(port, source)
    if stream.status == 200:
        streams.append(stream)
    return stream.status == 200


def test_flood_one_address_holds_at_most_its_share_of_streams(table):
    limits = Limits()
    streams = []
    try:
        for _ in range(limits.streams_per_address):      # (an earlier test's slots free up)
            assert wait_until(lambda: _admitted(table.port, "127.0.3.1", streams), 5.0)
        refused = Stream(table.port, "127.0.3.1")
        assert refused.status == 503 and "error" in json.loads(refused.body)
        # another address is still let in (once an earlier test's last slots are free)
        assert wait_until(lambda: _admitted(table.port, "127.0.3.2", streams), 5.0)
    finally:
        for stream in streams:
            stream.close()


def test_flood_dns_rebinding_names_are_refused(table):
    status, body = phone_get(table.port, headers={"Host": "rebind.example:8080"})
    assert status == 403 and "rebind.example" in json.loads(body)["error"]
    status, body = request(table.port, "POST", "/api/control/roll", {},
                           headers={"X-Parlour-Pin": PIN, "Origin": "http://rebind.example"})
    assert status == 403 and "error" in body
    assert phone_get(table.port, headers={"Host": f"localhost:{table.port}"})[0] == 200


# -- the deadlines, with short limits on a real waitress server in this process ------------

@pytest.fixture
def quick_server(tmp_path):
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=4,
                       limits=Limits(idle_seconds=1, request_seconds=1.0, cleanup_seconds=1))
    server.start()
    try:
        yield server.port
    finally:
        server.close()
        store.close()


def test_flood_trickling_and_idle_connections_are_closed_by_their_deadlines(quick_server):
    with ExitStack() as stack:
        trickling = [stack.enter_context(socket.create_connection(("127.0.0.1", quick_server)))
                     for _ in range(3)]
        idle = stack.enter_context(socket.create_connection(("127.0.0.1", quick_server)))
        for sock in trickling:
            sock.sendall(b"GET /api/state HTTP/1.1\r\n")

        def trickle_until_closed() -> bool:
            for sock in trickling:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")      # activity: not idle, yet not whole
                except OSError:
                    pass
            time.sleep(0.2)
            return all(closed_by_server(s) for s in trickling)

        assert wait_until(trickle_until_closed)
        assert wait_until(lambda: closed_by_server(idle))
        assert phone_get(quick_server, source="127.0.0.1")[0] == 200


@pytest.fixture
def stall_server(tmp_path, monkeypatch):
    """A server that drops a phone holding 64 KiB it does not read for 1 s; every spool to a
    temporary file that waitress would make is counted."""
    from waitress import buffers
    spooled = []
    real = buffers.TempfileBasedBuffer.newfile

    def counted(self):
        spooled.append(1)
        return real(self)

    monkeypatch.setattr(buffers.TempfileBasedBuffer, "newfile", counted)
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=16,
                       limits=Limits(output_bytes=64 * 1024, send_buffer=16 * 1024,
                                     stall_seconds=1.0, cleanup_seconds=1))
    server.start()
    try:
        yield server, session, spooled
    finally:
        server.close()
        store.close()


def test_flood_streams_never_read_are_dropped_and_nothing_is_spooled(stall_server):
    """Attack 10: 36 live streams from 9 addresses that never read spooled ~690 MiB of
    temporary files in 3 s. Now a stream's output waits in memory up to 64 KiB here (256 KiB
    on the table), and a phone that takes none of it for a second (ten on the table) is
    dropped: nothing reaches the disk, and a reading phone is served throughout."""
    server, session, spooled = stall_server
    guests = []
    for n in range(Limits().streams(16) - Limits().known_streams(16)):   # all guests may hold
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)    # a phone not reading
        sock.bind((f"127.0.0.{10 + n // 4}", 0))
        sock.connect(("127.0.0.1", int(server.port)))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        guests.append(sock)
    session.new_game("kat-en-muis", ["Ann", "Ben"], by="test")
    for _ in range(600):                                  # a long evening of states
        if session.snapshot()["phase"] == "over":
            session.new_game("kat-en-muis", ["Ann", "Ben"], by="test")
        session.roll(by="test")
        time.sleep(0.005)                                 # each state sent, not merged
    assert phone_get(server.port)[0] == 200               # a reading phone: answered
    time.sleep(3.0)                                       # stalled past 1 s, then a cleanup
    for sock in guests:
        sock.settimeout(5)
        received = 0
        try:
            while chunk := sock.recv(65536):
                received += len(chunk)
        except ConnectionResetError:
            pass
        sock.close()
        assert received < 600 * 1024              # dropped: far less than 600 states' worth
    assert spooled == []
    assert phone_get(server.port)[0] == 200


def test_flood_attack_7_many_addresses_leave_room_for_the_table(tmp_path):
    """Attack 7: 13 addresses × 16 idle sockets, reopened when closed, filled the 200
    connections: a phone got 2 answers in 50 s. Now guests (addresses with no signed-in or
    paired phone) share all but the reserve, their oldest idle sockets make room for a new
    one, and a signed-in phone is answered at once. Here at a tenth of the size."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    limits = Limits(connections=40, reserved=8, per_address=4)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=8,
                       limits=limits)
    server.start()
    port = int(server.port)
    try:
        player = "127.0.0.60"                          # signs in before the flood
        status, _ = phone_get(port, "/api/state", source=player,
                              headers={"X-Parlour-Pin": PIN})
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE,
                                          source_address=(player, 0))
        conn.request("POST", "/api/login", body=json.dumps({"pin": PIN}),
                     headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        cookie = answer.getheader("Set-Cookie").split(";")[0]
        answer.read()
        conn.close()
        with ExitStack() as stack:
            guests = []
            for round_ in range(2):                    # closed ones are opened again
                for n in range(12):
                    for _ in range(4):
                        sock = socket.socket()
                        sock.bind((f"127.0.1.{n + 1}", 0))
                        try:
                            sock.connect(("127.0.0.1", port))
                        except OSError:
                            sock.close()
                            continue
                        guests.append(stack.enter_context(sock))
                time.sleep(0.3)
            started = time.monotonic()
            status, _ = phone_get(port, "/api/state", source=player,
                                  headers={"Cookie": cookie})
            assert status == 200 and time.monotonic() - started < 3.0
            status, _ = phone_get(port, "/api/state", source="127.0.0.77")   # a watcher too
            assert status == 200
            open_guests = sum(not closed_by_server(s) for s in guests)
            assert open_guests <= limits.connections - limits.reserved, open_guests
    finally:
        server.close()
        store.close()


def signed_in_cookie(port: int, source: str) -> str:
    """A phone at `source` signs in with the PIN: its cookie (its address is then known)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE,
                                      source_address=(source, 0))
    try:
        conn.request("POST", "/api/login", body=json.dumps({"pin": PIN}),
                     headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        return answer.getheader("Set-Cookie").split(";")[0]
    finally:
        conn.close()


def test_flood_pipelined_requests_never_read_leave_workers_for_the_table(tmp_path):
    """A guest from 3 addresses, 16 sockets each, sent ~150 pipelined requests on each and
    never read: every answer's worker waited on a full buffer until the stall check dropped
    it (10 s), reconnected, and all 48 workers were the guest's: a signed-in phone waited ~10 s
    an answer. Now guests hold at most their share of the workers (what the streams leave,
    less the signed-in phones'), one address at most its own, and the rest wait their turn.
    Here with 8 workers and a 30 s stall: a phone answered at all was answered in its turn."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    limits = Limits(output_bytes=64 * 1024, send_buffer=16 * 1024, stall_seconds=30.0)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=8,
                       limits=limits)
    server.start()
    port = int(server.port)
    try:
        cookie = signed_in_cookie(port, "127.0.0.60")
        session.new_game("kat-en-muis", ["Ann", "Ben"], by="test")     # a state of a few KiB
        # (not a static file: one a worker still held at the server's stop was left open)
        pipelined = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 150
        with ExitStack() as stack:
            for n in range(12):
                sock = stack.enter_context(socket.socket())
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # never read
                sock.bind((f"127.0.2.{n % 3 + 1}", 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(pipelined)
            workers = server.server.workers
            assert wait_until(lambda: workers.guests == workers.for_guests)   # all they may
            status, _ = phone_get(port, "/api/state", source="127.0.0.60",
                                  headers={"Cookie": cookie})
            assert status == 200
            assert workers.guests <= workers.for_guests < 8
            assert max(workers.held.get(f"127.0.2.{n}", 0) for n in (1, 2, 3)) \
                <= limits.requests_per_address
            assert len(workers.waiting) > 0                   # the rest of theirs wait
    finally:
        server.close()
        store.close()


def test_flood_unread_pipelined_requests_from_many_addresses_let_a_newcomer_in(tmp_path):
    """An audit found 12 addresses × 16 sockets, each pipelining requests for the phone page
    it never reads, shut out every phone not already known: the guests' connections were all
    busy, so a newcomer's closed itself, and their workers all waited on full buffers. Now a
    newcomer closes one of the address holding most (one whose answer sits unread first) and
    its request is given a worker a guest's unread answer held. Here at a fifth of the size;
    the flood is never dropped for stalling meanwhile (60 s)."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    limits = Limits(connections=40, reserved=8, per_address=4, output_bytes=64 * 1024,
                    send_buffer=16 * 1024, stall_seconds=60.0)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=8,
                       limits=limits)
    server.start()
    port = int(server.port)
    try:
        player = "127.0.0.60"
        cookie = signed_in_cookie(port, player)
        session.new_game("kat-en-muis", ["Ann", "Ben"], by="test")
        pipelined = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 60
        with ExitStack() as stack:
            for _ in range(2):                          # closed ones are opened again
                for n in range(12):
                    for _ in range(limits.per_address):
                        sock = socket.socket()
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                        sock.bind((f"127.0.4.{n + 1}", 0))
                        try:
                            sock.connect(("127.0.0.1", port))
                            sock.sendall(pipelined)
                        except OSError:
                            sock.close()
                            continue
                        stack.enter_context(sock)
                time.sleep(0.3)
            workers = server.server.workers
            guests = limits.connections - limits.reserved
            assert wait_until(lambda: workers.guests == workers.for_guests and len(
                server.server.channels()) >= guests)
            time.sleep(1.5)                     # their workers wait on full buffers, over 1 s
            for n in range(3):                  # a watcher, then phones opening the page
                status, _ = phone_get(port, "/", source=f"127.0.0.{70 + n}")
                assert status == 200, n
            status, _ = phone_get(port, "/api/state", source=player, headers={"Cookie": cookie})
            assert status == 200
            flood = [c for c in server.server.channels() if c.addr[0].startswith("127.0.4.")]
            assert len(flood) <= guests
    finally:
        server.close()
        store.close()


# -- floods that never stop: every connection the server closes is opened again at once ------

class Flood:
    """Guests from `addresses`, `sockets` connections each, every one sending `request`
    pipelined over and over without reading an answer, and opened again as soon as the
    server closes it (as a flooding script does), until the `with` block ends."""

    def __init__(self, port: int, addresses: list[str], sockets: int, request: bytes):
        self.port, self.payload = port, request * 200
        self.stop = threading.Event()
        self.opened = itertools.count()
        self.threads = [threading.Thread(target=self._connection, args=(address,), daemon=True)
                        for address in addresses for _ in range(sockets)]

    def __enter__(self) -> "Flood":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(5)

    def _connection(self, address: str) -> None:
        while not self.stop.is_set():
            try:
                with socket.socket() as sock:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # never read
                    sock.settimeout(0.2)
                    sock.bind((address, 0))
                    sock.connect(("127.0.0.1", self.port))
                    next(self.opened)
                    sent = 0
                    while not self.stop.is_set():
                        try:
                            sent = (sent + sock.send(self.payload[sent:])) % len(self.payload)
                        except socket.timeout:
                            continue                    # the server reads no further: yet
            except OSError:
                time.sleep(0.02)                        # closed by the server: again


def newcomer(port: int, n: int, method: str, path: str) -> int | str:
    """A phone never seen before (an address of its own) asks once: the status, or the name
    of what went wrong (RemoteDisconnected: the server reset it)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                      source_address=(f"127.0.9.{n}", 0))
    try:
        body = json.dumps({"pin": PIN}) if method == "POST" else None
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    except OSError as err:
        return type(err).__name__
    finally:
        conn.close()


@pytest.fixture
def flooded_server(tmp_path):
    """A real server at a fifth of the table's size (40 connections, 8 kept for the table's
    phones, 4 an address; 16 workers: 6 streams for guests, 4 workers for their requests),
    whose unread answers are not dropped for stalling meanwhile (60 s), with a signed-in
    phone; yields (server, session, its cookie)."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"s" * 32)
    limits = Limits(connections=40, reserved=8, per_address=4, output_bytes=64 * 1024,
                    send_buffer=16 * 1024, stall_seconds=60.0)
    server = WebServer(session, pin=PIN, panel=None, host="127.0.0.1", port=0, threads=16,
                       limits=limits)
    server.start()
    try:
        cookie = signed_in_cookie(int(server.port), "127.0.0.60")
        session.new_game("kat-en-muis", ["Ann", "Ben"], by="test")
        yield server, session, cookie
    finally:
        server.close()
        store.close()


def test_flood_reconnecting_unread_page_requests_from_12_addresses_never_reset_a_newcomer(
        flooded_server):
    """12 guest addresses × 16 sockets each pipelining requests for the phone page it never
    reads, every dropped one opened again at once: new phones opening the page or signing in
    were reset 7-11 times in 12 (each reconnection closed "the oldest idle guest connection",
    and a newcomer whose request had not arrived yet was idle; the flood's addresses held 11
    or 12 each, so "the address holding most" never applied). Now a guest's new connection
    makes room from the address holding most, its own when that is its own, and a connection
    that has had no time to send its request goes last. Here 12 addresses × 4 sockets."""
    server, _, cookie = flooded_server
    port, limits = int(server.port), server.limits
    flood_addresses = [f"127.0.4.{n + 1}" for n in range(12)]
    page = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    outcomes: dict[str, list] = {"watcher": [], "signing in": [], "signed in": []}
    with Flood(port, flood_addresses, limits.per_address, page) as flood:
        guests = limits.connections - limits.reserved
        assert wait_until(lambda: len(server.server.channels()) >= guests)
        time.sleep(1.5)                         # the guests' workers wait on full buffers
        for n in range(8):
            outcomes["watcher"].append(newcomer(port, 2 * n + 1, "GET", "/"))
            outcomes["signing in"].append(newcomer(port, 2 * n + 2, "POST", "/api/login"))
            outcomes["signed in"].append(phone_get(port, "/api/state", source="127.0.0.60",
                                                   headers={"Cookie": cookie})[0])
        flooding = sum(_address(c).startswith("127.0.4.") and not c.will_close   # (closed
                       for c in server.server.channels())          # at the loop's next turn)
        opened = next(flood.opened)
    answered = {who: Counter(statuses) for who, statuses in outcomes.items()}
    assert answered == {who: Counter({200: 8}) for who in outcomes}, answered
    assert flooding <= guests                       # the flood kept to the guests' share
    assert opened > 2 * len(flood_addresses) * limits.per_address   # and kept coming back


def _address(channel) -> str:
    return channel.addr[0] if channel.addr else ""


class QueueDepth(logging.Handler):
    """waitress's "Task queue depth" warnings (a request ready with no worker free for it)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.warnings: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.warnings.append(record.getMessage())


def test_flood_reconnecting_unread_live_stream_requests_wait_their_share_not_in_the_queue(
        flooded_server):
    """12 guest addresses × 16 sockets each pipelining requests for the live stream it never
    reads, every dropped one opened again at once: stream requests skipped the workers'
    shares, so past the streams' cap each was answered 503 by a worker that then waited on the
    unread answer, ~100 more waited in waitress's queue ahead of everyone's, and waitress
    warned of its depth ~1,000 times a second. Now a stream request counts in its address's
    and the guests' shares until its stream opens: the guests' requests and streams leave
    workers free, nothing waits in the queue, the table's phones and a newcomer are answered
    and a player's live page opens. Here 12 addresses × 4 sockets."""
    server, _, cookie = flooded_server
    port, limits = int(server.port), server.limits
    hub = server.app.extensions["parlour"].hub
    queued = QueueDepth()
    logging.getLogger("waitress.queue").addHandler(queued)
    stream = b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    outcomes: dict[str, list] = {"watcher": [], "signing in": [], "signed in": []}
    try:
        with Flood(port, [f"127.0.4.{n + 1}" for n in range(12)], limits.per_address, stream):
            guests = limits.connections - limits.reserved
            assert wait_until(lambda: len(server.server.channels()) >= guests)
            time.sleep(1.5)                     # 503s unread fill their buffers
            queue = []                          # requests waiting for a worker, 300 looks
            for _ in range(300):
                queue.append(len(server.server.task_dispatcher.queue))
                time.sleep(0.01)
            for n in range(4):
                outcomes["watcher"].append(newcomer(port, 2 * n + 1, "GET", "/"))
                outcomes["signing in"].append(newcomer(port, 2 * n + 2, "POST", "/api/login"))
                outcomes["signed in"].append(phone_get(
                    port, "/api/state", source="127.0.0.60", headers={"Cookie": cookie})[0])
            live = Stream(port, "127.0.0.60")
            live.close()
            guest_streams = sum(not s.known for s in list(hub._streams))
    finally:
        logging.getLogger("waitress.queue").removeHandler(queued)
    answered = {who: Counter(statuses) for who, statuses in outcomes.items()}
    assert answered == {who: Counter({200: 4}) for who in outcomes}, answered
    assert live.status == 200
    assert guest_streams <= limits.streams(16) - limits.known_streams(16)
    # none waits in the queue but for a thread just freed (before: 7-12 on average, up to
    # 25), and waitress's warning of it is said once a minute (before: ~1,000 a second)
    assert sum(queue) < len(queue), (sum(queue) / len(queue), max(queue))
    assert len(queued.warnings) <= 1, queued.warnings[:3]
