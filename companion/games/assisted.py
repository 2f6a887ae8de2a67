"""What the assisted games share: the companion spins, keeps turns and records; players move.

A turn (X8):

    awaiting "roll" --roll--> awaiting "next" --next--> the next seat, awaiting "roll"
                                   |  ^
                                   press (the current player's seat button: the game's record)

After the spin the state carries the game's instruction ("Move your cat 3, then 5. ..."),
shown by `prompt`. A press the game does not expect is refused saying why: a game may allow at
most `presses_per_spin` presses after one spin (G3, M3: one for each arrow).

A press that ends the game (LD2, P2: "I am home") is only a claim; a second press confirms it
and wins, and the knob cancels it (and ends the turn):

    awaiting "next" --press--> claim --press--> over
                                 |
                                 next: claim cancelled, the next seat's turn
"""

from __future__ import annotations

from typing import Any

from companion.errors import Refused
from companion.randomness.randomizers import indicator
from companion.rulebook import Rulebook
from companion.state import State
from companion.words import CLAIM_ASKS


class AssistedRulebook(Rulebook):
    """Base of the assisted games: spin, show what it allows, record presses, end with next."""

    refereeing = "assisted"
    randomizer = indicator()
    lead = "highest"                                   # M1, G1, LD1: X2 on the sum
    presses_per_spin: int | None = None                # G3, M3: at most this many a spin
    press_limit_reason = ""                            # why, in the players' words

    # -- what a game says and records ------------------------------------------------------

    def instruction(self, state: State, values: tuple[int, ...]) -> str:
        """What this spin allows, addressed to the spinner."""
        raise NotImplementedError

    def record(self, state: State, seat: int) -> None:
        """The current player's seat press after their spin (a capture, a man home ...)."""
        raise Refused(f"{self.title} has no seat-button action")

    # -- moves ----------------------------------------------------------------------------------

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        dice = self.randomizer_now(state)
        mover = state.name(state.turn)
        state.say(f"{mover} {dice.verb} {dice.words(values)}")
        state.data["instruction"] = self.instruction(state, values)
        state.data["presses"] = 0
        state.awaiting = "next"                                       # X8

    def on_press(self, state: State, seat: int) -> None:
        self.check_press(state, seat)
        limit = self.presses_per_spin
        if limit is not None and state.data.get("presses", 0) >= limit:       # G3, M3
            raise Refused(self.press_limit_reason)
        self.record(state, seat)
        if not state.over:
            state.data["presses"] = state.data.get("presses", 0) + 1

    def check_press(self, state: State, seat: int) -> None:
        """The press is the current player's, after their spin."""
        if seat != state.turn:
            raise Refused(f"it is {state.name(state.turn)}'s turn, not {state.name(seat)}'s")
        if state.awaiting == "roll":
            raise Refused(f"{state.name(seat)} has not spun yet: flick to spin first")

    def claim_win(self, state: State, seat: int, claim: str, win: str) -> None:
        """A press that would win is a claim; the same player's next press confirms it (LD2,
        P2). `claim` and `win` are the log's words for each."""
        if state.data.get("claim") == seat:
            state.say(win)
            self.finish(state, [seat])
            return
        state.data["claim"] = seat
        state.say(f"{claim}: {CLAIM_ASKS}")

    def cancel_claim(self, state: State) -> None:
        """The knob after a claim: it is withdrawn."""
        if state.data.get("claim") is not None:
            state.say(f"{state.name(state.data['claim'])} is not home yet (claim cancelled)")
            state.data["claim"] = None

    def put_back(self, gone: State, now: State) -> list[str]:
        """A claim home that stands again once its withdrawal is taken back: "Cy's claim
        stands again: a press of their button confirms it." ("claim cancelled" alone, in the
        undone line, read as the claim gone)."""
        claim = now.data.get("claim")
        if claim is None or gone.data.get("claim") == claim or now.phase != "play":
            return []
        return [f"{now.name(claim)}'s claim stands again: a press of their button confirms it."]

    def on_next(self, state: State) -> None:
        if state.awaiting == "roll":
            raise Refused(f"{state.name(state.turn)} has not spun yet: flick to spin first")
        self.cancel_claim(state)
        self.end_turn(state)

    def end_turn(self, state: State) -> None:
        state.data.pop("instruction", None)
        state.data["presses"] = 0
        state.data["claim"] = None
        self.pass_turn(state)
        state.awaiting = "roll"

    # -- showing -------------------------------------------------------------------------------

    def prompt(self, state: State) -> str:
        if state.phase == "play" and state.data.get("claim") is not None:
            return (f"{state.name(state.turn)}: press your button again to confirm you are "
                    f"home; the knob cancels")
        instruction = state.data.get("instruction")
        if state.phase == "play" and state.awaiting == "next" and instruction:
            return f"{state.name(state.turn)}: {instruction}"
        return super().prompt(state)

    def extra_json(self, state: State) -> dict[str, Any]:
        """The spin's instruction, and the presses it still allows where a game limits them
        (G3, M3; None where it does not, or no spin is being played)."""
        limit, open_spin = self.presses_per_spin, not state.over and state.awaiting == "next"
        return {"instruction": None if state.over else state.data.get("instruction"),
                "presses_left": limit - state.data.get("presses", 0)
                if limit is not None and open_spin and "presses" in state.data else None}


def arrows_text(a: int, b: int) -> str:
    """'3, then 5' - the order is the player's choice (either arrow first)."""
    return f"{a}, then {b}"
