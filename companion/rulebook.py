"""What every game is: data (players, randomizer, options, board) plus small pure functions.

A game module defines a `Rulebook` subclass and overrides the moves it has (`on_roll`,
`on_press`, `on_choose`, `on_next`, `on_declare`, `on_move`). A move mutates the state copy it is handed
or raises `Refused`; the table keeps the original if it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion import boarddata, ledger, turns
from companion.checks import is_whole
from companion.errors import BoardDataError, Refused
from companion.events import Event
from companion.randomness.randomizers import Randomizer
from companion.state import Player, State
from companion.words import END_OF_TURN, listing, shown_value


@dataclass(frozen=True)
class Option:
    """A whole-number game option with its default and allowed range."""

    default: int
    low: int
    high: int
    help: str = ""
    labels: tuple[str, ...] = ()     # players' words for each value from low to high, if any

    def check(self, name: str, value: Any) -> int:
        if not is_whole(value):
            raise Refused(f"option '{name}' must be a whole number, not {shown_value(value)}")
        if not self.low <= value <= self.high:
            raise Refused(f"option '{name}' must be from {self.low} to {self.high}, not {value}")
        return value


class Rulebook:
    """Base of every game. Class attributes are the game's data; methods its rules."""

    id: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str] = ""
    refereeing: ClassVar[str] = "full"          # "full" | "assisted"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    randomizer: ClassVar[Randomizer | None] = None
    lead_randomizer: ClassVar[Randomizer | None] = None   # None: the play randomizer
    lead: ClassVar[str | None] = "highest"      # "highest" (X2) | "ranking" (C1) | None
    options: ClassVar[dict[str, Option]] = {}
    uses_chips: ClassVar[bool] = False
    keeps_score: ClassVar[bool] = False         # points decide it: a Score column from the start
    pool_label: ClassVar[str] = "Pool"          # what the players call the chips in the middle
    score_label: ClassVar[str] = "Score"        # what a player's `score` counts
    score_is_points: ClassVar[bool] = True      # False: `score` counts something else, never
                                                # shown or added up as points (F3's geese)
    on_squares: ClassVar[bool] = False          # players' squares are kept (`position`)
    # Where two numberings share the printed path, the colour each role counts in ("red 22"):
    square_colours: ClassVar[dict[str, str]] = {}
    start_position: ClassVar[int | None] = None
    pi_seats: ClassVar[str | None] = None       # seats the Pi may play: "one", "any" or None
    press_any_seat: ClassVar[bool] = False      # every player's press counts, any time
    one_winner_declared: ClassVar[bool] = False  # a declaration names one winner (a resignation)

    @classmethod
    def player_span(cls, between: str = " to ") -> str:
        """How many play: "2", or "2 to 4" ("2-4" with `between` "-")."""
        low, high = cls.min_players, cls.max_players
        return str(low) if low == high else f"{low}{between}{high}"

    # -- setting up -------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise Refused(f"{self.title} has no option '{unknown[0]}' (options: {known})")
        return {name: opt.check(name, options.get(name, opt.default))
                for name, opt in self.options.items()}

    def board_for(self, board: dict[str, Any]) -> dict[str, Any]:
        """The game's board from board data: keys checked against the game's schema (its
        shipped board), then values by `check_board`. Raises BoardDataError; one about a key
        the data leaves out (only a log's can: files and requests are laid over the defaults)
        says it is missing."""
        known = self.default_board()
        boarddata.check_keys(board, known, self.title)
        try:
            return self.check_board(board)
        except BoardDataError as err:
            for key in known:
                if key not in board and (err.key[:1] == (key,) or str(err).startswith(f"'{key}'")):
                    raise BoardDataError(f"'{key}' is missing (board data for {self.title} "
                                         f"has {', '.join(known)})", key=key) from None
            raise

    def check_board(self, board: dict[str, Any]) -> dict[str, Any]:
        """Validate board data's values, raising BoardDataError; games with a board override
        this (a game without one gets only {} here: `board_for` refuses any key)."""
        return board

    def default_board(self) -> dict[str, Any]:
        return boarddata.default_board(self.id)

    def new_state(self, game: str, names: tuple[str, ...], options: dict[str, Any],
                  board: dict[str, Any]) -> State:
        players = [Player(name, seat, position=self.start_position)
                   for seat, name in enumerate(names)]
        state = State(game=game, players=players, options=options, board=board)
        state.say(f"{self.title}: {', '.join(names)}")
        self.setup(state)
        mode = self.lead_mode(state)
        if mode:
            lead_dice = self.randomizer_now(state)
            state.lead = turns.start_lead(mode, len(players))
            state.phase, state.turn, state.awaiting = "lead", 0, "roll"
            state.say(f"Lead: each player {lead_dice.verb} {lead_dice.name} in turn;"
                      f" {'highest leads' if mode == 'highest' else 'play follows the spins'}")
        else:
            self.begin(state, list(range(len(players))))
        return state

    def setup(self, state: State) -> None:
        """Chips, pools, starting fields."""

    def begin(self, state: State, order: list[int]) -> None:
        """Play starts, in this order of seats."""
        state.order = order
        state.phase, state.turn = "play", order[0]
        state.awaiting = "roll" if self.randomizer_now(state) else "next"
        if self.lead_mode(state):
            state.say(f"{state.name(order[0])} leads")

    @property
    def lead_dice(self) -> Randomizer:
        return self.lead_randomizer or self.randomizer

    def randomizer_now(self, state: State) -> Randomizer | None:
        """The randomizer in use now (free play chooses it at setup, so it is per game)."""
        return self.lead_dice if state.phase == "lead" else self.randomizer

    def lead_mode(self, state: State) -> str | None:
        """How the lead is settled for this game (`lead`, unless the game's setup decides)."""
        return self.lead

    def lead_total(self, state: State, values: tuple[int, ...]) -> int:
        """What a lead throw counts (its total; a labelled spinner may count otherwise)."""
        return self.randomizer_now(state).total(values)

    def put_back(self, gone: State, now: State) -> list[str]:
        """What the table sets back by hand when an undo takes the game from `gone` back to
        `now`, beyond what the undo's lines say ("Cover Pi's 6 again."): every surface says it
        with the undo. Nothing where the box keeps no pieces the table must move back."""
        return []

    def after_event(self, state: State, event: Event) -> None:
        """Called with the new state after every applied event, new_game included; a game
        that keeps time (Fox and Geese's clocks) reads the event's `at` here."""

    # -- moves: override what the game has --------------------------------------------------

    def on_roll(self, state: State, values: tuple[int, ...]) -> None:
        raise Refused(f"{self.title} has no throws")

    def on_press(self, state: State, seat: int) -> None:
        raise Refused(f"{self.title} has no seat-button action: the companion moves the pieces")

    def on_choose(self, state: State, value: int) -> None:
        raise Refused(f"{self.title} has no choices to make with the knob")

    def on_next(self, state: State) -> None:
        raise Refused(f"in {self.title} the turn passes by itself once the throw is settled")

    def on_declare(self, state: State, winners: tuple[int, ...]) -> None:
        raise Refused(f"{self.title} ends by its own rules, not by declaration")

    def on_move(self, state: State, path: tuple[str, ...]) -> None:
        raise Refused(f"{self.title} has no board moves for the companion to check")

    # -- helpers for games --------------------------------------------------------------------

    def skips(self, state: State, seat: int) -> bool:
        """True for a seat that cannot play at all (its turns are passed over)."""
        return False

    def pass_turn(self, state: State) -> None:
        """End the current turn (X8): the next seat in order, lost turns spent (X7)."""
        seat = turns.next_seat(state, self.skips)
        if seat is None:
            self.no_one_can_play(state)
        else:
            state.turn = seat

    def no_one_can_play(self, state: State) -> None:
        raise Refused("no player can move")  # pragma: no cover - games that can stall override

    def finish(self, state: State, winners: list[int]) -> None:
        state.phase, state.turn, state.awaiting = "over", None, None
        state.winners = sorted(winners)
        names = listing([state.name(s) for s in state.winners])
        state.say(f"{names} {'wins' if len(state.winners) == 1 else 'share the win'}")

    def pay(self, state: State, source: int | str, target: int | str, amount: int,
            why: str = "") -> int:
        return ledger.pay(state, source, target, amount, why)

    def prompt(self, state: State) -> str:
        """What the awaited player must do, in words."""
        if state.over:
            return "Game over"
        who = state.name(state.turn)
        dice = self.randomizer_now(state)
        if state.awaiting == "roll" and dice is not None:
            action = "throw the dice" if dice.kind == "dice" and dice.count > 1 else \
                "throw the die" if dice.kind == "dice" else "flick to spin"
            return f"{who} - {action}" + (" for the lead" if state.phase == "lead" else "")
        return f"{who} - {END_OF_TURN}"

    def describe(self) -> dict[str, Any]:
        """A line of `parlour games`."""
        return {"id": self.id, "title": self.title, "players": [self.min_players,
                self.max_players], "randomizer": self.randomizer.name if self.randomizer
                else "none", "refereeing": self.refereeing, "source": self.source,
                "options": {k: o.default for k, o in self.options.items()}}

    def extra_json(self, state: State) -> dict[str, Any]:
        """Game-specific top-level fields of the state JSON."""
        return {}
