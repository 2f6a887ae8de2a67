"""Small pieces of the log's English."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def listing(items: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cy'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def name_key(name: str) -> str:
    """What makes two names the same to players: case and spaces do not count (X10)."""
    return "".join(unicodedata.normalize("NFC", name).casefold().split())
