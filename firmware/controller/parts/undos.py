"""What an undo's notice says, kept in parts (the lines taken back, what to set back, by whom):
an undo a moment after another, while the first's notice is still being read, is said with it
in one notice ("Taken back from a phone: ...; ... Cover Cy's 1 again. Cover Ben's 6 again."),
so no undo's words are taken away before they are read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.words import undo_notice


NOTHING_BACK = "Nothing to set back on the board."
IF_DONE = "If it was done on the board:"
UNSHOWN = "before it was shown here"       # the end of `by` for moves the OLED never showed


class UndoSaid(NamedTuple):
    """Undos said in one go: the log's lines they took back, what the table sets back by hand,
    who took them back as the notice says it ("", "from a phone", "from a phone before it
    was shown here"), and what to set back of moves the box never showed, if it was done
    (`maybe_back`): their mover may have made them on the board, or copied the Pi's, from a
    phone that showed them ("If it was done on the board: Cover Pi's 6 again.": each as
    the phones say it, a name that begins one as written)."""
    lines: list[str]
    put_back: list[str]
    by: str
    maybe_back: list[str] = []

    @property
    def words(self) -> str:
        back = list(self.put_back)
        if self.maybe_back:
            back += [IF_DONE, *self.maybe_back]
        elif self.by.endswith(UNSHOWN):
            back = [NOTHING_BACK]
        return undo_notice(self.lines, back, self.by)


def said_together(parts: Sequence[UndoSaid]) -> str:
    """Undos' notices in order as one: those taken back alike (by the same hand, all shown or
    none) one after another in one sentence, each thing to set back once."""
    merged: list[UndoSaid] = []
    for part in parts:
        if merged and merged[-1].by == part.by:
            last = merged[-1]
            merged[-1] = UndoSaid([*last.lines, *part.lines], _once(last.put_back, part.put_back),
                                  last.by, _once(last.maybe_back, part.maybe_back))
        else:
            merged.append(part)
    return " ".join(part.words for part in merged)


def _once(first: list[str], then: list[str]) -> list[str]:
    """`first`, then what `then` adds to it."""
    return [*first, *(w for w in then if w not in first)]
