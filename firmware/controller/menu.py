"""The box's menu and what it leads to (a mixin of Controller): the menu itself, a question
asked before anything that cannot be taken back (confirm), who won (declare) and the scores.
Controller provides screen, snap, session, home(), show_flash, _call, _answer ..."""

from __future__ import annotations

from typing import Any

from companion.errors import ParlourError
from firmware.controller.drawing import state_mark
from firmware.controller.pairing import PAIR_SCREENS
from firmware.controller.parts.pager import PAGE_SECONDS
from firmware.oled import screens
from firmware.oled.screens import FLASH_SECONDS
from firmware.oled.views import score_rows, takes
from firmware.pins.inputs import InputEvent
from firmware.workers.odds_worker import hint_of
from firmware.workers.pi_worker import pi_level

# The screens the menu is opened over and comes back to while the game is as it was: a result
# not yet read (its instructions' "press the knob to end the turn" among them), the Pi's move
# not yet copied, "Resumed" (it leads to the last move, which no one may have seen); and the
# screens the menu leads to (Back from them goes where Back from the menu goes; the phone
# page's "press: back" too, the menu opened again from it, and a phone paired or unpaired).
LEFT_FOR_MENU = ("result", "pi_moved", "resumed")
MENU_LOOKS = ("menu", "scores", "pin", "wifi", "hint", "confirm", "declare", "start",
              *PAIR_SCREENS)


