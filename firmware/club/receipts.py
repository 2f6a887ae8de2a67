"""The club's answers to a table's records. The broker's PUBACK says only that the broker has
a record; a broker can lose what it acknowledged (killed between its writes to disk, or
restarted without persistence, while the club was away), so a game counts as delivered when
the club itself answers on `received/<uid>` (topics.py). Seeing a club that answers (its
retained `parlour/v1/club`), the table sends again every game still unanswered."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from typing import Any

from firmware.club import topics

log = logging.getLogger("parlour.club")
MAX_ANSWER_BYTES = 1024


def answer(kept: bool, why: str = "") -> bytes:
    """The club's answer to a record: kept, or refused and why."""
    body: dict[str, Any] = {"v": topics.VERSION, "kept": kept}
    if not kept:
        body["why"] = why[:200]
    return json.dumps(body).encode()


def take_answer(store, table_id: str, uid: str, payload: bytes) -> int | None:
    """The club's answer for `uid`, one of this table's games with that commitment: noted in
    the store (a refusal logged with its reason), and its game number returned; None (and
    nothing noted) for anything else. Only the first answer counts (a later refusal of a copy
    of a game the club kept is not said)."""
    number = topics.game_of_uid(uid, table_id)
    game = store.game(number) if number is not None else None
    if game is None or topics.game_uid(table_id, game.id, game.commitment) != uid \
            or len(payload) > MAX_ANSWER_BYTES:
        return None
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("v") != topics.VERSION \
            or not isinstance(body.get("kept"), bool):
        return None
    why = None if body["kept"] else str(body.get("why") or "no reason given")[:200]
    if store.received_by_club(game.id, stamp_now(), why) and why is not None:
        log.warning("club: the club refused game %s's record (%s); not sent again", game.id,
                    why)
    return game.id


def club_answers(payload: bytes) -> bool:
    """Whether a message on `parlour/v1/club` says a club that answers records is about."""
    try:
        body = json.loads(payload) if len(payload) <= MAX_ANSWER_BYTES else None
    except ValueError:
        return False
    return isinstance(body, dict) and body.get("v") == topics.VERSION \
        and body.get("acknowledges") is True


def club_time(payload: bytes) -> datetime | None:
    """The club's clock from a live `{"v": 1, "now": "...Z"}` on `parlour/v1/club`, if it
    is one (the tables take the time from it: see firmware/stamps.py)."""
    try:
        body = json.loads(payload) if len(payload) <= MAX_ANSWER_BYTES else None
        now = body.get("now") if isinstance(body, dict) and body.get("v") == topics.VERSION \
            else None
        told = datetime.fromisoformat(now) if isinstance(now, str) else None
    except ValueError:
        return None
    return told if told is not None and told.tzinfo is not None else None


def stamp_now() -> str:
    """The wall clock's time as the store keeps it: "2025-01-01T12:00:00Z"."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
