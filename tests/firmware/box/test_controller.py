"""The screen state machine: input events in, session calls out, the right screen drawn.
(Inputs that come too soon after another are tests/firmware/box/test_controller_holds.py's;
changes made elsewhere, test_controller_changes.py's.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.games import GAMES
from companion.words import undo_notice as undo_words
from companion.record.store import Store
from companion.session import Session
from controller_support import (SEED, FakeControls, india_claim, past_setup, press, read_on,
                                settle_lead, start, throw_until_two_pages)
from drawn_words import shows
from firmware import controller as ctl
from firmware.controller import TRANSITIONS, Controller
from firmware.controller.parts.notices import AGAIN_SECONDS, LATE_PRESS_SECONDS
from firmware.controller.play_inputs import GAME_OVER_SEAT, KNOB_ANSWERS
from firmware.oled import lettering
from firmware.oled.views import box_words, player_name, setup_words

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


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
    assert [p["name"] for p in snap["players"]] == ["Blue", "Yellow"]      # X12: the colours
    assert [p["button"] for p in snap["players"]] == [2, 4]
    assert session.store.first_event(snap["game_id"])["buttons"] == [2, 4]
    assert table.buttons == [1, 3] and table.screen == "play"
    assert controls.armed == [1] and controls.lit == [1]           # seat 0 of the game: button 1


def test_controller_joining_at_the_box_is_told_to_every_view(table, session):
    """The phones said "No game in play" while the players joined at the box: the session is
    told the game being set up and who has joined, and when the box leaves it or it begins."""
    press(table, "press")
    press(table, "turn", detents=2)                         # Cats and Dogs
    press(table, "press")
    assert session.snapshot()["setup"] == {"game": "cats-and-dogs", "title": "Cats and Dogs",
                                           "players": []}
    press(table, "seat", seat=1)
    press(table, "seat", seat=3)
    snap = session.snapshot()
    assert snap["setup"]["players"] == ["Blue", "Yellow"]
    assert snap["prompt"] == "Joining Cats and Dogs at the box: Blue and Yellow so far"
    press(table, "undo")                                    # back to the games: left
    assert table.screen == "games" and "setup" not in session.snapshot()
    press(table, "press")
    press(table, "seat", seat=0)
    press(table, "seat", seat=1)
    press(table, "press")                                   # begun
    assert session.snapshot()["game"] == "cats-and-dogs" and "setup" not in session.snapshot()


@pytest.mark.parametrize("game, seats, hint", [("domino-rex", 1, "press: play the Pi"),
                                               ("fox-and-geese", 1, "press: play the Pi"),
                                               ("kat-en-muis", 1, "2 players"),
                                               ("domino-rex", 2, "press: Pi or no Pi"),
                                               ("fox-and-geese", 2, "press knob to start"),
                                               ("kat-en-muis", 2, "press knob to start")])
def test_controller_one_player_joined_is_told_the_pi_can_make_up_the_table(table, game,
                                                                            seats, hint):
    """With one player joined the join screen said "2-4 players", and only a press found that
    the Pi could play: where it can, the screen says so (and only there: three joined in Kat en
    Muis, a game for two with no Pi, read "press: play the Pi"). With enough players, a game
    the Pi can join says the press asks about it ("press knob to start" opened "The Pi plays")."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index(game))
    press(table, "press")
    for seat in range(seats):
        press(table, "seat", seat=seat)
    from firmware.oled import screens
    drawn = screens.joining(table.games[table.game_index].title, table.joined, hint, "")
    assert table.render().tobytes() == drawn.tobytes()
    if "Pi" in hint:
        press(table, "press")
        assert table.screen == "pi_setup"        # and says a press begins it (it did not)
        labels = [label for label, _, _ in table.setups]
        assert table.render().tobytes() == screens.choice_list(
            "The Pi plays", labels, 0, "press knob to start").tobytes()


@pytest.mark.parametrize("seats, over", [(3, 1), (4, 2)])
def test_controller_too_many_joined_are_told_the_way_out_before_a_press(table, seats, over):
    """Three joined in Kat en Muis, a game for two: the join screen said "Press your seat"
    over "1 too many: max 2", and only a refused press said to press a seat again. The screen
    says how many too many, and that a seat pressed leaves, before any press; one pressed
    again leaves, and the screen then asks the knob to start."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("kat-en-muis"))
    press(table, "press")
    for seat in range(seats):
        press(table, "seat", seat=seat)
    frame = table.render()
    assert shows(frame, f"{over} too many: max 2", lettering.MEDIUM, bold=True)
    assert shows(frame, "press a seat to leave")
    assert not shows(frame, "Press your seat", lettering.MEDIUM, bold=True)
    for seat in range(2, seats):
        press(table, "seat", seat=seat)
    assert sum(table.joined) == 2 and shows(table.render(), "press knob to start")


def test_controller_too_few_players_are_told_what_to_do_and_a_seat_press_is_seen(table,
                                                                                session):
    """"Kat en Muis is for 2 players, not 1." said nothing of what to do, and stayed up over
    the join screen while the second player pressed their seat: nothing changed on screen, so
    they pressed again, which took them out ("1 in" once the notice went)."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("kat-en-muis"))
    press(table, "press")
    press(table, "press")                                          # no one yet
    assert table.notice.text == "Kat en Muis is for 2 players: each presses their seat button " \
        "to join."
    press(table, "seat", seat=0)
    assert table.notice.text == "" and table.joined[0]
    press(table, "press")
    assert table.screen == "join" and session.snapshot()["game"] is None
    assert table.notice.text == "Kat en Muis is for 2 players, not 1. Each other player presses " \
        "their seat button."
    press(table, "seat", seat=1)                                   # the notice goes: seen
    assert table.notice.text == "" and table.joined[:2] == [True, True]
    from firmware.oled import screens
    drawn = screens.joining("Kat en Muis", table.joined, "press knob to start", "")
    assert table.render().tobytes() == drawn.tobytes()
    press(table, "press")
    assert session.snapshot()["game"] == "kat-en-muis"


def test_controller_a_look_at_the_menu_while_joining_keeps_the_seats_joined(table, session):
    """Menu, Show PIN, and back: the box went to "Choose a game", the seats joined gone (and
    the phones told no game was being set up); it comes back to the join screen as it was."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("cats-and-dogs"))
    press(table, "press")
    press(table, "seat", seat=0)
    press(table, "seat", seat=2)
    press(table, "menu")
    assert table.menu_items[:4] == ["Back", "New game", "Show PIN", "Phone page"]
    press(table, "turn", detents=2)
    press(table, "press")                                          # Show PIN
    assert table.screen == "pin"
    assert session.snapshot()["setup"]["players"] == ["Red", "Green"]      # still being set up
    press(table, "press")                                          # back
    assert table.screen == "join" and table.joined == [True, False, True, False]
    press(table, "menu")
    press(table, "press")                                          # Back
    assert table.screen == "join"
    press(table, "menu")
    press(table, "turn", detents=1)
    press(table, "press")                                          # New game: the games list
    assert table.screen == "games" and "setup" not in session.snapshot()
    press(table, "menu")
    press(table, "press")                                          # Back: the games, as left
    assert table.screen == "games"


def test_controller_a_game_begun_from_a_phone_over_a_join_here_says_so(table, session):
    """A phone began Life's Mishaps while Kat en Muis was being joined at the box: the box
    jumped to it, the two who had pressed their seats not in it, and nothing said why."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("kat-en-muis"))
    press(table, "press")
    press(table, "seat", seat=0)
    session.new_game("lifes-mishaps", ["Ann", "Ben"], by="web")
    table.update()
    table.render()
    instead = "From a phone: Life's Mishaps begun instead of the game joined here."
    assert table.screen == "result" and table.notice.text == ""     # the chips stay readable
    assert table.result.lines == [instead, *setup_words(session.snapshot())]
    assert table.home() == "play" and "setup" not in session.snapshot()
    press(table, "menu")
    press(table, "press")                          # Back: the chips to put in, still unread
    assert table.screen == "result" and table.result.lines[0] == instead
    press(table, "menu")                                           # no chips to put in: said
    press(table, "turn", detents=table.menu_items.index("New game"))     # over the turn
    press(table, "press")
    press(table, "turn", detents=1)
    press(table, "press")                                          # set aside: the games
    press(table, "press")
    press(table, "seat", seat=2)
    session.new_game("cats-and-dogs", ["Ann", "Ben"], by="web")
    table.update()
    assert table.notice.text == "From a phone: Cats and Dogs begun instead of the game joined " \
        "here."


