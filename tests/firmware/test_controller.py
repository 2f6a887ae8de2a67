"""The screen state machine: input events in, session calls out, the right screen drawn."""

from __future__ import annotations

import pytest

from companion.session import Session
from companion.store import Store
from firmware import controller as ctl
from firmware.controller import TRANSITIONS, Controller
from firmware.inputs import InputEvent

SEED = bytes(range(32))


class FakeControls:
    """Records what the controller arms and lights."""

    def __init__(self):
        self.armed: object = "never"
        self.lit: list[int] = []
        self.beeps: list[str] = []

    def arm(self, seats):
        self.armed = None if seats is None else sorted(seats)

    def light(self, seats):
        self.lit = sorted(seats)

    def beep(self, pattern="click"):
        self.beeps.append(pattern)


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "parlour.db")
    yield store
    store.close()


@pytest.fixture
def session(store):
    return Session(store, new_seed=lambda: SEED, clock=lambda: "2025-01-01T12:00:00Z")


@pytest.fixture
def controls():
    return FakeControls()


@pytest.fixture
def table(session, controls, clock):
    c = Controller(session, controls=controls, seats=4, url="http://10.0.0.2:8080/",
                   pin="4821", clock=clock)
    c.attach()
    yield c
    c.close()


def press(c, kind, **fields):
    c.handle(InputEvent(kind, **fields))
    c.render()


def start(c, game, seats=(0, 1)):
    """From the start-up screen: pick `game`, join `seats`, start."""
    press(c, "press")
    index = [g.id for g in c.games].index(game)
    press(c, "turn", detents=index)
    press(c, "press")
    for seat in seats:
        press(c, "seat", seat=seat)
    press(c, "press")
    if c.screen == "pi_setup":                   # Domino Rex: "No Pi" comes first
        press(c, "press")
    assert c.screen == "play", c.flash_text


def settle_lead(c, clock):
    for _ in range(30):
        if c.snap["phase"] != "lead":
            return
        press(c, "flick", strength=0.5)
        press(c, "press")
    raise AssertionError("the lead never settled")


def test_controller_transitions_name_real_handlers():
    for (screen, kind), name in TRANSITIONS.items():
        assert kind in ("seat", "ignored", "undo", "menu", "press", "hold", "turn", "flick")
        assert callable(getattr(Controller, "on_" + name)), name
        assert hasattr(Controller, "draw_" + screen), screen


def test_controller_start_pick_game_join_and_start(table, session, controls):
    assert table.screen == "start"
    press(table, "press")
    assert table.screen == "games"
    press(table, "turn", detents=2)
    assert table.games[table.game_index].id == "cats-and-dogs"
    press(table, "press")
    assert table.screen == "join" and controls.armed is None      # every seat may join
    press(table, "seat", seat=1)
    press(table, "seat", seat=3)
    assert controls.lit == [1, 3]
    press(table, "press")
    snap = session.snapshot()
    assert snap["game"] == "cats-and-dogs"
    assert [p["name"] for p in snap["players"]] == ["Player 2", "Player 4"]
    assert table.buttons == [1, 3] and table.screen == "play"
    assert controls.armed == [1] and controls.lit == [1]           # seat 0 of the game: button 1


def test_controller_too_few_players_is_refused_on_screen(table, session):
    press(table, "press")
    press(table, "press")                                          # Kat en Muis
    press(table, "seat", seat=0)
    press(table, "press")
    assert table.screen == "join" and session.snapshot()["game"] is None
    assert "2 players" in table.flash_text


def test_controller_flick_rolls_from_the_stream_and_animates(table, session, clock):
    start(table, "kat-en-muis")
    before = session.snapshot()["rolls"]
    press(table, "flick", strength=0.9)
    snap = session.snapshot()
    assert snap["rolls"] == before + 1 and table.screen == "spin"
    assert table.animation.duration > 2.0
    values = snap["last_roll"]["values"]
    assert table.outcome[1] == " · ".join(map(str, values))
    clock.advance(table.animation.duration + 0.01)
    assert table.update()
    assert table.screen == "result"
    clock.advance(ctl.RESULT_SECONDS)
    table.update()
    assert table.screen == "play"


def test_controller_flick_strength_never_changes_the_roll(tmp_path, clock):
    rolls = []
    for i, strength in enumerate((0.05, 1.0)):
        store = Store(tmp_path / f"{i}.db")
        c = Controller(Session(store, new_seed=lambda: SEED), seats=2, clock=clock)
        start(c, "kat-en-muis")
        press(c, "flick", strength=strength)
        rolls.append(c.snap["last_roll"]["values"])
        store.close()
    assert rolls[0] == rolls[1]


def test_controller_press_skips_the_spin(table):
    start(table, "kat-en-muis")
    press(table, "flick", strength=1.0)
    assert table.screen == "spin"
    press(table, "press")
    assert table.screen == "result" and table.animation is None


def test_controller_ignored_seat_flashes_not_your_turn_briefly(table, clock, controls):
    start(table, "kat-en-muis")
    press(table, "ignored", seat=1)
    assert table.flash_text == "Not your turn" and controls.beeps == ["error"]
    clock.advance(ctl.FLASH_SECONDS + 0.01)
    assert table.update()
    assert table.flash_text == ""


def test_controller_refusal_is_shown_never_raised(table, session):
    start(table, "kat-en-muis")
    version = session.version
    press(table, "undo")                                           # nothing to undo yet
    assert "nothing to undo" in table.flash_text and session.version == version


