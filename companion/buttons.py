"""The box's seat buttons (X12): numbered 1..6, one per player, each with a colour.

A game records the button each player presses (`buttons` in `new_game`); the colours belong to
the box (its config), so they are looked up here by name, never stored in a game's log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.checks import is_whole
from companion.errors import Refused
from companion.words import shown_value

MAX_BUTTONS = 6


@dataclass(frozen=True)
class ButtonColour:
    """A button's colour: the name players say ("Red") and a shade a page can draw."""

    name: str
    css: str


# Shades for the colours arcade buttons come in (a config may name any of them, or give its own
# "#rrggbb" after the name).
SHADES: dict[str, str] = {
    "red": "#d32f2f", "blue": "#1e63c6", "green": "#2e8b3a", "yellow": "#f5c518",
    "white": "#f4f4f4", "black": "#1b1b1b", "orange": "#ef7d00", "purple": "#7b3fa0",
    "pink": "#e85d9e", "grey": "#8a8a8a", "gray": "#8a8a8a", "brown": "#7a4a24",
    "cyan": "#1fb5c9", "clear": "#d8e6ee", "lime": "#8bc34a", "violet": "#8e5bd0",
}
DEFAULT_COLOURS: tuple[ButtonColour, ...] = tuple(
    ButtonColour(name, SHADES[name.lower()])
    for name in ("Red", "Blue", "Green", "Yellow", "White", "Black"))


def default_buttons(players: int) -> tuple[int, ...]:
    """Buttons 1..n, the buttons of a game that does not say (X12)."""
    return tuple(range(1, players + 1))


def check_buttons(buttons: Any, players: int) -> tuple[int, ...]:
    """A game's buttons, one per player, distinct, each 1..6 (X12); Refused otherwise."""
    if not isinstance(buttons, (list, tuple)) or not all(is_whole(b) for b in buttons):
        raise Refused(f"'buttons' must be a list of seat button numbers 1 to {MAX_BUTTONS}, "
                      f"not {shown_value(buttons)}")
    if len(buttons) != players:
        raise Refused(f"'buttons' needs one button for each of the {players} players, "
                      f"not {len(buttons)}")
    off = [b for b in buttons if not 1 <= b <= MAX_BUTTONS]
    if off:
        raise Refused(f"there is no seat button {off[0]}: the buttons are 1 to {MAX_BUTTONS}")
    if len(set(buttons)) != len(buttons):
        twice = next(b for b in buttons if list(buttons).count(b) > 1)
        raise Refused(f"two players cannot share seat button {twice}")
    return tuple(buttons)


def free_button(buttons: Sequence[int], avoid: Iterable[int] = ()) -> int:
    """The lowest seat button no player holds: the Pi's seat records it (X12), and the box
    never arms a Pi's seat, so it is never pressed for the Pi. One of `avoid` (buttons a
    phone is paired with: that phone would take the Pi's turns for its own) only if every
    other is held."""
    free = set(range(1, MAX_BUTTONS + 1)) - set(buttons)
    return min(free - set(avoid) or free)


def colour_of(colours: Sequence[ButtonColour], button: int | None) -> ButtonColour:
    """Button n's colour (1-based); a grey "Button n" for a button the box has no colour for."""
    if button is not None and 1 <= button <= len(colours):
        return colours[button - 1]
    return ButtonColour(f"Button {button}", SHADES["grey"])
