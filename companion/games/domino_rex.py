"""Domino Rex (McLoughlin Bros.): no dice in play; each player uncovers one domino square a
turn and the sum with the square uncovered just before moves a checker. Full referee, D1-D4.

Each Table has covered domino squares (board data) and five checkers, numbered 7..11, each on
its way  rex -> domino -> crowned  ("Rex!"). A turn is a `choose` of the spots to uncover.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.checks import is_whole
from companion.errors import BoardDataError, Refused
from companion.randomness.randomizers import dice
from companion.rulebook import Rulebook
from companion.state import State

CHECKERS = range(7, 12)                                  # the Rex row: 7..11
REX, DOMINO, CROWNED = "rex", "domino", "crowned"
ADVANCE = {REX: DOMINO, DOMINO: CROWNED}                 # D2; a crowned checker stays
PLACES_BACK = {REX: "to the Rex row", DOMINO: "into Domino", CROWNED: "to its crown"}
ORDINAL = {7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth", 11: "eleventh"}
SPOTS = range(1, 7)
MAX_SQUARES = 32
KEY = "domino_squares"


def _spots_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not value or not all(
            is_whole(v) and v in SPOTS for v in value):
        raise BoardDataError(f"{where} must be a list of 1 to {MAX_SQUARES} domino spots, "
                             f"each 1 to 6", key=KEY)
    if len(value) > MAX_SQUARES:
        raise BoardDataError(f"{where} has {len(value)} squares (at most {MAX_SQUARES})",
                             key=KEY)
    return sorted(value)


def _spots(values: list[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


class DominoRex(Rulebook):
    id = "domino-rex"
    title = "Domino Rex"
    source = "McLoughlin Bros."
    min_players, max_players = 2, 4
    keeps_score = True
    randomizer = None                                    # no dice in play
    lead_randomizer = dice(1)                            # D1: the companion throws for lead
    lead = "highest"
    pi_seats = "any"

    def check_board(self, board: dict[str, Any]) -> dict[str, Any]:
        squares = board.get("domino_squares")
        if isinstance(squares, list) and squares and all(isinstance(t, list) for t in squares):
            if len(squares) > self.max_players:
                raise BoardDataError(f"'domino_squares' lists {len(squares)} Tables; the "
                                     f"board has {self.max_players}", key=KEY)
            return {"domino_squares": [_spots_list(t, f"'domino_squares' Table {i + 1}")
                                       for i, t in enumerate(squares)]}
        return {"domino_squares": _spots_list(squares, "'domino_squares'")}

    def setup(self, state: State) -> None:
        squares = state.board["domino_squares"]
        tables = squares if isinstance(squares[0], list) else [squares] * len(state.players)
        if len(tables) < len(state.players):
            raise Refused(f"the board data gives {len(tables)} Tables for "
                          f"{len(state.players)} players")
        for player, table in zip(state.players, tables):
            player.extra["covered"] = list(table)
            player.extra["checkers"] = {str(n): REX for n in CHECKERS}
        state.data["last"] = None                        # spots uncovered just before

    def begin(self, state: State, order: list[int]) -> None:
        super().begin(state, order)
        state.awaiting = "choose"

    def skips(self, state: State, seat: int) -> bool:                         # D3
        return not state.players[seat].extra["covered"]

    def on_choose(self, state: State, value: int) -> None:                    # D2
        player = state.players[state.turn]
        covered = player.extra["covered"]
        if value not in covered:
            raise Refused(f"{player.name} has no covered square of {value} "
                          f"(covered: {_spots(covered)})")
        covered.remove(value)
        last, state.data["last"] = state.data["last"], value
        if last is None:
            state.say(f"{player.name} uncovers {value} to open the game; nothing moves")
        else:
            self._move(state, player.seat, value, last)
        if all(state.players[player.seat].extra["checkers"][str(n)] == CROWNED
               for n in CHECKERS):                                             # D4
            state.say(f"{player.name} has crowned all five checkers")
            self.finish(state, [player.seat])
            return
        if not any(p.extra["covered"] for p in state.players):                 # D4
            state.say("Every domino square is uncovered: " + ", ".join(
                f"{p.name} {p.score}" for p in state.players))
            best = max(p.score for p in state.players)
            self.finish(state, [p.seat for p in state.players if p.score == best])
            return
        self.pass_turn(state)                                                  # D3 skips

    def _move(self, state: State, seat: int, mine: int, last: int) -> None:
        """D2: the sum's checker moves one step, automatically; a crowned one stays."""
        player = state.players[seat]
        total = mine + last
        sums = f"{mine} + {last} = {total}"
        if total not in CHECKERS:
            state.say(f"{player.name} uncovers {mine}: {sums}, no checker moves")
            return
        checkers = player.extra["checkers"]
        where = checkers[str(total)]
        name = f"{player.name}'s {ORDINAL[total]} checker"
        if where == CROWNED:
            state.say(f"{sums}: {name} is already crowned; nothing moves")
            return
        checkers[str(total)] = ADVANCE[where]
        if ADVANCE[where] == DOMINO:
            state.say(f"{sums}: {name} goes into Domino")
        else:
            player.score += total
            state.say(f"{sums}: {name} goes home and is crowned. Rex!")

    def on_next(self, state: State) -> None:
        raise Refused("in Domino Rex a turn is uncovering a domino square: choose its spots")

    def prompt(self, state: State) -> str:
        if state.phase == "play":
            player = state.players[state.turn]
            last = state.data["last"]
            after = "to open the game" if last is None else f"(last uncovered: {last})"
            return (f"{player.name} - uncover a domino square {after}; "
                    f"covered: {_spots(player.extra['covered'])}")
        return super().prompt(state)

    def extra_json(self, state: State) -> dict[str, Any]:
        return {"last_uncovered": state.data["last"]}

    def put_back(self, gone: State, now: State) -> list[str]:
        """The squares an undo covers again ("Cover Pi's 6 again.": the undone lines name
        sums, not squares) and the checkers it moves back ("Cy's tenth checker back into
        Domino.", where its line said "goes home and is crowned")."""
        squares = []                   # "Ann's 5 and 6, Ben's 4": a player's squares together
        for was, player in zip(gone.players, now.players):
            values = sorted((Counter(player.extra["covered"])
                             - Counter(was.extra["covered"])).elements())
            if values:
                squares.append(f"{player.name}'s {' and '.join(map(str, values))}")
        out = [f"Cover {', '.join(squares)} again."] if squares else []
        for was, player in zip(gone.players, now.players):
            for number, place in sorted(player.extra["checkers"].items(),
                                        key=lambda checker: int(checker[0])):
                if was.extra["checkers"][number] != place and place in PLACES_BACK:
                    out.append(f"{player.name}'s {ORDINAL[int(number)]} checker back "
                               f"{PLACES_BACK[place]}.")
        return out
