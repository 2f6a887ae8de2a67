"""Fakes for the device's hardware: a clock tests move, a knob that drives the encoder's
pins, luma's dummy device and a fake I2C panel (the MockFactory fixture is tests/conftest.py's).
"""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.session import Session
from companion.record.store import Store
from controller_support import SEED
from fakes import FakeClock


class Knob:
    """Turns an encoder the way a hand does: A and B pins driven in quadrature, each level
    change `interval / 4` after the last on the fake clock. Pulled up: active = low."""

    CW = ((0, 1), (0, 0), (1, 0), (1, 1))       # (A level, B level) after each edge
    CCW = ((1, 0), (0, 0), (0, 1), (1, 1))

    def __init__(self, factory: MockFactory, clock: FakeClock, a: int = 17, b: int = 27):
        self.a, self.b, self.clock = factory.pin(a), factory.pin(b), clock

    def drive(self, levels, interval: float = 0.0) -> None:
        """Set A and B to each (a, b) in turn, `interval` seconds apart; one pin per edge."""
        for a, b in levels:
            self.clock.advance(interval)
            for pin, level in ((self.a, a), (self.b, b)):
                if pin.state != level:
                    pin.drive_high() if level else pin.drive_low()

    def turn(self, detents: int, interval: float = 0.1) -> None:
        """Full detents, + clockwise, each taking `interval` seconds."""
        cycle = self.CW if detents > 0 else self.CCW
        for _ in range(abs(detents)):
            self.drive(cycle, interval / 4)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path):
    """A real store in the test's own directory."""
    store = Store(tmp_path / "parlour.db")
    yield store
    store.close()


@pytest.fixture
def session(store):
    """A session on that store with a fixed seed and a fixed clock."""
    return Session(store, new_seed=lambda: SEED, clock=lambda: "2025-01-01T12:00:00Z")


@pytest.fixture
def knob(mock_factory, clock) -> Knob:
    """The default config's encoder (A = BCM 17, B = BCM 27) under the test's hand."""
    return Knob(mock_factory, clock)


@pytest.fixture
def dummy_device():
    """luma's dummy 128x64 1-bit device: keeps the last image shown."""
    return dummy(width=128, height=64, mode="1")


class FakePanel:
    """A luma serial interface (command/data) that behaves like the OLED's memory: 8 pages of
    132 columns. It follows the addressing a frame uses (SSD1306 0x21/0x22 windows, SH1106
    0xB0 page + column nibbles) and ignores other commands (init, contrast). `fail_on_data`
    makes that data() call (1-based, counted from now) raise OSError, like a pulled wire."""

    COLUMNS = 132

    def __init__(self):
        self.memory = [bytearray(self.COLUMNS) for _ in range(8)]
        self.commands: list[tuple[int, ...]] = []
        self.data_calls: list[int] = []          # bytes in each data() call
        self.fail_on_data: int | None = None
        self.fail_commands = False
        self.window = (0, 127, 0, 7)
        self.page, self.column = 0, 0

    @property
    def data_bytes(self) -> int:
        return sum(self.data_calls)

    def command(self, *cmd: int) -> None:
        if self.fail_commands:
            raise OSError(121, "Remote I/O error")
        self.commands.append(cmd)
        if cmd[0] == 0x21:                               # SSD1306 window
            self.window = (cmd[1], cmd[2], cmd[4], cmd[5])
            self.page, self.column = cmd[4], cmd[1]
        elif 0xB0 <= cmd[0] <= 0xB7 and len(cmd) == 3:    # SH1106 page + column
            self.page = cmd[0] & 0x07
            self.column = (cmd[1] & 0x0F) | ((cmd[2] & 0x0F) << 4)
            self.window = None

    def data(self, data) -> None:
        if self.fail_on_data is not None:
            self.fail_on_data -= 1
            if self.fail_on_data == 0:
                self.fail_on_data = None
                raise OSError(121, "Remote I/O error")
        self.data_calls.append(len(data))
        for byte in data:
            self.memory[self.page][self.column] = byte
            self.column += 1
            if self.window and self.column > self.window[1]:     # horizontal mode wraps
                self.column = self.window[0]
                self.page = self.window[2] if self.page >= self.window[3] else self.page + 1

    def pixel(self, x: int, y: int, offset: int = 0) -> int:
        return (self.memory[y // 8][x + offset] >> (y % 8)) & 1

    def image_bits(self, offset: int = 0, width: int = 128, height: int = 64) -> list[int]:
        """The panel as 0/1 per pixel, row by row, to compare with an image."""
        return [self.pixel(x, y, offset) for y in range(height) for x in range(width)]

    def reset_counts(self) -> None:
        self.commands.clear()
        self.data_calls.clear()

    def cleanup(self) -> None:
        pass


@pytest.fixture
def panel() -> FakePanel:
    return FakePanel()


@pytest.fixture
def new_panel():
    """Makes more FakePanels (for a second panel, or one per hypothesis example)."""
    return FakePanel
