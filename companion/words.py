"""Small pieces of the log's English."""

from __future__ import annotations

from collections.abc import Sequence


def listing(items: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cy'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
