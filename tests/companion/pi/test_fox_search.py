"""What the Fox and Geese search knows beyond the next moves, each from ruling F3 ("the Fox
wins when the Geese cannot move"): geese never step back (F2), so their moves in hand run out
(unless two sideways points side by side let one step to and fro for ever), and a Fox that
reaches points no goose can ever reach cannot be penned."""

from __future__ import annotations

import random

import pytest

from companion.pi.fox_search import (CAN_REACH_HAVEN, ENDLESS, HAVEN, PER_GOOSE, FoxSearch, Level,
                                     geese_come_back, moves_in_hand, reserve_by_row)
from companion.games.fox_and_geese import POINTS, board_for, parse_point
from companion.replay import replay

BOARD = board_for(frozenset({parse_point("c3"), parse_point("e3")}))    # F2's default sideways
LEVEL = Level("x", 1, 1, 1.0, 0.0)


def mask(*names: str) -> int:
    return sum(1 << parse_point(n) for n in names)


def goose_cone(start: int, board=BOARD) -> set[int]:
    """Every point a goose from `start` could ever stand on (F2 steps, on an empty board)."""
    seen, todo = {start}, [start]
    while todo:
        for t in board.goose_steps[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def longest(point: int, board=BOARD) -> int:
    """The longest walk of a goose from `point`, where no walk comes back to a point."""
    return max((1 + longest(t, board) for t in board.goose_steps[point]), default=0)


def sideways_board(*names: str):
    return board_for(frozenset(parse_point(n) for n in names))


def side_by_side(board) -> set[int]:
    """The sideways points with a sideways neighbour on their row: a goose steps to and fro."""
    return {p for p in board.sideways if any(t in board.sideways and t // 7 == p // 7
                                             for t in board.goose_steps[p])}


SIDE_BY_SIDE = [("a3", "b3", "c3", "e3"), ("c3", "d3"), ("c5", "d5")]


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



def test_f3_moves_in_hand_on_the_default_board_are_the_longest_walks_as_ever():
    """Every entry of the table, per row and pattern, is the sum of the geese's longest walks,
    as it was when walks were counted by a recursion that assumes no goose comes back."""
    table = reserve_by_row(BOARD)
    assert not geese_come_back(BOARD)
    for row in range(7):
        for pattern in range(128):
            want = sum(longest(row * 7 + c) for c in range(7) if pattern >> c & 1)
            assert table[row][pattern] == want, (row, pattern)
    assert max(moves_in_hand(BOARD)) == 7 < ENDLESS


def test_f3_endless_is_more_than_any_walk_on_boards_where_no_goose_comes_back():
    rng = random.Random(11)
    for _ in range(200):
        board = sideways_board(*(n for n in ("a3", "b3", "c1", "c2", "c3", "c4", "c5", "d3",
                                             "e3", "f3", "g3", "d5", "c7", "a5", "e1")
                                 if rng.random() < 0.4))
        if side_by_side(board):
            continue
        assert not geese_come_back(board)
        assert moves_in_hand(board) == tuple(longest(p, board) for p in range(49))
        assert max(moves_in_hand(board)) < ENDLESS


@pytest.mark.parametrize("sideways", SIDE_BY_SIDE)
def test_f3_a_goose_that_can_step_to_and_fro_has_endless_moves_in_hand(sideways):
    """On board data with two sideways points side by side, a goose that can reach them has
    `ENDLESS` moves in hand, the others their longest walks; more moves still count more."""
    board = sideways_board(*sideways)
    assert geese_come_back(board)
    ahead = moves_in_hand(board)
    endless = {p for p in POINTS if goose_cone(p, board) & side_by_side(board)}
    assert side_by_side(board) <= endless
    for p in POINTS:
        assert ahead[p] == (ENDLESS if p in endless else longest(p, board)), p
    search = FoxSearch(board, 6, level=LEVEL)
    rng = random.Random(6)
    for _ in range(200):
        some = sum(1 << p for p in POINTS if rng.random() < 0.4)
        assert search.reserve(some) == sum(ahead[p] for p in POINTS if some >> p & 1)
    first, last = min(endless), max(endless)
    assert search.reserve(1 << first) == ENDLESS
    assert search.reserve(1 << first | 1 << last) == 2 * ENDLESS
    assert search.reserve(mask("a5", "c7", "g5")) == 0