def test_controller_too_many_players_are_told_how_to_take_one_out(table, session):
    """Three seats joined The Lost Diamond, a game for two: "The Lost Diamond is for 2 players,
    not 3." and the join screen, with no word of how to go on (a seat pressed again leaves)."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("lost-diamond"))
    press(table, "press")
    for seat in range(3):
        press(table, "seat", seat=seat)
    press(table, "press")
    assert table.screen == "join" and session.snapshot()["game"] is None
    assert table.notice.text == ("The Lost Diamond is for 2 players, not 3. Press a seat "
                                "button again to take it out.")
    press(table, "press")                                          # read
    press(table, "seat", seat=2)                                   # as it says
    press(table, "press")
    assert session.snapshot()["game"] == "lost-diamond"


def test_controller_flick_rolls_from_the_stream_and_animates(table, session, clock):
    start(table, "kat-en-muis")
    before = session.snapshot()["rolls"]
    press(table, "flick", strength=0.9)
    snap = session.snapshot()
    assert snap["rolls"] == before + 1 and table.screen == "spin"
    assert table.animation.duration > 2.0
    values = snap["last_roll"]["values"]
    assert table.result.outcome[1] == " · ".join(map(str, values))
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


@pytest.mark.parametrize("kind", ["menu", "hold"])
def test_controller_the_menu_while_the_dial_spins_shows_the_throw_first(table, session, kind):
    """The menu button (or a long press) while the dial spins stops the dial as any input
    does, and the throw it made stays up: the menu over it hid a throw no one had seen."""
    start(table, "kat-en-muis")
    press(table, "flick", strength=1.0)
    assert table.screen == "spin"
    press(table, kind)
    assert table.screen == "result" and table.animation is None
    values = " · ".join(map(str, session.snapshot()["last_roll"]["values"]))
    assert table.result.outcome[1] == values
    press(table, kind)                                  # the next one opens it
    assert table.screen == "menu"


def test_controller_a_press_in_the_menu_just_after_the_dial_stopped_is_the_menus(
        table, session, clock):
    """The dial stopped by itself and the menu was opened at once: the knob's press on
    "Back" 0.2 s later was taken as meant for the throw's result and did nothing, without a
    sound. The menu was opened on purpose: the press is its."""
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.4)
    clock.advance(table.animation.duration + 0.05)
    table.update()
    assert table.screen == "result"
    clock.advance(0.1)
    press(table, "menu")
    assert table.screen == "menu"
    clock.advance(0.1)
    press(table, "press")                               # Back
    assert table.screen == "result"


def pick_menu_item(table, item):
    press(table, "turn", detents=table.menu_items.index(item))
    press(table, "press")


@pytest.mark.parametrize("way_back", ["menu", "hold", "Back", "Scores", "Show PIN", "No"])
def test_controller_a_result_left_unread_for_the_menu_is_up_again_after_it(
        table, session, clock, way_back):
    """A throw's result of two pages, its second page up, when the menu was opened: going
    back from the menu (its button, a long press, "Back", a look at the scores or the PIN, a
    question answered No) shows it again on that page, for a page's time at least; it went
    to the turn screen, the result unread."""
    start(table, "kat-en-muis")
    throw_until_two_pages(table, session, clock)
    press(table, "turn", detents=1)
    outcome, page = table.result.outcome, table.pager.page
    assert page == 1
    press(table, "menu")
    clock.advance(8.0)                                  # the menu is up a while
    table.update()
    if way_back in ("menu", "hold"):
        press(table, way_back)
    elif way_back == "No":
        pick_menu_item(table, "Set game aside")
        assert table.screen == "confirm"
        press(table, "press")                           # No, as it stands
    else:
        pick_menu_item(table, way_back)
        if way_back != "Back":
            assert table.screen in ("scores", "pin")
            press(table, "press")
    assert table.screen == "result", table.view()
    assert table.result.outcome == outcome and table.pager.page == page
    clock.advance(2.0)
    table.update()
    assert table.screen == "result"                     # read again, not gone at once


def test_controller_the_phone_page_from_the_menu_goes_back_to_the_result_left_unread(
        table, session, clock):
    """The menu's "Phone page" over a result on its second page says "press: back": the
    press goes back to the result on that page, as from the PIN or the scores (it went to
    the turn screen, the result unread)."""
    start(table, "kat-en-muis")
    throw_until_two_pages(table, session, clock)
    press(table, "turn", detents=1)
    outcome = table.result.outcome
    press(table, "menu")
    clock.advance(2.0)
    table.update()
    pick_menu_item(table, "Phone page")
    assert table.screen == "start"
    press(table, "press")
    assert table.screen == "result", table.view()
    assert table.result.outcome == outcome and table.pager.page == 1


def test_controller_the_menu_goes_to_the_turn_after_a_result_a_change_took_away(
        table, session, clock):
    """The menu opened over a result, then a phone's throw: going back shows the game as it
    is now, not the result the throw replaced."""
    start(table, "kat-en-muis")
    throw_until_two_pages(table, session, clock)
    outcome = table.result.outcome
    press(table, "menu")
    session.undo(by="web")
    table.update()
    press(table, "menu")
    assert table.result.outcome != outcome or table.screen != "result"
    assert table.left_for_menu is None


@pytest.mark.parametrize("game, words", [("kat-en-muis", "Flick the knob to throw"),
                                         ("cats-and-dogs", "Flick the knob to spin")])
def test_controller_a_knob_press_before_a_throw_names_dice_or_spinner(table, game, words):
    """Dice are thrown, a spinner is spun: "to spin" was said in a dice game too."""
    start(table, game)
    assert table.snap["awaiting"] == "roll"
    press(table, "press")
    assert table.notice.text == words


@pytest.mark.parametrize("game, words", [("free-play", "Flick the knob to throw"),
                                         ("cats-and-mice", "Flick the knob to spin")])
def test_controller_a_press_in_the_lead_says_the_flick_where_the_knob_ends_turns(
        table, session, clock, game, words):
    """Where the knob's press ends a turn and a seat button records a capture or a point, a
    press of either in the lead said the rules' refusal: "The lead is still being thrown: Ann
    - throw the dice for the lead." (dice the box does not have; "being thrown" of a spin).
    Each says the flick, as in the other games."""
    options = {"randomizer": {"kind": "dice", "count": 2}} if game == "free-play" else {}
    session.new_game(game, ["Ann", "Ben"], options=options)
    table.update()
    assert table.screen == "play" and table.snap["phase"] == "lead"
    press(table, "press")
    assert table.notice.text == words
    clock.advance(5.0)
    table.update()
    assert table.notice.text == ""
    press(table, "seat", seat=table.buttons[session.snapshot()["turn"]])
    assert table.notice.text == words
    assert session.snapshot()["phase"] == "lead"


def test_controller_ignored_seat_says_why_long_enough_to_read(table, clock, controls):
    start(table, "kat-en-muis")
    turn = table.snap["turn"]
    names = [p["name"] for p in table.snap["players"]]
    press(table, "ignored", seat=table.buttons[1 - turn])
    assert table.notice.text == f"It is {names[turn]}'s turn, not {names[1 - turn]}'s."
    assert controls.beeps[-1] == "error"
    press(table, "ignored", seat=3)                                  # a button not in the game
    assert table.notice.text == "Button 4 is not in this game."
    up = ctl.reading_seconds("Button 4 is not in this game.")
    assert up >= ctl.READ_START_SECONDS + 6 * ctl.READ_WORD_SECONDS    # six words to read
    clock.advance(up - 0.1)
    table.update()
    assert table.notice.text == "Button 4 is not in this game."          # still being read
    clock.advance(0.2)
    assert table.update()
    assert table.notice.text == ""


def test_controller_refusal_time_grows_with_its_words_and_a_press_dismisses_it(table, clock,
                                                                                session):
    """A long name's refusal stays up longer than a short one's; a knob press takes it away and
    does nothing else (the screen under it is not acted on)."""
    short = ctl.reading_seconds("It is Ann's turn, not Ben's.")
    long = ctl.reading_seconds("It is Hélène's turn, not Bartholomeus van Dijk's.")
    assert long > short >= 3.0
    start(table, "kat-en-muis")
    press(table, "undo")                                           # nothing to undo yet
    assert table.notice.text == "Nothing to undo." and table.notice.refusal
    version = session.version
    press(table, "press")
    assert table.notice.text == "" and session.version == version        # only dismissed


def test_controller_another_seats_refusal_leaves_the_knob_to_the_turns_player(table, session,
                                                                               clock):
    """Green's result was up; Blue pressed their button ("It is Green's turn, not Blue's.")
    and Green's press to end the turn, 1.75 s later, only took Blue's notice away: the turn
    did not end, and nothing said so. A seat's refusal leaves the screen under it as it was:
    the knob's press acts on it (and takes the notice away)."""
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # stop the dial: the result
    read_on(table)
    turn = session.snapshot()["turn"]
    other = next(s for s in range(len(table.buttons)) if s != turn)
    press(table, "ignored", seat=table.buttons[other])
    assert table.notice.text.startswith("It is ") and not table.notice.refusal
    clock.advance(1.75)
    press(table, "press")                                          # Green ends the turn
    assert session.snapshot()["turn"] != turn and table.notice.text == ""


