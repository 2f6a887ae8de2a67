"""Gantlope (G1-G3), an assisted game: expectations by hand from RULINGS.md."""

from __future__ import annotations

from game_support import act, refusal, start_game

GAME = "gantlope"


def start(players=("Ann", "Ben"), leads=((6, 6), (1, 1))):
    return start_game(GAME, players, leads)


def test_gantlope_g1_lead_on_the_sum():
    table = start(("Ann", "Ben", "Cy"), leads=((6, 1), (4, 4), (2, 3)))   # 7, 8, 5
    assert (table.state.phase, table.state.turn, table.state.order) == ("play", 1, [1, 2, 0])


def test_gantlope_g2_doubles_count_double():
    table = start()
    act(table, type="roll", values=[3, 3])
    prompt = table.to_json()["prompt"]
    assert prompt.startswith("Ann: Double 3: move 6 and 6")
    assert "one man 12" in prompt


def test_gantlope_g2_plain_spin_counts_as_shown():
    table = start()
    act(table, type="roll", values=[3, 5])
    prompt = table.to_json()["prompt"]
    assert "Double" not in prompt and "Move 3 and 5" in prompt


def test_gantlope_g3_four_men_in_goal_wins():
    table = start(("Ann", "Ben", "Cy"), leads=((6, 6), (1, 1), (1, 2)))
    act(table, type="roll", values=[2, 4])
    assert "it is Ann's turn" in refusal(table, type="press", seat=1)
    act(table, type="press", seat=0)
    act(table, type="press", seat=0)
    act(table, type="next")
    for seat in (1, 2):                             # Ben and Cy spin and end their turns
        assert table.state.turn == seat
        assert "has not spun" in refusal(table, type="press", seat=seat)
        act(table, type="roll", values=[1, 1])
        act(table, type="next")
    act(table, type="roll", values=[5, 5])
    state = act(table, type="press", seat=0)
    assert state.players[0].extra["in_goal"] == 3 and not state.over
    state = act(table, type="press", seat=0)
    assert (state.phase, state.winners) == ("over", [0])
    assert [p.extra["in_goal"] for p in state.players] == [4, 0, 0]


def test_gantlope_g3_at_most_two_goal_presses_after_one_spin():
    table = start()
    act(table, type="roll", values=[4, 4])            # a double still moves a man an arrow
    act(table, type="press", seat=0)
    act(table, type="press", seat=0)
    assert refusal(table, type="press", seat=0) == \
        "two men at most enter the Goal a spin, one per arrow"
    assert table.state.players[0].extra["in_goal"] == 2 and not table.state.over
    act(table, type="next")
    act(table, type="roll", values=[1, 2])
    act(table, type="next")
    act(table, type="roll", values=[2, 3])            # Ann's next spin: two more, and she wins
    act(table, type="press", seat=0)
    state = act(table, type="press", seat=0)
    assert (state.phase, state.winners) == ("over", [0])


def test_gantlope_g3_undo_gives_the_press_back():
    table = start()
    act(table, type="roll", values=[2, 5])
    act(table, type="press", seat=0)
    act(table, type="press", seat=0)
    act(table, type="undo")
    state = act(table, type="press", seat=0)          # the second press again, allowed
    assert state.players[0].extra["in_goal"] == 2
