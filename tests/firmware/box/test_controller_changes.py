"""Changes made elsewhere (a phone, the web, an undo from a phone) shown on the box, and the
box's own inputs racing them: each acts once, on the state the box last drew."""

from __future__ import annotations

import random

import pytest

from companion.session import Session
from drawn_words import shows
from controller_support import SEED, past_setup, press, settle_lead, start
from firmware import controller as ctl
from firmware.controller.parts.notices import AGAIN_SECONDS, LATE_PRESS_SECONDS
from firmware.controller.parts.pager import PAGE_SECONDS
from firmware.oled.views import player_name
from firmware.workers.odds_worker import hint_of


def a_phone_plays_domino_rex(session, pick: random.Random) -> None:
    """One step of Domino Rex from a phone: the throw awaited, or a covered square at random."""
    snap = session.snapshot()
    if snap["awaiting"] == "roll":
        session.roll(by="pin-0a1b2c")
    else:
        covered = snap["players"][snap["turn"]]["covered"]
        session.submit({"type": "choose", "value": pick.choice(covered)}, by="pin-0a1b2c")


def test_controller_redraws_when_the_web_changes_the_session(table, session):
    assert table.screen == "start"
    session.new_game("kat-en-muis", ["Ann", "Ben"])                # as from a phone
    table.render()
    assert table.update() and table.screen == "result"             # the stakes first (K1)
    assert table.result.lines == ["Each player pays 5 chips into the pool (stake into the pot)"]
    past_setup(table)
    assert table.screen == "play"
    assert table.view()["turn"].name == "Ann"
    session.new_game("fox-and-geese", ["Cy", "Di"])
    table.update()
    assert table.view()["turn"].name == "Di (Geese)"


def test_controller_a_change_from_a_phone_is_headed_as_one(table, session):
    """A phone's rename while Ann is to move was headed "Ann", as if she had made it; so was
    a phone's chip correction that named her ("Ben pays Ann 3 chips (correction: ...)")."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    table.update()
    past_setup(table)
    assert table.view()["turn"].name == "Ann"
    session.submit({"type": "rename", "seat": 1, "name": "Zed"}, by="pin-0a1b2c")
    table.update()
    assert table.screen == "result"
    heading, _, words = table.result.outcome
    assert heading == "From a phone" and any("Zed" in w for w in words), (heading, words)
    press(table, "press")
    session.submit({"type": "rename", "seat": 0, "name": "Ada"}, by="pin-0a1b2c")
    table.update()                                      # the mover renamed: not "Ann" either
    heading, _, words = table.result.outcome
    assert heading == "From a phone" and any("Ada" in w for w in words), (heading, words)
    press(table, "press")
    session.submit({"type": "transfer", "from": 1, "to": 0, "amount": 3,
                    "reason": "misread square"}, by="pin-0a1b2c")
    table.update()
    heading, _, words = table.result.outcome
    assert session.snapshot()["last_type"] == "transfer"
    assert heading == "From a phone" and any("Ada" in w for w in words), (heading, words)


def test_controller_a_change_from_a_script_is_headed_as_one_not_as_a_phones(table, session):
    """A call with the PIN in a header ("by": "api") was headed "From a phone", and its undo
    "Taken back from a phone", though no phone made either. An undo is said as made by whoever
    made it, not by who made what it took back."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    table.update()
    session.submit({"type": "rename", "seat": 1, "name": "Zed"}, by="api")
    table.update()
    heading, _, words = table.result.outcome
    assert heading == "From a script" and any("Zed" in w for w in words), (heading, words)
    press(table, "press")
    session.undo(by="api")
    table.update()
    assert table.notice.text.startswith("Taken back from a script"), table.notice.text
    session.submit({"type": "rename", "seat": 1, "name": "Zed"}, by="api")
    table.update()
    press(table, "press")
    session.undo(by="pin-0a1b2c")                   # a phone takes back the script's change
    table.update()
    assert table.notice.text.startswith("Taken back from a phone"), table.notice.text


def lead_thrown_from_phones(table, session) -> dict:
    """Domino Rex between Ann and Ben, the lead thrown from phones while the dial spins."""
    session.new_game("domino-rex", ["Ann", "Ben"])
    table.update()
    while session.snapshot()["phase"] == "lead":
        session.roll(by="web")
        table.update()
    assert table.screen == "spin"
    return session.snapshot()


def test_controller_a_phone_uncover_while_the_dial_spins_shows_after_the_throw(
        table, session, clock):
    """Ann uncovered from her phone while the box's dial still showed the lead: the dial's
    result became "Ann throws 4" over every lead line and her uncover, six pages that began
    with her first throw. Now the dial's result is the lead, in its order; her uncover follows
    under her name, as the box's own knob would show it."""
    from firmware.oled.views import choice_meaning
    before = lead_thrown_from_phones(table, session)
    value = before["players"][before["turn"]]["covered"][0]
    after = session.submit({"type": "choose", "value": value}, by="web")
    table.update()
    heading, values, words = table.result.outcome
    assert table.screen == "spin" and not any("uncovers" in w for w in words), words
    if before["rolls"] > 1:              # more than one throw in the dial: the lead, in order
        assert (heading, values) == ("The lead", "")
        assert words == [table._for_box(before)["log"][i] for i in range(
            len(before["log"]) - len(words), len(before["log"]))]
    press(table, "press")                                   # past the dial
    assert table.screen == "result" and "uncovers" not in table.result.outcome[0]
    clock.advance(max(0.0, table.held_until - table.clock()))       # every page of the lead read
    table.update()
    leader = before["players"][before["turn"]]["name"]
    assert table.result.outcome == (f"{leader} uncovers", choice_meaning(before, value, after),
                             after["log"][len(before["log"]):])
    assert table.screen == "result" and not table.held_change.waiting


def test_controller_people_moving_from_phones_are_shown_at_once(table, session, clock):
    """Only the Pi's reply waits for the result up to be read: two people moving from their
    phones a second apart see each move on the box as it comes (the box fell a result behind
    each move, 4 s a move, and never caught up with a quick table). A phone's move is headed
    as the knob's is ("Ann moves", not "Ann")."""
    session.new_game("fox-and-geese", ["Ann", "Ben"])
    table.update()
    for _ in range(4):
        snap = session.snapshot()
        after = session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="web")
        clock.advance(1.0)
        table.update()
        assert not table.held_change.waiting and table.screen == "result"
        assert table.result.lines == after["log"][len(snap["log"]):]      # this move, now
        mover = snap["players"][snap["turn"]]["name"]
        assert table.result.outcome[0] == f"{mover} moves"      # as the knob's own move is headed


