"""A game's last event, its "over" status (which reveals the seed) and its winners are one
store transaction; a store holding a game whose log says over but is marked playing (written
by a Parlour that made them two transactions, then cut off between them) is mended at start."""

from __future__ import annotations

import pytest

from companion.errors import StoreError
from companion.session import Session, export_events, repair_finished
from companion.record.store import Store

SEED = bytes(range(32))
AT = "2025-01-01T12:00:00Z"


def free_play(session: Session) -> int:
    """A free-play game past its lead; the number of events stored."""
    session.new_game("free-play", ["Ann", "Ben"])
    while session.snapshot()["phase"] == "lead":
        session.roll()
    return len(session.store.events(session.game_id))


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "parlour.db")
    yield store
    store.close()


def test_store_final_event_over_and_seed_are_one_transaction(store):
    session = Session(store, new_seed=lambda: SEED, clock=lambda: AT)
    played = free_play(session)
    session.submit({"type": "declare", "winners": [1]})
    record = store.game(session.game_id)
    assert (record.status, record.winners, record.ended_at, record.events) == \
        ("over", [1], AT, played + 1)
    assert export_events(store, record.id)[0]["seed"] == SEED.hex()


def test_store_final_event_is_not_stored_if_marking_over_fails(store, monkeypatch):
    session = Session(store, new_seed=lambda: SEED, clock=lambda: AT)
    played = free_play(session)
    before = session.snapshot()

    def cut(*args):
        raise StoreError("power cut between the event and 'over'")

    monkeypatch.setattr(Store, "_mark_over", staticmethod(cut))
    with pytest.raises(StoreError):
        session.submit({"type": "declare", "winners": [1]})
    record = store.game(session.game_id)
    assert (record.status, record.events) == ("playing", played)   # neither, not half
    assert session.snapshot() == before
    assert "seed" not in export_events(store, record.id)[0]


def old_two_step_finish(store: Store, session: Session) -> int:
    """What an older Parlour left after a cut between the last event and "over"."""
    played = free_play(session)
    body = {"type": "declare", "winners": [0], "at": "2025-01-01T12:30:00Z"}
    store.append(session.game_id, played + 1, body)                      # no winners: not marked over
    return session.game_id


def test_store_start_up_marks_a_finished_game_over_keeping_its_winners(store):
    gid = old_two_step_finish(store, Session(store, new_seed=lambda: SEED, clock=lambda: AT))
    assert store.game(gid).status == "playing"
    session = Session(store, new_seed=lambda: SEED)               # start-up
    record = store.game(gid)
    assert (record.status, record.winners, record.ended_at) == ("over", [0],
                                                               "2025-01-01T12:30:00Z")
    assert session.repaired == [gid]
    assert not session.resumed and session.snapshot()["phase"] == "idle"   # not "resumed"
    assert export_events(store, gid)[0]["seed"] == SEED.hex()


def test_store_repair_looks_at_every_game_not_only_the_newest(store):
    old = old_two_step_finish(store, Session(store, new_seed=lambda: SEED, clock=lambda: AT))
    newer = Session(store, new_seed=lambda: SEED, clock=lambda: AT)
    newer.new_game("kat-en-muis", ["Cy", "Di"])                  # under the buggy resume, the
    store._write("UPDATE games SET status = 'playing' WHERE id = ?", (old,))   # old stayed
    assert store.unfinished_ids() == [old, newer.game_id]
    session = Session(store, new_seed=lambda: SEED)
    assert session.repaired == [old] and store.game(old).status == "over"
    assert session.resumed and session.game_id == newer.game_id
    assert repair_finished(store) == []                           # nothing left to mend
