"""The OLED's screens: small functions that draw a view onto a 1-bit 128x64 image.

Nothing here knows about pins, the session or time: a screen is a picture of its arguments,
so the reference-PNG tests can pin each one down. The key line of every screen is big type.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from firmware.oled.codes import break_address, draw_qr
from firmware.oled.lettering import (BIG, H, LINE, MEDIUM, OFF, ON, SMALL, W, canvas, centred,
                                     clip, fit, text, two_line_name, width, wrap)
from firmware.oled.word_pages import CLAUSE_END, SENTENCE_END, page_mark, sentence_pages
from firmware.oled.views import Row, SpinFrame, TurnView

PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


def header(draw: ImageDraw.ImageDraw, left: str, right: str = "") -> None:
    """A small top line: the game on the left, a detail on the right, a rule beneath. The detail
    (the pool, the page) is what a player needs: a game's name that does not fit beside it is
    left out whole rather than cut (the players know the game they are playing)."""
    draw.bitmap((0, 0), header_strip(left, right), fill=ON)


RULE_Y = 12                  # the header's rule, just under the small type's descenders
PAGE_MARK = re.compile(r"(^|· )\d+/\d+$")     # "2/3", "pool 5 · 1/2": the page's mark


@lru_cache(maxsize=64)
def header_strip(left: str, right: str) -> Image.Image:
    """The header's words and rule as a strip (drawn once for each header: every frame of a
    turn has the same). The rule is broken a pixel either side of each descender that reaches
    it ("g" in "game", "p" in "pressed"), so the letter stands clear of the line."""
    strip = Image.new("1", (W, RULE_Y + 1), OFF)
    draw = ImageDraw.Draw(strip)
    detail, _, mark = right.rpartition(" · ") if PAGE_MARK.search(right) else (right, "", "")
    room = W - 4 - (int(width(right, SMALL)) + 4 if right else 0)   # 5 px clear of a box
    if width(left, SMALL) <= room:
        text(draw, (0, 0), left, SMALL)
    elif not right:
        text(draw, (0, 0), clip(left, SMALL, room), SMALL)
    end = W
    if mark:                  # the page's mark in a lit box: "spins 2/2" read as a spin of 2
        end = W - int(width(mark, SMALL)) - 3
        draw.rectangle((end, 0, W - 1, RULE_Y - 2), fill=ON)
        text(draw, (W - 1, 0), mark, SMALL, anchor="ra", fill=OFF)
        end -= 3
    if detail:
        text(draw, (end, 0), detail + (" ·" if mark else ""), SMALL, anchor="ra")
    ink = strip.load()
    clear = {x + dx for x in range(W) if ink[x, RULE_Y - 1] for dx in (-1, 0, 1)}
    for x in range(W):
        if x not in clear:
            ink[x, RULE_Y] = ON
    return strip


def footer(draw: ImageDraw.ImageDraw, words: str) -> None:
    if words:
        centred(draw, H - LINE, words, SMALL)


# -- screens ---------------------------------------------------------------------------------

def startup(url: str, pin: str, note: str = "") -> Image.Image:
    """The phone page's QR code on the left; the address and PIN beside it. An address of
    three lines ("192.168." "178.123" ":8080") takes the title's place, so an IPv4 address
    keeps its port (a host name too long for a line is cut: the code still has it)."""
    image, draw = canvas()
    draw_qr(image, url, (0, 3), 58)
    host = url.split("://", 1)[-1].rstrip("/")
    x = 61
    lines = break_address(host, W - x)[:3]
    y = 2 if len(lines) > 2 else 16
    if len(lines) <= 2:
        text(draw, (x, 0), "Parlour", 16, bold=True)
    for line in lines:
        text(draw, (x, y), clip(line, SMALL, W - x), SMALL)
        y += LINE
    draw_pin_line(draw, (x, 39), pin, W - x)
    text(draw, (x, 52), clip(note or "press knob", SMALL, W - x), SMALL)
    return image


def draw_pin_line(draw, at: tuple[int, int], pin: str, room: int) -> None:
    """"PIN 2468" in medium type; a longer PIN keeps its digits medium with a small "PIN"
    before them, and only one too long for that goes small whole (never cut)."""
    if not pin:
        return
    x, y = at
    if width(f"PIN {pin}", MEDIUM) <= room:
        text(draw, (x, y), f"PIN {pin}", MEDIUM, bold=True)
    elif width("PIN ", SMALL) + width(pin, MEDIUM) <= room:
        text(draw, (x, y + 2), "PIN", SMALL)
        text(draw, (x + int(width("PIN ", SMALL)), y), pin, MEDIUM, bold=True)
    else:
        text(draw, (x, y + 2), clip(f"PIN {pin}" if width(f"PIN {pin}", SMALL) <= room
                                    else f"PIN{pin}", SMALL, room), SMALL)


def choice_list(heading: str, items: Sequence[str], index: int, detail: str = "") -> Image.Image:
    """A knob menu: the chosen item big and boxed, its neighbours small above and below (an
    item too long for the box's line, a long name, takes two small lines in a taller box)."""
    image, draw = canvas()
    header(draw, heading, f"{index + 1}/{len(items)}" if items else "")
    if not items:
        return image
    item = items[index]
    size = fit(item, W - 8, (16, MEDIUM, SMALL))
    lines = [item] if width(item, size) <= W - 6 else wrap(item, SMALL, W - 6)[:2]
    top, bottom = (27, 47) if len(lines) == 1 else (25, 51)
    if index > 0:
        centred(draw, top - 13, items[index - 1], SMALL)
    draw.rectangle((0, top, W - 1, bottom), outline=ON)
    if len(lines) == 1:
        text(draw, (W // 2, 37), item, size, anchor="mm", bold=True)
    else:
        for i, line in enumerate(lines):
            text(draw, (W // 2, top + 1 + i * LINE), line, SMALL, anchor="mt", bold=True)
    below = detail or (items[index + 1] if index + 1 < len(items) else "")
    if below:
        centred(draw, bottom + 3 if len(lines) == 1 else bottom + 1, below, SMALL)
    return image


def game_menu(titles: Sequence[str], index: int, detail: str) -> Image.Image:
    """Turn the knob to pick a game; its players and randomizer beneath in two whole lines."""
    image, draw = canvas()
    header(draw, "Choose a game", f"{index + 1}/{len(titles)}" if titles else "")
    if not titles:
        return image
    title = titles[index]
    size = fit(title, W - 8, (16, MEDIUM, SMALL))
    draw.rectangle((0, 15, W - 1, 35), outline=ON)
    text(draw, (W // 2, 25), clip(title, size, W - 6), size, anchor="mm", bold=True)
    for i, line in enumerate(wrap(detail, SMALL)[:2]):
        centred(draw, 38 + i * LINE, line, SMALL)
    return image


def menu(items: Sequence[str], index: int) -> Image.Image:
    return choice_list("Menu", items, index)


def confirm(question: str, yes: bool, no_label: str = "No", yes_label: str = "Yes",
            page: int = 0) -> Image.Image:
    """A whole question in small type, then No and Yes side by side: the chosen one lit in
    a box, the other plain (an outlined "Yes" beside a lit "No" read as picked, as the menus
    outline their pick). A question longer than four lines shows four at a time (`page`; see
    `confirm_pages`)."""
    image, draw = canvas()
    paged = confirm_pages(question)
    lines = paged[page % len(paged)]
    top = 0 if len(lines) >= 4 else 2 + (3 - len(lines)) * 6    # a "y" clear of the boxes
    for i, line in enumerate(lines):
        centred(draw, top + i * LINE, line, SMALL, bold=(i == 0 and page % len(paged) == 0))
    for label, chosen, x0 in ((no_label, not yes, 4), (yes_label, yes, 68)):
        if chosen:
            draw.rectangle((x0, 49, x0 + 55, 63), outline=ON, fill=ON)
        text(draw, (x0 + 28, 56), clip(label, MEDIUM, 52), MEDIUM, anchor="mm", bold=chosen,
             fill=OFF if chosen else ON)
    return image


def confirm_pages(question: str) -> list[list[str]]:
    """The question's wrapped lines, four to a page: nothing of it is dropped."""
    lines = wrap(question, SMALL) or [""]
    return [lines[i:i + 4] for i in range(0, len(lines), 4)]


def joining(title: str, joined: Sequence[bool], hint: str, name: str = "",
            ask: str = "Press your seat") -> Image.Image:
    """One box per seat button, filled once that seat has joined; `name`: the roster name the
    next seat pressed takes, in place of `ask`, whole: a name too long for a small line takes
    two, the boxes shorter beneath ("Margaretha van der B…" was two names)."""
    image, draw = canvas()
    header(draw, title, f"{sum(joined)} in")
    lines = [name] if width(name, SMALL) <= W - 2 else wrap(name, SMALL)[:2]
    if not name:
        centred(draw, 14, ask, MEDIUM, bold=True)
    elif width(name, MEDIUM) <= W - 2:
        centred(draw, 14, name, MEDIUM, bold=True)
    else:
        for i, line in enumerate(lines):
            centred(draw, (15 if len(lines) == 1 else 13) + i * LINE, line, SMALL)
    n = max(1, len(joined))
    box, gap = 16, 4
    top, bottom = (31, 46) if len(lines) == 1 else (38, 49)
    x0 = (W - (n * box + (n - 1) * gap)) // 2
    for seat, on in enumerate(joined):
        x = x0 + seat * (box + gap)
        draw.rectangle((x, top, x + box - 1, bottom), outline=ON, fill=ON if on else OFF)
        text(draw, (x + box // 2, (top + bottom + 1) // 2), str(seat + 1), SMALL, anchor="mm",
             fill=OFF if on else ON)
    footer(draw, hint)
    return image


BADGE = 16                      # a seat button's box, as on the join screen


def named(draw: ImageDraw.ImageDraw, y: int, name: str, size: int, button: int | None,
          badge: int = BADGE) -> None:
    """A player's name in bold, centred, after their seat button's box (X12) when they have
    one: the same numbered box the join screen showed them (`badge` rows high: smaller where
    words follow close beneath)."""
    if button is None:
        centred(draw, y, name, size, bold=True)
        return
    room = W - 2 - BADGE - 4
    words = clip(name, size, room)
    span = BADGE + 4 + int(width(words, size))
    x = (W - span) // 2
    top = y + max(0, (size - badge) // 2)
    draw.rectangle((x, top, x + BADGE - 1, top + badge - 1), outline=ON, fill=ON)
    text(draw, (x + BADGE // 2, top + badge // 2), str(button), SMALL, anchor="mm", fill=OFF)
    text(draw, (x + BADGE + 4, y), words, size, bold=True)


def _name_room(view: TurnView) -> int:
    return W - 2 - (BADGE + 4 if view.button else 0)


def name_lines(view: TurnView) -> list[str]:
    """The awaited player's name: one line when it fits in medium type, else wrapped small
    (a long name is shown whole, never cut)."""
    room = _name_room(view)
    if width(view.name, MEDIUM) <= room:
        return [view.name]
    return wrap(view.name, SMALL, room)


def later_name_lines(view: TurnView) -> list[str]:
    """The name above the lines of each page after the first: as on the first page where it
    takes one line or two, else two lines of its start and end ("Margaretha" / "…(Mouse)")."""
    names = name_lines(view)
    return names if len(names) <= 2 else two_line_name(view.name, _name_room(view))[1]


def turn_pages(view: TurnView) -> list[list[str]]:
    """The action in small type, paged: under the name on the first page (four lines with it),
    and under the name again on each page after (`later_name_lines`), so no page leaves out
    whose turn it is, a sentence split only if it is longer than a page (an empty list: name
    and action are short and drawn big)."""
    names = name_lines(view)
    if len(names) == 1 and len(wrap(view.action, MEDIUM)) <= (1 if view.detail else 2):
        return []
    first = max(0, 4 - len(names))           # a name of four lines has its page to itself
    after = 4 - len(later_name_lines(view))
    return sentence_pages([view.action] + ([view.detail] if view.detail else []), first, after,
                          fewest=False)


def corner_and_page(corner: str, mark: str) -> str:
    """"pool 5 · 1/2": the page apart from a count (not "pool 5 1/2", read as five and a half)."""
    return " · ".join(words for words in (corner, mark) if words)


def turn(view: TurnView, page: int = 0) -> Image.Image:
    """Whose turn it is, big, and what they must do: "Ann" / "flick to spin".

    A long instruction (an assisted game's "Move your cat 3, then 5 ...") takes the lower
    part in small type, paged (the controller turns the pages), and the name shrinks; a long
    name wraps small above it."""
    image, draw = canvas()
    paged = turn_pages(view)
    if not paged:
        header(draw, view.heading, view.corner)
        lines = wrap(view.action, MEDIUM)
        size = fit(view.name, _name_room(view), (22, BIG, 18, 16, MEDIUM))
        named(draw, 14, view.name, size, view.button)
        for i, line in enumerate(lines):
            centred(draw, 37 + i * 13, line, MEDIUM)
        if len(lines) == 1:
            footer(draw, view.detail)
        return image
    page = page % len(paged)
    mark = page_mark(page, len(paged))
    header(draw, view.heading, corner_and_page(view.corner, mark))
    if page == 0:
        names = name_lines(view)
        size = MEDIUM if len(names) == 1 else SMALL
        top = 14 + (14 if len(names) == 1 else len(names) * LINE)
        badge = min(BADGE, top - 15) if len(names) == 1 else LINE - 1    # within its own line
        for i, line in enumerate(names):          # the box ends a row above the words below
            named(draw, 14 + i * LINE, line, size, view.button if i == 0 else None,
                  badge=badge)
        for i, line in enumerate(paged[0]):
            centred(draw, top + i * LINE, line, SMALL)
    else:
        names = later_name_lines(view)       # whose turn, on this page too
        for i, line in enumerate(names):
            named(draw, 14 + i * LINE, line, SMALL, view.button if i == 0 else None,
                  badge=LINE - 1)
        top = 14 + len(names) * LINE
        for i, line in enumerate(paged[page]):
            centred(draw, top + i * LINE, line, SMALL)
    return image


def result_pages(values: str, lines: Sequence[str]) -> list[list[str]]:
    """The outcome's words, paged: two lines under the big values on the first page (three
    under smaller values when the first sentence needs three; four when there are no
    values), four on each page after; a sentence is split only if it is longer than a page."""
    opening = SENTENCE_END.split(lines[0])[0] if lines else ""
    first = 4 if not values else 3 if len(wrap(opening, SMALL)) == 3 else 2
    return sentence_pages(lines, first)


def result_heading(heading: str, lines: Sequence[str], *,
                   values: bool = True) -> tuple[str, list[str]]:
    """A heading too long for the top line ("Bartholomeus van Dijk throws") goes whole into
    the words, first (unless the first line begins with it: "... throws 6 and 6 (12) for the
    lead"; or, with no `values` for it to tell of, with its player: "... pressed" was page 1
    alone, and "... says a man is home: press again to confirm." page 2); the top line then
    says only the page."""
    if width(heading, SMALL) <= W - 4 - int(width("9/9", SMALL)) - 4:
        return heading, list(lines)
    if lines and lines[0].startswith(heading + " "):     # the first line says it already
        return "", list(lines)
    subject = heading.rpartition(" ")[0]
    if not values and subject and lines and lines[0].startswith((subject + " ",
                                                                 subject + "'s ")):
        return "", list(lines)          # the first line names the player ("...'s man enters")
    return "", [heading] + list(lines)


def result_layout(heading: str, values: str, lines: Sequence[str], names: Sequence[str] = ()
                  ) -> tuple[str, str, list[list[str]]]:
    """(heading, values, pages) as the result is drawn: the values big over two lines of
    words, or smaller over three, or, where the whole outcome then fits one page, in the top
    line beside the heading over four ("Red throws 1 · 3" / "Red moves to 4" / "Red pays Blue
    1 chip" ...; a throw's values, not Domino Rex's "Rex!"): a page 2 is lost to the next
    player's flick at table speed, and with it a payment, a lost turn or a bumped piece. Else
    paged as `result_pages`, or in the top line's form where that takes fewer pages. `names`:
    the players' names, as the lines say them (`_subjects_joined`)."""
    heading, lines = result_heading(heading, lines, values=bool(values))
    if values:
        inline = f"{heading} {values}" if heading and any(c.isdigit() for c in values) \
            and ", then " not in heading and " and " not in heading else ""   # a throw's
        # values, by one player: "Rex!" stays big, "Red, then Pi 4" read as Pi's, "Red and
        # Blue 4 · 1" as both players
        after = _after_the_throw(heading, lines)
        shorter = _bumps_joined(after)
        for words in (lines, after, shorter, _subjects_joined(shorter, names),
                      _values_said_once(values, lines, heading)):
            for first in (2, 3):
                whole = sentence_pages(words, first)
                if len(whole) == 1:
                    return heading, values, whole
            whole = sentence_pages(words, 4)
            if inline and width(inline, SMALL) <= W - 4 and len(whole) == 1:
                return inline, "", whole
        paged = result_pages(values, _bumps_joined(lines))
        inline_pages = sentence_pages(shorter, 4)
        if inline and width(inline, SMALL) <= W - 4 - int(width("9/9", SMALL)) - 4 \
                and len(inline_pages) < len(paged):  # fewer pages for the flick to take away,
            return inline, "", inline_pages          # the page's mark beside it ("1/2")
        return heading, values, paged
    joined = _bumps_joined(lines)
    paged = result_pages(values, joined)
    told = result_pages(values, _subjects_joined(joined, names)) if len(paged) > 1 else paged
    return heading, values, told if len(told) == 1 else paged


def _values_said_once(values: str, lines: Sequence[str], heading: str) -> list[str]:
    """Domino Rex: the first line without the sum or the "Rex!" the big values show, and a
    crowned checker without "; nothing moves", which "already crowned" says ("5 + 4 = 9:
    Blue's ninth checker is already crowned; nothing moves" under "5 + 4 = 9": "Blue's ninth
    checker is already crowned"), where that makes one page: it was split across two, and a
    crown's page 2 said only "Rex!". With no heading (a name too long for the top line) the
    line keeps who uncovered ("Wilhelmina Oosterhout: no checker moves")."""
    if not lines:
        return []
    first = lines[0].replace(" is already crowned; nothing moves", " is already crowned")
    said = re.fullmatch(rf"(?:(.+) uncovers \d+: )?{re.escape(values)}[:,] (.+)", first)
    if said and said[1] and not heading:
        first = f"{said[1]}: {said[2]}"
    elif said:
        first = said[2][:1].upper() + said[2][1:]
    elif values == "Rex!" and first.endswith(". Rex!"):
        first = first[:-len(" Rex!")]
    return [first, *lines[1:]]


def _subjects_joined(lines: Sequence[str], names: Sequence[str] = ()) -> list[str]:
    """Two lines in a row about the same player as one sentence ("Blue moves in the Field" and
    "Blue takes the Lost Diamond from its square": "Blue moves in the Field and takes the
    Lost Diamond from its square"), where that makes the outcome one page. The subject is a
    player's name both lines begin with (of `names`), else the capitalised words both begin
    with; a line that ends a sentence is left whole."""
    out: list[str] = []
    joined = False
    for line in lines:
        subject = _subject(out[-1], line, names) if out and not joined else 0
        if subject and not SENTENCE_END.search(out[-1]) and out[-1][-1] not in ".:!?" \
                and " and " not in out[-1] + line and ";" not in out[-1] + line:  # one "and"
            out[-1] += " and " + line.split(" ", subject)[subject]
            joined = True
        else:
            out.append(line)
            joined = False
    return out


def _subject(first: str, second: str, names: Sequence[str] = ()) -> int:
    """How many words of a player's name both lines begin with, if both go on after it with a
    verb; for a line that begins with no name of `names`, how many capitalised words ("Zoe
    Lee pays" and "Zoe Kim takes" are two players: none). A name's lowercase words are the
    name's too: "Margaretha van der Berg throws" and "... moves to 13" read "Margaretha van
    der Berg throws and van der Berg moves to 13", the name cut at "van"."""
    a, b = first.split(" "), second.split(" ")
    for name in sorted(filter(None, names), key=len, reverse=True):    # "Li Wei" before "Li"
        n = len(name.split(" "))
        ours = [line.startswith(name + " ") and len(words) > n
                for line, words in ((first, a), (second, b))]
        if all(ours):
            return n if a[n][:1].islower() and b[n][:1].islower() else 0
        if any(re.match(rf"{re.escape(name)}(?!\w)", line) for line in (first, second)):
            return 0                        # one line of a player's, the other not: two
    n = 0
    while n < min(len(a), len(b)) - 1 and a[n] == b[n] and a[n][:1].isupper():
        n += 1
    # "Each player gets ..." and "Each player pays ...": the subject goes on with its noun
    if n and set(a[:n]) <= DETERMINERS and n < min(len(a), len(b)) - 1 and a[n] == b[n]:
        n += 1
    return n if n and a[n][:1].islower() and b[n][:1].islower() else 0


DETERMINERS = {"Each", "Every", "The", "A"}     # a subject that begins so goes on with its noun


BUMPED = re.compile(r"(?P<who>.+) is bumped to .+")
BUMP_PAID = re.compile(r"(?P<who>.+) pays (?P<chips>\d+ chips?) into the pool \(bumped\)")


def _bumps_joined(lines: Sequence[str]) -> list[str]:
    """Life's Mishaps' bump and its fine as one sentence ("Blue is bumped to picture space 3
    and pays the pool 1 chip"): the two lines took a page of their own."""
    out: list[str] = []
    for line in lines:
        bump = BUMPED.fullmatch(out[-1]) if out else None
        paid = BUMP_PAID.fullmatch(line)
        if bump and paid and paid["who"] == bump["who"]:
            out[-1] += f" and pays the pool {paid['chips']}"
        else:
            out.append(line)
    return out


def _after_the_throw(heading: str, lines: Sequence[str]) -> list[str]:
    """The first line without the throw the top line says ("Red throws 6 and moves to 7"
    under "Red throws 6": "Red moves to 7"), where that lets the outcome fit one page."""
    said = re.match(rf"{re.escape(heading)} \d+(?: and \d+)?(?: \(\d+\))? and (?!\d)(.+)$",
                    lines[0]) if heading and lines else None
    if said is None:
        return list(lines)
    return [f"{heading.rsplit(' ', 1)[0]} {said.group(1)}", *lines[1:]]


def result(heading: str, values: str, lines: Sequence[str], page: int = 0,
           names: Sequence[str] = ()) -> Image.Image:
    """The spin's result in big type, then what it means in words, a page at a time (laid
    out by `result_layout`; `names`, the players')."""
    image, draw = canvas()
    heading, values, paged = result_layout(heading, values, lines, names)
    page = max(0, min(page, len(paged) - 1))
    header(draw, heading, page_mark(page, len(paged)))
    words = paged[page]
    if page == 0 and values and len(words) == 3:       # a three-line first sentence whole:
        centred(draw, 13, values, fit(values, W - 2, (16, MEDIUM)), bold=True)
        for i, line in enumerate(words):                # smaller values, lines 11 px apart
            centred(draw, 30 + i * 11, line, SMALL)
        return image
    if page == 0 and values:
        size = fit(values, W - 2, (24, 22, BIG, 16, MEDIUM))
        centred(draw, 14, values, size, bold=True)
        for i, line in enumerate(words):
            centred(draw, 39 + i * LINE, line, SMALL)
        return image
    for i, line in enumerate(words):
        centred(draw, 14 + i * LINE, line, SMALL, bold=(page == 0 and i == 0))
    return image


def choose(view: TurnView, value: str, meaning: str = "") -> Image.Image:
    """A knob choice (Domino Rex): the value being picked, boxed and big, and what it means."""
    image, draw = canvas()
    header(draw, view.heading, view.corner)
    button, room = view.button, _name_room(view)     # the seat's box, as the turn screen's
    if len(wrap(view.name, SMALL, room)) > 2:         # a name too long beside it: whole, alone
        button, room = None, W - 2
    size = fit(view.name, room, (MEDIUM, SMALL))
    if width(view.name, size) <= room:
        named(draw, 14, view.name, size, button, badge=LINE + 1)    # above the value's box
        box, middle, big = (44, 28, 83, 51), 40, BIG
    else:                                   # a long name over two lines, the value smaller
        for i, line in enumerate(wrap(view.name, SMALL, room)[:2]):
            named(draw, 13 + i * 11, line, SMALL, button if i == 0 else None, badge=LINE - 1)
        box, middle, big = (48, 37, 79, 51), 44, MEDIUM
    draw.rectangle(box, outline=ON)
    text(draw, (64, middle), value, big, anchor="mm", bold=True)
    text(draw, (box[0] - 8, middle), "<", MEDIUM, anchor="rm")
    text(draw, (box[2] + 9, middle), ">", MEDIUM, anchor="lm")
    footer(draw, meaning or view.detail or "press to choose")
    return image


ScoreLine = tuple[str, bool, bool]          # words, marked (the player to play), right-aligned


CHANCE = re.compile(r"[<>]?\d{1,3}% win|won")     # views.to_win's: on the name's line if room


def score_pages(rows: Sequence[Row], per_page: int = 4) -> list[list[ScoreLine]]:
    """Each player's name on its own line, whole (wrapped if long), with their chance beside it
    where it fits (the type is of one width: spaces set it flush right), and their standing
    under it, right-aligned and wrapped between its parts (" · "); four lines a page, a
    player's lines kept together on one page."""
    blocks: list[list[ScoreLine]] = []
    for row in rows:
        names, parts, figure_lines = wrap(row.name, SMALL), row.figure.split(" · "), []
        beside = f"{names[0]}  {parts[0]}" if len(names) == 1 and CHANCE.fullmatch(parts[0]) \
            else ""
        if beside and width(beside, SMALL) <= W - 2:        # "Ann        47% win": the
            gap = (W - 2 - width(names[0], SMALL) - width(parts[0], SMALL)) / width(" ", SMALL)
            names, parts = [names[0] + " " * int(gap) + parts[0]], parts[1:]   # name's line
        block = [(line, row.marked, False) for line in names]
        for part in parts:
            joined = f"{figure_lines[-1]} · {part}" if figure_lines else part
            if figure_lines and width(joined, SMALL) <= W - 10:
                figure_lines[-1] = joined
            else:
                figure_lines.extend(wrap(part, SMALL, W - 10))
        block += [(line, row.marked, True) for line in figure_lines]
        blocks.append(block)
    pages: list[list[ScoreLine]] = [[]]
    for block in blocks:
        if pages[-1] and len(pages[-1]) + len(block) > per_page:
            pages.append([])
        for line in block:
            if len(pages[-1]) == per_page:
                pages.append([])
            pages[-1].append(line)
    return pages


def scores(title: str, rows: Sequence[Row], page: int = 0) -> Image.Image:
    """Each player's name and standing, whole, a page at a time (turn the knob for more)."""
    paged = score_pages(rows)
    page = max(0, min(page, len(paged) - 1))
    image, draw = canvas()
    header(draw, title, page_mark(page, len(paged)) if len(paged) > 1 else "")
    for i, (words, marked, right) in enumerate(paged[page]):
        y = 14 + i * LINE
        if marked:
            draw.rectangle((0, y, W - 1, y + LINE - 1), fill=ON)
        fill = OFF if marked else ON
        if right:
            text(draw, (W - 1, y), words, SMALL, anchor="ra", fill=fill)
        else:
            text(draw, (1, y), words, SMALL, fill=fill)
    return image


def game_over_pages(winners: str) -> list[list[str]]:
    """Winners whose names take more than two lines even in small type (three long names
    sharing a win), two lines a page, each winner's name on one page where it fits one: the
    third name and the "Game over" above them were left off. [] where the names fit whole."""
    if len(wrap(winners, MEDIUM)) <= 2 or len(wrap(winners, SMALL)) <= 2:
        return []
    names = winners.split(" & ")
    pages: list[list[str]] = [[]]
    for i, name in enumerate(names):
        block = wrap(name + (" &" if i < len(names) - 1 else ""), SMALL)
        if pages[-1] and len(pages[-1]) + len(block) > 2:
            pages.append([])
        for line in block:
            if len(pages[-1]) == 2:
                pages.append([])
            pages[-1].append(line)
    return pages


def game_over(winners: str, verb: str, detail: str, page: int = 0) -> Image.Image:
    """Who won, big (two lines if it must), the verb, and the final points or what to do;
    winners too many for two lines a page at a time (`game_over_pages`), under "Game over"."""
    image, draw = canvas()
    paged = game_over_pages(winners)
    if paged:
        page %= len(paged)
        header(draw, "Game over", page_mark(page, len(paged)))
        for i, line in enumerate(paged[page]):
            centred(draw, 14 + i * LINE, line, SMALL, bold=True)
        centred(draw, 40, verb, SMALL)
        footer(draw, detail)
        return image
    size = fit(winners, W - 2, (22, BIG, 18, 16, MEDIUM))
    medium, small = wrap(winners, MEDIUM), wrap(winners, SMALL)
    header(draw, "Game over")                 # (the game's name beside it ran into one
    if width(winners, size) <= W - 2:         # line: "Kat en Muis Game over")
        centred(draw, 14, winners, size, bold=True)
    else:                                     # two lines of names: the verb small below
        lines, line_size = (medium, MEDIUM) if len(medium) <= 2 else (small, SMALL)
        for i, line in enumerate(lines):
            centred(draw, 13 + i * (line_size - 1), line, line_size, bold=True)
        centred(draw, 40, verb, SMALL)
        footer(draw, detail)
        return image
    centred(draw, 37, verb, fit(verb, W - 2, (MEDIUM, SMALL)))
    footer(draw, detail)
    return image


def message(heading: str, big: str, small: str = "") -> Image.Image:
    """A plain notice: resumed game, the PIN, a hint; the small words wrapped whole beneath (two
    lines under big type, three under one medium line: `message_lines`). Big words too long
    for two medium lines (a network's long name) go small, whole, the small words under them."""
    image, draw = canvas()
    header(draw, heading)
    form, big_lines, small_lines = _message_form(big, small)
    if form == "small":                             # four small lines, the big words first
        for i, line in enumerate([*big_lines, *small_lines]):
            centred(draw, 14 + i * LINE, line, SMALL)
        return image
    if form == "under":                             # the big words give way to the small
        centred(draw, 14, big, fit(big, W - 2, (MEDIUM, SMALL)), bold=True)
        top = 28
    elif len(big_lines) == 1:
        centred(draw, 16, big, fit(big, W - 2, (22, BIG, 18, 16, MEDIUM, SMALL)), bold=True)
        top = 40
    else:
        for i, line in enumerate(big_lines):
            centred(draw, 14 + i * 13, line, MEDIUM, bold=True)
        top = 40
    for i, line in enumerate(small_lines):
        centred(draw, top + i * LINE, line, SMALL)
    return image


def cannot_start(reason: str) -> Image.Image:
    """Why the box could not start, left on the panel as the program ends (no page turns
    after it): the whole reason in small lines under "Parlour cannot start", or, longer than
    four lines, five lines from the top with the header's words first ("Cannot start" in
    medium type over three lines cut "... cannot be opened until some" short)."""
    image, draw = canvas()
    lines = wrap(reason, SMALL)
    if len(lines) <= 4:
        header(draw, "Parlour cannot start")
        top = 14
    else:
        lines, top = wrap(f"Parlour cannot start: {reason}", SMALL), 1
        if len(lines) > 5:
            lines = lines[:4] + [clip(" ".join(lines[4:]), SMALL, W - 2)]
    for i, line in enumerate(lines):
        centred(draw, top + i * LINE, line, SMALL)
    return image


def message_lines(big: str, small: str) -> tuple[list[str], list[str]]:
    """The lines `message` draws: the big words (one line, or two in medium type, or one in
    small type where two medium lines would cut a word, or, too long for those, small lines)
    and the small ones (up to three, when the big words fit one medium line)."""
    return _message_form(big, small)[1:]


def _message_form(big: str, small: str) -> tuple[str, list[str], list[str]]:
    small_lines = wrap(small, SMALL)
    if len(small_lines) > 2 and width(big, MEDIUM) <= W - 2:
        return "under", [big], small_lines[:3]
    if width(big, 16) <= W - 2:
        return "big", [big], small_lines[:2]
    big_lines = wrap(big, MEDIUM)
    if " ".join(big_lines) != big and width(big, SMALL) <= W - 2:
        return "big", [big], small_lines[:2]   # one small line, not a word cut in two (a
                                               # Wi-Fi name to type: the cut read as a space)
    if len(big_lines) > 2 or " ".join(big_lines) != big:     # whole in small lines, not
        lines = wrap(big, SMALL)                             # "Joining Vodafone-Home-5G-"
        return "small", lines[:4], small_lines[:max(0, 4 - len(lines))]   # ("Guest-Network")
    return "big", big_lines[:2], small_lines[:2]


def message_whole(big: str, small: str) -> bool:
    """True if `message` draws both its big and its small words whole."""
    big_lines, small_lines = message_lines(big, small)
    return "".join(big_lines).replace(" ", "") == big.replace(" ", "") and \
        small_lines == wrap(small, SMALL)


def flash_pages(words: str) -> list[tuple[int, list[str]]]:
    """A notice's pages as (size, lines): up to three medium lines on one page, or five small
    ones; longer, four small lines a page above a page mark, parted where its sentences and
    clauses end ("(15 left)" was a page of its own), so a long refusal is read whole."""
    if width(words, 16) <= W - 10:
        return [(16, [words])]                        # "Not your turn": big and bold
    lines = wrap(words, MEDIUM, W - 10)
    if len(lines) <= 3:
        return [(MEDIUM, lines)]
    small = wrap(words, SMALL, W - 10)
    if len(small) <= 5:
        return [(SMALL, small)]
    return [(SMALL, page) for page in sentence_pages([words], 4, 4, room=W - 10,
                                                     ends=CLAUSE_END)]


FLASH_SECONDS = 1.2          # a short notice ("Not your turn") stays up this long


def flash(base: Image.Image, words: str, page: int = 0) -> Image.Image:
    """A notice ("Not your turn", a refusal) in a box over the whole screen: a smaller box
    cut through the lines around it ("pots 10" read "nots 10", a board's "Fox" "Fnx")."""
    image = base.copy()
    draw = ImageDraw.Draw(image)
    paged = flash_pages(words)
    page = max(0, min(page, len(paged) - 1))
    size, lines = paged[page]
    pitch = {16: 17, MEDIUM: 13}.get(size, LINE if len(lines) <= 3 else LINE - 1)
    draw.rectangle((0, 0, W - 1, H - 1), fill=OFF, outline=ON)
    draw.rectangle((1, 1, W - 2, H - 2), outline=ON)
    top = 3 if len(paged) > 1 else (H - pitch * len(lines)) // 2
    for i, line in enumerate(lines):
        centred(draw, top + i * pitch, line, size, bold=(len(lines) == 1))
    if len(paged) > 1:
        text(draw, (W - 5, H - 14), page_mark(page, len(paged)), SMALL, anchor="ra")
    return image


# -- the spin ---------------------------------------------------------------------------------

def spin(frame: SpinFrame) -> Image.Image:
    """One frame of the spin: the Indicator's dial, a spinner or dice, plus who spins."""
    image, draw = canvas()
    if frame.kind == "dice":
        draw_dice(draw, frame)
    else:
        draw_dial(draw, frame)
    return image


def draw_dial(draw: ImageDraw.ImageDraw, frame: SpinFrame) -> None:
    """A round dial of `faces` sectors with one arrow per value (two on the Indicator)."""
    cx, cy, r = 31, 32, 30
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ON)
    for face in range(frame.faces):
        edge = face / frame.faces * 2 * math.pi
        draw.line((cx + (r - 3) * math.sin(edge), cy - (r - 3) * math.cos(edge),
                   cx + r * math.sin(edge), cy - r * math.cos(edge)), fill=ON)
        if frame.faces <= 8:
            mid = (face + 0.5) / frame.faces * 2 * math.pi
            label = frame.labels[face] if frame.labels else str(face + 1)
            text(draw, (cx + (r - 9) * math.sin(mid), cy - (r - 9) * math.cos(mid)),
                 clip(label, SMALL, 10), SMALL, anchor="mm")
    for i, angle in enumerate(frame.angles):
        length = r - 14 if i == 0 else r - 19
        tip = (cx + length * math.sin(angle), cy - length * math.cos(angle))
        tail = (cx - 5 * math.sin(angle), cy + 5 * math.cos(angle))
        draw.line((tail, tip), fill=ON, width=3 if i == 0 else 1)
        side = (math.cos(angle), math.sin(angle))
        back = (tip[0] - 5 * math.sin(angle), tip[1] + 5 * math.cos(angle))
        head = [tip, (back[0] + 3 * side[0], back[1] + 3 * side[1]),
                (back[0] - 3 * side[0], back[1] - 3 * side[1])]
        draw.polygon(head, fill=ON if i == 0 else OFF, outline=ON)
    draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=ON)
    x = 67
    size, lines = two_line_name(frame.name, W - x)
    for i, line in enumerate(lines):
        text(draw, (x, i * (LINE - 1)), line, size, bold=True)
    shown = " · ".join(frame.shown if frame.settled else
                       (frame.labels[v - 1] if frame.labels else str(v) for v in frame.faces_up))
    size = fit(shown, W - x, (22, BIG, 16, MEDIUM, SMALL))
    text(draw, ((x + W) // 2, 36), shown, size, anchor="mm", bold=True)
    if not frame.settled:
        text(draw, (W, 52), "press: stop", SMALL, anchor="ra")


def draw_dice(draw: ImageDraw.ImageDraw, frame: SpinFrame) -> None:
    """`count` dice side by side, tumbling (a small hop) until they settle."""
    n = len(frame.shown)
    side, gap = 30, 8
    x0 = (W - (n * side + (n - 1) * gap)) // 2
    size, lines = two_line_name(frame.name, W - 2)
    for i, line in enumerate(lines):
        centred(draw, i * (LINE - 1), line, size, bold=True)
    top = 24 if len(lines) == 1 else 26                   # under a name of two lines
    for i, face in enumerate(frame.faces_up):
        hop = 0 if frame.settled else int(3 * abs(math.sin(frame.angles[i])))
        x, y = x0 + i * (side + gap), top - hop
        draw.rounded_rectangle((x, y, x + side - 1, y + side - 1), radius=5, outline=ON,
                               width=2)
        for col, row in PIPS.get(face, []):
            px, py = x + 7 + col * 8, y + 7 + row * 8
            draw.ellipse((px - 2, py - 2, px + 2, py + 2), fill=ON)
        if face not in PIPS:
            text(draw, (x + side // 2, y + side // 2), str(face), MEDIUM, anchor="mm")