def test_controller_an_undo_from_a_phone_drops_the_moves_waiting_to_show(table, session):
    """An uncover waiting behind the dial's result, then taken back from a phone: the box
    never shows the uncover."""
    before = lead_thrown_from_phones(table, session)
    session.submit({"type": "choose", "value": before["players"][before["turn"]]["covered"][0]},
                   by="web")
    table.update()
    assert table.held_change.waiting
    session.undo(by="web")
    table.update()
    assert not table.held_change.waiting
    press(table, "press")                                   # past the dial
    table.clock.advance(max(0.0, table.held_until - table.clock()))
    table.update()
    assert not any("uncovers" in w for w in table.result.lines), table.result.outcome


def test_controller_an_undo_from_a_phone_is_said_on_the_box(table, session):
    """A phone's undo took a line back and the OLED only went back to the turn: the table
    saw its change vanish without a word (the box's own Undo says "Taken back")."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    table.update()
    session.submit({"type": "rename", "seat": 1, "name": "Zed"}, by="pin-0a1b2c")
    table.update()
    table.clock.advance(LATE_PRESS_SECONDS)
    press(table, "press")                               # the rename read
    assert table.screen == "play" and not table.notice.text
    session.undo(by="pin-0a1b2c")
    table.update()
    assert session.snapshot()["players"][1]["name"] == "Ben"
    assert table.screen == "play" and table.notice.text.startswith("Taken back from a phone: ")
    assert "Zed" in table.notice.text and table.view()["flash"] == table.notice.text


@pytest.mark.parametrize("strength", [0.0, 0.3, 1.0])
def test_controller_a_flick_tells_the_phone_when_its_spin_stops(table, session, strength):
    start(table, "kat-en-muis")
    press(table, "flick", strength=strength)
    spin = session.snapshot()["spin"]
    assert table.screen == "spin" and spin["roll"] == session.snapshot()["rolls"]
    assert spin["seconds"] == pytest.approx(table.animation.duration, abs=1e-3)


def test_controller_set_aside_by_the_phone_leaves_a_working_game_list(table, session):
    """A phone's set-aside turned the game's screen into the game list with no word (the
    box's own says "Game set aside"); the knob then picks a game in sight."""
    start(table, "kat-en-muis")
    session.abandon(by="phone")
    table.update()
    assert table.screen == "games"
    assert table.notice.text == "From a phone: Kat en Muis set aside"
    index = table.game_index
    press(table, "turn", detents=1)
    assert table.game_index == index + 1 and table.notice.text == ""   # the knob works, seen
    assert "Choose a game" in str(table.view()) or table.render().getbbox() is not None


def test_controller_a_game_set_aside_by_a_script_says_so(table, session):
    """The state with no game said no one had acted, so a script's set-aside was "From a
    phone", where every other change a script makes is "From a script"."""
    from companion.events import BY_SCRIPT
    start(table, "kat-en-muis")
    session.abandon(by=BY_SCRIPT)
    table.update()
    assert table.notice.text == "From a script: Kat en Muis set aside"


def test_controller_a_finished_game_put_away_by_a_phone_is_not_said_set_aside(table, session,
                                                                          clock):
    start(table, "fox-and-geese")
    session.submit({"type": "declare", "winners": [1]}, by="web")
    table.update()
    clock.advance(ctl.RESULT_SECONDS)
    table.update()
    session.abandon(by="phone")
    table.update()
    assert table.screen == "games" and table.notice.text == ""


def test_controller_x6_a_game_ended_from_a_phone_shows_its_last_lines_first(table, session,
                                                                           clock):
    """X6: a phone that took the last mouse ended the game on the box at once ("Red & Green
    share the win"), its last lines ("... the last mouse: 3 points") never shown, where the
    box's own press shows them first; now both do, and the end follows unpressed."""
    start(table, "fox-and-geese")
    before = session.snapshot()
    session.submit({"type": "declare", "winners": [1]}, by="web")       # the Fox resigns
    table.update()
    over = session.snapshot()
    assert over["phase"] == "over"
    assert table.screen == "result" and table.result.lines == over["log"][len(before["log"]):]
    clock.advance(ctl.RESULT_SECONDS)
    table.update()
    assert table.screen == "over"


@pytest.mark.parametrize("game, winners", [("free-play", [0, 1]), ("fox-and-geese", [1])])
def test_controller_x6_a_game_ended_from_a_phone_is_headed_game_ended_not_as_a_move(
        table, session, clock, game, winners):
    """A phone's declaration on Blue's turn in free play was headed "Blue" over "Red and Blue
    share the win" (the words name the player to move), as if Blue had moved; in Fox and
    Geese, Red resigning on Blue's turn, "From a phone". No one moved: a declaration made
    elsewhere is "Game ended", as the box's own is (but the player to move resigning)."""
    start(table, game)
    settle_lead(table, clock)
    session.submit({"type": "declare", "winners": winners}, by="web")
    table.update()
    assert table.screen == "result" and table.result.outcome[0] == "Game ended", \
        table.result.outcome


def test_controller_a_box_input_racing_a_phone_acts_once(table, session, clock):
    """A phone threw and, a moment later, before the box had drawn it, the knob was flicked:
    both were thrown (chips paid on a throw nobody meant), as a box Undo took back the
    phone's throw instead of the one on the screen. An input acts only on the state the box
    last drew; the phone's throw is shown instead."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    shown = session.snapshot()
    session.roll(by="web")                           # a phone, just before the flick
    events = len(session.store.events(session.game_id))
    press(table, "flick", strength=0.5)              # meant for the screen as it was drawn
    assert len(session.store.events(session.game_id)) == events          # not thrown again
    assert table.snap["state_version"] != shown["state_version"]       # the phone's, taken in
    assert table.screen in ("spin", "result") and table.notice.text == ""  # and shown
    session.roll(by="web") if session.snapshot()["awaiting"] == "roll" else \
        session.submit({"type": "next"}, by="web")
    press(table, "undo")                             # an Undo, racing the same way
    assert len(session.store.events(session.game_id)) == events + 1     # the phone's stays
    press(table, "undo")                             # once drawn, the box's Undo acts
    assert len(session.store.events(session.game_id)) == events + 2
    assert session.store.events(session.game_id)[-1]["type"] == "undo"


def a_phones_uncover(table, session, clock) -> tuple[list[str], str]:
    """Domino Rex at the turn screen, drawn; a phone uncovers for the player to move, not yet
    shown. The box's beeps (kept from now) and the mover's name."""
    start(table, "domino-rex")
    settle_lead(table, None)
    clock.advance(AGAIN_SECONDS)
    table.render()
    beeps: list[str] = []
    table._beep = beeps.append
    mover = table.snap["players"][table.snap["turn"]]["name"]
    session.submit({"type": "choose", "value": table._choices()[0]}, by="phone-1")
    return beeps, mover


@pytest.mark.parametrize("kind", ["press", "flick"])
def test_controller_a_press_racing_a_phones_uncover_leaves_its_result_up(table, session, clock,
                                                                          kind):
    """Domino Rex: a phone uncovered and the knob was pressed a moment later, before the box
    had drawn it: the update put up "Ann uncovers 3 + 5 = 8" and the same press took it down
    at once (the result's press), so no one at the table learned which square to uncover on
    the board. The press goes with the change it raced, with the error sound."""
    beeps, mover = a_phones_uncover(table, session, clock)
    events = len(session.store.events(session.game_id))
    press(table, kind, **({"strength": 0.5} if kind == "flick" else {}))
    assert len(session.store.events(session.game_id)) == events          # nothing chosen
    assert table.screen == "result" and table.result.outcome[0] == f"{mover} uncovers"
    assert beeps == ["error"]
    table.render()
    press(table, "press")                          # once drawn, a press reads on as ever
    assert table.screen != "result" or table.pager.page > 0


def test_controller_a_press_a_moment_after_a_phones_result_went_up_leaves_it_up(table, session,
                                                                                  clock):
    """The loop had put up the phone's "Ben uncovers" 10-150 ms before the knob's press came
    (a press is sent as the knob comes up): the press took it down, unread, six times of six.
    A press that soon after a person's change goes with it; a later one reads on."""
    beeps, mover = a_phones_uncover(table, session, clock)
    table.update()                                 # the loop shows it
    table.render()
    clock.advance(0.15)
    press(table, "press")
    assert table.screen == "result" and table.result.outcome[0] == f"{mover} uncovers"
    assert beeps == ["error"]
    clock.advance(LATE_PRESS_SECONDS)
    press(table, "press")                          # read: the press acts
    assert table.screen != "result" or table.pager.page > 0


def test_controller_a_seat_press_racing_a_phones_capture_takes_one_mouse(table, session, clock):
    """Cats and Mice: a paired phone's capture and the seat button a moment later: two mice."""
    start(table, "cats-and-mice", seats=(0, 1, 2))
    settle_lead(table, clock)
    press(table, "flick", strength=0.5)
    press(table, "press")                            # the throw, read
    for _ in range(20):                              # its pages, then its turn screen
        clock.advance(5)
        table.update()
        table.render()
    assert table.screen == "play"
    seat = table.snap["turn"]
    session.submit({"type": "press", "seat": seat}, by="phone-1")    # the phone's capture
    events = len(session.store.events(session.game_id))
    press(table, "seat", seat=table.buttons[seat])   # the box's, meant for the same mouse
    assert len(session.store.events(session.game_id)) == events
    assert table.screen == "result"                  # the phone's capture, shown


def test_controller_a_menu_undo_after_a_phones_move_unseen_shows_it_instead(table, session, clock):
    """The menu was up when a phone threw: Undo from the menu would take back the phone's
    throw, which no one at the box has seen. The throw stays and is shown instead."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    press(table, "hold")                             # the menu
    session.roll(by="web")                           # a phone's throw, under it
    table.update()
    table.render()
    events = len(session.store.events(session.game_id))
    press(table, "turn", detents=table.menu_items.index("Undo"))
    press(table, "press")
    assert len(session.store.events(session.game_id)) == events
    assert table.screen == "result" and any("throws" in w for w in table.result.lines)


def test_controller_new_game_from_a_menu_over_a_game_a_phone_won_shows_the_win_first(
        table, session, clock):
    """The menu up on "New game" when a phone made the winning move: the press (meant for
    "Start a new game? This one stops here, unfinished") went straight to the game list and
    the win was never said at the box. The win is shown instead, as for a menu Undo."""
    start(table, "kat-en-muis")
    session.new_game("domino-rex", ["Ann", "Ben"], by="pin-0a1b2c")
    table.update()
    pick = random.Random(5)
    while True:
        snap = session.snapshot()
        last = snap["awaiting"] == "choose" and \
            sum(len(p["covered"]) for p in snap["players"]) == 1
        if last and table.screen == "play":
            break
        if snap["awaiting"] == "roll" and not last:
            session.roll(by="pin-0a1b2c")
        elif not last:
            covered = snap["players"][snap["turn"]]["covered"]
            session.submit({"type": "choose", "value": pick.choice(covered)}, by="pin-0a1b2c")
        clock.advance(10.0)
        table.update()
        table.render()
    clock.advance(1.0)                               # the turn screen read
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("New game"))
    snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][snap["turn"]]["covered"][0]},
                   by="pin-0a1b2c")                 # the last square: the game is won
    table.update()
    table.render()
    assert session.snapshot()["phase"] == "over"
    assert table.menu_items[table.menu_index] == "New game"
    press(table, "press")
    assert table.screen == "result" and "wins" in table.result.lines[-1], table.view()


def test_controller_the_hint_up_when_a_phone_uncovers_is_for_the_player_it_names(
        table, session, clock):
    """Domino Rex: the menu's Hint up for Ben when Ben uncovered from a phone, Ann's turn to
    uncover next: the screen said "Hint for Ann" over Ben's advice ("... crown your checker
    11", Ben's checker). It is worked out again for the game as it is now."""
    start(table, "kat-en-muis")
    session.new_game("domino-rex", ["Ann", "Ben"], by="pin-0a1b2c")
    table.update()
    pick = random.Random(5)
    for _ in range(6):                               # a few moves in: the advice differs
        a_phone_plays_domino_rex(session, pick)
        clock.advance(10.0)
        table.update()
        table.render()
    while session.snapshot()["awaiting"] != "choose":
        session.roll(by="pin-0a1b2c")
        clock.advance(10.0)
        table.update()
        table.render()
    clock.advance(10.0)
    table.update()
    table.render()
    clock.advance(1.0)                               # the turn screen read
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Hint"))
    press(table, "press")
    assert table.screen == "hint"
    mover = session.snapshot()["turn"]
    snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][mover]["covered"][0]},
                   by="pin-0a1b2c")
    table.update()
    table.render()
    now = session.snapshot()
    assert now["turn"] != mover and now["awaiting"] == "choose"
    heading, action, _ = table.view()["text"]
    assert heading == f"Hint for {now['players'][now['turn']]['name']}"
    assert table.hint == hint_of(session)


