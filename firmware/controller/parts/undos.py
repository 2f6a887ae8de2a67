"""What an undo's notice says, kept in parts (the lines taken back, what to set back, by whom):
an undo a moment after another, while the first's notice is still being read, is said with it
in one notice ("Taken back from a phone: ...; ... Cover Cy's 1 again. Cover Ben's 6 again."),
so no undo's words are taken away before they are read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.words import undo_notice


class UndoSaid(NamedTuple):
    """Undos said in one go: the log's lines they took back, what the table sets back by hand,
    and who took them back as the notice says it ("", "from a phone", "from a phone before it
    was shown here")."""
    lines: list[str]
    put_back: list[str]
    by: str

    @property
    def words(self) -> str:
        return undo_notice(self.lines, self.put_back, self.by)


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
