"""The pager alone: which page of the screen's text is up, within the pages drawn, and when it
turns by itself or has been up long enough to read."""

from __future__ import annotations

from fakes import FakeClock
from firmware.controller.parts.pager import PAGE_SECONDS, Pager


def test_pager_starts_on_one_page_read_at_once():
    clock = FakeClock()
    pager = Pager(clock)
    assert (pager.page, pager.count, pager.text) == (0, 1, [])
    assert pager.on_last and pager.read(clock.now) and not pager.turns_by_itself(10**9)


def test_pager_the_knob_turns_within_the_pages_there_are():
    clock = FakeClock()
    pager = Pager(clock)
    pager.stop_at_last(3)
    pager.turn_by(5)
    assert pager.page == 2 and pager.on_last
    pager.turn_by(-9)
    assert pager.page == 0 and not pager.on_last


def test_pager_turning_a_page_starts_its_time_again():
    clock = FakeClock()
    pager = Pager(clock)
    pager.stop_at_last(2)
    clock.advance(PAGE_SECONDS - 0.1)
    assert not pager.turns_by_itself(clock.now) and not pager.read(clock.now)
    clock.advance(0.1)
    assert pager.turns_by_itself(clock.now) and pager.read(clock.now)
    pager.turn_to(1)
    assert pager.at == clock.now and pager.due() == clock.now + PAGE_SECONDS
    assert not pager.read(clock.now)


def test_pager_a_screen_whose_pages_go_round_keeps_the_page_among_them():
    pager = Pager(FakeClock())
    pager.stop_at_last(5)
    pager.turn_to(4)
    pager.go_round(3)                      # the turn screen drawn with fewer pages
    assert (pager.page, pager.count) == (1, 3)


def test_pager_a_result_stops_at_its_last_page_when_drawn_with_fewer():
    pager = Pager(FakeClock())
    pager.stop_at_last(5)
    pager.turn_to(4)
    pager.stop_at_last(3)
    assert (pager.page, pager.count) == (2, 3) and pager.on_last


def test_pager_blank_before_a_frame_is_one_page_with_no_words_and_keeps_the_page():
    pager = Pager(FakeClock())
    pager.stop_at_last(3)
    pager.turn_to(2)
    pager.text = ["Ann spins", "6 · 4"]
    pager.blank()
    assert (pager.page, pager.count, pager.text) == (2, 1, [])


def test_pager_says_when_the_text_up_is_about_something_new_once():
    pager = Pager(FakeClock())
    about = ("play", "Ann: spin", 7, False)
    assert pager.new_text(about)
    assert not pager.new_text(about)
    assert pager.new_text(("play", "Ann: spin", 7, True))    # a notice went: the text again
