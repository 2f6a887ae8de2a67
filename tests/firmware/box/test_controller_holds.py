"""Inputs that come a moment after another: a bounce, a second press that was meant for the
first, a press just as a result or a page went by itself. Each is held or only reads, and
never becomes the next player's move."""

from __future__ import annotations

import pytest

from controller_support import (field_move_passes_the_turn, india_claim, press, read_on,
                                settle_lead, start, throw_until_two_pages)
from firmware.controller.parts.notices import AGAIN_SECONDS
from firmware.oled.views import box_words


@pytest.mark.parametrize("game", ["lost-diamond", "india"])
def test_controller_x8_a_double_press_that_turns_to_the_last_page_does_not_end_the_turn(
        table, session, clock, game):
    """X8, P2: the knob's press turned a seat press's news (The Lost Diamond's Field move that
    took the diamond) or a claim home to its last page, and the same hand's second press 0.3 s
    later ended the turn, or withdrew the claim, with that page unread. The second press is
    held once: a third, or one after AGAIN_SECONDS, ends the turn."""
    if game == "india":
        first = india_claim(table, session, clock)
    else:
        start(table, game)
        settle_lead(table, clock)
        first = session.snapshot()["turn"]
        clock.advance(AGAIN_SECONDS)
        press(table, "seat", seat=table.buttons[first])        # a Field move
        log = session.snapshot()["log"]
        table.result.outcome = (table.result.outcome[0], "", [box_words(line) for line in log[-4:]])
        table._turn_to(0)                                      # news too long for one page
    table.render()
    last = table.pager.count - 1
    assert table.screen == "result" and last > 0
    for page in range(1, last + 1):
        clock.advance(1.5)
        press(table, "press")                                  # read on, to the last page
        assert table.pager.page == page and session.snapshot()["turn"] == first
    clock.advance(0.3)
    press(table, "press")                                      # the same hand: held
    assert table.screen == "result" and table.pager.page == last and \
        session.snapshot()["turn"] == first
    if game == "india":
        assert session.snapshot()["home_claim"] == first
    clock.advance(0.3)
    press(table, "press")                                      # a third: the turn ends
    assert session.snapshot()["turn"] != first


@pytest.mark.parametrize("pause", [0.25, 0.9])         # 0.9 s: confirmed a win, for good
def test_controller_p2_a_quick_second_press_does_not_confirm_a_claim(table, session, clock,
                                                                    pause):
    """P2: two presses of a seat button 0.25 s apart (a double press, a bounce) claimed a man
    home and confirmed the win at once: the game was over, for good, before anyone read "press
    again to confirm". The second press counts once the claim has been up long enough to read;
    another button's press, or the same one later, counts as always."""
    turn = india_claim(table, session, clock)
    clock.advance(pause)
    press(table, "seat", seat=table.buttons[turn])                 # the same press, again
    assert session.snapshot()["phase"] == "play" and session.snapshot()["home_claim"] == turn
    clock.advance(AGAIN_SECONDS)
    press(table, "seat", seat=table.buttons[turn])                 # read, then confirmed
    assert session.snapshot()["phase"] == "over" and session.snapshot()["winners"] == [turn]


def test_controller_p2_a_nervous_third_press_does_not_confirm_a_claim(table, session, clock):
    """P2: seat presses 0.35 s apart: the claim, the second held, and the third confirmed
    a win for good. A held press holds the same press on for AGAIN_SECONDS."""
    turn = india_claim(table, session, clock)
    for _ in range(3):
        clock.advance(0.35)
        press(table, "seat", seat=table.buttons[turn])
        assert session.snapshot()["phase"] == "play" and session.snapshot()["home_claim"] == turn
    clock.advance(AGAIN_SECONDS)
    press(table, "seat", seat=table.buttons[turn])                 # read, then confirmed
    assert session.snapshot()["phase"] == "over"


def test_controller_presses_that_keep_coming_are_held_only_as_long_as_the_first_set(
        table, session, clock):
    """Each held press held the next for another 1.2 s, silently: Red pressing every 0.9 s
    after closing a result was never heard (six presses, 5.4 s; seat buttons every 0.6-0.9 s
    never recorded a capture). The hold lasts AGAIN_SECONDS from the press that set it."""
    start(table, "lost-diamond")
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # Red's Field move
    clock.advance(2.0)
    press(table, "press")                                          # its result closed
    events = len(session.store.events(session.game_id))
    clock.advance(0.9)
    press(table, "press")                                          # held: 0.9 s after
    assert len(session.store.events(session.game_id)) == events
    clock.advance(0.9)
    press(table, "press")                                          # 1.8 s: Blue's own move
    assert len(session.store.events(session.game_id)) > events


