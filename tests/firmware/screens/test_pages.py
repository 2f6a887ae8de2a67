"""The partial-update layer: page conversion, diffs, bytes on the bus, and the panel's memory."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from firmware.oled.display import _luma_full_frame
from firmware.oled.pages import PageWriter, addressing_for, changed_span, to_pages


def make(driver, panel, rotate=0):
    """A real luma driver on the fake panel (its constructor clears the screen itself)."""
    with _luma_full_frame():
        device = driver(panel, rotate=rotate)
    panel.reset_counts()
    return device


def writer_for(device) -> PageWriter:
    return PageWriter(device, *addressing_for(device))


def bits(image: Image.Image) -> list[int]:
    return [1 if image.getpixel((x, y)) else 0
            for y in range(image.height) for x in range(image.width)]


def noise(seed: int, size=(128, 64)) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("1", size)
    image.putdata([rng.getrandbits(1) for _ in range(size[0] * size[1])])
    return image


def test_pages_pixel_lands_in_its_page_bit():
    image = Image.new("1", (128, 64))
    image.putpixel((5, 21), 1)
    pages = to_pages(image)
    assert len(pages) == 8 and all(len(p) == 128 for p in pages)
    assert pages[2][5] == 1 << 5
    assert sum(sum(p) for p in pages) == 1 << 5


def test_pages_grey_image_is_thresholded_not_dithered():
    image = Image.new("L", (128, 64), 100)
    assert to_pages(image) == [bytes(128)] * 8
    assert to_pages(Image.new("L", (128, 64), 200)) == [b"\xff" * 128] * 8


def test_pages_changed_span_finds_first_and_last_column():
    old = bytes(128)
    new = bytearray(old)
    new[3], new[90] = 1, 2
    assert changed_span(old, bytes(new)) == (3, 90)
    assert changed_span(old, old) is None


@pytest.mark.parametrize("driver, offset", [(ssd1306, 0), (sh1106, 2)])
def test_pages_panel_memory_equals_image(panel, driver, offset):
    device = make(driver, panel)
    writer = writer_for(device)
    image = noise(1)
    assert writer.write(image) == 1024
    assert panel.image_bits(offset) == bits(image)


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_pages_match_what_luma_itself_sends(panel, new_panel, driver):
    image = noise(2)
    theirs = new_panel()
    with _luma_full_frame():
        driver(theirs).display(image)
    writer_for(make(driver, panel)).write(image)
    assert panel.memory == theirs.memory


def test_pages_unchanged_frame_sends_nothing(panel):
    writer = writer_for(make(ssd1306, panel))
    image = noise(3)
    writer.write(image)
    panel.reset_counts()
    assert writer.write(image.copy()) == 0
    assert panel.data_bytes == 0 and panel.commands == []
    assert writer.bytes_sent == 1024


@pytest.mark.parametrize("driver, offset", [(ssd1306, 0), (sh1106, 2)])
def test_pages_one_pixel_change_sends_one_page(panel, driver, offset):
    writer = writer_for(make(driver, panel))
    image = noise(4)
    writer.write(image)
    panel.reset_counts()
    image.putpixel((77, 40), 1 - image.getpixel((77, 40)))
    assert writer.write(image) == 1
    assert len(panel.commands) == 1 and panel.data_calls == [1]
    assert panel.image_bits(offset) == bits(image)


def test_pages_ssd1306_addresses_a_column_window(panel):
    writer = writer_for(make(ssd1306, panel))
    image = Image.new("1", (128, 64))
    writer.write(image)
    panel.reset_counts()
    ImageDraw.Draw(image).line((10, 9, 20, 9), fill=1)
    writer.write(image)
    assert panel.commands == [(0x21, 10, 20, 0x22, 1, 1)] and panel.data_calls == [11]


def test_pages_sh1106_addresses_page_and_offset_column(panel):
    writer = writer_for(make(sh1106, panel))
    image = Image.new("1", (128, 64))
    writer.write(image)
    panel.reset_counts()
    image.putpixel((30, 63), 1)
    writer.write(image)
    assert panel.commands == [(0xB7, 32 & 0x0F, 0x10 | (32 >> 4))]


def test_pages_rotated_device_gets_rotated_memory(panel):
    device = make(ssd1306, panel, rotate=2)
    image = noise(5)
    writer_for(device).write(image)
    assert panel.image_bits() == bits(image.rotate(180))


def test_pages_failed_write_resends_everything_next(panel):
    writer = writer_for(make(ssd1306, panel))
    writer.write(noise(6))
    panel.fail_on_data = 2
    with pytest.raises(OSError):
        writer.write(noise(7))
    assert writer.memory is None
    panel.reset_counts()
    assert writer.write(noise(7)) == 1024
    assert panel.image_bits() == bits(noise(7))


def test_pages_dummy_device_takes_whole_images(dummy_device):
    assert addressing_for(dummy_device) is None


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # new_panel is a class
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 127),
                          st.integers(0, 63), st.booleans()), min_size=1, max_size=6))
def test_pages_any_frame_sequence_leaves_panel_equal_to_last_frame(new_panel, boxes):
    panel = new_panel()
    writer = writer_for(make(ssd1306, panel))
    image = Image.new("1", (128, 64))
    for x0, y0, x1, y1, fill in boxes:
        ImageDraw.Draw(image).rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                                        fill=int(fill))
        writer.write(image)
        assert panel.memory[0][:128] == bytearray(to_pages(image)[0])
    assert panel.image_bits() == bits(image)
