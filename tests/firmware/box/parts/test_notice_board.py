"""The notice board alone: the notice up, its pages and their times, and which notices a knob
press only reads away."""

from __future__ import annotations

from PIL import Image

from fakes import FakeClock
from firmware.controller.parts.notices import NoticeBoard
from firmware.oled import screens

LONG = ("It is Ann's turn, not Ben's. Ben waits for Ann to spin and move, then presses the "
        "button when the turn comes round again. Until then the button does nothing at all, "
        "whatever the screen says about the game, the pool or the chips on the table.")


def test_notice_board_starts_with_no_notice_and_nothing_to_wait_for():
    board = NoticeBoard(FakeClock())
    assert board.text == "" and board.page() == 0 and board.deadlines() == []
    assert not board.read_by_press and not board.turned() and not board.ran_out(10**9)


def test_notice_board_keeps_a_notice_up_for_its_seconds_a_page():
    clock = FakeClock()
    board = NoticeBoard(clock)
    pages = len(screens.flash_pages(LONG))
    assert pages > 1
    board.put(LONG, 2.0)
    assert board.until == clock.now + 2.0 * pages
    assert board.deadlines() == [board.until, clock.now + 2.0]
    clock.advance(2.0 * pages - 0.1)
    assert not board.ran_out(clock.now)
    clock.advance(0.1)
    assert board.ran_out(clock.now)


def test_notice_board_turns_its_pages_and_says_so_until_the_next_is_drawn():
    clock = FakeClock()
    board = NoticeBoard(clock)
    board.put(LONG, 2.0)
    blank = Image.new("1", (screens.W, screens.H))
    board.over(blank)
    assert board.drawn_page == 0 and not board.turned()
    clock.advance(2.5)
    assert board.page() == 1 and board.turned()
    assert board.deadlines() == [board.until, board.at + 4.0]
    board.over(blank)
    assert board.drawn_page == 1 and not board.turned()


def test_notice_board_draws_over_the_screen_only_while_a_notice_is_up():
    board = NoticeBoard(FakeClock())
    blank = Image.new("1", (screens.W, screens.H))
    assert board.over(blank) is blank
    board.put("Not your turn", 1.2)
    assert board.over(blank).tobytes() == screens.flash(blank, "Not your turn").tobytes()


def test_notice_board_a_refusal_or_an_undo_is_read_away_by_a_press_a_plain_word_is_not():
    board = NoticeBoard(FakeClock())
    board.put("Turn ended", 1.2)
    assert not board.read_by_press
    board.refusal = True
    assert board.read_by_press
    board.put("Taken back: Ann throws 3 and 5", 2.0)      # a new notice is plain again
    assert not board.refusal and not board.read_by_press
    board.undo = True
    assert board.read_by_press


def test_notice_board_cleared_has_no_notice_and_no_refusal_left():
    board = NoticeBoard(FakeClock())
    board.put("Nothing to undo.", 2.0)
    board.refusal = board.undo = True
    board.clear()
    assert board.text == "" and not board.refusal and not board.undo
    assert board.deadlines() == [] and not board.read_by_press
