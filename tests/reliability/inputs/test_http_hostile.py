"""Malformed and hostile HTTP against the real server (waitress on 127.0.0.1, the whole
simulated table behind it): every one is answered with a 4xx, never a 500, and the table
keeps serving and playing afterwards. Raw sockets send the bytes a test client cannot."""

from __future__ import annotations

import http.client
import socket
import threading

import pytest

from firmware import runner
from firmware.config import Config
from firmware.webserver import Limits
from reliability_support import control, request
from simulated_table import PIN

JSON = {"Content-Type": "application/json"}
WITH_PIN = {**JSON, "X-Parlour-Pin": PIN}
BIG = 1024 * 1024


@pytest.fixture
def port(tmp_path, mock_factory):
    """The whole table (simulated) serving on a free loopback port, with its main loop."""
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path, threads=8), pin=PIN)
    table.web.start()
    thread = threading.Thread(target=runner.loop, args=(table,), daemon=True)
    thread.start()
    try:
        yield table.web.port
    finally:
        table.stop.set()
        table.inputs.put(runner.WAKE)
        thread.join(timeout=5)
        table.close()
    assert not thread.is_alive()


def raw(port: int, data: bytes, timeout: float = 5.0) -> int:
    """Send bytes as they are; the status of the answer (0 if the server just closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        try:
            conn.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass                                       # it stopped reading: fine
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = conn.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except ConnectionResetError:
            pass
    if not answer:
        return 0
    return int(answer.split(b" ", 2)[1])


def send(port: int, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> int:
    """The status of the answer; 0 if the server closed the connection instead (it may, for a
    body over its limit, as soon as it has the headers: then the rest cannot be sent)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        try:
            conn.request(method, path, body=body, headers=headers or {})
        except (BrokenPipeError, ConnectionResetError):
            pass                                       # refused mid-body: read the answer
        try:
            response = conn.getresponse()
        except (ConnectionResetError, http.client.RemoteDisconnected):
            return 0
        response.read()
        return response.status
    finally:
        conn.close()


def nested(depth: int) -> bytes:
    return b'{"input": ' + b"[" * depth + b"]" * depth + b"}"