@pytest.mark.parametrize("game", ["cats-and-mice", "gantlope", "india"])
def test_controller_the_turns_own_refused_button_is_read_away_by_the_next_press(table, session,
                                                                                clock, game):
    """Blue pressed their own button before spinning ("Blue has not spun yet: flick to spin
    first."; The Lost Diamond: "Blue has the diamond: spin first to go home") and the knob
    press that took the notice away acted on the turn (the Lost Diamond's Field move: the
    spin was lost). Their own button's refusal is theirs to read: the press only reads it."""
    start(table, game)
    settle_lead(table, clock)
    turn = session.snapshot()["turn"]
    version = session.snapshot()["state_version"]
    press(table, "seat", seat=table.buttons[turn])
    assert table.notice.text.endswith("flick to spin first.") and table.notice.refusal
    clock.advance(1.0)
    press(table, "press")                                          # read, taken away
    assert table.notice.text == "" and session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # the next one acts
    assert table.notice.text                                        # (no throw: it says so)


def test_controller_refusal_is_shown_never_raised(table, session):
    start(table, "kat-en-muis")
    version = session.version
    press(table, "undo")                                           # nothing to undo yet
    assert table.notice.text == "Nothing to undo." and session.version == version


def test_controller_undo_takes_back_the_spin(table, session):
    """The box's Undo said "Taken back" only, even of a throw no surface had shown yet (a
    phone's throw while the dial spun): it says what, as the phone does."""
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.5)
    snap = session.snapshot()
    rolls, thrown = snap["rolls"], snap["log"][-1]
    press(table, "undo")
    assert session.snapshot()["rolls"] == rolls - 1 and table.screen == "play"
    assert table.notice.text.startswith("Taken back: ") and thrown in table.notice.text


def test_controller_an_undone_turn_end_says_whose_turn_it_took_back(table, session, clock):
    """X8: ending a turn says nothing in the log, so its undo said a bare "Taken back" at the
    box, and nothing at all when a phone took it back."""
    start(table, "gantlope")
    settle_lead(table, clock)
    name = player_name(session.snapshot(), session.snapshot()["turn"])
    press(table, "flick", strength=0.5)
    press(table, "press")                            # the dial settles on the result
    clock.advance(AGAIN_SECONDS)                     # read (the same press again is held)
    read_on(table)
    press(table, "press")                            # which the knob's press ends the turn on
    assert player_name(session.snapshot(), session.snapshot()["turn"]) != name
    press(table, "undo")
    assert table.notice.text == f"Taken back: the end of {name}'s turn ({name} plays on)"
    assert player_name(session.snapshot(), session.snapshot()["turn"]) == name
    press(table, "press")                            # read: the notice goes, nothing else
    assert table.notice.text == "" and player_name(session.snapshot(),
                                                  session.snapshot()["turn"]) == name
    clock.advance(AGAIN_SECONDS)                     # read (its bounce is held)
    press(table, "press")                            # the knob ends it again
    assert player_name(session.snapshot(), session.snapshot()["turn"]) != name
    session.undo(by="web")                           # and a phone takes that back
    table.update()
    assert table.notice.text == \
        f"Taken back from a phone: the end of {name}'s turn ({name} plays on)"
    session.submit({"type": "next"}, by="web")       # the game goes on from a phone:
    table.update()
    assert table.notice.text == ""                    # the notice was over the next turn


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
    clock.advance(LATE_PRESS_SECONDS)              # a seat's press after it: not to stop it
    snap = session.snapshot()
    turn = snap["turn"]
    assert snap["awaiting"] == "next"
    assert table.result.lines and table.result.lines[0].startswith("Move")   # the instruction
    press(table, "seat", seat=table.buttons[turn])                 # a capture
    after = session.snapshot()
    assert after["players"][turn]["score"] == 1
    read_on(table)                      # the spin's instructions, unread, follow its result
    clock.advance(AGAIN_SECONDS)                                   # not a double press
    press(table, "press")                                          # next
    assert session.snapshot()["turn"] != turn


@pytest.mark.parametrize("game, press_words", [
    ("cats-and-mice", "Press your button for each mouse your cat takes."),
    ("gantlope", "Press your button for each man that enters its Goal."),
    ("india", "Press your button if a man is home, and again to win."),
    ("lost-diamond", None)])
def test_controller_x8_after_a_spin_the_box_says_how_the_turn_goes_on(
        table, session, clock, game, press_words):
    """X8: after an assisted game's spin the box says what its seat buttons record and that the
    knob ends the turn, on the result and on the turn screen (the phone has buttons for both,
    so its prompt stays the rules' own)."""
    start(table, game)
    settle_lead(table, clock)
    while session.snapshot()["awaiting"] != "next":             # Lost Diamond may not spin
        press(table, "flick", strength=0.4)
        press(table, "press")
    words = " ".join(table.result.lines)
    assert words.startswith(session.snapshot()["instruction"])
    assert "Then press the knob to end the turn." in words
    assert (press_words in words) if press_words else "Press your button" not in words
    assert "knob" not in session.snapshot()["prompt"]                # the rules' words
    table.screen = table.home()
    table.render()
    assert table.view()["turn"].action.endswith("Then press the knob to end the turn.")


def test_controller_ld2_after_a_spin_the_box_says_what_the_button_does_with_the_diamond(
        table, session, clock):
    """LD2: after a spin the seat button captures the diamond from the carrier (by landing on
    them) or, for the carrier, claims home; the phone offers both as buttons, and the box said
    only "Then press the knob to end the turn", so a player using the box ended the turn."""
    start(table, "lost-diamond")
    settle_lead(table, clock)
    first = session.snapshot()["turn"]
    names = [p["name"] for p in session.snapshot()["players"]]
    press(table, "seat", seat=table.buttons[first])           # a Field move takes the diamond
    assert session.snapshot()["diamond"] == first
    press(table, "press")                                       # the knob ends the turn
    assert session.snapshot()["turn"] == 1 - first
    press(table, "flick", strength=0.4)
    press(table, "press")
    words = " ".join(table.result.lines)
    assert f"Press your button if you land on {names[first]}: you capture the diamond." in words
    assert words.endswith("Then press the knob to end the turn.")
    press(table, "press")                                       # the knob ends the turn
    press(table, "flick", strength=0.4)                         # the carrier spins
    press(table, "press")
    words = " ".join(table.result.lines)
    assert "Press your button if that brings you home with the diamond." in words
    table.screen = table.home()
    table.render()
    assert "home with the diamond" in table.view()["turn"].action


