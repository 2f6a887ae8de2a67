"""The event vocabulary of the game log, as typed objects with JSON in and out.

A log line is one JSON object with a `type`. Every event may carry `at` (ISO time) and `by`
(which input made it); these are kept but never change what the event means.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar

from companion.checks import is_whole
from companion.errors import Refused
from companion.words import shown_value

ANNOTATIONS = ("at", "by")
PI_LEVELS = ("easy", "good", "best")    # how hard the Pi plays
DEFAULT_PI_LEVEL = "good"
MAX_PATH = 33                    # a path visits each point of a board at most once
BY_SCRIPT = "api"                # the `by` of a call with the PIN in a header, not a page


@dataclass(frozen=True)
class Event:
    """Base: the annotations every event may carry."""

    type: ClassVar[str] = ""
    at: str | None = field(default=None, kw_only=True)
    by: str | None = field(default=None, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            if f.name not in ANNOTATIONS:
                value = getattr(self, f.name)
                out[_json_name(f.name)] = list(value) if isinstance(value, tuple) else value
        for name in ANNOTATIONS:
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out


@dataclass(frozen=True)
class NewGame(Event):
    type: ClassVar[str] = "new_game"
    game: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    board: dict[str, Any] | None = None
    commitment: str | None = None
    seed: str | None = None
    buttons: tuple[int, ...] | None = None      # each player's seat button, 1..6 (X12)
    pi: tuple[int, ...] = ()                     # seats the Pi plays (its moves: "by": "pi")
    pi_level: str | None = None                  # how hard it plays: PI_LEVELS

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for key in ("board", "commitment", "seed", "buttons"):
            if out.get(key) is None:
                out.pop(key, None)
        for key in ("pi", "pi_level"):
            if not out.get(key):
                out.pop(key, None)
        return out


@dataclass(frozen=True)
class Roll(Event):
    type: ClassVar[str] = "roll"
    values: tuple[int, ...]


@dataclass(frozen=True)
class Press(Event):
    type: ClassVar[str] = "press"
    seat: int


@dataclass(frozen=True)
class Choose(Event):
    type: ClassVar[str] = "choose"
    value: int


@dataclass(frozen=True)
class Next(Event):
    type: ClassVar[str] = "next"


@dataclass(frozen=True)
class Declare(Event):
    type: ClassVar[str] = "declare"
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Transfer(Event):
    type: ClassVar[str] = "transfer"
    source: int | str
    target: int | str
    amount: int
    reason: str = ""


@dataclass(frozen=True)
class Rename(Event):
    """A player's name corrected (players who joined on the device start as "Player n")."""

    type: ClassVar[str] = "rename"
    seat: int
    name: str


@dataclass(frozen=True)
class Move(Event):
    """A piece moved on a board the companion knows: its path of point names."""

    type: ClassVar[str] = "move"
    path: tuple[str, ...]


@dataclass(frozen=True)
class Undo(Event):
    type: ClassVar[str] = "undo"


CORRECTIONS = ("transfer", "rename")    # no one's move: the game's play stands where it was

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (NewGame, Roll, Press, Choose, Next, Declare, Transfer, Rename,
                              Undo, Move)
}
_JSON_NAMES = {"source": "from", "target": "to"}


def _json_name(name: str) -> str:
    return _JSON_NAMES.get(name, name)


def _account(value: Any, what: str) -> int | str:
    if is_whole(value) or value == "pool":
        return value
    raise Refused(f"transfer '{what}' must be a seat number or \"pool\", not {shown_value(value)}")


