"""Past games as a score app's users expect them: each game's final scores or places and its
winners, in the players' names as they ended (renames included), and totals per roster name
(a name someone typed, never a default like "Player 1" that different people shared)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from typing import Any

from companion.errors import ParlourError
from companion.store import GameRecord, Store
from web.record import game_record
from web.summaries import duration, title

PAGE_SIZE = 20
STATUS_WORDS = {"over": "finished", "abandoned": "set aside", "playing": "being played"}


def utc_text(iso: str | None) -> str:
    """'2026-05-01 19:30 UTC' (the page's script shows it in the phone's own time zone)."""
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def history_row(store: Store, record: GameRecord, cache: dict) -> dict[str, Any]:
    """One game of the history page: when, what, who with their final figure, who won."""
    key = ("history", record.id, record.events, record.status)
    if key in cache:
        return cache[key]
    row: dict[str, Any] = {"id": record.id, "title": title(record.game), "status": record.status,
                           "status_words": STATUS_WORDS.get(record.status, record.status),
                           "created": record.created_at, "when": utc_text(record.created_at),
                           "length": duration(record.created_at, record.ended_at),
                           "events": record.events, "error": None}
    try:
        played = game_record(store, record)
    except ParlourError as err:
        played = None
        row["error"] = str(err)
    if played is None:
        row["players"] = [{"name": n, "figure": "", "winner": False, "rank": None}
                          for n in record.players]
    else:
        row["players"] = [{"name": p["name"], "figure": _figure(played["scored_by"], p),
                           "winner": p["winner"], "rank": p["rank"]}
                          for p in sorted(played["players"],
                                          key=lambda p: (p["rank"] or 99, p["seat"]))]
    row["winners"] = [p["name"] for p in row["players"] if p["winner"]]
    if record.status != "playing":
        cache[key] = row
    return row


def _figure(scored_by: str | None, player: dict[str, Any]) -> str:
    if scored_by == "chips":
        return f"{player['chips']} chips"
    if scored_by:
        return f"{player['score']} pt" if player["score"] == 1 else f"{player['score']} pts"
    return f"square {player['position']}" if player["position"] is not None else ""


def page_of(records: list[GameRecord], page_text: str | None) -> tuple[list[GameRecord], int,
                                                                       int]:
    """The records on page `page_text` (1 when it is not a page number), the page, the count."""
    pages = max(1, -(-len(records) // PAGE_SIZE))
    page = int(page_text) if page_text and page_text.isascii() and page_text.isdigit() \
        and len(page_text) < 8 else 1
    page = min(max(page, 1), pages)
    return records[(page - 1) * PAGE_SIZE:page * PAGE_SIZE], page, pages


def roster_totals(records: list[GameRecord], roster: list[str]) -> list[dict[str, Any]]:
    """Games and wins per roster name (case-insensitive), most wins first; names as each game
    ended, so a rename counts for the new name."""
    shown = {name.casefold(): name for name in roster}
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for record in records:
        for seat, name in enumerate(record.players):
            key = name.casefold()
            if key not in shown:
                continue
            games[key] += 1
            if record.over and seat in (record.winners or []):
                wins[key] += 1
    rows = [{"name": shown[k], "games": games[k], "wins": wins[k]} for k in games]
    return sorted(rows, key=lambda r: (-r["wins"], -r["games"], r["name"].casefold()))
