"""Past games as a score app's users expect them: each game's final scores or places and its
winners, in the players' names as they ended (renames included), and totals per roster name
(a name someone typed, never a default like "Player 1" that different people shared)."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from typing import Any

from companion.record.store import GameRecord
from companion.games.fox_and_geese import FOX, GEESE, GEESE_COUNT
from companion.words import counted, geese, name_key
from web.records.summaries import duration, refereeing, title

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


def result_rows(played: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's players as history lists them: best placed first, each with their final
    figure (chips, points or square), place, button and whether they won."""
    chips_too = played["scored_by"] == "score" and any(p["chips"] for p in played["players"])
    taken = sum(p["score"] or 0 for p in played["players"] if p.get("role") == FOX)
    return [{"name": p["name"], "figure": _figure(played["scored_by"], p, chips_too,
                                                  played.get("game"), taken),
             "winner": p["winner"], "rank": p["rank"],
             "button": None if p.get("pi") else p["button"]}                  # the Pi: none
            for p in sorted(played["players"], key=lambda p: (p["rank"] or 99, p["seat"]))]


def history_row(record: GameRecord, figures: dict[str, Any] | None) -> dict[str, Any]:
    """One game of the history page from its kept figures: when, what, who with their final
    figure, who won. Without figures (a log that no longer replays, or one not yet filled
    in), the players as stored."""
    row: dict[str, Any] = {"id": record.id, "title": title(record.game), "status": record.status,
                           "status_words": STATUS_WORDS.get(record.status, record.status),
                           "created": record.created_at, "when": utc_text(record.created_at),
                           "length": duration(record.created_at, record.ended_at),
                           "events": record.events, "refereeing": refereeing(record.game)}
    result = (figures or {}).get("result") or []
    row["players"] = result or [{"name": n, "figure": "", "winner": seat in (record.winners or []),
                                 "rank": None, "button": None}
                                for seat, n in enumerate(record.players)]
    row["winners"] = [p["name"] for p in row["players"] if p["winner"]]
    return row


def _figure(scored_by: str | None, player: dict[str, Any], chips_too: bool = False,
            game: str | None = None, taken: int = 0) -> str:
    """"12 chips", "3 pts" ("3 pts · 15 chips" in free play that kept chips too), "square 9",
    "2 in Goal" (Gantlope's men home, its places); in Fox and Geese (F3: no points) the Fox's
    "4 geese taken" and the Geese's "13 geese left" (their "0 geese taken" read as a score)."""
    if scored_by == "chips":
        return counted(player["chips"], "chip")
    if game == "fox-and-geese":
        if player.get("role") == GEESE:
            return f"{geese(GEESE_COUNT - taken)} left"
        return f"{geese(player['score'] or 0)} taken"
    if scored_by:
        points = counted(player["score"], "pt")
        return f"{points} · {counted(player['chips'], 'chip')}" if chips_too else points
    if player.get("in_goal") is not None:
        return f"{player['in_goal']} in Goal"
    return f"square {player['position']}" if player["position"] is not None else ""


def roster_totals(rows: list[tuple[list[str], list[int] | None, str, list[int]]],
                  roster: list[str]) -> list[dict[str, Any]]:
    """Games and wins per roster name, most wins first, from (players, winners, status, the
    Pi's seats) of each game; names as each game ended, so a rename counts for the new name,
    and neither a name nobody typed (a button's colour) nor the Pi is a person to total (a
    person who typed "Pi" had the Pi's games counted as theirs). Names are the same as the
    game finds them (X10: case and spaces do not count): a game started as "ann " (as typed,
    kept in its log) is Ann's."""
    shown = {name_key(name): name for name in roster}
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for players, winners, status, pi in rows:
        for seat, name in enumerate(players):
            key = name_key(name)
            if key not in shown or seat in pi:
                continue
            games[key] += 1
            if status == "over" and seat in (winners or []):
                wins[key] += 1
    rows_out = [{"name": shown[k], "games": games[k], "wins": wins[k]} for k in games]
    return sorted(rows_out, key=lambda r: (-r["wins"], -r["games"], r["name"].casefold()))
