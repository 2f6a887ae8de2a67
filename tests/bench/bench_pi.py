"""The Pi as a Fox and Geese player: "best" against "easy" from either side (100 games a side,
10 with --quick), and the time and nodes per second of every "best" move in those games, with
the Zero 2 W estimate (the README's 15-20 times slower). Goal: a "best" move under 2 s there.

Run alone: `python tests/bench/bench_pi.py [--games N]` (or `run.py --only pi`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import common
from companion.events import parse_event
from companion.games.fox_and_geese import FoxAndGeese, path_words
from companion.pi_player import LEVELS, FoxSearch
from companion.replay import replay

ZERO_2W_SLOWER_BY = (15, 20)         # README: a Zero 2 W against this machine
GOAL_ZERO_S = 2.0
MAX_MOVES = 400


def play(best_side: str, seed: int, moves_out: list) -> list[int]:
    """One game, "best" playing `best_side` ("fox" or "geese"), "easy" the other; returns the
    winners. Each "best" move's (seconds, nodes) goes to `moves_out`."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Fox", "Geese"]}])
    rulebook: FoxAndGeese = table.rulebook
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        state = table.state
        if state.over:
            return state.winners
        side = "fox" if state.turn == 0 else "geese"
        level = LEVELS["best" if side == best_side else "easy"]
        position = rulebook.position(state)
        search = FoxSearch(position.board, state.board["geese_to_pen"], level=level, rng=rng)
        start = time.perf_counter()
        result = search.choose(position)
        if side == best_side:
            moves_out.append((time.perf_counter() - start, result.nodes))
        table.apply(parse_event({"type": "move", "path": path_words(result.path)}))
    raise RuntimeError(f"seed {seed}: no end after {MAX_MOVES} moves")


def run(quick: bool = False, games: int | None = None, sides=("fox", "geese")) -> dict:
    games = games or (10 if quick else 100)
    out: dict = {"games_a_side": games, "levels": {k: vars(v) for k, v in LEVELS.items()}}
    for side, seat in (("fox", 0), ("geese", 1)):
        if side not in sides:
            continue
        moves: list[tuple[float, int]] = []
        wins = sum(seat in play(side, seed, moves) for seed in range(games))
        seconds = [s for s, _ in moves]
        per_s = [n / s for s, n in moves if s > 0]
        p50 = common.summary(seconds, 1000, 1)
        out[side] = {
            "best_wins": wins, "of": games, "goal_met": wins >= 0.9 * games,
            "best_move_ms": p50, "nodes_per_s": common.summary(per_s, 1, 0),
            "zero_2w_best_move_s": [round(p50["p50"] * f / 1000, 2) for f in ZERO_2W_SLOWER_BY],
            "zero_2w_worst_move_s": [round(p50["max"] * f / 1000, 2) for f in ZERO_2W_SLOWER_BY],
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games a side (default 100)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--side", choices=("fox", "geese"), help="only the Pi's best as this side")
    args = parser.parse_args()
    sides = (args.side,) if args.side else ("fox", "geese")
    print(json.dumps(run(args.quick, args.games, sides), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
