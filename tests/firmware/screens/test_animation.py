"""The spin animation: timed by an injected clock, shaped by the flick, ending on the roll."""

from __future__ import annotations

import math

import pytest

from firmware.oled.animation import MAX_SECONDS, MIN_SECONDS, Animation, duration_for

INDICATOR = {"kind": "indicator", "count": 2, "faces": 6}
DICE = {"kind": "dice", "count": 2, "faces": 6}


def test_animation_harder_flick_spins_longer():
    assert duration_for(0.05) < duration_for(0.5) < duration_for(1.0)
    assert MIN_SECONDS <= duration_for(0.0) and duration_for(5.0) == MAX_SECONDS


@pytest.mark.parametrize("values", [(1, 1), (3, 5), (6, 2)])
def test_animation_indicator_arrows_stop_on_the_roll(values, clock):
    spin = Animation(INDICATOR, values, strength=0.7, clock=clock)
    clock.advance(spin.duration / 2)
    assert not spin.done and not spin.frame().settled
    clock.advance(spin.duration)
    frame = spin.frame()
    assert spin.done and frame.settled
    assert frame.faces_up == values
    for value, angle in zip(values, frame.angles):
        assert math.isclose(angle % (2 * math.pi), (value - 0.5) / 6 * 2 * math.pi)


def test_animation_slows_down(clock):
    spin = Animation(INDICATOR, (2, 4), strength=1.0, clock=clock)
    t0 = clock.now
    speeds = []
    for i in range(4):
        a = spin.frame(t0 + i * 0.6).angles[0]
        b = spin.frame(t0 + i * 0.6 + 0.01).angles[0]
        speeds.append(abs(b - a))
    assert speeds == sorted(speeds, reverse=True) and speeds[-1] < speeds[0] / 2


def test_animation_dice_tumble_then_show_the_roll(clock):
    spin = Animation(DICE, (6, 6), strength=0.5, clock=clock)
    early = [spin.frame(clock.now + t).faces_up for t in (0.0, 0.1, 0.3, 0.5)]
    assert any(faces != (6, 6) for faces in early)
    assert all(1 <= f <= 6 for faces in early for f in faces)
    assert spin.frame(clock.now + spin.duration).faces_up == (6, 6)


@pytest.mark.parametrize("strength", [0.0, 0.4, 1.0])
@pytest.mark.parametrize("values", [(2, 4), (6, 6), (1, 5)])
def test_animation_dice_are_seen_to_rest_on_the_roll_before_the_spin_ends(clock, strength,
                                                                           values):
    """The dice sat on the faces before the roll (6 and 6 for 0.8 s of a 2.3 s spin) until
    the result screen jumped to "2 · 4": the box seemed to change the throw. They land on
    the roll for the last fifth of the spin at least, and stay there."""
    spin = Animation(DICE, values, strength=strength, clock=clock)
    late = [spin.frame(clock.now + spin.duration * u).faces_up
            for u in (0.8, 0.85, 0.9, 0.95, 0.99)]
    assert late == [values] * len(late)
    assert spin.frame(clock.now).faces_up != values or values == (6, 6)


def test_animation_press_skips_to_the_result(clock):
    spin = Animation({"kind": "spinner", "count": 1, "faces": 6}, (4,), strength=1.0,
                     clock=clock)
    spin.skip()
    frame = spin.frame()
    assert spin.done and frame.settled and frame.faces_up == (4,)


def test_animation_spinner_labels_are_shown(clock):
    spin = Animation({"kind": "spinner", "count": 1, "faces": 3, "labels": ["1", "2", "double 1"]},
                     (3,), strength=0.2, clock=lambda: 0.0)
    spin.skip()
    assert spin.frame().shown == ("double 1",)
