"""Fox and Geese (McLoughlin Bros., seed 003): no dice; the players move, the companion keeps
turns, a clock for each player, and the count of geese. Assisted, F1-F3.

Seat 0 has the Geese (17) and moves first; seat 1 is the Fox. A knob press ends a move (F1).
Clocks come from the events' `at` times, never from a clock of our own, so a replay gives the
same clocks: the time from one stamped event to the next goes to the player whose turn it was.
An event without `at` leaves the clock alone (and, if it passed the turn, the new turn's clock
starts at the next stamped event).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.errors import Refused
from companion.events import Event
from companion.rulebook import Rulebook
from companion.state import State

GEESE = 17
GEESE_SEAT, FOX_SEAT = 0, 1


def _parse(at: str | None) -> datetime | None:
    if at is None:
        return None
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None


def _seconds(start: datetime, end: datetime) -> float:
    """Seconds from start to end; 0 for times that cannot be compared or run backwards."""
    try:
        return max(0.0, (end - start).total_seconds())
    except TypeError:                 # one time has a zone and the other has none
        return 0.0


class FoxAndGeese(Rulebook):
    id = "fox-and-geese"
    title = "Fox and Geese"
    source = "McLoughlin Bros. (seed 003)"
    refereeing = "assisted"
    min_players = max_players = 2
    randomizer = None
    lead = None                                          # F1: the Geese move first

    def setup(self, state: State) -> None:
        geese, fox = state.players
        geese.role, fox.role = "geese", "fox"
        state.data["geese_left"] = GEESE
        state.data["clock_from"] = None                  # `at` of the last stamped event
        state.data["clock_seat"] = None                  # whose clock runs from then
        for player in state.players:
            player.extra["clock_seconds"] = 0.0
        state.say(f"{geese.name} has the {GEESE} Geese and moves first; {fox.name} is the Fox")

    def begin(self, state: State, order: list[int]) -> None:
        super().begin(state, [GEESE_SEAT, FOX_SEAT])     # F1

    def on_next(self, state: State) -> None:                                  # F1
        seat = state.turn
        state.say(f"{state.name(seat)} ({state.players[seat].role.capitalize()}) has moved")
        self.pass_turn(state)

    def on_press(self, state: State, seat: int) -> None:                      # F2
        fox = state.players[FOX_SEAT]
        if seat != FOX_SEAT:
            raise Refused(f"only the Fox takes geese: {fox.name}'s button records them")
        if state.turn != FOX_SEAT:
            raise Refused(f"the Fox takes geese on its own move: it is "
                          f"{state.name(state.turn)}'s turn")
        if state.data["geese_left"] == 0:
            raise Refused("there are no geese left to take")
        state.data["geese_left"] -= 1
        fox.score += 1
        state.say(f"{fox.name}'s Fox takes a goose ({state.data['geese_left']} left)")

    def on_declare(self, state: State, winners: tuple[int, ...]) -> None:     # F3
        if len(winners) != 1:
            raise Refused("Fox and Geese has one winner: the Geese (seat 0) or the Fox (seat 1)")
        (seat,) = winners
        geese, fox = state.players
        if seat == GEESE_SEAT:
            state.say(f"{geese.name}'s Geese pen the Fox")
        else:
            state.say(f"{fox.name}'s Fox is free: the Geese cannot move or are too few to "
                      f"pen it")
        self.finish(state, [seat])

    def after_event(self, state: State, event: Event) -> None:                # F1 clocks
        now = _parse(event.at)
        if now is None:
            if state.turn != state.data["clock_seat"]:
                state.data["clock_from"] = None         # this turn's start is unknown
            state.data["clock_seat"] = state.turn
            return
        since, seat = _parse(state.data["clock_from"]), state.data["clock_seat"]
        if since is not None and seat is not None:
            player = state.players[seat]
            player.extra["clock_seconds"] = round(player.extra["clock_seconds"]
                                                  + _seconds(since, now), 3)
        state.data["clock_from"], state.data["clock_seat"] = event.at, state.turn

    def prompt(self, state: State) -> str:
        if state.over:
            return "Game over"
        player = state.players[state.turn]
        return f"{player.name} ({player.role.capitalize()}) - move, then press the knob"

    def extra_json(self, state: State) -> dict[str, Any]:
        return {"geese_left": state.data["geese_left"],
                "clock": {"seat": state.data["clock_seat"],
                          "since": state.data["clock_from"]}}
