"""Fox and Geese (McLoughlin Bros., seed 003): no dice; a full referee, F1-F3.

The 33-point cross is a 7x7 grid without its 2x2 corners; points are named a..g (columns) and
1..7 (rows, 1 nearest the Geese). `Board` is the geometry (lines, goose steps, fox jumps) built
from the board data; `Position` is the pieces and the side to move, with every legal move. Each
turn is one `move` event with its path: a goose's or the fox's [from, to], or a jump chain
[from, landing, landing, ...].

Clocks come from the events' `at` times, never from a clock of our own, so a replay gives the
same clocks: the time from one stamped event to the next goes to the player whose turn it was.
An event without `at` leaves the clock alone (and, if it passed the turn, the new turn's clock
starts at the next stamped event).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from companion.checks import is_whole
from companion.errors import BoardDataError, Refused
from companion.events import Event
from companion.rulebook import Option, Rulebook
from companion.state import State

COLUMNS = "abcdefg"
CENTRE = "d4"
GEESE_AREA_ROWS = range(1, 5)                    # F1: rows 1-4 except d4 and `vacant`
GEESE_COUNT = 17                                  # F1: the Geese are 17
FOX, GEESE = "fox", "geese"


def is_point(col: int, row: int) -> bool:
    """col and row 1..7; True on the cross (not in a 2x2 corner)."""
    return 1 <= col <= 7 and 1 <= row <= 7 and (3 <= col <= 5 or 3 <= row <= 5)


def index(col: int, row: int) -> int:
    return (row - 1) * 7 + (col - 1)


def name(point: int) -> str:
    return f"{COLUMNS[point % 7]}{point // 7 + 1}"


def parse_point(text: Any) -> int | None:
    """The index of a point name such as "c3", or None if it is not on the board."""
    if not isinstance(text, str) or len(text) != 2 or text[0] not in COLUMNS \
            or text[1] not in "1234567":
        return None
    col, row = COLUMNS.index(text[0]) + 1, int(text[1])
    return index(col, row) if is_point(col, row) else None


POINTS = tuple(index(c, r) for r in range(1, 8) for c in range(1, 8) if is_point(c, r))
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def _linked(col: int, row: int, dc: int, dr: int) -> bool:
    """A line joins (col, row) to its neighbour in this direction: orthogonal neighbours, and
    diagonal ones where the column+row sum is even (as on the printed board)."""
    if not (is_point(col, row) and is_point(col + dc, row + dr)):
        return False
    return dc == 0 or dr == 0 or (col + row) % 2 == 0


@dataclass(frozen=True)
class Board:
    """The geometry for one set of board data: who may go where along the lines."""

    sideways: frozenset[int]
    steps: tuple[tuple[int, ...], ...]           # per point: neighbours along any line
    goose_steps: tuple[tuple[int, ...], ...]     # per point: forward, diagonal-forward, sideways
    jumps: tuple[tuple[tuple[int, int], ...], ...]   # per point: (over, landing) along a line
    neighbours: tuple[int, ...]                  # per point: the mask of `steps`
    goose_flips: tuple[tuple[tuple[int, int], ...], ...]   # per point: (to, from and to bits)
    jump_bits: tuple[tuple[tuple[int, int, int], ...], ...]  # per point: (over bit, land, its bit)


@lru_cache(maxsize=16)
def board_for(sideways: frozenset[int]) -> Board:
    steps, goose, jumps = [()] * 49, [()] * 49, [()] * 49
    for p in POINTS:
        col, row = p % 7 + 1, p // 7 + 1
        links = [(dc, dr) for dc, dr in DIRECTIONS if _linked(col, row, dc, dr)]
        steps[p] = tuple(index(col + dc, row + dr) for dc, dr in links)
        goose[p] = tuple(index(col + dc, row + dr) for dc, dr in links
                         if dr == 1 or (dr == 0 and p in sideways))           # F2
        jumps[p] = tuple((index(col + dc, row + dr), index(col + 2 * dc, row + 2 * dr))
                         for dc, dr in links if _linked(col + dc, row + dr, dc, dr))
    masks = tuple(sum(1 << q for q in s) for s in steps)
    flips = tuple(tuple((t, (1 << p) | (1 << t)) for t in goose[p]) for p in range(49))
    jump_bits = tuple(tuple((1 << over, land, 1 << land) for over, land in jumps[p])
                      for p in range(49))
    return Board(sideways, tuple(steps), tuple(goose), tuple(jumps), masks, flips, jump_bits)


def bits(mask: int):
    """The point indexes set in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Position:
    """The pieces and the side to move. `geese` is a bit mask of point indexes."""

    board: Board
    fox: int
    geese: int
    fox_to_move: bool

    def goose_moves(self) -> list[tuple[int, ...]]:
        return [path for path, _, _ in goose_moves_after(self.board, self.fox, self.geese)]

    def fox_moves(self) -> list[tuple[int, ...]]:
        """F2: every complete jump chain if any jump exists (the Fox must jump, and keep
        jumping while it can); otherwise every step to an empty neighbour."""
        return [path for path, _, _ in fox_moves_after(self.board, self.fox, self.geese)]

    def moves(self) -> list[tuple[int, ...]]:
        return self.fox_moves() if self.fox_to_move else self.goose_moves()

    def play(self, path: tuple[int, ...]) -> "Position":
        """The position after a legal move (not checked here: see `moves`)."""
        if not self.fox_to_move:
            return Position(self.board, self.fox, self.geese ^ (1 << path[0]) ^ (1 << path[1]),
                            True)
        return Position(self.board, path[-1], self.geese & ~taken_mask(path), False)

    def key(self) -> str:
        """The same position with the same side to move has the same key (F3 repetition)."""
        return f"{'F' if self.fox_to_move else 'G'}{self.fox}:{self.geese:x}"


