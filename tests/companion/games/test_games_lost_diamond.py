"""The Lost Diamond (LD1-LD2), an assisted game: expectations by hand from RULINGS.md."""

from __future__ import annotations

import pytest

from companion.errors import LogError
from companion.replay import replay
from game_support import act, refusal, start_game

GAME = "lost-diamond"


def start(leads=((6, 6), (1, 1))):
    return start_game(GAME, ("Ann", "Ben"), leads)


def test_lost_diamond_is_for_two():
    with pytest.raises(LogError, match="for 2 players, not 3"):
        replay([{"type": "new_game", "game": GAME, "players": ["Ann", "Ben", "Cy"]}])


def test_lost_diamond_ld1_lead_on_the_sum():
    table = start(leads=((1, 4), (3, 3)))      # 5 against 6
    assert (table.state.phase, table.state.turn) == ("play", 1)


def test_lost_diamond_ld1_field_move_is_a_knob_press_without_spin():
    table = start()
    rolls = table.state.rolls
    state = act(table, type="next")
    assert (state.turn, state.awaiting, state.rolls) == (1, "roll", rolls)
    assert state.log[-1] == "Ann moves in the Field"
    act(table, type="roll", values=[2, 3])           # Ben on the road spins
    assert table.to_json()["prompt"] == "Ben: Move forward 2, then 3 on the road or lane."
    state = act(table, type="next")                  # and ends the turn: no Field move
    assert state.turn == 0 and "Ben moves in the Field" not in state.log


def test_lost_diamond_ld2_press_takes_then_captures_the_diamond():
    table = start()
    state = act(table, type="press", seat=0)         # Ann's Field move reaches the diamond
    assert state.players[0].extra["diamond"] and state.awaiting == "next"
    assert table.to_json()["diamond"] == 0
    assert state.log[-2:] == ["Ann moves in the Field",
                              "Ann takes the Lost Diamond from its square"]
    assert "no throw is asked" in refusal(table, type="roll", values=[1, 1])  # move was made
    act(table, type="next")
    assert "it is Ben's turn" in refusal(table, type="press", seat=0)
    act(table, type="roll", values=[4, 1])
    state = act(table, type="press", seat=1)         # Ben on the road lands on Ann: captures
    assert [p.extra["diamond"] for p in state.players] == [False, True]
    assert "Ben captures the Lost Diamond from Ann" in state.log


def test_lost_diamond_ld2_field_capture_before_spinning():
    table = start()
    act(table, type="press", seat=0)
    act(table, type="next")
    state = act(table, type="press", seat=1)         # Ben's Field move lands on Ann
    assert state.log[-2:] == ["Ben moves in the Field", "Ben captures the Lost Diamond from Ann"]
    assert table.to_json()["diamond"] == 1 and state.awaiting == "next"


def test_lost_diamond_ld2_diamond_square_is_not_reached_by_a_spin():
    table = start()
    act(table, type="roll", values=[2, 3])
    assert refusal(table, type="press", seat=0) == \
        "take the diamond with a Field move, before you spin"
    assert table.to_json()["diamond"] == "square"


def test_lost_diamond_ld2_no_win_on_the_turn_the_diamond_is_taken():
    table = start()
    act(table, type="press", seat=0)                 # takes it with a Field move ...
    why = "Ann got the diamond this turn: home on a later turn"
    assert refusal(table, type="press", seat=0) == why      # ... and cannot be home at once
    act(table, type="next")
    act(table, type="roll", values=[3, 3])
    act(table, type="press", seat=1)                 # Ben captures it after a spin
    assert refusal(table, type="press", seat=1) == \
        "Ben got the diamond this turn: home on a later turn"
    assert table.state.phase == "play" and table.to_json()["home_claim"] is None


def test_lost_diamond_ld2_carrier_home_needs_a_spin_and_a_confirming_press():
    table = start()
    act(table, type="press", seat=0)
    act(table, type="next")
    act(table, type="roll", values=[1, 1])
    act(table, type="next")
    assert refusal(table, type="press", seat=0) == "Ann has the diamond: spin first to go home"
    act(table, type="roll", values=[5, 6])
    state = act(table, type="press", seat=0)         # Ann says she is home
    assert (state.phase, state.awaiting) == ("play", "next")
    assert table.to_json()["home_claim"] == 0
    assert table.to_json()["prompt"] == ("Ann: press your button again to confirm you are "
                                         "home; the knob cancels")
    state = act(table, type="press", seat=0)         # and confirms
    assert (state.phase, state.winners) == ("over", [0])
    assert state.log[-2:] == ["Ann is home with the Lost Diamond", "Ann wins"]


def test_lost_diamond_ld2_the_knob_cancels_the_claim():
    table = start()
    act(table, type="press", seat=0)
    act(table, type="next")
    act(table, type="roll", values=[1, 1])
    act(table, type="next")
    act(table, type="roll", values=[5, 6])
    act(table, type="press", seat=0)                 # a claim ...
    state = act(table, type="next")                  # ... cancelled by the knob
    assert (state.phase, state.turn, state.awaiting) == ("play", 1, "roll")
    assert "Ann is not home yet (claim cancelled)" in state.log
    assert table.to_json()["home_claim"] is None
    act(table, type="roll", values=[2, 2])
    act(table, type="next")
    act(table, type="roll", values=[3, 4])
    state = act(table, type="press", seat=0)         # a new claim needs its own confirmation
    assert state.phase == "play" and table.to_json()["home_claim"] == 0


def test_lost_diamond_ld2_the_prompt_says_which_field_move_is_a_button_press():
    """Players followed "press the knob for a Field move" onto the diamond: the knob passed
    the turn and the press that takes it was refused ("it is Ben's turn")."""
    table = start()
    assert table.to_json()["prompt"] == ("Ann - flick to spin, or press the knob to move in "
                                         "the Field; your button if that reaches the diamond")
    act(table, type="press", seat=0)                  # Ann takes it
    act(table, type="next")
    assert table.to_json()["prompt"].endswith("your button if that reaches the diamond")  # Ben
    act(table, type="next")
    assert table.to_json()["prompt"] == "Ann - flick to spin, or press the knob to move in " \
        "the Field"                                   # the carrier: home is by the road
