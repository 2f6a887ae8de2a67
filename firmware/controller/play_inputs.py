"""The play screens' inputs (a mixin of Controller): a seat button, the knob's press and turn
and Undo during a game, and why a press did nothing. Controller provides snap, session, pi,
screen, _call, _answer, show_flash, show_read, show_refusal, _beep, _rulebook ..."""

from __future__ import annotations

from companion.words import turn_ends
from firmware.oled import board_screen
from firmware.oled.screens import FLASH_SECONDS
from firmware.oled.views import choice_meaning, choices, player_name, takes
from firmware.pins.inputs import InputEvent
from firmware.workers.pi_worker import pi_level

UNDO_BY = "undo"                             # the box's own Undo button, in the log's `by`
PI_THINKING = "The Pi is thinking"          # until its move shows (core's _show_change)

COPY_FIRST = "Copy the Pi's move, then press the knob."
GAME_OVER_SEAT = "The game is over: press the knob for a new game."
KNOB_ANSWERS = "Turn the knob to choose, then press it."


class PlayInputs:
    """Seat presses, the knob and Undo while a game is played."""

    move_index: int                          # all set by Controller.__init__
    choice_index: int

    def on_press_seat(self, event: InputEvent) -> None:
        seat = self._game_seat(event.seat)
        if seat is None:
            return
        if self.screen == "resumed" and self._press_records():
            self.on_to_home(event)      # "Resumed" says only whose turn it is: what the press
            return                      # would record (a capture, a claim, a point) is shown
                                        # first, and the next press records it (LD2, P2, M3)
        if self._knob_picks():
            self.show_refusal(self._knob_picks_text(seat))
            self._beep("error")
        elif takes(self._rulebook(), "on_press") and self.snap.get("phase") != "lead":
            before = self.snap
            if self._call(lambda: self.session.submit({"type": "press", "seat": seat},
                                                      by=f"seat {event.seat}")):
                self._answer(before, f"{player_name(self.snap, seat)} pressed", sound="capture")
        elif self.snap.get("awaiting") == "roll":
            self.show_flash(self.flick_words, FLASH_SECONDS)

    def _press_records(self) -> bool:
        """A seat press now is the game's action (a capture, a man home, a point), not refused
        for the knob's pick, the lead or a throw to come (the rules may still refuse it)."""
        return not self._knob_picks() and takes(self._rulebook(), "on_press") and \
            self.snap.get("phase") == "play"

    def _knob_picks(self) -> bool:
        """The knob picks what is done now: Fox and Geese's moves, Domino Rex's squares."""
        return self.snap.get("awaiting") in ("move", "choose")

    def _knob_picks_text(self, seat: int | None) -> str:
        """How a move or a square is made, for a seat button or a flick pressed instead."""
        what = "move" if self.snap.get("awaiting") == "move" else "square"
        return f"Turn the knob to pick {player_name(self.snap, seat)}'s {what}, then press " \
               "the knob."

    def _no_throw_text(self) -> str:
        """Why a flick did nothing where the knob picks, and what moves instead."""
        if pi_level(self.snap):                       # the Pi's turn
            return "No throw now. " + ("Press the knob and the Pi moves." if self.pi.waiting
                                       else PI_THINKING + ".")
        return "No throw now. " + self._knob_picks_text(self.snap.get("turn"))

    def on_not_yours(self, event: InputEvent) -> None:
        self.show_refusal(self.not_yours_text(event.seat))
        self._beep("error")

    def on_seat_when_over(self, event: InputEvent) -> None:
        """A seat button on the end screen: the game has no turns left to press for."""
        self.show_refusal(GAME_OVER_SEAT)
        self._beep("error")

    def on_seat_on_a_question(self, event: InputEvent) -> None:
        """A seat button while the box asks a question (Yes/No, who won): the knob answers."""
        self.show_refusal(KNOB_ANSWERS)
        self._beep("error")

    def on_copy_first(self, event: InputEvent) -> None:
        """A seat press while the Pi's move waits to be copied: what to do first."""
        self.show_refusal(COPY_FIRST)
        self._beep("error")

    def not_yours_text(self, button: int | None) -> str:
        """Why a seat button that is not armed did nothing, in a whole sentence."""
        seat = self._game_seat(button)
        turn = self.snap.get("turn")
        if seat is None:
            if button is None:
                return "Not your turn"
            if any(p.get("pi") and p.get("button") == button + 1
                   for p in self.snap.get("players") or []):
                return f"Button {button + 1} is the Pi's seat: the Pi moves by itself."
            return f"Button {button + 1} is not in this game."
        if seat != turn and turn is not None:
            return f"It is {player_name(self.snap, turn)}'s turn, not " \
                   f"{player_name(self.snap, seat)}'s."
        return self.flick_words if self.snap.get("awaiting") == "roll" \
            else "Not now: see the screen"

    def on_knob_press(self, event: InputEvent) -> None:
        awaiting = self.snap.get("awaiting")
        before = self.snap
        if pi_level(self.snap):
            self.pi.request()                         # after an undo the Pi waits to be asked
            self.show_flash(PI_THINKING, FLASH_SECONDS)
        elif awaiting == "move":
            path = board_screen.knob_move(self.snap, self.move_index)
            who = player_name(before, before.get("turn"))
            if path and self._call(lambda: self.session.submit({"type": "move", "path": path},
                                                               by="knob")):
                self.move_index = 0
                self._answer(before, f"{who} moves")      # the move in words, then the board
        elif awaiting in ("next", "roll") and takes(self._rulebook(), "on_next") \
                and self.snap.get("phase") != "lead":    # the lead has no knob move: flick
            who = player_name(before, before.get("turn"))
            if self._call(lambda: self.session.submit({"type": "next"}, by="knob")):
                same = self.snap.get("turn") == before.get("turn")    # else the new name shows
                self._answer(before, turn_ends(who), quiet="Turn ended" if same else "")
        elif awaiting == "choose":
            value = self._choices()[self.choice_index % len(self._choices())]
            who = player_name(before, before.get("turn"))
            if self._call(lambda: self.session.submit({"type": "choose", "value": value},
                                                      by="knob")):
                self.choice_index = 0
                self._answer(before, f"{who} uncovers",
                             choice_meaning(before, value, self.snap))
        elif awaiting == "declare":
            self._open_declare()
        elif awaiting == "roll":
            self.show_flash(self.flick_words, FLASH_SECONDS)

    def on_knob_turn(self, event: InputEvent) -> None:
        if self.snap.get("awaiting") == "move":
            self.move_index += event.detents
        elif self.snap.get("awaiting") == "choose":
            self.choice_index = (self.choice_index + event.detents) % len(self._choices())
            self.screen = "play"
        elif self.pager.count > 1:
            self.on_turn_page(event)

    def _choices(self) -> list[int]:
        return choices(self.snap)

    def on_undo(self, event: InputEvent) -> None:
        """Undo at the box, said in a notice (after the undos of a notice still being read:
        Undo pressed twice says both)."""
        before, earlier = self.snap, self.notice.unread_undos(self.clock())
        if self._call(lambda: self.session.undo(by=UNDO_BY)):   # on the state drawn: with the
            self.animation = None                    # Pi's reply held, that is shown instead
            self.held_change.drop()                  # the moves it waited to show may be gone
            self.screen = self.home()
            self.move_index = self.choice_index = 0     # the knob's pick starts again
            self._say_undo(before, self.snap, earlier)
            self._beep("click")

    @property
    def buttons(self) -> list[int]:
        """The seat button (0-based) of each game seat, read from the game (X12), so a resumed
        game and one started from a phone map the buttons as they were recorded."""
        return [-1 if p.get("pi") else (p.get("button") or i + 1) - 1   # the Pi has none
                for i, p in enumerate(self.snap.get("players") or [])]

    def _game_seat(self, button: int | None) -> int | None:
        return self.buttons.index(button) if button in self.buttons else None
