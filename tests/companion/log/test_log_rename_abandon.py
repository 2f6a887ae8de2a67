"""Renaming a seat (an event like any other), setting a game aside, and a table's board files."""

from __future__ import annotations

import pytest

from companion.errors import LogError, Refused
from companion.events import Undo
from companion.replay import replay
from companion.session import Session
from companion.record.store import Store

KAT = {"type": "new_game", "game": "kat-en-muis", "players": ["Red", "Blue"]}


def test_core_rename_changes_the_name_and_says_so():
    state = replay([KAT, {"type": "rename", "seat": 1, "name": " Ben "}]).to_json()
    assert [p["name"] for p in state["players"]] == ["Red", "Ben"]
    assert state["log"][-1] == "Button 2, Blue, is now called Ben"


def test_core_rename_x12_names_the_players_button():
    state = replay([{**KAT, "buttons": [5, 3]}, {"type": "rename", "seat": 0, "name": "Ann"}])
    assert state.to_json()["log"][-1] == "Button 5, Red, is now called Ann"


def test_core_rename_is_undone_like_any_event():
    table = replay([KAT, {"type": "rename", "seat": 0, "name": "Ann"}])
    table.apply(Undo())
    assert table.to_json() == replay([KAT]).to_json()


@pytest.mark.parametrize("event, why", [
    ({"type": "rename", "seat": 0, "name": "blue"}, "same name"),
    ({"type": "rename", "seat": 0, "name": "  "}, "1 to 24 characters"),
    ({"type": "rename", "seat": 5, "name": "Cas"}, "no seat 6"),
    ({"type": "rename", "seat": 0}, "needs 'name'"),
    ({"type": "rename", "seat": "0", "name": "Cas"}, "seat number"),
])
def test_core_rename_refuses_bad_names(event, why):
    with pytest.raises(LogError, match=f"line 2: .*{why}"):
        replay([KAT, event])


@pytest.fixture
def session(tmp_path):
    store = Store(tmp_path / "parlour.db")
    counter = iter(range(1, 1000))
    yield Session(store, new_seed=lambda: bytes([next(counter)]) * 32,
                  board_dir=tmp_path / "boards")
    store.close()


def test_session_abandon_sets_the_game_aside_and_idles(session):
    seen = []
    session.subscribe(seen.append)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    game_id = session.game_id
    snap = session.abandon(by="web")
    assert snap["phase"] == "idle" and seen[-1]["phase"] == "idle"
    assert session.store.game(game_id).status == "abandoned"
    assert session.store.latest_unfinished() is None
    with pytest.raises(Refused, match="no game"):
        session.abandon()


def test_session_uses_the_tables_board_file(session, tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "cats-and-dogs.toml").write_text("track_length = 38\n")
    snap = session.new_game("cats-and-dogs", ["Ann", "Ben"])
    first = session.export_log(session.game_id)[0]
    assert first["board"]["track_length"] == 38
    assert first["board"]["arrows"]["7"] == 15          # the rest from the shipped defaults
    assert snap["phase"] == "lead"


def test_session_bad_board_file_is_refused_clearly(session, tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "cats-and-dogs.toml").write_text("track_length = 3\n")
    with pytest.raises(Refused, match=r"board data: .*cats-and-dogs\.toml, line 1: 'track_length'"):
        session.new_game("cats-and-dogs", ["Ann", "Ben"])
    assert session.snapshot()["phase"] == "idle"


def test_x11_session_refuses_rename_correction_and_undo_once_over(session):
    session.new_game("free-play", ["Ann", "Ben"], options={"randomizer": {"kind": "none"},
                                                            "chips": 5})
    session.submit({"type": "declare", "winners": [1]})
    before = session.snapshot()
    stored = len(session.store.events(before["game_id"]))
    for event, why in [({"type": "rename", "seat": 0, "name": "Zed"}, "names are final"),
                       ({"type": "transfer", "from": 0, "to": 1, "amount": 1}, "settled"),
                       ({"type": "undo"}, "no undo")]:
        with pytest.raises(Refused, match=f"the game is over: .*{why}"):
            session.submit(event)
    assert session.snapshot() == before
    assert len(session.store.events(before["game_id"])) == stored      # nothing stored


def test_core_rename_and_its_undo_are_the_stored_game_names(tmp_path):
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32))
    game_id = session.new_game("kat-en-muis", ["Player 1", "Player 2"])["game_id"]
    session.submit({"type": "rename", "seat": 1, "name": "Ben"})
    assert store.game(game_id).players == ["Player 1", "Ben"]
    session.undo()
    assert store.game(game_id).players == ["Player 1", "Player 2"]
    store.close()


def test_core_roster_keeps_each_name_once_in_its_first_spelling(tmp_path):
    store = Store(tmp_path / "parlour.db")
    store.remember_names(["ann", "Ben", " "])
    store.remember_names(["Ann", "cy"])
    assert store.roster() == ["ann", "Ben", "cy"]
    store.close()
    again = Store(tmp_path / "parlour.db")
    assert again.roster() == ["ann", "Ben", "cy"]
    again.close()
