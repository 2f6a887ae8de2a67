"""A finished game as a record worth keeping: players, scores, ranks, winners, times, and the
BG Stats push link that hands the play to that app.

BG Stats documents its push link as `https://app.bgstatsapp.com/createPlay.html?data=<url-encoded
JSON>` with the fields in `BG_STATS_FIELDS`; the app opens an import dialog where the user
matches games and players once. Nothing is sent anywhere by Parlour: the phone follows the link.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any
from urllib.parse import quote

from companion.errors import ParlourError
from companion.record.league import points_of
from companion.replay import replay
from companion.record.store import GameRecord, Store

BG_STATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Parlour"

# The documented fields of the push link's JSON (and of its `game` and `players` items).
BG_STATS_FIELDS = {"sourceName", "sourcePlayId", "playDate", "durationMin", "location", "board",
                   "comments", "game", "players"}
BG_STATS_GAME_FIELDS = {"name", "bggId", "highestWins", "noPoints", "sourceGameId"}
BG_STATS_PLAYER_FIELDS = {"name", "sourcePlayerId", "startPlayer", "rank", "role", "score",
                          "winner"}

# What a game's result is counted in: the chips players hold, points scored, or nothing (a
# race, where only the winner counts).
SCORED_BY = {
    "kat-en-muis": "chips", "lifes-mishaps": "chips", "cats-and-dogs": None,
    "domino-rex": "score", "cats-and-mice": "score", "gantlope": None,
    "lost-diamond": None, "india": None, "fox-and-geese": "score", "free-play": "score",
}


def counted_in(game: str | None) -> str | None:
    """What a game's players are counted in where a figure stands beside their names (a
    club's tables and games): "chips", "score" (points) or None: a race, or a score that is no
    points (F3's geese taken: `points_of`)."""
    return points_of({"game": game, "scored_by": SCORED_BY.get(game, "score")}) if game else None


# Games without points whose places still follow a figure of the game (Gantlope: men home;
# Cats and Dogs, a race to Finish: the square reached).
RANKED_BY = {"gantlope": "in_goal", "cats-and-dogs": "position"}


def _minutes(start: str | None, end: str | None) -> int | None:
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None
    return round(seconds / 60) if seconds >= 0 else None


def _ranks(values: list[float], winners: list[int]) -> list[int]:
    """1 for the winners; the others by value, highest first, ties sharing a place."""
    ranks = []
    for seat, value in enumerate(values):
        if seat in winners:
            ranks.append(1)
        else:
            better = sum(1 for s, v in enumerate(values) if s not in winners and v > value)
            ranks.append(len(winners) + better + 1)
    return ranks


def game_record(store: Store, record: GameRecord) -> dict[str, Any]:
    """The record of one stored game (finished or not), replayed from its log."""
    events = store.events(record.id)
    try:
        state = replay(events).to_json()
    except ParlourError as err:
        raise ParlourError(f"game {record.id} no longer replays: {err}") from None
    return record_of(record, events, state)


def record_of(record: GameRecord, events: list[dict[str, Any]],
              state: dict[str, Any]) -> dict[str, Any]:
    """The record of a game from its log and its final state JSON."""
    scored_by = SCORED_BY.get(record.game, "score")
    winners = list(state["winners"])
    ranked_by = scored_by or RANKED_BY.get(record.game)
    values = [p.get(ranked_by) or 0 if ranked_by else 0 for p in state["players"]]
    ranks = _ranks(values, winners) if state["phase"] == "over" else [None] * len(values)
    start_player = state["order"][0] if state.get("order") else None
    players = []
    for player, rank in zip(state["players"], ranks):
        players.append({
            "seat": player["seat"], "name": player["name"], "button": player.get("button"),
            "pi": player.get("pi"),
            "role": player.get("role"), "score": player[scored_by] if scored_by else None,
            "chips": player["chips"], "position": player["position"], "rank": rank,
            "in_goal": player.get("in_goal"),
            "winner": player["seat"] in winners, "start_player": player["seat"] == start_player,
        })
    first_at = events[0].get("at") if events else None
    last_at = record.ended_at or (events[-1].get("at") if events else None)
    return {
        "id": record.id, "game": record.game, "title": state.get("title", record.game),
        "status": record.status, "started": record.created_at or first_at,
        "ended": record.ended_at, "duration_min": _minutes(first_at, last_at),
        "scored_by": scored_by, "players": players, "winners": winners,
        "start_player": start_player, "commitment": record.commitment,
        "seed": record.seed if record.over else None, "log": state["log"],
    }


def _play_date(iso: str | None) -> str | None:
    """BG Stats wants local "YYYY-MM-DD HH:MM:SS"."""
    try:
        moment = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def player_id(table: str, name: str, pi: Any = None) -> str:
    """A player's id for score apps: the same for a roster name (any case) on one table, never
    the same on two tables (the table's id is in it); the Pi's (`pi`: its level) its own, not
    a person's who typed "Pi"."""
    if pi:
        return f"parlour-{table or 'table'}-pi-{pi if isinstance(pi, str) else 'player'}"
    digest = hashlib.sha256(name.casefold().encode()).hexdigest()[:12]
    return f"parlour-{table or 'table'}-{digest}"


def bg_stats_play(game: dict[str, Any], *, table: str = "") -> dict[str, Any]:
    """The push link's JSON for a finished game's record (see `game_record`): its play id and
    player ids carry the table's id, so two boxes' plays never overwrite each other."""
    scored = points_of(game) is not None            # F3's geese taken are no points
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"parlour-{table or 'table'}-{game['id']}",
        "game": {"name": game["title"], "sourceGameId": f"parlour-{game['game']}",
                 "highestWins": True, "noPoints": not scored},
        "players": [],
    }
    when = _play_date(game["started"])
    if when:
        play["playDate"] = when
    if game["duration_min"] is not None:
        play["durationMin"] = game["duration_min"]
    for player in game["players"]:
        row = {"name": player["name"],
               "sourcePlayerId": player_id(table, player["name"], player.get("pi")),
               "startPlayer": player["start_player"], "winner": player["winner"],
               "role": player["role"] or ""}
        if player["rank"] is not None:
            row["rank"] = player["rank"]
        if scored:
            row["score"] = player["score"]
        play["players"].append(row)
    return play


def bg_stats_link(play: dict[str, Any]) -> str:
    """The documented push link carrying `play`."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    return BG_STATS_URL + quote(data, safe="")
