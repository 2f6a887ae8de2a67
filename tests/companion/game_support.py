"""Shared by the game tests: start a game with its lead throws, act, and read a refusal."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from companion.errors import Refused
from companion.events import parse_event
from companion.replay import Table, replay


def act(table: Table, **event):
    """Apply one event given as keyword fields: act(table, type="roll", values=[3, 4])."""
    return table.apply(parse_event(event))


def refusal(table: Table, **event) -> str:
    """The reason an event is refused (the test fails if it is accepted)."""
    with pytest.raises(Refused) as err:
        table.attempt(parse_event(event))
    return str(err.value)


def start_game(game: str, players: Iterable[str] = ("Ann", "Ben"), leads: Iterable = (),
               **fields) -> Table:
    """A new game (extra new_game fields such as board or options) and its lead throws; a
    lead throw is a value list, or one number for a one-value randomizer."""
    table = replay([{"type": "new_game", "game": game, "players": list(players), **fields}])
    for values in leads:
        act(table, type="roll", values=list(values) if isinstance(values, (list, tuple))
            else [values])
    return table
