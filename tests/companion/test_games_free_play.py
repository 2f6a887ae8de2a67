"""Free play: a chosen randomizer, points, chips, turns and a declared end."""

from __future__ import annotations

import pytest

from companion.errors import LogError
from companion.replay import replay
from game_support import act, refusal

GAME = "free-play"


def start(players=("Ann", "Ben"), **options):
    return replay([{"type": "new_game", "game": GAME, "players": list(players),
                    "options": options}])


@pytest.mark.parametrize("options, message", [
    ({"randomizer": {"kind": "coin"}}, "unknown randomizer kind 'coin'"),
    ({"randomizer": {"kind": "spinner", "faces": 13}}, "faces must be a whole number from 2"),
    ({"randomizer": {"kind": "dice", "count": 4}}, "count must be 1, 2 or 3"),
    ({"randomizer": {"kind": "dice", "count": True}}, "count must be 1, 2 or 3, not True"),
    ({"randomizer": {"kind": "dice", "sides": 8}}, "'sides' does not fit dice: dice take only "
                                                   "a count"),
    ({"randomizer": "dice"}, "a randomizer is an object"),
    ({"chips": -1}, "option 'chips' must be from 0"),
    ({"chips": "ten"}, "option 'chips' must be a whole number"),
    ({"colour": "red"}, "has no option 'colour'"),
])
def test_free_play_options_are_checked(options, message):
    with pytest.raises(LogError, match=message):
        start(**options)


def test_free_play_randomizer_is_chosen_per_game():
    table = start(randomizer={"kind": "spinner", "faces": 8})
    assert table.to_json()["randomizer"] == {"kind": "spinner", "count": 1, "faces": 8}
    act(table, type="roll", values=[8])             # a die could not show 8
    assert "off a spinner of 8" in refusal(table, type="roll", values=[9])
    other = start(randomizer={"kind": "dice", "count": 2})
    assert "two numbers (such as 3 and 4), not 1" in refusal(other, type="roll", values=[4])


def test_free_play_default_is_one_die_and_lead_by_x2():
    table = start(("Ann", "Ben", "Cy"))
    assert table.state.options["randomizer"] == {"kind": "dice", "count": 1, "faces": 6}
    for value in (2, 5, 3):
        act(table, type="roll", values=[value])
    assert (table.state.phase, table.state.turn, table.state.order) == ("play", 1, [1, 2, 0])


def test_free_play_one_player_and_no_dice_need_no_lead():
    table = start(("Ann",), randomizer={"kind": "indicator"})
    assert (table.state.phase, table.state.awaiting) == ("play", "roll")
    act(table, type="roll", values=[3, 4])
    assert act(table, type="next").turn == 0
    table = start(randomizer={"kind": "none"})
    assert (table.state.phase, table.state.awaiting, table.state.turn) == ("play", "next", 0)
    assert "no throw is asked" in refusal(table, type="roll", values=[1])
    assert act(table, type="next").turn == 1


def test_free_play_turns_points_chips_and_declared_end():
    table = start(("Ann", "Ben"), randomizer={"kind": "indicator"}, chips=5, pool=2)
    act(table, type="roll", values=[6, 6])
    act(table, type="roll", values=[1, 1])
    act(table, type="roll", values=[2, 3])
    assert table.state.awaiting == "next"
    assert "no throw is asked" in refusal(table, type="roll", values=[1, 1])
    act(table, type="press", seat=1)                # any seat scores for itself
    act(table, type="press", seat=0)
    act(table, type="press", seat=1)
    act(table, type="transfer", **{"from": 0, "to": "pool", "amount": 3})
    state = act(table, type="next")
    assert (state.turn, state.awaiting) == (1, "roll")
    state = act(table, type="next")                 # Ben passes without spinning
    assert state.turn == 0 and "Ben passes without a throw" in state.log
    assert [p.score for p in state.players] == [1, 2]
    assert [p.chips for p in state.players] == [2, 5] and state.pool == 5
    state = act(table, type="declare", winners=[1])
    assert (state.phase, state.winners) == ("over", [1])
