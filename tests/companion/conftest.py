"""Fixtures for the rules core: tables started from events, and scenario states.

A scenario test sets a position on a copy of a started game's state and applies one roll with
the pure `advance`, so each ruling is checked from exactly the squares it talks about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from companion.events import NewGame, Roll
from companion.games import get_rulebook
from companion.replay import Table, advance
from companion.state import State

# Lead throws that settle each game's order as [0, 1, ...] at once (seat 0 highest).
KAT_LEAD = [(6, 6), (1, 1)]


@pytest.fixture
def start() -> Callable[..., Table]:
    """start(game, players, lead=[...], options=..., board=...): a table after new_game and
    the given lead throws."""

    def start(game: str, players: Iterable[str] = ("Ann", "Ben"), *,
              lead: Iterable[Iterable[int]] = (), options: dict | None = None,
              board: dict | None = None) -> Table:
        table = Table()
        table.apply(NewGame(game=game, players=tuple(players), options=options or {},
                            board=board))
        for values in lead:
            table.apply(Roll(values=tuple(values)))
        return table

    return start


@pytest.fixture
def kat(start) -> Table:
    """Kat en Muis in play: Ann (seat 0) is Cat, Ben Mouse; 15 chips each, 10 in the pots."""
    return start("kat-en-muis", lead=KAT_LEAD)


@pytest.fixture
def throw() -> Callable[..., State]:
    """throw(state, *values): the state after that roll, applied purely to a given state."""

    def throw(state: State, *values: int) -> State:
        return advance(get_rulebook(state.game), state, Roll(values=tuple(values)))

    return throw


@pytest.fixture
def placed() -> Callable[..., State]:
    """placed(state, {seat: square}, turn=seat): a copy of state with counters set."""

    def placed(state: State, positions: dict[int, int | None], *,
               turn: int | None = None) -> State:
        new = state.copy()
        for seat, square in positions.items():
            new.players[seat].position = square
        if turn is not None:
            new.turn = turn
        return new

    return placed
