"""The table's PIN: checked in constant time, wrong guesses rate-limited per address, a login
kept in the signed cookie session under an id the server also keeps (so logging out ends it
even where the cookie was copied), a per-session CSRF token for forms, and the Host/Origin
check that keeps web pages on other names (DNS rebinding) away from the table."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import socket
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from flask import current_app, request, session

from companion.backoff import pause_after
from companion.errors import StoreError
from web.errors import ApiError
from web.access.keptfile import read_kept, token_digest, write_kept

log = logging.getLogger(__name__)

PIN_HEADER = "X-Parlour-Pin"
CSRF_HEADER = "X-Parlour-Csrf"
MAX_ADDRESSES = 4096
MAX_LOGINS = 512              # live logins kept; past that the oldest is logged out
LOGIN_DAYS = 30               # a sign-in ends by itself this long after it began
CLOCK_JUMP = 120              # seconds the wall clock moves against the monotonic one: a jump
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


TABLE_TRIES = 20             # wrong PINs from all addresses together within the window
LOCKOUT_SECONDS = (60, 120, 240, 480, 960, 1920, 3600)   # each table-wide lockout, longer


class PinGuard:
    """Compares PINs. After `tries` wrong ones within `window` seconds an address gets 429;
    after `table_tries` wrong ones from all addresses together, every PIN (the right one too)
    gets 429 for 1, 2, 4 ... 60 minutes, one step longer each time it happens, one step
    shorter for each lockout's length that passes without a wrong PIN: a LAN of guests cannot
    share the search. Signed-in phones and the box are not affected."""

    def __init__(self, pin: str, *, tries: int = 5, window: float = 60.0,
                 table_tries: int = TABLE_TRIES, clock: Callable[[], float]):
        if not isinstance(pin, str) or not pin:
            raise ValueError("the table needs a PIN (a non-empty string)")
        self._pin = pin.encode()
        self.tries, self.window, self._clock = tries, window, clock
        self.table_tries = table_tries
        self._failures: dict[str, deque[float]] = {}
        self._table: deque[float] = deque()        # every address's wrong PINs, newest last
        self._level = 0                            # lockouts in a row (LOCKOUT_SECONDS' step)
        self._locked_until = 0.0
        self._lock = threading.Lock()

    def set_pin(self, pin: str) -> None:
        """A new PIN (the device menu's "New PIN"): phones signed in with the old one must sign
        in again, since their cookie's mark no longer matches."""
        with self._lock:
            self._pin = pin.encode()
            self._failures.clear()
            self._table.clear()
            self._level, self._locked_until = 0, 0.0

    def mark(self, key: bytes) -> str:
        """A keyed fingerprint of the PIN, kept in a login's cookie to tie it to this PIN."""
        return hmac.new(key, b"pin:" + self._pin, "sha256").hexdigest()[:24]

    def _recent(self, address: str, now: float) -> deque[float]:
        failures = self._failures.get(address, deque())
        while failures and now - failures[0] >= self.window:
            failures.popleft()
        return failures

    def _table_wait(self, now: float) -> int:
        """Seconds the whole table's PIN is locked for, 0 if it is not; the level steps down
        for each quiet lockout-length that passed since the last lockout ended."""
        if now < self._locked_until:
            return max(1, int(self._locked_until - now) + 1)
        while self._level and not self._table and \
                now - self._locked_until >= pause_after(self._level, LOCKOUT_SECONDS):
            self._locked_until += pause_after(self._level, LOCKOUT_SECONDS)
            self._level -= 1
        return 0

    def _count_for_table(self, now: float) -> None:
        while self._table and now - self._table[0] >= self.window:
            self._table.popleft()
        self._table.append(now)
        if len(self._table) >= self.table_tries:
            self._level += 1
            self._locked_until = now + pause_after(self._level, LOCKOUT_SECONDS)
            self._table.clear()

    def check(self, address: str, pin: str) -> bool:
        """True for the right PIN; raises a 429 ApiError while the address, or the whole
        table, is locked out."""
        now = self._clock()
        with self._lock:
            table_wait = self._table_wait(now)
            if table_wait:
                raise ApiError(429, f"too many wrong PINs at this table: every PIN waits "
                                    f"{table_wait} s (signed-in phones and the box carry on)",
                               {"Retry-After": str(table_wait)})
            failures = self._recent(address, now)
            if len(failures) >= self.tries:
                wait = max(1, int(self.window - (now - failures[0])) + 1)
                raise ApiError(429, f"too many wrong PINs: try again in {wait} s",
                               {"Retry-After": str(wait)})
            if hmac.compare_digest(pin.encode("utf-8", "surrogatepass"), self._pin):
                self._failures.pop(address, None)
                return True
            if len(self._failures) >= MAX_ADDRESSES and address not in self._failures:
                self._forget_stale(now)
            failures.append(now)
            self._failures[address] = failures
            self._count_for_table(now)
            return False

    def _forget_stale(self, now: float) -> None:
        for address in [a for a, f in self._failures.items() if not self._recent(a, now)]:
            del self._failures[address]
        if len(self._failures) >= MAX_ADDRESSES:   # still full: forget the oldest address
            del self._failures[next(iter(self._failures))]


class Logins:
    """The live logins, by id. A cookie alone proves nothing once its id is gone (logging
    out ends it for every copy of the cookie, and a login ends by itself `days` after it
    began). With a `path` they are kept there (digests and start times only, 0600), so phones
    stay signed in across a restart."""

    def __init__(self, path: Path | None = None, limit: int = MAX_LOGINS,
                 days: float = LOGIN_DAYS, clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic):
        self.path, self.limit, self.seconds, self._clock = path, limit, days * 86_400, clock
        self._monotonic = monotonic
        self._mine: set[str] = set()                # sign-ins begun in this run
        self._offset = clock() - monotonic()        # the wall clock less the monotonic one
        kept = read_kept(path)
        now = clock()
        migrated = isinstance(kept, list)           # an older Parlour kept ids alone
        if migrated:
            kept = {"logins": {d: now for d in kept}}
        found = kept.get("logins") if isinstance(kept, dict) else None
        self._ids: OrderedDict[str, float] = OrderedDict(
            (d, float(t)) for d, t in (found.items() if isinstance(found, dict) else [])
            if isinstance(d, str) and isinstance(t, (int, float)) and not isinstance(t, bool))
        self._lock = threading.Lock()
        if migrated:                                # their days start now, and stay counted
            try:
                write_kept(path, {"logins": dict(self._ids)}, "the sign-ins")
            except StoreError as err:
                log.warning("%s (kept as they were)", err)

    def start(self, replaces: object = None) -> str:
        """A new login, in the place of `replaces` (the login of the phone that signs in
        again: the old one ends with it, as a sign-out would end it, for every copy of its
        cookie); StoreError (nothing changed) if it cannot be kept."""
        login = secrets.token_urlsafe(18)
        with self._lock:
            now = self._now()
            before = OrderedDict(self._ids)
            if isinstance(replaces, str):
                self._ids.pop(token_digest(replaces), None)
            for digest in [d for d, t in self._ids.items() if t <= now - self.seconds]:
                del self._ids[digest]     # ended by age: forgotten now (one "from the future"
                #                           waits for a clock that is behind to catch up)
            self._ids[token_digest(login)] = now
            self._mine.add(token_digest(login))
            while len(self._ids) > self.limit:
                self._ids.popitem(last=False)
            self._keep(before, "this sign-in")
        return login

    def _now(self) -> float:
        """The wall clock; when it has jumped (a Pi boots with its last shutdown's time and
        NTP sets it later) the sign-ins begun in this run move with it, so their age is the
        time that passed: one made before the jump is not forty days old after it. Those of
        earlier runs were stamped by the clock of their run and stay. Call holding the lock."""
        now = self._clock()
        offset = now - self._monotonic()
        jump, self._offset = offset - self._offset, offset
        if abs(jump) > CLOCK_JUMP and self._mine & self._ids.keys():
            for digest in self._mine & self._ids.keys():
                self._ids[digest] += jump
            try:
                write_kept(self.path, {"logins": dict(self._ids)}, "the sign-ins")
            except StoreError as err:
                log.warning("%s (moved with the clock until the next restart)", err)
        return now

    def _fresh(self, started: float, now: float) -> bool:
        return now - self.seconds < started <= now + 86_400     # a clock set back a day: fine

    def alive(self, login: object) -> bool:
        with self._lock:
            now = self._now()
            started = self._ids.get(token_digest(login)) if isinstance(login, str) else None
            return started is not None and self._fresh(started, now)

    def end(self, login: object) -> None:
        """End a login for every copy of its cookie; StoreError (still signed in) if the
        file cannot be written, so a sign-out is never lost at the next restart."""
        with self._lock:
            if isinstance(login, str) and token_digest(login) in self._ids:
                before = OrderedDict(self._ids)
                del self._ids[token_digest(login)]
                self._keep(before, "this sign-out")

    def _keep(self, before: OrderedDict, what: str) -> None:
        try:
            write_kept(self.path, {"logins": dict(self._ids)}, what)
        except StoreError:
            self._ids = before              # as it was: refused, not answered as done
            raise


class KnownAddresses:
    """Addresses a signed-in or paired phone used lately: the server keeps room for them when
    guests fill its connections (firmware/webserver.py)."""

    def __init__(self, seconds: float = 600.0, limit: int = 256,
                 clock: Callable[[], float] = time.monotonic):
        self.seconds, self.limit, self._clock = seconds, limit, clock
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def saw(self, address: str) -> None:
        with self._lock:
            self._seen[address] = self._clock()
            self._seen.move_to_end(address)
            while len(self._seen) > self.limit:
                self._seen.popitem(last=False)

    def known(self, address: str) -> bool:
        with self._lock:
            seen = self._seen.get(address)
            return seen is not None and self._clock() - seen < self.seconds

    def any_within(self, seconds: float) -> bool:
        """Whether any such phone was heard in the last `seconds` (one polling counts)."""
        with self._lock:
            return bool(self._seen) and self._clock() - next(reversed(self._seen.values())) \
                < seconds


def host_name(value: str) -> str:
    """The name in a Host header or an origin's netloc, lower case, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


@lru_cache(maxsize=64)
def is_this_machine(name: str) -> bool:
    """True if `name` is an IP address of this machine (on any interface: a Pi serving its own
    Wi-Fi and a wired LAN has two). Only this machine can bind a socket to its addresses."""
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    if ip.is_unspecified or ip.is_multicast:
        return False
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((name, 0))
        return True
    except OSError:
        return False


class OwnNames:
    """The names and addresses this table answers to: loopback, the given ones, and any IP
    address of this machine (a name can be rebound to any address; an address cannot)."""

    def __init__(self, names: Iterable[str] = ()):
        self.names = frozenset(host_name(n) for n in (*LOOPBACK_NAMES, *names) if n)

    def __contains__(self, name: str) -> bool:
        return name in self.names or is_this_machine(name)

    def refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with this Host and Origin is not for this table, or None if it is.
        A missing Host (HTTP/1.0, not a browser) and the Origin "null" (what a browser sends
        for this table's own forms under Referrer-Policy: no-referrer) pass."""
        if host and host_name(host) not in self:
            return (f"this table does not answer to the name {host_name(host)[:60]!r}: open it "
                    f"by its own address (other names go in [web] allowed_hosts)")
        if origin and origin != "null":
            try:
                name = urlsplit(origin).hostname or ""
            except ValueError:
                name = ""
            if name not in self:
                return f"requests from {origin[:60]!r} are not accepted by this table"
        return None


def check_host() -> None:
    """Before every request: 403 unless it is addressed to, and comes from, this table."""
    why = current_app.extensions["parlour"].own_names.refusal(request.headers.get("Host"),
                                                            request.headers.get("Origin"))
    if why:
        raise ApiError(403, why)


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
    # bytes: compare_digest refuses str with non-ASCII characters (a forged token's 500)
    return bool(expected and token and hmac.compare_digest(str(token).encode(),
                                                           str(expected).encode()))


def _pin_mark() -> str:
    key = current_app.secret_key
    return current_app.extensions["parlour"].guard.mark(
        key if isinstance(key, bytes) else str(key).encode())


def logged_in() -> bool:
    """Signed in with the PIN in use now (a new PIN signs every phone out), by a login that
    has not been ended."""
    return bool(session.get("pin_ok")) and session.get("pin_mark") == _pin_mark() and \
        current_app.extensions["parlour"].logins.alive(session.get("login"))


def log_in() -> None:
    logins = current_app.extensions["parlour"].logins
    login = logins.start(replaces=session.get("login"))          # kept first, or refused
    session.clear()
    session["pin_ok"] = True
    session["login"] = login
    session["pin_mark"] = _pin_mark()
    session["csrf"] = secrets.token_urlsafe(24)   # a fresh token on every login


def login_id() -> str:
    """This phone's login in the log's `by`: "pin-" and its digest's first digits."""
    login = session.get("login")
    return f"pin-{token_digest(login)[:6]}" if isinstance(login, str) else "pin"


def log_out() -> None:
    current_app.extensions["parlour"].logins.end(session.get("login"))
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