def test_controller_ld1_a_press_again_after_closing_a_result_is_not_the_next_field_move(
        table, session, clock):
    """LD1: Red's Field move ("Red's turn ends / Red moves in the Field") read for 2 s, a
    press to close it and the same hand again 0.3 s later: the second press was Blue's Field
    move, made for Blue. A press that closed a result onto the turn screen holds the same
    press for AGAIN_SECONDS, whatever the turn screen awaits."""
    field_move_passes_the_turn(table, session, clock)
    clock.advance(2.0)
    press(table, "press")                                          # read: closed
    assert table.screen == "play"
    events = len(session.store.events(session.game_id))
    clock.advance(0.3)
    press(table, "press")                                          # the same hand again
    assert len(session.store.events(session.game_id)) == events
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # Blue's own Field move
    assert len(session.store.events(session.game_id)) > events


def test_controller_a_quick_second_knob_press_is_not_the_next_players_move(table, session,
                                                                        clock):
    """LD: two knob presses 0.3 s apart on a spin's result ended the turn, and the second was
    taken as the next player's Field move, ending their turn unseen. A press that passed the
    turn holds the same press back for as long as it takes to see whose turn it is."""
    start(table, "lost-diamond")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # skip the spin: the result
    first = session.snapshot()["turn"]
    table.screen = table.home()                                    # its pages read
    table.render()
    press(table, "press")                                          # the knob ends the turn
    events = len(session.store.events(session.game_id))
    assert session.snapshot()["turn"] == 1 - first
    clock.advance(0.3)
    press(table, "press")                                          # the double press
    assert len(session.store.events(session.game_id)) == events
    assert session.snapshot()["turn"] == 1 - first
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # the next player's choice
    assert len(session.store.events(session.game_id)) > events


def test_controller_free_play_a_second_press_a_moment_later_does_not_pass_the_next_turn(
        table, session, clock):
    """Free play: Blue's press ended the turn and a second press 0.9 s later ("did it take?")
    passed Red's turn without a throw. The knob's press again within AGAIN_SECONDS of passing
    the turn is held back; Red's own press, once Red has read the screen, passes."""
    from firmware.controller.parts.notices import AGAIN_SECONDS
    start(table, "free-play")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # skip the spin: the result
    clock.advance(2.0)
    blue = session.snapshot()["turn"]
    press(table, "press")                                          # Blue ends the turn
    red = session.snapshot()["turn"]
    events = len(session.store.events(session.game_id))
    assert red != blue and table.screen == "play"
    clock.advance(0.9)
    press(table, "press")                                          # the same hand, again
    assert len(session.store.events(session.game_id)) == events
    assert session.snapshot()["turn"] == red and 0.9 < AGAIN_SECONDS
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # Red passes, on purpose
    assert session.snapshot()["turn"] != red


def test_controller_a_press_just_as_the_dial_stops_by_itself_only_stops_it(table, session,
                                                                           clock):
    """X8: Blue pressed to stop the dial 0.1-0.2 s after it had stopped by itself, and the
    press ended Blue's turn on the result no one had read (Cats and Mice, free play). A press
    that soon after the dial stops was meant to stop it; a later press acts on the result."""
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    turn = session.snapshot()["turn"]
    press(table, "flick", strength=0.4)
    assert table.screen == "spin"
    clock.advance(table.animation.duration + 0.05)
    table.update()                                                 # it stops by itself
    assert table.screen == "result"
    clock.advance(0.15)
    press(table, "press")                                          # meant for the dial
    assert session.snapshot()["turn"] == turn and table.screen == "result"
    clock.advance(1.5)
    read_on(table)
    press(table, "press")                                          # read: ends the turn
    assert session.snapshot()["turn"] != turn


