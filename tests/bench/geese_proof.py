"""Can the Geese force a win? A depth-first proof-number search (df-pn) over the exact rules.

The Geese to move win a position if some move leaves the Fox unable to move or leads, after
every reply of the Fox, to a position they win (F2, F3); they lose when they cannot move or
are fewer than `geese_to_pen`. Geese never step back, so a game is at most their moves in hand
long and a proof is finite. Proof and disproof numbers (Nagai's df-pn) pick the position to
look at next; positions are kept by (Fox, geese, side), so transpositions are proved once.

`--strict`: a goose offered to the Fox (a position where the Fox must jump) counts as a loss,
so the search asks whether the Geese can pen the Fox without ever offering a goose. A Fox on a
haven (a point no goose can reach again, beside another) is a loss for the Geese there: exact
under --strict (the Fox walks to and fro until the Geese run out), and otherwise it only makes
a proven win stricter.

Run: `python tests/bench/geese_proof.py [--strict] [--min-geese N] [--nodes N]` (from the
start); bench_pi.py reports the strict answer.
"""

from __future__ import annotations

import argparse
import sys
import time

import common  # noqa: F401  (puts the project on the path)
from companion.games.fox_and_geese import Board, moves_after
from companion.pi.fox_search import FoxSearch, Level
from companion.replay import replay

INF = 10 ** 9


class OutOfNodes(Exception):
    pass


def start_position() -> tuple[Board, int, int, int]:
    """The board, the Fox's point, the geese mask and `geese_to_pen` of a new game on the
    default board (F1), as the rulebook sets it up."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
    position = table.rulebook.position(table.state)
    return position.board, position.fox, position.geese, table.state.board["geese_to_pen"]


class GeeseProof:
    """df-pn for the Geese: `solve(fox, geese)` is True (a forced win), False, or None when
    the node budget ran out."""

    def __init__(self, board: Board, geese_to_pen: int, *, strict: bool = False,
                 nodes: int = 1_000_000):
        self.board, self.to_pen = board, geese_to_pen
        self.strict, self.budget = strict, nodes
        self.havens = FoxSearch(board, geese_to_pen, level=Level("proof", 1, 1, 0, 0)).havens
        self.numbers: dict[int, tuple[int, int]] = {}     # key -> (proof, disproof) in work
        self.settled: dict[int, tuple[int, int]] = {}     # key -> (0, INF) or (INF, 0)
        self.children: dict[int, list[int]] = {}
        self.nodes = 0

    @staticmethod
    def key(fox: int, geese: int, fox_to_move: bool) -> int:
        return (geese << 6 | fox) << 1 | fox_to_move

    def _expand(self, key: int):
        fox_to_move, fox, geese = key & 1, key >> 1 & 63, key >> 7
        if geese.bit_count() < self.to_pen:
            return None, (INF, 0)
        moves = moves_after(self.board, fox, geese, bool(fox_to_move))
        if not moves:                      # F3: the side to move cannot move
            return None, ((0, INF) if fox_to_move else (INF, 0))
        if fox_to_move and self.strict and moves[0][2] != geese:
            return None, (INF, 0)          # a goose offered
        if not fox_to_move and self.havens(geese) >> fox & 1:
            return None, (INF, 0)
        return [self.key(f, g, not fox_to_move) for _, f, g in moves], None

    def _numbers(self, key: int) -> tuple[int, int]:
        return self.numbers.get(key) or self.settled.get(key) or (1, 1)

    def _mid(self, key: int, proof_limit: int, disproof_limit: int) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes
        if key in self.settled:
            return
        children = self.children.get(key)
        if children is None:
            children, result = self._expand(key)
            if result is not None:
                self.settled[key] = result
                return
            self.children[key] = children
        geese_to_move = not key & 1        # an OR node for the Geese
        while True:
            values = [self._numbers(c) for c in children]
            if geese_to_move:
                proof = min(v[0] for v in values)
                disproof = min(INF, sum(v[1] for v in values))
            else:
                proof = min(INF, sum(v[0] for v in values))
                disproof = min(v[1] for v in values)
            if proof == 0 or disproof == 0:
                self.settled[key] = (proof, disproof)
                self.numbers.pop(key, None)
                self.children.pop(key, None)
                return
            self.numbers[key] = (proof, disproof)
            if proof >= proof_limit or disproof >= disproof_limit:
                return
            side = 0 if geese_to_move else 1
            order = sorted(range(len(children)), key=lambda i: values[i][side])
            best = order[0]
            second = values[order[1]][side] if len(order) > 1 else INF
            if geese_to_move:
                self._mid(children[best], min(proof_limit, second + 1),
                          disproof_limit - disproof + values[best][1])
            else:
                self._mid(children[best], proof_limit - proof + values[best][0],
                          min(disproof_limit, second + 1))

    def solve(self, fox: int, geese: int) -> bool | None:
        root = self.key(fox, geese, False)
        try:
            self._mid(root, INF, INF)
        except OutOfNodes:
            return None
        return self._numbers(root)[0] == 0

    def winning_move(self, fox: int, geese: int):
        """A proven winning move of the Geese here (after `solve` returned True)."""
        for path, f, g in moves_after(self.board, fox, geese, False):
            if self.settled.get(self.key(f, g, True), (1, 1))[0] == 0:
                return path
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="no goose may be offered")
    parser.add_argument("--min-geese", type=int, help="fewer geese than this lose (default 6)")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    board, fox, geese, to_pen = start_position()
    proof = GeeseProof(board, args.min_geese or to_pen, strict=args.strict, nodes=args.nodes)
    started = time.perf_counter()
    result = proof.solve(fox, geese)
    words = {True: "the Geese win", False: "the Geese cannot force a win",
             None: "not settled within the budget"}[result]
    print(f"from the start{' (no goose offered)' if args.strict else ''}: {words}; "
          f"{proof.nodes:,} positions in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
