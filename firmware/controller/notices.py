"""Notices over the box's screen (a mixin of Controller): a refusal, what an undo took back,
a short word; how long each stays up, and which knob presses only read one away. Controller
provides clock, dirty and the flash fields set in its __init__."""

from __future__ import annotations

from firmware.oled import screens
from firmware.oled.screens import FLASH_SECONDS
from firmware.pins.inputs import InputEvent

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


class Notices:
    """The notice up, if any, and the presses it takes."""

    flash_text: str                        # all set by Controller.__init__
    flash_at: float
    flash_until: float
    flash_seconds: float
    refusal_shown: bool                    # the notice up is a refusal
    undo_shown: bool                       # ... says what an undo took back
    read_until: float                      # an input before this is late: not acted on
    read_by: tuple[str, ...]               # ... the kinds of input it catches
    input_kind: str                        # the input being handled ("" between inputs)
    input_seat: int | None                 # its seat button, if one
    _flash_shown: int

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
        self.refusal_shown = self.input_kind not in SEAT_INPUTS or own

    def show_undo(self, words: str) -> None:
        """What an undo took back ("Taken back: ..."), over a screen that has changed: the next
        knob press reads it away and does nothing else, as a refusal's does."""
        self.show_read(words)
        self.undo_shown = True

    def show_read(self, words: str) -> None:
        """A notice that says what happened ("Taken back: Ann throws 3 and 5"), each page up
        long enough to read."""
        self.show_flash(words, max(FLASH_SECONDS, reading_seconds(words)))

    def show_flash(self, words: str, seconds: float) -> None:
        """A notice over the screen for `seconds` a page (a long refusal is read whole)."""
        self.refusal_shown = self.undo_shown = False
        self.flash_text, self.flash_at = words, self.clock()
        self.flash_until = self.flash_at + seconds * len(screens.flash_pages(words))
        self.flash_seconds = seconds
        self.dirty = True

    def _flash_page(self) -> int:
        return int((self.clock() - self.flash_at) // self.flash_seconds) if self.flash_text else 0

    def _late_for(self, until: float, by: tuple[str, ...] = ("press", "seat")) -> None:
        """Inputs of the kinds `by` before `until` were meant for what just went or moved by
        itself (the dial, a result, a notice, a page): a moment late, they only read."""
        self.read_until, self.read_by = until, by

    def _only_reads(self, event: InputEvent) -> bool:
        """An input that only reads: one a moment late for what went or moved by itself
        (`_late_for`: the dial stopped, a result or a notice went, a page turned; the README
        offers a seat button and a flick to stop the dial too), not a move, a capture, a
        claim, a man into Goal or a throw on a screen no one has read; or a knob press that
        takes a refusal or an undo's notice away (the screen it covers has changed: nobody
        has seen it yet). True if the input is used up so; one reads, the next acts."""
        if event.kind in self.read_by and self.clock() < self.read_until:
            self.read_until = 0.0
            return True
        if event.kind == "press" and self.flash_text and (self.refusal_shown or
                                                          self.undo_shown):
            self._clear_notice()
            return True
        return False

    def _clear_notice(self) -> None:
        """The notice up, if any, taken away."""
        self.flash_text, self.refusal_shown, self.undo_shown = "", False, False
        self.dirty = True

    def _notice_time(self, now: float) -> None:
        """A notice's time running out (a press meant to take it away may come just after),
        or its next page due."""
        if self.flash_text and now >= self.flash_until:
            if self.refusal_shown or self.undo_shown:
                self._late_for(now + LATE_PRESS_SECONDS)
            self._clear_notice()
        elif self.flash_text and self._flash_page() != self._flash_shown:
            self.dirty = True