@pytest.mark.parametrize("game", ["kat-en-muis", "lost-diamond", "india"])
def test_controller_the_bounce_of_a_press_just_after_the_dial_stopped_is_held(table, session,
                                                                            clock, game):
    """A press 0.2 s after the dial stopped by itself was taken as meant to stop it, and its
    bounce 0.25 s later closed Kat en Muis' "Blue moves to 10" or ended The Lost Diamond's and
    India's turn on its instructions, unread. The bounce is held as after a press that stopped
    the dial; a press once AGAIN_SECONDS have gone acts."""
    start(table, game)
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    clock.advance(table.animation.duration + 0.05)
    table.update()                                                 # it stops by itself
    table.render()
    assert table.screen == "result"
    turn, version = session.snapshot()["turn"], session.snapshot()["state_version"]
    clock.advance(0.2)
    press(table, "press")                                          # meant for the dial
    clock.advance(0.25)
    press(table, "press")                                          # its bounce
    assert table.screen == "result" and table.pager.page == 0
    assert session.snapshot()["state_version"] == version and session.snapshot()["turn"] == turn
    clock.advance(AGAIN_SECONDS)
    for _ in range(table.pager.count):
        press(table, "press")                                      # read: acts
        clock.advance(AGAIN_SECONDS)
        if table.screen != "result":
            break
    assert table.screen != "result"


def test_controller_the_bounce_of_a_seat_press_just_after_the_dial_stopped_is_held(
        table, session, clock):
    """Cats and Mice: a seat button pressed 0.2 s after the dial stopped by itself only stops
    it; its bounce 0.25 s later took a mouse no one had read the throw for. Held as after a
    seat press that stopped the dial; once AGAIN_SECONDS have gone it takes one."""
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    clock.advance(table.animation.duration + 0.05)
    table.update()                                                 # it stops by itself
    table.render()
    turn, version = session.snapshot()["turn"], session.snapshot()["state_version"]
    clock.advance(0.2)
    press(table, "seat", seat=table.buttons[turn])                 # meant for the dial
    clock.advance(0.25)
    press(table, "seat", seat=table.buttons[turn])                 # its bounce
    assert session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "seat", seat=table.buttons[turn])                 # a mouse taken
    assert session.snapshot()["state_version"] == version + 1


def test_controller_a_refereed_result_turned_to_its_last_page_is_not_closed_by_a_bounce(
        table, session, clock):
    """Kat en Muis: "Red moves to 55" (1/2), a press 1.5 s after the stop turned to "Blue pays
    Red 2 chips (square 55)" and its bounce 0.2 s later closed it. A press that turns a page
    holds its bounce on the last page, as in the assisted games."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    for _ in range(40):
        press(table, "flick", strength=0.5)
        press(table, "press")                                          # stop the dial
        if table.pager.count > 1:
            break
        clock.advance(AGAIN_SECONDS)
        press(table, "press")
        clock.advance(AGAIN_SECONDS)
    else:
        raise AssertionError("no result of two pages in 40 throws")
    for page in range(1, table.pager.count):
        clock.advance(1.5)
        press(table, "press")
        assert table.screen == "result" and table.pager.page == page
    clock.advance(0.2)
    press(table, "press")                                              # the bounce: held
    assert table.screen == "result" and table.pager.page == table.pager.count - 1
    clock.advance(0.3)
    press(table, "press")                                              # a third closes it
    assert table.screen == "play"


@pytest.mark.parametrize("game", ["lifes-mishaps", "kat-en-muis"])
def test_controller_the_next_flick_on_unread_news_turns_the_page_first(table, session, clock,
                                                                       game):
    """Kat en Muis: "Blue moves to 44" on page 1/2 and "Red pays Blue 2 chips (square 44)" on
    page 2, up 0.04 s before Red's flick took it away: Red never saw their own payment. The
    next player's flick on a result with a page still to read turns to it; the flick after
    that throws, once read (one 0.15 s after the page turned threw over it: held once)."""
    start(table, game)
    settle_lead(table, clock)
    throw_until_two_pages(table, session, clock)
    rolls = session.snapshot()["rolls"]
    clock.advance(2.0)
    press(table, "flick", strength=0.4)                         # the next player, at once
    assert table.screen == "result" and table.pager.page == 1 and \
        session.snapshot()["rolls"] == rolls
    while table.pager.page < table.pager.count - 1:
        press(table, "flick", strength=0.4)
    clock.advance(0.15)
    press(table, "flick", strength=0.4)                         # its bounce: held
    assert table.pager.page == table.pager.count - 1 and session.snapshot()["rolls"] == rolls
    clock.advance(AGAIN_SECONDS)
    press(table, "flick", strength=0.4)                         # read: now it throws
    assert session.snapshot()["rolls"] == rolls + 1


@pytest.mark.parametrize("game", ["kat-en-muis", "cats-and-dogs"])
def test_controller_a_double_press_that_stopped_the_dial_leaves_the_result_up(table, session,
                                                                             clock, game):
    """A refereed game: the knob pressed to stop the dial and again 0.3 s later closed the
    one-page result ("Red moves to 12" gone in 0.3 s, unread). The second press is held once;
    a third closes it, as does a press after AGAIN_SECONDS. On a result of more pages the same
    hand's presses turn them, and the one on the last page is held."""
    start(table, game)
    settle_lead(table, clock)
    checked, paged = [], []
    for _ in range(30):
        rolls = session.snapshot()["rolls"]
        press(table, "flick", strength=0.5)
        press(table, "press")                                          # stop the dial
        assert table.screen == "result" and session.snapshot()["rolls"] == rolls + 1
        if table.pager.count == 1:
            third = len(checked) % 2 == 0
            clock.advance(0.3 if third else AGAIN_SECONDS)
            press(table, "press")
            if third:
                assert table.screen == "result", "closed unread by a double press"
                clock.advance(0.3)
                press(table, "press")                                  # a third closes it
            assert table.screen == "play"
            checked.append(third)
        elif not paged:                            # the same hand through a page, then held
            for page in range(1, table.pager.count):
                clock.advance(0.2)
                press(table, "press")
                assert table.screen == "result" and table.pager.page == page
            clock.advance(0.2)
            press(table, "press")
            assert table.screen == "result", "closed unread by a third quick press"
            paged.append(table.pager.count)
        while table.screen == "result":
            clock.advance(AGAIN_SECONDS)
            press(table, "press")                                      # read on
        clock.advance(AGAIN_SECONDS)
        if len(checked) >= 4 and (paged or game != "kat-en-muis"):
            break
    assert checked[:4] == [True, False, True, False]
    assert paged or game != "kat-en-muis", "no result of two pages in 30 throws"


