"""What the table keeps in its data directory so a restart changes nothing for the players:
the PIN (made once when none is configured) and the secret that signs the phones' sign-ins.
Both files are written 0600, atomically, so a power cut leaves the old one or the new one."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from firmware.config import pin_problem
from web.keptfile import write_private

PIN_FILE = "pin"
SECRET_FILE = "session-secret"
SECRET_BYTES = 32


def make_pin() -> str:
    return f"{secrets.randbelow(10_000):04d}"


def stored_pin(data_dir: Path) -> str:
    """The table's PIN from the data directory; a new one is made and kept the first time (or
    when the file no longer holds 4 to 8 digits)."""
    path = Path(data_dir) / PIN_FILE
    try:
        pin = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        pin = ""
    return new_pin(data_dir) if pin_problem(pin) else pin


def new_pin(data_dir: Path) -> str:
    """A fresh PIN, kept in the data directory (the device menu's "New PIN")."""
    pin = make_pin()
    write_private(Path(data_dir) / PIN_FILE, pin.encode())
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
