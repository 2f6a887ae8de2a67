"""Attack 9, a game grown without bound: a paired phone scoring free-play points made a
10,002-event game that took 521 MiB, 467 MiB to resume and +413 MiB for each chart. Every
state kept its own copy of the whole log (n²/2 list slots). Now the states of a game share
one log (`Lines`), so memory grows with the events, and a game holds at most
MAX_GAME_EVENTS events, refused in words past that."""

from __future__ import annotations

import tracemalloc

import pytest

from companion import session as session_module
from companion.errors import Refused
from companion.events import parse_event
from companion.replay import replay
from companion.session import Session
from companion.state import Lines
from companion.record.store import Store


def free_play_log(events: int) -> list[dict]:
    log = [{"type": "new_game", "game": "free-play", "players": ["Ann", "Ben"]}]
    table = replay(log)
    while len(log) < events:
        body = {"type": "roll", "values": [3]} if table.state.awaiting == "roll" else \
            {"type": "press", "seat": len(log) % 2}
        log.append(body)
        table.apply(parse_event(body))
    return log


def test_bounds_states_share_one_log_so_memory_grows_with_the_events():
    log = free_play_log(4000)
    tracemalloc.start()
    try:
        table = replay(log)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(table.states) == 4000 and len(table.state.log) > 4000
    # one copy of the log per state would be ~4000²/2 × 8 bytes ≈ 61 MiB of slots alone
    assert held < 16 * 2 ** 20, held


def test_bounds_a_state_sees_only_its_own_lines_after_an_undo():
    log = free_play_log(40)
    table = replay(log)
    before, undone = table.states[-2], log[-1]
    seen = list(before.log)
    table.apply(parse_event({"type": "undo"}))
    other = {"type": "roll", "values": [5]} if undone["type"] == "roll" else \
        {"type": "press", "seat": 1 - undone["seat"]}
    after = table.apply(parse_event(other))
    assert list(before.log) == seen                       # the older state is unchanged
    assert list(after.log[:len(seen)]) == seen and len(after.log) > len(seen)


def test_bounds_lines_behave_as_a_list():
    lines = Lines(["a", "b"])
    copy = lines.fork()
    copy.append("c")
    lines.append("x")                                     # the shared list grew: own copy
    assert list(lines) == ["a", "b", "x"] and list(copy) == ["a", "b", "c"]
    copy[-1] = "C"
    assert copy == ["a", "b", "C"] and lines[-1] == "x" and lines[1:] == ["b", "x"]
    with pytest.raises(IndexError):
        lines[3]
    lines.clear()
    assert len(lines) == 0 and copy[0] == "a"


def test_bounds_a_game_holds_at_most_max_game_events(tmp_path, monkeypatch):
    monkeypatch.setattr(session_module, "MAX_GAME_EVENTS", 25)
    store = Store(tmp_path / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"s" * 32)
        session.new_game("free-play", ["Ann", "Ben"])
        while len(store.events(session.game_id)) < 25:
            if session.snapshot()["awaiting"] == "roll":
                session.roll(by="test")
            else:
                session.submit({"type": "press", "seat": 0}, by="web")
        version = session.snapshot()["version"]
        with pytest.raises(Refused, match="This game has 25 events, the most one game may "
                                          "hold: set it aside and start a new one"):
            session.submit({"type": "press", "seat": 1}, by="web")
        with pytest.raises(Refused):
            session.undo(by="web")
        assert len(store.events(session.game_id)) == 25
        assert session.snapshot()["version"] == version  # refused: nothing changed
        session.abandon(by="knob")                        # setting it aside still works
        session.new_game("free-play", ["Ann", "Ben"])
    finally:
        store.close()


def test_bounds_a_games_words_are_bounded_too(tmp_path):
    """Attack 9 again, by size: names of 24 emoji and chip transfers with 200-emoji reasons
    made a 10,000-event game whose state was 27 MB (an emoji is 12 bytes of escaped JSON), so
    each phone that did not read it spooled 27 MB to disk. The log's words stop at
    MAX_LOG_BYTES, refused in words; an undo and setting the game aside still work."""
    import json

    store = Store(tmp_path / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"s" * 32)
        names = ["\U0001F600" * 24, "\U0001F431" * 24]
        session.new_game("free-play", names, {"randomizer": {"kind": "none"}, "chips": 10})
        reason = "\U0001F4B0" * 200
        refused = None
        for n in range(2000):
            try:
                session.submit({"type": "transfer", "from": n % 2, "to": 1 - n % 2,
                                "amount": 1, "reason": reason}, by="web")
            except Refused as err:
                refused = str(err)
                break
        assert refused == ("This game's log holds 1 MiB of words, the most one game may: set "
                           "it aside and start a new one"), refused
        events = len(store.events(session.game_id))
        state = json.dumps(session.snapshot())
        assert len(state) < 2 * session_module.MAX_LOG_BYTES < 4 * 2 ** 20   # no spool
        session.undo(by="web")                            # shrinks it: allowed
        assert len(store.events(session.game_id)) == events + 1
        session.abandon(by="knob")
    finally:
        store.close()


def test_bounds_the_words_kept_from_event_to_event_are_the_logs_own(tmp_path):
    """The log's size is carried from one event to the next (not summed again each time):
    after moves, an undo and a restart it is still what the whole log measures."""
    import json

    store = Store(tmp_path / "parlour.db")
    try:
        session = Session(store, new_seed=lambda: b"s" * 32)
        session.new_game("free-play", ["Ann", "Ben"], {"randomizer": {"kind": "none"},
                                                       "chips": 10})
        for n in range(30):
            session.submit({"type": "transfer", "from": n % 2, "to": 1 - n % 2, "amount": 1,
                            "reason": "é" * n}, by="web")
            if n % 7 == 3:
                session.undo(by="web")
        whole = sum(len(json.dumps(line)) + 2 for line in session.table.state.log)
        assert session._log_bytes[2] == whole
        resumed = Session(store, new_seed=lambda: b"s" * 32)
        resumed.submit({"type": "transfer", "from": 0, "to": 1, "amount": 1}, by="web")
        assert resumed._log_bytes[2] == sum(len(json.dumps(line)) + 2
                                            for line in resumed.table.state.log)
    finally:
        store.close()
