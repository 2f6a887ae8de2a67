"""The Pi as a Fox and Geese player, and how its strength is measured:

- "best" against "easy" from either side, 100 games a side (10 with --quick), the levels
  playing as the Pi does (the "best" Geese with their proof search and a kept plan);
- the "best" Geese against a Fox that plays at random, 100 games (the goal is 0 losses, as
  against "easy");
- how much the "best" Geese's record hangs on the search's budget: the games against "easy"
  again with 2,800 and 3,200 positions a move instead of 3,000 (a kind "best/3200");
- "best" against "best" and "best" against the search of November 2026
  (`fox_and_geese/fox_search_before.py`), from varied openings: the first 4 moves at random,
  each seed once with each side;
- the time and nodes per second of every "best" move, with the Zero 2 W estimate (the
  README's 15-20 times slower), beside the earlier search's time on the same moves' games;
- whether the Geese can pen the Fox from the start without ever offering a goose, proved
  over the exact rules (`fox_and_geese/geese_proof.py --strict`).

Run alone: `python tests/bench/bench_pi.py [--games N]` (or `run.py --only pi`).
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from multiprocessing import Pool

import common
from fox_and_geese.fox_search_before import BEST_BEFORE, FoxSearchBefore
from fox_and_geese.geese_proof import start_position
from companion.events import parse_event
from companion.pi.fox_search import FoxSearch
from companion.pi.geese_proof import GeeseProof
from companion.games.fox_and_geese import path_words
from companion.pi.player import LEVELS, PiMemory, proven_geese_move
from companion.replay import replay

ZERO_2W_SLOWER_BY = (15, 20)         # README: a Zero 2 W against this machine
GOAL_ZERO_S = 0.5
README_BEFORE_MS = (137, 147)        # the README's "best" move, Fox · Geese, before this search
MAX_MOVES = 400
OPENING = 4                          # random moves before the players take over (varied games)
BUDGETS = (2_800, 3_200)             # the "best" Geese's positions a move, beside the level's own
TIMED = ("best", "before")           # the kinds whose move times the summary reads


def level_of(kind: str):
    """The Pi's level named by a kind: "best", or "best/3200" for "best" with another budget
    of positions a move."""
    name, _, nodes = kind.partition("/")
    return dataclasses.replace(LEVELS[name], nodes=int(nodes)) if nodes else LEVELS[name]


def chooser(kind: str, rng: random.Random):
    """A player: "random", "easy", "good", "best" (or "best/3200", `level_of`) or "before"
    (the earlier search). The levels play as the Pi does, with a memory for the Geese's
    proven plan; a move from a proof has no search nodes (None)."""
    memory = PiMemory()

    def choose(position, to_pen):
        if kind == "random":
            moves = position.moves()
            return moves[int(rng.random() * len(moves))], 0
        if kind == "before":
            result = FoxSearchBefore(position.board, to_pen, level=BEST_BEFORE).choose(position)
        else:
            level = level_of(kind)
            if not position.fox_to_move and level.proof_nodes:
                path = proven_geese_move(position, to_pen, level, memory=memory)
                if path is not None:
                    return path, None
            result = FoxSearch(position.board, to_pen, level=level, rng=rng).choose(position)
        return result.path, result.nodes
    return choose


def play(job: tuple) -> tuple[list[int], dict]:
    """One game (fox kind, geese kind, seed, random opening moves): the winners and, for the
    `TIMED` kinds, (seconds, nodes) per move."""
    fox_kind, geese_kind, seed, opening = job
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Fox", "Geese"]}])
    rng = random.Random(seed)
    players = {0: (fox_kind, chooser(fox_kind, rng)), 1: (geese_kind, chooser(geese_kind, rng))}
    timed: dict[str, list] = {}
    for ply in range(MAX_MOVES):
        state = table.state
        if state.over:
            return state.winners, timed
        kind, choose = players[state.turn]
        if ply < opening:
            kind, choose = "random", chooser("random", rng)
        start = time.perf_counter()
        path, nodes = choose(table.rulebook.position(state), state.board["geese_to_pen"])
        if kind in TIMED:
            timed.setdefault(f"{kind}-{'fox' if state.turn == 0 else 'geese'}", []).append(
                (time.perf_counter() - start, nodes))
        table.apply(parse_event({"type": "move", "path": path_words(path)}))
    raise RuntimeError(f"{job}: no end after {MAX_MOVES} moves")


def series(pool, fox: str, geese: str, games: int, opening: int = 0) -> dict:
    results = pool.map(play, [(fox, geese, seed, opening) for seed in range(games)])
    timed: dict[str, list] = {}
    for _, t in results:
        for key, moves in t.items():
            timed.setdefault(key, []).extend(moves)
    return {"fox": fox, "geese": geese, "games": games, "opening_random_moves": opening,
            "fox_won": sum(w == [0] for w, _ in results),
            "geese_won": sum(w == [1] for w, _ in results),
            "drawn": sum(w not in ([0], [1]) for w, _ in results), "_timed": timed}


def run(quick: bool = False, games: int | None = None) -> dict:
    games = games or (10 if quick else 100)
    varied = max(4, games // 5)
    out: dict = {"games_a_side": games, "levels": {k: vars(v) for k, v in LEVELS.items()}}
    with Pool(2) as pool:
        matches = {
            "best_fox_vs_easy": series(pool, "best", "easy", games),
            "best_geese_vs_easy": series(pool, "easy", "best", games),
            "best_geese_vs_random": series(pool, "random", "best", games),
            **{f"best_geese_vs_easy_at_{n}": series(pool, "easy", f"best/{n}", games)
               for n in BUDGETS},
            "best_vs_best": series(pool, "best", "best", varied, OPENING),
            "best_fox_vs_before": series(pool, "best", "before", varied, OPENING),
            "before_fox_vs_best": series(pool, "before", "best", varied, OPENING),
            "before_vs_before": series(pool, "before", "before", varied, OPENING),
        }
    timed: dict[str, list] = {}
    for match in matches.values():
        for key, moves in match.pop("_timed").items():
            timed.setdefault(key, []).extend(moves)
    out["matches"] = matches
    out["goals"] = {
        "best_fox_beats_easy_100": matches["best_fox_vs_easy"]["fox_won"] == games,
        "best_geese_beat_easy_92": matches["best_geese_vs_easy"]["geese_won"] >= 0.92 * games,
        "best_geese_lose_none_to_easy": matches["best_geese_vs_easy"]["fox_won"] == 0,
        "best_geese_lose_none_to_random": matches["best_geese_vs_random"]["fox_won"] == 0,
        "best_fox_scores_half_against_before":
            matches["best_fox_vs_before"]["fox_won"] >= varied / 2,
        "best_geese_score_half_against_before":
            matches["before_fox_vs_best"]["geese_won"] >= varied / 2,
    }
    for side in ("fox", "geese"):
        moves = timed.get(f"best-{side}", [])
        seconds = [s for s, _ in moves]
        p50 = common.summary(seconds, 1000, 1)
        before = common.summary([s for s, _ in timed.get(f"before-{side}", [])], 1000, 1)
        out[side] = {
            "best_move_ms": p50, "before_move_ms": before,
            "nodes_per_s": common.summary([n / s for s, n in moves if s > 0 and n], 1, 0),
            "moves_from_a_proof": sum(n is None for _, n in moves),
            "faster_than_readme_before": round(
                README_BEFORE_MS[side == "geese"] / p50["p50"], 1) if moves else None,
            "zero_2w_best_move_s": [round(p50["p50"] * f / 1000, 2) for f in ZERO_2W_SLOWER_BY],
            "zero_2w_worst_move_s": [round(p50["max"] * f / 1000, 2) for f in ZERO_2W_SLOWER_BY],
        }
        out["goals"][f"zero_2w_{side}_under_0_5_s"] = \
            p50["p50"] * max(ZERO_2W_SLOWER_BY) / 1000 < GOAL_ZERO_S
    out["proof_no_goose_offered"] = strict_proof()
    return out


def strict_proof() -> dict:
    """Whether the Geese can pen the Fox from the start without ever offering a goose
    (`geese_proof.py --strict`: an exact answer, not a measurement of the search)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    board, fox, geese, to_pen = start_position()
    proof = GeeseProof(board, to_pen, strict=True, nodes=2_000_000, near_first=False)
    started = time.perf_counter()
    result = proof.solve(fox, geese)
    return {"geese_can_force_a_win": result, "positions": proof.nodes,
            "seconds": round(time.perf_counter() - started, 1)}


if __name__ == "__main__":
    sys.exit(common.run_games_alone(__doc__, run, "games a side (default 100)"))