def test_controller_undo_takes_back_the_spin(table, session):
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.5)
    rolls = session.snapshot()["rolls"]
    press(table, "undo")
    assert session.snapshot()["rolls"] == rolls - 1 and table.screen == "play"


def test_controller_only_the_active_seat_is_armed(table, controls):
    start(table, "cats-and-dogs", seats=(0, 1, 2))
    settle_lead(table, None)
    turn = table.snap["turn"]
    assert controls.armed == [table.buttons[turn]] == controls.lit


def test_controller_assisted_seat_press_records_and_knob_ends_turn(table, session, clock):
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # skip the spin
    snap = session.snapshot()
    turn = snap["turn"]
    assert snap["awaiting"] == "next"
    assert table.outcome[2] and table.outcome[2][0].startswith("Move")   # the instruction
    press(table, "seat", seat=table.buttons[turn])                 # a capture
    after = session.snapshot()
    assert after["players"][turn]["score"] == 1
    press(table, "press")                                          # next
    assert session.snapshot()["turn"] != turn


def test_controller_x8_flick_by_next_player_is_next_then_roll(table, session):
    start(table, "cats-and-mice")
    settle_lead(table, None)
    press(table, "flick", strength=0.4)
    press(table, "press")
    first = session.snapshot()
    press(table, "flick", strength=0.4)
    snap = session.snapshot()
    assert snap["rolls"] == first["rolls"] + 1 and snap["turn"] != first["turn"]
    assert table.screen == "spin"


def test_controller_full_game_seat_press_hints_to_flick(table, session):
    start(table, "kat-en-muis")
    settle_lead(table, None)
    version = session.version
    press(table, "seat", seat=table.buttons[table.snap["turn"]])
    assert "Flick" in table.flash_text and session.version == version


def test_controller_domino_rex_turn_picks_and_press_chooses(table, session):
    start(table, "domino-rex")
    settle_lead(table, None)
    assert session.snapshot()["awaiting"] == "choose"
    turn = table.snap["turn"]
    covered = sorted(set(table.snap["players"][turn]["covered"]))
    press(table, "turn", detents=2)
    press(table, "press")
    snap = session.snapshot()
    assert snap["last_uncovered"] == covered[2] and snap["turn"] != turn


def test_controller_hold_opens_menu_and_its_undo_undoes(table, session):
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.5)
    press(table, "press")
    rolls = session.snapshot()["rolls"]
    press(table, "hold")
    assert table.screen == "menu"
    press(table, "turn", detents=1)
    assert table.menu_items[table.menu_index] == "Undo"
    press(table, "press")
    assert session.snapshot()["rolls"] == rolls - 1


@pytest.mark.parametrize("item, screen", [("Scores", "scores"), ("Show PIN", "pin"),
                                          ("Phone page", "start")])
def test_controller_menu_items_open_their_screens(table, item, screen):
    start(table, "kat-en-muis")
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index(item))
    press(table, "press")
    assert table.screen == screen
    press(table, "press")
    assert table.screen == "play"


@pytest.mark.parametrize("item", ["End game", "New game"])
def test_controller_menu_sets_the_game_aside_once_confirmed(table, session, item):
    start(table, "kat-en-muis")
    game_id = session.game_id
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index(item))
    press(table, "press")
    assert table.screen == "confirm"
    press(table, "turn", detents=1)
    press(table, "press")
    assert table.screen == "games"
    assert session.snapshot()["phase"] == "idle"              # the phones see it set aside too
    assert session.store.game(game_id).status == "abandoned"


def test_controller_fox_and_geese_end_game_declares_the_winner(table, session):
    start(table, "fox-and-geese")
    press(table, "press")                    # the Geese (seat 1) make the knob's first move
    assert session.snapshot()["turn"] == 0
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("End game"))
    press(table, "press")
    assert table.screen == "declare"
    press(table, "turn", detents=1)                                # "Player 2 wins"
    press(table, "press")
    snap = session.snapshot()
    assert snap["phase"] == "over" and snap["winners"] == [1]
    assert table.screen == "over"
    press(table, "press")
    assert table.screen == "games"


def test_controller_redraws_when_the_web_changes_the_session(table, session):
    assert table.screen == "start"
    session.new_game("kat-en-muis", ["Ann", "Ben"])                # as from a phone
    table.render()
    assert table.update() and table.screen == "play"
    assert table.view()["turn"].name == "Ann"
    session.new_game("fox-and-geese", ["Cy", "Di"])
    table.update()
    assert table.view()["turn"].name == "Di (Geese)"


def test_controller_wakes_the_main_loop_on_a_session_change(table, session):
    woken = []
    table.wake = lambda: woken.append(True)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    assert woken


def test_controller_shows_resumed_after_a_restart(store, clock):
    first = Session(store, new_seed=lambda: SEED)
    first.new_game("kat-en-muis", ["Ann", "Ben"])
    again = Controller(Session(store, new_seed=lambda: SEED), seats=2, clock=clock)
    assert again.screen == "resumed"
    assert again.draw_resumed().getbbox() is not None
    clock.advance(ctl.RESUMED_SECONDS + 0.1)
    again.update()
    assert again.screen == "play"


def test_controller_every_screen_draws(table):
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.5)
    for screen in sorted({s for s, _ in TRANSITIONS}):
        table.screen = screen
        table.confirm = ("Sure?", "end game")
        image = table.render()
        assert (image.mode, image.size) == ("1", (128, 64)) and image.getbbox(), screen
