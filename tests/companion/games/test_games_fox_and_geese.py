"""Fox and Geese (F1-F3), no dice: expectations by hand from RULINGS.md."""

from __future__ import annotations

import json
import re

import pytest

from companion.errors import BoardDataError
from companion.games import get_rulebook
from companion.games.fox_and_geese import POINTS, board_for, name, parse_point
from companion.replay import replay, replay_lines
from game_support import act, refusal

GAME = "fox-and-geese"
RULES = get_rulebook(GAME)


def at(seconds: int) -> str:
    return f"2024-03-01T20:{seconds // 60:02d}:{seconds % 60:02d}+00:00"


def new_game(**extra):
    return {"type": "new_game", "game": GAME, "players": ["Ann", "Ben"], **extra}


def move(*path, **extra):
    return {"type": "move", "path": list(path), **extra}


def clocks(table):
    return [p["clock_seconds"] for p in table.to_json()["players"]]


def set_up(table, fox: str, geese: list[str]):
    """A position laid out by hand on the table's latest state (the side to move is kept),
    seen once."""
    state = table.state
    state.data["fox"], state.data["geese"] = fox, sorted(geese)
    state.data["seen"] = {RULES.position(state).key(): 1}
    return table


def played(*paths, **game):
    """A table after these moves from the start."""
    return replay([new_game(**game)] + [move(*p) for p in paths])


def moves(table):
    return table.to_json()["board"]["moves"]


