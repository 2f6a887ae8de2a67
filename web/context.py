"""What every blueprint shares: the session, the PIN guard, the live-stream hub, the device."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from flask import current_app, request

from companion.checks import is_whole
from web.errors import ApiError

if TYPE_CHECKING:  # pragma: no cover
    from companion.buttons import ButtonColour
    from companion.session import Session
    from web.access.auth import Logins, OwnNames, PinGuard
    from web.records.figures import Figures
    from web.device import DevicePanel
    from web.access.pace import Paces
    from web.access.phones import Pairings
    from web.stream import Hub


@dataclass
class Parlour:
    session: "Session"
    guard: "PinGuard"
    hub: "Hub"
    device: "DevicePanel | None" = None
    cache: dict[Any, Any] = field(default_factory=dict)   # the last /api/state body
    logins: "Logins | None" = None
    own_names: "OwnNames | None" = None
    figures: "Figures | None" = None
    buttons: tuple["ButtonColour", ...] = ()              # the seat buttons' colours (X12)
    panel_open: bool = False              # the /device panel for other machines (with the PIN)
    pairings: "Pairings | None" = None                    # phones paired with a seat button
    table_id: str = ""                    # this box's id, made once (in the score apps' ids)
    table_time: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))
    learn_time: Callable[[str, datetime, str], None] | None = None   # a phone's clock, heard
    network: Any = None                   # the box's Wi-Fi (status(), add_home()); None: not here
    known_addresses: Any = None           # addresses of signed-in and paired phones, lately
    paces: "Paces | None" = None          # how fast each phone may change the game


def parlour() -> Parlour:
    return current_app.extensions["parlour"]


def json_body(*, required: bool = True) -> dict[str, Any]:
    """The request's JSON object; 400 for anything else (an empty body is {} if not required)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and (request.content_length or 0) > limit:
        raise ApiError(413, "the request is too large")
    raw = request.get_data(cache=True)
    if not raw.strip() and not required:
        return {}
    if not request.is_json:
        raise ApiError(400, "send a JSON object with Content-Type: application/json")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise ApiError(400, "the body is not valid JSON") from None
    except UnicodeDecodeError:      # a ValueError too: not the number's words below
        raise ApiError(400, "the body is not UTF-8 text") from None
    except ValueError:              # Python refuses to read a number of 4,301+ digits
        raise ApiError(400, "the body holds a number too long to be read (over 4,300 "
                            "digits)") from None
    except RecursionError:
        raise ApiError(400, "the body's JSON is nested too deeply to be read") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def field_int(data: dict[str, Any], name: str, *, low: int | None = None,
              high: int | None = None) -> int:
    if name not in data:
        raise ApiError(400, f"'{name}' is missing")
    value = data[name]
    if not is_whole(value):
        raise ApiError(400, f"'{name}' must be a whole number, not {json.dumps(value)[:40]}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiError(400, f"'{name}' must be from {low} to {high}")
    return value


def field_str(data: dict[str, Any], name: str, *, default: str | None = None,
              max_length: int = 200) -> str:
    if name not in data:
        if default is not None:
            return default
        raise ApiError(400, f"'{name}' is missing")
    value = data[name]
    if not isinstance(value, str):
        raise ApiError(400, f"'{name}' must be text")
    if len(value) > max_length:
        raise ApiError(400, f"'{name}' is longer than {max_length} characters")
    return value


DIGITS = re.compile(r"[0-9]{1,18}")


def plain_number(text: str, what: str, *, digits: int = 18, signed: bool = False) -> int:
    """A number typed in a form or a query: ASCII digits only (no spaces, '_', '+' or other
    scripts' digits, which int() would take), at most `digits` of them; 400 otherwise."""
    body = text[1:] if signed and text.startswith("-") else text
    if body.isascii() and body.isdigit() and len(body) > digits:
        raise ApiError(400, f"{what}: too large a number (at most {digits} digits)")
    if not (DIGITS.fullmatch(body) and len(body) <= digits):
        raise ApiError(400, f"{what}: enter a whole number in the digits 0-9")
    return int(text)


def page_start(page_size: int) -> tuple[int | None, int]:
    """Where a page of games starts: ?before=<game id> (the games older than it) or ?page=<n>
    (from 1); the newest games without either. (before, offset)."""
    if "before" in request.args:
        return plain_number(request.args["before"], "before"), 0
    if "page" in request.args:
        page = plain_number(request.args["page"], "page", digits=9)
        if page < 1:
            raise ApiError(400, "page: pages are numbered from 1")
        return None, (page - 1) * page_size
    return None, 0