def test_controller_a_press_reads_an_outcome_to_its_last_page_before_closing_it(table, session,
                                                                                 clock):
    """Kat en Muis: Red's press on "Red moves to 4" (page 1/2) closed the result, and page 2,
    "Red pays Blue 1 chip (square 4) / Blue loses this turn", was never shown: the box asked
    Red to throw again with no reason given. A press before the last page turns to the next."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    for _ in range(30):
        press(table, "flick", strength=0.5)
        press(table, "press")                                          # stop the dial
        assert table.screen == "result"
        if table.pager.count > 1:
            break
        clock.advance(AGAIN_SECONDS)
        press(table, "press")                                          # a one-page outcome
        assert table.screen == "play"
    else:
        raise AssertionError("no outcome of two pages in 30 throws")
    version = session.snapshot()["state_version"]
    pages = [list(table.pager.text)]
    for page in range(1, table.pager.count):
        clock.advance(1.0)
        press(table, "press")
        assert table.screen == "result" and table.pager.page == page
        pages.append(list(table.pager.text))
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                              # read: closed
    assert table.screen == "play" and session.snapshot()["state_version"] == version
    shown = " ".join(" ".join(lines[1:]) for lines in pages)
    assert shown.replace(" ", "").endswith(" ".join(table.result.lines).replace(" ", ""))


def test_controller_the_turn_screen_starts_at_its_first_page_once_a_notice_goes(table,
                                                                                 session, clock):
    """"Taken back: Blue's turn ends" went after 4.9 s and the turn screen, its pages turning
    behind the notice all along, showed its second page half a second later: "Move your cat
    6, then 5..." was up for 0.5 s. Once a notice goes, the first page is shown whole."""
    from firmware.controller.parts.pager import PAGE_SECONDS
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # stop the dial
    clock.advance(AGAIN_SECONDS)
    read_on(table)
    press(table, "press")                                          # end the turn
    clock.advance(1.0)
    press(table, "undo")
    assert table.notice.text.startswith("Taken back:") and table.screen == "play"
    assert table.pager.count > 1, table.view()
    while table.notice.text:
        clock.advance(0.25)
        table.update()
    gone = clock()
    assert table.pager.page == 0
    while clock() < gone + PAGE_SECONDS - 0.25:
        clock.advance(0.25)
        table.update()
        assert table.pager.page == 0, clock() - gone
    clock.advance(0.5)
    table.update()
    assert table.pager.page == 1


