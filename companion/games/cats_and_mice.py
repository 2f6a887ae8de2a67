"""Cats and Mice (McLoughlin Bros.): a cat each, twelve shared mice, the Indicator. Assisted,
M1-M3: the companion spins and says what the spin allows; the current player presses their
seat button for each mouse their cat takes ("Squeak!"), at most twice after one spin, since
the cat moves once for each arrow (M3)."""

from __future__ import annotations

from typing import Any

from companion.games.assisted import AssistedRulebook, arrows_text
from companion.state import State

MICE = 12
LAST_MOUSE_POINTS = 3                 # M3: the one that takes the last counts 3
MOUSE_POINTS = 1


class CatsAndMice(AssistedRulebook):
    id = "cats-and-mice"
    title = "Cats and Mice"
    source = "McLoughlin Bros."
    min_players, max_players = 2, 4
    keeps_score = True
    presses_per_spin = 2                                                      # M3
    press_limit_reason = "a cat takes two mice at most a spin, one per arrow"

    def setup(self, state: State) -> None:
        state.data["mice_left"] = MICE
        for player in state.players:
            player.role = "cat"
            player.extra["mice"] = 0

    def instruction(self, state: State, values: tuple[int, ...]) -> str:      # M2
        a, b = values
        return (f"Move your cat {arrows_text(a, b)}. "
                f"Then one mouse {a + b}, or two mice {a} and {b}.")

    def record(self, state: State, seat: int) -> None:                        # M3
        player = state.players[seat]
        left = state.data["mice_left"] - 1
        state.data["mice_left"] = left
        player.extra["mice"] += 1
        if left == 0:
            player.score += LAST_MOUSE_POINTS
            state.say(f"Squeak! {player.name}'s cat takes the last mouse: "
                      f"{LAST_MOUSE_POINTS} points")
            state.say("Points: " + ", ".join(f"{p.name} {p.score}" for p in state.players))
            best = max(p.score for p in state.players)
            self.finish(state, [p.seat for p in state.players if p.score == best])
            return
        player.score += MOUSE_POINTS
        state.say(f"Squeak! {player.name}'s cat takes a mouse ({left} left)")

    def extra_json(self, state: State) -> dict[str, Any]:
        return {**super().extra_json(state), "mice_left": state.data["mice_left"]}
