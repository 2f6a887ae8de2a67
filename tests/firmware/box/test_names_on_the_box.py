"""X10 on the OLED: a name may hold any printable character, but Terminus cannot draw Chinese,
Japanese, Korean or emoji. The box shows what it can of a name, or the seat's colour, never a
row of boxes; the phone and the log keep the name as typed."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from companion.session import Session
from companion.record.store import Store
from firmware.controller import Controller
from firmware.oled import lettering
from firmware.oled.names import can_draw, drawable, shown_names
from controller_support import past_setup, press
from test_phones import wired

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def test_x10_box_knows_which_characters_terminus_draws():
    assert all(can_draw(c) for c in "Ann Zoë Łukasz Ωμέγα Олег €ß")
    assert not any(can_draw(c) for c in "李伟アン한🎲")
    assert drawable("José Núñez") and not drawable("Ann 🎲")


def test_x10_box_shows_a_name_without_what_it_cannot_draw_or_by_its_colour():
    colours = ["Red", "Blue", "Green", "Yellow", "White"]
    assert shown_names(["Ann 🎲", "李伟", "Ben", "Олег", "🎲"], colours) == \
        ["Ann", "Blue", "Ben", "Олег", "White"]
    # what is left must still tell the players apart, from names and from the colours
    assert shown_names(["Ann", "Ann 🎲"], colours) == ["Ann", "Blue"]
    assert shown_names(["Blue 🎲", "Ann"], colours) == ["Red", "Ann"]
    assert shown_names(["李 Ann", "王 Ann"], colours) == ["Ann", "Blue"]
    assert shown_names(["李伟"], [None]) == [None]
    # a colour another player is called is no stand-in: "It is Red's turn, not Red's."
    assert shown_names(["李伟", "Red"], colours, [3, 1]) == ["Button 3", "Red"]


def _turn_frame(session, clock, names):
    if session.snapshot()["game"] is not None:
        session.abandon()                   # each begun on an idle table: none said set aside
    c = Controller(session, seats=4, clock=clock)
    c.attach()
    try:
        session.new_game("kat-en-muis", names, by="web")     # from a phone
        c.update()
        past_setup(c)                                       # the stakes said first (K1)
        return c.render(), c.view(), c.snap
    finally:
        c.close()


def test_x10_box_draws_a_chinese_name_as_its_seat_colour(session, clock):
    frame, view, snap = _turn_frame(session, clock, ["李伟", "Ann 🎲"])
    assert view["turn"].name == "Red" and [p["name"] for p in snap["players"]] == ["Red", "Ann"]
    assert not any("李" in line or "🎲" in line for line in snap["log"])
    assert [p["name"] for p in session.snapshot()["players"]] == ["李伟", "Ann 🎲"]   # kept
    ARTIFACTS.mkdir(exist_ok=True)
    frame.resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-name-not-in-font.png")
    same, _, _ = _turn_frame(session, clock, ["Red", "Ann"])
    assert frame.tobytes() == same.tobytes()           # as if the player were called "Red"


def test_x10_box_join_screen_offers_only_roster_names_it_can_draw(session, tmp_path, clock):
    session.store.remember_names(["李伟", "Ann 🎲"])
    c, _ = wired(session, tmp_path, clock)
    press(c, "press")
    press(c, "press")                               # Kat en Muis: join
    seen = []
    for _ in range(3):
        press(c, "turn", detents=1)
        seen.append(c._roster_name())
        assert c.view()["screen"] == "join"
    assert "李伟" not in seen and "Ann 🎲" in seen
    while c._roster_name() != "Ann 🎲":
        press(c, "turn", detents=1)
    shown = c.render()
    press(c, "seat", seat=0)
    press(c, "seat", seat=1)
    press(c, "press")
    assert [p["name"] for p in session.snapshot()["players"]] == ["Ann 🎲", "Blue"]
    other = Session(Store(tmp_path / "other" / "parlour.db"), new_seed=lambda: bytes(32))
    other.store.remember_names(["Ann"])
    c2, _ = wired(other, tmp_path / "other", clock)
    press(c2, "press")
    press(c2, "press")
    while c2._roster_name() != "Ann":
        press(c2, "turn", detents=1)
    assert shown.tobytes() == c2.render().tobytes()   # drawn "Ann", chosen as typed
    other.store.close()


def test_x12_a_long_name_wraps_below_its_button_box_never_under_it():
    """A name too long for one line wraps small; the seat button's box stays within the first
    line, so the second line reads the same as with no box at all (before, the box's foot hid
    the top of the second line's first letters: "Fitzwilliam" read as "itzwilliam")."""
    from firmware.oled import screens
    from firmware.oled.views import TurnView
    for name in ("Bartholomew Fitzwilliam", "Maximiliana Featherstone"):
        view = TurnView("The Lost Diamond", "", name, "Move forward 3, then 6 on the road.", "", 6)
        assert len(screens.name_lines(view)) == 2
        boxed = screens.turn(view, 0)
        plain = screens.turn(TurnView(view.heading, view.corner, view.name, view.action,
                                      view.detail, None), 0)
        line = lettering.LINE
        second = (0, 14 + line, lettering.W, 14 + 2 * line)     # the name's line 2
        assert boxed.crop(second).tobytes() == plain.crop(second).tobytes(), name


def test_x10_a_refusal_names_a_player_as_the_box_shows_them(table, session):
    """A refusal of the rules said "□□ has not spun yet: flick to spin first." while the turn
    screen and a seat button's refusal called the same player "Red"."""
    session.new_game("cats-and-mice", ["小明", "大明"], by="web")
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    table.update()
    table.screen = "play"
    turn = session.snapshot()["turn"]
    assert table.view()["turn"].name == ("Red", "Blue")[turn]
    press(table, "seat", seat=table.buttons[turn])        # a capture before the spin: refused
    said = table.notice.text
    assert "has not spun yet" in said and "明" not in said and ("Red", "Blue")[turn] in said


def test_x10_a_rename_to_a_name_the_box_cannot_draw_says_how_the_box_shows_it(table, session):
    """Red renamed 小明 from a phone read "Button 1, Red, is now called Red" on the box, as if
    the rename had failed."""
    session.new_game("kat-en-muis", ["Red", "Ann"], by="web")
    table.update()
    session.submit({"type": "rename", "seat": 0, "name": "小明"}, by="pin-0a1b2c")
    table.update()
    _, _, words = table.result.outcome
    assert words == ["Button 1, Red, has a new name, which the box shows as Red"], words
    session.submit({"type": "rename", "seat": 1, "name": "Ann 🎲"}, by="pin-0a1b2c")
    table.update()                                    # what is left of it draws
    assert table.result.lines == ["Button 2, Ann, has a new name, which the box shows as Ann"]


def test_x10_a_rename_from_or_undone_to_a_name_no_one_has_now_draws_no_boxes(table, session):
    """The box drew "Button 1, □□, is now called Li" after 小明 became Li, and "Taken back:
    Button 1, Ann, is now called □□" after a rename to 小明 was undone: those names are in
    the log and the undo's words, no player's now."""
    session.new_game("kat-en-muis", ["Ann", "Ben"], by="web")
    table.update()
    session.submit({"type": "rename", "seat": 0, "name": "小明"}, by="pin-0a1b2c")
    table.update()
    assert table.result.lines == ["Button 1, Ann, is now called Red"], table.result.outcome
    session.undo(by="pin-0a1b2c")
    table.update()
    assert table.notice.text == ("Taken back from a phone: Button 1, Ann, has a new name the "
                                "box cannot draw"), table.notice.text
    session.submit({"type": "rename", "seat": 0, "name": "小明"}, by="pin-0a1b2c")
    session.submit({"type": "rename", "seat": 0, "name": "Li"}, by="pin-0a1b2c")
    table.update()
    assert "Button 1, Red, is now called Li" in table.result.lines, table.result.outcome
    assert all(drawable(line) for line in table.snap["log"]), table.snap["log"]
    assert "小明" in " ".join(session.snapshot()["log"])      # the log keeps it as typed
