"""Life's Mishaps (McLoughlin Bros.): one die, 36 counters and a pool. Full referee, L1-L7."""

from __future__ import annotations

from typing import Any

from companion.boarddata import int_list
from companion.ledger import POOL
from companion.randomness.randomizers import dice
from companion.rulebook import Rulebook
from companion.state import State

END = 48
COUNTERS = 36
REWARD_SQUARES = (21, 26, 29, 34)   # L5: take 3 from the pool
THIRD_SQUARE = 47                   # L5: take a third of the pool


class LifesMishaps(Rulebook):
    id = "lifes-mishaps"
    title = "Life's Mishaps"
    source = "McLoughlin Bros."
    min_players, max_players = 2, 6
    randomizer = dice(1)
    lead = "highest"                                  # L2
    uses_chips = True
    on_squares = True

    def check_board(self, board: dict[str, Any]) -> dict[str, Any]:
        return {"picture_spaces": int_list(board, "picture_spaces", 1, END - 1)}

    def setup(self, state: State) -> None:            # L1
        share, rest = divmod(COUNTERS, len(state.players))
        for player in state.players:
            player.chips = share
        state.pool = rest
        state.say(f"Each player gets {share} counters" + (f"; {rest} go to the pool" if rest
                                                           else ""))
        for player in state.players:
            self.pay(state, player.seat, POOL, 2, "to start")

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        seat = state.turn
        mover = state.players[seat]
        (throw,) = values
        if mover.position is None:                    # L3
            square = throw
            state.say(f"{mover.name} throws {throw} and enters on {square}")
        else:                                         # L4
            square = mover.position + throw
            if square > END:
                state.say(f"{mover.name} throws {throw}: needs exactly {END - mover.position}"
                          f" for {END}, so does not move")
                self.pass_turn(state)
                return
            state.say(f"{mover.name} throws {throw} and moves to {square}")
        occupant = next((p for p in state.players if p.position == square), None)
        mover.position = square
        if occupant is not None:                      # L6, before the mover's L5 effect
            self._bump(state, occupant.seat)
        if square == END:                             # L7
            self.pay(state, POOL, seat, state.pool, "the rest of the pool")
            most = max(p.chips for p in state.players)
            self.finish(state, [p.seat for p in state.players if p.chips == most])
            return
        self._land(state, seat, square)
        self.pass_turn(state)

    def _bump(self, state: State, seat: int) -> None:
        """L6: the first occupant goes to the lowest free picture space and pays 1."""
        taken = {p.position for p in state.players if p.seat != seat}
        free = [s for s in state.board["picture_spaces"] if s not in taken]
        bumped = state.players[seat]
        bumped.position = free[0] if free else None
        where = f"picture space {free[0]}" if free else "off the board (enters again)"
        state.say(f"{bumped.name} is bumped to {where}")
        self.pay(state, seat, POOL, 1, "bumped")

    def _land(self, state: State, seat: int, square: int) -> None:
        """L5: entering counts as landing; every clause that matches applies (a board file may
        make 21, 26, 29, 34 or 47 a picture space too: pay 2, then take)."""
        if square in state.board["picture_spaces"]:
            self.pay(state, seat, POOL, 2, f"picture space {square}")
        if square in REWARD_SQUARES:
            self.pay(state, POOL, seat, 3, f"square {square}")
        if square == THIRD_SQUARE:
            third = state.pool // 3
            if third:
                self.pay(state, POOL, seat, third, f"a third of the pool, square {square}")
            else:
                state.say(f"The pool holds too little to share a third with {state.name(seat)}")
