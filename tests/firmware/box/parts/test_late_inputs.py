"""Inputs a moment late alone: which inputs only read after the screen moved on by itself,
which are another hand's meant to stop the dial, for how long, and that one is used up."""

from __future__ import annotations

from fakes import FakeClock
from firmware.controller.parts.late import LateInputs
from firmware.controller.parts.notices import LATE_PRESS_SECONDS


def test_late_inputs_start_with_none_late():
    late = LateInputs(FakeClock())
    assert not any(late.reads(kind) for kind in ("press", "seat", "flick", "turn"))
    assert not any(late.meant_to_stop(kind) for kind in ("press", "seat", "flick", "turn"))


def test_late_inputs_a_press_or_seat_just_after_the_screen_moved_on_only_reads_once():
    clock = FakeClock()
    late = LateInputs(clock)
    late.moved_on(clock.now)
    assert not late.reads("flick") and not late.reads("turn")     # not of its kinds
    assert late.reads("seat")
    assert not late.reads("seat") and not late.reads("press")     # used up: the next acts


def test_late_inputs_read_only_within_their_moment_of_when_it_moved_on():
    clock = FakeClock()
    late = LateInputs(clock)
    late.moved_on(clock.now + 2.0)             # a page due to turn later
    clock.advance(2.0 + LATE_PRESS_SECONDS - 0.01)
    assert late.reads("press")
    late.moved_on(clock.now)
    clock.advance(LATE_PRESS_SECONDS)
    assert not late.reads("press")


def test_late_inputs_read_only_of_the_kinds_told():
    clock = FakeClock()
    late = LateInputs(clock)
    late.moved_on(clock.now, ("press", "flick"))
    assert not late.reads("seat")
    assert late.reads("flick")


def test_late_inputs_a_new_moment_replaces_the_last():
    clock = FakeClock()
    late = LateInputs(clock)
    late.moved_on(clock.now, ("press", "seat", "flick"))
    late.moved_on(clock.now, ("press",))
    assert not late.reads("seat") and late.reads("press")


def test_late_inputs_after_the_knob_stopped_the_dial_a_seat_was_meant_to_stop_it_once():
    for knob in ("press", "flick"):
        clock = FakeClock()
        late = LateInputs(clock)
        late.dial_stopped_by(knob)
        assert not late.meant_to_stop("press") and not late.meant_to_stop("flick")
        assert late.meant_to_stop("seat")
        assert not late.meant_to_stop("seat")                   # one; the next acts


def test_late_inputs_after_a_seat_stopped_the_dial_any_other_was_meant_to_stop_it():
    for other in ("press", "seat", "flick"):
        clock = FakeClock()
        late = LateInputs(clock)
        late.dial_stopped_by("seat")
        assert not late.meant_to_stop("turn")
        assert late.meant_to_stop(other)
        assert not late.meant_to_stop(other)


def test_late_inputs_meant_to_stop_the_dial_only_for_a_moment():
    clock = FakeClock()
    late = LateInputs(clock)
    late.dial_stopped_by("press")
    clock.advance(LATE_PRESS_SECONDS - 0.01)
    assert late.meant_to_stop("seat")
    late.dial_stopped_by("press")
    clock.advance(LATE_PRESS_SECONDS)
    assert not late.meant_to_stop("seat")


def test_late_inputs_the_two_windows_are_apart():
    clock = FakeClock()
    late = LateInputs(clock)
    late.dial_stopped_by("press")
    assert not late.reads("seat")
    late.moved_on(clock.now)
    assert late.meant_to_stop("seat")          # still there: reading did not use it up
    assert late.reads("seat")                  # nor stopping this one