def _int_list(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(is_whole(v) for v in value):
        raise Refused(f"{what} must be a list of whole numbers, not {shown_value(value)}")
    return tuple(value)


def _require(obj: dict, key: str, kind: str) -> Any:
    if key not in obj:
        raise Refused(f"a {kind} event needs '{key}'")
    return obj[key]


def _check_time(at: str) -> None:
    """An event's `at` is an ISO 8601 time ("2026-11-01T19:08:30Z"): a clock's reading the
    game may count (Fox and Geese's thinking time), so "garbage" is refused, not read as 0."""
    try:
        datetime.fromisoformat(at)
    except ValueError:
        raise Refused(f"'at' must be an ISO 8601 time such as \"2026-11-01T19:08:30Z\", "
                      f"not {shown_value(at)}") from None


def parse_event(obj: Any) -> Event:
    """Turn one decoded JSON object into an event, or refuse it saying why."""
    if not isinstance(obj, dict):
        raise Refused(f"an event must be a JSON object, not {shown_value(obj)}")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        known = ", ".join(EVENT_TYPES)
        if "type" not in obj:
            raise Refused(f"an event needs a 'type' (known: {known})")
        raise Refused(f"unknown event type {shown_value(kind)} (known: {known})")
    notes = {}
    for key in ANNOTATIONS:
        if obj.get(key) is not None:
            if not isinstance(obj[key], str):
                raise Refused(f"'{key}' must be a string")
            notes[key] = obj[key]
    if "at" in notes:
        _check_time(notes["at"])
    if kind == "new_game":
        game = _require(obj, "game", kind)
        players = _require(obj, "players", kind)
        options = obj.get("options")
        options = {} if options is None else options   # [] or 0 is a bad option, not none
        board = obj.get("board")
        if not isinstance(game, str):
            raise Refused("'game' must be a game id such as \"kat-en-muis\"")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise Refused("'players' must be a list of names")
        if not isinstance(options, dict):
            raise Refused("'options' must be an object")
        if board is not None and not isinstance(board, dict):
            raise Refused("'board' must be an object of board data")
        for key in ("commitment", "seed"):
            if obj.get(key) is not None and not isinstance(obj[key], str):
                raise Refused(f"'{key}' must be a hex string")
        buttons = obj.get("buttons")
        if buttons is not None:
            buttons = _int_list(buttons, "'buttons'")
        pi = _int_list(obj.get("pi", []), "'pi' (the seats the Pi plays)")
        level = obj.get("pi_level")
        if level is not None and level not in PI_LEVELS:
            raise Refused(f"'pi_level' must be one of {', '.join(PI_LEVELS)}, "
                          f"not {shown_value(level)}")
        if level is not None and not pi:
            raise Refused("'pi_level' needs 'pi': the seats the Pi plays")
        return NewGame(game=game, players=tuple(players), options=dict(options), board=board,
                       commitment=obj.get("commitment"), seed=obj.get("seed"), buttons=buttons,
                       pi=pi, pi_level=level, **notes)
    if kind == "roll":
        return Roll(values=_int_list(_require(obj, "values", kind), "a roll's 'values'"), **notes)
    if kind == "press":
        seat = _require(obj, "seat", kind)
        if not is_whole(seat):
            raise Refused(f"a press's 'seat' must be a seat number, not {shown_value(seat)}")
        return Press(seat=seat, **notes)
    if kind == "choose":
        value = _require(obj, "value", kind)
        if not is_whole(value):
            raise Refused(f"a choice's 'value' must be a whole number, not {shown_value(value)}")
        return Choose(value=value, **notes)
    if kind == "declare":
        return Declare(winners=_int_list(_require(obj, "winners", kind), "'winners'"), **notes)
    if kind == "transfer":
        amount = _require(obj, "amount", kind)
        if not is_whole(amount) or amount <= 0:
            raise Refused("a transfer's 'amount' must be a whole number above 0, "
                          f"not {shown_value(amount)}")
        reason = obj.get("reason", "")
        if not isinstance(reason, str):
            raise Refused("a transfer's 'reason' must be text")
        return Transfer(source=_account(_require(obj, "from", kind), "from"),
                        target=_account(_require(obj, "to", kind), "to"),
                        amount=amount, reason=reason, **notes)
    if kind == "rename":
        seat, name = _require(obj, "seat", kind), _require(obj, "name", kind)
        if not is_whole(seat):
            raise Refused(f"a rename's 'seat' must be a seat number, not {shown_value(seat)}")
        if not isinstance(name, str):
            raise Refused("a rename's 'name' must be text")
        return Rename(seat=seat, name=name, **notes)
    if kind == "move":
        path = _require(obj, "path", kind)
        if not isinstance(path, list) or not 2 <= len(path) <= MAX_PATH or \
                not all(isinstance(p, str) and len(p) <= 8 for p in path):
            raise Refused(f"a move's 'path' must be a list of 2 to {MAX_PATH} point names such "
                          f"as [\"d3\", \"d5\"]")
        return Move(path=tuple(path), **notes)
    return EVENT_TYPES[kind](**notes)
