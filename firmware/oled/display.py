"""The OLED: moves finished frames to luma's device, changed pages only, and survives faults.

A loose wire or a brown-out must not stop the game: show() never raises for an I2C fault. It
marks the display unhealthy, keeps the last image, and after `retry_seconds` (by the injected
clock) probes the bus; when the panel answers it is rebuilt (its init sequence re-sent) and the
last image repainted. Drawing is not done here: screens draw a PIL image, this only sends it.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager

from luma.core.error import Error as LumaError
from PIL import Image

from firmware.config import DisplayConfig
from firmware.oled.pages import PageWriter, addressing_for

log = logging.getLogger("parlour.display")
FAULTS = (OSError, LumaError)   # luma turns EIO/EREMOTEIO on commands into DeviceNotFoundError
NOP = 0xE3                      # a no-op command on SSD1306 and SH1106: answers "are you there?"


@contextmanager
def _luma_full_frame():
    """luma's own display() (run by a device's constructor and cleanup) calls
    Image.getdata, which Pillow 13 deprecates; that call is luma's, so silence exactly it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Image\.Image\.getdata is deprecated",
                                category=DeprecationWarning)
        yield


def _i2c(config: DisplayConfig):
    from luma.core.interface.serial import i2c
    return i2c(port=config.port, address=config.address)


def _driver(config: DisplayConfig):
    from luma.oled.device import sh1106, ssd1306
    return {"ssd1306": ssd1306, "sh1106": sh1106}[config.driver]


class Display:
    """One OLED. `device` None builds luma's ssd1306/sh1106 on I2C from `config`; tests and the
    simulator pass a device (luma's dummy shows whole images; real drivers get page updates)."""

    def __init__(self, config: DisplayConfig, *, device=None,
                 clock: Callable[[], float] = time.monotonic, retry_seconds: float = 5.0):
        self.config = config
        self.retry_seconds = retry_seconds
        self._clock = clock
        self.healthy = False
        self.frames = 0
        self.bytes_sent = 0
        self.faults = 0
        self.error: str | None = None
        self.last_image: Image.Image | None = None
        self.device = device
        self._writer: PageWriter | None = None
        self._retry_at = 0.0
        self._said: str | None = None      # the fault logged last, until the panel answers
        # Rebuilding needs the bus and the driver class: ours, or taken from the device given.
        self._serial = getattr(device, "_serial_interface", None)
        self._rotate = device.rotate if device is not None else config.rotation
        self._make = (type(device) if device is not None and addressing_for(device)
                      else None if device is not None else _driver(config))
        if device is None:
            self._connect()
        else:
            self._attach(device)

    def show(self, image: Image.Image) -> None:
        """Put `image` (the device's size) on the panel; on a fault, remember it for later."""
        self.last_image = image.copy()
        if not self.healthy and not self._recover():
            return
        self._send(image)

    def poll(self) -> None:
        """Retry a failed panel when due and repaint the last image, without a new frame."""
        if not self.healthy and self.last_image is not None and self._recover():
            self._send(self.last_image)

    def close(self) -> None:
        """Blank the panel and release the bus (errors ignored: we are leaving)."""
        device, self.device, self.healthy = self.device, None, False
        if device is not None:
            try:
                with _luma_full_frame():
                    device.cleanup()
            except FAULTS:
                pass

    @property
    def command_bytes(self) -> int:
        return self._writer.command_bytes if self._writer else 0

    # -- inside --

    def _send(self, image: Image.Image) -> None:
        try:
            if self._writer is not None:
                self.bytes_sent += self._writer.write(image)
            else:
                self.device.display(image)
        except FAULTS as err:
            self._fault(err)
            return
        self.frames += 1

    def _attach(self, device) -> None:
        self.device = device
        mode = addressing_for(device)
        self._writer = PageWriter(device, *mode) if mode else None
        self.healthy, self.error = True, None
        if self._said is not None:
            log.warning("OLED: answering again")
            self._said = None

    def _fault(self, err: BaseException) -> None:
        self.healthy = False
        self.faults += 1
        self.error = f"{type(err).__name__}: {err}"
        self._retry_at = self._clock() + self.retry_seconds
        if self.error != self._said:       # once a fault, not at every retry
            self._said = self.error
            log.warning("OLED: %s (I2C bus %s, address 0x%02X); trying again every %g s. Check "
                        "its four wires, the address and that I2C is on (raspi-config, then a "
                        "reboot); the table's PIN is the config's `pin`, else in the data "
                        "directory's file `pin` (sudo cat /var/lib/parlour/pin on a box)",
                        self.error, self.config.port, self.config.address, self.retry_seconds)
        if self._writer is not None:
            self._writer.invalidate()

    def _recover(self) -> bool:
        if self._clock() < self._retry_at:
            return False
        if self._make is None:            # a device we cannot rebuild: just try it again
            self.healthy, self.error = True, None
            return True
        return self._connect()

    def _connect(self) -> bool:
        """Open the bus once; ask the panel for a no-op before rebuilding (a rebuilt luma device
        stays referenced by its exit hook, so rebuild only once the panel answers)."""
        try:
            if self._serial is None:
                self._serial = _i2c(self.config)
            self._serial.command(NOP)
            with _luma_full_frame():
                device = self._make(self._serial, width=self.config.width,
                                    height=self.config.height, rotate=self._rotate)
        except FAULTS as err:
            self._fault(err)
            return False
        self._attach(device)
        return True
