"""The game in pictures: each step's chips and chances, for the charts on the phone.

A step is the state after one event in effect (step 0: the new game). Chips come from the
states themselves; chances from what was worked out (`chances`, step -> each seat's chance),
None where not (yet) known.
"""

from __future__ import annotations

from typing import Any

from companion.replay import Table
from companion.state import State


def chart(table: Table | None, chances: dict[int, list[float]]) -> dict[str, Any]:
    """`{"chips": [[...] per step], "win": [[...] | None per step]}` for the charts."""
    if table is None or not table.started:
        return {"chips": [], "win": []}
    return chart_of(table.states, chances)


def chart_of(states: list[State], chances: dict[int, list[float]]) -> dict[str, Any]:
    uses_chips = any(s.total_chips for s in states)
    return {"chips": [[p.chips for p in s.players] for s in states] if uses_chips else [],
            "win": [_rounded(chances.get(step)) for step in range(len(states))]}


def _rounded(win: list[float] | None) -> list[float] | None:
    return None if win is None else [round(p, 4) for p in win]
