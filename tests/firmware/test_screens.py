"""Screens drawn on luma's dummy device and compared with reference PNGs.

Regenerate the references after a deliberate change with
    PARLOUR_REGEN_SCREENS=1 .venv/bin/python -m pytest tests/firmware/test_screens.py
and look at every PNG in tests/firmware/reference/ before committing them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware import screens
from firmware.animation import Animation
from firmware.views import Row, TurnView

REFERENCE = Path(__file__).parent / "reference"
REGENERATE = os.environ.get("PARLOUR_REGEN_SCREENS") == "1"

TURN = TurnView("Kat en Muis", "pool 10", "Ann (Cat)", "throw the dice", "sq 22 · 17 chips")


def settled_indicator() -> Image.Image:
    spin = Animation({"kind": "indicator", "count": 2, "faces": 6}, [3, 5], strength=0.6,
                     name="Ann", clock=lambda: 0.0)
    spin.skip()
    return screens.spin(spin.frame())


KEY_SCREENS = {
    "startup": lambda: screens.startup("http://192.168.1.23:8080/", "4821"),
    "game_menu": lambda: screens.game_menu(["Kat en Muis", "Life's Mishaps", "Cats and Dogs"],
                                           1, "2-6 players · a die"),
    "joining": lambda: screens.joining("Cats and Mice", [True, False, True, False],
                                       "press knob to start"),
    "turn": lambda: screens.turn(TURN),
    "spin_indicator": settled_indicator,
    "result": lambda: screens.result("Ann throws", "3 · 5", ["Ann to 30", "Ben pays Ann 1"]),
    "not_your_turn": lambda: screens.flash(screens.turn(TURN), "Not your turn"),
    "scores": lambda: screens.scores("Kat en Muis", [Row("Ann", "sq 30 · 18 chips", True),
                                                     Row("Ben", "sq 12 · 12 chips"),
                                                     Row("Pool", "10 chips")]),
}


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_screens_match_reference(name, dummy_device, tmp_path):
    dummy_device.display(KEY_SCREENS[name]())
    shown = dummy_device.image.convert("1")
    path = REFERENCE / f"{name}.png"
    if REGENERATE:
        shown.save(path)
    assert path.exists(), f"no reference {path.name}: run with PARLOUR_REGEN_SCREENS=1"
    reference = Image.open(path).convert("1")
    diff = ImageChops.difference(shown.convert("L"), reference.convert("L"))
    if diff.getbbox() is not None:
        shown.save(tmp_path / f"{name}.png")
        changed = sum(diff.histogram()[1:])
        pytest.fail(f"{name}: {changed} pixels differ from {path} (see {tmp_path})")


@pytest.mark.parametrize("name", sorted(KEY_SCREENS))
def test_screens_are_one_bit_128x64(name):
    image = KEY_SCREENS[name]()
    assert (image.mode, image.size) == ("1", (128, 64))
    assert image.getbbox() is not None


def test_screens_wrap_keeps_lines_inside_the_screen():
    words = "Move your cat 4, then 6. Then one mouse 10, or two mice 4 and 6."
    lines = screens.wrap(words, screens.SMALL)
    assert len(lines) > 1
    assert " ".join(lines) == words
    assert all(screens.width(line, screens.SMALL) <= screens.W - 2 for line in lines)


def test_screens_clip_adds_an_ellipsis_only_when_needed():
    assert screens.clip("Ann", screens.MEDIUM, 100) == "Ann"
    clipped = screens.clip("A very long player name indeed", screens.MEDIUM, 60)
    assert clipped.endswith("…") and screens.width(clipped, screens.MEDIUM) <= 60


def test_screens_key_line_is_big_type():
    image = screens.turn(TURN)
    name_band = image.crop((0, 14, 128, 38)).getbbox()
    assert name_band is not None and name_band[3] - name_band[1] >= 14   # letters >= 14 px tall


def test_screens_long_instruction_uses_three_small_lines():
    view = TurnView("Cats and Mice", "", "Ann", "Move your cat 4, then 6. Then one mouse "
                    "10, or two mice 4 and 6. Press your seat button for each mouse taken.")
    image = screens.turn(view)
    rows_lit = [y for y in range(31, 64) if image.crop((0, y, 128, y + 1)).getbbox()]
    assert rows_lit and rows_lit[-1] - rows_lit[0] > 22          # three lines of small type


def test_screens_flash_draws_over_the_screen_without_changing_it():
    base = screens.turn(TURN)
    before = base.tobytes()
    flashed = screens.flash(base, "Not your turn")
    assert base.tobytes() == before
    assert flashed.tobytes() != before


def test_screens_qr_code_is_drawn_dark_on_light():
    image = screens.startup("http://10.0.0.2:8080/", "1234")
    qr = image.crop((0, 0, 60, 64))
    lit = sum(qr.histogram()[1:])
    assert 0.3 * 58 * 58 < lit < 0.9 * 58 * 58


def test_screens_dice_show_their_faces():
    spin = Animation({"kind": "dice", "count": 2, "faces": 6}, [6, 1], strength=0.5,
                     clock=lambda: 0.0)
    spin.skip()
    six_one = screens.spin(spin.frame())
    spin = Animation({"kind": "dice", "count": 2, "faces": 6}, [1, 6], strength=0.5,
                     clock=lambda: 0.0)
    spin.skip()
    assert screens.spin(spin.frame()).tobytes() != six_one.tobytes()
