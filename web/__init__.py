"""The Flask app: status page, JSON API, live stream, PIN control and the /device panel.

`create_app(session, pin=..., device=...)` is all firmware needs: it serves the result with
waitress (many threads: every phone's live stream holds one) and calls `shutdown(app)` before
stopping so the streams end.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from flask import Flask, Response

from companion.session import Session
from web import api, control, errors, pages, seat
from web import device as device_panel
from web.auth import PinGuard
from web.context import Parlour
from web.device import DevicePanel
from web.phones import Pairings
from web.stream import Hub

__all__ = ["create_app", "shutdown", "DevicePanel"]

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def create_app(session: Session, *, pin: str, device: DevicePanel | None = None,
               max_streams: int = 40, test_config: dict[str, Any] | None = None,
               secret_key: bytes | None = None, pairings: Pairings | None = None) -> Flask:
    """The web app of one table. `secret_key` signs the phones' cookies (kept by the firmware
    so sign-ins survive a restart); `pairings` are the phones paired with a seat button.
    `test_config` overrides settings (SECRET_KEY, SSE_KEEPALIVE seconds, SSE_MAX_SECONDS,
    PIN_TRIES, PIN_WINDOW, CLOCK: a monotonic clock, ...)."""
    app = Flask(__name__)
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
    app.extensions["parlour"] = Parlour(
        session=session,
        guard=PinGuard(pin, tries=app.config["PIN_TRIES"], window=app.config["PIN_WINDOW"],
                       clock=clock),
        hub=Hub(session.subscribe, session.snapshot, max_streams=max_streams,
                keepalive=app.config["SSE_KEEPALIVE"], max_seconds=app.config["SSE_MAX_SECONDS"],
                retry_ms=app.config["SSE_RETRY_MS"], clock=clock),
        device=device,
        pairings=pairings,
    )
    for blueprint in (api.bp, control.bp, device_panel.bp, pages.bp, seat.bp):
        app.register_blueprint(blueprint)
    errors.register(app)

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    return app


def shutdown(app: Flask) -> None:
    """End every live stream (call before stopping the server)."""
    app.extensions["parlour"].hub.close()
