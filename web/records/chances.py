"""The game in pictures for history: a stored game's chips and chances step by step.

`GET /api/games/<id>/chart` -> {"names", "chips": [[...] per step], "win": [[...] | null per
step], "exact"}. Chances are those worked out while the game was played (kept by the chances
worker once a finished game's were all known); for Kat en Muis, whose chances are exact and
cheap, they are worked out here the first time, then kept. The newest finished charts are
kept in memory (bounded), and so is the game in play's at its newest version; concurrent
requests for one share the work.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.errors import ParlourError, StoreError
from companion.chances.odds import exact
from companion.chances.history import chart_of
from companion.replay import replay
from web.context import parlour
from web.errors import ApiError
from web.records.summaries import buttons

bp = Blueprint("chances", __name__, url_prefix="/api")
MAX_ID = 2**63 - 1
EXACT_HERE = ("kat-en-muis",)        # cheap enough to work out on a page view, once


@bp.get("/games/<int:game_id>/chart")
def game_chart(game_id: int) -> Response:
    context = parlour()
    record = context.session.store.game(game_id) if game_id <= MAX_ID else None
    if record is None:
        raise ApiError(404, f"no game {game_id} on this table")
    if record.status == "playing":          # once a version of the game, the newest kept
        return jsonify(context.figures.of_game("chart", record, lambda: _chart(record)))
    # a finished game's chart changes only as its chances come to be kept (the chances worker
    # completes it after the game): shared by concurrent requests, the newest kept
    key = ("chart", record.id, record.events, record.status,
           context.session.store.has_chances(record.id))
    return jsonify(context.figures.shared.get(key, lambda: _chart(record)))


def _chart(record) -> dict[str, Any]:
    try:
        table = replay(parlour().session.store.events(record.id))
    except ParlourError as err:
        return {"names": list(record.players), "chips": [], "win": [], "exact": False,
                "game": record.game, "error": str(err)}
    states = table.states
    store = parlour().session.store
    stored = store.chances(record.id)
    computed = stored is None and record.game in EXACT_HERE
    if computed:
        stored = [exact(table.rulebook, s) for s in states]
        stored = [None if o is None else o["win"] for o in stored]
        if record.over:
            try:
                store.keep_chances(record.id, stored)
            except StoreError:      # a full card: worked out again next time
                pass
    known = {step: win for step, win in enumerate(stored or []) if win is not None}
    out = chart_of(states, known)
    out["names"] = [p.name for p in states[-1].players]
    out["buttons"] = ["pi" if p.extra.get("pi") else b       # each line in its button's colour,
                      for p, b in zip(states[-1].players, buttons(store, record))]   # the Pi's own
    out["exact"], out["game"] = record.game in EXACT_HERE, record.game
    return out
