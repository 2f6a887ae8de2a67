"""Checks on decoded JSON and TOML values, shared by every layer."""

from __future__ import annotations

from typing import Any


def is_whole(value: Any) -> bool:
    """A whole number as JSON or TOML means it: an int, but not True or False."""
    return isinstance(value, int) and not isinstance(value, bool)
