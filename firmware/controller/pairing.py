"""The box's side of pairing phones (a mixin of Controller): Menu -> "Pair a phone", a press
of the player's seat button, and the six-digit code the phone types; Menu -> "Phones" lists
the paired phones by seat button and unpairs them. The phone side is web/access/seat.py; the
pairings themselves are web/access/phones.py's `Pairings`, handed in as `self.pairings`."""

from __future__ import annotations

from typing import Any

from PIL import Image

from companion.buttons import colour_of
from companion.errors import ParlourError
from firmware.oled import screens
from firmware.oled.views import player_name
from firmware.pins.inputs import InputEvent

PAIR_TRANSITIONS: dict[tuple[str, str], str] = {
    ("pair_pick", "seat"): "offer_code", ("pair_pick", "ignored"): "offer_code",
    ("pair_pick", "press"): "to_home", ("pair_pick", "hold"): "to_home",
    ("pair_pick", "menu"): "to_home", ("pair_pick", "undo"): "to_home",
    ("pair_code", "press"): "leave_code", ("pair_code", "hold"): "leave_code",
    ("pair_code", "menu"): "leave_code", ("pair_code", "undo"): "leave_code",
    ("phones", "turn"): "move_phones", ("phones", "press"): "pick_phones",
    ("phones", "hold"): "to_home", ("phones", "menu"): "to_home", ("phones", "undo"): "to_home",
}
PAIR_SCREENS = ("pair_pick", "pair_code", "phones")
CODE_RAN_OUT = "The pairing code ran out: Menu, Pair a phone, for a new one"


class PhoneScreens:
    """Pairing screens and their inputs; Controller provides screen, back_from_menu(), show_flash ..."""

    pairings: Any                          # all set by Controller.__init__
    phones_index: int                      # the Phones screen's row
    _paired_note: int | None               # a pairing made, from the web's thread
    _code_shown: str                       # the pairing code's seconds left, as drawn

    def phone_menu_items(self) -> list[str]:
        if self.pairings is None:
            return []
        return ["Pair a phone"] + (["Phones"] if self.pairings.paired() else [])

    def pick_phone_item(self, item: str) -> bool:
        """A menu item of the phones' own, if it is one."""
        if item == "Pair a phone":
            self.screen = "pair_pick"
        elif item == "Phones":
            self.phones_index, self.screen = 0, "phones"
        else:
            return False
        return True

    def notice_paired(self, button: int) -> None:
        """Any thread: a phone typed the code for `button`."""
        with self._lock:                            # Controller's: changes from elsewhere
            self._paired_note = button
        if self.wake is not None:
            self.wake()

    def phones_update(self) -> None:
        """In `update`: a pairing made, or a code that ran out, is said and left."""
        with self._lock:
            paired, self._paired_note = self._paired_note, None
        if paired is not None:
            if self.screen == "pair_code":
                self.screen = self.back_from_menu()
                self._sync_controls()               # the turn's seat button lit again
            self.show_flash(self._paired_words(paired), 3.0)
        elif self.screen == "pair_code":
            offered = self.pairings.offered() if self.pairings is not None else None
            if offered is None:
                self.screen = self.back_from_menu()
                self._sync_controls()
                self.show_refusal(CODE_RAN_OUT)     # wrong codes never void it
            elif f"{int(offered[2])}" != self._code_shown:
                self.dirty = True                   # the seconds left, once a second

    def _paired_words(self, button: int) -> str:
        """"Phone paired with Blue (2): Ann", or that no one plays that seat in the game up
        (the phone says so too; a pairing is for every game to come)."""
        words = f"Phone paired with {self._button_words(button)}"
        if not self._active():
            return words
        seat = self._game_seat(button - 1)
        if seat is None:
            return f"{words}: no one plays it in this game"
        name = player_name(self.snap, seat)          # "Red (1): Red" says nothing more
        return words if name == colour_of(self.colours, button).name else f"{words}: {name}"

    def _button_words(self, button: int) -> str:
        return f"{colour_of(self.colours, button).name} ({button})"

    # -- inputs -------------------------------------------------------------------------

    def on_offer_code(self, event: InputEvent) -> None:
        if event.seat is None or self.pairings is None:
            return
        self.pairings.offer(event.seat + 1)
        self.screen = "pair_code"

    def on_leave_code(self, event: InputEvent) -> None:
        if self.pairings is not None:
            self.pairings.withdraw()                # a code no one is reading is void
        self.screen = self.back_from_menu()

    def _phone_rows(self) -> list[tuple[str, int | None]]:
        counts = self.pairings.paired() if self.pairings is not None else {}
        rows = [(f"{self._button_words(b)}: {n} phone{'s' if n != 1 else ''}", b)
                for b, n in counts.items()]
        return rows + [("Back", None)]

    def on_move_phones(self, event: InputEvent) -> None:
        rows = self._phone_rows()
        self.phones_index = max(0, min(len(rows) - 1, self.phones_index + event.detents))

    def on_pick_phones(self, event: InputEvent) -> None:
        rows = self._phone_rows()
        words, button = rows[min(self.phones_index, len(rows) - 1)]
        if button is None:
            self.screen = self.back_from_menu()
            return
        self._ask(f"Unpair the phones of seat {self._button_words(button)}? They must pair "
                  "again to play from the phone.", "unpair", button)

    def unpair(self, button: int) -> None:
        """The confirm screen's yes to "unpair"."""
        try:
            gone = self.pairings.unpair_button(button)
        except ParlourError as err:                 # a full card: still paired, said so
            self.show_refusal(str(err))
            return
        self.show_flash(f"Unpaired {gone} phone{'s' if gone != 1 else ''}", 3.0)

    # -- screens ------------------------------------------------------------------------

    def draw_pair_pick(self) -> Image.Image:
        return screens.message("Pair a phone", "Seat button?",
                               "the phone's player presses their own")

    def draw_pair_code(self) -> Image.Image:
        offered = self.pairings.offered() if self.pairings is not None else None
        if offered is None:
            return screens.message("Pair a phone", "No code", "press the knob")
        button, code, left = offered
        self._code_shown = f"{int(left)}"
        player = next((p.get("name") for p in self.snap.get("players") or []
                       if p.get("button") == button and not p.get("pi")), None)
        # whose phone: the seat's player where a game has one, unless the name would take the
        # code's big type and the seconds left from the screen
        shown = f"{code[:3]} {code[3:]}"
        small = f"type it on {player}'s phone ({int(left)} s)"
        if not player or len(screens.message_lines(shown, small)[1]) > 2:
            small = f"type it on that phone ({int(left)} s)"
        self.pager.text = [f"Pair: {self._button_words(button)}", shown, small]
        return screens.message(*self.pager.text)

    def draw_phones(self) -> Image.Image:
        rows = self._phone_rows()
        return screens.choice_list("Paired phones", [w for w, _ in rows],
                                   min(self.phones_index, len(rows) - 1))
