"""X10 Names: 1 to 24 printable characters after trimming spaces; no control characters, line
breaks or unpaired surrogates; no two names alike but for case or spaces. Refused in a log (with
its line number), from the phone and from the device alike: all go through companion.replay."""

from __future__ import annotations

import pytest

from companion.errors import LogError, Refused
from companion.replay import replay
from companion.session import Session
from companion.record.store import Store


def kat(*players: str) -> dict:
    return {"type": "new_game", "game": "kat-en-muis", "players": list(players)}


HOSTILE = [
    ("A\nB", "a line break"),
    ("A\r\nB", "a line break"),
    ("A\u2028B", "a line break"),
    ("Ann\n", "a line break"),                  # trimming does not hide a line break
    ("A\ud800", "an unpaired surrogate"),
    ("\udfffB", "an unpaired surrogate"),
    ("A\x00B", "U\\+0000"),
    ("A\tB", "U\\+0009"),
    ("A\x1b[2JB", "U\\+001B"),                  # a terminal escape
    ("A\u202eB", "U\\+202E"),                   # right-to-left override
    ("", "1 to 24 characters"),
    ("    ", "1 to 24 characters"),
    ("x" * 25, "1 to 24 characters"),
]


@pytest.mark.parametrize("name, why", HOSTILE)
def test_x10_bad_name_in_new_game_refused_with_its_line(name, why):
    with pytest.raises(LogError, match=f"^line 1: .*{why}"):
        replay([kat(name, "Ben")])


@pytest.mark.parametrize("name, why", HOSTILE)
def test_x10_bad_rename_refused_with_its_line(name, why):
    with pytest.raises(LogError, match=f"^line 2: .*{why}"):
        replay([kat("Ann", "Ben"), {"type": "rename", "seat": 1, "name": name}])


@pytest.mark.parametrize("players", [
    ("Ann", "ann"), ("Ann Lee", "annlee"), ("Ann", " ANN "), ("A n n", "Ann"),
    ("Zo\u00eb", "zoe\u0308"),                  # the same letters, composed or not
])
def test_x10_names_differing_only_in_case_or_spaces_refused(players):
    with pytest.raises(LogError, match="line 1: two players have the same name"):
        replay([kat(*players)])


def test_x10_rename_to_another_players_name_but_for_case_refused():
    with pytest.raises(LogError, match="line 2: two players have the same name"):
        replay([kat("Ann", "Ben"), {"type": "rename", "seat": 0, "name": "B EN"}])


@pytest.mark.parametrize("name, shown", [
    ("  Ann  ", "Ann"), ("x" * 24, "x" * 24), (" " + "y" * 24 + " ", "y" * 24),
    ("Zo\u00eb", "Zo\u00eb"), ("\u674e\u96f7", "\u674e\u96f7"), ("Ann \U0001F3B2", "Ann \U0001F3B2"),
    ("Mary Ann", "Mary Ann"), ("O'Neil-Smith", "O'Neil-Smith"),
])
def test_x10_printable_names_accepted_and_trimmed(name, shown):
    assert replay([kat(name, "Ben")]).to_json()["players"][0]["name"] == shown
    renamed = replay([kat("Player 1", "Player 2"), {"type": "rename", "seat": 1, "name": name}])
    assert renamed.to_json()["players"][1]["name"] == shown


def test_x10_session_refuses_and_stores_nothing(tmp_path):
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: b"\x01" * 32)
    with pytest.raises(Refused, match="a line break"):
        session.new_game("kat-en-muis", ["A\nB", "Ben"])
    assert store.games() == []
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    with pytest.raises(Refused, match="unpaired surrogate"):
        session.submit({"type": "rename", "seat": 0, "name": "A\ud800"})
    assert len(store.events(session.game_id)) == 1
    store.close()


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\u3000", "\u2009"])
def test_x10_unicode_space_separators_are_plain_spaces(space):
    """X10: a no-break, narrow no-break, ideographic or thin space (as phones and Japanese
    keyboards type) is a space: made plain, then trimmed, and names differing only by it are
    the same name."""
    from companion.events import NewGame
    from companion.replay import Table
    table = Table()
    state = table.apply(NewGame(game="kat-en-muis", players=(f"{space}Ann{space}Lee{space}",
                                                             "Ben")))
    assert state.players[0].name == "Ann Lee"
    with pytest.raises(Refused, match="same name"):
        Table().apply(NewGame(game="kat-en-muis", players=(f"Ann{space}Lee", "ann lee")))