def test_controller_x8_a_seat_press_result_is_read_to_its_last_page_before_the_knob_ends_it(
        table, session, clock):
    """X8: a press ends an assisted turn on any page of a spin's result (its pages are the
    turn's instructions), and it did so on a seat press's result too, whose pages are news
    (the diamond taken, on page 2, never seen). A result of the log's lines alone is read
    to its last page first."""
    start(table, "lost-diamond")
    settle_lead(table, clock)
    first = session.snapshot()["turn"]
    clock.advance(AGAIN_SECONDS)
    press(table, "seat", seat=table.buttons[first])           # a Field move takes the diamond
    assert session.snapshot()["awaiting"] == "next" and table.screen == "result"
    log = session.snapshot()["log"]
    table.result.outcome = (table.result.outcome[0], "", [box_words(line) for line in log[-4:]])
    table._turn_to(0)                                         # news too long for one page
    table.render()
    assert table.pager.count > 1
    for page in range(1, table.pager.count):
        clock.advance(1.5)
        press(table, "press")
        assert table.pager.page == page and session.snapshot()["turn"] == first
    clock.advance(1.5)
    press(table, "press")                                     # read: the knob ends the turn
    assert session.snapshot()["turn"] != first


def test_controller_p2_a_claim_home_says_the_knob_also_ends_the_turn(table, session, clock):
    """P2: a claim's log line says "the knob cancels", yet the knob also ends the turn; the
    box said the log's words under the claim, and a player kept their turn in mind."""
    turn = india_claim(table, session, clock)
    assert session.snapshot()["home_claim"] == turn
    words = " ".join(table.result.lines)
    assert "press again to win. The knob withdraws the claim and ends the turn." \
        in words, \
        words
    assert "the knob cancels" not in words
    ARTIFACTS.mkdir(exist_ok=True)
    table.render().resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-india-claim.png")
    press(table, "press")                                          # page 2: the knob's part
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # the knob: withdrawn
    assert session.snapshot()["turn"] != turn and session.snapshot()["phase"] == "play"


def test_controller_p2_a_claims_second_page_is_read_before_the_knob_withdraws_it(
        table, session, clock):
    """P2: on a claim's page 1/2 ("Red says a man is home: press again to confirm.") the knob
    press, to read on, withdrew the claim and ended the turn: page 2, "The knob withdraws the
    claim and ends the turn.", was never seen. The press reads on first."""
    turn = india_claim(table, session, clock)
    table.render()
    assert table.screen == "result" and table.pager.count == 2 and table.pager.page == 0
    clock.advance(1.5)
    press(table, "press")
    assert table.pager.page == 1 and session.snapshot()["home_claim"] == turn
    assert "withdraws the claim" in " ".join(table.pager.text)
    clock.advance(1.5)
    press(table, "press")                                          # read: withdrawn, turn over
    snap = session.snapshot()
    assert snap["home_claim"] is None and snap["turn"] != turn


def test_controller_p2_the_next_players_flick_says_the_claim_it_withdrew(table, session,
                                                                       clock):
    """P2, X8: Red's flick 2.5 s after Blue's claim ended Blue's turn, which withdrew the claim
    ("Blue is not home yet (claim cancelled)" in the log), and the box showed only Red's
    throw: the claim went without a word. The throw's result says it first."""
    turn = india_claim(table, session, clock)
    clock.advance(2.5)
    press(table, "flick", strength=0.4)
    snap = session.snapshot()
    assert snap["home_claim"] is None and snap["turn"] != turn
    withdrawn = next(line for line in snap["log"] if line.endswith("(claim cancelled)"))
    assert table.result.lines[0] == withdrawn, table.result.outcome
    assert table.result.lines[-1] != withdrawn                      # then the new throw's words


def test_controller_p2_an_undone_withdrawal_says_the_claim_stands_again(table, session,
                                                                       clock):
    """P2: a claim home withdrawn by the knob, then taken back by Undo, read "Taken back: Cy is
    not home yet (claim cancelled)" while the claim stood again (one press of Cy's button then
    won): the notice says so."""
    turn = india_claim(table, session, clock)
    name = session.snapshot()["players"][turn]["name"]
    press(table, "press")                                          # page 2: the knob's part
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # the knob: withdrawn
    assert session.snapshot()["home_claim"] is None
    for _ in range(3):
        clock.advance(1.0)
        press(table, "undo")
        if session.snapshot()["home_claim"] == turn:
            break
        press(table, "press")                                      # read the notice away
    assert session.snapshot()["home_claim"] == turn
    assert table.notice.text.startswith("Taken back:")
    assert table.notice.text.endswith(f"{name}'s claim stands again: a press of their button "
                                     "confirms it."), table.notice.text


def test_controller_p2_an_undone_claim_is_taken_back_without_its_press_again(table, session,
                                                                             clock):
    """P2: a claim home taken back by Undo read "Taken back: Ann says a man is home: press again
    to confirm, the knob cancels" (the log's line): the claim was gone, and a press then made a
    new one. The notice names what went, without the instruction that went with it."""
    turn = india_claim(table, session, clock)
    name = session.snapshot()["players"][turn]["name"]
    clock.advance(AGAIN_SECONDS)
    press(table, "undo")
    assert session.snapshot()["home_claim"] is None
    assert table.notice.text == f"Taken back: {name} says a man is home", table.notice.text
    ARTIFACTS.mkdir(exist_ok=True)
    table.render().resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-india-claim-undone.png")


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
    assert "Flick" in table.notice.text and session.version == version


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


def test_controller_the_phone_page_from_the_menu_says_its_press_goes_back(table):
    """The phone page opened from a game's menu said "press knob", which did not say what the
    press would do (go back to the game); at start-up, with no game, it still says "press
    knob" (the press opens the games)."""
    from drawn_words import shows
    assert table.screen == "start" and shows(table.render(), "press knob")
    start(table, "kat-en-muis")
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Phone page"))
    press(table, "press")
    frame = table.render()
    assert shows(frame, "press: back") and not shows(frame, "press knob")


def test_controller_india_scores_say_the_board_shows_who_leads(table):
    """India keeps no place, chip or score on the box: its Scores screen was a "-" under each
    name, two pages of them. It says so once: no score kept, the men on the board lead."""
    start(table, "india")
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Scores"))
    press(table, "press")
    assert table.screen == "scores"
    assert table.view()["text"] == ["India", "No score kept",
                                    "the men on the board show who leads"]


@pytest.mark.parametrize("item", ["Set game aside", "New game"])
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


@pytest.mark.parametrize("game,declares", [("fox-and-geese", True), ("free-play", True),
                                           ("kat-en-muis", False), ("cats-and-dogs", False)])
def test_controller_menu_ends_a_game_in_the_phone_page_words(table, session, game, declares):
    """The box's menu names the ways to end a game as the phone page does: "Declare winner"
    where the game ends by declaration, and "Set game aside" in every game (a declaration game
    could be set aside from the box only by starting another). Not in the lead, which refuses
    it: it was asked, confirmed, then refused."""
    start(table, game)
    game_id = session.game_id
    press(table, "menu")
    assert ("Declare winner" in table.menu_items) == (declares and game == "fox-and-geese")
    press(table, "menu")
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    table.update()
    if table.screen == "spin":                  # the phone's throw on the dial: the menu button
        press(table, "menu")                    # stops it and its throw is shown first
        assert table.screen == "result"
    press(table, "menu")
    assert ("Declare winner" in table.menu_items) == declares
    assert "End game" not in table.menu_items
    press(table, "turn", detents=table.menu_items.index("Set game aside"))
    press(table, "press")
    assert table.screen == "confirm" and "Set this game aside?" in table.confirm[0]
    press(table, "turn", detents=1)
    press(table, "press")
    assert session.store.game(game_id).status == "abandoned"


