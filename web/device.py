"""The simulated device panel: the OLED live, the seat buttons, Undo, Menu and a knob.

Firmware hands the app a `DevicePanel` (its simulator); web never imports firmware. The panel
rolls, ends games and shows the PIN, so it answers only on this machine (loopback) unless the
app was made with `panel_open`, and then only with the PIN (a login, or the PIN header): a
browser with neither is asked for the PIN on the page, and signing in there leads back to it.
"""

from __future__ import annotations

import ipaddress
from typing import Any, Protocol, runtime_checkable

from flask import Blueprint, Response, jsonify, render_template, request

from companion.checks import is_whole
from companion.errors import Refused
from companion.words import shown_value
from web.access import auth
from web.context import json_body, parlour
from web.errors import ApiError, wants_page

bp = Blueprint("device", __name__, url_prefix="/device")

KNOB_ACTIONS = ("press", "hold", "turn", "flick")
MAX_DETENTS = 1000
DEFAULT_SEATS = 6


@runtime_checkable
class DevicePanel(Protocol):
    """What the simulator offers the web page. It may also have `seats: int` (buttons shown)."""

    def handle_input(self, payload: dict) -> dict:
        """Act on one input as POST /device/input describes; ValueError (for people) if bad."""

    def screen_png(self) -> bytes:
        """The OLED's current frame as a PNG."""

    def screen_version(self) -> int:
        """A number that increases whenever the frame changes."""

    # It may also have `lit_seats() -> list[int]`: the seat buttons whose LED is on, and
    # `screen_view() -> dict`: the frame in words and the state (boot, version) it shows.


def from_this_machine(address: str) -> bool:
    """Loopback, or one of this machine's own addresses (a browser on the table's machine
    opening the LAN address the table prints)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or bool(mapped and mapped.is_loopback) or \
        auth.is_this_machine(str(mapped or ip))


@bp.before_request
def only_here_or_with_the_pin() -> tuple[str, int, dict] | None:
    if not parlour().panel_open:
        if not from_this_machine(auth.client_address()):
            raise ApiError(403, "the device panel answers only on the table's own machine "
                                "(parlour run --open-panel serves it to others, with the PIN)")
    elif request.method == "GET" and auth.logged_in():
        return None
    elif request.endpoint == "device.panel" and parlour().device is not None and \
            auth.PIN_HEADER not in request.headers and wants_page():
        # a phone following the "Box" link: the PIN asked for here, in words, not a 401
        # naming a header; the panel's own fetches and the API keep their JSON error
        return render_template("device_pin.html"), 401, {"Cache-Control": "no-store"}
    else:
        auth.require_pin_for_api()
    return None


def _device() -> DevicePanel:
    device = parlour().device
    if device is None:
        raise ApiError(404, "no simulated device on this table")
    return device


def check_input(data: dict[str, Any], seats: int = 64) -> dict[str, Any]:
    """The input as `POST /device/input` takes it, with only the fields it needs (a press's or
    a hold's 'detents' are no part of it); 400 otherwise, in one wording for every seat out of
    range."""
    kind = data.get("input")
    if kind == "seat":
        seat = data.get("seat")
        if not is_whole(seat) or not 0 <= seat < seats:
            raise ApiError(400, f"a seat input needs 'seat', a whole number from 0 to "
                                f"{seats - 1}, not {shown_value(seat)}")
        return {"input": "seat", "seat": seat}
    if kind in ("undo", "menu"):
        return {"input": kind}
    if kind == "knob":
        action = data.get("action")
        if action not in KNOB_ACTIONS:
            raise ApiError(400, f"a knob input needs 'action': {', '.join(KNOB_ACTIONS)}")
        out: dict[str, Any] = {"input": "knob", "action": action}
        if "detents" in data and action in ("turn", "flick"):   # optional: else the device's
            detents = data["detents"]
            if not is_whole(detents) or abs(detents) > MAX_DETENTS:
                raise ApiError(400, f"'detents' must be a whole number from -{MAX_DETENTS} "
                                    f"to {MAX_DETENTS}")
            if action in ("turn", "flick") and detents == 0:
                raise ApiError(400, f"a {action} needs 'detents' other than 0")
            out["detents"] = detents
        return out
    raise ApiError(400, "'input' must be one of: seat, knob, undo, menu")


@bp.get("")
def panel() -> str:
    device = _device()
    seats = getattr(device, "seats", DEFAULT_SEATS)
    seats = seats if is_whole(seats) and 1 <= seats <= 6 else DEFAULT_SEATS
    return render_template("device.html", seats=seats, version=device.screen_version())


@bp.get("/screen.png")
def screen() -> Response:
    device = _device()
    version = device.screen_version()
    response = Response(device.screen_png(), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Screen-Version"] = str(version)
    return response


@bp.get("/screen")
def screen_version() -> Response:
    """The frame's version, polled by the panel to know when to fetch a new PNG, and the
    seat buttons lit now (as the box's LEDs are)."""
    device = _device()
    lit = getattr(device, "lit_seats", None)
    view = getattr(device, "screen_view", None)
    response = jsonify(version=device.screen_version(), lit=list(lit()) if callable(lit) else [],
                       view=view() if callable(view) else {})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/input")
def device_input() -> Response:
    device = _device()
    seats = getattr(device, "seats", DEFAULT_SEATS)
    payload = check_input(json_body(), seats if is_whole(seats) and 1 <= seats <= 64 else 64)
    try:
        result = device.handle_input(payload)
    except Refused as err:
        raise ApiError(409, str(err)) from None
    except ValueError as err:
        raise ApiError(400, str(err) or "the device did not accept that input") from None
    return jsonify(result if isinstance(result, dict) else {"ok": True})
