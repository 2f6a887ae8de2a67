"""The box's controller: its state, each input run through the input table (transitions.py),
changes made elsewhere applied on the main loop, the timers of notices and screens, and the
armed seat buttons (see the package's docstring for the screens and the mixins)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from companion.buttons import DEFAULT_COLOURS, ButtonColour, colour_of
from companion.errors import ParlourError
from companion.games import GAMES
from companion.rulebook import Rulebook
from firmware.controller.drawing import BoxDrawing, state_mark
from firmware.controller.elsewhere import ChangesFromElsewhere
from firmware.controller.holds import AgainGuard, Holds
from firmware.controller.parts.late import LateInputs
from firmware.controller.menu import MENU_LOOKS, MenuScreens
from firmware.controller.parts.missed import MissedChanges
from firmware.controller.new_game import NewGameScreens
from firmware.controller.parts.notices import NoticeBoard, Notices, reading_seconds
from firmware.controller.pairing import PhoneScreens
from firmware.controller.play_inputs import PlayInputs
from firmware.controller.parts.pager import Pager
from firmware.controller.parts.result import HeldChange, ResultScreen
from firmware.controller.spin import PAGED, SpinScreens
from firmware.controller.parts.start_codes import StartCodes
from firmware.controller.transitions import TRANSITIONS, TURN_CLEARS, handler_name
from firmware.oled.animation import FPS, Animation
from firmware.oled.names import drawable, for_the_box, names_for_the_box, seat_button
from firmware.oled.screens import FLASH_SECONDS
from firmware.oled.views import box_words, refusal_text
from firmware.pins.inputs import InputEvent
from firmware.workers.pi_worker import PiWorker, pi_level

RESUMED_SECONDS = 5.0
CHANGED_MEANWHILE = "Not done: the game changed meanwhile. Go back to the game to see how."
PLAYING = ("play", "spin", "result", "resumed")
PASSED_KEPT = 12         # snapshots kept between two frames, to head each mover of a change


class Controller(ChangesFromElsewhere, PlayInputs, NewGameScreens, SpinScreens, MenuScreens,
                 BoxDrawing, PhoneScreens, Notices, Holds):
    """Owns what the OLED shows and which seat buttons are armed."""

    def __init__(self, session, *, controls=None, seats: int = 6, url: str = "",
                 pin: str = "", clock: Callable[[], float] = time.monotonic,
                 games: dict[str, Rulebook] | None = None,
                 colours: Sequence[ButtonColour] = DEFAULT_COLOURS):
        self.session = session
        self.controls = controls
        self.seats = seats
        self.colours = list(colours)     # button n's colour: players' default names (X12)
        self.pin = pin
        self.clock = clock
        self.games = list((games or GAMES).values())
        self.snap: dict[str, Any] = self._for_box(session.snapshot())
        self.screen = "resumed" if session.resumed and self._active() else "start"
        self.game_index = 0
        self.joined = [False] * seats
        self.joining = False               # a game being set up here: the menu comes back to it
        self.seat_named = ""               # the join screen's "Seat 2 is Ann": a roster name taken
        self._last_end_told = False        # the newest game's end after a restart, said once
        self.missed = MissedChanges()      # changes from elsewhere under another screen
        self.menu_items: list[str] = []
        self.menu_index = 0
        self.left_for_menu: tuple[str, str, int, float] | None = None   # the menu's way back
        self.scores_page = 0
        self.choice_index = 0
        self.confirm: tuple[str, str, Any] | None = None     # (question, action, detail)
        self.confirm_yes = False
        self.declare_index = 0
        self.dice_index = 0
        self.animation: Animation | None = None
        self.result = ResultScreen(clock, until=self.clock() + RESUMED_SECONDS
                                   if self.screen == "resumed" else 0.0)    # the result up
        self.held_change = HeldChange()                   # a change to show once it is read
        self.notice = NoticeBoard(clock)                  # the notice over the screen
        self.late = LateInputs(clock)    # inputs meant for the screen just before
        self.input_kind = ""             # the input being handled (which notices take a press)
        self.input_seat: int | None = None    # and its seat button, if one
        self.again_guard: AgainGuard | None = None      # a press too soon to be a choice
        self.shown_mark: str | None = None   # the game's state last drawn (`state_mark`)
        self.changes_put_up = 0          # changes from elsewhere shown (`_show_change`)
        self.pager = Pager(clock)                         # the pages of the screen's text
        self.dirty = True
        self._armed: tuple | None = None
        self._pending: dict[str, Any] | None = None
        self._passed: list[dict[str, Any]] = []    # snapshots a newer replaced before `update`
        self.between: list[dict[str, Any]] = []    # those of the change being applied

        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.wake: Callable[[], None] | None = None      # the runner's "something happened"
        self.pi = PiWorker(session, clock=clock)         # plays the Pi's seats, off this loop
        self.move_index, self.setups, self.setup_index = 0, [], 0
        self.to_copy: tuple[str, str] | None = None   # the Pi's move up, not yet pressed away:
                                                       # its state's mark and its words
        self._setup_told: tuple | None = None
        self.hint: dict[str, Any] | None = None          # the Domino Rex hint the menu asked for
        self.new_pin: Callable[[], str] | None = None          # the menu's "New PIN", if allowed
        self.codes = StartCodes(url, clock)                     # the start screen's codes
        self.network: Any = None             # the box's Wi-Fi (firmware/network), if it manages it
        self.address: Any = None             # firmware/network/address.py's, without network
        self.roster_index = 0                                   # the join screen's name
        self.names: dict[int, str] = {}                         # seat button -> roster name
        self.pairings: Any = None        # web.access.phones.Pairings, when the web app runs
        self.phones_index = 0                                   # the Phones screen's row
        self._paired_note: int | None = None                    # a pairing made (any thread)
        self._code_shown = ""                                   # the code's seconds, as drawn
        self._sync_controls()

    # -- the session ------------------------------------------------------------------------

    def attach(self) -> None:
        """Listen to the session so changes from the web are drawn too."""
        self._unsubscribe = self.session.subscribe(self._noticed)
        self.pi.attach()
        self.session.ask_pi = self.pi.request          # a phone's "Let the Pi move" too

    def close(self) -> None:
        self.session.ask_pi = None
        self.pi.close()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _noticed(self, snap: dict[str, Any]) -> None:
        """Any thread: remember the newest snapshot; `update` applies it on the main loop."""
        with self._lock:
            if self._pending is None or snap.get("version", 0) >= self._pending.get("version", 0):
                if self._pending is not None:        # two moves in one frame: who made each
                    self._passed = [*self._passed, self._pending][-PASSED_KEPT:]
                self._pending = snap

        if self.wake is not None:
            self.wake()

    def _for_box(self, snap: dict[str, Any]) -> dict[str, Any]:
        """The snapshot with names the OLED cannot draw shown as it can (`for_the_box`)."""
        return for_the_box(snap, self._stand_in)

    def _words_for_box(self, words: str) -> str:
        """A refusal's words with the names in them as the OLED shows them: "□□ has not spun
        yet" is "Blue has not spun yet", as the turn screen names Blue."""
        return names_for_the_box(words, self.session.snapshot()["players"], self._stand_in)

    def _stand_in(self, seat: int, player: dict[str, Any]) -> str:
        """A seat's stand-in for a name the OLED cannot draw: its button's colour, or "Seat n"
        where that cannot be drawn."""
        button = seat_button(seat, player)
        colour = colour_of(self.colours, button).name
        return colour if drawable(colour) else f"Seat {button}"

    def _active(self) -> bool:
        return self.snap.get("game") is not None

    def _rulebook(self) -> Rulebook | None:
        return GAMES.get(self.snap.get("game") or "")

    def home(self) -> str:
        if self.joining and (not self._active() or self.snap.get("phase") == "over"):
            return "join"                # the seats joined so far kept (a look at the PIN)
        if not self._active():
            return "games"
        return "over" if self.snap.get("phase") == "over" else "play"

    def _call(self, action: Callable[[], dict[str, Any]], *, on_shown: bool = True) -> bool:
        """Run a session call; a refusal flashes its reason. True if it went through. With
        `on_shown`, only on the game's state the box last drew: a phone's move that came just
        before the input, not yet on the screen, is shown instead (the input was meant for
        what was there: a throw or a capture would be made twice, an undo take back the
        phone's move)."""
        try:
            with self.session.locked():
                if on_shown and self.shown_mark is not None and \
                        self.session.mark != self.shown_mark:
                    self._not_on_shown()
                    return False
                self.snap = self._for_box(action())
                self.shown_mark = state_mark(self.snap)     # its own: shown next, as said
            self.missed.clear()                 # the box's own action comes after them
        except ParlourError as err:             # Refused, or a store that cannot be written
            self.show_refusal(refusal_text(self._words_for_box(str(err))))
            self._beep("error")
            return False
        self.dirty = True
        return True

    def _not_on_shown(self) -> None:
        """An input made on a state the game has since left: the newest is taken in (and
        shown, on the game's screens); elsewhere the box says why nothing was done."""
        self._apply(self.session.snapshot())
        self._show_waiting()                    # a change held back for reading: now
        self._beep("error")
        self.dirty = True
        if self.screen not in PLAYING + ("over", "pi_moved"):
            self.show_refusal(CHANGED_MEANWHILE)

    def _answer(self, before: dict[str, Any], heading: str, values: str = "",
                quiet: str = "", sound: str = "click") -> None:
        """Show what an accepted input recorded: the log's new lines on the result screen
        (paged), or `quiet` as a flash when it added none; a beep tells it by ear (a win
        sounds as a win whatever the input)."""
        words = [box_words(w) for w in (self.snap.get("log") or [])[len(before.get("log") or []):]]
        over = self.snap.get("phase") == "over" and before.get("phase") != "over"
        self._beep("win" if over else sound)
        if words:
            self.result.outcome = (heading, values, words)
            self._show_result()
        else:
            self.screen = self.home()
            if quiet:
                self.show_flash(quiet, FLASH_SECONDS)

    # -- input --------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """One input event: look up (screen, kind) and run its handler; unknown pairs do
        nothing. A change from elsewhere that the update puts up, or whose result went up a
        moment before (`LATE_PRESS_SECONDS`: the button went down before anyone read it),
        takes the press, seat or flick with it: the input was meant for the screen before (a
        result of a phone's move was replaced at once by the turn screen, unread), so it does
        nothing, with the error sound, as an input on a state the box has not drawn (`_call`)."""
        put_up = self.changes_put_up
        self.update()
        if event.kind in ("press", "seat", "flick") and (
                self.changes_put_up != put_up or self._change_just_shown()):
            self.result.change_read()           # the next press reads it, as ever
            self._beep("error")
            return
        if event.kind == "flick" and self._flick_picks():
            event = InputEvent("turn", detents=event.detents)
        if self.screen == "result" and self.late.meant_to_stop(event.kind):
            self._beep("error")          # another hand's, meant to stop the dial: used up,
            return                       # and nothing is held after it (`on_skip`)
        if self._only_reads(event):
            self._guard_after_reading(event)
            return
        if self._pressed_again(event):
            return
        self.input_kind, self.input_seat = event.kind, event.seat
        try:
            self._handle(event)
        finally:
            self.input_kind, self.input_seat = "", None

    def _flick_picks(self) -> bool:
        """A flick where the knob picks is a turn: a brisk twist of a heavy knob (5 detents
        at 30-40 a second) reads as a flick, which did nothing on the game list and was
        refused beside the Fox and Geese board ("No throw now"); it moves the pick by the
        detents turned. On the Pi's turn a flick is still told there is no throw."""
        if self.screen in PLAYING:
            return self.screen != "spin" and self._knob_picks() and not pi_level(self.snap)
        return (self.screen, "flick") not in TRANSITIONS and \
            (self.screen, "turn") in TRANSITIONS

    def _change_just_shown(self) -> bool:
        """The result up is a person's change from elsewhere, up for less than a moment."""
        return self.screen == "result" and self.result.change_just_up()

    def _handle(self, event: InputEvent) -> None:
        before = self._moment()
        if self.notice.text and (event.kind == "press" or
                                 event.kind == "turn" and self.screen in TURN_CLEARS):
            self._clear_notice()                 # the knob's pick must be seen: a notice goes
                                                 # (one a press only reads was taken above),
                                                 # the turn or the press acts
        if self.screen == "spin" and (self.screen, event.kind) not in TRANSITIONS:
            self._finish_spin()                  # any other input first settles the spin
        name = handler_name(self.screen, event.kind)
        if name is not None:
            getattr(self, "on_" + name)(event)
            self.dirty = True
            if self.screen not in MENU_LOOKS:
                self.left_for_menu = None        # the menu's way back: only from the menu
            self._guard_against_again(event, before)
        self._show_missed()
        self._sync_controls()
        self._tell_setup()

    def on_leave_start(self, event: InputEvent) -> None:
        self.screen = self.back_from_menu()      # the game's screen, or what the menu was
                                                 # opened over (the phone page from it)
        self._show_the_last_end()

    def on_to_home(self, event: InputEvent) -> None:
        resumed = self.screen == "resumed"
        if self.screen == "pi_moved":
            self.to_copy = None                  # pressed: copied on the board
        self.screen = self.back_from_menu() if self.screen in MENU_LOOKS else self.home()
        if resumed:
            self._show_the_last_move()

    def on_to_games(self, event: InputEvent) -> None:
        self.joining, self.screen = False, "games"

    # -- time -------------------------------------------------------------------------------

    def update(self) -> bool:
        """Apply changes from elsewhere and timers; True if a new frame should be drawn."""
        self.pi.poll()                             # a Pi thread that could not start
        with self._lock:
            pending, self._pending = self._pending, None
            self.between, self._passed = self._passed, []
        if pending is not None:
            try:
                self._apply(pending)
            finally:
                self.between = []
            self._tell_setup()                     # a game begun from a phone meanwhile
        self.phones_update()
        self._show_missed()                        # a pairing code that ran out: back home
        changed, said = self.codes.follow(self.network, self.address)
        if said:
            self.show_flash(said, reading_seconds(said))
        if changed:
            self.dirty = True
        now = self.clock()
        if self.screen == "start" and self.codes.page_due(now):
            self.dirty = True                      # the start screen's next page
        self._notice_time(now)
        if self.screen == "spin" and (self.animation is None or self.animation.done):
            # stopped by itself: a press, a seat's or a flick a moment after was meant to stop it
            self._finish_spin()
            self.late.moved_on(now, ("press", "seat", "flick"))
        if self._show_waiting(now):
            self.late.moved_on(now)             # a press meant for the result it
            self._sync_controls()               # replaced: not for the Pi's move
        self._turn_pages(now)
        last_page = self.screen != "result" or self.pager.on_last
        if self.screen in ("result", "resumed") and now >= self.result.until and last_page \
                and self.pager.read(now) and not self._waits_for_press:
            resumed, ends_turn = self.screen == "resumed", self._press_ends_turn()
            self.screen, self.dirty = self.home(), True
            if resumed:
                self._show_the_last_move()
            if not ends_turn:                # a press meant for the result: not for the turn
                self.late.moved_on(now)     # (one that ends the turn does so on either)
            self._sync_controls()
        return self.dirty or self.animating

    @property
    def animating(self) -> bool:
        return self.screen == "spin" and self.animation is not None

    def wait_time(self) -> float | None:
        """Seconds the main loop may sleep before `update` has something to do (None: until
        an input or a session change)."""
        now = self.clock()
        if self.animating or self.dirty:
            return 1 / FPS
        deadlines = [t for t in (*self.notice.deadlines(),
                                 self.result.until if self.screen in ("result", "resumed")
                                 and not self._waits_for_press else None,
                                 self.held_until
                                 if self.held_change.waiting and self.screen == "result"
                                 else None,
                                 self.pager.due()
                                 if self.screen in PAGED and self.pager.count > 1
                                 and not (self._waits_for_press
                                          and self.pager.page == self.pager.count - 1)
                                 else None,
                                 self.codes.next_page_at()
                                 if self.screen == "start" else None)
                     if t is not None]
        return max(0.0, min(deadlines) - now) if deadlines else None

    # -- controls -----------------------------------------------------------------------------

    def armed_seats(self) -> list[int] | None:
        """Seat buttons that count now: all while joining, the awaited player's in play."""
        if self.screen == "join":
            return None
        turn = self.snap.get("turn")
        rulebook = self._rulebook()
        if self.screen in PLAYING and self._active() and rulebook is not None and \
                rulebook.press_any_seat and self.snap.get("phase") == "play":
            return [b for b in self.buttons if b >= 0]     # free play: whoever scores presses
        if self.screen in PLAYING and self._active() and turn is not None \
                and turn < len(self.buttons):
            return [self.buttons[turn]]
        return []

    def _beep(self, pattern: str) -> None:
        if self.controls is not None:
            self.controls.beep(pattern)

    def _sync_controls(self) -> None:
        if self.controls is None:
            return
        armed = self.armed_seats()
        lit = [b for b, on in enumerate(self.joined) if on] if armed is None else armed
        key = (None if armed is None else tuple(armed), tuple(lit))
        if key != self._armed:
            self._armed = key
            self.controls.arm(armed)
            self.controls.light(lit)
