"""The race game of seed 003 (McLoughlin's Parcheesi, sold as "India"): four men each, a
spinner of twelve segments. Assisted, P1-P2.

The spinner's values are 1..12: 1..6 are the plain numbers, 7..12 are "double 1".."double 6".
A "double" counts twice its number (P1); only a plain 5 enters a man. For the lead a spin counts
what it moves (double n counts 2n), so a "double 1" does not beat a plain 6.
"""

from __future__ import annotations

from companion.games.assisted import AssistedRulebook
from companion.randomizers import spinner
from companion.state import State

FACES = 6
LABELS = tuple(str(n) for n in range(1, FACES + 1)) + tuple(f"double {n}"
                                                             for n in range(1, FACES + 1))
ENTER = 5                             # P1: a man enters on a spin of 5


def face(value: int) -> tuple[int, bool]:
    """(number, is a double) of a spinner value 1..12."""
    return (value - FACES, True) if value > FACES else (value, False)


def counts(value: int) -> int:
    """Spaces a spin counts: n, or 2n for a double (P1)."""
    n, double = face(value)
    return 2 * n if double else n


class India(AssistedRulebook):
    id = "india"
    title = "India"
    source = "McLoughlin Bros. (seed 003)"
    min_players, max_players = 2, 4
    randomizer = spinner(LABELS)

    def lead_total(self, state: State, values: tuple[int, ...]) -> int:
        return counts(values[0])

    def instruction(self, state: State, values: tuple[int, ...]) -> str:    # P1
        n, double = face(values[0])
        if double and n == FACES:
            return f"Double {FACES}: move four men {FACES} each, or one man {4 * FACES}."
        if double:
            return f"Double {n}: move one man {2 * n}."
        if n == ENTER:
            return f"Move one man {ENTER}, or enter a man."
        return f"Move one man {n}."

    def record(self, state: State, seat: int) -> None:                     # P2
        state.say(f"{state.name(seat)}'s man reaches the central home")
        self.finish(state, [seat])