def a_game_ended_from_phones(table, session, clock) -> dict:
    """Domino Rex between Ann and Ben played from phones to its end, each change taken in by
    the box: its last move up, on its first page (its end's lines to come). The end state."""
    session.new_game("domino-rex", ["Ann", "Ben"], by="pin-0a1b2c")
    table.update()
    pick = random.Random(5)
    while session.snapshot()["phase"] != "over":
        a_phone_plays_domino_rex(session, pick)
        clock.advance(0.5)
        table.update()
        table.render()
    over = session.snapshot()
    assert table.screen == "result" and table.pager.page == 0 < table.pager.count - 1
    assert over["log"][-1] not in table.pager.text                       # "Ann wins": unread
    return over


def winner_line(over: dict) -> str:
    """The end's line as the end screen says it: "Ann wins, 15 points"."""
    winner = over["players"][over["winners"][0]]
    return f"{winner['name']} wins, {winner['score']} points"


def the_pis_first_move_up(table, session, clock) -> None:
    """Fox and Geese begun elsewhere over a game in play, the Pi's Geese moving first: what
    the phone did is said over the Pi's move, a knob press reads it away and the move to copy
    stays up (the press took both: the move never seen, never copied)."""
    table.pi.detach()
    start(table, "domino-rex")                       # only to leave the start screen
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="pin-0a1b2c")
    table.update()
    table.render()
    pi_takes_its_first_move(table, session)
    assert table.screen == "pi_moved" and "Fox and Geese begun" in table.notice.text
    press(table, "press")
    assert table.screen == "pi_moved" and table.notice.text == ""
    clock.advance(AGAIN_SECONDS)


