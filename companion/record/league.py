"""The club's league, rebuilt from finished games' records alone (pure).

`check_record` takes a record as it came from the broker and keeps what the league needs, or
refuses it with the reason. `league` counts, per player and game: games played, won (a shared
win counts for each winner) and points (the game's score or chips at the end, where the game
counts one); and rates the players of each two-player game by Elo: everyone starts at 1500;
after a game each player's rating moves by K x (result - expected), the result 1 for a win, 0
for a loss and 1/2 when both or neither won, the expected result 1 / (1 + 10^((their rating -
own rating) / 400)), K = 32. Games are taken in the order they ended, games that ended in one
second by table and then by their number there (9 before 10), so the same records give the
same league whatever order they arrived in.

Who a player is: a person by their name, on every table, matched as players match names (X10:
case and spaces do not count); a player nobody named, whom the table calls by their seat
button's colour ("Red"), is someone at that table only ("Red (Front room)"); and the Pi is one
player per level ("Pi (best)"), the same program at every table, which plays a game once
however many of its seats it takes.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timezone
from typing import Any

from companion.buttons import DEFAULT_COLOURS, MAX_BUTTONS
from companion.checks import is_whole
from companion.errors import ParlourError
from companion.games import GAMES
from companion.randomness.rollstream import commitment as commit_to
from companion.words import name_key

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
COMMITMENT = re.compile(r"[0-9a-f]{64}")          # SHA-256 of the game's seed, in hex
SEED = re.compile(r"(?:[0-9a-f]{2}){1,64}")       # the seed itself, revealed once it is over


TABLE_NAME_LONGEST = 40        # a table's name in the club: a host name may be 64, cut to this


class RecordRefused(ParlourError):
    """A record from the broker that the league will not count, and why."""


def _text(value: Any, what: str, longest: int) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise RecordRefused(f"{what} must be text of 1-{longest} characters")
    if not value.isprintable():
        raise RecordRefused(f"{what} holds a character that cannot be shown")
    return value


def _table_name(value: Any, table_id: str) -> str:
    """The name a table gives itself, cut to `TABLE_NAME_LONGEST` (a label: a box that is
    named by a long host name still counts its games); none: its id."""
    if isinstance(value, str):
        value = value.strip()[:TABLE_NAME_LONGEST].strip()
    return _text(value or table_id, "the table's name", TABLE_NAME_LONGEST)


def _number(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or abs(value) > 1e9:
        raise RecordRefused(f"{what} must be a number")
    return value


def _moment(value: Any, received: str | None) -> str:
    """A game's end as UTC ISO text (so they sort as times), no later than `received`; a
    record without one is refused (it would sort as the league's first game)."""
    moment = _time(value)
    if moment is None:
        raise RecordRefused("'ended' must be a time with its zone, such as "
                            "2026-11-25T21:30:00Z")
    if received is not None:
        moment = min(moment, _time(received) or moment)
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _time(value: Any) -> datetime | None:
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00")) \
            if isinstance(value, str) and len(value) <= 40 else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


def _colours(value: Any) -> list[str]:
    """The names of the table's seat buttons' colours (the envelope's `buttons`); a table that
    sends none has the box's default colours."""
    if isinstance(value, list) and 0 < len(value) <= MAX_BUTTONS \
            and all(isinstance(v, str) and 0 < len(v) <= 40 for v in value):
        return value
    return [c.name for c in DEFAULT_COLOURS]


def check_record(payload: Any, table_id: str, uid: str, *,
                 received: str | None = None) -> dict[str, Any]:
    """The parts of a record the league counts, from a decoded payload that arrived on the
    topic of `table_id` and `uid` at `received` (UTC ISO text: a game cannot end later);
    RecordRefused with the reason otherwise (a record that names another table than its
    topic's is forged)."""
    if not isinstance(payload, dict) or not is_whole(payload.get("v")) or payload["v"] != 1:
        raise RecordRefused("not a version 1 record")
    if payload.get("table") != table_id or not TABLE_ID.fullmatch(table_id):
        raise RecordRefused(f"names table {payload.get('table')!r} on table {table_id}'s topic")
    matched = UID.fullmatch(uid)
    if payload.get("uid") != uid:
        raise RecordRefused(f"names game {str(payload.get('uid'))[:60]!r} on the topic of "
                            f"{uid[:60]}")
    if not matched or matched.group(1) != table_id:
        raise RecordRefused(f"a game's uid is <table>-<number>-<8 hex digits of its "
                            f"commitment>, not {uid[:60]!r}")
    record = payload.get("record")
    if not isinstance(record, dict) or record.get("status") != "over":
        raise RecordRefused("not a finished game")
    commitment = record.get("commitment")
    commitment = commitment if isinstance(commitment, str) and COMMITMENT.fullmatch(
        commitment) else None
    seed = record.get("seed")
    if isinstance(seed, str) and SEED.fullmatch(seed):     # revealed: it names its commitment
        sealed = commit_to(bytes.fromhex(seed))              # (a copy without one counted twice)
        if commitment not in (None, sealed):
            raise RecordRefused("the revealed seed does not match the record's commitment")
        commitment = sealed
    number = record.get("id")
    if not is_whole(number) or str(number) != matched.group(2):
        raise RecordRefused(f"the uid {uid[:60]!r} names game {matched.group(2)} but the "
                            f"record is game {str(number)[:20]}")
    if matched.group(3) is not None and (commitment is None or
                                         commitment[:8] != matched.group(3)):
        # (tables that sent "<table>-<number>" alone still read: the commitment finds a
        # repeat; a uid that names a commitment is one the record must have)
        raise RecordRefused(f"the uid {uid[:60]!r} does not end in the first 8 hex digits of "
                            f"the record's commitment ({(commitment or 'none')[:8]})")
    game = record.get("game")
    if not isinstance(game, str) or not GAME.fullmatch(game):
        raise RecordRefused("'game' must be a game's id such as fox-and-geese")
    players = record.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise RecordRefused(f"'players' must list 1-{MAX_PLAYERS} players")
    kept = []
    colours = _colours(payload.get("buttons"))
    for seat, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("winner"), bool):
            raise RecordRefused(f"player {seat + 1} must say whether they won")
        name = _text(player.get("name"), f"player {seat + 1}'s name", MAX_NAME)
        button = player.get("button")
        colour = colours[button - 1] if is_whole(button) and 0 < button <= len(colours) else None
        pi = player.get("pi")
        kept.append({"name": name, "winner": player["winner"],
                     "score": _number(player.get("score"), f"player {seat + 1}'s score"),
                     "pi": pi[:20] if isinstance(pi, str) and pi.isprintable() and pi else None,
                     "unnamed": colour is not None and name_key(colour) == name_key(name)})
    if len({name_key(p["name"]) for p in kept}) != len(kept):
        raise RecordRefused("two players share a name")
    known = GAMES.get(game)
    return {"uid": uid, "table": table_id,
            "table_name": _table_name(payload.get("name"), table_id),
            "game": game, "title": known.title if known else _text(
                record.get("title") or game, "the game's title", 60),
            "ended": _moment(record.get("ended"), received),
            "scored_by": points_of({"game": game, "scored_by": record.get("scored_by")}),
            "commitment": commitment, "players": kept}


