"""Exact chances in Kat en Muis, from the rulebook's own moves.

The winner is whoever reaches 66 first (K8); the other counter changes only chips (K6), never
where a counter goes or whose turn it is. So each player is a Markov chain of their own:

1. `turn_table`: for every square, apply the real `on_roll` to a copy of a small state for each
   throw and read off where the counter ends, whether it must throw again (K7), lose its next
   turn (K7) or has won. A turn's throws-again are followed within the turn (they only move
   forward), so a turn ends on (square, lost turn) or a win.
2. Turns alternate, mover first; a lost turn is a turn slot spent (X7). `finish_by[k][s, lost]`
   is the chance of having won within k of one's own turn slots, found backwards for every
   start at once, so the bounce to 48 (K5) and double six before 55 (K4), which make cycles,
   need no recursion. Value iteration over slots runs until the undecided chance of every
   square shrinks by one common factor per slot (the slowest mode alone is left, to 1e-12);
   from there on it is a geometric tail, summed until below 1e-13.
3. The mover wins iff its finishing slot k comes no later than the other's:
   P = sum_k P(mover finishes at k) * P(other not finished by k - 1).

Everything is cached: the table per rulebook, each position's chances in an LRU. During the
lead, the last throw of a round is applied by the real rules (`_lead_odds`).
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter, mul
from typing import Any

from companion.rulebook import Rulebook
from companion.state import Player, State

TOLERANCE = 1e-13           # undecided chance below this is dropped
SETTLED = 1e-12             # ratios this close: the rest of the way is geometric
MAX_SLOTS = 5_000


def _throws(faces: int) -> list[tuple[tuple[int, int], float]]:
    """The 21 unordered throws of two dice with their chances (the rules read only the total
    and whether it is a double; test_odds checks that the order never matters)."""
    return [((a, b), (1 if a == b else 2) / faces ** 2)
            for a in range(1, faces + 1) for b in range(a, faces + 1)]


def _one_throw(rulebook: Rulebook, square: int, values: tuple[int, int]) -> tuple[str, int, int]:
    """Apply the real rules to one throw from `square`: ("win"|"again"|"pass", square, lost)."""
    state = State(game=rulebook.id, players=[Player("a", 0, position=square or None),
                                             Player("b", 1)],
                  options={"purse": 0, "stake": 0}, board={}, phase="play", turn=0,
                  awaiting="roll", order=[0, 1])
    rulebook.on_roll(state, values)
    mover = state.players[0]
    if state.over:
        return "win", 0, 0
    how = "again" if state.turn == 0 else "pass"
    return how, mover.position or 0, mover.lost_turns


@lru_cache(maxsize=4)
def turn_table(rulebook: Rulebook) -> tuple[tuple[float, ...], tuple[tuple, ...]]:
    """Per start square: (chance to win within this turn, ((square, lost, chance), ...))."""
    goal = 66
    throws = _throws(rulebook.randomizer.faces)
    wins = [0.0] * goal
    ends: list[dict[tuple[int, int], float]] = [{} for _ in range(goal)]
    for square in range(goal - 1, -1, -1):      # throws-again move forward: done already
        for values, chance in throws:
            how, end, lost = _one_throw(rulebook, square, values)
            if how == "win":
                wins[square] += chance
            elif how == "again":
                wins[square] += chance * wins[end]
                for key, p in ends[end].items():
                    ends[square][key] = ends[square].get(key, 0.0) + chance * p
            else:
                ends[square][(end, lost)] = ends[square].get((end, lost), 0.0) + chance
    return tuple(wins), tuple(tuple((s, lost, p) for (s, lost), p in e.items()) for e in ends)


@lru_cache(maxsize=4)
def finish_by(rulebook: Rulebook) -> list[list[float]]:
    """finish_by[k][square]: the chance of having won within k own turn slots from `square`
    (a lost turn to sit out first is one slot less: finish_by[k - 1])."""
    wins, ends = turn_table(rulebook)
    goal = len(wins)
    plain, sitting = [], []               # per square: where a turn ends, without/with X7
    for square in range(goal):
        for lost, into in ((0, plain), (1, sitting)):
            step = [(s, p) for s, how, p in ends[square] if min(how, 1) == lost]
            into.append((_getter([s for s, _ in step]), [p for _, p in step]))
    rows = [[0.0] * goal, [0.0] * goal]   # rows[0] stands for "slot -1": nothing yet
    for _ in range(MAX_SLOTS):
        last, before = rows[-1], rows[-2]
        row = [wins[s] + sum(map(mul, plain[s][1], plain[s][0](last)))
               + sum(map(mul, sitting[s][1], sitting[s][0](before))) for s in range(goal)]
        rows.append(row)
        if _settled(last, row):
            break
    return rows[1:]


def _settled(last: list[float], row: list[float]) -> bool:
    """True once every square's undecided chance shrinks by the same factor each slot (the
    chain's slowest mode alone is left: the rest of the way is geometric), or is gone."""
    ratios = [(1.0 - b) / (1.0 - a) for a, b in zip(last, row) if 1.0 - a > TOLERANCE]
    return not ratios or max(ratios) - min(ratios) < SETTLED


