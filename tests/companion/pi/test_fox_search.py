"""What the Fox and Geese search knows beyond the next moves, each from ruling F3 ("the Fox
wins when the Geese cannot move"): geese never step back (F2), so their moves in hand run out,
and a Fox that reaches points no goose can ever reach cannot be penned."""

from __future__ import annotations

import random

from companion.pi.fox_search import CAN_REACH_HAVEN, HAVEN, PER_GOOSE, FoxSearch, Level
from companion.games.fox_and_geese import POINTS, board_for, parse_point
from companion.replay import replay

BOARD = board_for(frozenset({parse_point("c3"), parse_point("e3")}))    # F2's default sideways
LEVEL = Level("x", 1, 1, 1.0, 0.0)


def mask(*names: str) -> int:
    return sum(1 << parse_point(n) for n in names)


def goose_cone(start: int) -> set[int]:
    """Every point a goose from `start` could ever stand on (F2 steps, on an empty board)."""
    seen, todo = {start}, [start]
    while todo:
        for t in BOARD.goose_steps[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def longest(point: int) -> int:
    return max((1 + longest(t) for t in BOARD.goose_steps[point]), default=0)


def test_f3_the_geese_moves_in_hand_are_their_longest_walks_forward():
    search = FoxSearch(BOARD, 6, level=LEVEL)
    start = replay([{"type": "new_game", "game": "fox-and-geese", "players": ["F", "G"]}])
    geese = start.rulebook.position(start.state).geese
    # rows 1 and 2 walk 7 and 6 steps, row 3 four (five from the sideways points), row 4 three
    assert search.reserve(geese) == sum(longest(p) for p in POINTS if geese >> p & 1) == 81
    rng = random.Random(5)
    for _ in range(300):
        some = sum(1 << p for p in POINTS if rng.random() < 0.4)
        assert search.reserve(some) == sum(longest(p) for p in POINTS if some >> p & 1)
    assert search.reserve(mask("a5", "c7", "g5")) == 0            # dead ends: nowhere to go


def test_f3_havens_are_joined_points_no_goose_can_ever_reach():
    search = FoxSearch(BOARD, 6, level=LEVEL)
    rng = random.Random(8)
    for _ in range(300):
        geese = sum(1 << p for p in POINTS if rng.random() < 0.3)
        reach = set().union(*(goose_cone(p) for p in POINTS if geese >> p & 1))
        free = {p for p in POINTS if p not in reach}
        want = {p for p in free if any(q in free for q in BOARD.steps[p])}
        assert search.havens(geese) == sum(1 << p for p in want)


def test_f3_a_fox_below_every_goose_is_on_a_haven_and_counted_so():
    search = FoxSearch(BOARD, 6, level=LEVEL)
    geese = mask("a3", "b3", "c3", "d3", "e3", "f3", "g3", "c4", "d4", "e4")
    assert search.havens(geese) == mask("c1", "d1", "e1", "c2", "d2", "e2")
    below, above = search.evaluate(parse_point("d2"), geese), \
        search.evaluate(parse_point("d6"), geese)
    assert below - above >= HAVEN - 100           # room and steps differ a little, not more
    walled = mask("a3", "b3", "c3", "d3", "e3", "f3", "g3", "c2", "e2")
    assert search.havens(walled) == mask("c1", "d1", "e1", "d2")      # no goose comes back
    # without d3 the Fox can walk from d6 down to d2 and stay there for ever
    opened = walled & ~mask("d3")
    assert search.havens(opened) == search.havens(walled)
    gain = search.evaluate(parse_point("d6"), opened) - search.evaluate(parse_point("d6"), walled)
    assert gain >= CAN_REACH_HAVEN + PER_GOOSE

