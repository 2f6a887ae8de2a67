"""The screen state machine: input events in, session calls out, a frame to draw.

    start ──press──> games ──press──> join ──press──> play <──────────────┐
      ^                ^                               │ flick            │ press / 6 s
      │ menu: phone    │ over: press                   v                  │
    menu <──hold/Menu── play, result, over, ...      spin ──done/press──> result
      │ press: undo, scores, new game, PIN, end game
      v
    scores, pin, confirm, declare ──press──> back to play (or games, or over)

`TRANSITIONS` maps (screen, input kind) to a handler; "resumed" and "result" fall back to
"play" for kinds they do not name. Refusals from the session flash on screen, never crash.
Changes made elsewhere (the web) arrive through `session.subscribe` and are applied by `update`
on the main loop's thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.errors import ParlourError
from companion.games import GAMES
from companion.rulebook import Rulebook
from firmware import card, screens
from firmware.config import WiFi
from firmware.animation import FPS, Animation
from firmware.inputs import InputEvent
from firmware.views import (choices, player_name, roll_text, score_rows, split_prompt,
                            turn_view, winners_text)

FLASH_SECONDS = 1.2          # "Not your turn"
REFUSED_SECONDS = 2.5        # a refusal's message is longer
RESULT_SECONDS = 6.0         # the result stays up this long before the turn screen
RESUMED_SECONDS = 5.0

TRANSITIONS: dict[tuple[str, str], str] = {
    ("start", "press"): "leave_start", ("start", "turn"): "leave_start",
    ("start", "hold"): "open_menu", ("start", "menu"): "open_menu",
    ("resumed", "press"): "to_home",
    ("games", "turn"): "move_game", ("games", "press"): "pick_game",
    ("games", "hold"): "open_menu", ("games", "menu"): "open_menu",
    ("join", "seat"): "join_seat", ("join", "press"): "start_game",
    ("join", "turn"): "move_roster",
    ("join", "hold"): "open_menu", ("join", "menu"): "open_menu", ("join", "undo"): "to_games",
    ("play", "flick"): "spin", ("play", "seat"): "press_seat", ("play", "ignored"): "not_yours",
    ("play", "press"): "knob_press", ("play", "turn"): "knob_turn", ("play", "undo"): "undo",
    ("play", "hold"): "open_menu", ("play", "menu"): "open_menu",
    ("spin", "press"): "skip", ("spin", "flick"): "skip",
    ("result", "press"): "to_home",
    ("over", "press"): "to_games", ("over", "turn"): "show_scores", ("over", "undo"): "undo",
    ("over", "hold"): "open_menu", ("over", "menu"): "open_menu",
    ("menu", "turn"): "move_menu", ("menu", "press"): "pick_menu", ("menu", "undo"): "undo",
    ("menu", "hold"): "to_home", ("menu", "menu"): "to_home",
    ("scores", "turn"): "scroll_scores", ("scores", "press"): "to_home",
    ("scores", "hold"): "to_home", ("scores", "menu"): "to_home",
    ("pin", "press"): "to_home", ("pin", "hold"): "to_home", ("pin", "menu"): "to_home",
    ("confirm", "turn"): "move_confirm", ("confirm", "press"): "pick_confirm",
    ("confirm", "hold"): "to_home", ("confirm", "menu"): "to_home",
    ("declare", "turn"): "move_declare", ("declare", "press"): "pick_declare",
    ("declare", "hold"): "to_home", ("declare", "menu"): "to_home",
}
FALLBACK = {"resumed": "play", "result": "play"}
PLAYING = ("play", "spin", "result", "resumed")


def takes(rulebook: Rulebook | None, move: str) -> bool:
    """True if the game overrides the move (`on_press`, `on_declare`, ...)."""
    return rulebook is not None and getattr(type(rulebook), move) is not getattr(Rulebook, move)


class Controller:
    """Owns what the OLED shows and which seat buttons are armed."""

    def __init__(self, session, *, controls=None, seats: int = 6, url: str = "",
                 pin: str = "", clock: Callable[[], float] = time.monotonic,
                 games: dict[str, Rulebook] | None = None):
        self.session = session
        self.controls = controls
        self.seats = seats
        self.url, self.pin = url, pin
        self.clock = clock
        self.games = list((games or GAMES).values())
        self.snap: dict[str, Any] = session.snapshot()
        self.screen = "resumed" if session.resumed and self._active() else "start"
        self.buttons: list[int] = list(range(seats))    # the seat button of each game seat
        self.game_index = 0
        self.joined = [False] * seats
        self.menu_items: list[str] = []
        self.menu_index = 0
        self.scores_first = 0
        self.choice_index = 0
        self.confirm: tuple[str, str] | None = None     # (question, action)
        self.confirm_yes = False
        self.declare_index = 0
        self.animation: Animation | None = None
        self.outcome = ("", "", [])                      # heading, values, words of the last spin
        self.flash_text = ""
        self.flash_until = 0.0
        self.screen_until = self.clock() + RESUMED_SECONDS if self.screen == "resumed" else 0.0
        self.dirty = True
        self._armed: tuple | None = None
        self._pending: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self._unsubscribe: Callable[[], None] | None = None
        self.wake: Callable[[], None] | None = None      # the runner's "something happened"
        self.pair_press: Callable[[int], bool] | None = None   # a seat press (1-based) for a
        #                                                        phone waiting to pair: True if used
        self.new_pin: Callable[[], str] | None = None          # the menu's "New PIN", if allowed
        self.wifi = WiFi()                                      # the start screen's Wi-Fi code
        self.roster_index = 0                                   # the join screen's name
        self.names: dict[int, str] = {}                         # seat button -> roster name
        self._pairing: str | None = None
        self._start_page = 0
        self._sync_controls()

    # -- the session ------------------------------------------------------------------------

    def attach(self) -> None:
        """Listen to the session so changes from the web are drawn too."""
        self._unsubscribe = self.session.subscribe(self._noticed)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _noticed(self, snap: dict[str, Any]) -> None:
        """Any thread: remember the newest snapshot; `update` applies it on the main loop."""
        with self._lock:
            if self._pending is None or snap.get("version", 0) >= self._pending.get("version", 0):
                self._pending = snap
        if self.wake is not None:
            self.wake()

    def _apply(self, snap: dict[str, Any]) -> None:
        old = self.snap
        if snap.get("version", 0) <= old.get("version", 0) and \
                snap.get("game_id") == old.get("game_id"):
            return
        self.snap = snap
        self.dirty = True
        if snap.get("game_id") != old.get("game_id"):
            self.buttons = list(range(self.seats))
            self.animation = None
            if snap.get("game_id") is not None:
                self.screen = self.home()
        elif (snap.get("rolls") or 0) > (old.get("rolls") or 0) and self.screen != "spin":
            self._animate(old, snap, strength=0.5)
        elif self.screen in ("play", "result", "over") or \
                (self.screen == "spin" and snap.get("rolls", 0) < old.get("rolls", 0)):
            self.animation = None
            self.screen = self.home()
        self._sync_controls()

    def notice_pairing(self, code: str) -> None:
        """Any thread: a phone asks to pair; the OLED shows its code until a seat is pressed."""
        with self._lock:
            self._pairing = code
        if self.wake is not None:
            self.wake()

    def _active(self) -> bool:
        return self.snap.get("game") is not None

    def _rulebook(self) -> Rulebook | None:
        return GAMES.get(self.snap.get("game") or "")

    def home(self) -> str:
        if not self._active():
            return "games"
        return "over" if self.snap.get("phase") == "over" else "play"

    def _call(self, action: Callable[[], dict[str, Any]]) -> bool:
        """Run a session call; a refusal flashes its reason. True if it went through."""
        try:
            self.snap = action()
        except ParlourError as err:             # Refused, or a store that cannot be written
            self.show_flash(str(err), REFUSED_SECONDS)
            self._beep("error")
            return False
        self.dirty = True
        return True

    # -- input --------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """One input event: look up (screen, kind) and run its handler; unknown pairs do nothing."""
        self.update()
        if event.kind in ("seat", "ignored") and event.seat is not None and \
                self.pair_press is not None and self.pair_press(event.seat + 1):
            self.show_flash(f"Phone paired with seat {event.seat + 1}", REFUSED_SECONDS)
            self._sync_controls()
            return
        if self.screen == "spin" and (self.screen, event.kind) not in TRANSITIONS:
            self._finish_spin()                  # any other input first settles the spin
        screen = self.screen
        name = TRANSITIONS.get((screen, event.kind))
        if name is None and screen in FALLBACK:
            name = TRANSITIONS.get((FALLBACK[screen], event.kind))
        if name is not None:
            getattr(self, "on_" + name)(event)
            self.dirty = True
        self._sync_controls()

    def on_leave_start(self, event: InputEvent) -> None:
        self.screen = self.home()

    def on_to_home(self, event: InputEvent) -> None:
        self.screen = self.home()

    def on_to_games(self, event: InputEvent) -> None:
        self.screen = "games"

    def on_move_game(self, event: InputEvent) -> None:
        self.game_index = (self.game_index + event.detents) % len(self.games)

    def on_pick_game(self, event: InputEvent) -> None:
        self.joined = [False] * self.seats
        self.names, self.roster_index = {}, 0
        self.screen = "join"

    def on_join_seat(self, event: InputEvent) -> None:
        if event.seat is not None and 0 <= event.seat < self.seats:
            self.joined[event.seat] = not self.joined[event.seat]
            name = self._roster_name()
            self.names.pop(event.seat, None)
            if self.joined[event.seat] and name and name not in self.names.values():
                self.names[event.seat] = name          # the name picked by the knob

    def _roster_name(self) -> str:
        """The roster name the knob shows on the join screen ("" for the seat's own name)."""
        names = [""] + self.session.store.roster()
        return names[self.roster_index % len(names)]

    def on_move_roster(self, event: InputEvent) -> None:
        self.roster_index = (self.roster_index + event.detents) % (
            1 + len(self.session.store.roster()))

    def on_start_game(self, event: InputEvent) -> None:
        rulebook = self.games[self.game_index]
        seats = [b for b, on in enumerate(self.joined) if on]
        names = [self.names.get(b) or f"Player {b + 1}" for b in seats]
        if self._call(lambda: self.session.new_game(rulebook.id, names, by="knob")):
            self.buttons = seats
            self.screen = self.home()

    def on_spin(self, event: InputEvent) -> None:
        before = self.snap
        rulebook = self._rulebook()
        if before.get("awaiting") == "next" and takes(rulebook, "on_next"):
            # X8: in an assisted game the next player's flick ends the turn, then spins
            if not self._call(lambda: self.session.submit({"type": "next"}, by="knob")):
                return
            if self.snap.get("awaiting") != "roll":
                self.screen = self.home()
                return
            before = self.snap
        if self._call(lambda: self.session.roll(by="knob")):
            self._animate(before, self.snap, strength=event.strength)

    def _animate(self, before: dict[str, Any], after: dict[str, Any], strength: float) -> None:
        roll = after.get("last_roll") or {}
        seat = roll.get("seat", before.get("turn"))
        name = player_name(after, seat)
        randomizer = before.get("randomizer") or after.get("randomizer")
        self.animation = Animation(randomizer, roll.get("values") or [], strength=strength,
                                   name=name, clock=self.clock)
        words = list(after.get("log") or [])[len(before.get("log") or []):]
        _, instruction = split_prompt(after.get("prompt") or "")
        if after.get("turn") == seat and after.get("awaiting") not in ("roll", None) \
                and instruction:
            words = [instruction] + words[1:]     # what this spin allows (assisted games)
        elif len(words) > 1 and words[0].startswith(name):
            words = words[1:]                     # the first line restates the spin
        verb = "throws" if (randomizer or {}).get("kind") == "dice" else "spins"
        self.outcome = (f"{name} {verb}", roll_text(after, randomizer), words)
        self.screen = "spin"

    def on_skip(self, event: InputEvent) -> None:
        self._finish_spin()

    def _finish_spin(self) -> None:
        if self.animation is not None:
            self.animation.skip()
        self.animation = None
        self.screen = "result"
        self.screen_until = self.clock() + RESULT_SECONDS
        self.dirty = True

    def on_press_seat(self, event: InputEvent) -> None:
        seat = self._game_seat(event.seat)
        if seat is None:
            return
        if takes(self._rulebook(), "on_press"):
            if self._call(lambda: self.session.submit({"type": "press", "seat": seat},
                                                      by=f"seat {event.seat}")):
                self.screen = self.home()
        elif self.snap.get("awaiting") == "roll":
            self.show_flash("Flick the knob to spin", FLASH_SECONDS)

    def on_not_yours(self, event: InputEvent) -> None:
        self.show_flash("Not your turn", FLASH_SECONDS)
        self._beep("error")

    def on_knob_press(self, event: InputEvent) -> None:
        awaiting = self.snap.get("awaiting")
        if awaiting in ("next", "roll") and takes(self._rulebook(), "on_next"):
            if self._call(lambda: self.session.submit({"type": "next"}, by="knob")):
                self.screen = self.home()
        elif awaiting == "choose":
            value = self._choices()[self.choice_index % len(self._choices())]
            if self._call(lambda: self.session.submit({"type": "choose", "value": value},
                                                      by="knob")):
                self.choice_index = 0
                self.screen = self.home()
        elif awaiting == "declare":
            self._open_declare()
        elif awaiting == "roll":
            self.show_flash("Flick the knob to spin", FLASH_SECONDS)

    def on_knob_turn(self, event: InputEvent) -> None:
        if self.snap.get("awaiting") == "choose":
            self.choice_index = (self.choice_index + event.detents) % len(self._choices())
            self.screen = "play"

    def _choices(self) -> list[int]:
        return choices(self.snap)

    def on_undo(self, event: InputEvent) -> None:
        self.animation = None
        if self._call(lambda: self.session.undo(by="undo")):
            self.screen = self.home()

    def on_open_menu(self, event: InputEvent) -> None:
        if self._active() and self.snap.get("phase") != "over":
            items = ["Back", "Undo", "Scores", "New game", "Show PIN", "Phone page", "End game"]
        elif self._active():
            items = ["Back", "Scores", "New game", "Show PIN", "Phone page"]
        else:
            items = ["Back", "New game", "Show PIN", "Phone page"]
        if self.new_pin is not None:
            items.insert(items.index("Show PIN") + 1, "New PIN")
        self.menu_items, self.menu_index, self.screen = items, 0, "menu"

    def on_move_menu(self, event: InputEvent) -> None:
        self.menu_index = max(0, min(len(self.menu_items) - 1, self.menu_index + event.detents))

    def on_pick_menu(self, event: InputEvent) -> None:
        item = self.menu_items[self.menu_index]
        self.screen = self.home()
        if item == "Undo":
            self.on_undo(event)
        elif item == "Scores":
            self.on_show_scores(event)
        elif item == "New game":
            if self._active() and self.snap.get("phase") != "over":
                self._ask("Start a new game? This one is set aside", "new game")
            else:
                self.screen = "games"
        elif item == "Show PIN":
            self.screen = "pin"
        elif item == "New PIN":
            self._ask("Make a new PIN? Phones must sign in again", "new pin")
        elif item == "Phone page":
            self.screen = "start"
        elif item == "End game":
            if takes(self._rulebook(), "on_declare"):
                self._open_declare()
            else:
                self._ask("End this game? It is set aside", "end game")

    def _ask(self, question: str, action: str) -> None:
        self.confirm, self.confirm_yes, self.screen = (question, action), False, "confirm"

    def on_move_confirm(self, event: InputEvent) -> None:
        if event.detents:
            self.confirm_yes = event.detents > 0

    def on_pick_confirm(self, event: InputEvent) -> None:
        if self.confirm_yes and self.confirm is not None and self.confirm[1] == "new pin":
            self.pin, self.screen = self.new_pin(), "pin"
        elif self.confirm_yes and self.confirm is not None:   # "new game" or "end game"
            self._call(lambda: self.session.abandon(by="knob"))
            self.screen = "games"
        else:
            self.screen = self.home()
        self.confirm = None

    def _declare_options(self) -> list[tuple[str, list[int]]]:
        players = self.snap.get("players") or []
        return [(f"{p['name']} wins", [i]) for i, p in enumerate(players)] + \
            [("All share", list(range(len(players))))]

    def _open_declare(self) -> None:
        self.declare_index, self.screen = 0, "declare"

    def on_move_declare(self, event: InputEvent) -> None:
        self.declare_index = (self.declare_index + event.detents) % len(self._declare_options())

    def on_pick_declare(self, event: InputEvent) -> None:
        _, winners = self._declare_options()[self.declare_index]
        self.screen = self.home()
        if self._call(lambda: self.session.submit({"type": "declare", "winners": winners},
                                                  by="knob")):
            self.screen = self.home()

    def on_show_scores(self, event: InputEvent) -> None:
        self.scores_first, self.screen = 0, "scores"

    def on_scroll_scores(self, event: InputEvent) -> None:
        rows = len(score_rows(self.snap))
        self.scores_first = max(0, min(max(0, rows - 4), self.scores_first + event.detents))

    def _game_seat(self, button: int | None) -> int | None:
        return self.buttons.index(button) if button in self.buttons else None

    # -- time -------------------------------------------------------------------------------

    def show_flash(self, words: str, seconds: float) -> None:
        self.flash_text, self.flash_until = words, self.clock() + seconds
        self.dirty = True

    def update(self) -> bool:
        """Apply changes from elsewhere and timers; True if a new frame should be drawn."""
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            self._apply(pending)
        with self._lock:
            pairing, self._pairing = self._pairing, None
        if pairing is not None:
            self.show_flash(f"Phone {pairing}: press your seat button", 30.0)
        now = self.clock()
        if self.screen == "start" and self.wifi.ssid and \
                int(now // card.PAGE_SECONDS) != self._start_page:
            self.dirty = True                      # the start screen's next page
        if self.flash_text and now >= self.flash_until:
            self.flash_text, self.dirty = "", True
        if self.screen == "spin" and (self.animation is None or self.animation.done):
            self._finish_spin()
        if self.screen in ("result", "resumed") and now >= self.screen_until:
            self.screen, self.dirty = self.home(), True
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
        deadlines = [t for t in (self.flash_until if self.flash_text else None,
                                 self.screen_until if self.screen in ("result", "resumed")
                                 else None,
                                 (self._start_page + 1) * card.PAGE_SECONDS
                                 if self.screen == "start" and self.wifi.ssid else None)
                     if t is not None]
        return max(0.0, min(deadlines) - now) if deadlines else None

    # -- controls -----------------------------------------------------------------------------

    def armed_seats(self) -> list[int] | None:
        """Seat buttons that count now: all while joining, the awaited player's in play."""
        if self.screen == "join":
            return None
        turn = self.snap.get("turn")
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

    # -- drawing ------------------------------------------------------------------------------

    def render(self) -> Image.Image:
        """The frame for the current screen (with a flash on top while one shows)."""
        self.dirty = False
        image = getattr(self, "draw_" + self.screen)()
        return screens.flash(image, self.flash_text) if self.flash_text else image

    def view(self) -> dict[str, Any]:
        """What the screen says, in words (for tests and logs)."""
        out: dict[str, Any] = {"screen": self.screen, "flash": self.flash_text}
        if self.screen in ("play", "resumed"):
            out["turn"] = turn_view(self.snap)
        if self.screen == "result":
            out["result"] = self.outcome
        return out

    def draw_start(self) -> Image.Image:
        pages = card.start_pages(self.url, self.wifi, lambda note: screens.startup(
            self.url, self.pin, note))
        self._start_page = int(self.clock() // card.PAGE_SECONDS)
        return pages[self._start_page % len(pages)]

    def draw_resumed(self) -> Image.Image:
        name, _ = split_prompt(self.snap.get("prompt") or "")
        return screens.message("Resumed", self.snap.get("title") or "",
                               f"{name} to play" if name else self.snap.get("prompt") or "")

    def draw_games(self) -> Image.Image:
        rb = self.games[self.game_index]
        span = str(rb.min_players) if rb.min_players == rb.max_players else \
            f"{rb.min_players}-{rb.max_players}"
        dice = rb.randomizer.name if rb.randomizer else "no dice"
        return screens.game_menu([g.title for g in self.games], self.game_index,
                                 f"{span} players · {dice}")

    def draw_join(self) -> Image.Image:
        rb = self.games[self.game_index]
        n = sum(self.joined)
        hint = "press knob to start" if rb.min_players <= n <= rb.max_players else \
            f"{rb.min_players}" + (f"-{rb.max_players}" if rb.max_players > rb.min_players
                                   else "") + " players"
        name = self._roster_name()
        if name:
            hint = f"next to join: {name}"
        return screens.joining(rb.title, self.joined, hint)

    def draw_play(self) -> Image.Image:
        view = turn_view(self.snap)
        if self.snap.get("awaiting") == "choose":
            options = self._choices()
            return screens.choose(view, str(options[self.choice_index % len(options)]))
        return screens.turn(view)

    def draw_spin(self) -> Image.Image:
        if self.animation is None:
            return self.draw_result()
        return screens.spin(self.animation.frame())

    def draw_result(self) -> Image.Image:
        heading, values, words = self.outcome
        return screens.result(heading, values, words)

    def draw_over(self) -> Image.Image:
        who, verb = winners_text(self.snap)
        return screens.game_over(self.snap.get("title") or "", who, verb, "press: new game")

    def draw_menu(self) -> Image.Image:
        return screens.menu(self.menu_items, self.menu_index)

    def draw_scores(self) -> Image.Image:
        return screens.scores(self.snap.get("title") or "Scores", score_rows(self.snap),
                              self.scores_first)

    def draw_pin(self) -> Image.Image:
        return screens.message("Table PIN", self.pin or "none", "for control from a phone")

    def draw_confirm(self) -> Image.Image:
        question = self.confirm[0] if self.confirm else ""
        return screens.choice_list(question, ["No", "Yes"], int(self.confirm_yes))

    def draw_declare(self) -> Image.Image:
        options = [label for label, _ in self._declare_options()]
        return screens.choice_list("End: who won?", options, self.declare_index)
