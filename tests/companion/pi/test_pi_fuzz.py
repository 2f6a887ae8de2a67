"""The Pi never makes an illegal move and never stops the game: over random positions of both
games it knows, every level's event is one the rules accept, and so is the move it falls
back on when its search fails."""

from __future__ import annotations

import random

import pytest

from companion.events import parse_event
from companion.pi.player import LEVELS, fallback_event, fox_and_geese_move, pi_event
from companion.replay import replay
from companion.randomness.rollstream import draw


def random_positions(game: str, players: list[str], count: int, seed: int, board=None):
    """States of games played at random from the start, each stopped at a random point."""
    rng = random.Random(seed)
    found = []
    extra = {} if board is None else {"board": board}
    while len(found) < count:
        table = replay([{"type": "new_game", "game": game, "players": players, **extra}])
        stop = rng.randrange(1, 80)
        for step in range(stop):
            state = table.state
            if state.over:
                break
            if state.awaiting == "roll":
                body = {"type": "roll", "values": list(draw(b"fuzz", state.rolls,
                                                            table.rulebook.randomizer_now(state)))}
            elif state.awaiting == "move":
                body = {"type": "move", "path": rng.choice(table.rulebook.legal_paths(state))}
            else:
                body = {"type": "choose",
                        "value": rng.choice(state.players[state.turn].extra["covered"])}
            table.apply(parse_event(body))
        if not table.state.over:
            found.append(table)
    return found


def accepted(table, event) -> bool:
    """The rules take the event (attempt raises Refused otherwise). The Pi's throw is
    {"type": "roll"}: the session draws its values from the committed stream, as here."""
    if event == {"type": "roll"}:
        state = table.state
        event = {"type": "roll", "values": list(draw(b"fuzz", state.rolls,
                                                    table.rulebook.randomizer_now(state)))}
    table.attempt(parse_event(event))
    return True


@pytest.mark.parametrize("game, players, levels, count", [
    ("fox-and-geese", ["Fox", "Geese"], ("easy", "good"), 120),
    ("fox-and-geese", ["Fox", "Geese"], ("best",), 12),
    ("domino-rex", ["Ann", "Ben", "Cy"], ("easy", "good", "best"), 150),
    ("domino-rex", ["Ann", "Ben"], ("best",), 100),
])
def test_pi_fuzz_every_level_moves_legally(game, players, levels, count):
    rng = random.Random(7)
    for table in random_positions(game, players, count, seed=len(players) * 31 + count):
        for level in levels:
            event = pi_event(table.rulebook, table.state, level, rng=rng)
            assert event is not None and accepted(table, event), (level, event)


@pytest.mark.parametrize("game, players", [("fox-and-geese", ["Fox", "Geese"]),
                                           ("domino-rex", ["Ann", "Ben", "Cy", "Di"])])
def test_pi_fuzz_the_fallback_without_search_is_legal_too(game, players):
    rng = random.Random(3)
    for table in random_positions(game, players, 150, seed=99):
        event = fallback_event(table.rulebook, table.state, rng=rng)
        assert event is not None and accepted(table, event), event


def shut_in_positions(count: int, seed: int):
    """Random Geese-to-move positions with the Fox shut in (room at most SHUT_IN points),
    where the "best" Geese try a proof: pieces placed at random, kept when the Geese can move."""
    from companion.games.fox_and_geese import POINTS, name
    from companion.pi.fox_search import ALL_POINTS, fox_room
    from companion.pi.player import SHUT_IN

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
        fox, *geese = rng.sample(POINTS, rng.randrange(7, 19))
        mask = sum(1 << p for p in geese)
        if fox_room(fox, ALL_POINTS & ~mask & ~(1 << fox)).bit_count() > SHUT_IN:
            continue
        table.state.data["fox"] = name(fox)
        table.state.data["geese"] = sorted(name(p) for p in geese)
        if table.rulebook.legal_paths(table.state):
            found.append(table)
    return found


def test_pi_fuzz_best_geese_with_a_proof_and_a_kept_plan_move_legally():
    """Where the proof search decides (the Fox shut in), and with one memory carried from
    position to position (a plan from one must never be played in another), every move is
    legal."""
    from companion.pi.player import PiMemory

    memory, proved = PiMemory(), 0
    for table in shut_in_positions(30, seed=5):
        event = pi_event(table.rulebook, table.state, "best", memory=memory)
        assert event is not None and accepted(table, event), event
        if memory.geese_plan is not None:
            proved += 1
    assert proved > 0                      # the proof path was taken, not only the search


# Board data the referee accepts with two sideways points side by side: a goose there can step
# to and fro, so its moves in hand never run out and a position can come again.
SIDE_BY_SIDE = [["a3", "b3", "c3", "e3"], ["c3", "d3"], ["c5", "d5"]]


def side_by_side_board(sideways: list[str]) -> dict:
    return {"sideways": sideways, "vacant": ["a4", "g4"], "geese_to_pen": 6}


@pytest.mark.parametrize("sideways", SIDE_BY_SIDE)
def test_pi_plays_its_own_search_on_a_board_with_neighbouring_sideways_points(sideways):
    """Over random positions of such a board, with either side to move, every level's move
    comes from its own search (no fallback in between) and the rules accept it."""
    rng = random.Random(2)
    sides = set()
    for table in random_positions("fox-and-geese", ["Fox", "Geese"], 70, seed=17,
                                  board=side_by_side_board(sideways)):
        sides.add(table.rulebook.position(table.state).fox_to_move)
        legal = table.rulebook.legal_paths(table.state)
        for level in LEVELS:
            path = fox_and_geese_move(table.rulebook, table.state, level, rng=rng)
            assert path in legal, (level, path)
    assert sides == {True, False}


@pytest.mark.parametrize("sideways", SIDE_BY_SIDE)
@pytest.mark.parametrize("level", list(LEVELS))
def test_pi_plays_whole_games_against_itself_on_a_board_with_neighbouring_sideways_points(
        sideways, level):
    """The Pi plays both seats from the first move to the end (a repeated position ends it
    too, F3), every move its own search's and legal."""
    table = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["Fox", "Geese"],
                     "board": side_by_side_board(sideways)}])
    rng = random.Random(4)
    for _ in range(400):
        if table.state.over:
            break
        path = fox_and_geese_move(table.rulebook, table.state, level, rng=rng)
        assert path in table.rulebook.legal_paths(table.state), path
        table.apply(parse_event({"type": "move", "path": path}))
    assert table.state.over
