"""Reading a game log: parse_event refusals, read_log/replay_lines naming the line at fault,
and what a log must hold (one new_game first, a known game, good names and options)."""

import hashlib
import json

import pytest

from companion.errors import LogError, ParlourError, Refused
from companion.events import Roll, Transfer, parse_event
from companion.replay import read_log, replay, replay_lines

START = {"type": "new_game", "game": "lifes-mishaps", "players": ["Ann", "Ben"]}


def lines(*objs):
    return [json.dumps(o) if not isinstance(o, str) else o for o in objs]


# -- parse_event ----------------------------------------------------------------------------

@pytest.mark.parametrize("obj, words", [
    ({"type": "shuffle"}, 'unknown event type "shuffle"'),
    ({"values": [1]}, "an event needs a 'type'"),
    ([1, 2], "must be a JSON object, not [1, 2]"),
    ("roll", 'must be a JSON object, not "roll"'),
    ({"type": "roll"}, "needs 'values'"),
    ({"type": "roll", "values": 3}, "list of whole numbers"),
    ({"type": "roll", "values": [1, "2"]}, "list of whole numbers"),
    ({"type": "roll", "values": [True]}, "list of whole numbers"),
    ({"type": "roll", "values": [2.0]}, "list of whole numbers"),
    ({"type": "press"}, "needs 'seat'"),
    ({"type": "press", "seat": "1"}, "seat number"),
    ({"type": "press", "seat": False}, "seat number"),
    ({"type": "choose", "value": None}, "whole number"),
    ({"type": "declare", "winners": 0}, "'winners' must be a list"),
    ({"type": "transfer", "from": 0, "to": "pool"}, "needs 'amount'"),
    ({"type": "transfer", "from": 0, "to": "pool", "amount": 0}, "above 0"),
    ({"type": "transfer", "from": 0, "to": "pool", "amount": -2}, "above 0"),
    ({"type": "transfer", "from": "bank", "to": 1, "amount": 2}, "'from' must be a seat"),
    ({"type": "transfer", "from": 0, "to": 1.5, "amount": 2}, "'to' must be a seat"),
    ({"type": "transfer", "from": 0, "to": 1, "amount": 2, "reason": 5}, "reason"),
    ({"type": "new_game", "players": ["Ann"]}, "needs 'game'"),
    ({"type": "new_game", "game": "kat-en-muis"}, "needs 'players'"),
    ({"type": "new_game", "game": 7, "players": []}, "'game' must be a game id"),
    ({"type": "new_game", "game": "x", "players": "Ann, Ben"}, "list of names"),
    ({"type": "new_game", "game": "x", "players": ["Ann", 2]}, "list of names"),
    ({"type": "new_game", "game": "x", "players": [], "options": [1]}, "'options'"),
    ({"type": "new_game", "game": "x", "players": [], "options": []}, "'options'"),
    ({"type": "new_game", "game": "x", "players": [], "options": 0}, "'options'"),
    ({"type": "new_game", "game": "x", "players": [], "options": False}, "'options'"),
    ({"type": "new_game", "game": "x", "players": [], "board": [1]}, "'board'"),
    ({"type": "new_game", "game": "x", "players": [], "seed": 12}, "'seed' must be a hex"),
    ({"type": "undo", "at": 12}, "'at' must be a string"),
    ({"type": "next", "by": ["knob"]}, "'by' must be a string"),
])
def test_events_parse_event_refuses_saying_why(obj, words):
    with pytest.raises(Refused) as caught:
        parse_event(obj)
    assert words in str(caught.value)
    assert isinstance(caught.value, ParlourError) and isinstance(caught.value, ValueError)


def test_events_new_game_options_null_or_missing_mean_none():
    for extra in ({}, {"options": None}):
        event = parse_event({"type": "new_game", "game": "x", "players": ["A"], **extra})
        assert event.options == {}


def test_events_unknown_type_names_the_known_ones():
    with pytest.raises(Refused) as caught:
        parse_event({"type": "shuffle"})
    for kind in ("new_game", "roll", "press", "choose", "next", "declare", "transfer", "undo"):
        assert kind in str(caught.value)


def test_events_transfer_json_names_from_and_to():
    event = parse_event({"type": "transfer", "from": "pool", "to": 1, "amount": 3})
    assert isinstance(event, Transfer)
    assert (event.source, event.target, event.amount) == ("pool", 1, 3)
    assert event.to_dict() == {"type": "transfer", "from": "pool", "to": 1, "amount": 3,
                               "reason": ""}


def test_events_annotations_kept():
    event = parse_event({"type": "roll", "values": [2], "at": "2024-01-01T10:00:00Z",
                         "by": "knob"})
    assert event == Roll(values=(2,), at="2024-01-01T10:00:00Z", by="knob")
    assert event.to_dict()["by"] == "knob"


# -- read_log / replay_lines: line numbers --------------------------------------------------

def test_events_read_log_names_the_line_of_bad_json():
    text = lines(START, '{"type": "roll", "values": [3]}', "", '{"type": "roll", values: [2]}')
    with pytest.raises(LogError) as caught:
        read_log(text)
    assert caught.value.line == 4
    assert str(caught.value).startswith("line 4: not valid JSON")