def pi_takes_its_first_move(table, session) -> None:
    """The Pi's Geese move first in the game just begun (its thread is not running)."""
    snap = session.snapshot()
    assert snap["players"][snap["turn"]].get("pi")
    session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="pi")
    table.update()
    table.render()


@pytest.mark.parametrize("way_back", ["menu", "hold", "Back", "Scores"])
def test_controller_the_pis_move_left_for_the_menu_is_up_again_after_it(
        table, session, clock, way_back):
    """The Pi's move waits to be copied on the board when the menu is opened: going back from
    it shows the move again (it went to the turn screen, the move never copied); a press
    then takes it away, as ever."""
    the_pis_first_move_up(table, session, clock)
    assert table.screen == "pi_moved"
    shown = table.view()["text"]
    press(table, "menu")
    assert table.screen == "menu"
    if way_back in ("menu", "hold"):
        press(table, way_back)
    else:
        press(table, "turn", detents=table.menu_items.index(way_back))
        press(table, "press")
        if way_back == "Scores":
            assert table.screen == "scores"
            press(table, "press")
    assert table.screen == "pi_moved" and table.view()["text"] == shown
    press(table, "press")
    assert table.screen == "play"


def test_controller_back_on_who_won_goes_back_to_the_pis_move_left_for_the_menu(
        table, session, clock):
    """"Declare winner" from the menu over the Pi's move still to copy, then the list's own
    "Back": the move is up again, as after the menu's "Back" (it went to the turn screen,
    the goose never moved on the board)."""
    the_pis_first_move_up(table, session, clock)
    shown = table.view()["text"]
    press(table, "menu")
    press(table, "turn", detents=table.menu_items.index("Declare winner"))
    press(table, "press")
    assert table.screen == "declare"
    press(table, "turn", detents=-1)                 # round to the last: "Back"
    assert table._declare_options()[table.declare_index][0] == "Back"
    press(table, "press")
    assert table.screen == "pi_moved" and table.view()["text"] == shown


def test_controller_a_result_left_for_the_menu_holds_the_pis_reply_back_again(
        table, session, clock):
    """Ann's Fox move up, the Pi's reply held until it is read, when the menu was opened:
    Back shows Ann's move again for a page's time before the Pi's (it went in the next frame:
    a flicker of the move the menu was opened over)."""
    the_pis_first_move_up(table, session, clock)
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # copied
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # Ann's Fox moves
    assert table.screen == "result"
    outcome = table.result.outcome
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]},
                   by="pi")                          # its reply, held while Ann's is read
    table.update()
    table.render()
    assert table.held_change.waiting and table.screen == "result"
    clock.advance(1.0)
    press(table, "menu")
    clock.advance(10.0)
    table.update()
    press(table, "menu")                             # back
    assert table.screen == "result" and table.result.outcome is outcome
    clock.advance(2.0)
    table.update()
    table.render()
    assert table.screen == "result" and table.result.outcome is outcome
    clock.advance(PAGE_SECONDS)
    table.update()
    table.render()
    assert table.screen == "pi_moved"


@pytest.mark.parametrize("way_back", ["menu", "Back", "Scores"])
def test_controller_the_menu_over_resumed_still_leads_to_the_pis_move_to_copy(
        table, session, clock, way_back):
    """The power went while the Pi's move waited to be copied; on "Resumed" the menu was
    opened: leaving it goes back to "Resumed", which leads to the move, as when it is left
    alone (it went to the turn screen: the Pi's goose never moved on the board)."""
    the_pis_first_move_up(table, session, clock)
    shown = table.view()["text"]
    box = ctl.Controller(Session(session.store, new_seed=lambda: SEED), seats=4, clock=clock)
    box.pi.detach()
    assert box.screen == "resumed"
    press(box, "menu")
    if way_back == "menu":
        press(box, "menu")
    else:
        press(box, "turn", detents=box.menu_items.index(way_back))
        press(box, "press")
        if way_back == "Scores":
            press(box, "press")
    assert box.screen == "resumed"
    clock.advance(ctl.RESUMED_SECONDS + 0.1)
    box.update()
    box.render()
    assert box.screen == "pi_moved" and box.view()["text"] == shown


