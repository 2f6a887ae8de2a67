"""The result on the box's screen: what it says (who did it, the big values, the log's lines),
the lines the next result says first, the dial's throw it tells, when it went up and until
when it stays, and whether the turn's player has read its instructions; and a change made
elsewhere held back while it is read. The controller says what goes up and when
(`SpinScreens._show_result`, `ChangesFromElsewhere._show_change` and `_offer`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from firmware.controller.parts.missed import KEPT
from firmware.controller.parts.notices import LATE_PRESS_SECONDS
from firmware.controller.parts.pager import PAGE_SECONDS

RESULT_SECONDS = 6.0         # the result stays up at least this long before the turn screen

# A result stays up this long a page (two pages at most) before the Pi's reply takes its
# place (a player's own uncover is read first), and the dial's throw before a move a phone made
# meanwhile. Changes that come while one waits join it, and a person's shows it at once: the
# box is never more than one result behind, and only while the Pi's reply waits.
HOLD_SECONDS = PAGE_SECONDS
HOLD_PAGES = 2


class Throw(NamedTuple):
    """The dial's throw its result tells: the state before its throws (a throw while it spins
    starts it again), the state the throw made, and what the end of the turn before it wrote."""
    before: dict[str, Any]
    after: dict[str, Any]
    ended: list[str]


class ResultScreen:
    """The result up, or last up: its words (`outcome`: heading, values, lines; the same object
    while it is up), the lines the next says first, the dial's throw, when it went up, until
    when it stays (the Resumed screen's too), whether it is an assisted turn's instructions,
    the throw whose instructions have been read, and a person's change it shows, just up."""

    def __init__(self, clock: Callable[[], float], until: float = 0.0):
        self.clock = clock
        self.outcome: tuple[str, str, list[str]] = ("", "", [])
        self.lead_in: list[str] = []       # said first by the next result
        self.throw = Throw({}, {}, [])
        self.at = 0.0                      # when it went up
        self.until = until                 # it stays at least until then
        self.instructs = False             # it is an assisted turn's instructions
        self.read_roll: tuple | None = None    # the throw (`roll_key`) whose turn's player has
                                               # read them to "press the knob to end the
                                               # turn", or acted on them at the box
        self._change: tuple[Any, float] | None = None    # a person's change: its outcome, when

    @property
    def lines(self) -> list[str]:
        return self.outcome[2]

    def lead_in_first(self) -> None:
        """The lines to say first ("From a phone: ... begun instead of the game joined") put
        before the outcome's, once."""
        if self.lead_in:
            heading, values, lines = self.outcome
            self.outcome, self.lead_in = (heading, values, [*self.lead_in, *lines]), []

    def take_lead_in(self) -> list[str]:
        """The lines the next result was to say first, to be said otherwise: none are left."""
        said, self.lead_in = self.lead_in, []
        return said

    def add_line(self, line: str) -> None:
        heading, values, lines = self.outcome
        self.outcome = (heading, values, [*lines, line])

    def put_up(self, instructs: bool) -> None:
        """The outcome goes up now, for RESULT_SECONDS at least; `instructs`: it is an assisted
        turn's instructions."""
        self.at = self.clock()
        self.until = self.at + RESULT_SECONDS
        self.instructs = instructs

    def held_until(self, pages: int) -> float:
        """When the result up, of `pages` pages, may give way to a change made elsewhere."""
        return self.at + HOLD_SECONDS * max(1, min(pages, HOLD_PAGES))

    def change_put_up(self) -> None:
        """The outcome up is a person's change from elsewhere, up now."""
        self._change = (self.outcome, self.clock())

    def change_just_up(self) -> bool:
        """The outcome up is a person's change from elsewhere, up for less than a moment (a
        press may have been meant for the screen before it)."""
        change = self._change
        return change is not None and self.outcome is change[0] \
            and self.clock() - change[1] < LATE_PRESS_SECONDS

    def change_read(self) -> None:
        """The change's moment is used up: the next press reads it, as ever."""
        self._change = None


class HeldChange:
    """A change made elsewhere held back while the result up is read or the dial spins (the
    Pi's reply, a phone's move after the throw): the game as the box drew it before the
    change, and the newest state since; changes that come meanwhile join it."""

    def __init__(self):
        self._change: tuple[dict[str, Any], dict[str, Any]] | None = None
        self.passed: list[dict[str, Any]] = []      # each state it went through: each mover

    @property
    def waiting(self) -> bool:
        return self._change is not None

    @property
    def drawn(self) -> dict[str, Any] | None:
        """The game as the box drew it before the change (None with no change held)."""
        return self._change[0] if self._change is not None else None

    @property
    def newest(self) -> dict[str, Any] | None:
        return self._change[1] if self._change is not None else None

    def hold(self, old: dict[str, Any], snap: dict[str, Any],
             passed: list[dict[str, Any]] | None = None) -> None:
        """`snap`, a change from `old`, held back; a change held already goes on to it.
        `passed`: the states `snap` replaced within one frame."""
        self.passed = [*(self.passed if self._change is not None else []), *(passed or []),
                       snap][-KEPT:]
        self._change = (self._change[0] if self._change is not None else old, snap)

    def take(self) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The change held (from, to), to be shown now: none is held after."""
        change, self._change = self._change, None
        return change

    def drop(self) -> None:
        """The change held is not to be shown (an undo may have taken it back, or a result
        says it already)."""
        self._change, self.passed = None, []
