"""Notices over the box's screen: `NoticeBoard` holds the notice up (a refusal, what an undo
took back, a short word), its pages and how long each stays up; the `Notices` mixin of
Controller puts them up and says which inputs only read one away or come a moment late.
Controller provides clock, dirty, notice (its NoticeBoard) and the input fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PIL import Image

from firmware.oled import screens
from firmware.oled.screens import FLASH_SECONDS
from firmware.pins.inputs import InputEvent

if TYPE_CHECKING:
    from firmware.controller.parts.late import LateInputs
    from firmware.controller.parts.undos import UndoSaid

# A refusal stays up as long as it takes to read from across the table: this long to find it,
# then this long a word (about 150 words a minute), a page at a time; a knob press dismisses it.
READ_START_SECONDS, READ_WORD_SECONDS = 1.5, 0.4
# A knob press this soon after a result or a notice went by itself was meant for it (a
# press to skip it, a moment late): it is not acted on, so the turn screen that replaced it,
# which no one has read yet, does not take it as a move.
LATE_PRESS_SECONDS = 0.7
# The knob pressed again this soon after its press passed the turn is the same hand pressing
# twice ("did it take?", 0.3-1 s apart), not the next player's choice: they have yet to read
# whose turn it is. Free play's second press 0.9 s later passed the next player's turn.
AGAIN_SECONDS = 1.2
SEAT_INPUTS = ("seat", "ignored")      # a seat button, armed or not


def reading_seconds(words: str) -> float:
    """How long each page of a refusal stays up: time to find it, then time to read the page's
    words (the longest page sets the pace, so no page is cut short)."""
    pages = screens.flash_pages(words)
    longest = max(len(" ".join(lines).split()) for _, lines in pages)
    return READ_START_SECONDS + READ_WORD_SECONDS * longest


class NoticeBoard:
    """The notice over the screen, if any: its words, when it went up, how long each page
    stays and when the last goes, the page last drawn, and whether it is a refusal or says
    what an undo took back (a knob press only reads those away), and those undos in parts."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.text = ""                     # "" : no notice up
        self.at = 0.0                      # when it went up
        self.until = 0.0                   # when its last page goes
        self.seconds = FLASH_SECONDS       # each page's time
        self.refusal = False               # it is a refusal
        self.undo = False                  # it says what an undo took back
        self.undos: list[UndoSaid] = []    # those undos, in parts (`unread_undos`)
        self.covers_change = False         # it is said over a screen that changed unseen
        self.drawn_page = 0

    def put(self, words: str, seconds: float) -> None:
        """`words` up for `seconds` a page (a long refusal is read whole), as a plain notice."""
        self.refusal = self.undo = self.covers_change = False
        self.undos = []
        self.text, self.at = words, self.clock()
        self.until = self.at + seconds * len(screens.flash_pages(words))
        self.seconds = seconds

    def clear(self) -> None:
        self.text, self.refusal, self.undo, self.undos = "", False, False, []
        self.covers_change = False

    def unread_undos(self, now: float) -> list[UndoSaid]:
        """The undos the notice up says, while it is still being read (none after)."""
        return list(self.undos) if self.undo and self.text and now < self.until else []

    @property
    def read_by_press(self) -> bool:
        """A refusal, an undo's notice or one over a screen that changed unseen is up: the next
        knob press only takes it away."""
        return bool(self.text) and (self.refusal or self.undo or self.covers_change)

    def page(self) -> int:
        """The page up now (0 with no notice)."""
        return int((self.clock() - self.at) // self.seconds) if self.text else 0

    def ran_out(self, now: float) -> bool:
        return bool(self.text) and now >= self.until

    def turned(self) -> bool:
        """Its next page is due on the screen (the page up is not the page last drawn)."""
        return bool(self.text) and self.page() != self.drawn_page

    def deadlines(self) -> list[float]:
        """When it next changes: its next page, and when it goes (none with no notice)."""
        return [self.until, self.at + self.seconds * (self.page() + 1)] if self.text else []

    def over(self, image: Image.Image) -> Image.Image:
        """`image` with the notice's page up drawn on top (`image` itself with none)."""
        if not self.text:
            return image
        self.drawn_page = self.page()
        return screens.flash(image, self.text, self.drawn_page)


class Notices:
    """Putting notices up and the inputs they take."""

    notice: NoticeBoard                    # all set by Controller.__init__
    late: LateInputs                       # inputs meant for the screen just before
    input_kind: str                        # the input being handled ("" between inputs)
    input_seat: int | None                 # its seat button, if one

    def show_refusal(self, words: str) -> None:
        """Why an input did nothing, up long enough to be read (by its length, page by page);
        the next knob press only takes it away, unless another player's seat button was
        refused: the knob is the turn's player's, and the screen under the notice has not
        changed (a press to end the turn, a moment after someone else's button, ends it). The
        turn's own button refused ("Blue has the diamond: spin first to go home") is read and
        taken away by its player: that press made Blue's Field move, and the spin was lost;
        unless the refusal asks for that press ("Turn the knob to pick Blue's square, then
        press the knob.")."""
        self.show_flash(words, reading_seconds(words))
        own = self.input_seat is not None and self.input_seat in (self.armed_seats() or []) \
            and not words.endswith("press the knob.")
        self.notice.refusal = self.input_kind not in SEAT_INPUTS or own

    def show_undo(self, words: str, undos: list[UndoSaid] | None = None) -> None:
        """What an undo took back ("Taken back: ..."), over a screen that has changed: the next
        knob press reads it away and does nothing else, as a refusal's does; `undos`: its
        words in parts, to say with the next undo's while it is read."""
        self.show_read(words)
        self.notice.undo = True
        self.notice.undos = list(undos or [])

    def show_read(self, words: str) -> None:
        """A notice that says what happened ("Taken back: Ann throws 3 and 5"), each page up
        long enough to read."""
        self.show_flash(words, max(FLASH_SECONDS, reading_seconds(words)))

    def show_flash(self, words: str, seconds: float) -> None:
        """A notice over the screen for `seconds` a page (a long refusal is read whole)."""
        self.notice.put(words, seconds)
        self.dirty = True

    def _only_reads(self, event: InputEvent) -> bool:
        """An input that only reads: one a moment late for what went or moved by itself
        (`LateInputs`: the dial stopped, a result or a notice went, a page turned; the README
        offers a seat button and a flick to stop the dial too), not a move, a capture, a
        claim, a man into Goal or a throw on a screen no one has read; or a knob press that
        takes a refusal or an undo's notice away (the screen it covers has changed: nobody
        has seen it yet). True if the input is used up so; one reads, the next acts."""
        if self.late.reads(event.kind):
            return True
        if event.kind == "press" and self.notice.read_by_press:
            self._clear_notice()
            return True
        return False

    def _clear_notice(self) -> None:
        """The notice up, if any, taken away."""
        self.notice.clear()
        self.dirty = True

    def _notice_time(self, now: float) -> None:
        """A notice's time running out (a press meant to take it away may come just after),
        or its next page due."""
        if self.notice.ran_out(now):
            if self.notice.read_by_press:
                self.late.moved_on(now)
            self._clear_notice()
        elif self.notice.turned():
            self.dirty = True
