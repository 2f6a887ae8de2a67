"""The Pi as a Domino Rex player: each level's share of wins against random players at 2, 3
and 4 players (a shared win counts as its share), "best" against "good" head to head (seats
alternating), and the time of a "best" choice. Goal: "best" wins at least 0.94 against random
players (the share of the rulebook's Hint played as a player) at every table size, and beats "good".

Run alone: `python tests/bench/bench_domino.py [--games N]` (or `run.py --only domino`).
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc

import common
from companion.chances import domino_rex
from companion.events import parse_event
from companion.games import get_rulebook
from companion.pi.player import domino_rex_choice
from companion.replay import replay
from companion.randomness.rollstream import draw

RULEBOOK = get_rulebook("domino-rex")
NAMES = ["Ann", "Ben", "Cy", "Di"]
GOAL = 0.94


def play(levels: list[str], seed: int, times: list[float]) -> list[int]:
    """One game, each seat at its level ("random", "easy", "good", "best"); the winners."""
    table = replay([{"type": "new_game", "game": "domino-rex", "players": NAMES[:len(levels)]}])
    rng = random.Random(seed)
    stream = f"bench-domino-{seed}".encode()
    while not table.state.over:
        state = table.state
        if state.awaiting == "roll":
            body = {"type": "roll", "values": list(draw(stream, state.rolls,
                                                         RULEBOOK.randomizer_now(state)))}
        else:
            level = levels[state.turn]
            if level == "random":
                value = rng.choice(state.players[state.turn].extra["covered"])
            else:
                start = time.perf_counter()
                value = domino_rex_choice(state, level, rng=rng, rulebook=RULEBOOK)
                if level == "best":
                    times.append(time.perf_counter() - start)
            body = {"type": "choose", "value": value}
        table.apply(parse_event(body))
    return table.state.winners


def share(level: str, players: int, games: int, times: list[float]) -> float:
    """`level` in every seat in turn against random players: its share of the wins."""
    won = 0.0
    for game in range(games):
        seat = game % players
        levels = ["random"] * players
        levels[seat] = level
        winners = play(levels, game, times)
        won += 1 / len(winners) if seat in winners else 0.0
    return round(won / games, 3)


def plan_memo_mib(games: int = 5) -> float:
    """The memory the plans' memo holds after `games` 3-player games of "best" against "good"
    and a random player (five fill it), from an empty memo: what the program and the chances
    worker each keep once a table has played them."""
    domino_rex._plan.cache_clear()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for game in range(games):
        play(["best", "good", "random"], 20_000 + game, [])
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return round(held / 2**20, 1)


def first_choice_cold(games: int = 10) -> list[float]:
    """Seconds of each game's first "best" choice from an empty memo of plans (as after a
    restart: the memo fills as it plans), 2 players against a random one."""
    times = []
    for game in range(games):
        domino_rex._plan.cache_clear()
        first: list[float] = []
        play(["best", "random"], 30_000 + game, first)
        times.append(first[0])
    return times


def run(quick: bool = False, games: int | None = None) -> dict:
    games = games or (30 if quick else 400)
    times: list[float] = []
    out: dict = {"games": games}
    for level in ("good", "best"):
        out[level] = {str(n): share(level, n, games, times if level == "best" else [])
                      for n in (2, 3, 4)}
    best_seat_wins = 0.0
    for game in range(games):
        levels = ["best", "good"] if game % 2 == 0 else ["good", "best"]
        winners = play(levels, 10_000 + game, [])
        best_seat_wins += sum(1 / len(winners) for w in winners if levels[w] == "best")
    out["best_against_good"] = round(best_seat_wins / games, 3)
    out["best_move_ms"] = common.summary(times, 1000, 2)
    out["first_choice_cold_ms"] = common.summary(first_choice_cold(5 if quick else 20), 1000, 1)
    out["plan_memo_mib"] = plan_memo_mib()
    out["goal_met"] = all(v >= GOAL for v in out["best"].values()) and \
        out["best_against_good"] > 0.5
    return out


if __name__ == "__main__":
    sys.exit(common.run_games_alone(__doc__, run, "games a table size (400)"))
