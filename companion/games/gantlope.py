"""Gantlope (McLoughlin Bros.): four men each race round the Highway into their Goal, the
Indicator. Assisted, G1-G3: the companion spins and says the move (doubles count double); the
current player presses their seat button each time one of their men enters its Goal, at most
twice after one spin, since a man moves for an arrow (G3)."""

from __future__ import annotations

from companion.games.assisted import AssistedRulebook
from companion.state import State

MEN = 4


class Gantlope(AssistedRulebook):
    id = "gantlope"
    title = "Gantlope"
    source = "McLoughlin Bros."
    min_players, max_players = 2, 4
    presses_per_spin = 2                                                   # G3
    press_limit_reason = "two men at most enter the Goal a spin, one per arrow"

    def setup(self, state: State) -> None:
        for player in state.players:
            player.extra["in_goal"] = 0

    def instruction(self, state: State, values: tuple[int, ...]) -> str:
        a, b = values
        if a == b:                                                         # G2
            return (f"Double {a}: move {2 * a} and {2 * a} "
                    f"(one man {4 * a}, or two men {2 * a} each).")
        return f"Move {a} and {b} (one man {a}, then {b}; or two men, one each)."

    def record(self, state: State, seat: int) -> None:                    # G3
        player = state.players[seat]
        player.extra["in_goal"] += 1
        home = player.extra["in_goal"]
        state.say(f"{player.name}'s man enters the Goal ({home} of {MEN})")
        if home == MEN:
            self.finish(state, [seat])
