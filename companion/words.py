"""Small pieces of the log's English."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from companion.errors import Refused

LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"     # what str.splitlines() breaks at


def taken_back(lines: Sequence[str], whence: str = "") -> str:
    """What an undo took back, as the box and the phones say it: "Taken back: Ann throws 3
    and 5" (the log's lines it removed), "Taken back from a phone: ..."."""
    said = f"Taken back {whence}".strip()
    return f"{said}: {'; '.join(lines)}" if lines else said


def undone(old: dict[str, Any], new: dict[str, Any]) -> list[str] | None:
    """What an undo took back, as state JSONs before and after it show it, for `taken_back`:
    the log's lines it removed, or "Ann's turn ends" for an ended turn (which says nothing in
    the log); None if `new` is not a new undo in `old`'s game."""
    if not new.get("taken_back") or new.get("game_id") != old.get("game_id") or \
            new.get("state_version") == old.get("state_version"):
        return None
    was, now = old.get("log") or [], new.get("log") or []
    same = 0
    while same < min(len(was), len(now)) and was[same] == now[same]:
        same += 1
    if same < len(was):
        return list(was[same:])
    players, turn = new.get("players") or [], new.get("turn")
    if turn != old.get("turn") and isinstance(turn, int) and 0 <= turn < len(players):
        return [f"{players[turn]['name']}'s turn ends"]
    return []


def listing(items: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cy'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def shown_text(text: str, what: str) -> str:
    """Text players will read (a name, a correction's reason), every Unicode space separator
    (no-break, narrow no-break, ideographic...) made a plain space (X10); Refused, naming
    `what`, if it holds anything else that cannot be shown: control characters, line breaks,
    unpaired surrogates, format characters such as a right-to-left override."""
    text = "".join(" " if unicodedata.category(c) == "Zs" else c for c in text)     # X10
    bad = next((c for c in text if not (c.isprintable() or c == " ")), None)
    if bad is not None:
        kind = ("a line break" if bad in LINE_BREAKS else
                "an unpaired surrogate" if 0xD800 <= ord(bad) <= 0xDFFF else
                f"a character that cannot be shown (U+{ord(bad):04X})")
        raise Refused(f"{what} must be printable characters, not {kind}: {text!r}")
    return text


def escaped(text: str) -> str:
    """Text with every character that cannot be shown (line breaks, controls, direction
    overrides, unpaired surrogates) written as its escape, \\u2028, so it stays one line of
    what it says (a log's words, a refusal)."""
    return "".join(c if c.isprintable() or c == " " else
                   f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in text)


def shown_value(value: object, longest: int = 60) -> str:
    """A value from a log or a request as JSON writes it (true, null, "Ann", [3, 9]), not as
    Python would (True, None, 'Ann'), cut short past `longest` characters, then `escaped`."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return escaped(text if len(text) <= longest else text[:longest - 1] + "…")


def name_key(name: str) -> str:
    """What makes two names the same to players: case and spaces do not count (X10)."""
    return "".join(unicodedata.normalize("NFC", name).casefold().split())
