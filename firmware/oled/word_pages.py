"""Words in pages of a few lines: a long result or instruction is read a page at a time,
and a page ends where a sentence (or, for one longer than a page, a clause) does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from firmware.oled.lettering import SMALL, W, unbreakable, wrap


def pages(lines: Sequence[str], first: int, rest: int = 4) -> list[list[str]]:
    """Wrapped lines cut into pages: `first` lines on the first page, `rest` on each after.
    Nothing is dropped: a long outcome is read a page at a time."""
    out = [list(lines[:first])]
    for i in range(first, len(lines), rest):
        out.append(list(lines[i:i + rest]))
    return out


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")     # where one sentence ends, another begins


CLAUSE_END = re.compile(r"(?<=[.!?;])\s+")      # a notice's parts: "...; Ben moves to 10"


def sentence_pages(sentences: Sequence[str], first: int, rest: int = 4, *, room: int = W - 2,
                   ends: re.Pattern = SENTENCE_END, fewest: bool = True) -> list[list[str]]:
    """Lines wrapped and paged so that no sentence is split across pages unless it is longer
    than a page ("... pays Player" / "2 1 chip" would be misread). Each of `sentences` starts
    a line; the sentences within one (parted by `ends`: an instruction and how the box takes
    it) run on, and a page ends where one of them does. A sentence longer than a page is
    parted where a clause begins and leaves no page of one word, unless, with `fewest`, that
    takes more pages than parting it at a line (a result's page more is one the next player's
    flick may take away; a turn's pages go round by themselves)."""
    return [list(page) for page in _sentence_pages(tuple(sentences), first, rest, room, ends,
                                                   fewest)]


@lru_cache(maxsize=1024)
def _sentence_pages(sentences: tuple[str, ...], first: int, rest: int, room: int,
                    ends: re.Pattern, fewest: bool) -> tuple[tuple[str, ...], ...]:
    if not fewest:
        return _paged(sentences, first, rest, room, ends, True, True)
    ways = [_paged(sentences, first, rest, room, ends, clauses, whole)
            for clauses, whole in ((True, True), (True, False), (False, True), (False, False))]
    return min(ways, key=len)                  # the fewest pages; the first of those


def _paged(sentences: Sequence[str], first: int, rest: int, room: int, ends: re.Pattern,
           clauses: bool, whole: bool) -> tuple[tuple[str, ...], ...]:
    """`sentence_pages` one way: with `clauses`, a long sentence parted where a clause
    begins; with `whole`, no last page of one word."""
    out: list[list[str]] = [[]]
    limit = first

    def next_page() -> None:
        nonlocal limit
        out.append([])
        limit = rest

    def place(text: str) -> None:
        lines = wrap(text, SMALL, room)
        if len(out[-1]) + len(lines) > limit and out[-1] and len(lines) <= rest or \
                len(out[-1]) >= limit:
            next_page()
        left = limit - len(out[-1])
        if len(lines) > left:                    # split across pages: at a clause if it can
            head, tail = _clause_split(text, left, room) if clauses else ("", text)
            if head:
                out[-1].extend(wrap(head, SMALL, room))
                next_page()
                place(tail)
                return
            if whole and left > 1 and len(lines) - left == 1 and \
                    len(unbreakable(lines[left])) == 1:
                left -= 1                        # never a last page of one word ("chip")
            if left > 0 and clauses:             # the rest on the next page, parted again
                out[-1].extend(lines[:left])
                next_page()
                place(" ".join(lines[left:]))
                return
        for i, line in enumerate(lines):
            if len(out[-1]) >= limit or (i == left and i > 0 and out[-1]):
                next_page()
            out[-1].append(line)

    for said in sentences:
        run = ""
        for part in ends.split(said):
            joined = f"{run} {part}" if run else part
            if run and len(out[-1]) + len(wrap(joined, SMALL, room)) > limit:
                place(run)                       # the page is full: the next starts with this
                run = part
            else:
                run = joined
        place(run)
    return tuple(tuple(page) for page in out)


CLAUSE_BREAK = re.compile(r"(?<=[,:;])\s+|\s+(?=(?:and|or|so|then|but) )")
ONLY_A_SUM = re.compile(r"[\d\s+=·]+[:,;]?")      # "6 + 3 = 9:" says nothing on its own page


def _clause_split(text: str, lines: int, room: int) -> tuple[str, str]:
    """`text` parted where a clause begins ("... is bumped to picture space 8" / "and pays the
    pool 1 chip"; "flick to spin," / "or press the knob ..."), the first part in `lines`
    lines; the latest such place, with three words at least after it and more than a sum
    before it. ("", text): none fits."""
    best = ("", text)
    for found in CLAUSE_BREAK.finditer(text):
        head, tail = text[:found.start()], text[found.end():]
        if not head or ONLY_A_SUM.fullmatch(CLAUSE_BREAK.split(head)[-1]) or \
                len(tail.split()) < 3:
            continue
        if len(wrap(head, SMALL, room)) > lines:
            break
        best = (head, tail)
    return best


def page_mark(page: int, count: int) -> str:
    return f"{page + 1}/{count}" if count > 1 else ""
