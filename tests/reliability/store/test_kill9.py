"""Power cuts, for real: `parlour run --sim` killed with SIGKILL at random moments while a
game is played through the device panel and the control API, then started again.

After every restart: the store opens (nothing moved aside), the table shows exactly the replay
of the stored log of the unfinished game, every game's status agrees with its log (over with
its winners if the log ends the game, else playing or set aside; one playing game at most),
every state a 200 response or /api/state showed is
in the stored log, in order (nothing acknowledged is lost), and every roll ever made, undone
or not, is the committed stream's (so a restart never changes what the next roll is).

Every AIM_EVERY-th cycle is aimed at a game's end: a game is declared over and the kill comes
within a few milliseconds, while its last event and "over" are being committed.

`make soak` runs many more cycles: PARLOUR_SOAK=<cycles>, PARLOUR_SOAK_SEED=<seed>.
"""

from __future__ import annotations

import http.client
import os
import random
import threading
import time
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.randomness.stats import verify_rolls
from firmware.oled.views import choices
from reliability_support import (StoredGame, comparable, control, device, prefix_states,
                                 read_store, request)
from simulated_table import SimulatedTable

SUITE_CYCLES = 25
SOAK_CYCLES = int(os.environ.get("PARLOUR_SOAK") or 0)
CYCLES = max(SOAK_CYCLES, SUITE_CYCLES)
DEADLINE = 150.0 if not SOAK_CYCLES else 6 * 3600.0
ACTIONS_PER_CYCLE = 5000             # a bound only: the kill comes within 0.6 s
PLAYERS = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
AIM_EVERY = 3                        # a cycle in 3 kills the table as a game ends
STATS: dict[str, int] = {}


def sensible(state: dict) -> tuple[str, dict]:
    """The move the game waits for, as a control action."""
    awaiting, turn = state.get("awaiting"), state.get("turn") or 0
    if awaiting == "press":
        return "press", {"seat": turn}
    if awaiting == "choose":
        options = choices(state) or [0]
        return "choose", {"value": options[0]}
    if awaiting == "next":
        return "next", {}
    if awaiting == "declare":
        return "declare", {"winners": [turn]}
    return "roll", {}


def device_input(rng: random.Random) -> dict:
    kind = rng.choices(["seat", "press", "turn", "flick", "undo", "menu", "hold"],
                       weights=[6, 4, 2, 6, 1, 1, 1])[0]
    if kind == "seat":
        return {"input": "seat", "seat": rng.randrange(4)}
    if kind in ("undo", "menu"):
        return {"input": kind}
    if kind == "turn":
        return {"input": "knob", "action": "turn", "detents": rng.choice([-2, -1, 1, 2])}
    if kind == "flick":
        return {"input": "knob", "action": "flick", "detents": rng.randint(4, 20)}
    return {"input": "knob", "action": kind}


def noise(rng: random.Random, state: dict) -> tuple[str, dict]:
    seats = max(1, len(state.get("players") or []))
    return rng.choice([
        ("undo", {}), ("roll", {}), ("next", {}),
        ("press", {"seat": rng.randrange(seats + 1)}),
        ("choose", {"value": rng.randint(0, 12)}),
        ("transfer", {"from": "pool", "to": rng.randrange(seats), "amount": rng.randint(1, 3),
                      "reason": "found under the board"}),
        ("transfer", {"from": rng.randrange(seats), "to": "pool", "amount": rng.randint(1, 50)}),
        ("rename", {"seat": rng.randrange(seats), "name": rng.choice(["Bea", "Cas", "Dot"])}),
    ])


def play(port: int, rng: random.Random, state: dict, acks: list[tuple[int, dict]]) -> None:
    """Random inputs until the server goes away; every state it acknowledges goes in `acks`."""
    for _ in range(ACTIONS_PER_CYCLE):
        try:
            if state.get("phase") in (None, "idle", "over") or rng.random() < 0.01:
                game = rng.choice(list(GAMES.values()))
                players = PLAYERS[:rng.randint(game.min_players, min(game.max_players, 4))]
                status, body = control(port, "new-game", {"game": game.id, "players": players})
            elif rng.random() < 0.35:
                status, body = device(port, device_input(rng))
                if status == 200:
                    status, body = request(port, "GET", "/api/state")
            else:
                action, data = sensible(state) if rng.random() < 0.7 else noise(rng, state)
                status, body = control(port, action, data)
        except (OSError, http.client.HTTPException):
            return                                    # killed under us
        assert status < 500, body
        if status == 200 and isinstance(body, dict) and "phase" in body:
            state = body
            if body.get("game_id") is not None:
                acks.append((body["game_id"], comparable(body)))


