"""A phone paired with a seat: pairing it with the code the box shows (/api/pair), its
pairing and undoing it, and what it may do without the PIN: spin, choose and end the turn when
it is its seat's turn, press for its own seat. The code, readable only at the box, is the
proof, so pairing needs no PIN."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (Blueprint, Response, after_this_request, has_request_context, jsonify, request,
                   session)

from web.access import auth
from web.context import field_str, json_body, parlour
from web.errors import ApiError
from web.seen import check_seen
from web.access.phones import CodeRefused, CodeWait, new_token, seat_of_button

bp = Blueprint("seat", __name__)

TOKEN = "phone"                                   # the phone's token, in its signed cookie
SEAT_ACTIONS = ("roll", "press", "choose", "next", "move", "pi-move")


def phone_token(*, make: bool = False) -> str | None:
    token = session.get(TOKEN)
    if token is None and make:
        token = session[TOKEN] = new_token()
    return token


def keeping_pairing(change: Callable[[], None]) -> None:
    """Sign in or out (`change` clears the cookie session) without unpairing the phone."""
    token = phone_token()
    change()
    if token:
        session[TOKEN] = token
    session.permanent = True                 # kept when the phone's browser closes, too


def _check_csrf() -> None:
    given = request.headers.get(auth.CSRF_HEADER) or request.form.get("csrf")
    if not auth.csrf_ok(given):
        raise ApiError(403, "This page had expired: reload it and try again.")


def pairing(state: dict[str, Any] | None = None) -> dict[str, Any]:
    """This phone's pairing: {"button", "seat", "name"}."""
    pairings = parlour().pairings
    status = pairings.status(phone_token()) if pairings is not None else {"button": None}
    state = state if state is not None else parlour().session.snapshot()
    seat = seat_of_button(state, status["button"])
    players = state.get("players") or []
    return {**status, "seat": seat, "name": players[seat]["name"] if seat is not None else None}


def tell_pages(hub) -> None:
    """Every live page hears that a phone was paired or unpaired, and asks if it was this one.
    Paired from a page, only once the answer has gone: it sets the cookie that the phone's
    other tabs ask with (asked sooner, they asked as strangers)."""
    if not has_request_context():                    # the box unpaired a seat
        hub.notify("pairing")
        return

    @after_this_request
    def then(response: Response) -> Response:
        response.call_on_close(lambda: hub.notify("pairing"))
        return response


def _pairings():
    pairings = parlour().pairings
    if pairings is None:
        raise ApiError(404, "This table has no seat buttons to pair a phone with.")
    return pairings


@bp.get("/api/pair")
def pair_status() -> Response:
    return jsonify(pairing())


@bp.post("/api/pair")
def pair_claim() -> Response:
    """{"code": "123456"}: the code the box shows for a seat button pairs this phone with it;
    a wrong one is 403, and 429 (nothing compared) past its address's limits."""
    _check_csrf()
    pairings = _pairings()
    data = json_body()
    code = field_str(data, "code", max_length=32)
    try:
        pairings.claim(phone_token(make=True), code, address=auth.client_address())
    except CodeWait as err:
        raise ApiError(429, str(err), {"Retry-After": str(err.wait)} if err.wait else None) \
            from None
    except CodeRefused as err:
        raise ApiError(403, str(err)) from None
    session.permanent = True
    return jsonify(pairing())


@bp.post("/api/pair/forget")
def pair_forget() -> Response:
    _check_csrf()
    _pairings().forget(phone_token())
    return jsonify(pairing())


def run_paired(action: str, data: dict[str, Any],
               run: Callable[[str, dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """`run(action, data)` for a paired phone, if its seat may: checked and done with the table
    held still, so the turn cannot pass to another seat in between."""
    with parlour().session.locked():
        check_seen(data)                 # a throw of its own sent again: told it was done
        check_paired(action, data)
        return run(action, data)


def unpaired_words() -> str:
    """Why a phone that neither is signed in nor plays a seat may not act, in its words."""
    if session.get("pin_ok"):                        # signed in with a PIN no longer in use
        return "The table's PIN has changed, or this phone was signed out: enter the PIN."
    if phone_token():                                # paired once, unpaired since (at the box)
        return ("This phone no longer plays a seat: it was unpaired. Pair it again at the box "
                "(Menu, \"Pair a phone\"), or enter the table's PIN.")
    return "Enter the table's PIN first."


def check_paired(action: str, data: dict[str, Any]) -> None:
    """Raises a 403 ApiError in players' words unless this phone's seat may do `action` now."""
    button = parlour().pairings.button(phone_token()) if parlour().pairings else None
    if button is None:
        raise ApiError(403, unpaired_words())
    if action not in SEAT_ACTIONS:
        raise ApiError(403, "A paired phone plays its own seat: that needs the table's PIN.")
    state = parlour().session.snapshot()
    seat = seat_of_button(state, button)
    if seat is None:
        raise ApiError(403, f"Seat button {button} has no player in this game.")
    if action == "pi-move":                  # a player of this game asks the Pi to go on
        return
    if action == "press":
        if "seat" in data and data["seat"] != seat:      # none at all: the action says so (400)
            raise ApiError(403, "This phone presses for its own seat only.")
    elif state.get("turn") != seat:
        turn = state.get("turn")
        players = state.get("players") or []
        whose = players[turn]["name"] if isinstance(turn, int) and turn < len(players) else ""
        raise ApiError(409, f"It is {whose}'s turn, not yours." if whose else
                       "Nothing is awaited from your seat now.")
