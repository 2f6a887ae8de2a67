"""The controls from the physical signal: MockFactory pins driven low/high on a fake clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import Config, Pins
from firmware.pins.controls import Controls, ControlsError, Debounce, Quadrature
from firmware.pins.inputs import InputEvent
from fakes import stuck_pins

SEATS = (5, 6, 13, 19, 26, 25)


@pytest.fixture
def events():
    return []


@pytest.fixture
def controls(mock_factory, clock, events):
    with Controls(Config(), events.append, pin_factory=mock_factory, clock=clock) as c:
        yield c


def press(factory, clock, pin, hold=0.1):
    """A clean press and release of the button on `pin`."""
    factory.pin(pin).drive_low()
    clock.advance(hold)
    factory.pin(pin).drive_high()
    clock.advance(0.1)


def bounce(factory, clock, pin, levels, spacing=0.002):
    for level in levels:
        factory.pin(pin).drive_high() if level else factory.pin(pin).drive_low()
        clock.advance(spacing)


def test_controls_seat_press_is_a_seat_event(controls, mock_factory, clock, events):
    press(mock_factory, clock, SEATS[2])
    assert events == [InputEvent("seat", seat=2)]


def test_controls_undo_and_menu_buttons(controls, mock_factory, clock, events):
    press(mock_factory, clock, 23)
    press(mock_factory, clock, 24)
    assert events == [InputEvent("undo"), InputEvent("menu")]


def test_controls_pin_map_names_every_input(controls):
    assert controls.pin_map == {**{f"seat{i}": p for i, p in enumerate(SEATS)}, "undo": 23,
                                "menu": 24, "encoder_a": 17, "encoder_b": 27,
                                "encoder_button": 22}


def test_controls_unarmed_seat_is_ignored(controls, mock_factory, clock, events):
    controls.arm({1})
    press(mock_factory, clock, SEATS[0])
    press(mock_factory, clock, SEATS[1])
    controls.arm(None)
    press(mock_factory, clock, SEATS[0])
    assert events == [InputEvent("ignored", seat=0), InputEvent("seat", seat=1),
                      InputEvent("seat", seat=0)]


def test_controls_two_seats_pressed_at_once(controls, mock_factory, clock, events):
    controls.arm({3})
    mock_factory.pin(SEATS[3]).drive_low()
    mock_factory.pin(SEATS[4]).drive_low()       # same instant, other debounce
    clock.advance(0.2)
    mock_factory.pin(SEATS[3]).drive_high()
    mock_factory.pin(SEATS[4]).drive_high()
    assert events == [InputEvent("seat", seat=3), InputEvent("ignored", seat=4)]
    events.clear()
    controls.arm(None)
    clock.advance(0.2)
    mock_factory.pin(SEATS[0]).drive_low()
    mock_factory.pin(SEATS[5]).drive_low()
    assert events == [InputEvent("seat", seat=0), InputEvent("seat", seat=5)]


def test_controls_bounce_burst_is_one_press(controls, mock_factory, clock, events):
    bounce(mock_factory, clock, SEATS[0], [0, 1, 0, 1, 0])    # contact bounce on press
    clock.advance(0.1)
    bounce(mock_factory, clock, SEATS[0], [1, 0, 1, 0, 1])    # and on release
    controls.poll()
    clock.advance(0.1)
    controls.poll()
    assert events == [InputEvent("seat", seat=0)]
    press(mock_factory, clock, SEATS[0])
    assert events == [InputEvent("seat", seat=0)] * 2


def test_controls_edge_within_debounce_is_bounce(controls, mock_factory, clock, events):
    press(mock_factory, clock, 23, hold=0.05)
    clock.advance(-0.1 + 0.01)         # 10 ms after the release edge: a 5 ms glitch
    bounce(mock_factory, clock, 23, [0, 1], spacing=0.005)
    clock.advance(0.1)
    controls.poll()
    assert events == [InputEvent("undo")]


def test_controls_quick_tap_in_bounce_window_is_not_lost(controls, mock_factory, clock, events):
    press(mock_factory, clock, 23, hold=0.01)    # release edge inside the debounce window
    clock.advance(0.3)
    press(mock_factory, clock, 23)               # next press still counts
    assert events == [InputEvent("undo")] * 2


def test_controls_slow_turn_navigates(controls, knob, clock, events):
    knob.turn(+2, interval=0.2)
    clock.advance(0.2)
    controls.poll()
    knob.turn(-1, interval=0.2)
    clock.advance(0.2)
    controls.poll()
    assert events == [InputEvent("turn", detents=1), InputEvent("turn", detents=1),
                      InputEvent("turn", detents=-1)]


def test_controls_flick_is_a_spin(controls, knob, clock, events):
    knob.turn(+24, interval=0.008)
    controls.poll()
    assert events == []                          # the burst is not over yet
    clock.advance(0.2)
    controls.poll()
    assert len(events) == 1 and events[0].kind == "flick" and events[0].detents == 24
    assert 0 < events[0].strength <= 1


def test_controls_half_steps_do_not_count(controls, knob, clock, events):
    knob.drive([(0, 1), (1, 1)], 0.01)           # A wobbles and returns: half step
    knob.drive([(0, 1), (0, 0), (0, 1), (1, 1)], 0.01)   # halfway in and back out
    clock.advance(0.5)
    controls.poll()
    assert events == [] and controls.quadrature.state == "rest"
    knob.turn(+1)
    clock.advance(0.5)
    controls.poll()
    assert events == [InputEvent("turn", detents=1)]


def test_controls_bouncing_encoder_contact_counts_one_detent(controls, knob, clock, events):
    # A bounces on its first edge, B bounces on its last: still exactly one detent
    knob.drive([(0, 1), (1, 1), (0, 1), (1, 1), (0, 1), (0, 0), (1, 0),
                (1, 1), (1, 0), (1, 1)], 0.001)
    clock.advance(0.5)
    controls.poll()
    assert events == [InputEvent("turn", detents=1)]


def test_controls_quadrature_rejects_invalid_transitions():
    q = Quadrature()
    assert [q.feed(c) for c in (0b10, 0b01, 0b11, 0b10, 0b00)] == [0, 0, 0, 0, 0]
    assert q.noise == 1 and q.state == "rest"
    assert [q.feed(c) for c in (0b10, 0b11, 0b01, 0b00)] == [0, 0, 0, 1]
    assert [q.feed(c) for c in (0b01, 0b11, 0b10, 0b00)] == [0, 0, 0, -1]


def test_controls_debounce_settles_by_time():
    d = Debounce(0.03)
    assert d.update(True, 0.0) == [(True, 0.0)]
    assert d.update(False, 0.01) == []
    assert d.update(False, 0.05) == [(False, 0.01)]


def test_controls_a_switch_pressed_at_start_counts_only_once_let_go(clock, events):
    """A button that read pressed as the box started (held, or wired to its normally closed
    contact) acted at the first poll: a stuck Undo took back the last move of a resumed game
    at every start. It now counts only after it is let go, and the box says why."""
    factory = stuck_pins({23, 5})                                   # Undo and seat 1
    with Controls(Config(), events.append, pin_factory=factory, clock=clock) as c:
        assert c.held_at_start == ["seat0", "undo"]
        assert c.held_at_start_words() == (
            "Seat 1 and Undo read pressed at start (BCM 5, BCM 23): not counted until let go. "
            "Check the wiring (normally open).")
        for _ in range(5):
            clock.advance(0.5)
            c.poll()
        factory.pin(23).drive_high()                               # let go: still nothing
        clock.advance(0.1)
        c.poll()
        assert events == []
        press(factory, clock, 23)
        c.poll()
        assert events == [InputEvent("undo")]
    with Controls(Config(), events.append, pin_factory=MockFactory(), clock=clock) as c:
        assert c.held_at_start == [] and c.held_at_start_words() == ""


def test_controls_knob_press_and_hold(controls, mock_factory, clock, events):
    press(mock_factory, clock, 22, hold=0.3)
    mock_factory.pin(22).drive_low()
    clock.advance(0.5)
    controls.poll()
    clock.advance(0.5)
    controls.poll()
    mock_factory.pin(22).drive_high()
    clock.advance(0.1)
    controls.poll()
    assert events == [InputEvent("press"), InputEvent("hold")]


def test_controls_wake_once_as_a_knob_gesture_begins(mock_factory, knob, clock, events):
    """The knob's switch going down and a turn's first detent emit no input, yet the main loop
    must poll busy from then: each calls `wake` once. A seat press is its own input (no wake),
    and the rest of a flick or of bouncing contacts wakes no one again."""
    woken = []
    with Controls(Config(), events.append, pin_factory=mock_factory, clock=clock,
                  wake=lambda: woken.append(clock())) as controls:
        press(mock_factory, clock, SEATS[0])
        assert (events, woken) == ([InputEvent("seat", seat=0)], [])
        down = clock()
        bounce(mock_factory, clock, 22, [0, 1, 0, 1, 0])            # the knob, bouncing down
        assert woken == [down]
        clock.advance(1.0)
        controls.poll()
        mock_factory.pin(22).drive_high()
        clock.advance(0.1)
        controls.poll()
        start = clock()
        knob.turn(+12, interval=0.01)                               # a flick: 48 edges
        assert woken[1:] == [pytest.approx(start + 0.01)]           # its first detent only
        clock.advance(1.0)
        controls.poll()
        assert [e.kind for e in events] == ["seat", "hold", "flick"] and not controls.busy
    assert len(woken) == 2


def test_controls_seat_leds_light_the_player(controls, mock_factory):
    controls.light({2})
    assert controls.lit == {2}
    assert mock_factory.pin(20).state and not mock_factory.pin(12).state
    controls.light(set())
    assert controls.lit == frozenset() and not mock_factory.pin(20).state


def test_controls_without_leds_or_buzzer(mock_factory, clock, events):
    config = Config(seats=2, pins=Pins(seat_leds=(), buzzer=None))
    with Controls(config, events.append, pin_factory=mock_factory, clock=clock) as c:
        c.light({0})
        c.beep("win")
        assert c.lit == frozenset() and set(c.pin_map) >= {"seat0", "seat1"}
        assert "seat2" not in c.pin_map


def test_controls_beep_drives_the_buzzer(controls, mock_factory):
    controls.beep("click")
    controls.buzzer.off()
    with pytest.raises(ControlsError, match="unknown beep pattern"):
        controls.beep("fanfare")


def test_controls_pin_in_use_is_a_clear_error(mock_factory, clock, events):
    from gpiozero import Button
    taken = Button(17, pin_factory=mock_factory)
    try:
        with pytest.raises(ControlsError, match=r"BCM 17 for \[pins\] encoder_a"):
            Controls(Config(), events.append, pin_factory=mock_factory, clock=clock)
        assert Button(5, pin_factory=mock_factory).close() is None   # freed again
    finally:
        taken.close()
    taken = Button(5, pin_factory=mock_factory)                     # the first seat's pin
    try:
        with pytest.raises(ControlsError, match=r"BCM 5 for seat 1 \(\[pins\] seats\)"):
            Controls(Config(), events.append, pin_factory=mock_factory, clock=clock)
    finally:
        taken.close()


def test_controls_close_releases_pins(mock_factory, clock, events):
    c = Controls(Config(), events.append, pin_factory=mock_factory, clock=clock)
    c.close()
    c.close()
    Controls(Config(), events.append, pin_factory=MockFactory(), clock=clock).close()
    again = Controls(Config(), events.append, pin_factory=mock_factory, clock=clock)
    again.close()


def test_controls_close_turns_the_lights_and_the_buzzer_off_first(mock_factory, clock, events):
    """At a stop, lit seat LEDs and a sounding buzzer were released as they were, driven
    high: the LEDs and buzzer go off before their pins are released."""
    config = Config()
    c = Controls(config, events.append, pin_factory=mock_factory, clock=clock)
    c.light({0, 2})
    c.buzzer.on()
    lit = [config.pins.seat_leds[0], config.pins.seat_leds[2], config.pins.buzzer]
    assert all(mock_factory.pin(p).state for p in lit)
    c.close()
    assert not any(mock_factory.pin(p).state for p in lit)


def test_controls_callback_may_call_back_into_controls(mock_factory, clock):
    seen = []

    def on_input(event):
        seen.append(event)
        controls.arm({event.seat})

    controls = Controls(Config(), on_input, pin_factory=mock_factory, clock=clock)
    try:
        press(mock_factory, clock, SEATS[1])
        press(mock_factory, clock, SEATS[2])
        assert seen == [InputEvent("seat", seat=1), InputEvent("ignored", seat=2)]
    finally:
        controls.close()


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(),
                    reason="a Raspberry Pi loads a pin library: nothing to refuse there")
def test_controls_hardware_pi_off_a_pi_is_one_line_naming_what_was_tried(monkeypatch, clock,
                                                                         events):
    """`hardware = "pi"` on a laptop printed gpiozero's four fallback warnings, eight lines of
    file paths, before "cannot use BCM 5 for seat0: Unable to load any default pin
    factory!"; one error now names each library tried and the way out."""
    import warnings
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        with pytest.raises(ControlsError) as refused:
            Controls(Config(), events.append, clock=clock)
    said = str(refused.value)
    assert said.startswith("cannot use BCM 5 for seat 1 ([pins] seats): ") and "(tried " in said
    assert "lgpio: " in said and said.endswith("elsewhere hardware = \"auto\" or --sim "
                                               "simulates the box")
    assert not [w for w in shown if "Falling back" in str(w.message)]
