"""The race game of seed 003 (McLoughlin's Parcheesi, sold as "India"): four men each, a
spinner of twelve segments. Assisted, P1-P2.

The spinner's values are 1..12: 1..6 are the plain numbers, 7..12 are "double 1".."double 6".
A "double n" counts 2n, except double 6: four men 6 each, or one man 24 (P1). Only a plain 5
enters a man. For the lead a spin counts what it moves: n, 2n, and 24 for double 6, so a
"double 1" does not beat a plain 6 and a double 6 beats everything.

A man reaching the central home is a claim: a second press confirms it and wins, the knob
cancels it (P2).
"""

from __future__ import annotations

from typing import Any

from companion.games.assisted import AssistedRulebook
from companion.randomness.randomizers import spinner
from companion.state import State

FACES = 6
LABELS = tuple(str(n) for n in range(1, FACES + 1)) + tuple(f"double {n}"
                                                             for n in range(1, FACES + 1))
ENTER = 5                             # P1: a man enters only on a plain 5
DOUBLE_SIX_MEN = 4                    # P1: double 6 moves four men 6 each, or one man 24


def face(value: int) -> tuple[int, bool]:
    """(number, is a double) of a spinner value 1..12."""
    return (value - FACES, True) if value > FACES else (value, False)


def counts(value: int) -> int:
    """Spaces a spin moves in all (P1): n, 2n for a double, 24 for double 6."""
    n, double = face(value)
    if double and n == FACES:
        return DOUBLE_SIX_MEN * FACES
    return 2 * n if double else n


class India(AssistedRulebook):
    id = "india"
    title = "India"
    source = "McLoughlin Bros. (seed 003)"
    min_players, max_players = 2, 4
    randomizer = spinner(LABELS)

    def lead_total(self, state: State, values: tuple[int, ...]) -> int:
        return counts(values[0])                                           # P1

    def instruction(self, state: State, values: tuple[int, ...]) -> str:    # P1
        n, double = face(values[0])
        if double and n == FACES:
            return f"Double {FACES}: move four men {FACES} each, or one man {counts(values[0])}."
        if double and n == ENTER:
            return f"Double {n}: move one man {2 * n} (only a plain {ENTER} enters a man)."
        if double:
            return f"Double {n}: move one man {2 * n}."
        if n == ENTER:
            return f"Move one man {ENTER}, or enter a man."
        return f"Move one man {n}."

    def record(self, state: State, seat: int) -> None:                     # P2
        name = state.name(seat)
        self.claim_win(state, seat, f"{name} says a man is home",
                       f"{name}'s man reaches the central home")

    def extra_json(self, state: State) -> dict[str, Any]:
        return {**super().extra_json(state), "home_claim": state.data.get("claim")}
