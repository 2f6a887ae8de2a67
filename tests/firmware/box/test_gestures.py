"""The knob's gestures from synthetic step times: flick, slow turn, jitter, noise, press, hold."""

from __future__ import annotations

import pytest

from firmware.pins.gestures import Burst, Gestures, Tuning, classify
from firmware.pins.inputs import InputEvent


def burst(*steps: tuple[int, float]) -> Burst:
    return Burst(tuple(steps))


def evenly(direction: int, count: int, interval: float, start: float = 0.0):
    """`count` steps `interval` seconds apart."""
    return [(direction, start + i * interval) for i in range(count)]


def feed(gestures: Gestures, steps, then: float | None = None) -> list[InputEvent]:
    out: list[InputEvent] = []
    for direction, at in steps:
        out += gestures.step(direction, at)
    if then is not None:
        out += gestures.poll(then)
    return out


def test_gestures_fast_flick_is_a_spin_with_strength():
    event = classify(burst(*evenly(+1, 20, 0.01)))
    assert event.kind == "flick" and event.detents == 20
    assert 0 < event.strength <= 1


def test_gestures_stronger_flick_has_more_strength():
    soft = classify(burst(*evenly(+1, 6, 0.025)))
    hard = classify(burst(*evenly(+1, 40, 0.004)))
    assert soft.kind == hard.kind == "flick"
    assert 0 < soft.strength < hard.strength == 1.0


def test_gestures_anticlockwise_flick_keeps_its_direction():
    event = classify(burst(*evenly(-1, 12, 0.01)))
    assert event.kind == "flick" and event.detents == -12


def test_gestures_slow_turn_navigates_by_detents():
    assert classify(burst(*evenly(+1, 3, 0.08))) == InputEvent("turn", detents=3)
    assert classify(burst(*evenly(-1, 2, 0.05))) == InputEvent("turn", detents=-2)


def test_gestures_few_fast_steps_are_a_turn_not_a_flick():
    assert classify(burst(*evenly(+1, 3, 0.005))) == InputEvent("turn", detents=3)


def test_gestures_jitter_is_ignored():
    assert classify(burst((1, 0.0), (-1, 0.01), (1, 0.02), (-1, 0.03))) is None
    assert classify(burst((1, 0.0), (-1, 0.05), (1, 0.1))) is None


def test_gestures_single_noisy_step_inside_a_flick_keeps_it_a_flick():
    steps = evenly(+1, 15, 0.01)
    steps[7] = (-1, steps[7][1])
    event = classify(burst(*steps))
    assert event.kind == "flick" and event.detents == 13


def test_gestures_single_step_is_one_detent():
    assert classify(burst((1, 5.0))) == InputEvent("turn", detents=1)


@pytest.mark.parametrize("count, interval", [(4, 0.001), (10, 0.02), (60, 0.003), (8, 0.0)])
def test_gestures_strength_stays_in_range(count, interval):
    event = classify(burst(*evenly(1, count, interval)))
    assert event.kind == "flick" and 0 < event.strength <= 1


def test_gestures_burst_ends_after_settle_time():
    g = Gestures()
    assert feed(g, evenly(+1, 3, 0.08)) == []
    assert g.poll(0.16 + 0.05) == []                 # still inside the settle time
    assert g.poll(0.16 + 0.12) == [InputEvent("turn", detents=3)]
    assert g.poll(5.0) == []


def test_gestures_slow_separate_detents_navigate_one_by_one():
    g = Gestures()
    out = feed(g, [(1, 0.0), (1, 0.3), (-1, 0.6)], then=1.0)
    assert out == [InputEvent("turn", detents=1)] * 2 + [InputEvent("turn", detents=-1)]


def test_gestures_flick_run_on_is_swallowed():
    g = Gestures()
    out = feed(g, evenly(+1, 20, 0.01), then=0.19 + 0.12)
    assert [e.kind for e in out] == ["flick"]
    # the heavy knob coasts: a few slow late steps are part of the flick, not a turn
    assert feed(g, [(1, 0.45), (1, 0.6), (1, 0.8)], then=1.1) == []
    assert feed(g, [(1, 2.0)], then=2.5) == [InputEvent("turn", detents=1)]


def test_gestures_press_confirms():
    g = Gestures()
    assert g.down(1.0) == []
    assert g.poll(1.5) == []
    assert g.up(1.6) == [InputEvent("press")]


def test_gestures_hold_opens_menu_once_while_held():
    g = Gestures()
    g.down(1.0)
    assert g.poll(1.99) == []
    assert g.poll(2.0) == [InputEvent("hold")]
    assert g.poll(3.0) == []
    assert g.up(3.5) == []


def test_gestures_hold_without_polling_is_reported_at_release():
    g = Gestures()
    g.down(0.0)
    assert g.up(1.2) == [InputEvent("hold")]


def test_gestures_custom_tuning_moves_thresholds():
    strict = Tuning(flick_rate=200.0)
    assert classify(burst(*evenly(+1, 10, 0.01)), strict).kind == "turn"
    assert classify(burst(*evenly(+1, 10, 0.01))).kind == "flick"


@pytest.mark.parametrize("gap", [0.0, 0.02, 0.05])
def test_gestures_a_turn_then_a_quick_press_is_the_turn_then_the_press(gap):
    """Three detents, then the knob pressed 0-50 ms after the last (within the 120 ms that end
    a burst): the press came first and the turn after it, so the game list opened the game
    before the one turned to (100 of 100 at once). The burst ends as the switch moves."""
    g = Gestures()
    out = feed(g, evenly(+1, 3, 0.08))
    last = 2 * 0.08
    out += g.down(last + gap)
    out += g.up(last + gap + 0.06)
    out += g.poll(last + 1.0)
    assert [(e.kind, e.detents) for e in out] == [("turn", 3), ("press", 0)]


def test_gestures_a_detent_while_the_knob_is_pushed_is_no_turn():
    """The shaft wobbles a detent as it is pushed (cheap push encoders click one): taken
    before the press, the box made the move next to the one on the screen. The steps before
    the push are a turn before the press; one while it is down is none."""
    g = Gestures()
    out = feed(g, evenly(-1, 2, 0.1))
    out += g.down(0.15)
    out += feed(g, [(+1, 0.2)])
    out += g.up(0.25)
    out += g.poll(1.0)
    assert [(e.kind, e.detents) for e in out] == [("turn", -2), ("press", 0)]
    out = g.down(2.0) + feed(g, [(+1, 2.05)]) + g.up(2.1) + g.poll(3.0)
    assert [(e.kind, e.detents) for e in out] == [("press", 0)]
