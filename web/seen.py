"""An action names the state it was asked on: `seen`, the state JSON's "<boot>:<state_version>"
(`Session.mark`). The table does it on that state only, so a tap sent twice, an answer lost
and sent again, or two phones acting on one turn act once; the others are told what the table
shows now. An action that names no state acts on the newest."""

from __future__ import annotations

import re
from typing import Any

from companion.words import undo_notice
from web.context import parlour
from web.errors import ApiError
from web.moves import phone_words

SEEN = re.compile(r"[0-9a-f]{1,16}:[0-9]{1,12}")


def seen_of(data: dict[str, Any]) -> str | None:
    """The state the action was asked on, if the caller names one."""
    seen = data.get("seen")
    if seen is None or seen == "":
        return None
    if not isinstance(seen, str) or not SEEN.fullmatch(seen):
        raise ApiError(400, "'seen' must name the state the action was asked on, as the state "
                            "JSON's \"<boot>:<state_version>\"")
    return seen


def moved_on(state: dict[str, Any], why: str = "the table had moved on") -> str:
    """Why an action asked on an older state is not done, and what the table shows now: what
    an undo took back when that was the newest change, as the box says it ("Now: Ann throws 4
    and 1" named a throw the undo had left as if just made); else the log's last line, or the
    prompt when the newest change was a turn's end, which says nothing in the log ("Now: Cy
    spins 2 and 6" named the turn before)."""
    log, undos = state.get("log") or [], state.get("undos") or []
    if state.get("taken_back") and undos and undos[-1].get("at") == len(log):
        told = undo_notice(undos[-1].get("undone") or [], undos[-1].get("put_back") or [])
        return f"Not done: {why}. Now: " + phone_words(told[:1].lower() + told[1:])
    now = log[-1:] if state.get("last_type") != "next" else []
    return f"Not done: {why}. Now: " + \
        phone_words((now or [state.get("prompt") or "no game in play"])[0])


def check_seen(data: dict[str, Any]) -> None:
    """A 409 saying what the table shows if `data` names a state the game has moved on from;
    call it holding `session.locked()`, then act under the same hold."""
    seen, session = seen_of(data), parlour().session
    if seen is not None and seen != session.mark:
        snapshot = session.snapshot()
        restarted = seen.split(":")[0] != session.mark.split(":")[0]
        raise ApiError(409, moved_on(snapshot, "the box has restarted since this page last "
                                               "heard from it" if restarted else
                                     "the table had moved on"))
