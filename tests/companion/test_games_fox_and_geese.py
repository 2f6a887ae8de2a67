"""Fox and Geese (F1-F3), no dice: expectations by hand from RULINGS.md."""

from __future__ import annotations

import json


from companion.replay import replay, replay_lines
from game_support import act, refusal

GAME = "fox-and-geese"


def at(seconds: int) -> str:
    return f"2024-03-01T20:{seconds // 60:02d}:{seconds % 60:02d}+00:00"


def new_game(**extra):
    return {"type": "new_game", "game": GAME, "players": ["Ann", "Ben"], **extra}


def clocks(table):
    return [p["clock_seconds"] for p in table.to_json()["players"]]


def test_fox_and_geese_f1_geese_first_and_turns_alternate():
    table = replay([new_game()])
    state = table.state
    assert [p.role for p in state.players] == ["geese", "fox"]
    assert (state.phase, state.turn, state.awaiting, state.lead) == ("play", 0, "next", None)
    assert table.to_json()["geese_left"] == 17
    assert "no throw is asked" in refusal(table, type="roll", values=[3])
    assert [act(table, type="next").turn for _ in range(3)] == [1, 0, 1]


def test_fox_and_geese_f1_clock_counts_each_players_thinking_time():
    log = [new_game(at=at(0)), {"type": "next", "at": at(30)},          # Geese think 30 s
           {"type": "press", "seat": 1, "at": at(40)},                 # the Fox takes one
           {"type": "next", "at": at(60)},                             # Fox: 30 s in all
           {"type": "next", "at": at(65)}]                             # Geese: 5 s more
    table = replay(log)
    assert clocks(table) == [35.0, 30.0]
    assert table.to_json()["clock"] == {"seat": 1, "since": at(65)}
    again = replay_lines(json.dumps(e) for e in log)
    assert again.to_json() == table.to_json()
    act(table, type="undo")
    assert clocks(table) == [30.0, 30.0]


def test_fox_and_geese_f1_unstamped_events_leave_the_clock_alone():
    table = replay([new_game(at=at(0)), {"type": "next"},             # unknown time: no count
                    {"type": "next", "at": at(50)},                    # Fox's start unknown
                    {"type": "next", "at": at(58)}])                  # Geese 8 s
    assert clocks(table) == [8.0, 0.0]


def test_fox_and_geese_f2_fox_button_records_each_goose_taken():
    table = replay([new_game()])
    assert "only the Fox takes geese" in refusal(table, type="press", seat=0)
    assert "it is Ann's turn" in refusal(table, type="press", seat=1)
    act(table, type="next")
    act(table, type="press", seat=1)
    state = act(table, type="press", seat=1)           # a double jump
    assert table.to_json()["geese_left"] == 15
    assert state.players[1].score == 2
    assert "Ben's Fox takes a goose (15 left)" in state.log


def test_fox_and_geese_f2_no_goose_left_to_take():
    table = replay([new_game(), {"type": "next"}] + [{"type": "press", "seat": 1}] * 17)
    assert table.to_json()["geese_left"] == 0
    assert "no geese left" in refusal(table, type="press", seat=1)


def test_fox_and_geese_f3_geese_win_by_declaration():
    table = replay([new_game(), {"type": "next"}, {"type": "next"}])
    state = act(table, type="declare", winners=[0])
    assert (state.phase, state.winners) == ("over", [0])
    assert "Ann's Geese pen the Fox" in state.log


def test_fox_and_geese_f3_fox_wins_by_declaration_one_winner_only():
    table = replay([new_game(), {"type": "next"}])
    assert "one winner" in refusal(table, type="declare", winners=[0, 1])
    state = act(table, type="declare", winners=[1])
    assert (state.phase, state.winners) == ("over", [1])