@pytest.mark.parametrize("copied, menu", [(False, False), (False, True), (True, False)])
def test_controller_a_phones_move_over_the_pis_move_to_copy_says_it_too(
        table, session, clock, copied, menu):
    """The Pi's goose waits to be copied on the box (Ann is away from it) when Ann moves her
    Fox from her phone: the result said Ann's move alone and the Pi's was never asked for
    again, so the table's board could lose a goose's move. It says both, the Pi's "if not yet
    on the board"; after a press said it was copied, Ann's alone. The same under the menu."""
    the_pis_first_move_up(table, session, clock)
    assert table.screen == "pi_moved"
    pi_line = session.snapshot()["log"][-1]
    assert pi_line.startswith("Pi's goose: ")
    if copied:
        press(table, "press")
        assert table.screen == "play"
    if menu:
        press(table, "menu")
    clock.advance(2.0)
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]},
                   by="pin-0a1b2c")
    table.update()
    if menu:
        press(table, "menu")
    frame = table.render()
    ann = session.snapshot()["log"][-1]
    assert table.screen == "result" and table.result.outcome[0] == "Ann moves"
    also = "Also, if not yet on the board: " + pi_line.replace(": ", " ", 1)
    assert table.result.lines == ([ann] if copied else [ann, also])
    assert shows(frame, "Ann's Fox: d4 to d5") and shows(frame, "a3 to a4") != copied


def phone_moves(session, who="pin-0a1b2c") -> None:
    session.submit({"type": "move", "path": session.snapshot()["board"]["moves"][0]}, by=who)


@pytest.mark.parametrize("before", ["a rename", "a restart"])
def test_controller_the_pis_move_to_copy_is_asked_for_after_a_rename_or_a_restart(
        table, session, clock, before):
    """The Pi's goose still to copy, then a rename from a phone (its result asked for the
    goose) or a restart ("Resumed", before the move was shown again): Ann's move from her
    phone then said her move alone, and no surface asked for the goose again."""
    the_pis_first_move_up(table, session, clock)
    goose = "Also, if not yet on the board: " + \
        session.snapshot()["log"][-1].replace(": ", " ", 1)
    box = table
    if before == "a rename":
        session.submit({"type": "rename", "seat": 0, "name": "Annie"}, by="pin-0a1b2c")
        table.update()
        assert table.screen == "result" and table.result.lines[-1] == goose
    else:
        box = ctl.Controller(Session(session.store, new_seed=lambda: SEED), seats=4,
                             clock=clock)
        box.attach()
        box.pi.detach()
        assert box.screen == "resumed"
    clock.advance(1.0)
    phone_moves(box.session)
    box.update()
    box.render()
    clock.advance(ctl.RESUMED_SECONDS)                  # "Resumed" read: what came meanwhile
    box.update()
    box.render()
    assert box.screen == "result" and box.result.lines[-1] == goose, box.view()
    if box is not table:
        box.close()


def test_controller_a_phones_move_and_the_pis_reply_under_the_menu_ask_for_the_first_too(
        table, session, clock):
    """The menu was opened over the Pi's goose to copy; Ann moved from her phone and the Pi
    replied meanwhile: leaving the menu showed the Pi's second move alone, the first never
    asked for again. It is asked for first, over the second; a press reads it away."""
    the_pis_first_move_up(table, session, clock)
    first = session.snapshot()["log"][-1].replace(": ", " ", 1)
    press(table, "menu")
    phone_moves(session)
    phone_moves(session, who="pi")
    table.update()
    press(table, "menu")
    table.render()
    assert table.screen == "pi_moved"
    assert table.notice.text == f"First, if not yet on the board: {first}"
    press(table, "press")
    assert table.screen == "pi_moved" and table.notice.text == ""


def test_controller_a_phones_uncover_over_the_pis_asked_for_asks_for_it_again(
        table, session, clock):
    """Domino Rex: "Uncover Pi's 1 on the board, then press the knob." was up when Ann
    uncovered from her phone: her result took its place and no surface asked for the Pi's
    square again. It is asked for under hers, "if still covered", and waits for the press."""
    table.pi.detach()
    start(table, "kat-en-muis")                      # only to leave the start screen
    session.new_game("domino-rex", ["Ann", "Ben", "Pi"], pi=[2], pi_level="easy",
                     by="pin-0a1b2c")
    while not session.snapshot()["players"][session.snapshot()["turn"]].get("pi") or \
            session.snapshot()["awaiting"] != "choose":
        snap = session.snapshot()
        if snap["awaiting"] == "roll":
            session.roll(by="pi" if snap["players"][snap["turn"]].get("pi") else "web")
        else:
            session.submit({"type": "choose", "value": snap["players"][snap["turn"]][
                "covered"][0]}, by="web")
        for _ in range(4):                           # each change read and pressed away
            table.update()
            table.render()
            clock.advance(4.0)
            if table.screen == "result":
                press(table, "press")
                clock.advance(2.0)
    pi = session.snapshot()["players"][session.snapshot()["turn"]]["covered"][0]
    session.submit({"type": "choose", "value": pi}, by="pi")
    table.update()
    table.render()
    asked = f"Uncover Pi's {pi} on the board, then press the knob."
    assert table.screen == "result" and table.result.lines[-1] == asked
    snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][snap["turn"]]["covered"][0]},
                   by="pin-0a1b2c")
    table.update()
    table.render()
    assert table.result.lines[0].startswith(f"{player_name(snap, snap['turn'])} uncovers")
    assert table.result.lines[-1] == \
        f"If Pi's {pi} is still covered, uncover it on the board; then press the knob."
    clock.advance(60.0)
    table.update()
    assert table.screen == "result"                  # until the press says it is done


