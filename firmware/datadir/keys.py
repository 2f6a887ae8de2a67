"""What the table keeps in its data directory so a restart changes nothing for the players:
the PIN (made once when none is configured), the secret that signs the phones' sign-ins, and
the table's id (made once: it tells this table's games from every other box's in a score app
or a club). The files are written 0600, atomically, so a power cut leaves the old one or the new one."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

from companion.errors import ParlourError
from firmware.config import pin_problem
from web.access.keptfile import keep_private, write_private

PIN_FILE = "pin"
SECRET_FILE = "session-secret"
SECRET_BYTES = 32
TABLE_ID_FILE = "table-id"
TABLE_ID_HEX = 16


PIN_DIGITS = 6          # a million PINs: with the table-wide limit, years of guessing


def make_pin() -> str:
    return f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"


def _kept_text(path: Path, what: str) -> str | None:
    """The text kept at `path` ("" if it is not ASCII), None if there is none; a file there
    that cannot be read is refused in one line rather than made anew (a restore as root left
    the PIN unreadable to the service, which then made a new one: every phone locked out)."""
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        return ""
    except OSError as err:
        raise ParlourError(f"{path}: cannot read {what} there ({err.strerror}): let the user "
                           "the table runs as read it, or move it aside to make a new one") \
            from None


def stored_pin(data_dir: Path) -> str:
    """The table's PIN from the data directory; a new one is made and kept the first time.
    A file that holds no PIN of 4 to 8 digits is refused (ParlourError), never replaced: the
    players know the PIN that was there."""
    path = Path(data_dir) / PIN_FILE
    pin = _kept_text(path, "the table's PIN")
    if pin is None:
        return new_pin(data_dir)
    if pin_problem(pin):
        raise ParlourError(f"{path}: holds no PIN of 4 to 8 digits: put the table's PIN there, "
                           "or move the file aside to make a new one")
    return pin


def new_pin(data_dir: Path) -> str:
    """A fresh PIN, kept in the data directory (the device menu's "New PIN"); StoreFull or
    StoreError if it cannot be kept (the old PIN stays)."""
    pin = make_pin()
    keep_private(Path(data_dir) / PIN_FILE, pin.encode(), "the new PIN")
    return pin


def session_secret(data_dir: Path) -> bytes:
    """The key that signs phones' cookies, made once: phones stay signed in across restarts."""
    path = Path(data_dir) / SECRET_FILE
    try:
        secret = path.read_bytes()
    except OSError:
        secret = b""
    if len(secret) != SECRET_BYTES:
        secret = secrets.token_bytes(SECRET_BYTES)
        write_private(path, secret)
    elif path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)
    return secret


def table_id(data_dir: Path) -> str:
    """The table's id: 16 random hex digits, made once and kept (a copied SD card keeps it; a
    file that is missing or does not hold such an id gets a new one)."""
    return _made_once(Path(data_dir) / TABLE_ID_FILE,
                      lambda kept: len(kept) == TABLE_ID_HEX
                      and all(c in "0123456789abcdef" for c in kept),
                      lambda: secrets.token_hex(TABLE_ID_HEX // 2))


CLUB_ID_FILE = "club-id"


def club_id(data_dir: Path) -> str:
    """A club's id, made once in its data directory like a table's: its MQTT client id
    (`parlour-club-<id>`), so the broker keeps one persistent session for that club across
    restarts, and two clubs on one broker (two data directories) never take each other's."""
    return _made_once(Path(data_dir) / CLUB_ID_FILE,
                      lambda kept: len(kept) == TABLE_ID_HEX
                      and all(c in "0123456789abcdef" for c in kept),
                      lambda: secrets.token_hex(TABLE_ID_HEX // 2))


def _made_once(path: Path, good: Callable[[str], bool], make: Callable[[], str]) -> str:
    """The text kept at `path` if `good` says it is; otherwise a new one from `make`, kept
    (ParlourError for a file there that cannot be read)."""
    kept = _kept_text(path, f"the {path.name.replace('-', ' ')}") or ""
    if good(kept):
        return kept
    made = make()
    write_private(path, made.encode())
    return made


HOTSPOT_FILE = "hotspot-password"
HOTSPOT_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"      # none of 0/o, 1/l/i to misread


def make_hotspot_password() -> str:
    """Twelve letters and digits in three groups ("k7mp-2xqa-rj9c"): 59 bits, easy to read
    off the OLED and type on a phone, and a valid WPA2 passphrase."""
    letters = "".join(secrets.choice(HOTSPOT_ALPHABET) for _ in range(12))
    return "-".join(letters[i:i + 4] for i in range(0, 12, 4))


def hotspot_password(data_dir: Path) -> str:
    """The hotspot's WPA2 password, made once and kept (a file that is missing or does not
    hold one gets a new one)."""
    return _made_once(Path(data_dir) / HOTSPOT_FILE,
                      lambda kept: 8 <= len(kept) <= 63 and kept.isprintable(),
                      make_hotspot_password)
