"""The Flask app: status page, JSON API, live stream, PIN control and the /device panel.

`create_app(session, pin=..., device=...)` is all firmware needs: it serves the result with
waitress (many threads: every phone's live stream holds one), calls `start_background(app)`
once serving (the worker that keeps per-game figures) and `shutdown(app)` before stopping so
the streams end.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from flask import Flask, Response, request

from companion.buttons import DEFAULT_COLOURS, ButtonColour
from companion.session import Session
from companion.words import counted, listing
from web import api, control, errors, pages
from web.access import auth, seat
from web.records import chances
from web import network as network_pages
from web import device as device_panel
from web.access.auth import KnownAddresses, Logins, OwnNames, PinGuard
from web.access.cookies import TableSessions, set_cookie_header
from web.access.pace import Paces
from web.context import Parlour
from web.device import DevicePanel
from web.moves import phone_words
from web.records.figures import Figures
from web.access.phones import Pairings, phone_clock, phone_id
from web.stream import Hub

__all__ = ["create_app", "start_background", "shutdown", "DevicePanel"]

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class TableResponse(Response):
    """A page with a lone surrogate in it (a name kept by an older store) is sent with U+FFFD
    in its place, instead of failing to encode as UTF-8."""

    def set_data(self, value: bytes | str) -> None:
        if isinstance(value, str):
            try:
                value = value.encode()
            except UnicodeEncodeError:
                value = _LONE_SURROGATE.sub("\ufffd", value).encode()
        super().set_data(value)

    def set_cookie(self, key: str, value: str = "", max_age: Any = None, expires: Any = None,
                   **options: Any) -> None:
        """A cookie that lasts by Max-Age, never an Expires date from the box's clock."""
        set_cookie_header(self, key, value, max_age, expires, **options)


def create_app(session: Session, *, pin: str, device: DevicePanel | None = None,
               max_streams: int = 40, streams_per_address: int | None = None,
               known_streams: int = 0,
               allowed_hosts: Iterable[str] = (), panel_open: bool = False,
               test_config: dict[str, Any] | None = None,
               buttons: Sequence[ButtonColour] | None = None,
               secret_key: bytes | None = None, pairings: Pairings | None = None,
               logins: Logins | None = None, table_id: str = "", network: Any = None,
               table_time: Callable[[], datetime] | None = None,
               learn_time: Callable[[str, datetime, str], None] | None = None) -> Flask:
    """The web app of one table. `allowed_hosts`: the names it answers to besides loopback;
    `panel_open`: serve /device to other machines (with the PIN) and not only to loopback.
    `buttons`: the box's seat button colours, button 1's first (X12). `secret_key` signs the
    phones' cookies and `logins` are the live sign-ins (both kept by the firmware, so phones
    stay signed in across a restart); `pairings` are the phones paired with a seat button;
    `network` is the box's Wi-Fi (web/network.py), None where the box does not manage it;
    `table_time` is the clock the events are stamped by (firmware/stamps.py), against which
    the running clock of Fox and Geese is read (the wall clock where none is given);
    `learn_time(phone, time, address)` hears what a signed-in or paired phone's clock says.
    `known_streams` of the `max_streams` live streams only signed-in and paired phones take.
    `test_config` overrides settings (SECRET_KEY, SSE_KEEPALIVE seconds, SSE_MAX_SECONDS,
    PIN_TRIES, PIN_WINDOW, CLOCK: a monotonic clock, which the phones' pace is kept by, ...)."""
    app = Flask(__name__)
    app.response_class = TableResponse
    app.session_interface = TableSessions()
    app.config.from_mapping(
        SECRET_KEY=secret_key or secrets.token_bytes(32),   # without a kept key, per process
        MAX_CONTENT_LENGTH=16 * 1024,
        MAX_FORM_MEMORY_SIZE=16 * 1024,
        MAX_FORM_PARTS=200,
        SESSION_COOKIE_NAME="parlour",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SSE_KEEPALIVE=15.0,
        SSE_MAX_SECONDS=900.0,
        SSE_RETRY_MS=3000,
        PIN_TRIES=5,
        PIN_WINDOW=60.0,
        CLOCK=time.monotonic,
    )
    if test_config:
        app.config.update(test_config)
    clock = app.config["CLOCK"]
    known_addresses = KnownAddresses()
    app.extensions["parlour"] = Parlour(
        session=session,
        guard=PinGuard(pin, tries=app.config["PIN_TRIES"], window=app.config["PIN_WINDOW"],
                       clock=clock),
        hub=Hub(session.subscribe, session.snapshot, max_streams=max_streams,
                keepalive=app.config["SSE_KEEPALIVE"], max_seconds=app.config["SSE_MAX_SECONDS"],
                retry_ms=app.config["SSE_RETRY_MS"], clock=clock,
                per_address=streams_per_address, known_streams=known_streams,
                known=known_addresses.known),
        device=device,
        logins=logins if logins is not None else Logins(),
        own_names=OwnNames(allowed_hosts),
        figures=Figures(session.store),
        panel_open=panel_open,
        pairings=pairings,
        buttons=tuple(DEFAULT_COLOURS if buttons is None else buttons),
        table_id=table_id,
        network=network,
        **({"table_time": table_time} if table_time else {}),
        learn_time=learn_time,
        known_addresses=known_addresses,
        paces=Paces(clock=clock),
    )
    if pairings is not None:                # a phone paired or unpaired: every page asks again
        pairings.on_changed = partial(seat.tell_pages, app.extensions["parlour"].hub)
    app.before_request(auth.check_host)
    for blueprint in (api.bp, control.bp, device_panel.bp, network_pages.bp, pages.bp,
                      seat.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(chances.bp)
    app.add_template_filter(listing)        # "Ann, Ben and Cy", as the box says names
    app.add_template_filter(counted)        # "1 event", "2 events"
    app.add_template_filter(phone_words)    # the rules' words for the box's controls, a phone's
    errors.register(app)

    @app.after_request
    def note_a_phone_we_know(response: Response) -> Response:
        """A signed-in or paired phone: the server keeps room for its address, and the box
        hears the time its clock says (`X-Parlour-Clock`, ms since 1970)."""
        parlour = app.extensions["parlour"]
        paired = parlour.pairings is not None and \
            parlour.pairings.button(seat.phone_token()) is not None
        if auth.logged_in() or paired:
            parlour.known_addresses.saw(auth.client_address())
            said = phone_clock(request.headers.get("X-Parlour-Clock"))
            if said is not None and parlour.learn_time is not None:
                parlour.learn_time(auth.login_id() if auth.logged_in()
                                   else phone_id(seat.phone_token()), said,
                                   auth.client_address())
        return response

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app


def start_background(app: Flask) -> None:
    """Start the worker that keeps finished games' figures (woken by every session change)."""
    context = app.extensions["parlour"]
    context.session.subscribe(context.figures.wake)
    context.figures.start()


def shutdown(app: Flask) -> None:
    """End every live stream and the figures worker (call before stopping the server)."""
    app.extensions["parlour"].hub.close()
    app.extensions["parlour"].figures.stop()