def test_controller_an_undo_of_the_game_set_aside_is_not_said_over_the_next(
        table, session, clock):
    """The box's Undo took the Pi's goose back; before its notice was read a script began a
    new game whose Pi moved first: "... Fox and Geese begun Taken back: Pi's goose: a3 to a4"
    was said over the new game's first move, as if that had been taken back."""
    the_pis_first_move_up(table, session, clock)
    press(table, "undo")
    assert table.notice.text.startswith("Taken back: ")
    clock.advance(1.0)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy", by="api")
    table.update()
    table.render()
    pi_takes_its_first_move(table, session)
    assert table.screen == "pi_moved"
    assert table.notice.text == "From a script: Fox and Geese set aside; Fox and Geese begun"


@pytest.mark.parametrize("next_game, gap", [("people", 1.0), ("people", 5.0), ("people", 0.0),
                                            ("pi", 1.0), ("chips", 1.0)])
def test_controller_a_games_end_unread_is_said_when_a_phone_begins_the_next(
        table, session, clock, next_game, gap):
    """Domino Rex ended by a phone's uncover; 1-5 s later, the box still on the first page of
    "Ben uncovers 1 + 6 = 7", a phone began the next game: the box went to it and never said
    how the game had ended (the phones said "Ben wins" at once), nor that a phone had begun a
    game. It says both once, then shows the new game: over its turn screen, over the Pi's
    first move, or first in the chips to put in (begun from a script there: its words). With
    no frame between the end and the new game (`gap` 0), from the stored game."""
    table.pi.detach()
    over = a_game_ended_from_phones(table, session, clock)
    said = f"Last game: {winner_line(over)}"
    if gap:
        clock.advance(gap)
        table.update()
        table.render()
    if next_game == "people":
        session.new_game("fox-and-geese", ["Ann", "Ben"], by="pin-0a1b2c")
    elif next_game == "pi":
        session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy",
                         by="pin-0a1b2c")
    else:
        session.new_game("kat-en-muis", ["Ann", "Ben"], by="api")
    table.update()
    table.render()
    if next_game == "people":
        assert table.screen == "play"
        assert table.notice.text == f"From a phone: Fox and Geese begun. {said}"
    elif next_game == "pi":
        pi_takes_its_first_move(table, session)
        assert table.screen == "pi_moved"
        assert table.notice.text == f"From a phone: Fox and Geese begun. {said}"
    else:
        assert table.screen == "result" and table.result.outcome[0] == "Kat en Muis"
        assert table.result.lines[0] == f"From a script: Kat en Muis begun. {said}"
        assert len(table.result.lines) > 1                    # then the chips to put in
    for _ in range(10):                                       # said once
        clock.advance(5.0)
        table.update()
        table.render()
    assert "Last game" not in table.notice.text + str(table.view()["text"])


def test_controller_a_phones_new_game_over_one_in_play_says_it_set_aside(table, session, clock):
    """A phone began a game while another was in play: the session set the one in play
    aside, and the box went to the new game without a word of it."""
    start(table, "domino-rex")
    session.new_game("fox-and-geese", ["Ann", "Ben"], by="pin-0a1b2c")
    table.update()
    assert table.screen == "play" and table.snap["game"] == "fox-and-geese"
    assert table.notice.text == "From a phone: Domino Rex set aside; Fox and Geese begun"
    clock.advance(AGAIN_SECONDS)
    session.abandon(by="pin-0a1b2c")                  # and that one set aside too: as ever
    table.update()
    assert table.notice.text == "From a phone: Fox and Geese set aside"


def test_controller_a_games_end_unread_is_said_when_a_phone_puts_it_away(table, session, clock):
    """A phone's set-aside a moment after the game ended (its end still unread on the box)
    puts the finished game away: the box went to the game list without its end."""
    start(table, "fox-and-geese")
    session.submit({"type": "declare", "winners": [1]}, by="pin-0a1b2c")   # Red resigns
    table.update()
    assert table.screen == "result"
    clock.advance(1.0)
    session.abandon(by="pin-0a1b2c")
    table.update()
    assert table.screen == "games"
    assert table.notice.text == \
        "From a phone: Fox and Geese put away. Last game: Blue wins, Red resigned"


def restarted(session, clock) -> ctl.Controller:
    """The table started again on the same store: the box on its start screen."""
    again = Session(session.store, new_seed=lambda: SEED)
    box = ctl.Controller(again, seats=4, clock=clock)
    box.attach()
    box.pi.detach()
    assert box.screen == "start"
    return box


def test_controller_a_games_end_unread_before_a_restart_is_said_leaving_the_start_screen(
        table, session, clock):
    """The table restarted while the box still read the last move: the start screen never
    mentioned how the game ended (only an end the Pi's reply made was said). Leaving the
    start screen, the box says "Last game" and the end's lines, once."""
    over = a_game_ended_from_phones(table, session, clock)
    table.close()
    box = restarted(session, clock)
    try:
        press(box, "press")
        assert box.screen == "result" and box.result.outcome[0] == "Last game"
        assert box.result.lines == over["log"][-len(box.result.lines):]
        assert over["log"][-1] == "Ann wins" and box.result.lines[-1] == "Ann wins"
        assert any(line.startswith("Every domino square is uncovered") for line in
                   box.result.lines)
        while box.screen == "result":
            clock.advance(AGAIN_SECONDS)
            press(box, "press")
        assert box.screen == "games"
        press(box, "menu")
        press(box, "menu")                                  # not said again
        assert box.screen != "result"
    finally:
        box.close()


def test_controller_a_phones_game_begun_after_a_restart_says_the_last_games_end(
        table, session, clock):
    """After a restart, a phone began the next game before anyone pressed at the box: the
    last game's end, to be said on leaving the start screen, was never said."""
    over = a_game_ended_from_phones(table, session, clock)
    table.close()
    box = restarted(session, clock)
    try:
        box.session.new_game("fox-and-geese", ["Ann", "Ben"], by="pin-0a1b2c")
        box.update()
        assert box.screen == "play"
        assert box.notice.text == \
            f"From a phone: Fox and Geese begun. Last game: {winner_line(over)}"
    finally:
        box.close()


@pytest.mark.parametrize("game, change", [("fox-and-geese", "rename by pin-0a1b2c"),
                                          ("fox-and-geese", "rename by api"),
                                          ("domino-rex", "rename by api"),
                                          ("fox-and-geese", "Pi wins"),
                                          ("fox-and-geese", "Ben wins")])
