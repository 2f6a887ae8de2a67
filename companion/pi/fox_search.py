"""The Pi's Fox and Geese search: alpha-beta over bit masks.

A position is three numbers: the Fox's point, the geese as a bit mask of point indexes and the
side to move. Moves come from per-point tables of the board (a goose's steps, the Fox's steps
and jumps), each with the position it leads to (`moves_after`, the referee's own), so nothing is
rebuilt at a node. The search is negamax with principal-variation windows, iterative deepening
inside a node budget and an optional deadline (a clock callable injected by the caller: the
companion keeps no clock), a transposition table, the table's move, two killer moves a ply and
a history table for ordering, and a quiescence step that plays out the Fox's forced jumps.

The evaluation knows what decides the game (F3): geese taken, the room the Fox has, the jumps on
offer, the geese's moves in hand (they never step back, so they can run out of moves, unless the
board data puts two sideways points side by side: a goose there can step to and fro for ever,
and counts `ENDLESS` moves) and havens, points no goose can ever reach again, where the Fox
walks about until the geese run out (a weight, not a won game: a goose offered for a jump can
still draw the Fox away).
Pure: the easy level's randomness is an injected generator (anything with `.random()`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from companion.games.fox_and_geese import POINTS, Board, Move, Position, moves_after

WIN = 100_000
NEAR_WIN = WIN - 1_000                 # scores beyond this are forced results
PER_GOOSE = 100                        # a goose taken, for the Fox
PER_ROOM = 6                           # a point the Fox can reach
PER_STEP = 4                           # a step the Fox can take now
PER_JUMP = 60                          # a jump on offer
PER_PASSED = 30                        # a goose ahead of the Fox's row: it cannot come back
HAVEN = 1_500                          # the Fox on a haven: the Geese can never pen it
CAN_REACH_HAVEN = 300                  # a haven within the Fox's reach
PER_RESERVE = 8                        # a move the geese still have in hand (they never step back)
ENDLESS = 14                           # moves in hand of a goose that steps to and fro for ever


class Generator(Protocol):
    def random(self) -> float: ...


@dataclass(frozen=True)
class Level:
    """How hard the Pi plays: search depth and budget, and how much it errs on purpose."""

    name: str
    depth: int            # deepest iteration
    nodes: int            # node budget over all iterations
    seconds: float        # time budget when a clock is given
    noise: float          # random points added to each root move's score (0: none)
    proof_nodes: int = 0  # the Geese's proof search, when the Fox is shut in (0: never)
    proof_seconds: float = 0.0   # its time budget when a clock is given


@dataclass
class SearchResult:
    path: tuple[int, ...]
    score: int            # for the side to move, in points (WIN is a won game)
    depth: int            # deepest completed iteration
    nodes: int


class OutOfBudget(Exception):
    """The node budget or the deadline ran out mid-iteration."""


ALL_POINTS = sum(1 << p for p in POINTS)
EVEN = sum(1 << p for p in POINTS if (p % 7 + p // 7) % 2 == 0)
NOT_A = ALL_POINTS & ~sum(1 << (r * 7) for r in range(7))        # points with a left neighbour
NOT_G = ALL_POINTS & ~sum(1 << (r * 7 + 6) for r in range(7))
ABOVE = tuple(sum(1 << p for p in POINTS if p // 7 > row) for row in range(7))


def spread(mask: int) -> int:
    """Every point one line away from a point of the mask (the cross's lines as shifts)."""
    even = mask & EVEN
    return ALL_POINTS & ((mask << 7) | (mask >> 7) | ((mask & NOT_G) << 1)
                         | ((mask & NOT_A) >> 1) | ((even & NOT_G) << 8) | ((even & NOT_A) << 6)
                         | ((even & NOT_A) >> 8) | ((even & NOT_G) >> 6))


def fox_room(fox: int, empty: int) -> int:
    """The points the Fox can walk to through the empty points (its own included)."""
    room = frontier = 1 << fox
    while frontier:
        frontier = spread(frontier) & empty & ~room
        room |= frontier
    return room


def sideways_mask(board: Board) -> int:
    """The points where a goose may also step sideways, as a mask."""
    return sum(1 << p for p in board.sideways)


def havens(geese: int, sideways: int) -> int:
    """The points where the Fox can walk to and fro for ever: joined points no goose can ever
    reach (geese never step back), where it cannot be penned. `sideways`: `sideways_mask`."""
    cone = frontier = geese
    while frontier:
        even = frontier & EVEN
        frontier = ALL_POINTS & ~cone & (
            (frontier << 7) | ((even & NOT_G) << 8) | ((even & NOT_A) << 6)
            | ((frontier & sideways & NOT_G) << 1) | ((frontier & sideways & NOT_A) >> 1))
        cone |= frontier
    out = ALL_POINTS & ~cone
    return out & spread(out)


@lru_cache(maxsize=16)
def moves_in_hand(board: Board) -> tuple[int, ...]:
    """Per point, the moves a goose there has in hand on an empty board: its longest walk, or
    `ENDLESS` if it can reach two sideways points side by side and step to and fro for ever.
    A walk that never comes back takes at most one sideways step a row (onto a point that is
    not sideways: two side by side make a cycle) and six forward, 13 in all, fewer than
    `ENDLESS`."""
    run = (0,) * len(board.goose_steps)
    for _ in range(ENDLESS):            # walks one step longer each time, up to ENDLESS
        run = tuple(min(ENDLESS, max((1 + run[t] for t in steps), default=0))
                    for steps in board.goose_steps)
    return run


def geese_come_back(board: Board) -> bool:
    """A goose can come back to a point it left: two sideways points are side by side."""
    return ENDLESS in moves_in_hand(board)


@lru_cache(maxsize=16)
def reserve_by_row(board: Board) -> tuple[tuple[int, ...], ...]:
    """Per row and per pattern of geese on that row (7 bits), the moves those geese still
    have ahead of them on an empty board (`moves_in_hand`): the geese's moves in hand are the
    sum over rows."""
    ahead = moves_in_hand(board)
    return tuple(tuple(sum(ahead[row * 7 + c] for c in range(7) if pattern >> c & 1)
                       for pattern in range(128)) for row in range(7))


class FoxSearch:
    """Negamax over (fox, geese mask, fox to move); scores are for the side to move."""

    def __init__(self, board: Board, geese_to_pen: int, *, level: Level,
                 rng: Generator | None = None, clock: Callable[[], float] | None = None):
        self.board, self.to_pen, self.level = board, geese_to_pen, level
        self.rng, self.clock = rng, clock
        self.nodes = 0
        self.deadline: float | None = None
        self.table: dict[int, tuple[int, int, int, tuple]] = {}
        self.history: dict[tuple[int, ...], int] = {}
        self.killers: dict[int, list[tuple[int, ...]]] = {}
        self._moves: dict[int, list[Move]] = {}
        self._values: dict[int, int] = {}
        self._reserve = reserve_by_row(board)
        self._sideways = sideways_mask(board)

    # moves ---------------------------------------------------------------------------------

    def moves(self, fox: int, geese: int, fox_to_move: bool) -> list[Move]:
        """Every legal move as (path, the Fox's point after, the geese after)."""
        return moves_after(self.board, fox, geese, fox_to_move)

    def _known_moves(self, key: int, fox: int, geese: int, fox_to_move: bool) -> list:
        known = self._moves.get(key)
        if known is None:
            known = self._moves[key] = self.moves(fox, geese, fox_to_move)
        return known

    # evaluation ------------------------------------------------------------------------------

    def evaluate(self, fox: int, geese: int) -> int:
        """The position for the Fox (see the module's docstring)."""
        key = geese << 6 | fox
        value = self._values.get(key)
        if value is not None:
            return value
        empty = ALL_POINTS & ~geese & ~(1 << fox)
        room = fox_room(fox, empty)
        threats = 0
        for over, _, land_bit in self.board.jump_bits[fox]:
            if geese & over and empty & land_bit:
                threats += 1
        row = fox // 7
        value = (-PER_GOOSE * geese.bit_count() + PER_ROOM * room.bit_count()
                 + PER_STEP * (self.board.neighbours[fox] & empty).bit_count()
                 + PER_JUMP * threats + PER_PASSED * (geese & ABOVE[row]).bit_count()
                 - PER_RESERVE * self.reserve(geese))
        haven = self.havens(geese)
        if haven >> fox & 1:
            value += HAVEN
        elif room & haven:
            value += CAN_REACH_HAVEN
        self._values[key] = value
        return value

    def reserve(self, geese: int) -> int:
        """The moves the geese still have in hand (`reserve_by_row`)."""
        rows = self._reserve
        return (rows[0][geese & 127] + rows[1][geese >> 7 & 127] + rows[2][geese >> 14 & 127]
                + rows[3][geese >> 21 & 127] + rows[4][geese >> 28 & 127]
                + rows[5][geese >> 35 & 127] + rows[6][geese >> 42 & 127])

    def havens(self, geese: int) -> int:
        """The Fox's havens with these geese on this board (`havens`)."""
        return havens(geese, self._sideways)

    # search ----------------------------------------------------------------------------------

    def choose(self, position: Position) -> SearchResult:
        """The move to play: iterative deepening until the depth, nodes or time run out."""
        root = self.moves(position.fox, position.geese, position.fox_to_move)
        if not root:
            raise ValueError("no legal move to choose from")
        if len(root) == 1:
            return SearchResult(root[0][0], 0, 0, 0)
        if self.clock is not None:
            self.deadline = self.clock() + self.level.seconds
        noise_on = self.rng is not None and self.level.noise > 0
        noise = {m[0]: self.rng.random() * self.level.noise if noise_on else 0.0 for m in root}
        best = SearchResult(root[0][0], 0, 0, 0)
        for depth in range(1, self.level.depth + 1):
            try:
                scores = self._root(position.fox_to_move, root, depth, exact=noise_on)
            except OutOfBudget:
                break
            path = max(root, key=lambda m: scores[m[0]] + noise[m[0]])[0]
            best = SearchResult(path, scores[path], depth, self.nodes)
            root.sort(key=lambda m: (m[0] != path, -scores[m[0]]))   # the best first next time
            if abs(scores[path]) >= NEAR_WIN:
                break                                      # a forced result is found
        best.nodes = self.nodes
        return best

    def _root(self, fox_to_move: bool, root: list, depth: int, exact: bool) -> dict:
        """Each root move's score. With `exact` every score is exact (for the noise of the
        easy level); otherwise a move that does not beat the best so far gets a bound only
        (a null window first, searched again in full only if it might be better)."""
        scores, alpha = {}, -WIN - 1
        after = not fox_to_move
        for i, (path, fox, geese) in enumerate(root):
            if exact or i == 0:
                score = -self._negamax(fox, geese, after, depth - 1, -WIN - 1,
                                       WIN + 1 if exact else -alpha, 1)
            else:
                score = -self._negamax(fox, geese, after, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -self._negamax(fox, geese, after, depth - 1, -WIN - 1, -alpha, 1)
            scores[path] = score
            alpha = max(alpha, score)
        return scores

    def _negamax(self, fox: int, geese: int, fox_to_move: bool, depth: int, alpha: int,
                 beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.level.nodes or (
                self.deadline is not None and not self.nodes & 255
                and self.clock() > self.deadline):
            raise OutOfBudget
        if geese.bit_count() < self.to_pen:                               # F3: too few
            return WIN - ply if fox_to_move else -(WIN - ply)
        key = (geese << 6 | fox) << 1 | fox_to_move
        moves = self._known_moves(key, fox, geese, fox_to_move)
        if not moves:                                                     # F3: cannot move
            return -(WIN - ply)
        forced = fox_to_move and moves[0][2] != geese     # a jump chain: the Fox must take it
        if depth <= 0 and not forced:                     # quiescence: forced jumps are played
            score = self.evaluate(fox, geese)
            return score if fox_to_move else -score
        hit = self.table.get(key)
        first = None
        if hit is not None:
            h_depth, h_score, h_flag, first = hit
            if h_depth >= depth and (h_flag == 0 or (h_flag < 0 and h_score <= alpha)
                                     or (h_flag > 0 and h_score >= beta)):
                return h_score
        ordered = self._order(moves, first, ply)
        start_alpha, best, best_move = alpha, -WIN - 1, ordered[0][0]
        after = not fox_to_move
        for i, (path, nf, ng) in enumerate(ordered):
            if i == 0:
                score = -self._negamax(nf, ng, after, depth - 1, -beta, -alpha, ply + 1)
            else:
                score = -self._negamax(nf, ng, after, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._negamax(nf, ng, after, depth - 1, -beta, -score, ply + 1)
            if score > best:
                best, best_move = score, path
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        self._cut_by(path, depth, ply)
                        break
        flag = -1 if best <= start_alpha else 1 if best >= beta else 0
        self.table[key] = (depth, best, flag, best_move)
        return best

    def _order(self, moves: list, first, ply: int) -> list:
        """The table's move, then this ply's killers, then by history."""
        if len(moves) == 1:
            return moves
        history, killers = self.history, self.killers.get(ply, ())

        def rank(move) -> int:
            path = move[0]
            if path == first:
                return -(1 << 40)
            if path in killers:
                return -(1 << 30)
            return -history.get(path, 0)
        return sorted(moves, key=rank)

    def _cut_by(self, path: tuple[int, ...], depth: int, ply: int) -> None:
        self.history[path] = self.history.get(path, 0) + depth * depth
        killers = self.killers.setdefault(ply, [])
        if path not in killers:
            killers.insert(0, path)
            del killers[2:]
