"""Players' names as the OLED can draw them.

Terminus covers Latin, Greek and Cyrillic but not Chinese, Japanese, Korean or emoji, which
it would draw as boxes ("□□ throws"). The phone shows every name as typed (X10); the box shows
a name without the characters it cannot draw ("Ann 🎲" is "Ann"), or by its seat button's
colour ("Blue") when nothing that tells the players apart is left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from companion.words import RENAMED, name_key
from firmware.oled.lettering import font

_NOT_IN_FONT = "\U0010fffd"             # a private-use point: Terminus draws its box for it
RENAME_LINE = re.compile(rf"^Button (\d+), (.+), {RENAMED} (.+)$")


@lru_cache(maxsize=1)
def _box() -> tuple:
    mask = font(12).getmask(_NOT_IN_FONT)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def can_draw(char: str) -> bool:
    """Whether Terminus has a glyph for `char` (a space always draws)."""
    if char.isspace():
        return True
    mask = font(12).getmask(char)
    return (mask.size, bytes(mask)) != _box()


def drawable(name: str) -> bool:
    return all(can_draw(c) for c in name)


def shown_names(names: Sequence[str], stand_ins: Sequence[str | None],
                buttons: Sequence[int] = ()) -> list[str | None]:
    """Each name as the OLED shows it: whole when it can; else without what it cannot draw,
    if that is left and still differs from every other name and stand-in; else its stand-in
    (a seat's colour, or None where there is none), or "Button n" (of `buttons`, else the
    seat's number) where another player is called that ("It is Red's turn, not Red's.")."""
    whole = {i: n for i, n in enumerate(names) if drawable(n)}
    called = {name_key(n) for n in whole.values()}
    used = called | {name_key(s) for s in stand_ins if s}
    out: list[str | None] = []
    for i, name in enumerate(names):
        if i in whole:
            out.append(name)
            continue
        left = _drawable_part(name)
        stand_in = stand_ins[i] if i < len(stand_ins) else None
        if left and name_key(left) not in used:
            used.add(name_key(left))
            out.append(left)
        elif stand_in and name_key(stand_in) in called:
            out.append(f"Button {buttons[i] if i < len(buttons) else i + 1}")
        else:
            out.append(stand_in)
    return out


def _replaced(value: Any, swap: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return swap(value)
    if isinstance(value, list):
        return [_replaced(v, swap) for v in value]
    if isinstance(value, dict):
        return {k: _replaced(v, swap) for k, v in value.items()}
    return value


def for_the_box(snap: dict[str, Any], stand_in) -> dict[str, Any]:
    """The snapshot with every player's name, wherever it appears (the prompt, the log, the
    players), as the OLED can draw it (`shown_names`); `stand_in(seat, player)` names a
    player's seat for the box ("Blue"). The same snapshot when every name draws, as nearly
    always."""
    return names_for_the_box(snap, snap.get("players") or [], stand_in)


def names_for_the_box(value: Any, players: Sequence[dict[str, Any]], stand_in) -> Any:
    """`value` (a snapshot, a refusal's words) with the names of `players` as the OLED can draw
    them (`for_the_box`), and renames said as the box shows them (`_rename_for_the_box`)."""
    names = [p.get("name") or "" for p in players]
    if all(drawable(n) for n in names) and not _renames_undrawn(value):
        return value
    shown = shown_names(names, [stand_in(seat, p) for seat, p in enumerate(players)],
                        [seat_button(seat, p) for seat, p in enumerate(players)])
    swaps = {old: new for old, new in zip(names, shown) if new is not None and old != new}
    swaps = dict(sorted(swaps.items(), key=lambda kv: -len(kv[0])))   # "Li Wei" before "Li"

    def swap(text: str) -> str:
        for old, new in swaps.items():
            text = text.replace(old, new)
        return _rename_for_the_box(text, players, stand_in) if RENAMED in text else text
    return _replaced(value, swap)


def _renames_undrawn(value: Any) -> bool:
    """A rename's line in the log or an undo's (`undone`) names someone as no player is now
    called, with what the OLED cannot draw."""
    lines = [value] if isinstance(value, str) else \
        (value.get("log") or []) + (value.get("undone") or []) if isinstance(value, dict) else []
    return any(RENAMED in line and not drawable(line) for line in lines)


def _rename_for_the_box(line: str, players: Sequence[dict[str, Any]], stand_in) -> str:
    """A rename's line as the box can say it: "Button 1, Ann, is now called 小明" reads "...
    is now called Red" (the seat's stand-in), "... has a new name, which the box shows as Red"
    where it was "Red" before (it read as if the rename had failed), and "... has a new name
    the box cannot draw" where that name is no one's now (an undo took it back)."""
    found = RENAME_LINE.match(line)
    if not found:
        return line
    button, old, new = int(found.group(1)), found.group(2), found.group(3)
    seat = next((s for s, p in enumerate(players) if seat_button(s, p) == button), None)
    seat_name = (stand_in(seat, players[seat]) if seat is not None else None) or \
        f"Button {button}"
    old = old if drawable(old) else _drawable_part(old) or seat_name
    if not drawable(new):
        new = _drawable_part(new)
        if not new:
            return f"Button {button}, {old}, has a new name the box cannot draw"
    if new == old:
        return f"Button {button}, {old}, has a new name, which the box shows as {new}"
    return f"Button {button}, {old}, {RENAMED} {new}"


def seat_button(seat: int, player: dict[str, Any]) -> int:
    """A player's seat button (X12), or the seat's number where the state has none."""
    button = player.get("button")
    return button if isinstance(button, int) else seat + 1


def _drawable_part(name: str) -> str:
    """What the OLED can draw of a name: "Ann 🎲" is "Ann"."""
    return " ".join("".join(c for c in name if can_draw(c)).split())