def test_controller_a_change_on_the_pis_turn_is_not_headed_as_the_pis(table, session, clock,
                                                                      game, change):
    """The Pi to move (waiting after an undo, or thinking): a phone's rename was headed "Pi,
    then Bea" over "Button 2, Ben, is now called Bea", and a resignation "Pi, then Ben" over
    "Ben resigns / Pi wins", though the Pi made no move. A rename is from a phone or a script,
    a resignation "Game ended", as the box's own declaration is."""
    table.pi.detach()                                      # the Pi does not move
    players, pi = (["Pi", "Ben"], 0) if game == "fox-and-geese" else (["Ben", "Pi"], 1)
    session.new_game(game, players, pi=[pi], pi_level="easy", by="pin-0a1b2c")
    table.update()
    for _ in range(12):                                    # Ben's first move, from a phone
        snap = session.snapshot()
        if snap["phase"] == "play" and snap["turn"] == pi:
            break
        if snap["awaiting"] == "roll":
            session.roll(by="pi" if snap["turn"] == pi else "pin-0a1b2c")
        elif snap["awaiting"] == "move":
            session.submit({"type": "move", "path": snap["board"]["moves"][0]}, by="pin-0a1b2c")
        else:
            square = snap["players"][snap["turn"]]["covered"][0]
            session.submit({"type": "choose", "value": square}, by="pin-0a1b2c")
        for _ in range(4):
            clock.advance(8.0)
            table.update()
            table.render()
    assert session.snapshot()["turn"] == pi and table.screen == "play", table.view()
    if change.startswith("rename"):
        by = change.split()[-1]
        session.submit({"type": "rename", "seat": 1 - pi, "name": "Bea"}, by=by)
        heading = "From a script" if by == "api" else "From a phone"
    else:
        winner = players.index(change.split()[0])
        session.submit({"type": "declare", "winners": [winner]}, by="pin-0a1b2c")
        heading = "Game ended"
    table.update()
    assert table.screen == "result"
    assert table.result.outcome[0] == heading, table.result.outcome


def lost_diamond_in_play(table, session, clock) -> None:
    """The Lost Diamond between Ann and Ben begun from a phone, its lead thrown and read: the
    box on the first turn's screen."""
    session.new_game("lost-diamond", ["Ann", "Ben"])
    table.update()
    while session.snapshot()["phase"] == "lead" or table.screen != "play":
        if session.snapshot()["phase"] == "lead":
            session.roll(by="pin-0a1b2c")
        for _ in range(2):                          # the dial stops, its result is read
            clock.advance(30)
            table.update()
            table.render()


def test_controller_ld2_two_moves_in_one_frame_are_headed_by_each_mover(table, session, clock):
    """LD1, LD2: two phones a few milliseconds apart, within one frame: Ben's Field move, then
    Ann's Field move that takes the diamond. The box headed all three lines "Ben", so Ann's
    taking of the diamond read as Ben's. Each mover is named, in turn: "Ben, then Ann"."""
    lost_diamond_in_play(table, session, clock)
    first = session.snapshot()
    second = 1 - first["turn"]
    session.submit({"type": "next"}, by="pin-0a1b2c")              # a Field move
    session.submit({"type": "press", "seat": second}, by="pin-1d2e3f")   # takes the diamond
    table.update()
    table.render()
    names = [p["name"] for p in first["players"]]
    heading, _, words = table.result.outcome
    assert table.screen == "result" and words[-1].endswith("from its square"), words
    assert heading == f"{names[first['turn']]}, then {names[second]}", table.view()


def test_controller_x11_the_menu_up_follows_a_phones_set_aside(table, session, clock):
    """The menu was up when a phone set the game aside: it still offered "Undo" and "Set game
    aside" for a game no longer in play. It now offers what a box with no game does, its
    cursor back on "Back" (the item it was on is gone)."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    press(table, "hold")
    press(table, "turn", detents=table.menu_items.index("Set game aside"))
    session.abandon(by="pin-0a1b2c")
    table.update()
    assert table.screen == "menu"
    assert "Undo" not in table.menu_items and "Set game aside" not in table.menu_items
    assert table.menu_items[table.menu_index] == "Back"
    press(table, "press")
    assert table.screen == "games" and session.game_id is None


def test_controller_x11_the_menu_up_follows_a_phones_win(table, session, clock):
    """A phone ended the game under the menu: "Undo", "Declare winner" and "Set game aside"
    stayed, each refused when picked (X11: a finished game is final). They go; the cursor
    stays on "Scores", which a finished game still has."""
    start(table, "free-play")
    settle_lead(table, clock)
    press(table, "hold")
    assert "Declare winner" in table.menu_items
    press(table, "turn", detents=table.menu_items.index("Scores"))
    session.submit({"type": "declare", "winners": [0]}, by="pin-0a1b2c")
    table.update()
    assert table.screen == "menu"
    for gone in ("Undo", "Declare winner", "Set game aside"):
        assert gone not in table.menu_items, table.menu_items
    assert table.menu_items[table.menu_index] == "Scores"
    press(table, "press")
    assert table.screen == "scores"


def test_controller_ld2_moves_of_two_people_missed_under_the_menu_are_headed_by_each(
        table, session, clock):
    """LD1, LD2: with the menu up, Ben's Field move from a phone, then, a frame later, Ann's
    that takes the diamond. Back at the game all three lines were headed "Ben", so Ann's
    taking of the diamond read as his, as it did within one frame: "Ben, then Ann"."""
    lost_diamond_in_play(table, session, clock)
    first = session.snapshot()
    second = 1 - first["turn"]
    press(table, "hold")                                           # the menu
    session.submit({"type": "next"}, by="pin-0a1b2c")              # a Field move
    table.update()
    session.submit({"type": "press", "seat": second}, by="pin-1d2e3f")   # takes the diamond
    table.update()
    assert table.screen == "menu"
    press(table, "press")                                          # Back
    names = [p["name"] for p in first["players"]]
    heading, _, words = table.result.outcome
    assert table.screen == "result" and words[-1].endswith("from its square"), words
    assert heading == f"{names[first['turn']]}, then {names[second]}", table.view()


def test_controller_ld2_moves_of_two_people_held_while_the_dial_spins_are_headed_by_each(
        table, session, clock):
    """LD1, LD2: while the box's dial spun for Ben, phones ended his turn, made Ann's Field
    move, then Ben's that took the diamond, each a frame apart. Once the dial was read, all of
    it was headed "Ann", so Ben's taking of the diamond read as hers: "Ann, then Ben"."""
    lost_diamond_in_play(table, session, clock)
    first = session.snapshot()["turn"]
    press(table, "flick", strength=0.2)                            # the box's spin
    assert table.screen == "spin"
    for event in ({"type": "next"}, {"type": "next"}, {"type": "press", "seat": first}):
        session.submit(event, by="pin-0a1b2c")      # his turn's end, her Field move, his
        table.update()
    assert table.screen == "spin"
    clock.advance(30)                               # the dial stops
    table.update()
    table.render()
    assert table.screen == "result" and table.result.outcome[0].endswith(" spins")
    for _ in range(2):                              # read: the moves held come up
        clock.advance(30)
        table.update()
        table.render()
    names = [p["name"] for p in session.snapshot()["players"]]
    heading, _, words = table.result.outcome
    assert table.screen == "result" and words[-1].endswith("from its square"), words
    assert heading == f"{names[1 - first]}, then {names[first]}", table.view()


