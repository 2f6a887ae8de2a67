"""The main loop woken by a hand on the knob: `runner._turn` as `parlour run --sim` builds it,
on a clock only the test moves (no wall-clock timing: a busy machine cannot make it flake)."""

from __future__ import annotations

import queue
from types import SimpleNamespace

import pytest

from fakes import FakeClock
from firmware import runner
from firmware.config import Config
from firmware.pins import sim
from firmware.pins.controls import DEBOUNCE
from firmware.pins.gestures import Tuning


def on_time(seen: float, due: float) -> bool:
    """Seen within a busy poll of the moment it could first be known (1e-9: float sums)."""
    return due - 1e-9 <= seen <= due + runner.POLL_BUSY + 1e-9


class Hand:
    """Turns the loop by hand in virtual time. The input queue's wait takes no real time: it
    moves the clock to the moment of the next touch scheduled within it (a pin driven, which
    happens then) or else by its whole timeout; an item put meanwhile ends the wait at once.
    `waits` are (when, timeout) of each wait; `seen` are (input kind, when) handled."""

    def __init__(self, table: runner.Table, clock: FakeClock, *, dormant: bool):
        self.table, self.clock = table, clock
        self.touches: list[tuple[float, object]] = []
        self.waits: list[tuple[float, float]] = []
        self.seen: list[tuple[str, float]] = []
        self.pins = {name: table.panel.factory.pin(number)
                     for name, number in table.controls.pin_map.items()}
        get, handle = table.inputs.get, table.controller.handle
        table.inputs.get = self._get(get)
        table.controller.handle = lambda item: (self.seen.append((item.kind, clock())),
                                                handle(item))[1]
        active = runner.ACTIVE_SECONDS * (-1 if dormant else 1)
        self.state = (0.0, clock() + active)     # next frame; active until
        self.rest = runner.POLL_DORMANT if dormant else runner.POLL_IDLE

    def _get(self, get):
        def wait(block=True, timeout=None):
            if not block:
                return get(block=False)
            self.waits.append((self.clock(), timeout))
            end = self.clock() + timeout
            while True:
                try:
                    return get(block=False)
                except queue.Empty:
                    pass
                if not self.touches or self.touches[0][0] > end:
                    self.clock.now = max(self.clock.now, end)
                    raise queue.Empty
                at, touch = self.touches.pop(0)
                self.clock.now = max(self.clock.now, at)
                touch()
        return wait

    def at(self, when: float, name: str, down: bool) -> None:
        """Drive a switch or encoder line low (down) or high at `when`."""
        pin = self.pins[name]
        self.touches.append((when, pin.drive_low if down else pin.drive_high))
        self.touches.sort(key=lambda touch: touch[0])

    def detent(self, when: float, spacing: float = 0.005) -> float:
        """One detent clockwise, its four edges `spacing` apart from `when`; its last edge."""
        for i, (line, down) in enumerate((("encoder_a", True), ("encoder_b", True),
                                          ("encoder_a", False), ("encoder_b", False))):
            self.at(when + i * spacing, line, down)
        return when + 3 * spacing

    def turn_until(self, when: float) -> None:
        """Turn the loop until the clock passes `when`."""
        while self.clock() < when:
            self.state = runner._turn(self.table, *self.state)

    def first(self, kind: str) -> float:
        return next(at for seen, at in self.seen if seen == kind)


@pytest.fixture(params=["dormant", "idle"])
def hand(request, tmp_path, mock_factory, monkeypatch):
    """A table as `parlour run --sim` builds it, its loop, controls and screens on one fake
    clock, turned until it rests: dormant (no input for ACTIVE_SECONDS), or idle in use."""
    clock = FakeClock()
    monkeypatch.setattr(runner, "time", SimpleNamespace(monotonic=clock))
    real_sim_clock, real_controller = sim.SimClock, runner.Controller
    monkeypatch.setattr(sim, "SimClock", lambda: real_sim_clock(base=clock))
    monkeypatch.setattr(runner, "Controller",
                        lambda *args, **kw: real_controller(*args, clock=clock, **kw))
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="1234", web=False)
    try:
        hand = Hand(table, clock, dormant=request.param == "dormant")
        hand.turn_until(clock() + 2.0)
        assert hand.waits[-1][1] == hand.rest                   # at rest, nothing touched
        yield hand
    finally:
        table.close()


def test_runner_a_knob_held_on_a_resting_table_wakes_the_loop_at_the_press(hand):
    """The switch going down emits no input, so it did not wake a loop asleep for its idle or
    dormant poll: the loop saw the press only at the end of that sleep. It wakes it now, polls
    busy from the press, and the hold opens the menu within a busy poll of its threshold."""
    start = hand.clock()                          # the loop's next sleep begins now
    press = start + 0.01
    hand.at(press, "encoder_button", True)
    hand.turn_until(press + Tuning().hold_time + 0.1)
    after = [(at, timeout) for at, timeout in hand.waits if at > start]
    assert hand.waits[-len(after) - 1] == (start, hand.rest)
    assert after[0] == (press, runner.POLL_BUSY)  # woken by the press, at once polling busy
    hold = hand.first("hold")
    assert on_time(hold, press + Tuning().hold_time), hold - press
    assert hand.table.controller.screen == "menu"


def test_runner_a_knob_turned_on_a_resting_table_is_seen_when_it_settles(hand):
    """The first detent woke no one either: a one-detent turn on a dormant table was handled
    up to a dormant poll (0.25 s) after its edges, not when its settle time ended."""
    last = hand.detent(hand.clock() + 0.01)
    hand.turn_until(last + 0.5)
    turn = hand.first("turn")
    assert on_time(turn, last + Tuning().settle), turn - last


def test_runner_a_quick_tap_of_the_knob_on_a_resting_table_is_a_press_on_time(hand):
    """A tap let go within the debounce interval is believed only at a poll: on a resting
    table that was the next idle or dormant poll, now a busy one (the switch down woke the
    loop)."""
    press = hand.clock() + 0.01
    hand.at(press, "encoder_button", True)
    hand.at(press + 0.02, "encoder_button", False)
    hand.turn_until(press + 0.5)
    assert on_time(hand.first("press"), press + DEBOUNCE), hand.first("press") - press


def test_runner_an_untouched_table_still_rests(hand):
    """No touch, no wake: the loop keeps to its idle or dormant poll (idle CPU as before)."""
    start = hand.clock()
    hand.turn_until(start + 10.0)
    timeouts = [timeout for at, timeout in hand.waits if at >= start]
    assert set(timeouts) == {hand.rest}
    assert len(timeouts) == pytest.approx(10.0 / hand.rest, abs=1)