Move = tuple[tuple[int, ...], int, int]          # (path, the Fox's point after, the geese after)


def moves_after(board: Board, fox: int, geese: int, fox_to_move: bool) -> list[Move]:
    """Every legal move of the side to move (F2), each with the position it leads to."""
    return fox_moves_after(board, fox, geese) if fox_to_move else \
        goose_moves_after(board, fox, geese)


def goose_moves_after(board: Board, fox: int, geese: int) -> list[Move]:
    """Every goose's step to an empty point along its forward (or sideways) lines."""
    taken, out, rest, flips = geese | (1 << fox), [], geese, board.goose_flips
    while rest:
        low = rest & -rest
        rest ^= low
        point = low.bit_length() - 1
        for t, flip in flips[point]:
            if not taken >> t & 1:
                out.append(((point, t), fox, geese ^ flip))
    return out


def fox_moves_after(board: Board, fox: int, geese: int) -> list[Move]:
    """Every complete jump chain if any jump exists (the Fox must jump, and keep jumping
    while it can; its start counts as empty), otherwise every step to an empty neighbour."""
    chains: list[Move] = []
    _chains(board.jump_bits, (fox,), fox, geese, chains)
    if chains:
        return chains
    return [((fox, t), t, geese) for t in board.steps[fox] if not geese >> t & 1]


def _chains(jump_bits, path: tuple[int, ...], here: int, geese: int, out: list) -> None:
    extended = False
    for over, land, land_bit in jump_bits[here]:
        if geese & over and not geese & land_bit:
            extended = True
            _chains(jump_bits, path + (land,), land, geese ^ over, out)
    if not extended and len(path) > 1:
        out.append((path, here, geese))


