"""The box's Wi-Fi from a signed-in phone: what network it is on (or its hotspot), and a home
network to join. The firmware hands the app an object with `status()` and `add_home(ssid,
password)` (firmware/network/hotspot.py); without one (a simulated table, or [hotspot] mode
"off") these answer 404 and the page shows no Wi-Fi card."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from web.access import auth
from web.context import field_str, json_body, parlour
from web.control import back_to_page, form_checked, say
from web.errors import ApiError

bp = Blueprint("network", __name__)

NOT_HERE = 'This box does not manage its Wi-Fi here (a simulated table, or [hotspot] mode = "off").'


def network_words(status: dict[str, Any] | None) -> str:
    """One line for the page: where the box is now."""
    if not status:
        return ""
    mode, name = status.get("mode"), status.get("network") or ""
    hotspot = status.get("hotspot") or {}
    if mode == "hotspot":
        return f"The box runs its own Wi-Fi, {hotspot.get('ssid', '')}. Add your home network " \
               f"below and it joins that instead."
    if mode == "joining":
        return status.get("message") or "Joining a network."
    if mode == "home":
        return f"The box is on {name.removeprefix('Parlour: ')}."
    return "The box is looking for a network it knows."


def _network():
    network = parlour().network
    if network is None:
        raise ApiError(404, NOT_HERE)
    return network


@bp.get("/api/network")
def network_status() -> Response:
    network = _network()
    auth.require_pin_for_api()
    return jsonify(network.status())


def _join(ssid: str, password: str) -> str:
    try:
        return _network().add_home(ssid, password)
    except ValueError as err:
        raise ApiError(400, str(err)) from None


@bp.post("/api/network/wifi")
def add_wifi() -> Response:
    _network()
    auth.require_pin_for_api()
    data = json_body()
    words = _join(field_str(data, "ssid", max_length=64),
                  field_str(data, "password", default="", max_length=64))
    response = jsonify(ok=True, message=words)
    response.status_code = 202
    return response


@bp.post("/control/wifi")
def form_wifi() -> Response:
    _network()
    refused = form_checked()
    if refused:
        return refused
    if not auth.logged_in():
        return back_to_page(say("This needs the table's PIN: sign in first.", "error", 401))
    try:
        words = _join(request.form.get("ssid", "")[:64], request.form.get("password", "")[:64])
    except ApiError as err:
        return back_to_page(say(err.message, "error", err.status))
    return back_to_page(say(words, "ok", 202))