def test_controller_fox_and_geese_end_game_declares_the_winner(table, session):
    start(table, "fox-and-geese")
    press(table, "press")                    # the Geese (seat 1) make the knob's first move
    assert session.snapshot()["turn"] == 0
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    assert table.screen == "declare"
    press(table, "turn", detents=1)                                # "Player 2 wins"
    press(table, "press")
    assert table.screen == "confirm" and session.snapshot()["phase"] == "play"
    press(table, "turn", detents=1)                                # "Yes"
    press(table, "press")
    snap = session.snapshot()
    assert snap["phase"] == "over" and snap["winners"] == [1]
    words = " ".join(table.view()["text"])
    fox, geese = (p["name"] for p in snap["players"])                # the Fox is seat 0
    assert table.screen == "result" and f"{fox} resigns" in words and f"{geese} wins" in words
    table.clock.advance(AGAIN_SECONDS)                             # read
    press(table, "press")
    assert table.screen == "over"
    press(table, "press")
    assert table.screen == "games"


def test_controller_free_play_a_throws_result_says_the_throw_then_the_turns_end(table, session,
                                                                             clock):
    """Free play: the result read "press the knob to end the turn" above "Ann throws 3 and 6
    (9)", an instruction first, in lower case. The throw comes first, then what a seat button
    does (nothing on the box said it: the phone's "A point for Ann" did) and the turn's end."""
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("free-play"))
    press(table, "press")
    for seat in (0, 1):
        press(table, "seat", seat=seat)
    press(table, "press")
    assert table.screen == "dice"
    press(table, "turn", detents=1)                  # two dice: the line says the total
    press(table, "press")
    settle_lead(table, None)
    clock.advance(AGAIN_SECONDS)
    name = table.snap["players"][table.snap["turn"]]["name"]
    press(table, "flick", strength=0.5)
    press(table, "press")                            # the dial settles: the result
    assert table.screen == "result"
    words = table.result.lines
    assert words[0].startswith(f"{name} throws") and words[-1] == \
        "A seat button gives its player a point. Then press the knob to end the turn.", words
    from firmware.oled.views import turn_view      # the next turn's screen says it too
    assert turn_view(session.submit({"type": "next"})).action == \
        "flick to throw (or press the knob to pass). A seat button gives its player a point."


def test_controller_a_seat_button_on_a_question_or_the_end_says_what_to_do(table, session):
    """Seat buttons on the "who won" list, its Yes/No and the end screen did nothing and said
    nothing, where every other press that does nothing says why."""
    start(table, "free-play")
    settle_lead(table, None)
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    assert table.screen == "declare"
    for button in (0, 4):                            # a player's, and one not in the game
        table.notice.text = ""
        press(table, "seat", seat=button)
        assert table.screen == "declare" and table.notice.text == KNOB_ANSWERS
    table._clear_notice()                            # read
    press(table, "press")                            # the knob answers, as ever
    assert table.screen == "confirm"
    table.notice.text = ""
    press(table, "seat", seat=1)
    assert table.screen == "confirm" and table.notice.text == KNOB_ANSWERS
    table._clear_notice()                            # read
    press(table, "turn", detents=1)
    press(table, "press")
    table.clock.advance(AGAIN_SECONDS)
    while table.screen == "result":
        press(table, "press")
    assert table.screen == "over" and session.snapshot()["phase"] == "over"
    for button in (0, 4):
        table.notice.text = ""
        press(table, "seat", seat=button)
        assert table.screen == "over" and table.notice.text == GAME_OVER_SEAT


def test_controller_a_throw_while_the_dial_spins_is_the_one_it_shows(table, session):
    """Two phone throws 1.2 s apart: the OLED kept "Ben throws 1 · 1" up while the phones
    showed Ann's 1 and 3, and Ann's throw was never shown as a throw. The dial shows the
    newest; its result is headed by how many throws it holds, with each in its order (headed
    by the newest throw, the lines read back to front: its big numbers, then the first)."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    table.update()
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
    table.update()
    press(table, "press")                       # past the lead's result
    first = session.roll(by="web")
    table.update()
    assert table.screen == "spin"
    second = session.roll(by="web")              # while the dial still spins
    table.update()
    roll = second["last_roll"]
    heading, values, words = table.result.outcome
    assert table.screen == "spin" and table.animation.values == tuple(roll["values"])
    assert (heading, values) == ("2 throws", "")
    thrower = first["players"][first["last_roll"]["seat"]]["name"]
    newest = second["players"][roll["seat"]]["name"]
    firsts = [i for i, w in enumerate(words) if w.startswith(f"{thrower} throws")]
    seconds = [i for i, w in enumerate(words) if w.startswith(f"{newest} throws")]
    assert firsts and seconds and firsts[0] < seconds[-1], words             # in their order
    press(table, "press")
    assert table.screen == "result"


def test_controller_spins_while_the_dial_spins_are_called_spins(table, session):
    """Cats and Dogs has a spinner: two phone spins under one dial were headed "2 throws";
    and the lead's last spin with the first of the game under "The lead"."""
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    table.update()
    while True:
        snap = session.snapshot()
        if snap["phase"] == "lead" and len((snap["lead"] or {}).get("throws") or {}) == 1:
            break                                  # one lead spin to go
        session.roll(by="web")
    table.update()
    press(table, "press")
    session.roll(by="web")                         # the lead's last spin
    table.update()
    session.roll(by="web")                         # the game's first, as the dial spins
    table.update()
    assert session.snapshot()["phase"] == "play"
    assert table.result.outcome[0] == "2 spins", table.result.outcome
    press(table, "press")
    press(table, "press")
    session.roll(by="web")
    table.update()
    session.roll(by="web")
    table.update()
    assert table.result.outcome[0] == "2 spins", table.result.outcome


def test_controller_a_knob_turn_under_a_notice_shows_the_move_it_picks(table, session):
    """"Taken back from a phone: ..." stayed over the knob's pick of a move for its reading
    time (20 s for a long one): a player turned and pressed without seeing the move. The turn
    takes the notice away and moves the pick."""
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    snap = session.snapshot()
    session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="web")
    table.update()
    press(table, "press")                               # the move read
    session.undo(by="web")
    table.update()
    assert table.screen == "play" and table.notice.text.startswith("Taken back from a phone: ")
    press(table, "turn", detents=2)
    assert not table.notice.text and table.move_index == 2
    assert table.view()["flash"] == ""


def test_controller_x12_the_lead_shows_the_throwers_button(table, session, clock):
    """The turn screen's button box beside the name (X12) was missing during the lead: the
    first thing a table does was the one screen without it."""
    session.new_game("kat-en-muis", ["Ann", "Ben"], buttons=[2, 3])
    table.update()
    past_setup(table)                                          # the stakes said first (K1)
    view = table.view()["turn"]
    assert table.snap["phase"] == "lead" and (view.name, view.button) == ("Ann", 2)
    frame = table.render()
    ARTIFACTS.mkdir(exist_ok=True)
    frame.resize((512, 256), Image.NEAREST).save(ARTIFACTS / "oled-lead-button.png")
    press(table, "flick", strength=0.5)
    press(table, "press")                               # the dial stops
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                               # the throw read
    assert (table.view()["turn"].name, table.view()["turn"].button) == ("Ben", 3)


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


@pytest.mark.parametrize("last", ["a throw", "the box's undo", "a phone's undo",
                                  "a throw by a name the box cannot draw"])