def test_controller_ld2_people_taking_turns_unseen_are_each_named_once(table, session, clock):
    """Kat en Muis thrown from phones four times under the menu: the heading "Ben, Ann, Ben,
    then Ann" took two lines, the top line left blank. People who took turns are each named
    once, in the order they first moved ("Ben and Ann"), in the top line."""
    session.new_game("kat-en-muis", ["Ann", "Ben"], by="pin-0a1b2c")
    table.update()
    while session.snapshot()["phase"] == "lead":
        session.roll(by="pin-0a1b2c")
    while table.screen != "play":
        clock.advance(30)
        table.update()
        table.render()
        if table.screen == "result":
            press(table, "press")
    press(table, "hold")                                   # the menu
    movers = []
    while len(movers) < 4 or len(set(movers)) < 2 or movers == list(dict.fromkeys(movers)):
        snap = session.snapshot()
        movers.append(snap["players"][snap["turn"]]["name"])
        session.roll(by="pin-0a1b2c")
        table.update()
        table.render()
        clock.advance(0.5)
    press(table, "hold")                                   # back to the game
    first, second = dict.fromkeys(movers)
    assert table.screen == "result"
    assert table.result.outcome[0] == f"{first} and {second}", (movers, table.view())
    assert table.view()["text"][0] == f"{first} and {second}", table.view()   # the top line


PHONE = "pin-0a1b2c"


def frames(table, clock, count: int) -> None:
    """`count` frames 3 s apart: what is up read, or gone by itself."""
    for _ in range(count):
        clock.advance(3)
        table.update()
        table.render()


def phone_uncovers(session, table):
    """The player to move uncovers their first covered square from a phone; the box shows it."""
    snap = session.snapshot()
    session.submit({"type": "choose", "value": snap["players"][snap["turn"]]["covered"][0]},
                   by=PHONE)
    table.update()
    table.render()


def test_controller_undos_with_a_rename_between_under_the_menu_say_a_shown_move_once(
        table, session, clock):
    """Two shown moves, then, under the menu, a phone takes back the second, renames a player,
    takes back the rename and then the first move. Back at the game, the notice says each
    undo once: the second move's set-back was said again as a move never shown ("If it was
    done on the board: Cover Red's 1 again."), though shown, and said in the same notice."""
    start(table, "domino-rex")
    settle_lead(table, clock)
    phone_uncovers(session, table)
    clock.advance(10)
    table.update()
    phone_uncovers(session, table)
    clock.advance(10)
    table.update()
    table.render()
    press(table, "menu")
    assert table.screen == "menu"
    session.undo(by=PHONE)
    table.update()
    session.submit({"type": "rename", "seat": 0, "name": "Wilhelmina"}, by=PHONE)
    table.update()
    session.undo(by=PHONE)
    table.update()
    session.undo(by=PHONE)
    table.update()
    press(table, "menu")                                   # back to the game
    notice = table.notice.text
    assert "Taken back from a phone" in notice, table.view()
    assert "If it was done on the board" not in notice, notice


def test_controller_ld2_a_rename_and_the_move_after_it_in_one_frame_head_one_mover(
        table, session, clock):
    """A phone renames the player to move and records their man entering the Goal, both
    within one frame: one person's doing, headed "Blue, then Zed", as two movers, though
    Blue and Zed are one player. A rename is no one's move: headed by that player alone."""
    start(table, "gantlope")
    settle_lead(table, clock)
    session.roll(by=PHONE)
    frames(table, clock, 4)
    if table.screen == "result":
        press(table, "press")
    frames(table, clock, 4)
    snap = session.snapshot()
    turn = snap["turn"]
    assert snap["awaiting"] == "next" and table.screen == "play", table.view()
    name = snap["players"][turn]["name"]
    session.submit({"type": "rename", "seat": turn, "name": "Zed"}, by=PHONE)     # one frame
    session.submit({"type": "press", "seat": turn}, by=PHONE)
    table.update()
    table.render()
    assert table.screen == "result", table.view()
    heading = table.result.outcome[0]
    assert heading == name, table.result.outcome          # not "Blue, then Zed"


def test_controller_ld2_a_point_after_a_pass_in_one_frame_is_headed_by_who_scored(table, session,
                                                                                 clock):
    """Free play, three players: from phones, the player to move passes (the turn moves on)
    and, within the same frame, a third player's seat scores a point. Each move was put to
    the player to move before it, so the heading named the player the turn passed to, who
    did nothing ("Blue, then Green" over "Blue passes without a throw" / "Red scores a
    point"); a point is the scorer's ("Blue, then Red")."""
    start(table, "free-play", seats=(0, 1, 2))
    settle_lead(table, clock)
    frames(table, clock, 4)
    snap = session.snapshot()
    turn = snap["turn"]
    session.submit({"type": "next"}, by=PHONE)                      # a pass: the turn moves on
    after = session.snapshot()["turn"]
    other = next(s for s in range(3) if s not in (turn, after))
    session.submit({"type": "press", "seat": other}, by=PHONE)      # another player's point
    table.update()
    table.render()
    assert table.screen == "result", table.view()
    heading = table.result.outcome[0]
    names = [p["name"] for p in session.snapshot()["players"]]
    assert heading == f"{names[turn]}, then {names[other]}", table.result.outcome