def points_of(record: dict[str, Any]) -> str | None:
    """What a record's scores count in for the league ("score": points, "chips"), or None: a
    race, or a game whose score is no points (F3's geese taken; in records kept before the
    league knew, too)."""
    known = GAMES.get(record.get("game"))
    scored_by = record.get("scored_by")
    return scored_by if scored_by in ("score", "chips") and (
        known is None or known.score_is_points) else None


def same_game_differs(kept: dict[str, Any], record: dict[str, Any]) -> str | None:
    """What a second copy of a kept game says otherwise (its game, players, winners or
    scores), or None when it counts the same: a game that ended never changes."""
    def counted(r: dict[str, Any]) -> dict[str, Any]:
        return {"game": r.get("game"), "scored_by": points_of(r), "players": r.get("players")}
    before, now = counted(kept), counted(record)
    return next((part for part in before if before[part] != now[part]), None)


def expected(own: float, other: float) -> float:
    """Elo's expected result of a player rated `own` against one rated `other`."""
    return 1.0 / (1.0 + 10 ** ((other - own) / 400.0))


def entrant(record: dict[str, Any], player: dict[str, Any]) -> tuple[tuple[str, ...], str]:
    """Who a checked record's player is in the league: (key, the name to show; a seat's is
    its colour, shown with its table's newest name by `_shown_names`)."""
    if player["pi"]:
        return ("pi", player["pi"]), f"Pi ({player['pi']})"
    if player.get("unnamed"):
        return ("seat", record["table"], name_key(player["name"])), player["name"]
    return ("name", name_key(player["name"])), player["name"]


def entrant_id(key: tuple[str, ...]) -> str:
    """An entrant's key (`entrant`) as one string: the league's rows and ratings carry it,
    so a page can match them even where two entrants are shown alike."""
    return ":".join(key)


