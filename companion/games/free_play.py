"""Free play: any other game. The companion throws, keeps turns, scores and chips; players
know the rules.

Options: `randomizer` (chosen at setup: {"kind": "dice", "count": 1..3}, {"kind": "indicator"},
{"kind": "spinner", "faces": 2..12}, or {"kind": "none"}; default one die), `chips` (each
player's start, default 0) and `pool` (default 0): a table that keeps chips starts with them,
since a correction moves only what its source holds (X9). A randomizer field that does not fit
its kind (faces on dice, a count on a spinner: a d20 is no d6) is refused, and so is board data
(free play has none). The randomizer is part of the game's state, not of the rulebook. With a
randomizer and two or more players the lead is thrown by X2.
Any seat button adds a point to that seat at any time of play (free play knows no turn for
scoring); a turn passes with `next`, thrown or not; the game ends by `declare`.
"""

from __future__ import annotations

from typing import Any

from companion.errors import Refused
from companion.randomness.randomizers import Randomizer, from_json
from companion.rulebook import Option, Rulebook
from companion.state import State

DEFAULT_RANDOMIZER = {"kind": "dice", "count": 1}
NONE = {"kind": "none"}


def randomizer_option(value: Any) -> dict[str, Any]:
    """The chosen randomizer in its normal JSON form, or a clear refusal: a field that does
    not fit the kind is refused, never ignored."""
    if value is None or value == NONE:
        return dict(NONE)
    if isinstance(value, dict) and value.get("kind") == NONE["kind"]:
        raise Refused(f"option 'randomizer': {sorted(set(value) - {'kind'})[0]!r} does not "
                      f"fit playing without a randomizer")
    try:
        return from_json(value).to_json()
    except Refused as err:
        raise Refused(f"option 'randomizer': {err}") from None


class FreePlay(Rulebook):
    id = "free-play"
    title = "Free play"
    refereeing = "assisted"
    min_players, max_players = 1, 6
    keeps_score = True
    lead = "highest"                                  # X2, when there is a randomizer
    uses_chips = True
    press_any_seat = True                              # a point for whoever scores, any time
    options = {"chips": Option(0, 0, 10_000, "chips each player starts with"),
               "pool": Option(0, 0, 10_000, "chips in the pool at the start")}

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - set(self.options) - {"randomizer"})
        if unknown:
            raise Refused(f"{self.title} has no option '{unknown[0]}' (options: randomizer, "
                          f"{', '.join(self.options)})")
        checked = super().check_options({k: v for k, v in options.items() if k != "randomizer"})
        chosen = options.get("randomizer", DEFAULT_RANDOMIZER)
        return {"randomizer": randomizer_option(chosen), **checked}

    def randomizer_now(self, state: State) -> Randomizer | None:
        chosen = state.options["randomizer"]
        return None if chosen == NONE else from_json(chosen)

    def lead_mode(self, state: State) -> str | None:
        if self.randomizer_now(state) is None or len(state.players) < 2:
            return None
        return self.lead

    def setup(self, state: State) -> None:
        for player in state.players:
            player.chips = state.options["chips"]
        state.pool = state.options["pool"]
        dice = self.randomizer_now(state)
        state.say(f"Played with {dice.name}" if dice else "Played without dice")

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        dice = self.randomizer_now(state)
        detail = f" ({dice.total(values)})" if dice.count > 1 else ""
        state.say(f"{state.name(state.turn)} {dice.verb} {dice.words(values)}{detail}")
        state.awaiting = "next"

    def on_press(self, state: State, seat: int) -> None:
        player = state.players[seat]
        player.score += 1
        state.say(f"{player.name} scores a point ({player.score})")

    def on_next(self, state: State) -> None:
        if state.awaiting == "roll":
            state.say(f"{state.name(state.turn)} passes without a throw")
        self.pass_turn(state)
        state.awaiting = "roll" if self.randomizer_now(state) else "next"

    def on_declare(self, state: State, winners: tuple[int, ...]) -> None:
        self.finish(state, list(winners))

    def prompt(self, state: State) -> str:
        if state.phase == "play" and state.awaiting == "roll":
            return super().prompt(state) + " (or press the knob to pass)"
        return super().prompt(state)

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["randomizer"] = "chosen at setup"
        out["options"]["randomizer"] = dict(DEFAULT_RANDOMIZER)
        return out