def test_controller_after_resumed_the_last_move_is_said_again(store, clock, last):
    """Stopped 0.5 s into the dial's spin, the box came back to "Resumed", then the next
    turn: Ben's throw and where his Cat goes were never said (the phones had them); after
    an undo, what to set back by hand was never said again. Both follow "Resumed" now, in
    the names the box draws ("□□ throws 1 and 3" of 小明, the turn screen's "Red"); the undo
    as the last move ("Last move: taken back: ..."), not read as a second undo."""
    first = Session(store, new_seed=lambda: SEED)
    first.new_game("kat-en-muis", ["小明" if "cannot" in last else "Ann", "Ben"],
                   buttons=[1, 2])
    while first.snapshot()["phase"] == "lead" or first.snapshot()["turn"] != 0:
        first.roll(by="knob")                        # to the first seat's throw
    before = len(first.snapshot()["log"])
    thrown = first.roll(by="knob")
    if "undo" in last:
        first.undo(by="undo" if last == "the box's undo" else "pin-0a1b2c")
    again = Controller(Session(store, new_seed=lambda: SEED), seats=2, clock=clock)
    assert again.screen == "resumed"
    clock.advance(ctl.RESUMED_SECONDS + 0.1)
    again.update()
    if last.startswith("a throw"):
        said = [box_words(line) for line in thrown["log"][before:]]
        if "cannot" in last:
            assert "小明" in said[0]
            said = [line.replace("小明", "Red") for line in said]
        assert again.screen == "result" and again.result.outcome == ("Last move", "", said)
    else:
        whence = "" if last == "the box's undo" else "from a phone"
        words = undo_words(thrown["log"][before:], [], whence)     # a recap, not a new undo
        assert again.screen == "play" and again.notice.text == \
            f"Last move: {words[:1].lower()}{words[1:]}"


def test_controller_a_box_of_four_seats_offers_four_players_at_most(session, clock):
    """With `seats = 4` the game list and the join screen said "2-6 players" beside four seat
    squares: the box says what can join at it (as a phone's new game does)."""
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    c.pi.detach()
    try:
        press(c, "press")
        press(c, "turn", detents=[g.id for g in c.games].index("lifes-mishaps"))
        from drawn_words import shows
        frame = c.render()
        assert shows(frame, "2-4 players") and not shows(frame, "2-6 players")
        press(c, "press")                              # join
        assert shows(c.render(), "2-4 players")
        press(c, "seat", seat=0)
        press(c, "press")
        assert "is for 2 to 4 players, not 1" in c.notice.text
    finally:
        c.close()


def test_controller_every_screen_draws(table):
    start(table, "kat-en-muis")
    press(table, "flick", strength=0.5)
    for screen in sorted({s for s, _ in TRANSITIONS}):
        table.screen = screen
        table.confirm = ("Sure?", "end game")
        image = table.render()
        assert (image.mode, image.size) == ("1", (128, 64)) and image.getbbox(), screen


def test_controller_x12_default_names_are_the_button_colours(session, controls, clock):
    from companion.buttons import ButtonColour
    colours = [ButtonColour(n, "#000000") for n in ("Ivory", "Jade", "Ruby")]
    c = Controller(session, controls=controls, seats=3, clock=clock, colours=colours)
    start(c, "lifes-mishaps", seats=(0, 2))
    assert [(p["name"], p["button"]) for p in c.snap["players"]] == [("Ivory", 1), ("Ruby", 3)]


def test_controller_every_screen_has_a_way_out():
    screens_ = {screen for screen, _ in TRANSITIONS}
    stuck = [s for s in screens_ if not any(
        (s, kind) in TRANSITIONS for kind in ("hold", "menu", "undo", "press"))]
    assert not stuck


@pytest.mark.parametrize("game, shares", [("fox-and-geese", False), ("free-play", True)])
def test_controller_F3_fox_and_geese_offers_one_winner_at_the_end_free_play_a_shared_win(
        table, session, game, shares):
    """F3: in Fox and Geese a player resigns, so the box offers no shared win (the game would
    refuse it); free play's declaration may name every player."""
    start(table, game)
    settle_lead(table, None)
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    assert table.screen == "declare"
    names = [p["name"] for p in session.snapshot()["players"]]
    assert table.view()["declare"]["options"] == [f"{n} wins" for n in names] + (
        ["All share the win"] if shares else []) + ["Back"]


def test_controller_x6_free_play_offers_the_players_tied_on_points_a_shared_win(table, session):
    """X6: free play's end from the box offered one winner or all; two players tied on points
    at the top, with a third behind, could share the win only from a phone."""
    start(table, "free-play", seats=(0, 1, 2))
    settle_lead(table, None)
    for seat, points in ((0, 1), (2, 1)):
        for _ in range(points):
            session.submit({"type": "press", "seat": seat}, by="test")
    names = [p["name"] for p in session.snapshot()["players"]]
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    options = table.view()["declare"]["options"]
    shared = f"{names[0]} & {names[2]} share"
    assert options == [f"{n} wins" for n in names] + [shared, "All share the win", "Back"]
    press(table, "turn", detents=options.index(shared))
    press(table, "press")
    press(table, "turn", detents=1)                                # "Yes"
    press(table, "press")
    assert session.snapshot()["winners"] == [0, 2]


def test_controller_declaration_can_be_backed_out_of(table, session):
    start(table, "free-play")
    settle_lead(table, None)
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    assert table.screen == "declare"
    press(table, "press")                                             # "Player 1 wins"
    assert table.screen == "confirm" and "cannot be taken back" in table.confirm[0]
    press(table, "press")                                             # "No" is the default
    assert session.snapshot()["phase"] != "over" and table.screen == "play"
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    press(table, "turn", detents=-1)                                  # "Back"
    press(table, "press")
    assert session.snapshot()["phase"] != "over" and table.screen == "play"


@pytest.mark.parametrize("label,kind", [("The Indicator", "indicator"), ("Three dice", "dice"),
                                        ("Spinner of 12", "spinner")])
def test_controller_free_play_randomizer_is_chosen_on_the_device(table, session, label, kind):
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("free-play"))
    from firmware.oled.views import RANDOMIZERS, game_detail
    assert "no dice" not in game_detail(GAMES["free-play"], True)
    press(table, "press")
    press(table, "seat", seat=0)
    press(table, "seat", seat=2)
    press(table, "press")
    assert table.screen == "dice"
    press(table, "turn", detents=[name for name, _ in RANDOMIZERS].index(label))
    press(table, "press")
    snap = session.snapshot()
    assert table.screen == "play" and snap["randomizer"]["kind"] == kind
    assert snap["game"] == "free-play"


def test_controller_free_play_dice_step_backs_out_to_joining(table, session):
    press(table, "press")
    press(table, "turn", detents=[g.id for g in table.games].index("free-play"))
    press(table, "press")
    press(table, "seat", seat=0)
    press(table, "press")
    assert table.screen == "dice"
    press(table, "undo")
    assert table.screen == "join" and table.joined[0] and session.snapshot()["game"] is None


def test_controller_domino_rex_shows_sum_checker_rex_and_points(table, session, clock):
    from firmware.controller.parts.notices import AGAIN_SECONDS
    start(table, "domino-rex")
    settle_lead(table, None)
    clock.advance(AGAIN_SECONDS)
    seen = []
    for _ in range(40):
        snap = session.snapshot()
        if snap["phase"] == "over":
            break
        table.render()
        last = snap["last_uncovered"]
        value = table._choices()[0]
        meaning = table.view()["text"][2]
        assert meaning == (f"uncover a {value} to open" if last is None else
                           f"uncover a {value}: {value}+{last}={value + last}")
        press(table, "press")
        assert table.screen == "result"
        heading, values, words = table.result.outcome
        seen.append((values, " ".join(words)))
        if last is not None and "Rex!" not in words[-1]:
            assert values in (f"{value} + {last} = {value + last}", "Rex!")
        while table.screen == "result":
            press(table, "press")
        clock.advance(AGAIN_SECONDS)               # read: the press after it chooses
    assert any(values == "Rex!" for values, _ in seen)
    assert any("goes into Domino" in w for _, w in seen)
    snap = session.snapshot()
    assert snap["phase"] == "over"
    winner = snap["players"][snap["winners"][0]]
    text = " ".join(table.view()["text"])
    assert table.screen == "over" and f"wins, {winner['score']} points" in text