HOSTILE = [
    # bodies: too big, wrong types, deep nesting, bad UTF-8, not JSON
    ("POST", "/api/control/new-game", b'{"game": "' + b"x" * BIG + b'"}', WITH_PIN),
    ("POST", "/device/input", b"[" * BIG, JSON),
    ("POST", "/device/input", nested(5000), JSON),
    ("POST", "/api/control/declare", b'{"winners": ' + b"[" * 8000 + b"]" * 8000 + b"}",
     WITH_PIN),
    ("POST", "/device/input", b'{"input": "seat", "seat": "1"}', JSON),
    ("POST", "/device/input", b'{"input": "seat", "seat": 1e400}', JSON),
    ("POST", "/device/input", b'{"input": "knob", "action": "turn", "detents": 1e9}', JSON),
    ("POST", "/device/input", b'{"input": "knob", "action": "flick", "detents": 2}', JSON),
    ("POST", "/device/input", b'{"input": "seat", "seat": 99}', JSON),
    ("POST", "/device/input", b'{"input": ["seat"]}', JSON),
    ("POST", "/device/input", b'{"input": "seat", "seat": NaN}', JSON),
    ("POST", "/device/input", b'{"input": "\xff\xfe"}', JSON),
    ("POST", "/device/input", b"\xef\xbb\xbf\xff{}", JSON),
    ("POST", "/device/input", b'"just a string"', JSON),
    ("POST", "/device/input", b"", JSON),
    ("POST", "/api/control/press", b'{"seat": true}', WITH_PIN),
    ("POST", "/api/control/press", b'{"seat": 1.5}', WITH_PIN),
    ("POST", "/api/control/choose", b'{"value": 123456789012345678901234567890}', WITH_PIN),
    ("POST", "/api/control/new-game", b'{"game": "kat-en-muis", "players": [1, 2]}',
     WITH_PIN),
    ("POST", "/api/control/new-game", b'{"game": "kat-en-muis", "players": "AnnBen"}',
     WITH_PIN),
    ("POST", "/api/control/new-game", b'{"game": "kat-en-muis", "players": ["A", "B"], '
     b'"options": "x"}', WITH_PIN),
    ("POST", "/api/control/new-game", b'{"game": {"$ne": 1}, "players": ["A", "B"]}',
     WITH_PIN),
    ("POST", "/api/control/transfer", b'{"from": "pool", "to": -1, "amount": 1}', WITH_PIN),
    ("POST", "/api/control/rename", b'{"seat": 0, "name": "\\u0000\\ud800"}', WITH_PIN),
    ("POST", "/api/control/undo", b"{}", {**JSON, "X-Parlour-Pin": "0000"}),
    ("POST", "/api/control/undo", b"{}", JSON),
    ("POST", "/api/control/..%2f..%2fetc%2fpasswd", b"{}", WITH_PIN),
    ("POST", "/api/login", b'{"pin": 2468}', JSON),
    # bad Content-Type
    ("POST", "/device/input", b'{"input": "undo"}', {"Content-Type": "text/plain"}),
    ("POST", "/api/control/roll", b"a=b&c=d",
     {"Content-Type": "application/x-www-form-urlencoded", "X-Parlour-Pin": PIN}),
    ("POST", "/api/control/roll", b"--x\r\nContent-Disposition: form-data\r\n\r\n",
     {"Content-Type": "multipart/form-data; boundary=x", "X-Parlour-Pin": PIN}),
    ("POST", "/device/input", b'{"input": "undo"}', {"Content-Type": "text/json"}),
    ("POST", "/device/input", b'{"input": "undo"}', {}),
    # paths
    ("GET", "/api/games/..%2f..%2fetc/log", None, {}),
    ("GET", "/api/games/-1/log", None, {}),
    ("GET", "/api/games/99999999999999999999999/log", None, {}),
    ("GET", "/api/games/1%00/log", None, {}),
    ("GET", "/api/games/%ff%fe/log", None, {}),
    ("GET", "/static/../../../../etc/passwd", None, {}),
    ("GET", "/static/..%2f..%2f..%2fpyproject.toml", None, {}),
    ("GET", "/static/%2e%2e/%2e%2e/pyproject.toml", None, {}),
    ("GET", "/" + "a" * 60_000, None, {}),
    ("GET", "/api/" + "%2e%2e/" * 2000 + "state", None, {}),
    # methods
    ("DELETE", "/api/state", None, {}),
    ("PUT", "/api/control/undo", b"{}", WITH_PIN),
    ("PATCH", "/device/input", b"{}", JSON),
    ("TRACE", "/api/state", None, {}),
    ("FROB", "/api/state", None, {}),
    ("GET", "/api/control/undo", None, {"X-Parlour-Pin": PIN}),
]


def test_http_hostile_requests_get_4xx_and_the_table_keeps_serving(port):
    for method, path, body, headers in HOSTILE:
        status = send(port, method, path, body, headers)
        too_big = len(body or b"") > Limits().body_bytes      # refused from its headers
        assert 400 <= status < 500 or (status == 0 and too_big), (method, path[:80], status)
    status, state = request(port, "GET", "/api/state")
    assert status == 200 and state["phase"] == "idle"
    status, snap = control(port, "new-game", {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
    assert status == 200 and snap["phase"] == "lead"


RAW = [
    b"HELLO\r\n\r\n",
    b"GET /api/state HTTP/1.1\r\n" + b"X: y\r\n" * 50_000 + b"\r\n",
    b"GET /api/\xff\xfe\x00state HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/games/\xc0\xaf..\xc0\xafetc/log HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /" + b"a" * 300_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/state HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 300_000 + b"\r\n\r\n",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n100000\r\n" + b"[" * 0x100000 + b"\r\n0\r\n\r\n",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"POST /api/control/undo HTTP/1.1\r\nHost: x\r\nX-Parlour-Pin: \xff\xfe\r\n"
    b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    b"POST /device/input HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 9000000000000000000000\r\n\r\n{}",
]


def test_http_raw_bytes_get_4xx_or_a_closed_connection(port):
    for data in RAW:
        status = raw(port, data)
        assert status == 0 or 400 <= status < 500, (data[:60], status)
    status, state = request(port, "GET", "/api/state")
    assert status == 200 and state["phase"] == "idle"
