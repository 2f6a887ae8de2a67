"""Starting a game at the box (a mixin of Controller): the games list, the join screen (seat
buttons, roster names by the knob), free play's randomizer and who the Pi plays, then the new
game itself. Controller provides snap, session, screen, result, home(), _call and _beep."""

from __future__ import annotations

from typing import Any

from companion.buttons import ButtonColour, colour_of, free_button
from companion.rulebook import Rulebook
from firmware.oled.names import shown_names
from firmware.oled.views import RANDOMIZERS, chooses_randomizer, setup_words, span_at_box
from firmware.pins.inputs import InputEvent
from firmware.workers.pi_worker import pi_setups


class NewGameScreens:
    """The games, join, dice and Pi setup screens and their inputs."""

    games: list[Rulebook]                  # all set by Controller.__init__
    game_index: int
    seats: int
    joined: list[bool]
    names: dict[int, str]
    roster_index: int
    seat_named: str
    colours: list[ButtonColour]
    dice_index: int
    setups: list
    setup_index: int
    move_index: int
    _setup_told: tuple | None              # the setting up the session was last told of

    def on_move_game(self, event: InputEvent) -> None:
        self.game_index = (self.game_index + event.detents) % len(self.games)

    def on_pick_game(self, event: InputEvent) -> None:
        self.joined = [False] * self.seats
        self.names, self.roster_index, self.seat_named = {}, 0, ""
        self.joining, self.screen = True, "join"
        self.result.lead_in = []           # a phone's game over an earlier join: said or past

    def on_join_seat(self, event: InputEvent) -> None:
        """A seat in or out; a notice up ("... not 1.") goes, so the seat is seen to change
        (under it a second press, to make sure, took the player out again). A roster name
        taken is said with its seat, over the seats until the next knob turn or press (a
        notice hid the seat filling in)."""
        if event.seat is not None and 0 <= event.seat < self.seats:
            self._clear_notice()
            self.joined[event.seat] = not self.joined[event.seat]
            name, shown = self._roster_pick()
            self.names.pop(event.seat, None)
            self.seat_named = ""
            if self.joined[event.seat] and name and name not in self.names.values():
                self.names[event.seat] = name          # the name picked by the knob
                self.roster_index = 0                  # taken: the next seat is its own
                self.seat_named = f"Seat {event.seat + 1} is {shown}"   # the seats' line

    def _roster_offer(self) -> list[tuple[str, str]]:
        """What the knob offers on the join screen, each as chosen and as the OLED draws it
        (`shown_names`): "" (the seat's own name), then the roster's names the OLED can show
        (one it cannot draw at all is chosen on a phone)."""
        roster = self.session.store.roster()
        return [("", "")] + [(name, shown) for name, shown in
                             zip(roster, shown_names(roster, [None] * len(roster))) if shown]

    def _roster_names(self) -> list[str]:
        return [name for name, _ in self._roster_offer()]

    def _roster_pick(self) -> tuple[str, str]:
        """The roster name the knob shows on the join screen, as chosen and as drawn."""
        offer = self._roster_offer()
        return offer[self.roster_index % len(offer)]

    def _roster_name(self) -> str:
        """The roster name the knob shows ("" for the seat's own name)."""
        return self._roster_pick()[0]

    def on_move_roster(self, event: InputEvent) -> None:
        """The knob steps through the roster's names not yet taken ("" : the seat's own)."""
        names = self._roster_names()
        taken = set(self.names.values())
        self.seat_named = ""                           # the knob's pick in its place
        step = 1 if event.detents > 0 else -1
        for _ in range(abs(event.detents)):
            index = (self.roster_index + step) % len(names)
            while names[index] in taken:
                index = (index + step) % len(names)
            self.roster_index = index

    def on_start_game(self, event: InputEvent) -> None:
        rulebook = self.games[self.game_index]
        humans = sum(self.joined)
        if humans > rulebook.max_players:          # the rules' words, and the way out here
            span = span_at_box(rulebook, self.seats, " to ")
            self.show_refusal(f"{rulebook.title} is for {span} players, "
                              f"not {humans}. "
                              "Press a seat button again to take it out.")
            self._beep("error")
            return
        if rulebook.pi_seats and self.screen != "pi_setup":      # who the Pi plays, how well
            self.setups, self.setup_index = pi_setups(rulebook, humans), 0
            if len(self.setups) > 1:
                self.screen = "pi_setup"
                return
        if self.screen == "pi_setup":
            _, pi, level = self.setups[self.setup_index]
            self._start(rulebook, None, pi, level)
            return
        if humans < rulebook.min_players:           # and what to do about it
            span = span_at_box(rulebook, self.seats, " to ")
            self.show_refusal(f"{rulebook.title} is for {span} players"
                              + (f", not {humans}. Each other player presses their seat button."
                                 if humans else ": each presses their seat button to join."))
            self._beep("error")
            return
        if chooses_randomizer(rulebook):
            self.dice_index, self.screen = 0, "dice"     # free play: which dice, then start
            return
        self._start(rulebook, None)

    def _joined_names(self) -> tuple[list[int], list[str]]:
        """The joined seats' buttons (X12) and names: the roster's, else the button's colour."""
        buttons = [b + 1 for b, on in enumerate(self.joined) if on]
        return buttons, [self.names.get(b - 1) or colour_of(self.colours, b).name
                         for b in buttons]

    def _tell_setup(self) -> None:
        """While a game is being set up here (joining, its dice, who the Pi plays), every view
        says so, with the names joined; and no longer once the box has left it."""
        told = None
        if self.joining and self.screen != "games":
            told = (self.games[self.game_index].id, tuple(self._joined_names()[1]))
        if told != self._setup_told:
            self._setup_told = told
            self.session.show_setup(*(told or (None,)))

    def _start(self, rulebook: Rulebook, options: dict[str, Any] | None,
               pi: list[int] = (), level: str | None = None) -> None:
        buttons, names = self._joined_names()
        phones = self.pairings.paired() if self.pairings is not None else ()
        for seat in pi:          # the Pi's seat: a button no player holds, never armed (nor
            buttons.insert(seat, free_button(buttons, phones))     # one a phone is paired to)
            names.insert(seat, "Pi")
        if self._call(lambda: self.session.new_game(rulebook.id, names, options, by="knob",
                                                    buttons=buttons, pi=list(pi),
                                                    pi_level=level), on_shown=False):
            self.joining = False
            self.move_index, self.screen = 0, self.home()   # the turn screen is the answer
            self._show_setup()                               # (after the chips to put in)
            self._beep("click")

    def _show_setup(self) -> None:
        """A game just begun that asks the players to put chips in or share counters out says
        so before its lead (a family with real chips was never told to put 5 in)."""
        words = setup_words(self.snap)
        if words and self.snap.get("phase") == "lead":
            self.result.outcome = (self.snap.get("title") or "New game", "", words)
            self._show_result()

    def on_move_dice(self, event: InputEvent) -> None:
        self.dice_index = (self.dice_index + event.detents) % len(RANDOMIZERS)

    def on_start_with_dice(self, event: InputEvent) -> None:
        _, randomizer = RANDOMIZERS[self.dice_index]
        self._start(self.games[self.game_index], {"randomizer": randomizer})

    def on_back_to_join(self, event: InputEvent) -> None:
        self.screen = "join"

    def on_move_pi_setup(self, event: InputEvent) -> None:
        self.setup_index = (self.setup_index + event.detents) % len(self.setups)