def test_controller_domino_rex_a_double_press_on_a_result_does_not_choose_next(table, session,
                                                                              clock):
    """Domino Rex: a press closed a result ("... then press the knob") and the same hand's
    press 0.5 s later uncovered the square the knob happened to point at on the next turn
    screen, which nobody had read. The same press again within AGAIN_SECONDS is held back."""
    from firmware.controller.parts.notices import AGAIN_SECONDS
    start(table, "domino-rex")
    settle_lead(table, None)
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                   # the first player uncovers
    assert table.screen == "result"
    while table.screen == "result":
        clock.advance(1.5)
        press(table, "press")                               # read, then closed
    version = session.snapshot()["state_version"]
    assert table.screen == "play" and session.snapshot()["awaiting"] == "choose"
    clock.advance(0.5)
    press(table, "press")                                   # the double press
    assert session.snapshot()["state_version"] == version and table.screen == "play"
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                   # a choice, once read
    assert session.snapshot()["state_version"] != version


@pytest.mark.parametrize("kind", ["seat", "ignored"])
def test_controller_a_seat_press_while_the_dial_spins_only_stops_it(table, session, clock,
                                                                   kind):
    """White flicked and pressed their button mid-spin: the box jumped to "Squeak! White's cat
    takes a mouse", counted before anyone saw the throw (another's press, in the lead, hid
    the throw under a refusal). A seat press while the dial spins shows the throw, nothing
    else."""
    start(table, "cats-and-mice", seats=(0, 1, 2))
    settle_lead(table, clock)
    turn = table.snap["turn"]
    press(table, "flick", strength=0.5)
    assert table.screen == "spin"
    thrown = len(session.store.events(session.game_id))
    seat = table.buttons[turn] if kind == "seat" else table.buttons[(turn + 1) % 3]
    press(table, kind, seat=seat)
    assert table.screen == "result" and table.result.outcome[1]          # the throw, big
    assert len(session.store.events(session.game_id)) == thrown and table.notice.text == ""


def test_controller_a_press_just_after_the_result_went_by_itself_is_not_a_move(table, session,
                                                                              clock):
    """A press meant to skip the result came just after it closed by itself, and played
    the turn screen's move, unseen. A press that soon after is not acted on; a later one is."""
    start(table, "fox-and-geese")
    press(table, "press")                            # the Geese's move, by the knob
    assert table.screen == "result"
    clock.advance(60)
    table.update()                                   # the result goes by itself
    assert table.screen == "play"
    events = len(session.store.events(session.game_id))
    press(table, "press")                            # a moment late, for the result
    assert len(session.store.events(session.game_id)) == events
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # the Fox's move, meant
    assert len(session.store.events(session.game_id)) == events + 1


def test_controller_a_press_just_after_a_refusal_went_by_itself_is_not_acted_on(table, session,
                                                                               clock):
    """The same for a refusal: a press to take it away, a moment after it went."""
    start(table, "kat-en-muis")
    press(table, "undo")                                           # nothing to undo yet
    assert table.notice.text == "Nothing to undo."
    clock.advance(60)
    table.update()
    assert table.notice.text == ""
    press(table, "press")                            # a moment late: nothing
    assert table.notice.text == ""
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                            # later: the turn screen's answer
    assert table.notice.text == "Flick the knob to throw"
    events = len(session.store.events(session.game_id))
    press(table, "flick", strength=0.5)              # a flick is no press: it throws at once
    assert len(session.store.events(session.game_id)) == events + 1


def test_controller_x8_a_press_just_after_the_result_went_still_ends_the_turn(table, session,
                                                                             clock):
    """Cats and Mice: the result's last page said "press the knob to end the turn", it went
    by itself, and the press a moment after was taken as late and did nothing; it ends the
    turn there as on the turn screen, so it ends it."""
    start(table, "cats-and-mice", seats=(0, 1, 2))
    settle_lead(table, clock)
    turn = table.snap["turn"]
    press(table, "flick", strength=0.5)
    press(table, "press")                            # the dial settles: the result
    for _ in range(20):                              # its pages, until it goes by itself
        clock.advance(1)
        table.update()
        table.render()
        if table.screen == "play":
            break
    assert table.screen == "play" and table.snap["turn"] == turn
    press(table, "press")                            # just after: still the turn's end
    assert table.snap["turn"] != turn


