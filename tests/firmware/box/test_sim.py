"""The simulated panel: web inputs become MockFactory pin edges, through the real controls."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from companion.session import Session
from companion.record.store import Store
from firmware.oled import screens
from firmware.config import Config
from firmware.controller import Controller
from firmware.controller.parts.notices import AGAIN_SECONDS
from firmware.pins.controls import Controls
from firmware.pins.inputs import InputEvent
from firmware.pins.sim import DARK, LIT, SimClock, SimPanel


@pytest.fixture
def sim_clock(clock):
    return SimClock(base=clock)


@pytest.fixture
def events():
    return []


@pytest.fixture
def controls(mock_factory, sim_clock, events):
    with Controls(Config(), events.append, pin_factory=mock_factory, clock=sim_clock) as c:
        yield c


@pytest.fixture
def panel(mock_factory, controls, sim_clock):
    return SimPanel(mock_factory, controls.pin_map, sim_clock, poll=controls.poll)


def test_sim_seat_input_drives_the_seat_pin(panel, events):
    assert panel.handle_input({"input": "seat", "seat": 2})["ok"]
    assert events == [InputEvent("seat", seat=2)]


@pytest.mark.parametrize("kind", ["undo", "menu"])
def test_sim_undo_and_menu_buttons(panel, events, kind):
    panel.handle_input({"input": kind})
    assert events == [InputEvent(kind)]


def test_sim_knob_press_is_a_press(panel, events):
    panel.handle_input({"input": "knob", "action": "press"})
    assert events == [InputEvent("press")]


def test_sim_knob_hold_lasts_a_second_without_sleeping(panel, events, sim_clock, monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    before = sim_clock()
    panel.handle_input({"input": "knob", "action": "hold"})
    assert events == [InputEvent("hold")]
    assert sim_clock() - before >= 1.0 and sum(slept) < 0.5     # the clock moved, no one waited


@pytest.mark.parametrize("detents", [1, 3, -2])
def test_sim_knob_turn_is_slow_detents(panel, events, detents):
    panel.handle_input({"input": "knob", "action": "turn", "detents": detents})
    assert events == [InputEvent("turn", detents=detents)]


def test_sim_knob_flick_is_fast(panel, events):
    panel.handle_input({"input": "knob", "action": "flick", "detents": 20})
    assert [e.kind for e in events] == ["flick"]
    weak = events[0].strength
    events.clear()
    panel.handle_input({"input": "knob", "action": "flick", "detents": 50})
    assert [e.kind for e in events] == ["flick"] and events[0].strength > weak


@pytest.mark.parametrize("payload, words", [
    ({}, "unknown input"),
    ({"input": "seat"}, "'seat'"),
    ({"input": "seat", "seat": 9}, "'seat'"),
    ({"input": "seat", "seat": True}, "'seat'"),
    ({"input": "knob"}, "knob action"),
    ({"input": "knob", "action": "spin"}, "knob action"),
    ({"input": "knob", "action": "turn", "detents": "3"}, "'detents'"),
    ({"input": "knob", "action": "turn", "detents": 0}, "'detents'"),
    ({"input": "knob", "action": "flick", "detents": 2}, "at least 4"),
    ({"input": "knob", "action": "turn", "detents": 10_000}, "'detents'"),
    (["seat"], "JSON object"),
])
def test_sim_bad_payloads_raise_value_error(panel, events, payload, words):
    with pytest.raises(ValueError, match=words):
        panel.handle_input(payload)
    assert events == []


def test_sim_screen_png_is_scaled_and_versioned(panel):
    version = panel.screen_version()
    frame = screens.message("Table PIN", "4821")
    panel.publish(frame)
    assert panel.screen_version() == version + 1
    panel.publish(frame.copy())                                   # same frame: no new version
    assert panel.screen_version() == version + 1
    png = Image.open(io.BytesIO(panel.screen_png()))
    assert png.format == "PNG" and png.size == (512, 256)
    assert {colour for _, colour in png.getcolors()} == {DARK, LIT}  # a blue OLED look


def test_sim_end_to_end_press_seats_and_flick_through_the_pins(
        mock_factory, sim_clock, clock, tmp_path):
    """Knob and seat pins move the session; the controller's view follows."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    inputs: list[InputEvent] = []
    with Controls(Config(), inputs.append, pin_factory=mock_factory, clock=sim_clock) as ctl:
        table = Controller(session, controls=ctl, seats=6, clock=sim_clock)
        panel = SimPanel(mock_factory, ctl.pin_map, sim_clock, poll=ctl.poll)

        def act(payload):
            panel.handle_input(payload)
            while inputs:
                table.handle(inputs.pop(0))
            table.update()
            panel.publish(table.render())

        act({"input": "knob", "action": "press"})                 # start-up -> games
        act({"input": "knob", "action": "turn", "detents": 2})    # Cats and Dogs
        act({"input": "knob", "action": "press"})
        act({"input": "seat", "seat": 0})
        act({"input": "seat", "seat": 3})
        act({"input": "knob", "action": "press"})
        snap = session.snapshot()
        assert snap["game"] == "cats-and-dogs" and len(snap["players"]) == 2
        assert table.view()["turn"].name == "Red"
        version = panel.screen_version()
        act({"input": "seat", "seat": 3})                         # not armed: ignored
        assert table.notice.text == "It is Red's turn, not Yellow's." and \
            session.snapshot()["rolls"] == 0
        act({"input": "knob", "action": "flick", "detents": 30})
        assert session.snapshot()["rolls"] == 1
        assert table.screen == "spin" and panel.screen_version() > version
        act({"input": "knob", "action": "press"})                 # skip to the result
        assert table.screen == "result"
        clock.advance(AGAIN_SECONDS)                              # read, not pressed twice
        act({"input": "knob", "action": "press"})
        assert table.view()["turn"].name == "Yellow"              # the lead passes on
    store.close()


