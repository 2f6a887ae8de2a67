"""The club's answers to a table's records, as a table reads them (no broker needed): only
an answer for one of its own games, with that game's commitment, is noted."""

from __future__ import annotations

import json
import logging

from club_support import Table

from firmware.club import receipts, topics

A, B = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"


def test_receipts_an_answer_is_noted_only_for_this_tables_own_game(tmp_path):
    table = Table(tmp_path / "t", None, A)
    try:
        game = table.store.game(table.play(winner=0))
        uid = topics.game_uid(A, game.id, game.commitment)
        table.store.sent_to_club(game.id, "2026-11-27T10:00:00Z")
        assert [r.id for r in table.store.unanswered_by_club()] == [game.id]
        kept = receipts.answer(True)
        for wrong_uid in (topics.game_uid(B, game.id, game.commitment),   # another table's
                          f"{A}-{game.id}-00000000",                      # another store's
                          f"{A}-{game.id + 1}", "junk"):
            assert receipts.take_answer(table.store, A, wrong_uid, kept) is None
        for junk in (b"", b"kept", b"[]", json.dumps({"v": 2, "kept": True}).encode(),
                     json.dumps({"v": 1, "kept": "yes"}).encode(), b"{" * 2000):
            assert receipts.take_answer(table.store, A, uid, junk) is None
        assert [r.id for r in table.store.unanswered_by_club()] == [game.id]
        assert receipts.take_answer(table.store, A, uid, kept) == game.id
        assert table.store.unanswered_by_club() == []
    finally:
        table.close()


def test_receipts_a_refused_record_is_said_and_not_sent_again(tmp_path, caplog):
    table = Table(tmp_path / "t", None, A)
    try:
        game = table.store.game(table.play(winner=1))
        table.store.sent_to_club(game.id, "2026-11-27T10:00:00Z")
        caplog.set_level(logging.WARNING, logger="parlour.club")
        refused = receipts.answer(False, "a record over 262144 bytes")
        uid = topics.game_uid(A, game.id, game.commitment)
        assert receipts.take_answer(table.store, A, uid, refused) == game.id
        assert table.store.unanswered_by_club() == []
        assert f"refused game {game.id}'s record (a record over 262144 bytes)" in caplog.text
    finally:
        table.close()


def test_receipts_only_a_version_1_club_that_says_it_answers_counts():
    assert receipts.club_answers(json.dumps({"v": 1, "acknowledges": True}).encode())
    for other in (b"", b"online", json.dumps({"v": 1}).encode(),
                  json.dumps({"v": 2, "acknowledges": True}).encode(),
                  json.dumps({"v": 1, "acknowledges": "yes"}).encode()):
        assert not receipts.club_answers(other)


def test_receipts_a_later_refusal_of_a_kept_game_is_not_said(tmp_path, caplog):
    """A copy of a kept game sent again and refused by the club ("differs from the record
    kept") was logged by the table as its game refused, not sent again, while the club kept
    it: the first answer stands, and only a first refusal is said."""
    table = Table(tmp_path / "t", None, A)
    try:
        game = table.store.game(table.play(winner=0))
        uid = topics.game_uid(A, game.id, game.commitment)
        table.store.sent_to_club(game.id, "2026-11-27T10:00:00Z")
        caplog.set_level(logging.WARNING, logger="parlour.club")
        assert receipts.take_answer(table.store, A, uid, receipts.answer(True)) == game.id
        refused = receipts.answer(False, "differs from the record kept")
        assert receipts.take_answer(table.store, A, uid, refused) == game.id
        assert "refused" not in caplog.text
        assert not table.store.received_by_club(game.id, "2026-11-27T10:01:00Z", "again")
    finally:
        table.close()
