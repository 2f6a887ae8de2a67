"""The spin and what it says (a mixin of Controller): a flick spins the dial, the result
screen shows the log's new lines under who made them, and long outcomes and instructions
turn page by page (by the knob, or by themselves). Controller provides snap, session, clock,
screen, result (what the result says and when it went up), pager, home(), _call, _beep,
_change_words and the turn screen's knob handlers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.words import END_OF_TURN
from firmware.controller.parts.late import LateInputs
from firmware.controller.parts.notices import SEAT_INPUTS
from firmware.controller.parts.pager import Pager
from firmware.controller.parts.result import HeldChange, ResultScreen, Throw
from firmware.oled.animation import Animation, spin_seconds
from firmware.oled.views import (box_words, later_mover, player_name, player_names,
                                  restates, roll_text, split_prompt, takes, with_box_controls)
from firmware.pins.inputs import InputEvent
from firmware.workers.pi_worker import BY as PI_BY

PAGED = ("result", "play", "confirm", "over")   # screens whose pages turn by themselves
UNCOVER_PIS = "Uncover {who}'s {value} on the board, then press the knob."   # the Pi's square
UNCOVER_IF_NOT_YET = "If {who}'s {value} is still covered, uncover it on the board; then press " \
    "the knob."                               # after a restart: it may be uncovered already
NOTHING_TO_THROW = "Nothing to throw in this game: press the knob to end the turn."
LEAD_THROW = "for the lead"        # the log's words for a throw or spin of the lead


def asks_to_uncover(line: str) -> bool:
    """The result's line asking the players to uncover the Pi's square, then press."""
    return line.startswith(("Uncover ", "If ")) and line.endswith("then press the knob.")


class SpinScreens:
    """The spin and result screens, and the pages of any long text."""

    animation: Animation | None            # all set by Controller.__init__
    result: ResultScreen                   # what the result says, when it went up
    pager: Pager
    held_change: HeldChange                # a change from elsewhere, shown once it is read
    late: LateInputs                       # inputs meant for the screen just before

    def on_spin(self, event: InputEvent) -> None:
        before = self.snap
        rulebook = self._rulebook()
        if self._knob_picks():                # no throw: the knob's turn and press move
            self.show_refusal(self._no_throw_text())
            self._beep("error")
            return
        if before.get("awaiting") == "next" and not before.get("randomizer"):
            self.show_refusal(NOTHING_TO_THROW)     # free play without dice: X8's flick ends a
            self._beep("error")                     # turn to throw, and there is no throw
            return
        if before.get("awaiting") == "next" and takes(rulebook, "on_next"):
            # X8: in an assisted game the next player's flick ends the turn, then spins
            if not self._call(lambda: self.session.submit({"type": "next"}, by="knob")):
                return
            if self.snap.get("awaiting") != "roll":
                self.screen = self.home()
                return
            ended = (self.snap.get("log") or [])[len(before.get("log") or []):]
            before = self.snap           # what the turn's end wrote ("Blue is not home yet
        else:                            # (claim cancelled)"): said first, over the throw
            ended = []
        if self._call(lambda: self.session.roll(by="knob", spin=spin_seconds(event.strength))):
            self._animate(before, self.snap, strength=event.strength, ended=ended)
            if self.snap.get("phase") == "over":
                self._beep("win")

    def _animate(self, before: dict[str, Any], after: dict[str, Any], strength: float,
                 ended: Sequence[str] = ()) -> None:
        roll = after.get("last_roll") or {}
        seat = roll.get("seat", before.get("turn"))
        randomizer = before.get("randomizer") or after.get("randomizer")
        self.animation = Animation(randomizer, roll.get("values") or [], strength=strength,
                                   name=player_name(after, seat), clock=self.clock)
        self.result.throw = Throw(before, after, list(ended))
        self.held_change.drop()                    # its result has every line since
        self.result.outcome = self._spin_outcome(after)
        self.notice.clear()                        # the spin answers the flick
        self.screen = "spin"

    def _spin_outcome(self, now: dict[str, Any]) -> tuple[str, str, list[str]]:
        """The dial's result: who threw and what (the throw the dial shows), then the lines
        the log has gained since as it has them `now` (a line taken back meanwhile is gone).
        What the thrower's turn allows comes first, unless the Pi has moved since: then the
        players first copy its uncover (the last line asks for it) and the next turn's words
        wait for the turn screen."""
        before, after, ended = self.result.throw
        roll = after.get("last_roll") or {}
        seat = roll.get("seat", before.get("turn"))
        name = player_name(after, seat)
        randomizer = before.get("randomizer") or after.get("randomizer")
        words = self._change_words(before, now)
        values = roll_text(after, randomizer)
        thrown = (after.get("rolls") or 0) - (before.get("rolls") or 0)
        dice = (randomizer or {}).get("kind") == "dice"
        if thrown > 1:          # phones threw while the dial spun: every throw, in its order
            lead = before.get("phase") == "lead" and \
                sum(LEAD_THROW in w for w in words) >= thrown    # not one for a move too
            return ("The lead" if lead else f"{thrown} {'throws' if dice else 'spins'}", "",
                    [*ended, *words])
        if words and restates(words[0], name, values):
            words = words[1:]                     # heading and big values say it already
        _, instruction = split_prompt(now.get("prompt") or "", player_names(now))
        if now.get("turn") == seat and now.get("awaiting") not in ("roll", None) \
                and before.get("phase") != "lead" \
                and instruction and not any(map(asks_to_uncover, words)):  # (lead: no move)
            allows = with_box_controls(now, instruction)
            if instruction == END_OF_TURN:     # free play: the throw's line, then the turn's end
                words = words + [allows]
            else:
                words = [allows] + words                        # what this spin allows
        verb = "throws" if dice else "spins"
        pi = later_mover(words, now, name, pi_only=True) \
            if now.get("last_by") == PI_BY and now.get("state_version") != after.get(
                "state_version") else ""
        return (f"{name}, then {pi}" if pi else f"{name} {verb}"), values, \
            [*ended, *words]                                               # one line

    def on_skip(self, event: InputEvent) -> None:
        """An input stops the dial: another hand's a moment later (a second seat button, the
        knob after a seat's, a seat after the knob's) was meant to stop it too
        (`LateInputs.meant_to_stop`): it recorded a capture, a point or a man into the Goal,
        or took the result away unread, every time. The same hand's again is held as ever
        (`_guard_against_again`)."""
        self._finish_spin()
        self.late.dial_stopped_by(event.kind)

    def _finish_spin(self) -> None:
        if self.animation is not None:
            self.animation.skip()
        self.animation = None
        self._show_result()

    def _show_result(self) -> None:
        self.notice.clear()                        # the new answer replaces an old notice
        self.result.lead_in_first()                # what must be said first ("From a phone:
                                                   # ... begun instead of the game joined")
        unread = self.screen == "result" and self.result.instructs and \
            not self.pager.on_last and \
            self.snap.get("home_claim") is None     # instructions a seat press came over (a
                                                    # claim's own pages say what the knob does)
        if unread and self.input_kind in SEAT_INPUTS:
            self._instructions_after()
        self.screen = "result"
        self.result.put_up(instructs=self._press_ends_turn() and not self._only_news())
        if not self.result.instructs and self.input_kind in SEAT_INPUTS and not unread:
            self.result.read_roll = self.roll_key()     # the turn's player acted at the box
        self._turn_to(0)

    def _instructions_after(self) -> None:
        """A capture pressed over the spin's instructions, unread ("Squeak!" on page 1 of 3):
        its result goes on with them, so a press reads on to "press the knob to end the
        turn" before it ends the turn (it closed to the turn screen, whose first page a
        press ended: the mice's move never said)."""
        _, instruction = split_prompt(self.snap.get("prompt") or "", player_names(self.snap))
        allows = with_box_controls(self.snap, instruction) if instruction else ""
        if allows:
            self.result.add_line(allows[0].upper() + allows[1:])

    def roll_key(self) -> tuple:
        """The throw the turn in play follows: its instructions are read once for it."""
        return self.snap.get("game_id"), self.snap.get("rolls"), self.snap.get("turn")

    @property
    def held_until(self) -> float:
        """When the result up may give way to a change made elsewhere."""
        return self.result.held_until(self.pager.count)

    def _holding(self, now: float) -> bool:
        """The dial spins, or the result up has not been read yet."""
        return self.screen == "spin" or (self.screen == "result" and now < self.held_until)

    def _turn_to(self, page: int) -> None:
        self.pager.turn_to(page)
        self.dirty = True

    def on_turn_page(self, event: InputEvent) -> None:
        """The knob reads a long outcome or instruction page by page (and holds it there);
        on a one-page result it does what it does on the turn screen (Domino Rex's pick)."""
        if self.pager.count > 1:
            self.pager.turn_by(event.detents)
            self.dirty = True
        elif self.screen == "result":
            self.on_knob_turn(event)

    def on_result_press(self, event: InputEvent) -> None:
        """One press does what the result says: in an assisted game that is "press the knob
        to end the turn" (X8), so it ends the turn once the turn's instructions have been up to
        that last page (before it, a press reads on: pressed on page 1, "6 · 4 / Ann spins", it
        ended the turn before Ann was told to press her button for a capture; and a claim
        home's page 2 says that the knob withdraws it: read first); news over an unread turn (a
        phone's change shown by the press meant to read on) closes to the turn screen, whose
        pages say the rest. Otherwise it closes the result, once read: a press before the last
        page of an outcome ("1/2": a payment, a lost turn, the Pi's uncover to copy) turns to
        the next. With a change from elsewhere waiting, it shows that instead."""
        ends_turn, read = self._press_ends_turn(), self.result.read_roll == self.roll_key()
        if self._show_waiting():
            self._sync_controls()
        elif not self.pager.on_last and (not ends_turn or not read
                                         or self.snap.get("home_claim") is not None
                                         or self._only_news()):
            self._turn_to(self.pager.page + 1)     # a claim's page 2 says the knob withdraws it;
                                                   # a seat press's page 2 is what it did
        elif ends_turn and read:
            self.on_knob_press(event)
        elif ends_turn:
            self.screen = self.home()
        else:        # the same press again is a double press, not a move on the turn screen
            self.screen = self.home()      # unread (`_guard_against_again`: Red's square
                                           # uncovered 0.5 s after the Pi's request was pressed
                                           # away; the next player's Field move made for them)

    def on_result_flick(self, event: InputEvent) -> None:
        """The next player's flick on a result with news still to read ("Red moves to 44" on
        page 1/2, "Red pays Blue 2 chips (square 44)" on page 2, the flick 2 s later) turns to
        the next page: that player's own payment was taken away unseen. On the last page, or
        over an assisted turn's instructions (X8: the flick ends that turn), it throws."""
        if not self.pager.on_last and not self.held_change.waiting and \
                (not self._press_ends_turn() or self._only_news() and
                 self.snap.get("home_claim") is None):    # (P2: the flick withdraws a claim)
            self._turn_to(self.pager.page + 1)
            self._beep("click")
        else:
            self.on_spin(event)

    def _only_news(self) -> bool:
        """The result says only what was done (the log's lines: a seat press's "Blue moves in
        the Field" over "Blue takes the Lost Diamond from its square"), no instructions."""
        done = {box_words(line) for line in self.snap.get("log") or []}
        return all(line in done for line in self.result.lines)

    def _press_ends_turn(self) -> bool:
        """A knob press ends the turn, on the result as on the turn screen (X8)."""
        return self.snap.get("awaiting") == "next" and takes(self._rulebook(), "on_next")

    def _turn_pages(self, now: float) -> None:
        """Long outcomes and instructions advance a page every PAGE_SECONDS (the turn
        screen's pages go round; the result's stop at the last)."""
        key = (self.screen, self.result.outcome if self.screen == "result" else
               self.snap.get("prompt"), self.snap.get("state_version"),   # not the chances
               self.screen != "result" and bool(self.notice.text))  # the first page again,
                                                                    # whole, once a notice goes
        if self.pager.new_text(key) and self.screen != "result":
            self._turn_to(0)
        if self.screen in PAGED and self.pager.turns_by_itself(now):
            if self.screen in ("play", "confirm", "over"):  # these go round
                self._turn_to((self.pager.page + 1) % self.pager.count)
            elif not self.pager.on_last:
                # a press or a flick just after the page was due to turn was meant to turn
                # it ("Red pays Blue 2 chips" up 0.15 s before a flick threw over it)
                self.late.moved_on(self.pager.due(), ("press", "flick"))
                self._turn_to(self.pager.page + 1)

    @property
    def flick_words(self) -> str:
        """What to do when a throw is awaited, in the words of the game's randomizer."""
        dice = (self.snap.get("randomizer") or {}).get("kind") == "dice"
        return "Flick the knob to throw" if dice else "Flick the knob to spin"

    @property
    def _waits_for_press(self) -> bool:
        """The result asks for the Pi's uncover and a press: it stays until that press, which
        would otherwise fall on the next player's turn screen and choose for them."""
        return self.screen == "result" and any(map(asks_to_uncover, self.result.lines))
