"""Stored games in the shapes the API and the pages show: summaries, logs in words, totals,
roll statistics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.buttons import default_buttons
from companion.errors import ParlourError
from companion.games import GAMES
from companion.replay import replay
from companion.session import export_events
from companion.randomness.stats import (Verification, effective_rolls, randomizer_key,
                                        table_rolls, verify_rolls)
from companion.record.store import GameRecord, Store


def title(game: str) -> str:
    rulebook = GAMES.get(game)
    return rulebook.title if rulebook else game


def refereeing(game: str) -> str:
    """How much of the game the companion referees, in words ("" for an unknown game)."""
    rulebook = GAMES.get(game)
    return {"full": "full referee", "assisted": "assisted"}.get(rulebook.refereeing, "") \
        if rulebook else ""


def summary(record: GameRecord) -> dict[str, Any]:
    """One line of GET /api/games."""
    return {"id": record.id, "game": record.game, "title": title(record.game),
            "players": list(record.players), "created": record.created_at,
            "ended": record.ended_at, "status": record.status,
            "winners": list(record.winners or []),
            "winner_names": [record.players[s] for s in record.winners or []
                             if 0 <= s < len(record.players)],
            "events": record.events,
            "refereeing": refereeing(record.game)}


@dataclass(frozen=True)
class Replayed:
    """What a stored game's events tell once replayed."""

    words: list[str]
    rolls: list[tuple[str, tuple[int, ...], int]]     # (randomizer key, values, faces)
    verification: Verification | None                 # None while the seed is secret
    error: str | None = None


def replayed(store: Store, record: GameRecord) -> Replayed:
    """One stored game replayed (the seed revealed if it is over)."""
    events = export_events(store, record.id)
    error, in_effect = None, None
    try:
        table = replay(events)
        words, in_effect = list(table.to_json()["log"]), table_rolls(table)   # one replay
    except ParlourError as err:
        words, error = [], str(err)
    rolls = [(randomizer_key(dice), tuple(values), dice.faces)
             for dice, values in (effective_rolls(events) if in_effect is None else in_effect)]
    verification = verify_rolls(events) if record.over else None
    return Replayed(words, rolls, verification, error)


def buttons(store: Store, record: GameRecord) -> list[int]:
    """Each player's seat button, as the game's new_game event recorded them (X12; 1..n in a
    log that does not say): one indexed row, so nothing is kept."""
    given = (store.first_event(record.id) or {}).get("buttons")
    ok = isinstance(given, list) and len(given) == len(record.players)
    return list(given) if ok else list(default_buttons(len(record.players)))


def when(iso: str | None) -> str:
    """'2024-05-01 19:30' from an ISO time; the text as given if it is not one."""
    if not iso:
        return ""
    try:
        return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def duration(start: str | None, end: str | None) -> str:
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return ""
    if seconds < 0:
        return ""
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"
