"""The Pi's Fox and Geese search as it was in November 2026 (before the bit-mask search of
`companion/pi/fox_search.py`), frozen as a bench opponent: the new "best" must score at least half
against it from either side (`bench_pi.py`). Not used by the product.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.pi.fox_search import (ABOVE, ALL_POINTS, WIN, Level, OutOfBudget, SearchResult,
                                  fox_room)
from companion.games.fox_and_geese import Board, Position, taken_mask

WEIGHTS = (100, 6, 4, 60, 30)  # per goose, per point of room, per step, per jump, per passed
BEST_BEFORE = Level("best", 12, 12_000, 1.8, 0.0)


class FoxSearchBefore:
    """Negamax over (fox, geese mask, fox to move); scores are for the side to move."""

    def __init__(self, board: Board, geese_to_pen: int, *, level: Level,
                 rng=None, clock: Callable[[], float] | None = None):
        self.board, self.to_pen, self.level = board, geese_to_pen, level
        self.rng, self.clock = rng, clock
        self.nodes = 0
        self.weights = WEIGHTS
        self.deadline: float | None = None
        self.table: dict[tuple[int, int, bool], tuple[int, int, int, tuple]] = {}
        self.history: dict[tuple[int, ...], int] = {}     # moves that cut off, by depth
        # Iterative deepening walks the same positions again at every depth: their moves,
        # values and the geese a path takes are worked out once (the search is unchanged).
        self._known_moves: dict[tuple[int, int, bool], tuple[tuple[int, ...], ...]] = {}
        self._values: dict[tuple[int, int], int] = {}
        self._taken: dict[tuple[int, ...], int] = {}

    # moves ---------------------------------------------------------------------------------

    def moves(self, fox: int, geese: int, fox_to_move: bool) -> list[tuple[int, ...]]:
        return Position(self.board, fox, geese, fox_to_move).moves()

    def _moves(self, fox: int, geese: int, fox_to_move: bool) -> list[tuple[int, ...]]:
        key = (fox, geese, fox_to_move)
        known = self._known_moves.get(key)
        if known is None:
            known = self._known_moves[key] = tuple(self.moves(fox, geese, fox_to_move))
        return list(known)

    def _value(self, fox: int, geese: int) -> int:
        key = (fox, geese)
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = self.evaluate(fox, geese)
        return value

    def _taken_by(self, path: tuple[int, ...]) -> int:
        mask = self._taken.get(path)
        if mask is None:
            mask = self._taken[path] = taken_mask(path)
        return mask

    # evaluation ------------------------------------------------------------------------------

    def evaluate(self, fox: int, geese: int) -> int:
        """The position for the Fox: geese taken, the room it has, jumps on offer, geese it
        has got behind (they cannot come back)."""
        board = self.board
        empty = ALL_POINTS & ~geese & ~(1 << fox)
        room = fox_room(fox, empty)
        threats = 0
        for over, land in board.jumps[fox]:
            if geese >> over & 1 and empty >> land & 1:
                threats += 1
        w = self.weights
        return (-w[0] * geese.bit_count() + w[1] * room.bit_count()
                + w[2] * (board.neighbours[fox] & empty).bit_count() + w[3] * threats
                + w[4] * (geese & ABOVE[fox // 7]).bit_count())

    # search ----------------------------------------------------------------------------------

    def choose(self, position: Position) -> SearchResult:
        """The move to play: iterative deepening until the depth, nodes or time run out."""
        root = position.moves()
        if not root:
            raise ValueError("no legal move to choose from")
        if self.clock is not None:
            self.deadline = self.clock() + self.level.seconds
        noise_on = self.rng is not None and self.level.noise > 0
        noise = {m: self.rng.random() * self.level.noise if noise_on else 0.0 for m in root}
        best = SearchResult(root[0], 0, 0, 0)
        if len(root) == 1:
            return SearchResult(root[0], 0, 0, 0)
        for depth in range(1, self.level.depth + 1):
            try:
                path, scores = self._root(position, root, depth, exact=bool(noise_on))
            except OutOfBudget:
                break
            if noise_on:
                path = max(root, key=lambda m: scores[m] + noise[m])
            best = SearchResult(path, scores[path], depth, self.nodes)
            root.remove(path)
            root.sort(key=lambda m: -scores[m])            # the best first next time
            root.insert(0, path)
            if abs(scores[path]) >= WIN - 1000:
                break                                      # a forced result is found
        best.nodes = self.nodes
        return best

    def _root(self, position: Position, root: list, depth: int, exact: bool):
        """Each root move's score, and the best move. With `exact` every score is exact (for
        the noise of the easy level); otherwise a move that does not beat the best so far
        gets a bound only, so the best is the first move to raise alpha."""
        scores, alpha, best = {}, -WIN - 1, root[0]
        for path in root:
            fox, geese, after = self._play(position.fox, position.geese, position.fox_to_move,
                                           path)
            score = -self._negamax(fox, geese, after, depth - 1, -WIN - 1,
                                   WIN + 1 if exact else -alpha, 1)
            scores[path] = score
            if score > alpha:
                alpha, best = score, path
        return best, scores

    def _play(self, fox: int, geese: int, fox_to_move: bool, path: tuple[int, ...]):
        if fox_to_move:
            return path[-1], geese & ~self._taken_by(path), False
        return fox, geese ^ (1 << path[0]) ^ (1 << path[1]), True

    def _negamax(self, fox: int, geese: int, fox_to_move: bool, depth: int, alpha: int,
                 beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.level.nodes or (
                self.deadline is not None and self.nodes % 256 == 0
                and self.clock() > self.deadline):
            raise OutOfBudget
        if bin(geese).count("1") < self.to_pen:                           # F3: too few
            return WIN - ply if fox_to_move else -(WIN - ply)
        moves = self._moves(fox, geese, fox_to_move)
        if not moves:                                                     # F3: cannot move
            return -(WIN - ply)
        forced = fox_to_move and self._taken_by(moves[0])
        if depth <= 0 and not forced:                     # quiescence: forced jumps are played
            score = self._value(fox, geese)
            return score if fox_to_move else -score
        key = (fox, geese, fox_to_move)
        hit = self.table.get(key)
        history = self.history
        if len(moves) > 1:
            moves.sort(key=lambda m: -history.get(m, 0))
        if hit is not None:
            h_depth, h_score, h_flag, first = hit
            if h_depth >= depth and (h_flag == 0 or (h_flag < 0 and h_score <= alpha)
                                     or (h_flag > 0 and h_score >= beta)):
                return h_score
            if first in moves:
                moves.remove(first)
                moves.insert(0, first)
        start_alpha, best, best_move = alpha, -WIN - 1, moves[0]
        for path in moves:
            nf, ng, nt = self._play(fox, geese, fox_to_move, path)
            score = -self._negamax(nf, ng, nt, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, path
            if best > alpha:
                alpha = best
            if alpha >= beta:
                history[path] = history.get(path, 0) + depth * depth
                break
        flag = -1 if best <= start_alpha else 1 if best >= beta else 0
        self.table[key] = (depth, best, flag, best_move)
        return best
