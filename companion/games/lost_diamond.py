"""The Lost Diamond (McLoughlin Bros.): two players race for the diamond and home with it, the
Indicator. Assisted, LD1-LD2.

How the companion knows a player is in the Field: it does not track pieces, so the player says
so. On their turn, before spinning, a plain press of the knob (`next` while awaiting "roll") is
a Field move: the player moves by the number on their square and the turn passes (LD1). A seat
press while still awaiting the spin is also a Field move, one that reached the diamond or a
carrier; the knob then ends that turn.

When the seat button counts (LD2):

    press by          before spinning (a Field move)     after a spin (road or lane)
    without it        takes it from its square, or        captures it from the carrier
                      captures it from the carrier        (its square is in the Field: no)
    the carrier       refused: home is by the road        home, if carried since before this
                                                          turn: a second press confirms and
                                                          wins, the knob cancels

One move a turn: after a press has taken or captured the diamond, the turn's move is made.
"""

from __future__ import annotations

from typing import Any

from companion.errors import Refused
from companion.games.assisted import AssistedRulebook, arrows_text
from companion.state import State


def _spun(state: State) -> bool:
    """The current player has spun this turn and their spin's move is still theirs to make
    (a capture after the spin makes it)."""
    return state.awaiting == "next" and "instruction" in state.data


class LostDiamond(AssistedRulebook):
    id = "lost-diamond"
    title = "The Lost Diamond"
    source = "McLoughlin Bros."
    min_players = max_players = 2

    def setup(self, state: State) -> None:
        state.data["carrier"] = None
        state.data["carried_from_start"] = None      # LD2: the carrier when this turn began
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
        if state.data["carrier"] == seat:
            self._home(state, seat)
        else:
            self._take(state, seat)

    def _take(self, state: State, seat: int) -> None:
        """The diamond taken from its square or captured from the carrier."""
        player = state.players[seat]
        carrier = state.data["carrier"]
        field_move = state.awaiting == "roll"
        if carrier is None and not field_move:        # its square is in the Field
            raise Refused("take the diamond with a Field move, before you spin")
        if field_move:
            state.say(f"{player.name} moves in the Field")
        if carrier is None:
            state.say(f"{player.name} takes the Lost Diamond from its square")
        else:
            state.players[carrier].extra["diamond"] = False
            state.say(f"{player.name} captures the Lost Diamond from {state.name(carrier)}")
        state.data["carrier"] = seat
        player.extra["diamond"] = True
        state.data.pop("instruction", None)           # the turn's move is made
        state.awaiting = "next"

    def _home(self, state: State, seat: int) -> None:
        """The carrier says they are home; a second press confirms and wins."""
        name = state.name(seat)
        if state.data["carried_from_start"] != seat:
            raise Refused(f"{name} got the diamond this turn: home on a later turn")
        if not _spun(state):
            raise Refused(f"{name} has the diamond: spin first to go home")
        self.claim_win(state, seat, f"{name} says they are home with the diamond",
                       f"{name} is home with the Lost Diamond")

    def on_next(self, state: State) -> None:
        if state.awaiting == "roll":                                         # LD1
            state.say(f"{state.name(state.turn)} moves in the Field")
        self.cancel_claim(state)
        self.end_turn(state)

    def end_turn(self, state: State) -> None:
        super().end_turn(state)
        state.data["carried_from_start"] = state.data["carrier"]

    def prompt(self, state: State) -> str:
        if state.phase == "play" and state.awaiting == "roll":
            field = "press the knob to move in the Field"
            if state.data["carrier"] != state.turn:                           # LD2
                field += "; your button if that reaches the diamond"
            return f"{state.name(state.turn)} - flick to spin, or {field}"
        return super().prompt(state)

    def extra_json(self, state: State) -> dict[str, Any]:
        carrier = state.data["carrier"]
        return {**super().extra_json(state), "diamond": "square" if carrier is None else carrier,
                "home_claim": state.data["claim"]}
