"""Manual chip corrections (transfer) and a log's seed fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.errors import LogError, Refused
from companion.replay import read_log, replay, replay_lines

EXAMPLES = Path(__file__).resolve().parents[3] / "companion" / "examples"


def finished(game: str):
    return replay_lines((EXAMPLES / f"{game}.jsonl").read_text().splitlines())


def test_core_transfer_refused_once_the_game_is_over():
    table = finished("lifes-mishaps")
    before = table.to_json()
    assert before["phase"] == "over"
    loser = next(p["seat"] for p in before["players"] if p["seat"] not in before["winners"])
    event = {"type": "transfer", "from": "pool", "to": loser, "amount": 1, "reason": "late"}
    with pytest.raises(Refused, match="game is over"):
        table.apply(read_log([json.dumps(event)])[0][1])
    assert table.to_json() == before


def test_core_transfer_during_play_moves_chips_and_says_why():
    table = replay([{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"]},
                    {"type": "transfer", "from": 0, "to": 1, "amount": 3, "reason": "spilt"}])
    state = table.to_json()
    assert [p["chips"] for p in state["players"]] == [12, 18]
    assert "correction: spilt" in state["log"][-1]


@pytest.mark.parametrize("game", ["cats-and-dogs", "domino-rex"])
def test_core_transfer_refused_in_games_without_chips(game):
    players = ["Ann", "Ben"]
    with pytest.raises(LogError, match="without chips"):
        replay([{"type": "new_game", "game": game, "players": players},
                {"type": "transfer", "from": 0, "to": 1, "amount": 1}])


def test_core_empty_seed_is_refused():
    with pytest.raises(LogError, match="line 1: the seed is empty"):
        replay([{"type": "new_game", "game": "kat-en-muis", "players": ["Ann", "Ben"],
                 "seed": ""}])
