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
    assert spin_prompt(DOUBLE + 5) == "Ann: Double 5: move one man 10."   # no entering on it


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
    table = start(leads=(DOUBLE + 3, 6))            # double 3 counts 6: a tie, spin again
    assert (table.state.phase, table.state.turn) == ("lead", 0)
    assert "Ann spins double 3 (6) for the lead" in table.state.log


def test_india_p2_first_man_home_wins():
    table = start(("Ann", "Ben", "Cy"), leads=(1, 12, 2))
    assert table.state.turn == 1
    assert "has not spun" in refusal(table, type="press", seat=1)
    act(table, type="roll", values=[4])
    assert "it is Ben's turn" in refusal(table, type="press", seat=0)
    state = act(table, type="press", seat=1)
    assert (state.phase, state.winners) == ("over", [1])
    assert "Ben's man reaches the central home" in state.log
