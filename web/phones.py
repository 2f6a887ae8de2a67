"""Phones paired with a seat: a phone asks, the next press of a seat button on the box (within
PAIR_SECONDS) pairs it, and from then on it spins and presses for that seat only, with no PIN.

The firmware hands the box's presses in through `Pairings.press(button)` (web never imports
firmware). A phone is known by a random token kept in its signed cookie; the table keeps only
the token's SHA-256, with the seat button, in a 0600 JSON file in the data directory, so a
pairing survives a restart and a copied file pairs no one.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from web.keptfile import read_kept, token_digest, write_kept

PAIR_SECONDS = 30.0
MAX_PHONES = 64          # paired phones kept; the oldest pairing goes first


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Request:
    digest: str
    code: str
    until: float


class Pairings:
    """Which phone (by token) is paired with which seat button (1-based, as on the box)."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float],
                 seconds: float = PAIR_SECONDS):
        self.path = Path(path) if path is not None else None
        self._clock, self.seconds = clock, seconds
        self._lock = threading.Lock()
        self._paired: dict[str, int] = self._load()
        self._request: Request | None = None
        self.on_request: Callable[[str], None] | None = None    # the OLED shows the code
        self.on_paired: Callable[[int], None] | None = None

    def _load(self) -> dict[str, int]:
        data = read_kept(self.path)
        paired = data.get("paired") if isinstance(data, dict) else None
        if not isinstance(paired, dict):
            return {}
        return {k: v for k, v in paired.items()
                if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                and 1 <= v <= 64}

    def _save(self, before: dict[str, int], what: str) -> None:
        """Keep the pairings; if they cannot be kept, put them back as they were and raise
        (StoreFull on a full card): a pairing is never answered as done and then lost."""
        try:
            write_kept(self.path, {"paired": self._paired}, what)
        except StoreError:
            self._paired = before
            raise

    def ask(self, token: str) -> dict[str, Any]:
        """The phone asks to pair: it gets a short code (also shown on the OLED) and a deadline
        in seconds. A newer request replaces an older one: one seat button, one phone."""
        code = f"{secrets.randbelow(100):02d}"
        with self._lock:
            self._request = Request(token_digest(token), code, self._clock() + self.seconds)
        if self.on_request is not None:
            self.on_request(code)
        return {"code": code, "seconds": self.seconds}

    def waiting(self) -> str | None:
        """The code of a request still open, for the OLED."""
        with self._lock:
            request = self._request
            return request.code if request and self._clock() < request.until else None

    def press(self, button: int) -> bool:
        """A seat button pressed on the box (1-based). True if it paired a waiting phone (the
        press is then used up: it does nothing else)."""
        with self._lock:
            request, self._request = self._request, None
            if request is None or self._clock() >= request.until:
                return False
            before = dict(self._paired)
            self._paired.pop(request.digest, None)
            while len(self._paired) >= MAX_PHONES:
                del self._paired[next(iter(self._paired))]
            self._paired[request.digest] = button
            self._save(before, "this pairing")
        if self.on_paired is not None:
            self.on_paired(button)
        return True

    def status(self, token: str | None) -> dict[str, Any]:
        """{"button": n | None, "waiting": code | None} for this phone."""
        if not token:
            return {"button": None, "waiting": None}
        digest = token_digest(token)
        with self._lock:
            request = self._request
            waiting = request.code if request and request.digest == digest and \
                self._clock() < request.until else None
            return {"button": self._paired.get(digest), "waiting": waiting}

    def button(self, token: str | None) -> int | None:
        return self.status(token)["button"]

    def forget(self, token: str | None) -> bool:
        """Undo this phone's pairing (and its open request). True if it was paired."""
        if not token:
            return False
        digest = token_digest(token)
        with self._lock:
            if self._request is not None and self._request.digest == digest:
                self._request = None
            before = dict(self._paired)
            found = self._paired.pop(digest, None) is not None
            if found:
                self._save(before, "this unpairing")
        return found


def seat_of_button(state: dict[str, Any], button: int | None) -> int | None:
    """The game seat whose box button is `button` (the state's `button` of each player, else
    seat n+1), or None. Never the Pi's seat: the button it was given is no one's."""
    if button is None:
        return None
    for seat, player in enumerate(state.get("players") or []):
        if player.get("button", seat + 1) == button and not player.get("pi"):
            return seat
    return None
