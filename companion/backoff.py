"""Pauses that grow with each failure in a row, the last repeated: a helper that keeps
failing is retried ever more rarely, and never hammers the box."""

from __future__ import annotations

from collections.abc import Sequence

RETRY_SECONDS = (1, 2, 4, 8, 15, 30, 60)


def pause_after(failures: int, pauses: Sequence[float] = RETRY_SECONDS) -> float:
    """The pause after the `failures`-th failure in a row (from 1): its step, or the last."""
    return pauses[min(max(failures, 1), len(pauses)) - 1]