def test_controller_domino_rex_the_bounce_of_an_uncover_leaves_its_result_up(table, session,
                                                                            clock):
    """Domino Rex: the knob's press uncovered a square ("Red uncovers 1 + 3 = 4") and its
    bounce 0.2 s later closed the result unread. A press that brings up a result holds its
    bounce once; a third press, or one after AGAIN_SECONDS, closes it."""
    start(table, "domino-rex")
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # uncovers
    assert table.screen == "result" and table.result.outcome[0].endswith("uncovers")
    while table.pager.page < table.pager.count - 1:
        clock.advance(0.2)
        press(table, "press")                                      # quick: turns the page
    clock.advance(0.2)
    press(table, "press")                                          # the bounce: held
    assert table.screen == "result" and table.result.outcome[0].endswith("uncovers")
    clock.advance(0.3)
    press(table, "press")                                          # a third closes it
    assert table.screen != "result"


def test_controller_ld1_the_bounce_of_a_press_that_passed_the_turn_leaves_its_result_up(
        table, session, clock):
    """LD1: the press that passes the turn shows "Blue's turn ends / Blue moves in the
    Field", and its bounce 0.2 s later closed it unread. Held once, as after any press that
    brings up a result; read, a press closes it."""
    field_move_passes_the_turn(table, session, clock)
    assert table.result.outcome[0].endswith("turn ends")
    version = session.snapshot()["state_version"]
    clock.advance(0.2)
    press(table, "press")                                          # the bounce: held
    assert table.screen == "result" and table.result.outcome[0].endswith("turn ends")
    assert session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # read: closed
    assert table.screen == "play" and session.snapshot()["state_version"] == version


@pytest.mark.parametrize("undo_from", ["box", "phone"])
def test_controller_ld1_the_bounce_of_a_press_that_took_an_undo_away_does_not_pass_the_turn(
        table, session, clock, undo_from):
    """The Lost Diamond: a press took "Taken back: Blue moves in the Field" away and its
    bounce 0.3 s later passed the turn on a screen no one had read. A press used up taking a
    notice away holds its bounce as one that closed a result does."""
    field_move_passes_the_turn(table, session, clock)
    clock.advance(2.0)
    press(table, "press")                                          # read: closed
    clock.advance(2.0)
    if undo_from == "box":
        press(table, "undo")
    else:
        session.undo(by="web")
        table.update()
    assert table.notice.text.startswith("Taken back")
    version = session.snapshot()["state_version"]
    clock.advance(2.0)
    press(table, "press")                                          # the notice read away
    assert table.notice.text == "" and session.snapshot()["state_version"] == version
    clock.advance(0.3)
    press(table, "press")                                          # its bounce: held
    assert session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # read: the Field move
    assert session.snapshot()["state_version"] == version + 1


@pytest.mark.parametrize("game", ["lost-diamond", "domino-rex"])
def test_controller_the_bounce_of_a_press_just_after_a_result_went_by_itself_is_held(
        table, session, clock, game):
    """A press 0.2 s after a result went by itself is taken as meant for it and does nothing,
    but its bounce 0.25 s later made The Lost Diamond's next Field move (Domino Rex: uncovered
    the square the knob pointed at) on a turn screen no one had read. Held as after a press
    that closed the result; a press once AGAIN_SECONDS have gone acts."""
    start(table, game)
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # a Field move, an uncover
    assert table.screen == "result"
    for _ in range(60):
        clock.advance(1.0)
        table.update()
        if table.screen != "result":
            break
    assert table.screen == "play"                                  # it went by itself
    version = session.snapshot()["state_version"]
    clock.advance(0.2)
    press(table, "press")                                          # meant for the result
    clock.advance(0.25)
    press(table, "press")                                          # its bounce: held
    assert session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # meant: acts
    assert session.snapshot()["state_version"] > version


