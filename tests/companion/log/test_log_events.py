"""The event vocabulary: JSON in, typed events, JSON out; bad objects refused saying why."""

import json

import pytest

from companion.errors import ParlourError, Refused
from companion.events import (Choose, Declare, NewGame, Next, Press, Roll, Transfer, Undo,
                              parse_event)

LINES = [
    {"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"],
     "options": {"stake": 5}},
    {"type": "new_game", "game": "cats-and-dogs", "players": ["Ann", "Ben"], "options": {},
     "board": {"track_length": 40}, "commitment": "ab" * 32, "seed": "cd" * 32},
    {"type": "roll", "values": [3, 4]},
    {"type": "press", "seat": 1},
    {"type": "choose", "value": 6},
    {"type": "next"},
    {"type": "declare", "winners": [0]},
    {"type": "transfer", "from": 0, "to": "pool", "amount": 2, "reason": "miscount"},
    {"type": "undo"},
    {"type": "roll", "values": [6], "at": "2024-05-01T20:00:00+00:00", "by": "knob"},
]


@pytest.mark.parametrize("line", LINES, ids=lambda line: line["type"])
def test_events_round_trip_through_json(line):
    event = parse_event(json.loads(json.dumps(line)))
    assert event.to_dict() == line
    assert parse_event(event.to_dict()) == event


def test_events_parse_to_their_types():
    kinds = [type(parse_event(line)) for line in LINES]
    assert kinds == [NewGame, NewGame, Roll, Press, Choose, Next, Declare, Transfer, Undo, Roll]


def test_events_transfer_uses_from_and_to_in_json():
    event = parse_event({"type": "transfer", "from": "pool", "to": 1, "amount": 3})
    assert (event.source, event.target, event.amount, event.reason) == ("pool", 1, 3, "")
    assert event.to_dict() == {"type": "transfer", "from": "pool", "to": 1, "amount": 3,
                               "reason": ""}


def test_events_annotations_do_not_change_meaning():
    plain = parse_event({"type": "press", "seat": 0})
    noted = parse_event({"type": "press", "seat": 0, "at": "2024-01-01T00:00:00Z", "by": "seat"})
    assert (noted.at, noted.by) == ("2024-01-01T00:00:00Z", "seat")
    assert noted.seat == plain.seat and noted.type == plain.type


def test_events_new_game_without_extras_omits_them():
    out = NewGame(game="kat-en-muis", players=("Ann", "Ben")).to_dict()
    assert out == {"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"],
                   "options": {}}


def test_events_unknown_type_lists_the_known_ones():
    with pytest.raises(Refused) as err:
        parse_event({"type": "spin"})
    assert 'unknown event type "spin"' in str(err.value)
    for kind in ("new_game", "roll", "press", "choose", "next", "declare", "transfer", "undo"):
        assert kind in str(err.value)


@pytest.mark.parametrize("obj, words", [
    ({"type": "roll", "values": [True, 5]}, "not [true, 5]"),
    ({"type": "roll", "values": [float("nan"), 5]}, "not [NaN, 5]"),
    ({"type": "press", "seat": None}, "not null"),
    ({"type": "choose", "value": "3"}, 'not "3"'),
    ({"values": [3]}, "an event needs a 'type'"),
    ({"type": None}, "unknown event type null"),
    (["roll"], 'not ["roll"]'),
    ({"type": "roll", "values": ["x"] * 100}, "…"),
    ({"type": "roll", "values": ["a\u2028b\u202ec\u0085d\ud800"]},
     '["a\\u2028b\\u202ec\\u0085d\\ud800"]'),                  # one line, no live override
])
def test_events_refusals_show_values_as_the_log_writes_them(obj, words):
    """A log is JSON: a refusal quotes its values as JSON does (true, null, "3"), never as
    Python would (True, None, '3'), and a long one is cut short."""
    with pytest.raises(Refused) as err:
        parse_event(obj)
    message = str(err.value)
    assert words in message and len(message) < 200 and len(message.splitlines()) == 1
    assert all(c.isprintable() for c in message)
    for python in ("True", "None", "'3'", "nan,"):
        assert python not in message


@pytest.mark.parametrize("obj, words", [
    ([1, 2], r"must be a JSON object, not \[1, 2\]"),
    ("roll", 'must be a JSON object, not "roll"'),
    ({}, "an event needs a 'type'"),
    ({"type": "roll"}, "a roll event needs 'values'"),
    ({"type": "roll", "values": 3}, "list of whole numbers"),
    ({"type": "roll", "values": [3, "4"]}, "list of whole numbers"),
    ({"type": "roll", "values": [True, 1]}, "list of whole numbers"),
    ({"type": "roll", "values": [3.0]}, "list of whole numbers"),
    ({"type": "press"}, "needs 'seat'"),
    ({"type": "press", "seat": "1"}, "seat number"),
    ({"type": "press", "seat": False}, "seat number"),
    ({"type": "choose", "value": None}, "whole number"),
    ({"type": "declare", "winners": 0}, "'winners' must be a list"),
    ({"type": "transfer", "from": 0, "to": 1, "amount": 0}, "above 0"),
    ({"type": "transfer", "from": 0, "to": 1, "amount": -2}, "above 0"),
    ({"type": "transfer", "from": 0, "to": 1, "amount": True}, "above 0"),
    ({"type": "transfer", "from": 0, "to": 1}, "needs 'amount'"),
    ({"type": "transfer", "from": "bank", "to": 1, "amount": 1}, "'from' must be a seat"),
    ({"type": "transfer", "from": 0, "to": [1], "amount": 1}, "'to' must be a seat"),
    ({"type": "transfer", "from": 0, "to": 1, "amount": 1, "reason": 5}, "reason"),
    ({"type": "new_game", "players": ["Ann"]}, "needs 'game'"),
    ({"type": "new_game", "game": 3, "players": ["Ann"]}, "game id"),
    ({"type": "new_game", "game": "x", "players": "Ann, Ben"}, "list of names"),
    ({"type": "new_game", "game": "x", "players": ["Ann", 2]}, "list of names"),
    ({"type": "new_game", "game": "x", "players": [], "options": [1]}, "'options' must be"),
    ({"type": "new_game", "game": "x", "players": [], "board": "big"}, "'board' must be"),
    ({"type": "new_game", "game": "x", "players": [], "seed": 12}, "'seed' must be"),
    ({"type": "next", "at": 1700000000}, "'at' must be a string"),
    ({"type": "next", "by": ["knob"]}, "'by' must be a string"),
])
def test_events_bad_object_refused_saying_why(obj, words):
    with pytest.raises(Refused, match=words):
        parse_event(obj)


def test_events_refusal_is_a_parlour_value_error():
    with pytest.raises(ParlourError):
        parse_event({"type": "press", "seat": "x"})
    with pytest.raises(ValueError):
        parse_event({"type": "press", "seat": "x"})


def test_events_are_immutable():
    event = Press(seat=1)
    with pytest.raises(AttributeError):
        event.seat = 2