def test_controller_sounds_tell_capture_win_and_refusal_apart(table, session, controls):
    start(table, "cats-and-mice")
    settle_lead(table, None)
    press(table, "seat", seat=table.buttons[table.snap["turn"]])    # before the spin: refused
    assert controls.beeps[-1] == "error"
    press(table, "flick", strength=0.5)
    press(table, "press")
    table.clock.advance(LATE_PRESS_SECONDS)
    press(table, "seat", seat=table.buttons[table.snap["turn"]])    # a mouse
    assert controls.beeps[-1] == "capture"
    assert table.screen == "result" and table.result.lines[0].startswith("Squeak!")
    from firmware.pins.controls import BEEPS
    patterns = [BEEPS[name] for name in ("click", "capture", "error", "win")]
    assert len(set(patterns)) == 4                                   # four sounds, four events


def test_controller_long_outcome_pages_advance_by_themselves_and_by_the_knob(table, clock):
    start(table, "kat-en-muis")
    table.result.outcome = ("Ann throws", "3 · 5", ["Ann moves to 16",
                                             "Ben pays Ann 1 chip (jumping over Ben)",
                                             "Ann has 66 chips and wins the game at last"])
    table._show_result()
    table.render()
    assert table.pager.count >= 2 and table.pager.page == 0
    press(table, "turn", detents=1)                                  # the knob turns a page
    assert table.pager.page == 1 and table.screen == "result"
    press(table, "turn", detents=-1)
    assert table.pager.page == 0
    seen = []
    for _ in range(20):                                              # then they advance alone
        seen.append(" ".join(table.view()["text"]))
        clock.advance(ctl.PAGE_SECONDS + 0.01)
        table.update()
        table.render()
        if table.screen != "result":
            break
    words = " ".join(seen)
    assert "Ann moves to 16" in words and "wins the game at last" in words
    assert table.screen == "play"                                    # after the last page


def test_controller_long_instruction_on_the_turn_screen_goes_round(table, clock):
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.5)
    press(table, "press")                                            # the result
    for _ in range(10):
        clock.advance(ctl.PAGE_SECONDS + 0.01)
        table.update()
        table.render()
    assert table.screen == "play" and table.snap["awaiting"] == "next"
    name = table.snap["players"][table.snap["turn"]]["name"]
    table.snap = dict(table.snap, prompt=f"{name}: Move your cat 4, then 6. Then one mouse 10, "
                      "or two mice 4 and 6. Press your seat button for each mouse taken, "
                      "then press the knob to end the turn.")
    table.render()
    assert table.pager.count > 1
    pages = []
    for _ in range(table.pager.count + 1):
        pages.append((table.pager.page, " ".join(table.view()["text"])))
        clock.advance(ctl.PAGE_SECONDS + 0.01)
        table.update()
        table.render()
    assert [p for p, _ in pages] == list(range(table.pager.count)) + [0]
    assert "Move your cat" in " ".join(text for _, text in pages)


def test_controller_a_long_question_is_shown_whole_a_page_at_a_time(table, session, clock):
    """The confirm screen showed a question's first four lines and dropped the rest ("... and
    stays in the history." was never read); a long one now goes round four lines at a time."""
    start(table, "free-play", seats=(0, 1, 2))
    settle_lead(table, None)
    for seat, name in ((0, "Bartholomew Fairweather"), (2, "Anastasia Wolverhampton")):
        session.submit({"type": "rename", "seat": seat, "name": name}, by="test")
        session.submit({"type": "press", "seat": seat}, by="test")     # tied on points
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    options = table.view()["declare"]["options"]
    press(table, "turn", detents=options.index(
        "Bartholomew Fairweather & Anastasia Wolverhampton share"))
    press(table, "press")
    question = table.confirm[0]
    assert table.screen == "confirm" and table.pager.count > 1
    pages = []
    for _ in range(table.pager.count + 1):
        pages.append((table.pager.page, table.view()["text"]))
        clock.advance(ctl.PAGE_SECONDS + 0.01)
        table.update()
        table.render()
    assert [p for p, _ in pages] == list(range(table.pager.count)) + [0]
    shown = [line for _, lines in pages[:-1] for line in lines]
    assert " ".join(shown).split() == question.split()           # every word, in order
    assert all(len(lines) <= 4 for _, lines in pages)
    press(table, "turn", detents=1)                               # the knob still answers
    press(table, "press")
    assert session.snapshot()["winners"] == [0, 2]


def test_controller_set_aside_question_is_read_on_one_screen(table, session):
    start(table, "kat-en-muis")
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Set game aside"))
    press(table, "press")
    assert table.screen == "confirm" and table.pager.count == 1
    assert " ".join(table.view()["text"]).split() == table.confirm[0].split()


def test_controller_one_point_and_one_chip_read_as_one():
    """Free play's OLED said "1 pts"; a pool of one, "1 chips"."""
    from firmware.oled.views import Row, score_rows, standing
    snap = {"players": [{"name": "Ann", "score": 1, "chips": 1},
                        {"name": "Ben", "score": 2, "chips": 3}], "pool": 1, "turn": 0}
    assert standing(snap, 0) == "1 chip · 1 pt" and standing(snap, 1) == "3 chips · 2 pts"
    assert score_rows(snap)[-1] == Row("Pool", "1 chip")
    assert score_rows({**snap, "game": "kat-en-muis"})[-1] == Row("Both pots", "1 chip")   # K8


def test_controller_x3_a_player_with_no_chips_left_reads_0_chips_on_the_box():
    """X3: in a game of chips, none left is what decides a shortfall; the box's turn line said
    "red 25" where both phones said Chips 0 (a game without chips says nothing of them, nor
    does free play while no chips have been handed out: "0 chips" under a points game)."""
    from firmware.oled.views import standing
    ben = {"name": "Ben", "role": "cat", "position": 25, "chips": 0}
    ann = {"name": "Ann", "role": "mouse", "position": 3, "chips": 30}
    assert standing({"game": "kat-en-muis", "players": [ben, ann]}, 0) == "red 25 · 0 chips"
    assert standing({"game": "cats-and-dogs", "players": [{**ben, "role": None}]}, 0) == "sq 25"
    free = [{"name": "Ann", "chips": 0, "score": 2}, {"name": "Ben", "chips": 0, "score": 0}]
    assert standing({"game": "free-play", "players": free}, 0, scores=True) == "2 pts"
    assert standing({"game": "free-play", "players": free, "pool": 4}, 0, True) == \
        "0 chips · 2 pts"


def test_controller_g3_no_press_left_the_box_no_longer_asks_for_one():
    """G3, M3: after the spin's two presses the turn screen still said "Press your button for
    each man that enters its Goal"; a third press is refused, so only the knob is said."""
    from firmware.oled.views import with_box_controls
    snap = {"game": "gantlope", "awaiting": "next", "instruction": "Move one man 4, then 3."}
    said = with_box_controls({**snap, "presses_left": 1}, snap["instruction"])
    assert "Press your button for each man that enters its Goal." in said
    assert with_box_controls({**snap, "presses_left": 0}, snap["instruction"]) == \
        "Move one man 4, then 3. Then press the knob to end the turn."


def test_controller_m3_the_turn_line_says_0_points_once_someone_has_scored():
    """M3: the scores screen said "0 pts" beside "2 pts", the turn screen nothing for 0."""
    from firmware.oled.views import turn_view
    snap = {"game": "cats-and-mice", "phase": "play", "turn": 0, "awaiting": "roll",
            "prompt": "Red - spin", "players": [{"name": "Red", "score": 0},
                                                {"name": "Green", "score": 2}]}
    assert turn_view(snap).detail == "0 pts"
    assert turn_view({**snap, "players": [{"name": "Red", "score": 0},
                                          {"name": "Green", "score": 0}]}).detail == ""


