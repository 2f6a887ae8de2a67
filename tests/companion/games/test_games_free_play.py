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
    ({"randomizer": {"kind": "coin"}}, 'unknown randomizer kind "coin"'),
    ({"randomizer": {"kind": [1]}}, "unknown randomizer kind"),      # was a TypeError: a 500
    ({"randomizer": {"kind": {"a": 1}}}, "unknown randomizer kind"),
    ({"randomizer": {"kind": "spinner", "faces": 13}}, "faces must be a whole number from 2"),
    ({"randomizer": {"kind": "dice", "count": 4}}, "count must be 1, 2 or 3"),
    ({"randomizer": {"kind": "dice", "count": True}}, "count must be 1, 2 or 3, not true"),
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


@pytest.mark.parametrize("randomizer, message", [
    ({"kind": "dice", "faces": 20}, "'faces' does not fit dice: dice have six faces; for other "
                                    "numbers choose a spinner of 2 to 12"),
    ({"kind": "dice", "count": 1, "faces": 8}, "'faces' does not fit dice"),
    ({"kind": "indicator", "faces": 8}, "'faces' does not fit the Indicator: its two arrows "
                                        "always point to 1 to 6"),
    ({"kind": "indicator", "count": 3}, "'count' does not fit the Indicator"),
    ({"kind": "spinner", "faces": 6, "count": 2}, "'count' does not fit a spinner: a spinner "
                                                  "shows one number"),
    ({"kind": "spinner", "faces": 6, "count": True}, "'count' does not fit a spinner"),
    ({"kind": "none", "count": 1}, "'count' does not fit playing without a randomizer"),
])
def test_free_play_randomizer_field_that_does_not_fit_its_kind_refused(randomizer, message):
    with pytest.raises(LogError) as caught:
        start(randomizer=randomizer)
    assert f"option 'randomizer': {message}" in str(caught.value)


def test_free_play_randomizer_fields_the_kind_always_has_are_accepted():
    for randomizer in ({"kind": "dice", "count": 2, "faces": 6},
                       {"kind": "indicator", "count": 2, "faces": 6},
                       {"kind": "spinner", "count": 1, "faces": 8}):
        table = start(randomizer=randomizer)        # the state JSON's own form reads back
        assert table.to_json()["randomizer"] == randomizer


def test_free_play_chips_and_pool_options_let_corrections_move_chips():
    table = start(("Ann", "Ben"), randomizer={"kind": "none"}, chips=10, pool=4)
    assert [p.chips for p in table.state.players] == [10, 10] and table.state.pool == 4
    state = act(table, type="transfer", **{"from": "pool", "to": 1, "amount": 4,
                                           "reason": "Ben's jackpot"})
    assert (state.pool, state.players[1].chips) == (0, 14)
    assert state.log[-1] == "Ben takes 4 chips from the pool (correction: Ben's jackpot)"
    assert refusal(table, type="transfer", **{"from": "pool", "to": 0, "amount": 1}) == \
        "the pool holds no chips: a correction cannot move 1"                   # X9


def test_free_play_default_table_has_no_chips_to_correct():
    table = start(randomizer={"kind": "none"})
    assert refusal(table, type="transfer", **{"from": 0, "to": 1, "amount": 1}) == \
        "Ann holds no chips: a correction cannot move 1"                        # X9


def test_free_play_board_data_refused():
    with pytest.raises(LogError, match="board data: Free play has no board data, so it takes "
                                       "no 'squares'"):
        replay([{"type": "new_game", "game": GAME, "players": ["Ann"],
                 "board": {"squares": 40}}])


def test_free_play_throw_words_name_the_values():
    table = start(("Ann",), randomizer={"kind": "dice", "count": 2})
    state = act(table, type="roll", values=[3, 4])
    assert state.log[-1] == "Ann throws 3 and 4 (7)"
    table = start(("Ann",), randomizer={"kind": "spinner", "faces": 8})
    assert act(table, type="roll", values=[6]).log[-1] == "Ann spins 6"
