"""The table's PIN: checked in constant time, wrong guesses rate-limited per address, a login
kept as a flag in the signed cookie session, and a per-session CSRF token for forms."""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import deque
from collections.abc import Callable

from flask import current_app, request, session

from web.errors import ApiError

PIN_HEADER = "X-Parlour-Pin"
CSRF_HEADER = "X-Parlour-Csrf"
MAX_ADDRESSES = 4096


class PinGuard:
    """Compares PINs; after `tries` wrong ones within `window` seconds an address gets 429."""

    def __init__(self, pin: str, *, tries: int = 5, window: float = 60.0,
                 clock: Callable[[], float]):
        if not isinstance(pin, str) or not pin:
            raise ValueError("the table needs a PIN (a non-empty string)")
        self._pin = pin.encode()
        self.tries, self.window, self._clock = tries, window, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def set_pin(self, pin: str) -> None:
        """A new PIN (the device menu's "New PIN"): phones signed in with the old one must sign
        in again, since their cookie's mark no longer matches."""
        with self._lock:
            self._pin = pin.encode()
            self._failures.clear()

    def mark(self, key: bytes) -> str:
        """A keyed fingerprint of the PIN, kept in a login's cookie to tie it to this PIN."""
        return hmac.new(key, b"pin:" + self._pin, "sha256").hexdigest()[:24]

    def _recent(self, address: str, now: float) -> deque[float]:
        failures = self._failures.get(address, deque())
        while failures and now - failures[0] >= self.window:
            failures.popleft()
        return failures

    def check(self, address: str, pin: str) -> bool:
        """True for the right PIN; raises a 429 ApiError while the address is locked out."""
        now = self._clock()
        with self._lock:
            failures = self._recent(address, now)
            if len(failures) >= self.tries:
                wait = max(1, int(self.window - (now - failures[0])) + 1)
                raise ApiError(429, f"too many wrong PINs: try again in {wait} s",
                               {"Retry-After": str(wait)})
            if hmac.compare_digest(pin.encode(), self._pin):
                self._failures.pop(address, None)
                return True
            if len(self._failures) >= MAX_ADDRESSES and address not in self._failures:
                self._forget_stale(now)
            failures.append(now)
            self._failures[address] = failures
            return False

    def _forget_stale(self, now: float) -> None:
        for address in [a for a, f in self._failures.items() if not self._recent(a, now)]:
            del self._failures[address]
        if len(self._failures) >= MAX_ADDRESSES:   # still full: forget the oldest address
            del self._failures[next(iter(self._failures))]


def client_address() -> str:
    return request.remote_addr or "unknown"


def csrf_token() -> str:
    """This session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def csrf_ok(token: str | None) -> bool:
    expected = session.get("csrf")
    return bool(expected and token and hmac.compare_digest(str(token), expected))


def _pin_mark() -> str:
    key = current_app.secret_key
    return current_app.extensions["parlour"].guard.mark(
        key if isinstance(key, bytes) else str(key).encode())


def logged_in() -> bool:
    return bool(session.get("pin_ok")) and session.get("pin_mark") == _pin_mark()


def log_in() -> None:
    session.clear()
    session["pin_ok"] = True
    session["pin_mark"] = _pin_mark()
    session["csrf"] = secrets.token_urlsafe(24)   # a fresh token on every login


def log_out() -> None:
    session.clear()


def require_pin_for_api() -> None:
    """The PIN in the header, or a login cookie plus the CSRF header; else 401/403/429."""
    guard = current_app.extensions["parlour"].guard
    given = request.headers.get(PIN_HEADER)
    if given is not None:
        if not guard.check(client_address(), given):
            raise ApiError(403, "wrong PIN")
        return
    if logged_in():
        if not csrf_ok(request.headers.get(CSRF_HEADER)):
            raise ApiError(403, f"missing or wrong {CSRF_HEADER} header for this login")
        return
    raise ApiError(401, f"this needs the table's PIN: send {PIN_HEADER} or log in",
                   {"WWW-Authenticate": "Parlour-PIN"})