def test_controller_x2_a_lead_too_long_for_its_line_says_the_throw_to_beat():
    """X2: "Bartholomeus 1  Emma…" cut off Emma's 2, the throw Wim had to beat; the line
    says the best throw so far when the throws do not fit it (they are read whole when they
    do), before the names it is by, and alone when those do not fit."""
    from firmware.oled.views import turn_view
    snap = {"game": "domino-rex", "title": "Domino Rex", "phase": "lead", "turn": 2,
            "prompt": "Wim - throw the dice",
            "players": [{"name": "Bartholomeus"}, {"name": "Emma"}, {"name": "Wim"}],
            "lead": {"throws": {"0": 1, "1": 2}}}
    assert turn_view(snap).detail == "best 2: Emma"
    long = {**snap, "players": [{"name": "Bartholomeus"}, {"name": "Grandmother Wilhelmina X"},
                                {"name": "Wim"}]}
    assert turn_view(long).detail == "best so far 2"   # "best: Grandmother Wi…" hid the 2
    for view in (turn_view(snap), turn_view(long)):
        assert lettering.width(view.detail, lettering.SMALL) <= lettering.W - 2
    assert turn_view(snap).heading == "Domino Rex: lead"          # not "Domino Rex   Lead"
    assert turn_view({**snap, "title": "The Lost Diamond"}).heading == "The lead"
    short = {**snap, "players": [{"name": "Al"}, {"name": "Em"}, {"name": "Wim"}]}
    assert turn_view(short).detail == "threw: Al 1  Em 2"
    assert lettering.width("Bartholomeus 1  Emma 2", lettering.SMALL) > lettering.W - 2


def test_controller_a_game_won_on_points_says_both_ways_on_from_its_end(table, session):
    """Kat en Muis' end said "turn: all scores" alone: a new user never learnt that a press
    begins the next game, as the Fox and Geese end ("press: new game") says."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    while session.snapshot()["phase"] != "over":
        session.roll(by="test")
    table.update()
    table.render()
    assert table.screen == "over" and table.pager.text[-1] == "press: new game"
    table.clock.advance(ctl.PAGE_SECONDS + 0.01)               # and then the other way on
    table.update()
    table.render()
    assert table.pager.text[-1] == "turn: all scores"           # ("turn=scores" read as code)
    press(table, "press")                                      # as it said: the next game
    assert table.screen == "games"


def test_controller_p2_indias_scores_name_the_winner_once_the_game_is_won(table):
    """India keeps no score: its Scores screen said "the men on the board show who leads"
    after Green had won, and never named her."""
    table.snap = {"game": "india", "title": "India", "phase": "over", "winners": [1],
                  "players": [{"name": "Red"}, {"name": "Green"}], "version": 9}
    assert table.draw_scores() is not None
    assert table.pager.text == ["India", "No score kept", "Green won"]
    table.snap = {**table.snap, "phase": "play", "winners": []}
    table.draw_scores()
    assert table.pager.text == ["India", "No score kept", "the men on the board show who leads"]


def test_controller_a_brisk_turn_read_as_a_flick_moves_the_game_list(session, clock):
    """A 90-degree twist at 35 detents a second reads as a flick, which the game list took as
    nothing (100 of 100 such twists left it where it was): a flick where the knob only picks
    moves the pick by its detents, on every such screen."""
    c = Controller(session, controls=FakeControls(), seats=4, clock=clock)
    c.attach()
    c.pi.detach()
    try:
        press(c, "press")
        assert c.screen == "games" and c.game_index == 0
        press(c, "flick", detents=5, strength=0.2)
        assert c.screen == "games" and c.game_index == 5
        press(c, "flick", detents=-3, strength=0.2)
        assert c.game_index == 2
        press(c, "menu")
        assert c.screen == "menu"
        index = c.menu_index
        press(c, "flick", detents=1, strength=0.2)
        assert c.menu_index == (index + 1) % len(c.menu_items)
    finally:
        c.close()


def test_controller_p2_a_seat_press_on_resumed_does_not_confirm_an_unseen_claim(
        table, session, store, clock):
    """P2, LD2: stopped at a claim home, the box came back to "Resumed / India / Red to
    play", and Red's button there confirmed the claim and won (final, X11): nothing on the
    screen had said a press wins. The press shows the claim first; the next confirms it."""
    turn = india_claim(table, session, clock)
    assert session.snapshot()["home_claim"] == turn
    again = Controller(Session(store, new_seed=lambda: SEED), controls=FakeControls(), seats=4,
                       clock=clock)
    assert again.screen == "resumed"
    press(again, "seat", seat=again.buttons[turn])
    snap = again.session.snapshot()
    assert snap["phase"] == "play" and snap["home_claim"] == turn
    assert "press again to win" in " ".join(again.result.lines), again.view()
    clock.advance(AGAIN_SECONDS)
    press(again, "seat", seat=again.buttons[turn])
    assert again.session.snapshot()["phase"] == "over"


def _before_the_restart(session, game: str, step: str) -> None:
    """A game of Ann and Ben past its lead, to the turn where `step` leaves it: "spun" (its
    player's spin), "field" (LD1: before the spin) or "carried" (LD2: Ben has the diamond and
    Ann has spun)."""
    session.new_game(game, ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll(by="knob")
    if step == "carried":
        session.submit({"type": "press", "seat": session.snapshot()["turn"]}, by="seat 1")
        session.submit({"type": "next"}, by="knob")
    if step != "field":
        session.roll(by="knob")


@pytest.mark.parametrize("game, step", [("cats-and-mice", "spun"), ("gantlope", "spun"),
                                        ("india", "spun"), ("lost-diamond", "field"),
                                        ("lost-diamond", "carried"), ("free-play", "spun"),
                                        ("free-play", "field")])
def test_controller_m3_g3_ld2_a_seat_press_on_resumed_shows_what_it_records_first(
        session, store, clock, game, step):
    """M3, G3, LD2, P2, free play: on "Resumed / Cats and Mice / Ben to play", Ben's button
    took a mouse (and the last mouse's 3 points ended the game): nothing on it said what a
    press does. The press shows the last move with what the button does now; the next
    press records it."""
    _before_the_restart(session, game, step)
    turn = session.snapshot()["turn"]
    again = Controller(Session(store, new_seed=lambda: SEED), controls=FakeControls(), seats=4,
                       clock=clock)
    assert again.screen == "resumed"
    press(again, "seat", seat=again.buttons[turn])
    assert store.events(session.game_id)[-1]["type"] != "press", again.view()
    said = " ".join(again.result.lines)
    assert again.screen == "result" and ("your button" in said or "seat button" in said), \
        again.view()
    clock.advance(AGAIN_SECONDS)
    press(again, "seat", seat=again.buttons[turn])
    last = store.events(session.game_id)[-1]
    assert (last["type"], last["seat"]) == ("press", turn)


def test_controller_free_play_with_nothing_to_throw_a_flick_does_not_end_the_turn(
        table, session, controls):
    """Free play with nothing to throw: the screen says "press the knob to end the turn", yet
    a flick ended it (X8's end-then-throw, with no throw), at once and without a word: the
    next player's turn screen came up. The flick is refused, saying what ends the turn."""
    session.new_game("free-play", ["Ann", "Ben", "Cy"], {"randomizer": {"kind": "none"}})
    table.update()
    table.render()
    assert session.snapshot()["turn"] == 0
    press(table, "flick", strength=0.5)
    assert session.snapshot()["turn"] == 0
    assert "press the knob to end the turn" in table.notice.text, table.view()
    assert controls.beeps[-1] == "error"


def test_controller_after_resumed_the_pis_lead_throw_is_said_again(store, clock):
    """D1: stopped just after the Pi's throw for the lead, the box came back to "Resumed"
    and then Ann's turn screen ("tie on 5: throw again"): the Pi's throw, the newest move,
    was never said, as a person's is ("Last move: Ben throws 2 and 6")."""
    first = Session(store, new_seed=lambda: SEED)
    first.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
    first.roll(by="knob")
    first.roll(by="pi")
    again = Controller(Session(store, new_seed=lambda: SEED), seats=2, clock=clock)
    assert again.screen == "resumed"
    lines = again.session.resumed_lines
    assert lines and lines[0].startswith("Pi throws")
    clock.advance(ctl.RESUMED_SECONDS + 0.1)
    again.update()
    assert again.screen == "result", again.view()
    assert again.result.outcome == ("Last move", "", [box_words(line) for line in lines])
