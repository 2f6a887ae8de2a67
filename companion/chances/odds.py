"""Chances to win from the current position, computed from the game's own rulebook.

`odds(rulebook, state, rng)` gives `{"win": [...], "exact": bool, "margin": float}` (the
state's `odds`): exact where a game module can solve the position (Kat en Muis always, the
lead included; Domino Rex end-games under the playout policy), otherwise playouts: copies of
the state played to the end by the real rules (`replay.advance`), with throws drawn from
`rng`, a generator handed in (`random.Random` from the firmware or the web). Playouts never
touch the committed roll stream: they work on copies and use only `rng`.

A finished game's chances are 1 shared among its winners; a shared win in a playout counts
1/k to each of its k winners. `margin` is the 95% half-width of the least certain seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from companion.events import Choose, Roll
from companion.replay import _roll as roll_in_place   # advance() without its state copy
from companion.rulebook import Rulebook
from companion.state import Lines, State

Z95 = 1.96
MAX_STEPS = 2_000            # a playout longer than this is a game that cannot end: a draw
CHANCE_GAMES = ("kat-en-muis", "lifes-mishaps", "cats-and-dogs", "domino-rex")


class Generator(Protocol):
    """What playouts need of a generator (random.Random has both)."""

    def randrange(self, stop: int) -> int: ...

    def random(self) -> float: ...


def has_odds(rulebook: Rulebook | None) -> bool:
    """True for the games whose chances the companion knows (full referee, chance in play)."""
    return rulebook is not None and rulebook.id in CHANCE_GAMES


def finished(state: State) -> dict[str, Any]:
    """A finished game: 1 shared among the winners."""
    share = 1 / len(state.winners) if state.winners else 0.0
    return {"win": [share if p.seat in state.winners else 0.0 for p in state.players],
            "exact": True, "margin": 0.0}


def exact(rulebook: Rulebook, state: State) -> dict[str, Any] | None:
    """The exact chances where a solver exists for this position, else None."""
    if state.over:
        return finished(state)
    if rulebook.id == "kat-en-muis":
        from companion.chances.kat_en_muis import kat_odds
        return kat_odds(rulebook, state)
    if rulebook.id == "domino-rex":
        from companion.chances.domino_rex import domino_odds
        return domino_odds(rulebook, state)
    return None


def default_policy(rulebook: Rulebook) -> Callable[[State, Generator], int] | None:
    """How a playout makes a player's choice (Domino Rex: see domino_rex.random_choice)."""
    if rulebook.id == "domino-rex":
        from companion.chances.domino_rex import random_choice
        return random_choice
    return None


def playout(rulebook: Rulebook, state: State, rng: Generator,
            choose: Callable[[State, Generator], int] | None = None) -> list[int]:
    """Play a copy of `state` to its end by the real rules; returns the winners (empty for a
    game that cannot end within MAX_STEPS).

    One copy is made and then moved in place by the same rule functions `replay.advance`
    calls on its own copy: the lead through `replay._roll`; in play the game's `on_roll`
    directly (the throws are valid by construction, and no rule reads `_roll`'s record of the
    last throw for the screen), so a playout costs the rules and little else."""
    state = state.copy()
    state.log = Lines()
    watch = type(rulebook).after_event is not Rulebook.after_event
    for _ in range(MAX_STEPS):
        if state.over:
            return state.winners
        if state.awaiting == "roll":
            dice = rulebook.randomizer_now(state)
            faces = dice.faces
            values = tuple(int(rng.random() * faces) + 1 for _ in range(dice.count))
            if state.phase == "play":
                state.rolls += 1
                rulebook.on_roll(state, values)
            else:
                roll_in_place(rulebook, state, values)
            event = Roll(values) if watch else None
        elif state.awaiting == "choose" and choose is not None:
            value = choose(state, rng)
            rulebook.on_choose(state, value)
            event = Choose(value) if watch else None
        else:
            raise ValueError(f"a playout cannot make a '{state.awaiting}' move "
                             f"in {rulebook.title}")
        if watch:
            rulebook.after_event(state, event)
        state.log.clear()
    return []


class Tally:
    """Playout results so far: each seat's share of wins, and the margin they give."""

    def __init__(self, seats: int):
        self.wins = [0.0] * seats
        self.runs = 0

    def add(self, winners: list[int]) -> None:
        self.runs += 1
        for seat in winners:
            self.wins[seat] += 1 / len(winners)

    def result(self) -> dict[str, Any]:
        n = self.runs
        win = [w / n for w in self.wins] if n else [1 / len(self.wins)] * len(self.wins)
        margin = max(Z95 * math.sqrt(p * (1 - p) / n) for p in win) if n else 1.0
        # A seat that never won (or always won) still has a margin of about 3/n (rule of three)
        if n and any(p in (0.0, 1.0) for p in win):
            margin = max(margin, 3 / n)
        return {"win": win, "exact": False, "margin": margin, "playouts": n}


def playouts(rulebook: Rulebook, state: State, rng: Generator, runs: int,
             tally: Tally | None = None) -> Tally:
    """Run `runs` more playouts into `tally` (a new one if None) and return it."""
    tally = tally or Tally(len(state.players))
    choose = default_policy(rulebook)
    for _ in range(runs):
        tally.add(playout(rulebook, state, rng, choose))
    return tally


def odds(rulebook: Rulebook, state: State, rng: Generator, runs: int = 2_000) -> dict[str, Any]:
    """Exact chances where known, else `runs` playouts."""
    known = exact(rulebook, state)
    if known is not None:
        return known
    return playouts(rulebook, state, rng, runs).result()