def _shown_names(spelt: dict[tuple[str, ...], str], tables: dict[str, str]) -> dict:
    """Each entrant's name as the league shows it: a table's player nobody named under the
    table's newest name ("Red (Front room)"), and no two entrants alike: a seat at a table
    named as another is (two "parlour"s), or shown as another seat is (a table renamed to an
    older one's name), gets its table id's first 4 digits ("Red (parlour · 0123)"); a person
    named as the Pi is shown ("Pi (best)") is said to be one ("Pi (best), a player"); and a
    name alike even so is numbered ("Pi (best), a player #2")."""
    shown = {key: f"{name} ({tables[key[1]]})" if key[0] == "seat" else name
             for key, name in spelt.items()}
    called = Counter(tables.values())
    counts = Counter(name_key(name) for name in shown.values())
    for key, name in shown.items():
        alike = counts[name_key(name)] > 1
        if key[0] == "seat" and (alike or called[tables[key[1]]] > 1):
            shown[key] = f"{name[:-1]} · {key[1][:4]})"
        elif key[0] == "name" and alike:
            shown[key] = f"{name}, a player"
    # A name still alike (a person who typed what the above adds, "Pi (best), a player"):
    # numbered, "#2" on, in the order of the entrants' ids.
    taken: set[str] = set()
    for key in sorted(shown, key=entrant_id):
        name, number = shown[key], 1
        while name_key(name) in taken:
            number += 1
            name = f"{shown[key]} #{number}"
        taken.add(name_key(name))
        shown[key] = name
    return shown


def game_order(record: dict[str, Any]) -> tuple[str, str, int, str]:
    """A checked record's place in the league: when it ended, then (games that ended in one
    second: a table's clock capped at their arrival, or a coarse clock) its table and its
    number there, as a number: "<table>-9-..." comes before "<table>-10-...", which as text
    it does not; then its uid (two stores of one table id number their games alike)."""
    matched = UID.fullmatch(record["uid"])
    return (record["ended"] or "", record["table"], int(matched.group(2)) if matched else 0,
            record["uid"])


def in_order(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Checked records, each once by uid (the first kept), in the order the league takes them
    (`game_order`)."""
    seen: dict[str, dict[str, Any]] = {}
    for record in records:
        seen.setdefault(record["uid"], record)
    return sorted(seen.values(), key=game_order)


def league(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Standings per player (`entrant`) and game and Elo ratings per two-player game, from
    checked records (`check_record`), each counted once by uid; a game that counts no points
    has None for them. An entrant on several seats of one game (the Pi at one level) played it
    once: won if any of its seats won, its points its best seat's; a game of two seats of one
    entrant is not rated."""
    ordered = in_order(records)
    spelt: dict[tuple[str, ...], str] = {}      # who -> the name shown: the first seen
    rows: dict[tuple[tuple[str, ...], str], dict[str, Any]] = {}     # (who, game) -> row
    ratings: dict[str, dict[tuple[str, ...], list[float]]] = {}  # game -> who -> [rating, n]
    titles: dict[str, str] = {}
    scored: set[str] = set()                   # games whose records count points
    for record in ordered:
        game = record["game"]
        titles.setdefault(game, record["title"])
        scored_by = points_of(record)
        if scored_by:
            scored.add(game)
        who = []
        seats: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for player in record["players"]:
            key, shown = entrant(record, player)
            spelt.setdefault(key, shown)
            who.append(key)
            seats.setdefault(key, []).append(player)
        for key, played in seats.items():
            row = rows.setdefault((key, game), {"who": key, "game": game, "played": 0,
                                                "won": 0, "points": 0.0})
            row["played"] += 1
            row["won"] += any(p["winner"] for p in played)
            scores = [p["score"] for p in played if p["score"] is not None]
            if scored_by and scores:
                row["points"] += max(scores)
        if len(seats) == 2 == len(who):
            rated = ratings.setdefault(game, {})
            a, b = (rated.setdefault(key, [ELO_START, 0]) for key in who)
            won_a, won_b = (p["winner"] for p in record["players"])
            result = 0.5 if won_a == won_b else float(won_a)
            change = ELO_K * (result - expected(a[0], b[0]))
            a[0] += change
            b[0] -= change
            a[1] += 1
            b[1] += 1
    shown = _shown_names(spelt, {r["table"]: r["table_name"] for r in ordered})
    for row in rows.values():
        who = row.pop("who")
        row["id"], row["name"] = entrant_id(who), shown[who]
        row["title"] = titles[row["game"]]
        row["points"] = round(row["points"], 2) if row["game"] in scored else None
    standings = sorted(rows.values(), key=lambda r: (r["title"], -r["won"], -(r["points"] or 0),
                                                      r["name"].casefold()))
    return {
        "games": len(ordered),
        "standings": standings,
        "ratings": [{"game": game, "title": titles[game],
                     "players": [{"id": entrant_id(key), "name": shown[key],
                                  "rating": round(r, 1), "games": n}
                                 for key, (r, n) in sorted(rated.items(),
                                                           key=lambda kv: -kv[1][0])]}
                    for game, rated in sorted(ratings.items(), key=lambda kv: titles[kv[0]])],
    }