def _getter(indexes: list[int]):
    """A function giving those items of a list, as a tuple (operator.itemgetter, any length)."""
    if not indexes:
        return lambda row: ()
    if len(indexes) == 1:
        i = indexes[0]
        return lambda row: (row[i],)
    return itemgetter(*indexes)


@lru_cache(maxsize=20_000)
def mover_wins(rulebook: Rulebook, mover: int, other: int, mover_lost: int,
               other_lost: int) -> float:
    """The chance that the player to throw now wins (both squares in own numbering)."""
    rows = finish_by(rulebook)
    last = len(rows) - 1
    fade = _fade(rows)

    def undecided(k: int, square: int, lost: int) -> float:
        """Not yet won within k slots, sitting out `lost` of them first."""
        k -= lost
        if k <= 0:
            return 1.0
        if k <= last:
            return 1.0 - rows[k][square]
        return (1.0 - rows[last][square]) * fade ** (k - last)

    total, k = 0.0, 1
    while k < MAX_SLOTS:
        before = undecided(k - 1, mover, mover_lost)
        if before < TOLERANCE:
            break
        total += (before - undecided(k, mover, mover_lost)) * undecided(k - 1, other, other_lost)
        k += 1
    return total


def _fade(rows: list[list[float]]) -> float:
    """The factor by which the undecided chance shrinks per slot at the end of `rows`."""
    pairs = [(1.0 - a, 1.0 - b) for a, b in zip(rows[-2], rows[-1]) if 1.0 - a > TOLERANCE]
    return max(b / a for a, b in pairs) if pairs else 0.0


def kat_odds(rulebook: Rulebook, state: State) -> dict[str, Any] | None:
    """Exact chances, the lead included (None for a position that awaits no throw)."""
    if state.phase == "lead":
        return _lead_odds(rulebook, state)
    if state.phase != "play" or state.awaiting != "roll":
        return None
    seat = state.turn
    me, them = state.players[seat], state.players[1 - seat]
    p = mover_wins(rulebook, me.position or 0, them.position or 0, me.lost_turns,
                   them.lost_turns)
    win = [0.0, 0.0]
    win[seat], win[1 - seat] = p, 1.0 - p
    return {"win": win, "exact": True, "margin": 0.0}


def _lead_odds(rulebook: Rulebook, state: State) -> dict[str, Any] | None:
    """During the lead (K2) both counters wait at the start, so a round no one has thrown in
    yet favours neither seat: 1/2 each. Once one has thrown, each answer of the other is
    applied by the real rules: the order settles (play from there) or a tie starts afresh."""
    if state.lead is None or not state.lead.throws:
        return {"win": [0.5, 0.5], "exact": True, "margin": 0.0}
    from companion.events import Roll
    from companion.replay import advance
    win = [0.0, 0.0]
    for values, chance in _throws(rulebook.randomizer.faces):
        after = kat_odds(rulebook, advance(rulebook, state, Roll(values)))
        if after is None:
            return None
        for seat in (0, 1):
            win[seat] += chance * after["win"][seat]
    return {"win": win, "exact": True, "margin": 0.0}
