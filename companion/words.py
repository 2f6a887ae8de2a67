"""Small pieces of the log's English."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from companion.errors import Refused

LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"     # what str.splitlines() breaks at


TURN_ENDS = re.compile(r"^(.+)'s turn ends$")          # `turn_ends`'s words
RENAMED = "is now called"                 # a rename's line: "Button 2, Ben, is now called Zed"
END_OF_TURN = "press the knob to end the turn"         # all a prompt asks of the box, at times
CLAIM_ASKS = "press again to confirm, the knob cancels"   # a claim home's line ends so (LD2, P2)
CLAIM = re.compile(rf"^(.+): {re.escape(CLAIM_ASKS)}$")
COUNT_LEFT = re.compile(r" \(\d+ left\)$")   # "... takes a mouse (9 left)": as it was then


def taken_back(lines: Sequence[str], whence: str = "") -> str:
    """What an undo took back, as the box and the phones say it: "Taken back: Ann throws 3
    and 5" (the log's lines it removed), "Taken back from a phone: ..."; an ended turn as
    "the end of Ann's turn (Ann plays on)" ("Taken back: Ann's turn ends" read as ending now);
    a claim home without its "press again to confirm" (LD2, P2: the claim is gone, and a press
    would make a new one); a count left after it ("(9 left)") without the count, which the
    undo has changed ("Taken back: ... takes a mouse (9 left)" read as 9 left now, not 10)."""
    said = f"Taken back {whence}".strip()
    lines = [COUNT_LEFT.sub("", CLAIM.sub(r"\1", TURN_ENDS.sub(
        r"the end of \1's turn (\1 plays on)", line))) for line in lines]
    return f"{said}: {joined(lines)}" if lines else said


def undo_notice(undone: Sequence[str], put_back: Sequence[str] = (), whence: str = "") -> str:
    """An undo's notice, as the box and the phones say it: what it took back (`taken_back`)
    and what the table sets back by hand (the state's `put_back`, Rulebook.put_back): "Taken
    back: 6 + 1 = 7: Pi's seventh checker goes into Domino. Cover Pi's 6 again."."""
    words = taken_back(undone, whence)
    if not put_back:
        return words
    return f"{words}{'' if words.endswith(('.', '!', '?')) else '.'} {' '.join(put_back)}"


def joined(lines: Sequence[str]) -> str:
    """The log's lines said in one go: "; " between them, a space alone after one that ends a
    sentence ("... is crowned. Rex! Every domino square is uncovered", not "Rex!;")."""
    out = ""
    for line in lines:
        out += ("" if not out else " " if out[-1] in ".!?" else "; ") + line
    return out


def turn_ends(name: str) -> str:
    """A turn ended, which says nothing in the log: "Ann's turn ends", as the box, a phone's
    answer and an undo of it all say."""
    return f"{name}'s turn ends"


def undone(was_log: Sequence[str], now_log: Sequence[str], was_turn: int | None,
           now_turn: int | None, names: Sequence[str]) -> list[str]:
    """What an undo took back, for "Taken back: ...": the log's lines it removed, or "Ann's
    turn ends" for an ended turn (which says nothing in the log); [] if neither shows."""
    same = 0
    while same < min(len(was_log), len(now_log)) and was_log[same] == now_log[same]:
        same += 1
    if same < len(was_log):
        return list(was_log[same:])
    if now_turn != was_turn and now_turn is not None and 0 <= now_turn < len(names):
        return [turn_ends(names[now_turn])]
    return []


def is_undo(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether state JSON `new` is an undo made after `old` (its `undone` then says what went):
    a new state of the same game, taken back, with no line added (a correction after an undo
    keeps `taken_back` but adds its line)."""
    return bool(new.get("taken_back")) and new.get("game_id") == old.get("game_id") and \
        new.get("state_version") != old.get("state_version") and \
        len(new.get("log") or []) <= len(old.get("log") or [])


def counted(n: int, word: str, plural: str = "") -> str:
    """"1 chip", "2 chips", "3 geese" (the OLED said "1 pts", history "1 chips")."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def geese(n: int) -> str:
    return counted(n, "goose", "geese")


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
