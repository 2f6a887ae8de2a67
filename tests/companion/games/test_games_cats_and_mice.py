"""Cats and Mice (M1-M3), an assisted game: expectations by hand from RULINGS.md."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.errors import Refused
from companion.events import parse_event
from companion.replay import replay, replay_lines
from game_support import act, refusal, start_game

GAME = "cats-and-mice"


def start(players=("Ann", "Ben"), leads=((6, 6), (1, 1))):
    return start_game(GAME, players, leads)


def turn(table, captures=0, spin=(2, 3), end=True):
    act(table, type="roll", values=list(spin))
    for _ in range(captures):
        act(table, type="press", seat=table.state.turn)
    if end and not table.state.over:
        act(table, type="next")
    return table.state


def test_cats_and_mice_m1_lead_on_the_sum_of_both_arrows():
    table = start(leads=((6, 1), (4, 4)))          # 7 against 8: the sum decides, not an arrow
    state = table.state
    assert (state.phase, state.turn, state.order) == ("play", 1, [1, 0])
    table = start(leads=((5, 3), (2, 6)))          # 8 and 8 tie: both spin again
    assert (table.state.phase, table.state.turn) == ("lead", 0)


def test_cats_and_mice_m2_spin_shows_both_numbers_and_the_move():
    table = start()
    act(table, type="roll", values=[3, 5])
    out = table.to_json()
    assert out["prompt"] == "Ann: Move your cat 3, then 5. Then one mouse 8, or two mice 3 and 5."
    assert out["instruction"] == "Move your cat 3, then 5. Then one mouse 8, or two mice 3 and 5."
    assert out["awaiting"] == "next" and out["turn"] == 0
    assert "Ann spins 3 and 5" in out["log"]


def test_cats_and_mice_x8_turn_ends_with_next():
    table = start()
    assert "has not spun" in refusal(table, type="next")
    state = turn(table, spin=(1, 2), end=False)
    assert (state.turn, state.awaiting) == (0, "next")
    assert "no throw is asked" in refusal(table, type="roll", values=[4, 4])
    state = act(table, type="next")
    assert (state.turn, state.awaiting) == (1, "roll")
    assert table.to_json()["instruction"] is None


def test_cats_and_mice_m3_press_refused_when_not_expected():
    table = start()
    assert "has not spun yet" in refusal(table, type="press", seat=0)
    act(table, type="roll", values=[4, 2])
    assert "it is Ann's turn" in refusal(table, type="press", seat=1)
    assert "no seat 3" in refusal(table, type="press", seat=2)


def test_cats_and_mice_m3_at_most_two_captures_after_one_spin():
    table = start()
    act(table, type="roll", values=[4, 2])
    for _ in range(2):                      # the cat moves once for each arrow
        act(table, type="press", seat=0)
    assert refusal(table, type="press", seat=0) == \
        "a cat takes two mice at most a spin, one per arrow"
    assert table.state.players[0].score == 2 and table.to_json()["mice_left"] == 10
    act(table, type="next")
    act(table, type="roll", values=[1, 1])
    act(table, type="press", seat=1)        # a new spin, a new count
    assert table.to_json()["mice_left"] == 9


def test_cats_and_mice_m3_each_capture_counts_one():
    table = start()
    state = turn(table, captures=2)
    assert state.players[0].score == 2 and state.players[0].extra["mice"] == 2
    assert table.to_json()["mice_left"] == 10
    assert "Squeak! Ann's cat takes a mouse (11 left)" in state.log


def test_cats_and_mice_m3_last_mouse_counts_three():
    table = start()
    for _ in range(3):                              # Ann 2 a turn, Ben 1 a turn
        turn(table, captures=2)
        turn(table, captures=1)
    turn(table, captures=0)
    turn(table, captures=1)
    turn(table, captures=0)
    state = turn(table, captures=1)                 # Ben's fifth: 11 mice taken
    assert [p.score for p in state.players] == [6, 5] and not state.over
    turn(table, captures=0)
    state = turn(table, captures=1)                 # Ben takes the twelfth: 3 points
    assert [p.score for p in state.players] == [6, 8]
    assert (state.phase, state.winners, state.turn) == ("over", [1], None)
    assert table.to_json()["mice_left"] == 0
    assert "Squeak! Ben's cat takes the last mouse: 3 points" in state.log


def test_cats_and_mice_m3_game_ends_at_twelfth_capture_ties_share():
    table = start()
    for _ in range(3):
        turn(table, captures=2)                     # Ann: 6
        turn(table, captures=1)                     # Ben: 3
    turn(table, captures=1)                         # Ann: 7 (10 taken)
    state = turn(table, captures=2, end=False)      # Ben: 1 + the last (3) = 7
    assert [p.score for p in state.players] == [7, 7]
    assert (state.phase, state.winners) == ("over", [0, 1])
    with pytest.raises(Refused, match="over"):
        table.attempt(parse_event({"type": "press", "seat": 1}))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(st.data())
def test_cats_and_mice_random_games_keep_the_count(data):
    n = data.draw(st.integers(2, 4), label="players")
    arrow = st.integers(1, 6)
    log = [{"type": "new_game", "game": GAME, "players": ["Ann", "Ben", "Cy", "Dot"][:n]}]
    table = replay(log)

    def do(event):
        log.append(event)
        return table.apply(parse_event(event))

    leader = data.draw(st.integers(0, n - 1), label="leader")
    for seat in range(n):
        do({"type": "roll", "values": [6, 6] if seat == leader else
            [data.draw(st.integers(1, 5)), data.draw(arrow)]})
    order = table.state.order
    assert order == [(leader + k) % n for k in range(n)]         # play goes to the left
    plan = data.draw(st.lists(st.integers(0, 2), max_size=24), label="captures a turn")
    caught = [0] * n
    turns = 0
    while not table.state.over:
        seat = table.state.turn
        assert seat == order[turns % n]
        do({"type": "roll", "values": [data.draw(arrow), data.draw(arrow)]})
        left = 12 - sum(caught)
        for _ in range(min(plan[turns] if turns < len(plan) else 2, left)):
            do({"type": "press", "seat": seat})
            caught[seat] += 1
        state = table.state
        assert table.to_json()["mice_left"] == 12 - sum(caught)
        if sum(caught) == 12:
            assert state.over
            break
        assert not state.over
        assert sum(p.score for p in state.players) == sum(caught)
        do({"type": "next"})
        turns += 1
    state = table.state
    last = log[-1]["seat"]
    points = [c + (2 if s == last else 0) for s, c in enumerate(caught)]
    assert [p.score for p in state.players] == points
    assert state.winners == [s for s in range(n) if points[s] == max(points)]
    assert replay_lines(json.dumps(e) for e in log).to_json() == table.to_json()
