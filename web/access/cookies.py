"""The phones' cookie, judged by nobody's clock but the phone's own.

A Pi has no clock battery: it boots with the time it last saved (a month behind after a month
in a drawer, 1970 on a fresh card) and, away from home Wi-Fi, may never be told the right one.
Flask's cookie session read the box's clock twice: its `Expires` was a date written from it
(a phone, whose clock is right, threw a cookie "expiring" in 1970 away at once: the PIN was
taken and nothing stayed signed in), and a cookie signed more than 31 days "ago" by it was
refused (a clock set right by NTP later signed every phone out, and unpaired it). Here the
cookie lasts by `Max-Age`, which the phone counts, and its signature alone is checked: what a
cookie is worth is decided on the server, by the sign-ins (`auth.Logins`, 30 days, moved
with the clock's jumps) and the pairings it names.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.http import dump_cookie


class TableSessions(SecureCookieSessionInterface):
    """Flask's signed cookie session, without the age check by the box's clock."""

    def open_session(self, app, request) -> SecureCookieSession | None:
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:
            return self.session_class(signer.loads(value))
        except BadSignature:
            return self.session_class()


def set_cookie_header(response, key: str, value: str = "", max_age: Any = None,
                      expires: Any = None, **options: Any) -> None:
    """`Response.set_cookie`, with an expiry date turned into the length left (`Max-Age`
    alone: the date and "now" both come from this box's clock, their difference does not
    depend on it); a deletion (`max_age=0`) is sent as it is."""
    if isinstance(expires, datetime) and max_age is None:
        max_age = max(0, int((expires - datetime.now(timezone.utc)).total_seconds()))
        expires = None
    response.headers.add("Set-Cookie", dump_cookie(
        key, value=value, max_age=max_age, expires=expires, sync_expires=False,
        max_size=response.max_cookie_size, **options))
