"""The Lost Diamond (McLoughlin Bros.): two players race for the diamond and home with it, the
Indicator. Assisted, LD1-LD2.

How the companion knows a player is in the Field: it does not track pieces, so the player says
so. On their turn, before spinning, a plain press of the knob (`next` while awaiting "roll") is
a Field move: the player moves by the number on their square and the turn passes (LD1). A seat
press while still awaiting the spin is also a Field move, one that reached the diamond or a
carrier; the knob then ends that turn.

The seat button records the diamond (LD2): pressed by a player without it, that player now
carries it; pressed by the carrier after a spin, they claim to be home with it, and a second
press in a row confirms the win. Anything else (the knob) cancels the claim.
"""

from __future__ import annotations

from typing import Any

from companion.errors import Refused
from companion.games.assisted import AssistedRulebook, arrows_text
from companion.state import State


class LostDiamond(AssistedRulebook):
    id = "lost-diamond"
    title = "The Lost Diamond"
    source = "McLoughlin Bros."
    min_players = max_players = 2

    def setup(self, state: State) -> None:
        state.data["carrier"] = None
        state.data["claim"] = None
        for player in state.players:
            player.extra["diamond"] = False

    def instruction(self, state: State, values: tuple[int, ...]) -> str:
        a, b = values
        return f"Move forward {arrows_text(a, b)} on the road or lane."

    def check_press(self, state: State, seat: int) -> None:
        if seat != state.turn:
            raise Refused(f"it is {state.name(state.turn)}'s turn, not {state.name(seat)}'s")

    def record(self, state: State, seat: int) -> None:                      # LD2
        player = state.players[seat]
        carrier = state.data["carrier"]
        if carrier != seat:
            if state.awaiting == "roll":
                state.say(f"{player.name} moves in the Field")
            if carrier is None:
                state.say(f"{player.name} takes the Lost Diamond from its square")
            else:
                state.players[carrier].extra["diamond"] = False
                state.say(f"{player.name} captures the Lost Diamond from "
                          f"{state.name(carrier)}")
            state.data["carrier"] = seat
            player.extra["diamond"] = True
            state.data["claim"] = None
            state.awaiting = "next"
            return
        if state.awaiting == "roll":
            raise Refused(f"{player.name} carries the diamond: it goes home by the road, so "
                          f"spin first")
        if state.data["claim"] == seat:
            state.say(f"{player.name} is home with the Lost Diamond")
            self.finish(state, [seat])
            return
        state.data["claim"] = seat                  # still awaiting "next": the knob cancels
        state.say(f"{player.name} says they are home with the diamond: press again to confirm")

    def on_next(self, state: State) -> None:
        seat = state.turn
        if state.awaiting == "roll":                                         # LD1
            state.say(f"{state.name(seat)} moves in the Field")
        if state.data["claim"] is not None:
            state.data["claim"] = None
            state.say(f"{state.name(seat)} is not home yet (claim cancelled)")
        self.end_turn(state)

    def prompt(self, state: State) -> str:
        if state.phase == "play" and state.data["claim"] is not None:
            return (f"{state.name(state.turn)}: press your button again to confirm you are "
                    f"home with the diamond (the knob cancels)")
        if state.phase == "play" and state.awaiting == "roll":
            return f"{state.name(state.turn)} - flick to spin, or press the knob for a Field move"
        return super().prompt(state)

    def extra_json(self, state: State) -> dict[str, Any]:
        carrier = state.data["carrier"]
        return {**super().extra_json(state), "diamond": "square" if carrier is None else carrier,
                "home_claim": state.data["claim"]}
