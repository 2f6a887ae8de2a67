"""The club's MQTT topics and payloads, version 1 (the README's "The club" documents them).

Every topic starts `parlour/v1/`; a change that a reader of version 1 would misread gets
`parlour/v2/` and both are published while clubs move over. Per table (its id: 16 hex digits,
made once in its data directory):

- `parlour/v1/tables/<id>/status`: "online" / "offline" (retained; "offline" is the will);
  the table answers anything else there with "online", and the club takes it as not known;
- `parlour/v1/tables/<id>/state`: the live state (retained, QoS 1): `state_payload`;
- `parlour/v1/tables/<id>/records/<uid>`: a finished game (QoS 1, retained, so a club that
  starts later still gets every game): `record_payload`, `uid` = "<table id>-<game
  number>-<the first 8 hex digits of its commitment>", the same for every sending (two copies
  of one SD card, or a store started afresh, number their games alike; their commitments
  differ);
- `parlour/v1/tables/<id>/received/<uid>`: the club has that record (QoS 1, not retained),
  written by the club: `{"v": 1, "kept": true}`, or `{"v": 1, "kept": false, "why": ...}` for
  one it refused. A table counts a game delivered only then, not at the broker's PUBACK;
- `parlour/v1/club`: a club that answers so is about (retained, written by the club each time
  it connects): `{"v": 1, "acknowledges": true}`. Seeing it, a table sends again every game the
  broker took that the club has not answered (a broker can lose what it acknowledged: killed
  between its writes to disk, or restarted without persistence, while the club was away).

Home Assistant's MQTT discovery: `homeassistant/sensor/parlour_<id>/<entity>/config`
(retained), one device per table with the entities of `DISCOVERY`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from companion.record.league import UID
from web.records.record import counted_in

VERSION = 1
ROOT = f"parlour/v{VERSION}"
TABLE_ID = re.compile(r"[0-9a-f]{16}")
COMMITMENT = re.compile(r"[0-9a-f]{8}")
DISCOVERY_PREFIX = "homeassistant"


def status_topic(table_id: str) -> str:
    return f"{ROOT}/tables/{table_id}/status"


def state_topic(table_id: str) -> str:
    return f"{ROOT}/tables/{table_id}/state"


def table_filter(table_id: str) -> str:
    """Every topic a table writes in the club (its ACL's `topic write` line)."""
    return f"{ROOT}/tables/{table_id}/#"


def received_topic(table_id: str, uid: str) -> str:
    return f"{ROOT}/tables/{table_id}/received/{uid}"


def received_filter(table_id: str) -> str:
    """The club's answers to a table's records (its ACL's `topic read` line)."""
    return f"{ROOT}/tables/{table_id}/received/+"


CLUB_TOPIC = f"{ROOT}/club"


def game_of_uid(uid: str, table_id: str) -> int | None:
    """The game number in a uid of this table's (`game_uid`), None for anything else."""
    matched = UID.fullmatch(uid)
    return int(matched.group(2)) if matched and matched.group(1) == table_id else None


def discovery_filter(table_id: str) -> str:
    """Every Home Assistant discovery topic of a table (its ACL's second line)."""
    return f"{DISCOVERY_PREFIX}/sensor/parlour_{table_id}/#"


def record_topic(table_id: str, uid: str) -> str:
    return f"{ROOT}/tables/{table_id}/records/{uid}"


def game_uid(table_id: str, game_id: int, commitment: str | None) -> str:
    """A finished game's id in the club: the table's id, the game's number on it and its
    commitment's first 8 hex digits (a game of an old store without one: the number alone)."""
    if commitment and COMMITMENT.match(commitment):
        return f"{table_id}-{game_id}-{commitment[:8]}"
    return f"{table_id}-{game_id}"


def state_payload(snap: dict[str, Any], table_id: str, name: str) -> dict[str, Any]:
    """What a club screen or a dashboard needs of the table's state JSON: the game, its
    phase, whose turn it is, the last roll, the scores (`counted_in`: "score", "chips", or
    None for a race) and the chances to win."""
    players = snap.get("players") or []
    turn = snap.get("turn")
    playing = snap.get("phase") not in ("idle", "over") and isinstance(turn, int) \
        and 0 <= turn < len(players)
    roll = snap.get("last_roll")
    odds = snap.get("odds") or {}
    winners = set(snap.get("winners") or [])
    return {
        "v": VERSION, "table": table_id, "name": name, "version": snap.get("version"),
        "boot": snap.get("boot"), "game": snap.get("game"), "title": snap.get("title"),
        "phase": snap.get("phase"), "game_number": snap.get("game_id"),
        "turn": players[turn]["name"] if playing else None,
        "last_roll": None if not roll else {"name": _name(players, roll.get("seat")),
                                            "values": roll.get("values"),
                                            "text": roll.get("text")},
        "counted_in": counted_in(snap.get("game")),
        "players": [{"name": p.get("name"), "score": p.get("score"), "chips": p.get("chips"),
                     "winner": p.get("seat") in winners} for p in players],
        "chances": list(odds["win"]) if isinstance(odds.get("win"), list) else None,
    }


def _name(players: list[dict], seat: Any) -> str | None:
    return players[seat]["name"] if isinstance(seat, int) and 0 <= seat < len(players) else None


def record_payload(record: dict[str, Any], table_id: str, name: str, uid: str,
                   buttons: Sequence[str] = ()) -> dict[str, Any]:
    """A finished game's record (the one `/api/games/<id>/record` and the BG Stats link use)
    with the table it was played at, its id in the club and the names of the table's seat
    button colours, button 1's first (a player nobody named is called by their button's)."""
    return {"v": VERSION, "table": table_id, "name": name, "uid": uid,
            "buttons": list(buttons), "record": record}


# Home Assistant: (entity, its name, the template over the state payload, extra settings)
DISCOVERY = (
    ("game", "Game", "{{ value_json.title or 'none' }}", {"icon": "mdi:checkerboard"}),
    ("phase", "Phase", "{{ value_json.phase }}", {}),
    ("turn", "Whose turn", "{{ value_json.turn or 'nobody' }}", {"icon": "mdi:account-clock"}),
    ("last_roll", "Last roll",
     "{{ value_json.last_roll.text if value_json.last_roll else 'none' }}",
     {"icon": "mdi:dice-multiple", "json_attributes_topic": None}),
    ("chances", "Leader's chance to win",
     "{{ ((value_json.chances | max) * 100) | round(0) if value_json.chances else 'unknown' }}",
     {"unit_of_measurement": "%", "icon": "mdi:chart-line"}),
)


def discovery_topic(table_id: str, entity: str) -> str:
    return f"{DISCOVERY_PREFIX}/sensor/parlour_{table_id}/{entity}/config"


def discovery(table_id: str, name: str) -> list[tuple[str, dict[str, Any]]]:
    """Home Assistant's discovery messages: one device (the table), a sensor an entity."""
    device = {"identifiers": [f"parlour_{table_id}"], "name": name,
              "manufacturer": "Parlour", "model": "Parlour table"}
    out = []
    for entity, title, template, extra in DISCOVERY:
        config = {"name": title, "unique_id": f"parlour_{table_id}_{entity}",
                  "object_id": f"parlour_{table_id}_{entity}",
                  "state_topic": state_topic(table_id), "value_template": template,
                  "availability_topic": status_topic(table_id), "device": device}
        config.update({k: v for k, v in extra.items() if v is not None})
        if "json_attributes_topic" in extra:
            config["json_attributes_topic"] = state_topic(table_id)
            config["json_attributes_template"] = "{{ value_json.last_roll | tojson }}"
        out.append((discovery_topic(table_id, entity), config))
    return out
