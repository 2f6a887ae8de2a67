"""Turn order: lead spin-offs (X2, C1), passing the turn, lost turns (X7).

A lead round: the seats of the first unsettled group throw once each, in seat order; the group
then splits by total, best first.

    mode "highest" (X2):  [all]  -> throws -> keep only the top group -> ... -> one seat leads;
                          play goes to the left (seat + 1) from the leader.
    mode "ranking" (C1):  [all]  -> throws -> [[5s], [3s], [1]] -> settle [5s], then [3s] ...
                          until every group has one seat; play follows that ranking.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.state import Lead, State
from companion.words import listing


def start_lead(mode: str, seats: int) -> Lead:
    everyone = list(range(seats))
    return Lead(mode, [everyone], list(everyone))


def _names(state: State, seats: list[int]) -> str:
    return listing([state.name(s) for s in seats])


def lead_throw(state: State, total: int, again: str = "throw") -> list[int] | None:
    """Record the awaited seat's lead throw. Returns the play order once the lead is settled.
    A tie says what the tied players do next in the randomizer's word (`again`: "spin")."""
    lead = state.lead
    assert lead is not None
    seat = lead.pending.pop(0)
    lead.throws[seat] = total
    if lead.pending:
        return None
    index = next(i for i, g in enumerate(lead.groups) if len(g) > 1)
    group = lead.groups[index]
    totals = sorted({lead.throws[s] for s in group}, reverse=True)
    split = [[s for s in group if lead.throws[s] == t] for t in totals]
    if lead.mode == "highest":
        split = split[:1]
    lead.groups[index:index + 1] = split
    for tied in split:
        if len(tied) > 1:
            state.say(f"{_names(state, tied)} tie on {lead.throws[tied[0]]} and {again} again")
    lead.throws = {}
    unsettled = next((g for g in lead.groups if len(g) > 1), None)
    if unsettled is not None:
        lead.pending = list(unsettled)
        return None
    if lead.mode == "highest":
        leader = lead.groups[0][0]
        n = len(state.players)
        return [(leader + i) % n for i in range(n)]
    return [g[0] for g in lead.groups]


def next_seat(state: State, skip: Callable[[State, int], bool] | None = None) -> int | None:
    """The seat after `state.turn` in play order, spending lost turns on the way (X7).

    `skip(state, seat)` marks seats that cannot play at all (Domino Rex's D3). None when no
    seat can play."""
    order = state.order
    i = order.index(state.turn)
    for _ in range(len(order) * (1 + max(p.lost_turns for p in state.players)) + 1):
        i = (i + 1) % len(order)
        seat = order[i]
        if skip is not None and skip(state, seat):
            continue
        player = state.players[seat]
        if player.lost_turns:
            player.lost_turns -= 1
            state.say(f"{player.name} loses this turn")
            continue
        return seat
    return None
