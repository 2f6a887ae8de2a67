"""What the OLED shows for each screen of the box (a mixin of Controller): `render` draws the
current screen (`draw_<screen>`) with a flash on top, `view` says it in words for tests and
logs. Drawing reads the controller's state and never changes the game."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image

from firmware.oled import board_screen, lettering, screens
from firmware.oled.views import (RANDOMIZERS, box_words, choice_meaning, chooses_randomizer,
                                 final_points, game_detail, player_name, player_names,
                                 score_rows, span_at_box, split_prompt, turn_view,
                                 winners_text)
from firmware.workers.pi_worker import pi_level, pi_setups

# Games whose standing is all on the board (India: the box keeps no place, chip or score),
# and what their Scores screen says instead of a "-" a player
BOARD_ONLY = ("india",)
NO_SCORE = ("No score kept", "the men on the board show who leads")


def state_mark(snap: dict[str, Any]) -> str:
    """The game's state as the session names it (`Session.mark`): "<boot>:<state_version>";
    chances coming in do not change it, any move or new game does."""
    return f"{snap.get('boot')}:{snap.get('state_version')}"

OVER_FEET = ("press: new game", "turn: all scores")   # the end screen's foot, in turn
START_FOOT = "press knob to start"     # the last choices before a game begins


class BoxDrawing:
    """The frame and the words of every box screen; Controller provides its state."""

    def render(self) -> Image.Image:
        """The frame for the current screen (with a flash on top while one shows)."""
        self._turn_pages(self.clock())
        self.dirty = False
        self.pager.blank()
        image = getattr(self, "draw_" + self.screen)()
        if not self.held_change.waiting and not self.missed.waiting:   # the game as players see it
            self.shown_mark = state_mark(self.snap)
        return self.notice.over(image)

    def view(self) -> dict[str, Any]:
        """What the screen says, in words (for tests and logs)."""
        snap = self.snap
        out: dict[str, Any] = {"screen": self.screen, "flash": self.notice.text,
                               "page": self.pager.page, "pages": self.pager.count,
                               "text": list(self.pager.text),
                               # the state drawn from: every surface says which it shows
                               "state": {key: snap.get(key) for key in (
                                   "boot", "version", "state_version", "game_id", "phase",
                                   "turn", "awaiting")},
                               "pi": {"seen": self.pi.seen_version, "thinking": self.pi.thinking},
                               "shown": self.shown_mark}     # what its inputs act on
        if self.screen in ("play", "resumed"):
            out["turn"] = turn_view(self.snap)
        if self.screen == "result":
            out["result"] = self.result.outcome
        if self.held_change.waiting:             # a newer change, shown once this is read
            out["waiting"] = self.held_change.newest.get("version")
        if self.screen == "menu":
            out["menu"] = {"items": list(self.menu_items), "index": self.menu_index}
        if self.screen == "declare":
            out["declare"] = {"options": [label for label, _ in self._declare_options()],
                              "index": self.declare_index}
        if self.screen == "pair_code" and self.pairings is not None and self.pairings.offered():
            out["pair_code"] = self.pairings.offered()[1]      # as the OLED shows it
        return out

    def draw_start(self) -> Image.Image:
        """The phone page's codes; opened from the menu during a game, the press goes back to
        it, and says so ("press knob" alone did not say what it would do)."""
        return self.codes.frame(self.pin, self.network,
                                "press: back" if self.home() != "games" else "")

    def draw_resumed(self) -> Image.Image:
        name, _ = split_prompt(self.snap.get("prompt") or "", player_names(self.snap))
        return screens.message("Resumed", self.snap.get("title") or "", f"{name} to play"
                               if name else box_words(self.snap.get("prompt") or ""))

    def draw_games(self) -> Image.Image:
        rb = self.games[self.game_index]
        return screens.game_menu([g.title for g in self.games], self.game_index,
                                 game_detail(rb, chooses_randomizer(rb), self.seats))

    def draw_dice(self) -> Image.Image:
        return screens.choice_list(f"{self.games[self.game_index].title}: dice",
                                   [label for label, _ in RANDOMIZERS], self.dice_index,
                                   START_FOOT)

    def draw_join(self) -> Image.Image:
        rb = self.games[self.game_index]
        n = sum(self.joined)
        _, name = self._roster_pick()                       # as the OLED can draw it
        if name:
            hint = "joins: press a seat"
        elif rb.min_players <= n <= rb.max_players:          # the press asks about the Pi
            hint = "press: Pi or no Pi" if len(pi_setups(rb, n)) > 1 else START_FOOT
        elif n > rb.max_players:          # said, with the way out, before a press is refused
            ask = f"{n - rb.max_players} too many: max {rb.max_players}"
            return screens.joining(rb.title, self.joined, "press a seat to leave", ask=ask)
        elif any(seats for _, seats, _ in pi_setups(rb, n)):   # the Pi makes up the table
            hint = "press: play the Pi"
        else:
            hint = f"{span_at_box(rb, self.seats)} players"
        return screens.joining(rb.title, self.joined, hint, name or self.seat_named)

    def draw_play(self) -> Image.Image:
        if pi_level(self.snap) or self.snap.get("awaiting") == "move":
            if "board" in self.snap:                  # the words beside the board, as drawn
                lines = board_screen.playing_lines(self.snap, self.pi.thinking) \
                    if pi_level(self.snap) else board_screen.choosing_lines(self.snap,
                                                                             self.move_index)
                self.pager.text = [words for words, _ in lines]
            else:                                     # the Pi's turn in Domino Rex
                self.pager.text = board_screen.pi_message(self.pi.thinking,
                                                          board_screen.pi_name(self.snap))
            return board_screen.playing(self.snap, self.move_index, self.pi.thinking)
        view = turn_view(self.snap)
        if self.snap.get("awaiting") == "choose":
            options = self._choices()
            value = options[self.choice_index % len(options)]
            meaning = choice_meaning(self.snap, value)
            self.pager.text = [view.name, str(value), meaning]
            return screens.choose(view, str(value), meaning)
        paged = screens.turn_pages(view)
        self.pager.go_round(max(1, len(paged)))
        page = self.pager.page
        self.pager.text = ([view.name] if page == 0 else screens.later_name_lines(view)) + \
            (paged[page] if paged else [view.action, view.detail])
        return screens.turn(view, page)

    def draw_spin(self) -> Image.Image:
        if self.animation is None:
            return self.draw_result()
        return screens.spin(self.animation.frame())

    def draw_result(self) -> Image.Image:
        heading, values, words = self.result.outcome
        names = player_names(self.snap)
        shown, small, paged = screens.result_layout(heading, values, words, names)
        self.pager.stop_at_last(len(paged))
        page = self.pager.page
        if self.result.instructs and self.pager.on_last:
            self.result.read_roll = self.roll_key()
        self.pager.text = [shown] + ([small] if page == 0 and small else []) + paged[page]
        return screens.result(heading, values, words, page, names)

    def draw_over(self) -> Image.Image:
        who, verb = winners_text(self.snap)
        points = final_points(self.snap)
        if lettering.width(points, lettering.SMALL) > lettering.W - 2:
            points = ""                           # "share the win, 1045 pts": the scores say
        scored = points and self.snap.get("game") != "fox-and-geese"     # F3: no points
        # both of the knob's ways where scores are kept, in turn ("turn: all scores" alone
        # never said that a press begins the next game; "turn=scores press=new" read as code)
        feet = len(OVER_FEET) if scored else 1
        names = screens.game_over_pages(who)      # long names sharing a win: paged
        self.pager.count = math.lcm(feet, max(1, len(names)))
        page = self.pager.page
        foot = OVER_FEET[page % feet]
        self.pager.text = [*(names[page % len(names)] if names else [who]), points or verb,
                           foot]
        return screens.game_over(who, points or verb, foot, page)

    def draw_menu(self) -> Image.Image:
        return screens.menu(self.menu_items, self.menu_index)

    def draw_scores(self) -> Image.Image:
        rows = score_rows(self.snap)
        title = self.snap.get("title") or "Scores"
        if self.snap.get("game") in BOARD_ONLY:          # nothing counted here: "-" each
            said = NO_SCORE
            if self.snap.get("phase") == "over" and self.snap.get("winners"):
                who, verb = winners_text(self.snap)      # not "... show who leads" once won
                said = (NO_SCORE[0], f"{who} {'won' if verb == 'wins!' else 'shared the win'}")
            self.pager.text = [title, *said]
            return screens.message(title, *said)
        pages = screens.score_pages(rows)
        self.pager.text = [words for words, _, _ in pages[min(self.scores_page, len(pages) - 1)]]
        return screens.scores(title, rows, self.scores_page)

    def draw_hint(self) -> Image.Image:
        advice = (self.snap.get("odds") or {}).get("hint") or self.hint
        if not advice:
            return screens.message("Hint", "No hint", "only when a square is to be uncovered")
        action, _, why = advice["text"].partition(": ")
        who = player_name(self.snap, self.snap.get("turn"))     # the hint is for the turn's
        heading = f"Hint for {who}" if who and lettering.width(
            f"Hint for {who}", lettering.SMALL) <= lettering.W - 2 else "Hint"
        self.pager.text = [heading, action.capitalize(), why]  # in words, as drawn
        return screens.message(heading, action.capitalize(), why)

    def draw_wifi(self) -> Image.Image:
        status = self.network.status() if self.network is not None else {}
        hotspot = status.get("hotspot") or {}
        if status.get("mode") == "hotspot":
            return screens.message(f"Wi-Fi {hotspot.get('ssid', '')}",
                                   hotspot.get("password", ""), "password, then open "
                                   + status.get("url", "").split("://")[-1].rstrip("/"))
        if status.get("mode") == "joining":        # not the hotspot's name, as if on it
            said = status.get("message") or "Joining"
            back = f"if it fails: back to {hotspot.get('ssid', '')}"
            name = said.removeprefix("Joining ")
            if screens.message_whole(said, back) or name == said:
                return screens.message("Wi-Fi", said, back)
            return screens.message("Wi-Fi: joining", name, back)       # a long name, whole
        if status.get("mode") == "home":
            name = (status.get("network") or "").removeprefix("Parlour: ")
            return screens.message("Wi-Fi", name or "Joining",
                                   "add networks on the phone page")
        return screens.message("Wi-Fi", "Looking", "own hotspot if no known network answers")

    def draw_pin(self) -> Image.Image:
        return screens.message("Table PIN", self.pin or "none", "for control from a phone")

    def draw_confirm(self) -> Image.Image:
        question = self.confirm[0] if self.confirm else ""
        paged = screens.confirm_pages(question)
        self.pager.go_round(len(paged))
        self.pager.text = paged[self.pager.page]
        return screens.confirm(question, self.confirm_yes, page=self.pager.page)

    def draw_pi_setup(self) -> Image.Image:
        labels = [label for label, _, _ in self.setups]
        return screens.choice_list("The Pi plays", labels, self.setup_index, START_FOOT)

    def draw_pi_moved(self) -> Image.Image:
        if "board" not in self.snap:                 # only a board move is drawn to copy
            return self.draw_play()
        self.pager.text = [words for words, _ in board_screen.pi_moved_lines(self.snap)]
        return board_screen.pi_moved(self.snap)

    def draw_declare(self) -> Image.Image:
        options = [label for label, _ in self._declare_options()]
        return screens.choice_list("Who won?", options, self.declare_index)
