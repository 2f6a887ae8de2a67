"""The box's input table alone: a screen's own handler for an input, the play screen's for the
result and Resumed screens where they name none, and nothing where a screen names nothing."""

from __future__ import annotations

from firmware.controller.transitions import TRANSITIONS, handler_name


def test_transitions_a_screen_answers_with_its_own_handler():
    assert handler_name("play", "flick") == "spin"
    assert handler_name("result", "press") == "result_press"       # not play's knob press
    assert handler_name("resumed", "press") == "to_home"


def test_transitions_result_and_resumed_fall_back_to_play():
    for screen in ("result", "resumed"):
        assert handler_name(screen, "seat") == TRANSITIONS[("play", "seat")]
        assert handler_name(screen, "undo") == TRANSITIONS[("play", "undo")]
    assert handler_name("resumed", "flick") == "spin"


def test_transitions_other_screens_do_nothing_with_an_input_they_do_not_name():
    assert handler_name("spin", "undo") is None                  # play has one: no fallback
    assert handler_name("games", "seat") is None
    assert handler_name("nowhere", "press") is None


def test_transitions_hold_the_pairing_screens():
    assert handler_name("pair_code", "press") == "leave_code"
    assert handler_name("phones", "turn") == "move_phones"
