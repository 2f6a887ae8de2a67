"""Cats and Dogs (Parker Brothers, 1929): a spinner race, exact finish, arrows. Full referee."""

from __future__ import annotations

from typing import Any

from companion.boarddata import whole
from companion.checks import is_whole
from companion.errors import BoardDataError
from companion.randomness.randomizers import spinner
from companion.rulebook import Rulebook
from companion.state import State

START = 0


class CatsAndDogs(Rulebook):
    id = "cats-and-dogs"
    title = "Cats and Dogs"
    source = "Parker Brothers, 1929"
    min_players, max_players = 2, 6
    randomizer = spinner(6)
    lead = "ranking"                      # C1: play goes in descending order of spin
    start_position = START
    on_squares = True

    def check_board(self, board: dict[str, Any]) -> dict[str, Any]:
        finish = whole(board, "track_length", 12, 200)
        arrows = board.get("arrows", {})
        if not isinstance(arrows, dict):
            raise BoardDataError("'arrows' must map a picture square to the square it leads to",
                                 key="arrows")
        checked: dict[int, int] = {}
        for key, to in arrows.items():
            try:
                square = int(key)
            except (TypeError, ValueError):
                raise BoardDataError(f"arrow from {key!r}: not a square number",
                                     key=("arrows", key)) from None
            if not is_whole(to):
                raise BoardDataError(f"arrow from {square}: {to!r} is not a square number",
                                     key=("arrows", key))
            for end in (square, to):
                if not 1 <= end < finish:
                    raise BoardDataError(f"arrow {square} -> {to}: square {end} is off the "
                                         f"track (1 to {finish - 1})", key=("arrows", key))
            if square == to:
                raise BoardDataError(f"arrow {square} -> {to} points into itself",
                                     key=("arrows", key))
            if square in checked:                  # "7" and "07": one square, two arrows
                raise BoardDataError(f"more than one arrow from {square}",
                                     key=("arrows", key))
            checked[square] = to
        return {"track_length": finish, "arrows": {str(k): v for k, v in sorted(checked.items())}}

    def _arrow(self, state: State, square: int) -> int | None:
        return state.board["arrows"].get(str(square))

    @staticmethod
    def _occupant(state: State, square: int, but: int) -> int | None:
        if square == START:
            return None
        return next((p.seat for p in state.players if p.position == square and p.seat != but),
                    None)

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        seat = state.turn
        mover = state.players[seat]
        (spin,) = values
        finish = state.board["track_length"]
        start = mover.position
        if start + spin <= finish:                                 # C2
            end = start + spin
            blocker = self._occupant(state, end, seat)
            if blocker is not None:
                state.say(f"{mover.name} spins {spin}: {end} is taken by "
                          f"{state.name(blocker)}, so {mover.name} loses the turn")
                self.pass_turn(state)
                return
            mover.position = end
            state.say(f"{mover.name} spins {spin} and moves to {end}")
        else:                                                      # C3
            end = max(START, start - spin)
            other = self._occupant(state, end, seat)
            mover.position = end
            state.say(f"{mover.name} spins {spin}: past Finish, so back {spin} to {end}")
            if other is not None:
                state.players[other].position = start             # a swapped piece: no arrow
                state.say(f"{state.name(other)} and {mover.name} swap places: "
                          f"{state.name(other)} goes to {start}")
        if mover.position == finish:                               # C5
            self.finish(state, [seat])
            return
        self._follow_arrow(state, seat)                            # C4
        if mover.position == finish:
            self.finish(state, [seat])
            return
        self.pass_turn(state)

    def _follow_arrow(self, state: State, seat: int) -> None:
        mover = state.players[seat]
        to = self._arrow(state, mover.position)
        if to is None:
            return
        if self._occupant(state, to, seat) is not None:
            state.say(f"The arrow from {mover.position} leads to {to}, which is taken: "
                      f"{mover.name} stays")
            return
        state.say(f"{mover.name} follows the arrow from {mover.position} to {to}")
        mover.position = to
