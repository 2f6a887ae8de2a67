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


def if_done(put_back: Sequence[str]) -> list[str]:
    """What to set back of moves the box never showed, as the phones that showed them say it,
    but as it may not have been done: their mover may have made them on the board, or copied
    the Pi's, from a phone ("If it was done on the board: cover Pi's 6 again."); with nothing
    to set back, that said."""
    if not put_back:
        return [NOTHING_BACK]
    return [IF_DONE, put_back[0][:1].lower() + put_back[0][1:], *put_back[1:]]


class UndoSaid(NamedTuple):
    """Undos said in one go: the log's lines they took back, what the table sets back by hand,
    and who took them back as the notice says it ("", "from a phone", "from a phone before it
    was shown here")."""
    lines: list[str]
    put_back: list[str]
    by: str

    @property
    def words(self) -> str:
        back = if_done(self.put_back) if self.by.endswith(UNSHOWN) else self.put_back
        return undo_notice(self.lines, back, self.by)


def said_together(parts: Sequence[UndoSaid]) -> str:
    """Undos' notices in order as one: those taken back alike (by the same hand, all shown or
    none) one after another in one sentence, each thing to set back once."""
    merged: list[UndoSaid] = []
    for part in parts:
        if merged and merged[-1].by == part.by:
            last = merged[-1]
            merged[-1] = UndoSaid([*last.lines, *part.lines],
                                  [*last.put_back, *(w for w in part.put_back
                                                     if w not in last.put_back)], last.by)
        else:
            merged.append(part)
    return " ".join(part.words for part in merged)