class Box:
    """The real controls, panel and controller on one session: what `parlour run --sim` wires."""

    def __init__(self, session, mock_factory, sim_clock):
        self.inputs: list[InputEvent] = []
        config = Config()
        self.controls = Controls(config, self.inputs.append, pin_factory=mock_factory,
                                 clock=sim_clock)
        self.controller = Controller(session, controls=self.controls, seats=6, clock=sim_clock)
        self.controller.attach()
        self.panel = SimPanel(mock_factory, self.controls.pin_map, sim_clock,
                              poll=self.controls.poll, leds=config.seat_led_pins())

    def act(self, **payload):
        self.panel.handle_input(payload)
        while self.inputs:
            self.controller.handle(self.inputs.pop(0))
        self.controller.update()
        self.panel.publish(self.controller.render())

    def close(self):
        self.controller.close()
        self.controls.close()


def test_sim_x12_device_game_keeps_its_buttons_after_a_restart(mock_factory, sim_clock, tmp_path):
    """Seats 2 and 4 join; after a restart button 4 is still player 2's: its LED, its presses."""
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    box = Box(session, mock_factory, sim_clock)
    box.act(input="knob", action="press")
    box.act(input="knob", action="turn", detents=[g.id for g in box.controller.games]
            .index("cats-and-mice"))
    box.act(input="knob", action="press")
    box.act(input="seat", seat=1)                                   # button 2
    box.act(input="seat", seat=3)                                   # button 4
    assert box.panel.lit_seats() == [1, 3]                          # joined: both lit
    box.act(input="knob", action="press")
    game_id = session.game_id
    assert store.first_event(game_id)["buttons"] == [2, 4]
    while session.snapshot()["phase"] == "lead":
        session.roll()
    session.roll()                                                  # a spin: captures allowed
    box.close()
    store.close()

    store = Store(tmp_path / "parlour.db")                          # the restart
    session = Session(store, new_seed=lambda: bytes(32))
    assert session.resumed and session.game_id == game_id
    box = Box(session, mock_factory, sim_clock)
    buttons = {0: 1, 1: 3}                                          # seat -> button (0-based)
    turn = session.snapshot()["turn"]
    other = 1 - turn
    assert box.panel.lit_seats() == [buttons[turn]]                 # the LED of the awaited
    assert box.controls.lit == {buttons[turn]}
    box.act(input="seat", seat=buttons[other])                      # the wrong player's button
    assert box.controller.notice.text.startswith("It is ")
    box.act(input="seat", seat=buttons[turn])       # "Resumed" did not offer it: shown first
    assert store.events(game_id)[-1]["type"] == "roll"
    sim_clock.advance(AGAIN_SECONDS)
    box.act(input="seat", seat=buttons[turn])                       # a capture
    events = store.events(game_id)
    assert events[-1]["type"] == "press" and events[-1]["seat"] == turn
    assert session.snapshot()["players"][turn]["score"] == 1
    sim_clock.advance(2)
    box.act(input="knob", action="flick", detents=30)               # X8: next, then the spin
    box.act(input="knob", action="press")                           # skip the spin
    assert session.snapshot()["turn"] == other
    assert box.panel.lit_seats() == [buttons[other]]
    sim_clock.advance(2)
    box.controller.update()
    box.act(input="seat", seat=buttons[other])                      # now theirs
    events = store.events(game_id)
    assert events[-1]["type"] == "press" and events[-1]["seat"] == other
    assert not box.controller.notice.text.startswith("It is ")
    box.act(input="seat", seat=buttons[turn])
    assert box.controller.notice.text.startswith("It is ")
    assert store.events(game_id)[-1] == events[-1]                  # nothing recorded for it
    assert [p["score"] for p in session.snapshot()["players"]] == [1, 1]
    box.close()
    store.close()


def test_sim_panel_lights_the_armed_seat_like_the_leds(panel, controls):
    assert panel.lit_seats() == []                                  # no LED pins given
    lit = SimPanel(panel.factory, panel.pin_map, panel.clock, leds=Config().seat_led_pins())
    controls.light([2])
    assert lit.lit_seats() == [2]
    controls.light([0, 4])
    assert lit.lit_seats() == [0, 4]
    controls.light([])
    assert lit.lit_seats() == []
