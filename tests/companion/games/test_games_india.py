"""India, the race game of seed 003 (P1-P2), an assisted game: expectations by hand."""

from __future__ import annotations

from game_support import act, refusal, start_game

GAME = "india"
DOUBLE = 6                                          # spinner value of "double n" is 6 + n


def start(players=("Ann", "Ben"), leads=(12, 1)):
    return start_game(GAME, players, leads)


def spin_prompt(value):
    table = start()
    act(table, type="roll", values=[value])
    return table.to_json()["prompt"]


def test_india_p1_plain_spin_moves_n():
    assert spin_prompt(3) == "Ann: Move one man 3."
    assert spin_prompt(6) == "Ann: Move one man 6."


def test_india_p1_double_counts_twice():
    assert spin_prompt(DOUBLE + 3) == "Ann: Double 3: move one man 6."
    assert spin_prompt(DOUBLE + 1) == "Ann: Double 1: move one man 2."


def test_india_p1_a_man_enters_only_on_a_plain_five():
    assert spin_prompt(5) == "Ann: Move one man 5, or enter a man."
    assert spin_prompt(DOUBLE + 5) == \
        "Ann: Double 5: move one man 10 (only a plain 5 enters a man)."
    for value in (1, 2, 3, 4, 6, DOUBLE + 1, DOUBLE + 6):
        assert "enter" not in spin_prompt(value)


def test_india_p1_double_six_choice():
    assert spin_prompt(DOUBLE + 6) == "Ann: Double 6: move four men 6 each, or one man 24."


def test_india_p1_five_enters_a_man():
    assert spin_prompt(5) == "Ann: Move one man 5, or enter a man."


def test_india_p1_spinner_has_twelve_labelled_segments():
    table = start()
    assert "off a spinner of 12" in refusal(table, type="roll", values=[13])
    act(table, type="roll", values=[DOUBLE + 2])
    assert table.state.last_roll["text"] == "double 2"


def test_india_p1_lead_counts_what_a_spin_moves():
    table = start(leads=(DOUBLE + 1, 6))            # double 1 counts 2: a plain 6 leads
    assert (table.state.phase, table.state.turn) == ("play", 1)
    assert "Ben spins 6 for the lead" in table.state.log          # not "6 (6)"
    table = start(leads=(DOUBLE + 3, 6))            # double 3 counts 6: a tie, spin again
    assert (table.state.phase, table.state.turn) == ("lead", 0)
    assert "Ann spins double 3 (6) for the lead" in table.state.log


def test_india_p1_lead_double_six_counts_24():
    table = start(("Ann", "Ben", "Cy"), leads=(DOUBLE + 5, DOUBLE + 6, 6))   # 10, 24, 6
    assert (table.state.phase, table.state.turn) == ("play", 1)
    assert "Ben spins double 6 (24) for the lead" in table.state.log


def test_india_p2_home_press_then_a_second_press_confirms_and_wins():
    table = start(("Ann", "Ben", "Cy"), leads=(1, 12, 2))
    assert table.state.turn == 1
    assert "has not spun" in refusal(table, type="press", seat=1)
    act(table, type="roll", values=[4])
    assert "it is Ben's turn" in refusal(table, type="press", seat=0)
    state = act(table, type="press", seat=1)
    assert (state.phase, table.to_json()["home_claim"]) == ("play", 1)    # one press: no end
    assert table.to_json()["prompt"] == ("Ben: press your button again to confirm you are "
                                         "home; the knob cancels")
    state = act(table, type="press", seat=1)
    assert (state.phase, state.winners) == ("over", [1])
    assert state.log[-2:] == ["Ben's man reaches the central home", "Ben wins"]


def test_india_p2_the_knob_cancels_and_a_claim_can_be_undone():
    table = start()
    act(table, type="roll", values=[3])
    act(table, type="press", seat=0)
    act(table, type="undo")                          # before confirming, undo takes it back
    assert table.to_json()["home_claim"] is None and table.state.awaiting == "next"
    act(table, type="press", seat=0)
    state = act(table, type="next")                  # the knob cancels and ends the turn
    assert (state.phase, state.turn) == ("play", 1)
    assert "Ann is not home yet (claim cancelled)" in state.log
    act(table, type="roll", values=[2])
    state = act(table, type="press", seat=1)         # Ben's own claim starts afresh
    assert state.phase == "play" and table.to_json()["home_claim"] == 1
