"""The club's league, rebuilt from finished games' records alone (pure).

`check_record` takes a record as it came from the broker and keeps what the league needs, or
refuses it with the reason. `league` counts, per player name (as the roster spells it, matched
without regard to case) and game: games played, won (a shared win counts for each winner) and
points (the game's score or chips at the end, where the game counts one); and rates the
players of each two-player game by Elo: everyone starts at 1500; after a game each player's
rating moves by K x (result - expected), the result 1 for a win, 0 for a loss and 1/2 when
both or neither won, the expected result 1 / (1 + 10^((their rating - own rating) / 400)),
K = 32. Games are taken in the order they ended (then by uid), so the same records give the
same league whatever order they arrived in.
"""

from __future__ import annotations

import re
from typing import Any

from companion.errors import ParlourError

MAX_RECORD_BYTES = 2 * 1024 * 1024      # a 10,000-event game's record is ~0.4 MiB
MAX_PLAYERS = 8
MAX_NAME = 24
ELO_START, ELO_K = 1500.0, 32.0
TABLE_ID = re.compile(r"[0-9a-f]{16}")
# A game's id in the club: its table's id, its number there and, since two stores can number
# games alike (a copied SD card, a damaged store started afresh), its commitment's first 8
# hex digits; records of tables that sent none before still read.
UID = re.compile(r"([0-9a-f]{16})-([1-9][0-9]{0,9})(?:-([0-9a-f]{8}))?")
GAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


class RecordRefused(ParlourError):
    """A record from the broker that the league will not count, and why."""


def _text(value: Any, what: str, longest: int) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= longest or not value.isprintable():
        raise RecordRefused(f"{what} must be text of 1-{longest} characters")
    return value


def _number(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or abs(value) > 1e9:
        raise RecordRefused(f"{what} must be a number")
    return value


def check_record(payload: Any, table_id: str, uid: str) -> dict[str, Any]:
    """The parts of a record the league counts, from a decoded payload that arrived on the
    topic of `table_id` and `uid`; RecordRefused with the reason otherwise (a record that
    names another table than its topic's is forged)."""
    if not isinstance(payload, dict) or payload.get("v") != 1:
        raise RecordRefused("not a version 1 record")
    if payload.get("table") != table_id or not TABLE_ID.fullmatch(table_id):
        raise RecordRefused(f"names table {payload.get('table')!r} on table {table_id}'s topic")
    matched = UID.fullmatch(uid)
    if payload.get("uid") != uid or not matched or matched.group(1) != table_id:
        raise RecordRefused(f"names game {str(payload.get('uid'))[:60]!r} on the topic of "
                            f"{uid[:60]}")
    record = payload.get("record")
    if not isinstance(record, dict) or record.get("status") != "over":
        raise RecordRefused("not a finished game")
    game = record.get("game")
    if not isinstance(game, str) or not GAME.fullmatch(game):
        raise RecordRefused("'game' must be a game's id such as fox-and-geese")
    players = record.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise RecordRefused(f"'players' must list 1-{MAX_PLAYERS} players")
    kept = []
    for seat, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("winner"), bool):
            raise RecordRefused(f"player {seat + 1} must say whether they won")
        kept.append({"name": _text(player.get("name"), f"player {seat + 1}'s name", MAX_NAME),
                     "winner": player["winner"],
                     "score": _number(player.get("score"), f"player {seat + 1}'s score"),
                     "pi": player.get("pi") if isinstance(player.get("pi"), str) else None})
    if len({p["name"].casefold() for p in kept}) != len(kept):
        raise RecordRefused("two players share a name")
    ended = record.get("ended")
    return {"uid": uid, "table": table_id,
            "table_name": _text(payload.get("name") or table_id, "the table's name", 40),
            "game": game, "title": _text(record.get("title") or game, "the game's title", 60),
            "ended": ended if isinstance(ended, str) and len(ended) <= 40 else None,
            "scored_by": record.get("scored_by") if record.get("scored_by") in (
                "score", "chips") else None,
            "players": kept}


def expected(own: float, other: float) -> float:
    """Elo's expected result of a player rated `own` against one rated `other`."""
    return 1.0 / (1.0 + 10 ** ((other - own) / 400.0))


def league(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Standings per (name, game) and Elo ratings per two-player game, from checked records
    (`check_record`), each counted once by uid."""
    seen: dict[str, dict[str, Any]] = {}
    for record in records:
        seen.setdefault(record["uid"], record)
    ordered = sorted(seen.values(), key=lambda r: (r["ended"] or "", r["uid"]))
    spelt: dict[str, str] = {}                  # casefolded name -> first spelling seen
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    ratings: dict[str, dict[str, list[float]]] = {}  # game -> name -> [rating, games]
    titles: dict[str, str] = {}
    for record in ordered:
        game = record["game"]
        titles.setdefault(game, record["title"])
        names = [spelt.setdefault(p["name"].casefold(), p["name"]) for p in record["players"]]
        for name, player in zip(names, record["players"]):
            row = rows.setdefault((name, game), {"name": name, "game": game, "played": 0,
                                                 "won": 0, "points": 0.0})
            row["played"] += 1
            row["won"] += player["winner"]
            if record["scored_by"] and player["score"] is not None:
                row["points"] += player["score"]
        if len(names) == 2:
            rated = ratings.setdefault(game, {})
            a, b = (rated.setdefault(n, [ELO_START, 0]) for n in names)
            won_a, won_b = (p["winner"] for p in record["players"])
            result = 0.5 if won_a == won_b else float(won_a)
            change = ELO_K * (result - expected(a[0], b[0]))
            a[0] += change
            b[0] -= change
            a[1] += 1
            b[1] += 1
    standings = sorted(rows.values(), key=lambda r: (titles[r["game"]], -r["won"], -r["points"],
                                                      r["name"].casefold()))
    for row in standings:
        row["title"] = titles[row["game"]]
        row["points"] = round(row["points"], 2)
    return {
        "games": len(ordered),
        "standings": standings,
        "ratings": [{"game": game, "title": titles[game],
                     "players": [{"name": name, "rating": round(r, 1), "games": n}
                                 for name, (r, n) in sorted(rated.items(),
                                                            key=lambda kv: -kv[1][0])]}
                    for game, rated in sorted(ratings.items(), key=lambda kv: titles[kv[0]])],
    }