def test_events_read_log_says_where_json_breaks_off_in_plain_words():
    """Python's "Unterminated string starting at" reads on into the column, never "at at"."""
    with pytest.raises(LogError) as caught:
        read_log(lines(START, '{"type": "roll", "values'))
    assert str(caught.value) == \
        "line 2: not valid JSON (Unterminated string starting at column 18)"


def test_events_read_log_names_the_line_of_an_unknown_type():
    with pytest.raises(LogError) as caught:
        read_log(lines(START, {"type": "roll", "values": [3]}, {"type": "spin"}))
    assert caught.value.line == 3
    assert 'unknown event type "spin"' in str(caught.value)


def test_events_read_log_skips_blank_lines_but_counts_them():
    events = read_log(lines(START, "", "   ", {"type": "roll", "values": [3]}))
    assert [number for number, _ in events] == [1, 4]


def test_events_replay_lines_names_a_refused_event_later_in_the_file():
    # Line 4 is Ann's entry throw; line 6 throws a 7 on a six-sided die.
    text = lines(START, {"type": "roll", "values": [5]}, "", {"type": "roll", "values": [2]},
                 {"type": "roll", "values": [3]}, {"type": "roll", "values": [7]})
    with pytest.raises(LogError) as caught:
        replay_lines(text)
    assert caught.value.line == 6
    assert "7 is off a die" in str(caught.value)


def test_events_replay_lines_plays_a_good_file():
    table = replay_lines(lines(START, {"type": "roll", "values": [5]},
                               {"type": "roll", "values": [2]}, {"type": "roll", "values": [4]}))
    assert table.to_json()["players"][0]["position"] == 4


def test_events_replay_of_dicts_numbers_events_from_one():
    with pytest.raises(LogError) as caught:
        replay([START, {"type": "roll", "values": [5]}, {"type": "roll", "values": [5, 5]}])
    assert caught.value.line == 3


# -- what a log must hold -------------------------------------------------------------------

def test_events_empty_log_refused():
    with pytest.raises(LogError, match="line 1: the log is empty"):
        replay_lines(["", "  "])


def test_events_log_must_start_with_new_game():
    with pytest.raises(LogError, match="line 1: .*must start with a new_game"):
        replay([{"type": "roll", "values": [3]}])


def test_events_second_new_game_refused():
    with pytest.raises(LogError, match="line 3: a game is already under way"):
        replay([START, {"type": "roll", "values": [5]}, START])


def test_events_unknown_game_refused():
    with pytest.raises(LogError, match="unknown game 'ludo'"):
        replay([{"type": "new_game", "game": "ludo", "players": ["Ann", "Ben"]}])


@pytest.mark.parametrize("players, words", [
    (["Ann", "ann"], "same name"),
    (["Ann", " Ann "], "same name"),
    (["Ann", ""], "1 to 24 characters"),
    (["Ann", "   "], "1 to 24 characters"),
    (["Ann", "B" * 25], "1 to 24 characters"),
])
def test_events_bad_player_names_refused(players, words):
    with pytest.raises(LogError, match=words):
        replay([{"type": "new_game", "game": "cats-and-dogs", "players": players}])


@pytest.mark.parametrize("options, words", [
    ({"stake": "5"}, "whole number"),
    ({"stake": True}, "whole number"),
    ({"purse": -1}, "from 0 to"),
    ({"colour": "red"}, "no option 'colour'"),
])
def test_events_bad_options_refused(options, words):
    with pytest.raises(LogError, match=words):
        replay([{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"],
                 "options": options}])


def test_events_game_without_options_refuses_any():
    with pytest.raises(LogError, match="no option 'stake'"):
        replay([{**START, "options": {"stake": 2}}])


def test_events_commitment_and_seed_checked():
    seed = bytes(range(32))
    good = hashlib.sha256(seed).hexdigest()
    state = replay([{**START, "commitment": good, "seed": seed.hex()}]).to_json()
    assert (state["commitment"], state["seed"]) == (good, seed.hex())
    with pytest.raises(LogError, match="does not match the commitment"):
        replay([{**START, "commitment": good, "seed": (b"x" + seed[1:]).hex()}])
    with pytest.raises(LogError, match="64 lowercase hex"):
        replay([{**START, "commitment": good.upper()}])
    with pytest.raises(LogError, match="seed must be hex"):
        replay([{**START, "seed": "zz"}])


def test_events_transfer_between_the_same_account_or_a_missing_seat_refused():
    base = [{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]}]
    with pytest.raises(LogError, match="two different accounts"):
        replay(base + [{"type": "transfer", "from": 0, "to": 0, "amount": 1}])
    with pytest.raises(LogError, match="no seat 3"):
        replay(base + [{"type": "transfer", "from": 2, "to": "pool", "amount": 1}])


def test_events_transfer_moves_chips_and_logs_the_reason():
    base = [{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]}]
    state = replay(base + [{"type": "transfer", "from": "pool", "to": 1, "amount": 3,
                            "reason": "miscounted stake"}]).to_json()
    assert [p["chips"] for p in state["players"]] == [15, 18] and state["pool"] == 7
    assert "miscounted stake" in state["log"][-1]
