"""Kat en Muis (J. Vlieger, 1890): a two-dice race for the other's pot. Full referee, K1-K8.

One path of 66 squares: red 1..66 from the Cat's corner, black 1..66 from the Mouse's, so red
square r is black square 67 - r. Each player's `position` is in their own numbering.
"""

from __future__ import annotations

from companion.randomness.randomizers import dice
from companion.rulebook import Option, Rulebook
from companion.state import State
from companion.ledger import POOL
from companion.errors import Refused

GOAL = 66
BOUNCE_TO = 48                                   # K5
MILESTONES = (11, 22, 33, 44, 55)                # K7: the other pays the mover 2
SQUARES = (4, 9, 16, 25, 36, 49, 64)             # K7: the mover pays the other 1
LOSE_TURN = (5, 15, 25, 35, 45, 65)              # K7: the mover loses the next turn
THROW_AGAIN = (10, 20, 30, 40, 50, 60)           # K7: the mover throws again


def on_shared_path(square: int) -> int:
    """A square in the other player's numbering (red r is black 67 - r)."""
    return GOAL + 1 - square


class KatEnMuis(Rulebook):
    id = "kat-en-muis"
    title = "Kat en Muis"
    source = "J. Vlieger, 1890"
    min_players = max_players = 2
    randomizer = dice(2)
    lead = "highest"                             # K2: seat 0 then seat 1, ties again
    uses_chips = True
    pool_label = "Both pots"                    # K1, K8: each stakes into a pot; one takes both
    on_squares = True
    square_colours = {"cat": "red", "mouse": "black"}   # each counts from their own corner
    options = {"purse": Option(20, 0, 10_000, "chips each player starts with"),
               "stake": Option(5, 0, 10_000, "chips each puts in their pot")}

    def setup(self, state: State) -> None:       # K1
        purse, stake = state.options["purse"], state.options["stake"]
        if stake > purse:
            raise Refused(f"the stake ({stake}) cannot be more than the purse ({purse})")
        for player in state.players:
            player.chips = purse
        for player in state.players:
            self.pay(state, player.seat, POOL, stake, "stake into the pot")

    def begin(self, state: State, order: list[int]) -> None:   # K2
        super().begin(state, order)
        cat, mouse = order
        state.players[cat].role, state.players[mouse].role = "cat", "mouse"
        state.log[-1] = f"{state.name(cat)} is Cat and throws first; {state.name(mouse)} is Mouse"

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        seat = state.turn
        other = 1 - seat
        mover = state.players[seat]
        start = mover.position or 0
        a, b = values
        state.say(f"{mover.name} throws {a} and {b}")
        if a == b == 6 and start < 55:                                  # K4
            state.say(f"Double six before 55: {mover.name} does not move")
            self.pay(state, seat, other, 2, "double six")
            self.pass_turn(state)
            return
        if a == b == 6:                                                  # K4
            end, how = GOAL, "double six: straight to the pot on 66"
        elif a == b and 11 * (a - 1) <= start < 11 * a:                 # K3
            end, how = 11 * a, f"double {a}: straight to {11 * a}"
        else:
            end, how = start + a + b, ""
        if end > GOAL:                                                   # K5
            mover.position = BOUNCE_TO
            state.say(f"{mover.name} would pass 66 and goes back to {BOUNCE_TO}")
            self.pass_turn(state)
            return
        self._jump_fee(state, seat, other, start, end)                   # K6
        mover.position = end
        state.say(f"{mover.name} moves to {end}" + (f" ({how})" if how else ""))
        if end == GOAL:                                                  # K8
            self.pay(state, POOL, seat, state.pool, "both pots")
            self.finish(state, [seat])
            return
        self._land(state, seat, other, end)

    def _jump_fee(self, state: State, seat: int, other: int, start: int, end: int) -> None:
        """K6: passing strictly over the other counter costs the mover 1."""
        there = state.players[other].position
        if there and start < on_shared_path(there) < end:
            self.pay(state, seat, other, 1, f"jumping over {state.name(other)}")

    def _land(self, state: State, seat: int, other: int, square: int) -> None:
        """K7, in order; then the turn passes unless the mover throws again."""
        mover = state.players[seat]
        if square in MILESTONES:
            self.pay(state, other, seat, 2, f"square {square}")
        if square in SQUARES:
            self.pay(state, seat, other, 1, f"square {square}")
        if square in LOSE_TURN:
            mover.lost_turns += 1
            state.say(f"{mover.name} will lose the next turn (square {square})")
        if square in THROW_AGAIN:
            state.say(f"{mover.name} throws again (square {square})")
            return
        self.pass_turn(state)

    def prompt(self, state: State) -> str:
        text = super().prompt(state)
        if state.phase == "play":
            role = state.players[state.turn].role
            who = state.name(state.turn)
            text = text.replace(who, f"{who} ({role.capitalize()})", 1)
        return text
