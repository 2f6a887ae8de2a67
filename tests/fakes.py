"""Fakes shared by every test folder and the benchmarks (import as `from fakes import ...`)."""

from __future__ import annotations


class FakeClock:
    """A monotonic clock that only moves when a test says so: `advance`, or set `now`."""

    def __init__(self, start: float = 1000.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now
