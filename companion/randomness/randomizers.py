"""Randomizers as data: dice, the Indicator, a spinner of labelled segments.

A randomizer says how many values one throw shows and how many faces each has; it checks a
roll's values and says them in words. The Indicator is modelled as two independent arrows 1..6.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.checks import is_whole
from companion.errors import Refused
from companion.words import listing, shown_value

DIE_WORDS = {1: "one", 2: "two", 3: "three"}


@dataclass(frozen=True)
class Randomizer:
    """`count` values, each 1..`faces`; `labels` name the faces of a spinner."""

    kind: str  # "dice" | "indicator" | "spinner"
    count: int
    faces: int
    labels: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        if self.kind == "dice":
            return "a die" if self.count == 1 else f"{DIE_WORDS.get(self.count, self.count)} dice"
        if self.kind == "indicator":
            return "the Indicator"
        return f"a spinner of {self.faces}"

    @property
    def act(self) -> str:
        """What a player does with it: 'throw' dice, 'spin' the rest."""
        return "throw" if self.kind == "dice" else "spin"

    @property
    def verb(self) -> str:
        return f"{self.act}s"

    @property
    def done(self) -> str:
        return "thrown" if self.kind == "dice" else "spun"

    def check(self, values: tuple[int, ...]) -> None:
        """Refuse values this randomizer cannot show."""
        if len(values) != self.count:
            shows = "show" if self.kind == "dice" and self.count > 1 else "shows"
            how_many = DIE_WORDS.get(self.count, str(self.count))
            example = f" (such as {listing([str(v) for v in range(3, 3 + self.count)])})" \
                if self.count > 1 else ""
            raise Refused(f"{self.name} {shows} {how_many} number{'s' * (self.count > 1)}"
                          f"{example}, not {len(values)}")
        for v in values:
            if not 1 <= v <= self.faces:
                raise Refused(f"{v} is off {self.name} (faces 1 to {self.faces})")

    def label(self, value: int) -> str:
        return self.labels[value - 1] if self.labels else str(value)

    def words(self, values: tuple[int, ...]) -> str:
        """'3 and 5', '4', or a labelled face such as 'double 3'."""
        return listing([self.label(v) for v in values])

    def total(self, values: tuple[int, ...]) -> int:
        return sum(values)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "count": self.count, "faces": self.faces}
        if self.labels:
            out["labels"] = list(self.labels)
        return out


def dice(count: int = 1, faces: int = 6) -> Randomizer:
    return Randomizer("dice", count, faces)


def indicator() -> Randomizer:
    """McLoughlin's Indicator: two arrows, each landing on 1..6 independently."""
    return Randomizer("indicator", 2, 6)


def spinner(labels: list[str] | tuple[str, ...] | int) -> Randomizer:
    """A spinner of equal segments; an int n means segments labelled 1..n."""
    if isinstance(labels, int):
        return Randomizer("spinner", 1, labels)
    return Randomizer("spinner", 1, len(labels), tuple(labels))


# The fields each kind of randomizer may be given besides "kind"; a field a kind does not take
# fits only with the value the kind always has (to_json's "faces": 6 on dice), so a d20 or a
# two-arrow spinner is refused, saying why.
FIELDS = {"dice": ("count",), "indicator": (), "spinner": ("faces",)}
FIXED = {"dice": {"faces": 6}, "indicator": {"count": 2, "faces": 6}, "spinner": {"count": 1}}
KIND_WORDS = {"dice": "dice", "indicator": "the Indicator", "spinner": "a spinner"}
TAKES = {"dice": "dice take only a count (1 to 3)",
         "indicator": "the Indicator takes nothing else",
         "spinner": "a spinner takes only its faces (2 to 12)"}
MISFITS = {
    ("dice", "faces"): "dice have six faces; for other numbers choose a spinner of 2 to 12",
    ("indicator", "faces"): "its two arrows always point to 1 to 6",
    ("indicator", "count"): "it always shows two numbers",
    ("spinner", "count"): "a spinner shows one number; for two or three choose dice",
}


def from_json(data: Any) -> Randomizer:
    """Build a randomizer from its description (free play's option); a field that does not
    fit the kind (faces on dice, a count on a spinner) is refused, saying why."""
    if not isinstance(data, dict):
        raise Refused("a randomizer is an object such as {\"kind\": \"dice\", \"count\": 2}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in FIELDS:      # a list or object: unhashable
        raise Refused(f"unknown randomizer kind {shown_value(kind)} (dice, indicator or spinner)")
    for key in data:
        fixed = FIXED[kind].get(key)
        if key != "kind" and key not in FIELDS[kind] and not (
                is_whole(data[key]) and data[key] == fixed):
            why = MISFITS.get((kind, key), TAKES[kind])
            raise Refused(f"{key!r} does not fit {KIND_WORDS[kind]}: {why}")
    if kind == "dice":
        count = data.get("count", 1)
        if not is_whole(count) or count not in (1, 2, 3):
            raise Refused(f"dice: the count must be 1, 2 or 3, not {shown_value(count)}")
        return dice(count)
    if kind == "indicator":
        return indicator()
    faces = data.get("faces")
    if not is_whole(faces) or not 2 <= faces <= 12:
        raise Refused("spinner: faces must be a whole number from 2 to 12")
    return spinner(faces)
