"""Phones paired with a seat, proven by a code only someone at the box can read: on the box,
Menu -> "Pair a phone" and a press of the player's seat button show a six-digit code for that
button (for PAIR_SECONDS); typed on the phone, it pairs the phone with that button. From then
on the phone spins and presses for that seat only, with no PIN. A press alone never pairs.

The firmware hands the box's side in through `Pairings.offer(button)` (web never imports
firmware). A phone is known by a random token kept in its signed cookie; the table keeps only
the token's SHA-256, with the seat button, in a 0600 JSON file in the data directory, so a
pairing survives a restart and a copied file pairs no one. The box lists the paired phones by
button and can unpair them (`paired`, `unpair_button`).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.errors import StoreError
from web.access.keptfile import read_kept, token_digest, write_kept

PAIR_SECONDS = 120.0     # a code stays valid this long: read at the box, typed on a phone
CODE_DIGITS = 6
CODE_TRIES = 5           # wrong codes an address may type within CODE_WINDOW
CODE_WINDOW = 60.0
TABLE_CODE_TRIES = 20    # wrong codes for one code, all addresses: then one per address
MAX_ADDRESSES = 4096     # addresses whose recent wrong codes are kept
MAX_GUESSERS = 65_536    # addresses kept as having typed a wrong code for the open code
MAX_PHONES = 64          # paired phones kept; the oldest pairing goes first


def new_token() -> str:
    return secrets.token_urlsafe(18)


def phone_clock(header: str | None) -> datetime | None:
    """The time a phone's clock says (`X-Parlour-Clock`: whole milliseconds since 1970, UTC);
    None for anything else or a year outside 2000-2199."""
    if header is None or not header.isascii() or not header.isdigit() or len(header) > 13:
        return None
    said = datetime.fromtimestamp(int(header) / 1000, timezone.utc)
    return said if 2000 <= said.year < 2200 else None


def phone_id(token: str | None) -> str:
    """A phone's short name in the log's `by` ("phone-3fa2c1"): its digest's first digits."""
    return f"phone-{token_digest(token)[:6]}" if token else "phone"


@dataclass
class Offer:
    button: int
    code: str
    until: float
    wrong: int = 0                                   # wrong codes for it, from anyone
    guessers: set[str] = field(default_factory=set)  # the addresses that typed them


class CodeRefused(Exception):
    """A code typed on a phone that does not pair it, with the words to show there."""


class CodeWait(CodeRefused):
    """A code not even compared: its address typed too many wrong ones. `wait`: seconds
    until it may try again, or None (not for this code: the box must show a new one)."""

    def __init__(self, words: str, wait: int | None):
        super().__init__(words)
        self.wait = wait