def test_controller_m3_two_quick_seat_presses_after_a_spin_are_two_captures(table, session,
                                                                            clock):
    """M3: a cat may take two mice after one spin, one press each; the box does not hold a
    quick second capture as a bounce (each says "Squeak!", and an undo takes one back)."""
    start(table, "cats-and-mice")
    settle_lead(table, clock)
    press(table, "flick", strength=0.5)
    press(table, "press")                                          # the knob stops the dial
    mice = session.snapshot()["mice_left"]
    turn = session.snapshot()["turn"]
    clock.advance(1.5)
    press(table, "seat", seat=table.buttons[turn])                 # a mouse
    clock.advance(0.3)
    press(table, "seat", seat=table.buttons[turn])                 # and another
    assert table.result.lines[0].startswith("Squeak!")
    assert session.snapshot()["mice_left"] == mice - 2


@pytest.mark.parametrize("kind", ["flick", "press"])
def test_controller_an_input_just_after_a_page_turned_by_itself_only_reads(table, session, clock,
                                                                          kind):
    """Kat en Muis: "Blue moves to 44" (1/2) turned by itself to "Red pays Blue 2 chips
    (square 44)", and Red's flick 0.15 s later, meant to turn to it, threw: the payment was
    up for 0.15 s (a press closed it the same way). An input that soon after a page turned by
    itself was meant to turn it: it does nothing more; the next acts."""
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    throw_until_two_pages(table, session, clock)
    rolls = session.snapshot()["rolls"]
    while table.pager.page < table.pager.count - 1:
        clock.advance(1.0)
        table.update()                                             # pages turn by themselves
        table.render()
    clock.advance(0.15)
    press(table, kind, strength=0.4)                               # meant to turn the page
    assert table.screen == "result" and table.pager.page == table.pager.count - 1
    assert session.snapshot()["rolls"] == rolls
    clock.advance(AGAIN_SECONDS)
    press(table, kind, strength=0.4)                               # read: now it acts
    assert table.screen != "result" or session.snapshot()["rolls"] == rolls + 1


def test_controller_free_play_alone_the_bounce_of_a_press_that_ended_the_turn_does_not_pass(
        table, session, clock):
    """Free play with one player: the press that ended the turn on the turn screen leaves the
    turn with the same player, so nothing was held, and its bounce 0.25 s later passed the
    next turn without a throw. A press that changed the game there holds its bounce."""
    start(table, "free-play", seats=(0,))
    settle_lead(table, clock)
    press(table, "flick", strength=0.4)
    press(table, "press")                                          # skip the spin
    for _ in range(60):
        clock.advance(1.0)
        table.update()
        if table.screen != "result":
            break
    assert table.screen == "play" and session.snapshot()["awaiting"] == "next"
    clock.advance(2.0)
    version = session.snapshot()["state_version"]
    press(table, "press")                                          # ends the turn
    assert session.snapshot()["state_version"] == version + 1
    clock.advance(0.25)
    press(table, "press")                                          # its bounce: held
    assert session.snapshot()["state_version"] == version + 1
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # read: passes, on purpose
    assert session.snapshot()["state_version"] == version + 2


@pytest.mark.parametrize("between", ["ignored", "seat"])
def test_controller_another_button_between_a_press_and_its_bounce_leaves_the_hold(
        table, session, clock, between):
    """The Lost Diamond: the knob closed "Red's turn ends / Red moves in the Field", a button
    not in the game (or Red's own) was pressed 0.15 s later, and the knob's bounce 0.15 s
    after that made Blue's Field move: any input used the hold up.
    Another hand's input that changes nothing leaves it (Red's seat button: not Red's turn)."""
    field_move_passes_the_turn(table, session, clock)
    clock.advance(2.0)
    press(table, "press")                                          # read: closed
    assert table.screen == "play"
    version = session.snapshot()["state_version"]
    clock.advance(0.15)
    if between == "ignored":
        press(table, "ignored", seat=5)                            # not in the game
    else:
        press(table, "seat", seat=table.buttons[1 - session.snapshot()["turn"]])  # not theirs
    assert session.snapshot()["state_version"] == version
    clock.advance(0.15)
    press(table, "press")                                          # the bounce: still held
    assert session.snapshot()["state_version"] == version
    clock.advance(AGAIN_SECONDS)
    press(table, "press")                                          # Blue's, meant
    assert session.snapshot()["state_version"] == version + 1


