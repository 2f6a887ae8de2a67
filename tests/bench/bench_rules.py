"""Rules throughput: random complete games of each fully refereed game, replayed with the pure
`replay` fold. Games are made from fixed seeds with the committed roll stream
(companion.randomness.rollstream.draw); Domino Rex's turns are `choose` events of a covered
square."""

from __future__ import annotations

import json
import random
import time

import common  # noqa: F401  (puts the project on sys.path)
from companion.events import parse_event
from companion.replay import Table, replay, replay_lines, state_json
from companion.randomness.rollstream import draw

GAMES = {"kat-en-muis": 2, "lifes-mishaps": 4, "cats-and-dogs": 4, "domino-rex": 3}
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
MAX_EVENTS = 5000


def random_game(game: str, players: int, number: int) -> list[dict]:
    """One complete game as its log (dicts), from seed `number`."""
    seed = f"bench-{game}-{number}".encode()
    pick = random.Random(number)
    log = [{"type": "new_game", "game": game, "players": NAMES[:players]}]
    table = Table()
    table.apply(parse_event(log[0]))
    while not table.state.over:
        if len(log) > MAX_EVENTS:
            raise RuntimeError(f"{game} seed {number}: no end after {MAX_EVENTS} events")
        state = table.state
        if state.awaiting == "roll":
            dice = table.rulebook.randomizer_now(state)
            body = {"type": "roll", "values": list(draw(seed, state.rolls, dice))}
        elif state.awaiting == "choose":
            body = {"type": "choose",
                    "value": pick.choice(state.players[state.turn].extra["covered"])}
        else:
            raise RuntimeError(f"{game}: a random game cannot answer {state.awaiting!r}")
        log.append(body)
        table.apply(parse_event(body))
    return log


def run(quick: bool = False) -> dict:
    n_games = 20 if quick else 60
    runs = 3 if quick else 5
    out = {}
    for game, players in GAMES.items():
        logs = [random_game(game, players, i) for i in range(n_games)]
        parsed = [[parse_event(e) for e in log] for log in logs]
        lines = ["\n".join(json.dumps(e) for e in log) for log in logs]
        events = sum(len(log) for log in logs)

        def fold() -> float:
            start = time.perf_counter()
            for events_ in parsed:
                replay(events_)
            return time.perf_counter() - start

        def from_text() -> float:
            start = time.perf_counter()
            for text in lines:
                replay_lines(text.splitlines())
            return time.perf_counter() - start

        def with_json() -> float:
            """As the session does: every event applied, then the state JSON built."""
            start = time.perf_counter()
            for events_ in parsed:
                table = Table()
                for event in events_:
                    table.apply(event)
                    state_json(table.rulebook, table.state)
            return time.perf_counter() - start

        # Each run repeats the corpus enough times to last ~0.15 s (0.05 s quick).
        reps = max(1, round((0.05 if quick else 0.15) / fold()))
        fold_t = [sum(fold() for _ in range(reps)) / reps for _ in range(runs)]
        text_t = [sum(from_text() for _ in range(reps)) / reps for _ in range(runs)]
        json_t = [sum(with_json() for _ in range(reps)) / reps for _ in range(runs)]
        out[game] = {
            "games": n_games, "events": events, "events_per_game": round(events / n_games, 1),
            "events_per_s": common.summary([events / t for t in fold_t], digits=0),
            "games_per_s": common.summary([n_games / t for t in fold_t], digits=1),
            "events_per_s_from_jsonl": common.summary([events / t for t in text_t], digits=0),
            "events_per_s_with_state_json": common.summary([events / t for t in json_t],
                                                           digits=0),
        }
    return out


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