class Pairings:
    """Which phone (by token) is paired with which seat button (1-based, as on the box)."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float],
                 seconds: float = PAIR_SECONDS):
        self.path = Path(path) if path is not None else None
        self._clock, self.seconds = clock, seconds
        self._lock = threading.Lock()
        self._paired: dict[str, int] = self._load()
        self._offer: Offer | None = None
        self._wrong: OrderedDict[str, deque[float]] = OrderedDict()   # by address, newest last
        self.on_paired: Callable[[int], None] | None = None    # the OLED says so
        self.on_changed: Callable[[], None] | None = None      # phones ask again (the web)

    def _load(self) -> dict[str, int]:
        data = read_kept(self.path)
        paired = data.get("paired") if isinstance(data, dict) else None
        if not isinstance(paired, dict):
            return {}
        return {k: v for k, v in paired.items()
                if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                and 1 <= v <= 64}

    def _changed(self) -> None:
        if self.on_changed is not None:
            self.on_changed()

    def _save(self, before: dict[str, int], what: str) -> None:
        """Keep the pairings; if they cannot be kept, put them back as they were and raise
        (StoreFull on a full card): a pairing is never answered as done and then lost."""
        try:
            write_kept(self.path, {"paired": self._paired}, what)
        except StoreError:
            self._paired = before
            raise

    # -- the box ---------------------------------------------------------------------------

    def offer(self, button: int) -> str:
        """A new code for seat button `button` (1-based), replacing any open one: the box
        shows it; the phone of that button's player types it."""
        code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
        with self._lock:
            self._offer = Offer(button, code, self._clock() + self.seconds)
        return code

    def offered(self) -> tuple[int, str, float] | None:
        """(button, code, seconds left) of the code open now, for the OLED."""
        with self._lock:
            offer = self._offer
            left = offer.until - self._clock() if offer else 0.0
            return (offer.button, offer.code, left) if offer and left > 0 else None

    def withdraw(self) -> None:
        with self._lock:
            self._offer = None

    def paired(self) -> dict[int, int]:
        """How many phones are paired with each seat button."""
        with self._lock:
            counts: dict[int, int] = {}
            for button in self._paired.values():
                counts[button] = counts.get(button, 0) + 1
            return dict(sorted(counts.items()))

    def unpair_button(self, button: int) -> int:
        """Unpair every phone of seat button `button` (from the box); how many."""
        with self._lock:
            before = dict(self._paired)
            self._paired = {k: v for k, v in self._paired.items() if v != button}
            gone = len(before) - len(self._paired)
            if gone:
                self._save(before, "this unpairing")
        if gone:
            self._changed()
        return gone

    # -- the phone -------------------------------------------------------------------------

    def claim(self, token: str, code: str, *, address: str = "unknown") -> int:
        """Pair the phone that typed `code` from `address` with the button the box showed it
        for; that button, or CodeRefused in the words to show (CodeWait: not compared). Wrong
        codes never void the box's code: they shut their addresses out (see the module)."""
        typed = "".join(code.split())
        with self._lock:
            now = self._clock()
            self._check_address(address, now)
            offer = self._offer
            if offer is None or now >= offer.until:
                self._offer = None
                raise CodeRefused("The box shows no pairing code now: on the box, Menu, "
                                  "\"Pair a phone\", then press your seat button.")
            if offer.wrong >= TABLE_CODE_TRIES and address in offer.guessers:
                raise CodeWait("Too many wrong codes at this table: this phone may not try "
                               "that code again. Ask the box for a new one (Menu, \"Pair a "
                               "phone\").", None)
            # (a lone surrogate, "\ud800", is a wrong code too: it answered 500)
            if not hmac.compare_digest(typed.encode("utf-8", "surrogatepass"),
                                       offer.code.encode()):
                self._count_wrong(offer, address, now)
                raise CodeRefused("That is not the code on the box: type the six digits "
                                  "it shows.")
            digest = token_digest(token)
            before = dict(self._paired)
            self._paired.pop(digest, None)
            while len(self._paired) >= MAX_PHONES:
                del self._paired[next(iter(self._paired))]
            self._paired[digest] = offer.button
            self._save(before, "this pairing")
            self._offer = None
            self._wrong.pop(address, None)
            button = offer.button
        if self.on_paired is not None:
            self.on_paired(button)
        self._changed()
        return button

    def _recent(self, address: str, now: float) -> deque[float]:
        wrong = self._wrong.get(address, deque())
        while wrong and now - wrong[0] >= CODE_WINDOW:
            wrong.popleft()
        return wrong

    def _check_address(self, address: str, now: float) -> None:
        """CodeWait while `address` has typed CODE_TRIES wrong codes within CODE_WINDOW."""
        wrong = self._recent(address, now)
        if len(wrong) >= CODE_TRIES:
            wait = max(1, int(CODE_WINDOW - (now - wrong[0])) + 1)
            raise CodeWait(f"Too many wrong codes from this phone: try again in {wait} s, "
                           "with the code the box shows.", wait)

    def _count_wrong(self, offer: Offer, address: str, now: float) -> None:
        """A wrong code from `address`: counted for it, and for the open code."""
        wrong = self._recent(address, now)
        wrong.append(now)
        self._wrong[address] = wrong
        self._wrong.move_to_end(address)
        while len(self._wrong) > MAX_ADDRESSES:          # the least recent guesser goes
            self._wrong.popitem(last=False)
        offer.wrong += 1
        if len(offer.guessers) < MAX_GUESSERS:
            offer.guessers.add(address)

    def status(self, token: str | None) -> dict[str, Any]:
        """{"button": n | None} for this phone."""
        if not token:
            return {"button": None}
        with self._lock:
            return {"button": self._paired.get(token_digest(token))}

    def button(self, token: str | None) -> int | None:
        return self.status(token)["button"]

    def forget(self, token: str | None) -> bool:
        """Undo this phone's pairing. True if it was paired."""
        if not token:
            return False
        digest = token_digest(token)
        with self._lock:
            before = dict(self._paired)
            found = self._paired.pop(digest, None) is not None
            if found:
                self._save(before, "this unpairing")
        if found:
            self._changed()
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