@pytest.mark.parametrize("game", ["lifes-mishaps", "kat-en-muis"])
def test_controller_a_flick_just_after_the_dial_stopped_by_itself_only_reads(table, session,
                                                                            clock, game):
    """Life's Mishaps: the dial stopped by itself and a flick 0.2 s later, meant to stop it
    (a flick stops the dial too), threw the next turn over "Blue throws 4 and enters on 4",
    up 0.2 s. It only reads, and its bounce is held; a flick once read throws."""
    start(table, game)
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    press(table, "flick", strength=0.4)
    clock.advance(table.animation.duration + 0.05)
    table.update()                                                 # it stops by itself
    assert table.screen == "result"
    rolls, outcome = session.snapshot()["rolls"], table.result.outcome
    clock.advance(0.2)
    press(table, "flick", strength=0.4)                            # meant to stop it
    clock.advance(0.2)
    press(table, "flick", strength=0.4)                            # and again
    assert session.snapshot()["rolls"] == rolls and table.result.outcome is outcome
    clock.advance(AGAIN_SECONDS)
    while table.screen == "result" and table.pager.page < table.pager.count - 1:
        press(table, "press")                                      # read to the last page
    press(table, "flick", strength=0.4)                            # the next throw
    assert session.snapshot()["rolls"] == rolls + 1


@pytest.mark.parametrize("game", ["lifes-mishaps", "cats-and-dogs"])
def test_controller_a_third_quick_flick_does_not_throw_over_the_result_the_second_stopped(
        table, session, clock, game):
    """Three flicks 0.2 s apart: the first threw, the second stopped the dial, and the third
    threw the next turn over "Blue throws 5 and moves to 10", up 0.2 s. A flick that stopped
    the dial holds the next for AGAIN_SECONDS, as a press that stopped it does."""
    start(table, game)
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    rolls = session.snapshot()["rolls"]
    press(table, "flick", strength=0.4)
    clock.advance(0.2)
    press(table, "flick", strength=0.4)                            # stops the dial
    assert table.screen == "result" and session.snapshot()["rolls"] == rolls + 1
    outcome = table.result.outcome
    clock.advance(0.2)
    press(table, "flick", strength=0.4)                            # held
    assert session.snapshot()["rolls"] == rolls + 1 and table.result.outcome is outcome
    clock.advance(AGAIN_SECONDS)
    while table.screen == "result" and table.pager.page < table.pager.count - 1:
        press(table, "press")                                      # read to the last page
    press(table, "flick", strength=0.4)                            # read: the next throw
    assert session.snapshot()["rolls"] == rolls + 2


@pytest.mark.parametrize("game, scored", [("cats-and-mice", "score"), ("gantlope", "score"),
                                          ("free-play", "score")])
@pytest.mark.parametrize("stopper, gap", [("seat", 0.0), ("seat", 0.3), ("press", 0.1)])
def test_controller_another_hand_a_moment_after_the_dial_stopped_records_nothing(
        table, session, clock, game, scored, stopper, gap):
    """Two hands slap to stop the dial: another player's seat button stopped it, and the turn
    player's a moment later (or the knob's press, then the turn player's button) counted a
    mouse, a man into the Goal or a point, 30 times of 30. Another hand's input a moment after
    the stop is used up with the error sound; tried again, it acts (nothing is held after it:
    a first mend held the retry too, silently, for 1.9 s)."""
    start(table, game, seats=(0, 1, 2))
    settle_lead(table, clock)
    clock.advance(AGAIN_SECONDS)
    turn = session.snapshot()["turn"]
    other = (turn + 1) % 3
    before = [p.get(scored) or 0 for p in session.snapshot()["players"]]
    events = len(session.store.events(session.game_id))
    press(table, "flick", strength=0.5)
    assert table.screen == "spin"
    if stopper == "seat":
        press(table, "seat", seat=table.buttons[other])          # another's button stops it
    else:
        press(table, "press")
    assert table.screen == "result"
    clock.advance(gap)
    press(table, "seat", seat=table.buttons[turn])               # the turn player's, just after
    assert len(session.store.events(session.game_id)) == events + 1      # the throw alone
    assert [p.get(scored) or 0 for p in session.snapshot()["players"]] == before
    assert table.controls.beeps[-1] == "error"                   # not taken, by ear
    clock.advance(0.3)
    press(table, "seat", seat=table.buttons[turn])               # tried again: it counts
    assert len(session.store.events(session.game_id)) == events + 2
