"""Every example log in companion/examples/ replays, and ends where its story says."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.replay import replay_lines

EXAMPLES = sorted(Path(str(resources.files("companion") / "examples")).glob("*.jsonl"))


def players(out):
    return {p["name"]: p for p in out["players"]}


# What each example demonstrates, worked out by hand from its events and RULINGS.md.
def domino_rex(out):
    # Ann crowns 11, 9 and 10 (30); Ben crowns 10 and 9 (19); then every square is uncovered.
    ann, ben = players(out)["Ann"], players(out)["Ben"]
    assert (ann["score"], ben["score"]) == (30, 19) and out["winners"] == [0]
    assert ann["covered"] == [] and ben["covered"] == []
    assert [n for n, v in ann["checkers"].items() if v == "crowned"] == ["9", "10", "11"]
    assert ben["checkers"]["7"] == "domino" and ben["checkers"]["8"] == "domino"


def cats_and_mice(out):
    # Captures: Ann 2+1+2 (the last counts 3), Ben 1+1+2, Cy 1+1+1.
    assert out["mice_left"] == 0 and out["winners"] == [0]
    assert [p["score"] for p in out["players"]] == [7, 4, 3]
    assert out["order"] == [1, 2, 0]


def gantlope(out):
    assert out["winners"] == [1]
    assert [p["in_goal"] for p in out["players"]] == [2, 4]


def lost_diamond(out):
    assert out["winners"] == [1] and out["diamond"] == 1
    assert sum(line.endswith("moves in the Field") for line in out["log"]) == 8   # Ann 6, Ben 2
    assert "Ben is not home yet (claim cancelled)" in out["log"]


def india(out):
    assert out["order"] == [1, 0] and out["winners"] == [1]   # a plain 5 beat a double 2
    assert out["log"][-3:] == [                                # P2: claimed, then confirmed
        "Ben says a man is home: press again to confirm, the knob cancels",
        "Ben's man reaches the central home", "Ben wins"]


def fox_and_geese(out):
    # Ann's Fox against the Pi's Geese ("best", 2 s a move): penned on a4 at the 23rd move
    assert out["geese_left"] == 17 and out["winners"] == [1]
    assert out["log"][-2] == "The Fox on a4 cannot move: it is penned"
    assert out["players"][1]["pi"] == "best" and out["board"]["fox"] == "a4"
    assert out["players"][1]["clock_seconds"] == 2.0 * 12                   # 12 goose moves
    assert out["players"][0]["clock_seconds"] == 220.0


def free_play(out):
    assert out["winners"] == [1] and out["pool"] == 0
    assert [(p["score"], p["chips"]) for p in out["players"]] == [(1, 8), (2, 12), (0, 10)]


STORIES = {"domino-rex": domino_rex, "cats-and-mice": cats_and_mice, "gantlope": gantlope,
           "lost-diamond": lost_diamond, "india": india, "fox-and-geese": fox_and_geese,
           "free-play": free_play}


def test_games_examples_cover_every_game():
    assert {path.stem for path in EXAMPLES} >= set(GAMES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_games_examples_replay(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    table = replay_lines(lines)
    out = table.to_json()
    assert out["game"] == path.stem
    assert json.loads(json.dumps(out)) == out
    assert replay_lines(lines).to_json() == out                  # a pure fold: same again
    assert out["phase"] == "over" and out["winners"]             # each example plays to the end
    assert out["turn"] is None and out["awaiting"] is None
    assert out["log"][-1].endswith(("wins", "share the win"))
    first = replay_lines(lines[:1]).state
    assert table.state.total_chips == first.total_chips           # X4
    story = STORIES.get(path.stem)
    if story is not None:
        story(out)
