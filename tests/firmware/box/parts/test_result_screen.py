"""The result screen alone: what the result up says and the lines said first, when it went up
and until when it stays or holds a change back, and a person's change just up; and the change
held back while it is read."""

from __future__ import annotations

from fakes import FakeClock
from firmware.controller.parts.notices import LATE_PRESS_SECONDS
from firmware.controller.parts.result import (HOLD_PAGES, HOLD_SECONDS, RESULT_SECONDS, HeldChange,
                                        ResultScreen, Throw)


def test_result_screen_starts_saying_nothing_with_no_throw_and_nothing_read():
    result = ResultScreen(FakeClock())
    assert result.outcome == ("", "", []) and result.lines == [] and result.lead_in == []
    assert result.throw == Throw({}, {}, []) and result.read_roll is None
    assert (result.at, result.until, result.instructs) == (0.0, 0.0, False)
    assert not result.change_just_up()


def test_result_screen_resumed_stays_until_it_is_told():
    assert ResultScreen(FakeClock(), until=5.0).until == 5.0


def test_result_screen_put_up_stays_its_seconds_and_says_whether_it_instructs():
    clock = FakeClock()
    result = ResultScreen(clock)
    clock.advance(10.0)
    result.put_up(instructs=True)
    assert (result.at, result.until, result.instructs) == (clock.now,
                                                            clock.now + RESULT_SECONDS, True)
    result.put_up(instructs=False)
    assert not result.instructs


def test_result_screen_lead_in_goes_first_once_as_a_new_outcome():
    result = ResultScreen(FakeClock())
    result.lead_in = ["From a phone: Life's Mishaps begun instead of the game joined here."]
    result.outcome = before = ("Life's Mishaps", "", ["Each player pays 5 chips"])
    result.lead_in_first()
    assert result.outcome is not before and result.lead_in == []
    assert result.outcome == ("Life's Mishaps", "", [
        "From a phone: Life's Mishaps begun instead of the game joined here.",
        "Each player pays 5 chips"])
    same = result.outcome
    result.lead_in_first()                      # nothing to say first: the same outcome
    assert result.outcome is same


def test_result_screen_lead_in_taken_to_be_said_otherwise_is_gone():
    result = ResultScreen(FakeClock())
    result.lead_in = ["Taken back: Ann throws 3"]
    assert result.take_lead_in() == ["Taken back: Ann throws 3"]
    assert result.lead_in == [] and result.take_lead_in() == []


def test_result_screen_a_line_added_goes_last_in_a_new_outcome():
    result = ResultScreen(FakeClock())
    result.outcome = before = ("Ann spins", "6", ["Squeak!"])
    result.add_line("Then press the knob to end the turn.")
    assert result.outcome is not before
    assert result.outcome == ("Ann spins", "6", ["Squeak!", "Then press the knob to end the turn."])


def test_result_screen_holds_a_change_back_a_page_at_a_time_two_pages_at_most():
    clock = FakeClock()
    result = ResultScreen(clock)
    clock.advance(3.0)
    result.put_up(instructs=False)
    assert result.held_until(1) == clock.now + HOLD_SECONDS
    assert result.held_until(0) == clock.now + HOLD_SECONDS
    assert result.held_until(5) == clock.now + HOLD_SECONDS * HOLD_PAGES


def test_result_screen_a_change_just_up_is_so_for_a_moment_while_it_is_the_outcome_up():
    clock = FakeClock()
    result = ResultScreen(clock)
    result.outcome = ("From a phone", "", ["Ann uncovers 4"])
    result.change_put_up()
    assert result.change_just_up()
    clock.advance(LATE_PRESS_SECONDS)
    assert not result.change_just_up()              # read by now


def test_result_screen_a_change_just_up_is_not_so_once_another_outcome_is_up_or_it_is_read():
    result = ResultScreen(FakeClock())
    result.outcome = ("From a phone", "", ["Ann uncovers 4"])
    result.change_put_up()
    result.outcome = ("Ben spins", "5", ["Ben moves to 9"])     # equal or not: another result
    assert not result.change_just_up()
    result.change_put_up()
    result.change_read()
    assert not result.change_just_up()


def test_held_change_starts_with_nothing_held():
    held = HeldChange()
    assert not held.waiting and held.drawn is None and held.newest is None
    assert held.take() is None


def test_held_change_goes_on_from_the_game_drawn_before_the_first():
    held = HeldChange()
    drawn, reply, after = {"version": 3}, {"version": 4}, {"version": 5}
    held.hold(drawn, reply)
    assert held.waiting and held.drawn is drawn and held.newest is reply
    held.hold(reply, after)                    # the next change joins it
    assert held.drawn is drawn and held.newest is after
    assert held.take() == (drawn, after)
    assert not held.waiting and held.take() is None


def test_held_change_dropped_is_not_shown():
    held = HeldChange()
    held.hold({"version": 3}, {"version": 4})
    held.drop()
    assert not held.waiting and held.take() is None
    held.hold({"version": 6}, {"version": 7})      # a new one begins from its own game
    assert held.drawn == {"version": 6}
