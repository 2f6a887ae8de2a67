"""Ties the box to the phones: the kept sign-in secret and seat pairings handed to the web app,
the seat buttons handed to a phone waiting to pair, and the menu's "New PIN" handed back."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from firmware.datadir import keys
from firmware.config import WiFi
from web.access.auth import Logins
from web.access.phones import Pairings

PAIRINGS_FILE = "phones.json"
LOGINS_FILE = "logins.json"      # the live sign-ins (digests), so a restart keeps them


def phone_options(data_dir: Path) -> dict[str, Any]:
    """`create_app`'s keyword arguments for phones that stay signed in and paired."""
    return {"secret_key": keys.session_secret(data_dir), "table_id": keys.table_id(data_dir),
            "pairings": Pairings(Path(data_dir) / PAIRINGS_FILE, clock=time.monotonic),
            "logins": Logins(Path(data_dir) / LOGINS_FILE)}


def connect_phones(controller, app, data_dir: Path, *, pin_kept: bool, wifi: WiFi) -> None:
    """Hand the controller its hooks: the phones' pairings, a new PIN (only when the PIN is the kept
    one: a PIN from the config or --pin is the owner's to change) and the Wi-Fi code."""
    controller.codes.wifi = wifi
    parlour = app.extensions["parlour"] if app is not None else None
    if parlour is not None and parlour.pairings is not None:
        parlour.pairings.on_paired = controller.notice_paired
        controller.pairings = parlour.pairings
    if pin_kept:
        def new_pin() -> str:
            pin = keys.new_pin(data_dir)
            if parlour is not None:
                parlour.guard.set_pin(pin)
            return pin
        controller.new_pin = new_pin