def taken_mask(path: tuple[int, ...]) -> int:
    """The geese a fox path jumps over (none for a step)."""
    mask = 0
    for a, b in zip(path, path[1:]):
        ac, ar, bc, br = a % 7, a // 7, b % 7, b // 7
        if abs(ac - bc) == 2 or abs(ar - br) == 2:
            mask |= 1 << index((ac + bc) // 2 + 1, (ar + br) // 2 + 1)
    return mask


def path_words(path: tuple[int, ...]) -> list[str]:
    return [name(p) for p in path]


def _point_list(board: dict[str, Any], key: str, allowed, what: str) -> list[str]:
    value = board.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BoardDataError(f"'{key}' must be a list of point names such as \"c3\"")
    for v in value:
        if parse_point(v) not in allowed:
            raise BoardDataError(f"'{key}': {v!r} is not {what}")
    if len(set(value)) != len(value):
        raise BoardDataError(f"'{key}' names a point twice")
    return sorted(value)


def _clock_time(at: str | None) -> datetime | None:
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


GEESE_AREA = frozenset(index(c, r) for r in GEESE_AREA_ROWS for c in range(1, 8)
                       if is_point(c, r)) - {index(4, 4)}


class FoxAndGeese(Rulebook):
    id = "fox-and-geese"
    title = "Fox and Geese"
    source = "McLoughlin Bros. (seed 003)"
    refereeing = "full"
    min_players = max_players = 2
    randomizer = None
    lead = None                                          # F1: the Geese move first
    pi_seats = "one"                                     # the Pi plays either side
    one_winner_declared = True                           # F3: a player resigns
    score_label = "Geese taken"                          # F3: no points; the Fox's score
    score_is_points = False
    options = {"fox_seat": Option(0, 0, 1, "who plays the Fox",
                                  ("the first player", "the second player"))}

    # -- board data ---------------------------------------------------------------------------

    def check_board(self, board: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(board) - {"sideways", "vacant", "geese_to_pen"})
        if unknown:
            raise BoardDataError(f"Fox and Geese board data has no '{unknown[0]}' (it has "
                                 f"sideways, vacant, geese_to_pen)")
        sideways = _point_list(board, "sideways", set(POINTS), "a point of the board")
        vacant = _point_list(board, "vacant", GEESE_AREA,
                             "a point the Geese fill (rows 1-4, not d4)")
        if len(vacant) != len(GEESE_AREA) - GEESE_COUNT:                    # F1
            raise BoardDataError(f"'vacant' must name {len(GEESE_AREA) - GEESE_COUNT} points "
                                 f"(F1: {GEESE_COUNT} geese), not {len(vacant)}")
        pen = board.get("geese_to_pen")
        geese = len(GEESE_AREA) - len(vacant)
        if not is_whole(pen) or not 1 <= pen <= geese:
            raise BoardDataError(f"'geese_to_pen' must be a whole number from 1 to {geese}")
        return {"sideways": sideways, "vacant": vacant, "geese_to_pen": pen}

    def board(self, state: State) -> Board:
        return board_for(frozenset(parse_point(p) for p in state.board["sideways"]))

    def position(self, state: State) -> Position:
        geese = sum(1 << parse_point(p) for p in state.data["geese"])
        return Position(self.board(state), parse_point(state.data["fox"]), geese,
                        state.turn == self.fox_seat(state))

    # -- setting up ---------------------------------------------------------------------------

    def fox_seat(self, state: State) -> int:
        return state.options["fox_seat"]

    def setup(self, state: State) -> None:                                    # F1
        fox_seat = self.fox_seat(state)
        fox, geese = state.players[fox_seat], state.players[1 - fox_seat]
        fox.role, geese.role = FOX, GEESE
        vacant = {parse_point(p) for p in state.board["vacant"]}
        state.data["fox"] = CENTRE
        state.data["geese"] = sorted(name(p) for p in GEESE_AREA - vacant)
        state.data["seen"] = {}
        state.data["last_move"] = None
        state.data["clock_from"] = None                  # `at` of the last stamped event
        state.data["clock_seat"] = None                  # whose clock runs from then
        for player in state.players:
            player.extra["clock_seconds"] = 0.0
        state.say(f"{geese.name} has the {len(state.data['geese'])} Geese and moves first; "
                  f"{fox.name} is the Fox on {CENTRE}")

    def begin(self, state: State, order: list[int]) -> None:
        geese_seat = 1 - self.fox_seat(state)
        super().begin(state, [geese_seat, 1 - geese_seat])                   # F1
        state.awaiting = "move"
        self._count_position(state)

    # -- moves --------------------------------------------------------------------------------

    def on_move(self, state: State, path: tuple[str, ...]) -> None:           # F2
        position = self.position(state)
        points = tuple(parse_point(p) for p in path)
        mover = state.players[state.turn]
        if None in points:
            bad = next(p for p, i in zip(path, points) if i is None)
            raise Refused(f"{bad!r} is not a point of the board (a1..g7 on the cross)")
        legal = position.moves()
        if points not in legal:
            raise Refused(self._why_not(position, points, mover.role))
        after = position.play(points)
        taken = bin(position.geese).count("1") - bin(after.geese).count("1")
        state.data["fox"] = name(after.fox)
        state.data["geese"] = sorted(name(p) for p in bits(after.geese))
        state.data["last_move"] = list(path)
        if mover.role == FOX:
            mover.score += taken
            if taken:
                state.say(f"{mover.name}'s Fox jumps {' - '.join(path)}, taking {taken} "
                          f"{'goose' if taken == 1 else 'geese'} "
                          f"({len(state.data['geese'])} left)")
            else:
                state.say(f"{mover.name}'s Fox: {path[0]} to {path[1]}")
        else:
            state.say(f"{mover.name}'s goose: {path[0]} to {path[1]}")
        self._after_move(state, after)

    def _why_not(self, position: Position, points: tuple[int, ...], role: str) -> str:
        words = " - ".join(name(p) for p in points)
        if role == GEESE:
            if len(points) != 2 or not position.geese >> points[0] & 1:
                return f"{words} is not a goose's move: a goose moves from its point to one " \
                       f"next to it"
            return f"a goose cannot go {words}: geese go forward (towards row 7) along a " \
                   f"line to an empty point, or sideways at " \
                   f"{', '.join(sorted(name(p) for p in position.board.sideways)) or 'no point'}"
        if points[0] != position.fox:
            return f"the Fox is on {name(position.fox)}, not {name(points[0])}"
        legal = position.fox_moves()
        if len(legal[0]) > 2 or taken_mask(legal[0]):
            options = "; ".join(" - ".join(path_words(m)) for m in legal[:4])
            return f"the Fox must jump, and keep jumping while it can (Rule 2): {options}"
        return f"the Fox cannot go {words}: it steps along a line to an empty point"

    def _after_move(self, state: State, after: Position) -> None:            # F3
        geese_left = len(state.data["geese"])
        fox_seat = self.fox_seat(state)
        if geese_left < state.board["geese_to_pen"]:
            state.say(f"Only {geese_left} geese are left: too few to pen the Fox")
            self.finish(state, [fox_seat])
            return
        self.pass_turn(state)
        if not after.moves():
            if after.fox_to_move:
                state.say(f"The Fox on {name(after.fox)} cannot move: it is penned")
                self.finish(state, [1 - fox_seat])
            else:
                state.say("The Geese cannot move")
                self.finish(state, [fox_seat])
            return
        if self._count_position(state) >= 3:
            state.say("The same position for the third time, with the same side to move: "
                      "a draw")
            self.finish(state, [0, 1])                                         # X6

    def _count_position(self, state: State) -> int:
        key = self.position(state).key()
        seen = state.data["seen"]
        seen[key] = seen.get(key, 0) + 1
        return seen[key]

    def on_declare(self, state: State, winners: tuple[int, ...]) -> None:     # F3
        if len(winners) != 1:
            raise Refused("Fox and Geese has one winner: a player resigns by declaring the "
                          "other the winner")
        (seat,) = winners
        state.say(f"{state.name(1 - seat)} resigns")
        self.finish(state, [seat])

    def on_next(self, state: State) -> None:
        raise Refused("in Fox and Geese a turn is a move: give its path (from, to)")

    def on_press(self, state: State, seat: int) -> None:
        raise Refused("Fox and Geese has no seat-button action: give the move's path")

    def after_event(self, state: State, event: Event) -> None:                # F1 clocks
        now = _clock_time(event.at)
        if now is None:
            if state.turn != state.data["clock_seat"]:
                state.data["clock_from"] = None         # this turn's start is unknown
            state.data["clock_seat"] = state.turn
            return
        since, seat = _clock_time(state.data["clock_from"]), state.data["clock_seat"]
        if since is not None and seat is not None:
            player = state.players[seat]
            player.extra["clock_seconds"] = round(player.extra["clock_seconds"]
                                                  + _seconds(since, now), 3)
        state.data["clock_from"], state.data["clock_seat"] = event.at, state.turn

    # -- showing ------------------------------------------------------------------------------

    def legal_paths(self, state: State) -> list[list[str]]:
        """Every legal move now, as paths of point names (none once the game is over)."""
        if state.over or state.phase != "play":
            return []
        return [path_words(m) for m in self.position(state).moves()]

    def prompt(self, state: State) -> str:
        if state.over:
            return "Game over"
        player = state.players[state.turn]
        what = "move a goose" if player.role == GEESE else "move the Fox"
        return f"{player.name} ({player.role.capitalize()}) - {what}"

    def extra_json(self, state: State) -> dict[str, Any]:
        return {"geese_left": len(state.data["geese"]),
                "board": {"fox": state.data["fox"], "geese": list(state.data["geese"]),
                          "sideways": list(state.board["sideways"]),
                          "last_move": state.data["last_move"],
                          "moves": self.legal_paths(state)},
                "clock": {"seat": state.data["clock_seat"],
                          "since": state.data["clock_from"]}}
