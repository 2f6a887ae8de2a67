"""Chips: the only way chips move. X3 (never below zero) and X4 (conserved) live here.

An account is a seat number or "pool" (every chip not held by a player: pools, pots, stakes).
"""

from __future__ import annotations

from companion.state import State

POOL = "pool"


def chips_words(n: int) -> str:
    """'1 chip', '3 chips'."""
    return f"{n} chip" if n == 1 else f"{n} chips"


def holding(state: State, account: int | str) -> int:
    return state.pool if account == POOL else state.players[account].chips


def _add(state: State, account: int | str, n: int) -> None:
    if account == POOL:
        state.pool += n
    else:
        state.players[account].chips += n


def _words(state: State, source: int | str, target: int | str, n: int) -> str:
    if source == POOL:
        return f"{state.name(target)} takes {chips_words(n)} from the pool"
    if target == POOL:
        return f"{state.name(source)} pays {chips_words(n)} into the pool"
    return f"{state.name(source)} pays {state.name(target)} {chips_words(n)}"


def pay(state: State, source: int | str, target: int | str, amount: int, why: str = "") -> int:
    """Move up to `amount` chips; a payer short of chips pays what it holds and the rest is
    forgiven and logged (X3). Returns what was paid."""
    paid = min(amount, holding(state, source))
    _add(state, source, -paid)
    _add(state, target, paid)
    suffix = f" ({why})" if why else ""
    if paid:
        state.say(_words(state, source, target, paid) + suffix)
    if paid < amount:
        who = "The pool" if source == POOL else state.name(source)
        state.say(f"{who} could not pay {amount - paid}; forgiven")
    return paid
