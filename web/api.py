"""The read-only JSON API and the live stream: /api/state, /api/events, /api/games, logs."""

from __future__ import annotations

import re

from flask import Blueprint, Response, jsonify, request

from companion.session import log_line
from web.access import auth
from web.context import parlour
from companion.errors import ParlourError
from web.errors import ApiError
from web.records.record import bg_stats_link, bg_stats_play
from web.records.summaries import buttons, summary

bp = Blueprint("api", __name__, url_prefix="/api")

NO_STORE = {"Cache-Control": "no-store"}
MAX_ID = 2**63 - 1          # SQLite's largest integer
STATE_KEY = ("api", "state")   # in Parlour.cache: the last state and its JSON body


@bp.get("/state")
def state() -> Response:
    context = parlour()
    snap = context.session.snapshot()
    cached = context.cache.get(STATE_KEY)
    if cached is not None and cached[0] == snap:         # unchanged: the same body again
        response = Response(cached[1], mimetype=cached[2])
    else:
        response = jsonify(snap)
        context.cache[STATE_KEY] = (snap, response.get_data(), response.mimetype)
    response.headers.update(NO_STORE)
    return response


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: the state now, then one `state` message per change."""
    disconnected = request.environ.get("waitress.client_disconnected")
    stream = parlour().hub.open(disconnected if callable(disconnected) else None,
                                auth.client_address())
    if stream is None:
        raise ApiError(503, "too many live pages at once: poll /api/state instead",
                       {"Retry-After": "30"})
    opened = request.environ.get("parlour.stream_opened")    # firmware/webserver.py's
    if callable(opened):
        opened()               # its worker is the stream's now, counted by the hub's caps
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@bp.get("/games")
def games() -> Response:
    """One page of stored games, newest first: ?before=<id> or ?page=<n>; `next` is the URL
    of the page after it (null on the last)."""
    from web.pages import games_page
    records, links = games_page("api.games")
    store = parlour().session.store
    return jsonify(games=[{**summary(r), "buttons": buttons(store, r)} for r in records],
                   next=links["older"])


@bp.get("/games/<int:game_id>/log")
def game_log(game_id: int) -> Response:
    """The game's JSON Lines log, as a download; the seed is in it once the game is over."""
    session = parlour().session
    if game_id > MAX_ID:
        raise ApiError(404, f"no game {game_id} on this table")
    try:
        events = session.export_log(game_id)
    except KeyError:
        raise ApiError(404, f"no game {game_id} on this table") from None
    record = session.store.game(game_id)
    body = "".join(log_line(e) + "\n" for e in events)
    game = re.sub(r"[^A-Za-z0-9-]", "", record.game if record else "") or "game"
    name = f"parlour-{game_id}-{game}.jsonl"
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             **NO_STORE})


@bp.get("/games/<int:game_id>/record")
def game_record_json(game_id: int) -> Response:
    """A game's record: players, scores, ranks, winners, times; once over, its BG Stats link."""
    store = parlour().session.store
    record = store.game(game_id) if game_id <= MAX_ID else None
    if record is None:
        raise ApiError(404, f"no game {game_id} on this table")
    try:
        body = parlour().figures.record(record)
    except ParlourError as err:
        raise ApiError(409, str(err)) from None
    if record.over:
        body["bg_stats"] = bg_stats_link(bg_stats_play(body, table=parlour().table_id))
    response = jsonify(body)
    response.headers.update(NO_STORE)
    return response