def end_a_game(server: SimulatedTable, rng: random.Random,
               acks: list[tuple[int, dict]]) -> None:
    """A free-play game past its lead, declared over with a SIGKILL a few ms later."""
    port = server.port
    status, state = control(port, "new-game", {"game": "free-play", "players": PLAYERS[:2]})
    while status == 200 and state["phase"] == "lead":
        status, state = control(port, "roll")
    assert status == 200, state
    killer = threading.Timer(rng.uniform(0.0, 0.006), server.kill9)
    killer.start()
    try:
        status, state = control(port, "declare", {"winners": [rng.randrange(2)]})
        if status == 200:
            acks.append((state["game_id"], comparable(state)))
    except (OSError, http.client.HTTPException):
        pass                                          # killed under us
    killer.join()


def check_statuses(games: dict[int, StoredGame]) -> None:
    """Each stored game's status against what its log says."""
    for game in games.values():
        final = prefix_states(game.events)[-1]
        if final["phase"] == "over":
            assert (game.status, game.winners) == ("over", final["winners"]), \
                f"game {game.id} is over in its log but {game.status} in the store"
        else:
            assert game.status in ("playing", "abandoned"), \
                f"game {game.id} is not over in its log but {game.status} in the store"
    assert sum(g.status == "playing" for g in games.values()) <= 1, "two games playing"


def check_restart(db: Path, first_state: dict, acks: list[tuple[int, dict]]) -> None:
    """The restarted table against its store and against what was acknowledged."""
    assert not [p.name for p in db.parent.iterdir() if ".corrupt-" in p.name or
                ".newer-" in p.name], "the store was set aside after a plain kill"
    games = {g.id: g for g in read_store(db)}
    check_statuses(games)
    unfinished = [g for g in games.values() if g.status == "playing"]
    if unfinished:
        latest = max(unfinished, key=lambda g: g.id)
        assert first_state["game_id"] == latest.id
        assert comparable(first_state) == prefix_states(latest.events)[-1], \
            "the resumed table is not the replay of its stored log"
    else:
        assert first_state["phase"] == "idle"
    for game_id in dict.fromkeys(g for g, _ in acks):
        states = prefix_states(games[game_id].events)
        STATS["events"] = STATS.get("events", 0) + len(states)
        floor = 0
        for _, acked in (a for a in acks if a[0] == game_id):
            found = next((i for i in range(floor, len(states)) if states[i] == acked), None)
            assert found is not None, f"an acknowledged state of game {game_id} was lost"
            floor = found
            STATS["acks"] = STATS.get("acks", 0) + 1
    for game in games.values():
        if any(e.get("type") == "roll" for e in game.events):
            result = verify_rolls(game.events, seed=game.seed)
            assert result.ok, f"game {game.id}: {result.message}"


def checked(db: Path, first_state: dict, acks: list[tuple[int, dict]], where: str) -> None:
    """check_restart, with the seed and cycle to replay a failure (PARLOUR_SOAK_SEED)."""
    try:
        check_restart(db, first_state, acks)
    except AssertionError as err:
        raise AssertionError(f"{where}: {err}") from err


@pytest.mark.slow
def test_kill9_restarts_lose_nothing_acknowledged(tmp_path):
    seed = int(os.environ.get("PARLOUR_SOAK_SEED") or random.randrange(2**32))
    rng = random.Random(seed)
    data = tmp_path / "data"
    db = data / "parlour.db"
    deadline = time.monotonic() + DEADLINE
    acks: list[tuple[int, dict]] = []
    cycles = 0
    STATS.clear()
    while cycles < CYCLES and time.monotonic() < deadline:
        server = SimulatedTable(data, tmp_path)
        try:
            if db.exists() and cycles:
                checked(db, server.first_state, acks, f"seed {seed}, cycle {cycles}")
            acks = []
            if cycles % AIM_EVERY == AIM_EVERY - 1:
                end_a_game(server, rng, acks)
                STATS["aimed"] = STATS.get("aimed", 0) + 1
            else:
                killer = threading.Timer(rng.uniform(0.05, 0.6), server.kill9)
                killer.start()
                play(server.port, rng, server.first_state, acks)
                killer.join()
        finally:
            out, err = server.kill9()
        assert "Traceback" not in err, f"seed {seed}: {err}"
        cycles += 1
    server = SimulatedTable(data, tmp_path)           # the last kill is checked too
    try:
        checked(db, server.first_state, acks, f"seed {seed}, after the last kill")
    finally:
        out, err = server.stop()
    assert "Traceback" not in err and "stopped" in out
    print(f"\nkill -9: {cycles} cycles ({STATS.get('aimed', 0)} aimed at a game's end), "
          f"{STATS.get('acks', 0)} acknowledged states found in "
          f"{STATS.get('events', 0)} replayed events, seed {seed}")
    assert cycles >= SUITE_CYCLES, f"only {cycles} kill -9 cycles before the deadline"
