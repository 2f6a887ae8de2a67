"""Can the Geese force a win from the start? The Pi's own proof search
(`companion.pi.geese_proof`, df-pn over the exact rules) run from the rulebook's set-up.

`--strict`: a goose offered to the Fox counts as a loss, so the search asks whether the Geese
can pen the Fox without ever offering a goose (exact: no, in about 131,000 positions).

Run: `python tests/bench/fox_and_geese/geese_proof.py [--strict] [--min-geese N] [--nodes N]`
(from the start); bench_pi.py reports the strict answer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))      # the bench's `common`
import common  # noqa: E402,F401  (puts the project on the path)
from companion.games.fox_and_geese import Board
from companion.pi.geese_proof import GeeseProof
from companion.replay import replay


def start_position() -> tuple[Board, int, int, int]:
    """The board, the Fox's point, the geese mask and `geese_to_pen` of a new game on the
    default board (F1), as the rulebook sets it up."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
    position = table.rulebook.position(table.state)
    return position.board, position.fox, position.geese, table.state.board["geese_to_pen"]


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