def test_fox_and_geese_board_has_33_points_and_the_printed_lines():
    board = board_for(frozenset())
    assert len(POINTS) == 33
    names = {name(p): {name(q) for q in board.steps[p]} for p in POINTS}
    assert names["d4"] == {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"}   # even: 8 lines
    assert names["c4"] == {"b4", "d4", "c3", "c5"}                           # odd: 4 lines
    assert names["c1"] == {"d1", "c2", "d2"}                                 # no b2 off the cross
    assert sum(len(s) for s in board.steps) // 2 == 72
    assert parse_point("b2") is None and parse_point("a1") is None and parse_point("x9") is None


def test_fox_and_geese_f1_fox_in_the_centre_geese_fill_their_end_and_move_first():
    table = replay([new_game()])
    state, out = table.state, table.to_json()
    assert [p.role for p in state.players] == ["fox", "geese"]             # Fox: seat 0
    assert (state.phase, state.turn, state.awaiting, state.lead) == ("play", 1, "move", None)
    assert out["board"]["fox"] == "d4" and out["geese_left"] == 17
    geese = set(out["board"]["geese"])
    assert {"c1", "d1", "e1", "c2", "d2", "e2", "a3", "g3", "b4", "f4"} <= geese
    assert not geese & {"d4", "a4", "g4", "c5"}
    assert "no throw is asked" in refusal(table, type="roll", values=[3])
    assert "a turn is a move" in refusal(table, type="next")
    assert "no seat-button action" in refusal(table, type="press", seat=0)


def test_fox_and_geese_f1_fox_seat_is_an_option_and_turns_alternate():
    table = replay([new_game(options={"fox_seat": 1})])
    assert [p.role for p in table.state.players] == ["geese", "fox"]
    assert table.state.turn == 0
    assert act(table, **move("c4", "c5")).turn == 1
    assert act(table, **move("d4", "d5")).turn == 0
    with pytest.raises(Exception, match="'fox_seat' must be from 0 to 1"):
        replay([new_game(options={"fox_seat": 2})])


def test_fox_and_geese_f1_clock_counts_each_players_thinking_time():
    log = [new_game(at=at(0)), move("c4", "c5", at=at(30)),               # Geese think 30 s
           move("d4", "d5", at=at(60)),                                    # Fox: 30 s
           move("e4", "e5", at=at(65))]                                    # Geese: 5 s more
    table = replay(log)
    assert clocks(table) == [30.0, 35.0]
    assert table.to_json()["clock"] == {"seat": 0, "since": at(65)}
    again = replay_lines(json.dumps(e) for e in log)
    assert again.to_json() == table.to_json()
    act(table, type="undo")
    assert clocks(table) == [30.0, 30.0]


def test_fox_and_geese_f1_unstamped_events_leave_the_clock_alone():
    table = replay([new_game(at=at(0)), move("c4", "c5"),                 # unknown time
                    move("d4", "d5", at=at(50)),                          # Fox's start unknown
                    move("e4", "e5", at=at(58))])                         # Geese 8 s
    assert clocks(table) == [0.0, 8.0]


def test_fox_and_geese_f2_geese_go_forward_straight_or_diagonal_only():
    table = replay([new_game()])
    assert ["b4", "a5"] in moves(table) and ["b4", "c5"] in moves(table)   # b4: even sum
    assert ["c4", "d5"] not in moves(table)                                # c4: odd, no diagonal
    assert "geese go forward" in refusal(table, **move("c4", "d5"))
    assert "geese go forward" in refusal(table, **move("b4", "b3"))        # not backward
    assert "not a goose's move" in refusal(table, **move("d4", "d5"))      # the Fox is not theirs
    assert "not a point of the board" in refusal(table, **move("b2", "b3"))
    set_up(table, "d7", ["d5", "b4"])
    assert "geese go forward" in refusal(table, **move("d5", "c5"))        # not at a sideways point
    state = act(table, **move("d5", "d6"))
    assert "Ben's goose: d5 to d6" in state.log


def test_fox_and_geese_f2_geese_move_sideways_at_the_sideways_points():
    table = set_up(replay([new_game()]), "d7", ["c3", "e3", "a3"])
    assert {("c3", "b3"), ("c3", "d3"), ("e3", "d3"), ("e3", "f3")} <= \
        {tuple(m) for m in moves(table)}
    assert "sideways at c3, e3" in refusal(table, **move("a3", "b3"))
    other = set_up(replay([new_game(board={"sideways": ["a3"], "vacant": ["a4", "g4"],
                                           "geese_to_pen": 6})]), "d7", ["c3", "a3"])
    assert ["a3", "b3"] in moves(other) and ["c3", "d3"] not in moves(other)


def test_fox_and_geese_f2_fox_steps_along_any_line():
    table = played(("c4", "c5"))
    assert sorted(map(tuple, moves(table))) == [("d4", "c4"), ("d4", "d5"), ("d4", "e5")]
    assert "cannot go d4 - d6" in refusal(table, **move("d4", "d6"))
    assert "the Fox is on d4" in refusal(table, **move("d5", "d6"))
    state = act(table, **move("d4", "c4"))
    assert "Ann's Fox: d4 to c4" in state.log and table.to_json()["board"]["fox"] == "c4"


def test_fox_and_geese_f2_fox_must_jump_and_keep_jumping_and_chooses_the_chain():
    geese = ["d4", "e5", "c5", "a5", "c2", "c1", "d1", "e1", "e2"]
    table = set_up(played(("c4", "c5")), "d3", geese)
    # d3 jumps d4 to d5; from there on over e5 to f5, or over c5 to b5: the Fox's choice
    assert sorted(map(tuple, moves(table))) == [("d3", "d5", "b5"), ("d3", "d5", "f5")]
    assert "must jump" in refusal(table, **move("d3", "d2"))               # a step: refused
    assert "must jump" in refusal(table, **move("d3", "d5"))               # stops too soon
    state = act(table, **move("d3", "d5", "f5"))                           # the interface's example
    out = table.to_json()
    assert out["board"]["fox"] == "f5" and out["geese_left"] == 7
    assert set(out["board"]["geese"]) == set(geese) - {"d4", "e5"}
    assert state.players[0].score == 2 and state.turn == 1
    assert "Ann's Fox jumps d3 - d5 - f5, taking 2 geese (7 left)" in state.log


def test_fox_and_geese_f3_geese_win_when_the_fox_cannot_move():
    table = set_up(replay([new_game()]), "d7", ["c7", "e7", "d5", "c5", "a3", "g3", "c1"])
    state = act(table, **move("c5", "d6"))                     # d7's last way out is closed
    assert (state.phase, state.winners) == ("over", [1])
    assert "The Fox on d7 cannot move: it is penned" in state.log
    assert "Ben wins" in state.log[-1]
    assert table.to_json()["board"]["moves"] == []


def test_fox_and_geese_f3_fox_wins_when_the_geese_cannot_move():
    table = set_up(played(("c4", "c5")),
                   "a3", ["c7", "d7", "e7", "c6", "d6", "e6"])
    state = act(table, **move("a3", "a4"))
    assert (state.phase, state.winners) == ("over", [0])
    assert "The Geese cannot move" in state.log


def test_fox_and_geese_f3_fox_wins_when_too_few_geese_remain():
    table = set_up(played(("c4", "c5")),
                   "d3", ["d4", "c2", "d1", "e1", "e2", "c1"])
    state = act(table, **move("d3", "d5"))
    assert (state.phase, state.winners) == ("over", [0])
    assert "Only 5 geese are left: too few to pen the Fox" in state.log
    small = played(("c4", "c5"), board={"sideways": ["c3", "e3"], "vacant": ["a4", "g4"],
                                        "geese_to_pen": 5})
    set_up(small, "d3", ["d4", "c2", "d1", "e1", "e2", "c1"])
    assert not act(small, **move("d3", "d5")).over


def test_fox_and_geese_f3_third_repetition_is_a_draw():
    board = {"sideways": ["c3", "d3"], "vacant": ["a4", "g4"], "geese_to_pen": 1}
    table = set_up(replay([new_game(board=board)]), "d6", ["c3", "a3"])
    cycle = (("c3", "d3"), ("d6", "d7"), ("d3", "c3"), ("d7", "d6"))
    for path in cycle + cycle[:3]:
        assert not act(table, **move(*path)).over
    state = act(table, **move(*cycle[3]))                       # the set-up position, third time
    assert (state.phase, state.winners) == ("over", [0, 1])
    assert state.log[-2].startswith("The same position for the third time")
    assert "Ann and Ben share the win" in state.log[-1]


def test_fox_and_geese_f3_a_player_resigns_by_declaring_the_other_the_winner():
    table = played(("c4", "c5"))
    assert "one winner" in refusal(table, type="declare", winners=[0, 1])
    state = act(table, type="declare", winners=[1])
    assert (state.phase, state.winners) == ("over", [1])
    assert "Ann resigns" in state.log
    assert "the game is over: no moves now" in refusal(table, **move("d4", "d5"))


@pytest.mark.parametrize("board, words", [
    ({"sideways": ["b2"]}, "'sideways': 'b2' is not a point of the board"),
    ({"sideways": "c3"}, "'sideways' must be a list of point names"),
    ({"vacant": ["d4", "a4"]}, "'vacant': 'd4' is not a point the Geese fill"),
    ({"vacant": ["a4", "a4"]}, "'vacant' names a point twice"),
    ({"geese_to_pen": 0}, "'geese_to_pen' must be a whole number from 1 to 17"),
    ({"vacant": ["a4"]}, "'vacant' must name 2 points (F1: 17 geese), not 1"),      # 18 geese
    ({"vacant": []}, "'vacant' must name 2 points (F1: 17 geese), not 0"),           # 19
    ({"vacant": ["a4", "g4", "a3"]}, "'vacant' must name 2 points (F1: 17 geese), not 3"),
    ({"geese_to_pen": True}, "'geese_to_pen' must be a whole number"),
    ({"pens": 3}, "Fox and Geese board data has no 'pens'"),
])
def test_fox_and_geese_board_data_is_checked(board, words):
    default = RULES.default_board()
    assert default == {"sideways": ["c3", "e3"], "vacant": ["a4", "g4"], "geese_to_pen": 6}
    with pytest.raises(BoardDataError, match=re.escape(words)):
        RULES.check_board({**default, **board})
    assert "board data" in str(pytest.raises(Exception, replay,
                                             [new_game(board={**default, **board})]).value)


def test_fox_and_geese_move_event_refused_by_games_without_a_board():
    table = replay([{"type": "new_game", "game": "domino-rex", "players": ["Ann", "Ben"]},
                    {"type": "roll", "values": [5]}, {"type": "roll", "values": [2]}])
    assert "no board moves" in refusal(table, **move("d3", "d4"))
    for bad in ([], ["d3"], "d3d4", [3, 4], ["d3"] * 34):
        with pytest.raises(Exception, match="'path' must be a list"):
            replay([new_game(), {"type": "move", "path": bad}])
