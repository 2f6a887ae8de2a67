"""Hardware faults end to end: the runner's build() and main loop with the simulated pins, and
an OLED on a bus that fails mid-frame. Bouncing buttons, encoder noise and half steps, two
seats at once, a seat out of turn: the table keeps running and its log stays right."""

from __future__ import annotations

import time

import pytest
from luma.oled.device import ssd1306

from companion.replay import replay
from firmware import runner
from firmware.config import Config, DisplayConfig
from firmware.controller.parts.notices import LATE_PRESS_SECONDS
from firmware.oled.display import Display, _luma_full_frame
from reliability_support import comparable


class FlakyBus:
    """A luma I2C interface whose every `fail_every`-th transfer raises OSError (a loose wire
    or a brown-out), part-way through a frame as often as not."""

    def __init__(self, fail_every: int | None = None):
        self.fail_every = fail_every
        self.transfers = 0
        self.failures = 0

    def _transfer(self) -> None:
        self.transfers += 1
        if self.fail_every and self.transfers % self.fail_every == 0:
            self.failures += 1
            raise OSError(121, "Remote I/O error")

    def command(self, *cmd: int) -> None:
        self._transfer()

    def data(self, data) -> None:
        self._transfer()

    def cleanup(self) -> None:
        pass


@pytest.fixture
def table(tmp_path, mock_factory):
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path, seats=4), pin="1234", web=False)
    bus = FlakyBus()
    with _luma_full_frame():
        device = ssd1306(bus)
    table.display.close()
    table.display = Display(DisplayConfig(), device=device, clock=table.panel.clock,
                            retry_seconds=0.5)
    table.bus = bus
    yield table
    table.close()


def turn_once(table) -> None:
    """One pass of the real main loop (inputs, controller, frame to the display), then stop."""
    poll = table.controls.poll

    def poll_then_stop() -> None:
        poll()
        table.stop.set()

    table.controls.poll = poll_then_stop
    table.inputs.put(runner.WAKE)
    try:
        runner.loop(table)
    finally:
        table.controls.poll = poll
        table.stop.clear()


def act(table, **payload) -> None:
    table.panel.handle_input(payload)
    turn_once(table)


def pin(table, name: str):
    return table.panel.factory.pin(table.panel.pin_map[name])


def edges(table, name: str, levels, spacing: float = 0.0005) -> None:
    """Drive a pin through `levels` (1 = released/high), `spacing` s apart on the sim clock."""
    p = pin(table, name)
    for level in levels:
        p.drive_high() if level else p.drive_low()
        table.panel.clock.advance(spacing)


def settle(table, seconds: float = 0.5) -> None:
    table.panel.clock.advance(seconds)
    table.controls.poll()
    turn_once(table)


def log_is_right(table) -> dict:
    """The table's state is the replay of its stored log; returns the stored events' view."""
    snap = table.session.snapshot()
    events = table.store.events(snap["game_id"])
    assert comparable(replay(events).to_json()) == comparable(snap)
    return {"events": events, "snap": snap}


def start(table, game: str, players: int = 2) -> None:
    table.session.new_game(game, ["Ann", "Ben", "Cy", "Dee"][:players])
    turn_once(table)
    for _ in range(40):                                 # the lead spin-off, by flicks
        if table.session.snapshot()["phase"] == "play":
            return
        act(table, input="knob", action="flick", detents=14)
        act(table, input="knob", action="press")        # skip the animation
    raise AssertionError("the lead never settled")


def test_hardware_display_failing_mid_frame_never_stops_the_game(table):
    table.bus.fail_every = 7                             # several faults a frame, for a while
    start(table, "kat-en-muis")
    for _ in range(15):
        act(table, input="knob", action="flick", detents=16)
        for _ in range(3):
            settle(table, 0.2)                           # animation frames, on a failing bus
        act(table, input="knob", action="press")
        if table.session.snapshot()["phase"] == "over":
            break
    assert table.bus.failures > 5 and table.display.faults > 5
    state = log_is_right(table)
    assert state["snap"]["rolls"] >= 10
    table.bus.fail_every = None                          # the wire is pushed back in
    settle(table, 1.0)
    settle(table, 1.0)
    assert table.display.healthy and table.display.last_image is not None


def test_hardware_bouncing_seat_button_records_one_press(table):
    start(table, "cats-and-mice")
    act(table, input="knob", action="flick", detents=14)
    act(table, input="knob", action="press")
    time.sleep(LATE_PRESS_SECONDS)          # the result read (the box's clock is the real one):
    settle(table)                           # a seat's press is no stop of the dial now
    snap = table.session.snapshot()
    assert snap["awaiting"] == "next"                    # the spin allows a capture
    seat = snap["turn"]
    before = len(log_is_right(table)["events"])
    edges(table, f"seat{seat}", [0, 1, 0, 1, 0, 1, 0] + [0] * 3)      # contact bounce in 4 ms
    settle(table, 0.1)
    edges(table, f"seat{seat}", [1, 0, 1, 0, 1, 1, 1])                # and on release
    settle(table, 0.3)
    events = log_is_right(table)["events"]
    assert [e["type"] for e in events[before:]] == ["press"]
    assert events[-1]["seat"] == seat and events[-1]["by"] == f"seat {seat}"


def test_hardware_two_seats_at_once_and_out_of_turn(table):
    start(table, "cats-and-mice", players=3)
    act(table, input="knob", action="flick", detents=14)
    act(table, input="knob", action="press")
    time.sleep(LATE_PRESS_SECONDS)          # the result read (the box's clock is the real one):
    settle(table)                           # a seat's press is no stop of the dial now
    seat = table.session.snapshot()["turn"]
    other, third = [s for s in range(3) if s != seat][:2]
    before = len(log_is_right(table)["events"])
    pin(table, f"seat{seat}").drive_low()                # both hands land together
    pin(table, f"seat{other}").drive_low()
    table.panel.clock.advance(0.1)
    pin(table, f"seat{seat}").drive_high()
    pin(table, f"seat{other}").drive_high()
    settle(table, 0.2)
    act(table, input="seat", seat=third)                 # a seat out of turn, on its own
    assert table.controller.notice.text.startswith("It is ")        # whose turn, in words
    events = log_is_right(table)["events"]
    assert [(e["type"], e.get("by")) for e in events[before:]] == [("press", f"seat {seat}")]
    assert not any(e.get("by") in (f"seat {other}", f"seat {third}") for e in events)


def test_hardware_encoder_noise_and_half_steps_never_spin(table):
    start(table, "kat-en-muis")
    rolls = table.session.snapshot()["rolls"]
    turns = []
    handle = table.controller.handle
    table.controller.handle = lambda event: (turns.append(event.kind), handle(event))
    for _ in range(30):
        edges(table, "encoder_a", [0, 1, 0, 1, 0, 1])      # one contact chattering
        edges(table, "encoder_b", [0, 1, 0, 1])
        edges(table, "encoder_a", [0])                     # half way into a detent ...
        edges(table, "encoder_b", [0])
        edges(table, "encoder_b", [1])                     # ... and back out of it
        edges(table, "encoder_a", [1])
        edges(table, "encoder_b", [0, 1])                  # a half step the other way
    settle(table, 0.6)
    assert table.session.snapshot()["rolls"] == rolls
    assert table.controls.quadrature.state == "rest" and "turn" not in turns
    assert "flick" not in turns
    act(table, input="knob", action="flick", detents=14)  # a real flick still spins, once
    assert table.session.snapshot()["rolls"] == rolls + 1 and "flick" in turns
    log_is_right(table)
