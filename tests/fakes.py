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


HOTSPOT = {"ssid": "Parlour-ab12", "password": "k7mp-2xqa-rj9c"}     # ChangingNetwork's


class ChangingNetwork:
    """The box's Wi-Fi as the controller reads it (firmware/network): a status with its
    version and the hotspot's name and password; `change` moves it on a version."""

    def __init__(self, **status):
        self.version, self._status = 1, status

    def status(self) -> dict:
        return {**self._status, "version": self.version, "hotspot": dict(HOTSPOT)}

    def change(self, **changes) -> None:
        self._status.update(changes)
        self.version += 1


def cookie_value(client, name: str) -> str:
    """A Flask test client's cookie `name` (Werkzeug 2.3's get_cookie, or the cookie jar of
    2.2, the lowest version the project supports)."""
    if hasattr(client, "get_cookie"):
        return client.get_cookie(name).value
    return next(c.value for c in client.cookie_jar if c.name == name)


def give_cookie(client, name: str, value: str) -> None:
    """Set cookie `name` on a Flask test client, in Werkzeug 2.3's words or 2.2's (which
    takes the server name first)."""
    if hasattr(client, "get_cookie"):
        client.set_cookie(name, value)
    else:
        client.set_cookie("localhost", name, value)


def stuck_pins(stuck: set[int], base=None):
    """gpiozero's mock pins (`base`: its MockFactory, as it was before a test replaced it),
    those numbered in `stuck` reading low (pressed) from the start, whatever their pull-up
    says."""
    if base is None:
        from gpiozero.pins.mock import MockFactory as base

    class StuckPins(base):
        def __init__(self):
            super().__init__()

            class StuckPin(self.pin_class):
                def _set_pull(self, value):
                    super()._set_pull(value)
                    if self.info.name and int(self.info.name[4:]) in stuck:
                        self.drive_low()
            self.pin_class = StuckPin
    return StuckPins()
