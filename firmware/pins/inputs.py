"""What the table's hands do, as input events: the one vocabulary between controls and screens.

    kind      meaning                                   fields
    "seat"    a seat button pressed                     seat
    "ignored" a seat button pressed that nobody asked   seat
    "undo"    the Undo button
    "menu"    the Menu button
    "press"   the knob's push switch, released < 1 s
    "hold"    the knob's push switch held >= 1 s
    "turn"    the knob turned slowly                    detents (+ clockwise, - anticlockwise)
    "flick"   the knob flicked fast: a spin             strength (0..1]
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("seat", "ignored", "undo", "menu", "press", "hold", "turn", "flick")


@dataclass(frozen=True)
class InputEvent:
    kind: str
    seat: int | None = None
    detents: int = 0
    strength: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown input kind {self.kind!r}")
