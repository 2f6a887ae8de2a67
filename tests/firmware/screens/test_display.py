"""The display: frames to luma's devices, bytes counted, and I2C faults survived."""

from __future__ import annotations

import pytest
from luma.core.error import DeviceNotFoundError
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

import firmware.oled.display as display_module
from firmware.config import DisplayConfig
from firmware.oled.display import Display, _luma_full_frame


def frame(text_x: int = 0) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((text_x, 10, text_x + 20, 30), fill=1)
    return image


def bits(image):
    return [1 if image.getpixel((x, y)) else 0 for y in range(64) for x in range(128)]


@pytest.fixture
def oled(panel, clock):
    """A Display on a real ssd1306 driver talking to the fake panel."""
    with _luma_full_frame():
        device = ssd1306(panel)
    return Display(DisplayConfig(), device=device, clock=clock, retry_seconds=5.0)


def test_display_dummy_shows_whole_images(dummy_device, clock):
    d = Display(DisplayConfig(), device=dummy_device, clock=clock)
    d.show(frame(5))
    assert d.healthy and d.frames == 1 and bits(dummy_device.image) == bits(frame(5))
    assert bits(d.last_image) == bits(frame(5))


def test_display_sends_only_changed_pages(oled, panel):
    panel.reset_counts()
    oled.show(frame(0))
    assert oled.bytes_sent == 1024 and panel.data_bytes == 1024
    oled.show(frame(0))
    assert oled.bytes_sent == 1024 and oled.frames == 2
    oled.show(frame(4))                        # rectangle moves 4 px: pages 1-3, 25 columns
    assert oled.bytes_sent == 1024 + 3 * 25
    assert panel.image_bits() == bits(frame(4))


def test_display_keeps_its_own_copy_of_the_last_image(oled):
    image = frame(0)
    oled.show(image)
    image.paste(1, (0, 0, 128, 64))
    assert bits(oled.last_image) == bits(frame(0))


def test_display_fault_mid_frame_never_raises(oled, panel, clock):
    oled.show(frame(0))
    panel.fail_on_data = 2                     # the wire comes loose during the next frame
    oled.show(frame(40))
    assert not oled.healthy and "Remote I/O" in oled.error and oled.faults == 1
    assert bits(oled.last_image) == bits(frame(40))
    panel.reset_counts()
    clock.advance(4.9)
    oled.show(frame(50))                       # too soon: nothing touches the bus
    assert panel.commands == [] and panel.data_calls == []
    clock.advance(0.2)
    oled.show(frame(60))                       # retried: device rebuilt, whole frame sent
    assert oled.healthy and oled.error is None
    assert panel.commands[0] == (0xE3,)                          # asked first
    assert any(cmd[0] == 0xAE for cmd in panel.commands)         # init sequence re-sent
    assert panel.image_bits() == bits(frame(60))
    assert panel.data_calls[-8:] == [128] * 8


def test_display_still_faulty_panel_is_asked_not_rebuilt(oled, panel, clock):
    oled.show(frame(0))
    panel.fail_commands = True
    oled.show(frame(9))
    assert not oled.healthy and oled.faults == 1    # luma's EREMOTEIO -> DeviceNotFoundError
    device = oled.device
    clock.advance(6)
    oled.show(frame(10))
    assert not oled.healthy and oled.faults == 2 and oled.device is device


def test_display_poll_repaints_after_recovery(oled, panel, clock):
    oled.show(frame(0))
    panel.fail_on_data = 1
    oled.show(frame(30))
    clock.advance(5)
    oled.poll()
    assert oled.healthy and panel.image_bits() == bits(frame(30))


def test_display_without_a_bus_starts_unhealthy_and_retries(monkeypatch, panel, clock,
                                                            caplog):
    """A panel that is not found is said once in the log (it was recorded and never said:
    a blank OLED and a journal with nothing to go on), and said again when it answers."""
    calls = []

    def no_bus(config):
        calls.append(config)
        if len(calls) == 1:
            raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")
        return panel

    monkeypatch.setattr(display_module, "_i2c", no_bus)
    caplog.set_level("WARNING", logger="parlour.display")
    d = Display(DisplayConfig(driver="sh1106", rotation=2), clock=clock)
    assert not d.healthy and "i2c-1" in d.error
    d.show(frame(3))
    assert not d.healthy and len(calls) == 1
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "/dev/i2c-1" in said[0] and "0x3C" in said[0] \
        and "`pin`" in said[0]
    clock.advance(5)
    d.show(frame(3))
    assert d.healthy and isinstance(d.device, sh1106) and d.device.rotate == 2
    assert [r.getMessage() for r in caplog.records][1:] == ["OLED: answering again"]
    assert panel.image_bits(offset=2) == bits(frame(3).rotate(180))


def test_display_dummy_that_fails_is_tried_again(clock):
    class Flaky:
        size, rotate = (128, 64), 0
        calls = 0

        def display(self, image):
            Flaky.calls += 1
            if Flaky.calls == 1:
                raise OSError(5, "Input/output error")

    d = Display(DisplayConfig(), device=Flaky(), clock=clock, retry_seconds=1)
    d.show(frame())
    assert not d.healthy
    clock.advance(1)
    d.show(frame())
    assert d.healthy and Flaky.calls == 2 and d.frames == 1


def test_display_close_blanks_and_tolerates_faults(oled, panel):
    oled.show(frame(0))
    oled.close()
    assert not oled.healthy and oled.device is None
    assert (0xAE,) in panel.commands            # luma's hide(): display off
    oled.close()
