"""A phone's page over plain HTTP, for tests on a real server: its cookie, its CSRF token and
its own loopback address (another device on the table's Wi-Fi: 127.0.0.2, 127.0.0.3 ...;
Linux routes all of 127/8 to lo)."""

from __future__ import annotations

import http.client
import json
import re
from urllib.parse import urlsplit


class Phone:
    def __init__(self, url: str, address: str = "127.0.0.1"):
        parts = urlsplit(url)
        self.host, self.port, self.address = parts.hostname, parts.port, address
        self.cookie = ""
        self.csrf = ""

    def ask(self, method: str, path: str, body: dict | None = None,
            headers: dict | None = None) -> tuple[int, dict, dict]:
        """(status, the answer's JSON, or {"page": its text}, its headers)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10,
                                          source_address=(self.address, 0))
        try:
            sent = {"Cookie": self.cookie, "X-Parlour-Csrf": self.csrf, **(headers or {})}
            data = None
            if body is not None:
                data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            raw = answer.read()
            for name, value in answer.getheaders():
                if name.lower() == "set-cookie" and value.startswith("parlour="):
                    self.cookie = value.split(";")[0]
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = {"page": raw.decode()}
            return answer.status, parsed, dict(answer.getheaders())
        finally:
            conn.close()

    def open_page(self) -> None:
        page = self.ask("GET", "/", headers={"Accept": "text/html"})[1]["page"]
        self.csrf = re.search(r'data-csrf="([^"]+)"', page).group(1)

    def pair(self, code: str) -> None:
        """Types the code the box shows for a seat button."""
        self.open_page()
        status, body, _ = self.ask("POST", "/api/pair", {"code": code})
        assert status == 200, body

    def sign_in(self, pin: str, headers: dict | None = None) -> None:
        self.open_page()
        status, body, _ = self.ask("POST", "/api/login", {"pin": pin}, headers)
        assert status == 200, body
        self.csrf = body["csrf"]
