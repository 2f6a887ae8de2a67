"""Can the Geese force a win from here? A depth-first proof-number search (df-pn) over the
exact rules, and the plan it proves.

The Geese to move win a position if some move leaves the Fox unable to move or leads, after
every reply of the Fox, to a position they win (F2, F3); they lose when they cannot move or
are fewer than `geese_to_pen`. Geese never step back, so no position comes twice (the game is a
finite graph without cycles: F3's draw by repetition cannot happen) and a proof is finite. Board
data with two sideways points side by side lets a goose step to and fro (`geese_come_back`):
there none of this holds, and `solve` settles nothing (None).
Proof and disproof numbers (Nagai's df-pn, with Pawlewicz's 1+epsilon thresholds) pick the
position to look at next; positions are kept by (Fox, geese, side), so transpositions are
proved once, and jump chains that end in the same position count as one move.

Most wins are won near the Fox: so `solve` first looks for a proof in which the geese more than
`NEAR` steps from the Fox only wait, with one of their moves (far fewer positions: a win in a
shut-in position of a bench game took 19,235 positions this way, 231,720 over every move), and
only then over every move. Both are real proofs (the Fox has every reply in both); only the
second can show that no win exists.

A proof is kept as a `GeesePlan`: the winning move at every position of the proof tree where
the Geese choose, whatever the Fox replies, so the rest of a proven game costs nothing.

`strict`: a goose offered to the Fox (a position where the Fox must jump) counts as a loss, so
the search asks whether the Geese can pen the Fox without ever offering a goose. A Fox on a
haven (a point no goose can reach again, beside another) counts as a loss for the Geese: exact
under `strict` (the Fox walks to and fro until the Geese run out); otherwise it only makes a
proven win stricter (a won position may go unproved, a proof is always sound).
Pure: time is an injected clock callable, as for the search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from companion.games.fox_and_geese import Board, bits, moves_after
from companion.pi.fox_search import geese_come_back, havens, sideways_mask

INF = 1 << 40
EPSILON = 0.25                     # a child's threshold: the second best's number, 25 % over
UNKNOWN = (1, 1)                   # the numbers of a position not looked at yet
NEAR = 2                           # steps from the Fox within which the near proof moves geese


class OutOfBudget(Exception):
    """The node budget or the deadline ran out."""


@dataclass(frozen=True)
class GeesePlan:
    """A proven win: the Geese's move at each position of the proof tree where they choose,
    for one board and `geese_to_pen` (another board data's game has other moves and ends)."""

    moves: dict[int, tuple[int, ...]]        # key(fox, geese, Geese to move) -> path
    board: Board
    to_pen: int

    def move_for(self, fox: int, geese: int) -> tuple[int, ...] | None:
        return self.moves.get(key(fox, geese, False))

    def fits(self, board: Board, geese_to_pen: int) -> bool:
        return board == self.board and geese_to_pen == self.to_pen


def key(fox: int, geese: int, fox_to_move: bool) -> int:
    return (geese << 6 | fox) << 1 | fox_to_move


@lru_cache(maxsize=16)
def near_masks(board: Board) -> tuple[int, ...]:
    """Per point: the points at most `NEAR` steps from it along the lines (itself included)."""
    masks = []
    for point in range(len(board.neighbours)):
        near = 1 << point
        for _ in range(NEAR):
            for p in bits(near):
                near |= board.neighbours[p]
        masks.append(near)
    return tuple(masks)


class GeeseProof:
    """df-pn for the Geese: `solve(fox, geese)` is True (a forced win), False, or None when
    the node budget or the time ran out. `near_first`: try the proof near the Fox first."""

    def __init__(self, board: Board, geese_to_pen: int, *, strict: bool = False,
                 nodes: int = 1_000_000, clock: Callable[[], float] | None = None,
                 seconds: float = 0.0, near_first: bool = True):
        self.board, self.to_pen = board, geese_to_pen
        self.strict, self.budget = strict, nodes
        self.clock, self.seconds = clock, seconds
        self.near_first = near_first
        self.near: tuple[int, ...] | None = None     # the near proof's masks, while it runs
        self.deadline: float | None = None
        self.limit = 0
        self.sideways = sideways_mask(board)
        self.known: dict[int, tuple[int, int]] = {}   # key -> (proof, disproof); 0: settled
        self.children: dict[int, list[int]] = {}      # the positions in work
        self.nodes = 0                                 # positions looked at by `solve`

    def _expand(self, at: int):
        """The children's keys, or None and the settled numbers of an end of the game."""
        fox_to_move, fox, geese = at & 1, at >> 1 & 63, at >> 7
        if geese.bit_count() < self.to_pen:
            return None, (INF, 0)
        moves = moves_after(self.board, fox, geese, bool(fox_to_move))
        if not moves:                      # F3: the side to move cannot move
            return None, ((0, INF) if fox_to_move else (INF, 0))
        if fox_to_move and self.strict and moves[0][2] != geese:
            return None, (INF, 0)          # a goose offered
        if not fox_to_move and havens(geese, self.sideways) >> fox & 1:
            return None, (INF, 0)
        if self.near is not None and not fox_to_move:
            moves = self._near_moves(moves, self.near[fox])
        return list(dict.fromkeys(key(f, g, not fox_to_move) for _, f, g in moves)), None

    @staticmethod
    def _near_moves(moves, near: int):
        """The geese's moves from or to a point near the Fox, and one other (a waiting move)."""
        kept, waiting = [], True
        for move in moves:
            path = move[0]
            if (1 << path[0] | 1 << path[-1]) & near:
                kept.append(move)
            elif waiting:
                kept.append(move)
                waiting = False
        return kept

    def _mid(self, at: int, proof_limit: int, disproof_limit: int) -> None:
        self.nodes += 1
        if self.nodes > self.limit or (self.deadline is not None and not self.nodes & 1023
                                        and self.clock() > self.deadline):
            raise OutOfBudget
        known = self.known
        numbers = known.get(at)
        if numbers is not None and not (numbers[0] and numbers[1]):
            return
        children = self.children.get(at)
        if children is None:
            children, result = self._expand(at)
            if result is not None:
                known[at] = result
                return
            self.children[at] = children
        geese_to_move = not at & 1         # an OR node for the Geese
        mine = 0 if geese_to_move else 1   # the number the side to move makes small
        while True:
            best, first, second, total = 0, INF + 1, INF, 0
            for i, child in enumerate(children):
                numbers = known.get(child, UNKNOWN)
                if numbers[mine] < first:
                    best, second, first = i, first, numbers[mine]
                elif numbers[mine] < second:
                    second = numbers[mine]
                total += numbers[1 - mine]
            total = min(total, INF)
            proof, disproof = (first, total) if geese_to_move else (total, first)
            known[at] = (proof, disproof)
            if proof == 0 or disproof == 0:
                del self.children[at]
                return
            if proof >= proof_limit or disproof >= disproof_limit:
                return
            child = children[best]
            numbers = known.get(child, UNKNOWN)
            tight = min(INF, int(min(second, INF) * (1 + EPSILON)) + 1)
            if geese_to_move:
                self._mid(child, min(proof_limit, tight),
                          disproof_limit - disproof + numbers[1])
            else:
                self._mid(child, proof_limit - proof + numbers[0],
                          min(disproof_limit, tight))

    def solve(self, fox: int, geese: int) -> bool | None:
        """True: the Geese to move here force a win; False: they cannot; None: not settled.
        With `near_first`, the proof near the Fox has half the node budget and a third of the
        time; unless it proves a win, the search over every move has the whole budget, to the
        same deadline. None on a board where geese can come back (see the module's
        docstring)."""
        if geese_come_back(self.board):
            return None
        start = self._now()
        self.nodes = 0
        if self.near_first:
            if self._search(fox, geese, near_masks(self.board), self.budget // 2, start,
                            self.seconds / 3):
                return True
            self.known.clear()
            self.children.clear()
        return self._search(fox, geese, None, self.budget, start, self.seconds)

    def solve_near(self, fox: int, geese: int) -> bool | None:
        """True: a proof in which the geese more than `NEAR` steps from the Fox only wait, with
        one of their moves; False: none with those moves (another may exist); None: not
        settled, as on a board where geese can come back. Its numbers stay in the table: call
        it on a new `GeeseProof`, or use `solve`."""
        if geese_come_back(self.board):
            return None
        return self._search(fox, geese, near_masks(self.board), self.budget, self._now(),
                            self.seconds)

    def _now(self) -> float | None:
        return self.clock() if self.clock is not None else None

    def _search(self, fox: int, geese: int, near: tuple[int, ...] | None, nodes: int,
                start: float | None, seconds: float) -> bool | None:
        self.near, self.limit = near, self.nodes + nodes
        self.deadline = None if start is None else start + seconds
        root = key(fox, geese, False)
        try:
            self._mid(root, INF, INF)
        except OutOfBudget:
            return None
        finally:
            self.near = None
        return self.known[root][0] == 0

    def winning_move(self, fox: int, geese: int) -> tuple[int, ...] | None:
        """A proven winning move of the Geese here (after `solve` returned True)."""
        won = self._winning(fox, geese)
        return won[0] if won is not None else None

    def _winning(self, fox: int, geese: int):
        """The first proven move here as (path, the Fox's point, the geese after), or None."""
        for move in moves_after(self.board, fox, geese, False):
            if self.known.get(key(move[1], move[2], True), UNKNOWN)[0] == 0:
                return move
        return None

    def plan(self, fox: int, geese: int) -> GeesePlan:
        """The proof tree from here (after `solve` returned True) as the Geese's moves."""
        moves: dict[int, tuple[int, ...]] = {}
        waiting = [(fox, geese)]
        while waiting:
            fox, geese = waiting.pop()
            at = key(fox, geese, False)
            if at in moves:
                continue
            won = self._winning(fox, geese)
            if won is None:
                raise ValueError("no proven move here: solve first")
            moves[at], f, g = won
            waiting.extend((f2, g2) for _, f2, g2 in moves_after(self.board, f, g, True))
        return GeesePlan(moves, self.board, self.to_pen)
