"""The state of a game: what `replay` folds events into and what the state JSON shows."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any


_ATOMS = (str, int, float, bool, type(None))


class Lines(Sequence[str]):
    """A game's log as one state sees it: the first `n` lines of a list it shares with the
    states before and after it, so copying a state costs nothing and a game of n events keeps
    n lines, not n²/2 (a 10,000-event game held ~400 MiB of list slots). Adding a line where
    the list has already grown past this state (after an undo) first takes its own copy."""

    __slots__ = ("_shared", "_n")

    def __init__(self, lines: Iterable[str] = ()):
        self._shared = list(lines)
        self._n = len(self._shared)

    def fork(self) -> "Lines":
        other = Lines.__new__(Lines)
        other._shared, other._n = self._shared, self._n
        return other

    def _own(self) -> list[str]:
        if len(self._shared) != self._n:
            self._shared = self._shared[:self._n]
        return self._shared

    def append(self, line: str) -> None:
        self._own().append(line)
        self._n += 1

    def clear(self) -> None:
        self._shared, self._n = [], 0

    def __setitem__(self, index: int, line: str) -> None:
        self._shared = self._shared[:self._n]   # a line changed: this state's own copy
        self._shared[index] = line

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._shared[slice(*index.indices(self._n))]
        if index < 0:
            index += self._n
        if not 0 <= index < self._n:
            raise IndexError("log index out of range")
        return self._shared[index]

    def __iter__(self) -> Iterator[str]:
        return islice(self._shared, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Lines, list, tuple)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"Lines({list(self)!r})"


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, strings, numbers): what copy.deepcopy
    gives for it, several times faster; anything else is handed to copy.deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_data(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else copy_data(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


@dataclass
class Player:
    """One seat at the table. `position` is in the player's own numbering; None is off the board."""

    name: str
    seat: int
    role: str | None = None
    position: int | None = None
    chips: int = 0
    score: int = 0
    lost_turns: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    button: int | None = None        # the box's seat button, 1..6 (X12)

    def copy(self) -> "Player":
        return Player(self.name, self.seat, self.role, self.position, self.chips, self.score,
                      self.lost_turns, copy_data(self.extra) if self.extra else {}, self.button)

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "seat": self.seat, "role": self.role,
               "position": self.position, "chips": self.chips, "score": self.score,
               "lost_turns": self.lost_turns, "button": self.button}
        out.update(self.extra)
        return out


@dataclass
class Lead:
    """A lead spin-off in progress. `groups` are tied seats in rank order, best first.

    mode "highest" (X2) settles only who is highest; mode "ranking" (C1) settles every place.
    `pending` are the seats still to throw in this round, in seat order; `throws` their totals.
    """

    mode: str
    groups: list[list[int]]
    pending: list[int]
    throws: dict[int, int] = field(default_factory=dict)

    def copy(self) -> "Lead":
        return Lead(self.mode, [list(g) for g in self.groups], list(self.pending),
                    dict(self.throws))


@dataclass
class State:
    """A game at one moment. Game-specific fields live in `data` (JSON-able, private) and
    in each player's `extra` (shown)."""

    game: str
    players: list[Player]
    options: dict[str, Any]
    board: dict[str, Any]
    phase: str = "lead"
    turn: int | None = 0
    awaiting: str | None = "roll"
    pool: int = 0
    winners: list[int] = field(default_factory=list)
    log: Lines = field(default_factory=Lines)
    order: list[int] = field(default_factory=list)
    lead: Lead | None = None
    last_roll: dict[str, Any] | None = None
    rolls: int = 0
    commitment: str | None = None
    seed: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> "State":
        return State(
            self.game, [p.copy() for p in self.players], self.options, self.board,
            self.phase, self.turn, self.awaiting, self.pool, list(self.winners),
            self.log.fork() if isinstance(self.log, Lines) else Lines(self.log),
            list(self.order), self.lead.copy() if self.lead else None, self.last_roll,
            self.rolls, self.commitment, self.seed, copy_data(self.data))

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def say(self, line: str) -> None:
        self.log.append(line)

    @property
    def total_chips(self) -> int:
        return self.pool + sum(p.chips for p in self.players)

    @property
    def over(self) -> bool:
        return self.phase == "over"


def row_order(state: dict[str, Any]) -> list[int]:
    """The seats of a state JSON as the screens list them: in seat order, or in the order of
    play where that is not seat order turning round from the leader (Cats and Dogs ranks its
    lead: C1). web/static/status.js's rowOrder is the same."""
    n = len(state.get("players") or [])
    order = list(state.get("order") or [])
    if sorted(order) != list(range(n)) or order == [(order[0] + k) % n for k in range(n)]:
        return list(range(n))
    return order