class MenuScreens:
    """Menu, confirm, declare and scores screens and their inputs."""

    menu_items: list[str]                    # all set by Controller.__init__
    menu_index: int
    confirm: tuple[str, str, Any] | None
    confirm_yes: bool
    declare_index: int
    scores_page: int
    hint: dict[str, Any] | None
    left_for_menu: tuple[str, str, int, float] | None

    def on_open_menu(self, event: InputEvent) -> None:
        if self.screen not in MENU_LOOKS:
            self.left_for_menu = None
        if self.screen in LEFT_FOR_MENU:      # what it was, on which state, its page, time left
            self.left_for_menu = (self.screen, state_mark(self.snap), self.pager.page,
                                  self.result.until - self.clock())
        self.menu_items, self.menu_index, self.screen = self._menu_now(), 0, "menu"
        self.late.close()                # a press just after is the menu's, not the result's

    def back_from_menu(self) -> str:
        """Where Back from the menu (or from what it showed) goes: the result, the Pi's move or
        "Resumed" the menu was opened over, while the game is as it was then (the result on
        its page, for the time it had left and a page's at least), else the screen of the
        game."""
        left, self.left_for_menu = self.left_for_menu, None
        if left is None or left[1] != state_mark(self.snap):
            return self.home()
        screen, _, page, time_left = left
        if screen in ("result", "resumed"):
            self.pager.turn_to(page)
            self.result.until = self.clock() + max(time_left, PAGE_SECONDS)
            self.result.at = self.clock()     # the Pi's reply held behind it: held again
        return screen

    def follow_menu(self) -> None:
        """The menu up when the game changed elsewhere (a phone set it aside, or won it):
        its items as they are now, the cursor kept on the item it was on while that is
        still there (X11: no "Undo" offered for a finished game). The hint up: worked out
        again, for the player whose turn it is now (it was the last player's advice)."""
        if self.screen == "hint":
            self.hint = None if pi_level(self.snap) else \
                (self.snap.get("odds") or {}).get("hint") or hint_of(self.session)
        if self.screen != "menu":
            return
        was = self.menu_items[self.menu_index] if self.menu_items else "Back"
        self.menu_items = self._menu_now()
        self.menu_index = self.menu_items.index(was) if was in self.menu_items else 0

    def _menu_now(self) -> list[str]:
        """The menu's items for the game as it stands."""
        if self._active() and self.snap.get("phase") != "over":
            items = ["Back", "Undo", "Scores", "New game", "Show PIN", "Phone page",
                     "Set game aside"]
            if takes(self._rulebook(), "on_declare") and self.snap.get("phase") != "lead":
                items.insert(items.index("Set game aside"), "Declare winner")   # as the phone's
                # (in the lead it was asked, confirmed, then refused)
            if self.snap.get("game") == "domino-rex" and self.snap.get("awaiting") == "choose" \
                    and not pi_level(self.snap):    # "your checker", to the Pi's seat: no
                items.insert(1, "Hint")
        elif self._active():
            items = ["Back", "Scores", "New game", "Show PIN", "Phone page"]
        else:
            items = ["Back", "New game", "Show PIN", "Phone page"]
        if self.new_pin is not None:
            items.insert(items.index("Show PIN") + 1, "New PIN")
        at = items.index("Phone page") + 1
        items[at:at] = self.phone_menu_items()
        if self.network is not None:
            items.insert(items.index("Phone page") + 1, "Wi-Fi")
        return items

    def on_move_menu(self, event: InputEvent) -> None:
        self.menu_index = max(0, min(len(self.menu_items) - 1, self.menu_index + event.detents))

    def on_pick_menu(self, event: InputEvent) -> None:
        item = self.menu_items[self.menu_index]
        self.screen = self.back_from_menu() if item == "Back" else self.home()
        if item == "Undo":
            self.on_undo(event)
        elif item == "Scores":
            self.on_show_scores(event)
        elif item == "New game":
            if self._active() and self.snap.get("phase") != "over":
                self._ask("Start a new game? This one stops here, unfinished, and stays in "
                          "the history.", "new game")
            elif self.shown_mark not in (None, self.session.mark):
                self._not_on_shown()     # won under the menu: the win first, as for Undo
            else:
                self.joining, self.screen = False, "games"
        elif item == "Show PIN":
            self.screen = "pin"
        elif item == "Hint":             # worked out once here, not on every frame drawn
            self.hint = (self.snap.get("odds") or {}).get("hint") or hint_of(self.session)
            self.screen = "hint"
        elif item == "New PIN":
            self._ask("Make a new PIN? Phones must sign in again", "new pin")
        elif item == "Phone page":
            self.screen = "start"
        elif item == "Wi-Fi":
            self.screen = "wifi"
        elif item == "Declare winner":
            self._open_declare()
        elif item == "Set game aside":
            self._ask("Set this game aside? It stays in the history, unfinished.",
                      "end game")
        else:
            self.pick_phone_item(item)

    def _ask(self, question: str, action: str, detail: Any = None) -> None:
        self.confirm, self.confirm_yes = (question, action, detail), False
        self.screen = "confirm"

    def on_move_confirm(self, event: InputEvent) -> None:
        if event.detents:
            self.confirm_yes = event.detents > 0

    def on_pick_confirm(self, event: InputEvent) -> None:
        question, action, detail = self.confirm or ("", "", None)
        self.confirm = None
        if not self.confirm_yes:                 # as Back: nothing done
            self.screen = self.back_from_menu()
            return
        self.screen = self.home()
        if action == "new pin" and self.new_pin is not None:
            try:
                self.pin, self.screen = self.new_pin(), "pin"
            except ParlourError as err:               # a full card: the old PIN stays, said so
                self.show_refusal(str(err))
        elif action == "unpair":
            self.unpair(detail)
            self.screen = self.back_from_menu()
        elif action == "declare":
            before = self.snap
            if self._call(lambda: self.session.submit({"type": "declare", "winners": detail},
                                                      by="knob")):
                self._answer(before, "Game ended")
        elif action in ("new game", "end game"):
            if self._call(lambda: self.session.abandon(by="knob")):
                self.screen = "games"
                self.show_flash("Game set aside", FLASH_SECONDS)
                self._beep("click")

    def _declare_options(self) -> list[tuple[str, list[int] | None]]:
        players = self.snap.get("players") or []
        rulebook = self._rulebook()
        shared = [] if rulebook is not None and rulebook.one_winner_declared else \
            [("All share the win", list(range(len(players))))]
        scores = [p.get("score") or 0 for p in players]
        leaders = [i for i, s in enumerate(scores) if s == max(scores, default=0) and s > 0]
        if shared and 1 < len(leaders) < len(players):        # a tie on points at the top
            shared.insert(0, (" & ".join(players[i]["name"] for i in leaders) + " share",
                              leaders))
        return [(f"{p['name']} wins", [i]) for i, p in enumerate(players)] + shared + \
            [("Back", None)]

    def _open_declare(self) -> None:
        self.declare_index, self.screen = 0, "declare"

    def on_move_declare(self, event: InputEvent) -> None:
        self.declare_index = (self.declare_index + event.detents) % len(self._declare_options())

    def on_pick_declare(self, event: InputEvent) -> None:
        """A declaration ends the game: it is asked again before it is recorded."""
        label, winners = self._declare_options()[self.declare_index]
        if winners is None:                      # as the menu's Back
            self.screen = self.back_from_menu()
            return
        self._ask(f"{label}: end the game now? It cannot be taken back.", "declare", winners)

    def on_show_scores(self, event: InputEvent) -> None:
        self.scores_page, self.screen = 0, "scores"

    def on_scroll_scores(self, event: InputEvent) -> None:
        pages = len(screens.score_pages(score_rows(self.snap)))
        self.scores_page = max(0, min(pages - 1, self.scores_page + event.detents))
