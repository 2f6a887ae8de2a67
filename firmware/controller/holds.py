"""The box's holds (a mixin of Controller): a double press or a bounce is one press. After a
press that changed what the same press would do next, that press again within AGAIN_SECONDS
is held back: it would make a choice on a screen no one has read yet. Controller provides
snap, screen, pager, result, clock and _press_ends_turn."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from firmware.controller.parts.notices import AGAIN_SECONDS
from firmware.controller.parts.pager import Pager
from firmware.controller.parts.result import ResultScreen
from firmware.pins.inputs import InputEvent

KNOB = ("press", "turn", "flick", "hold")          # the knob's inputs: one hand's


class AgainGuard(NamedTuple):
    """The press `_guard_against_again` holds: its kind ("press", "flick", "seat"), the seat
    for a seat button, until when, (for the knob) the screen it is held on, and whether one
    held press uses it up (where the next press only closes or reads on: a third is a
    choice)."""
    kind: str
    seat: int | None
    until: float
    screen: str | None
    once: bool = False

    def another_hand(self, event: InputEvent) -> bool:
        """The input is not the guarded control's: the knob's guard, a seat button's; one
        seat's guard, another seat's button or the knob."""
        return (event.kind in KNOB) != (self.kind in KNOB) or \
            self.kind == "seat" and event.seat != self.seat


class Moment(NamedTuple):
    """What an input changes, as it was before the input: `_guard_against_again` compares."""
    game: Any
    version: Any                                 # the game's state_version
    claim: Any
    screen: str
    page: int
    outcome: Any                                 # the result up (the same object while it is)


class Holds:
    """The press held back, if any, and which presses set and use it."""

    again_guard: AgainGuard | None         # all set by Controller.__init__
    snap: dict[str, Any]
    screen: str
    pager: Pager
    result: ResultScreen
    clock: Callable[[], float]
    _press_ends_turn: Callable[[], bool]

    def _moment(self) -> Moment:
        return Moment(self.snap.get("game_id"), self.snap.get("state_version"),
                      self.snap.get("home_claim"), self.screen, self.pager.page,
                      self.result.outcome if self.screen == "result" else None)

    def _guard_after_reading(self, event: InputEvent) -> None:
        """A press (or flick) used up reading is held again as the one it was meant as: with
        the result up (the dial stopped, or its page turned, by itself just before), as one
        that stopped the dial; on the turn screen (a result or a notice went just before, or
        it took a notice away) as one that closed it: the screen now up is unread too."""
        if self.screen == "result":
            self._guard_against_again(event, self._moment()._replace(screen="spin", outcome=None))
        elif self.screen == "play":
            seat = event.seat if event.kind == "seat" else None
            self.again_guard = AgainGuard(event.kind, seat, self.clock() + AGAIN_SECONDS,
                                          self.screen if event.kind == "press" else None)

    def _guard_against_again(self, event: InputEvent, before: Moment) -> None:
        """After an input that changed what the same input would do next (the knob passed
        the turn, or closed a result or the Pi's move over the turn screen: the next press
        would move; the knob, a flick or a seat button stopped the dial, or the knob brought
        up a result: the next would end the turn, close the result just shown, throw over it
        or act on it; the knob or a flick turned a result's page: the next, on its last page,
        would close it, end the turn or throw; a seat button claimed a win: its next press
        confirms it, for good: no undo after a win), that input again within AGAIN_SECONDS is
        a double press or a bounce, not a choice made on a screen no one has read yet."""
        now = self._moment()
        if self.again_guard is not None and self.again_guard.another_hand(event) and \
                now.version != before.version:
            self.again_guard = None     # another hand changed the game (a capture between the
                                        # knob's presses): the next press is for the new screen
        guard = partial(AgainGuard, until=self.clock() + AGAIN_SECONDS)
        # it passed the turn (or did anything else there: free play's one player ends their
        # turn and has the next), or closed what was up over the turn screen
        if event.kind == "press" and now.screen == "play" and now.game == before.game and \
                (now.version != before.version or before.screen in ("result", "pi_moved")):
            self.again_guard = guard("press", None, screen="play")
        elif event.kind == "press" and now.screen == "result" and (
                now.outcome is not before.outcome or now.page > before.page):
            # it stopped the dial, brought up a result (Domino Rex's uncover, The Lost
            # Diamond's turn passed) or turned a page: the same again would end the turn (X8),
            # or (held once) close the result or end the turn on its last page, unread
            self.again_guard = guard("press", None, screen="result", once=not (
                before.screen == "spin" and self._press_ends_turn()))
        elif event.kind == "flick" and now.screen == "result" and (
                before.screen == "spin" or now.page > before.page):
            # it stopped the dial or turned to unread news: the same again would throw the
            # next turn over the result (once, on the page it turned to)
            self.again_guard = guard("flick", None, screen="result",
                                     once=before.screen != "spin")
        elif event.kind == "seat" and (now.claim is not None and now.claim != before.claim or
                                       before.screen == "spin"):   # or it stopped the dial:
            self.again_guard = guard("seat", event.seat, screen=None)   # again, it acts

    def _pressed_again(self, event: InputEvent) -> bool:
        """A press `_guard_against_again` holds back, until AGAIN_SECONDS after the press that
        set it (a nervous third press in that time is the same hand too; the hold never grows,
        so presses that keep coming are not held for ever); a guard `once` holds one press,
        on the result's last page (a press before it turns the page, and the guard stays). Any
        other input of the same hand (the knob's, or that seat's) uses the guard up: after it,
        the press is a choice; another hand's leaves it (a seat button that did nothing
        between the knob's press and its bounce, a button not in the game), unless it changed
        the game (a capture: `_guard_against_again` drops it)."""
        guard = self.again_guard
        if guard is None or guard.another_hand(event):
            return False                        # another hand's: the guard stays until it lapses
        self.again_guard = None
        same = self.clock() < guard.until and event.kind == guard.kind and (
            event.kind == "seat" or self.screen == guard.screen)
        last = guard.screen != "result" or self.pager.on_last
        if same and (not guard.once or not last):
            self.again_guard = guard
        return same and (not guard.once or last)
