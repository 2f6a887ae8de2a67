"""Whole games under random throws and undos: the invariants every ruling relies on.

X3 (never below zero), X4 (chips conserved), one occupant a square where the rules say so,
undo restores exactly, a refused or attempted event changes nothing, and the log alone
replays the table.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import Refused
from companion.events import NewGame, Roll, Undo, parse_event
from companion.randomness.randomizers import Randomizer
from companion.replay import Table, replay
from companion.randomness.rollstream import draw

NAMES = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo")
GAMES = {"kat-en-muis": (2, 2), "lifes-mishaps": (2, 6), "cats-and-dogs": (2, 6)}

game_settings = settings(max_examples=40, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow])

# A move is an undo (None) or two die offsets; a roll shows (rolls so far + offset) per die, so
# the smallest example (offsets 0) still throws different numbers and settles every lead.
moves = st.lists(st.none() | st.tuples(st.integers(0, 5), st.integers(0, 5)),
                 min_size=40, max_size=300)


def new_table(game: str, players: tuple[str, ...]) -> Table:
    table = Table()
    table.apply(NewGame(game=game, players=players))
    return table


def roll_for(table: Table, offsets: tuple[int, int]) -> Roll:
    dice = table.rulebook.randomizer_now(table.state)
    n = table.state.rolls
    return Roll(values=tuple((n + i + d) % dice.faces + 1
                             for i, d in enumerate(offsets[:dice.count])))


def check_invariants(state, total: int) -> None:
    assert state.total_chips == total                                      # X4
    assert state.pool >= 0 and all(p.chips >= 0 for p in state.players)  # X3
    if state.over:
        assert state.turn is None and state.awaiting is None and state.winners
    else:
        assert state.turn in range(len(state.players)) and state.awaiting == "roll"
    squares = [p.position for p in state.players if p.position not in (None, 0)]
    if state.game == "kat-en-muis":
        assert all(0 <= s <= 66 for s in squares)
    elif state.game == "lifes-mishaps":
        assert all(1 <= s <= 48 for s in squares)
        assert len(squares) == len(set(squares))                           # L6
    else:
        finish = state.board["track_length"]
        assert all(0 <= p.position <= finish for p in state.players)
        assert len(squares) == len(set(squares))                           # C2, C3


@st.composite
def games(draw_):
    game = draw_(st.sampled_from(sorted(GAMES)))
    low, high = GAMES[game]
    players = draw_(st.integers(low, high))
    return game, NAMES[:players]


@game_settings
@given(setup=games(), moves=moves)
def test_properties_random_games_keep_the_invariants(setup, moves):
    table = new_table(*setup)
    total = table.state.total_chips
    for move in moves:
        if table.state.over:
            break
        before = table.to_json()
        if move is None:
            if len(table.effective) > 1:
                previous = replay(table.effective[:-1]).to_json()
                table.apply(Undo())
                assert table.to_json() == previous
            continue
        roll = roll_for(table, move)
        new = table.attempt(roll)
        assert table.to_json() == before                   # attempting is pure
        table.apply(roll, new)
        check_invariants(table.state, total)
        assert json.loads(json.dumps(table.to_json())) == table.to_json()
    lines = [json.dumps(e.to_dict()) for e in table.effective]
    assert replay(parse_event(json.loads(line)) for line in lines).to_json() == table.to_json()


@game_settings
@given(setup=games(), seed=st.binary(min_size=1, max_size=64))
def test_properties_committed_games_always_end(setup, seed):
    table = new_table(*setup)
    total = table.state.total_chips
    for _ in range(5000):
        state = table.state
        if state.over:
            break
        table.apply(Roll(values=draw(seed, state.rolls, table.rulebook.randomizer_now(state))))
        check_invariants(table.state, total)
    assert table.state.over
    assert set(table.state.winners) <= set(range(len(setup[1])))


@game_settings
@given(setup=games(), data=st.data())
def test_properties_x5_values_off_the_randomizer_refused(setup, data):
    table = new_table(*setup)
    dice = table.rulebook.randomizer_now(table.state)
    count = data.draw(st.integers(0, 4))
    values = tuple(data.draw(st.integers(-3, 15)) for _ in range(count))
    valid = count == dice.count and all(1 <= v <= dice.faces for v in values)
    before = table.to_json()
    if valid:
        table.attempt(Roll(values=values))
    else:
        with pytest.raises(Refused):
            table.attempt(Roll(values=values))
    assert table.to_json() == before


@settings(max_examples=200, deadline=None)
@given(seed=st.binary(min_size=1, max_size=64), index=st.integers(0, 2**32),
       count=st.integers(1, 3), faces=st.integers(2, 256))
def test_properties_rollstream_values_fit_the_randomizer(seed, index, count, faces):
    values = draw(seed, index, Randomizer("spinner", count, faces))
    assert len(values) == count and all(1 <= v <= faces for v in values)


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 6), offsets=st.lists(st.integers(0, 5), max_size=60))
def test_properties_lead_order_is_a_permutation(players, offsets):
    for game in ("lifes-mishaps", "cats-and-dogs"):
        table = new_table(game, NAMES[:players])
        for d in offsets + [0] * 60:
            if table.state.phase != "lead":
                break
            table.apply(roll_for(table, (d, 0)))
        order = table.state.order
        assert sorted(order) == list(range(players))
        if game == "lifes-mishaps":                      # X2: to the left of the leader
            assert order == [(order[0] + i) % players for i in range(players)]
        assert table.state.turn == order[0]
