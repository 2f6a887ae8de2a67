"""A game as its log: apply events one by one (a pure fold), undo, replay a JSONL file.

`Table` holds the events in effect and the state after each, so undo is a pop and never
re-rolls: the roll stream position is the number of rolls still in effect.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from companion import ledger, turns
from companion.buttons import check_buttons, default_buttons
from companion.errors import BoardDataError, LogError, Refused
from companion.events import (CORRECTIONS, DEFAULT_PI_LEVEL, Choose, Declare, Event, Move,
                              NewGame, Next, Press, Rename, Roll, Transfer, Undo, parse_event)
from companion.games import get_rulebook
from companion.randomness.rollstream import commitment as commit_to
from companion.rulebook import Rulebook
from companion.state import State, copy_data
from companion.words import RENAMED, escaped, name_key, shown_text, shown_value, undone

MAX_NAME = 24
HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Table:
    """The events in effect and the state after each; applying is all-or-nothing."""

    def __init__(self) -> None:
        self.rulebook: Rulebook | None = None
        self.effective: list[Event] = []
        self._states: list[State] = []
        # The newest event other than a correction (CORRECTIONS) was an undo: the Pi, on its
        # turn, waits to be asked, also in a resumed game.
        self.taken_back = False
        self.undone: list[str] = []        # what the newest undo took back (words.undone)
        self.undone_by: str | None = None  # and who made it (an event's `by`)
        self.put_back: list[str] = []      # and what the table sets back (Rulebook.put_back)
        self.undos: list[dict[str, Any]] = []   # each undo since the game last moved
    @property
    def state(self) -> State:
        if not self._states:
            raise Refused("no game has been started")
        return self._states[-1]

    @property
    def states(self) -> list[State]:
        """The state after each event in effect (new_game first): the game step by step."""
        return list(self._states)

    @property
    def started(self) -> bool:
        return bool(self._states)

    def attempt(self, event: Event) -> State:
        """The state this event would lead to; raises Refused and changes nothing if refused."""
        if isinstance(event, NewGame):
            if self._states:
                raise Refused("a game is already under way: a log holds one game")
            return _new_game(event)[1]
        if not self._states:
            raise Refused("the log must start with a new_game event")
        if isinstance(event, Undo):
            if len(self._states) < 2:
                raise Refused("nothing to undo")
            if self.state.over:                                             # X11
                raise Refused("the game is over: it is final, so there is no undo")
            return self._states[-2]
        return advance(self.rulebook, self.state, event)

    def apply(self, event: Event, new_state: State | None = None) -> State:
        """Apply an event (pass the result of `attempt` to skip recomputing it)."""
        if new_state is None:
            new_state = self.attempt(event)
        if isinstance(event, NewGame):
            self.rulebook = get_rulebook(event.game)
        if isinstance(event, Undo):
            self.effective.pop()
            gone = self._states.pop()
            run = self.undos if self.taken_back else []
            self.taken_back, self.undone_by = True, event.by
            self.undone = undone(gone.log, new_state.log, gone.turn, new_state.turn,
                                 [p.name for p in new_state.players])
            self.put_back = self.rulebook.put_back(gone, new_state)
            self.undos = [*run, {"undone": self.undone, "put_back": self.put_back,
                                 "at": len(new_state.log)}]   # where its lines were
        else:
            self.effective.append(event)
            self._states.append(new_state)
            self.taken_back = self.taken_back and event.type in CORRECTIONS
        return new_state

    def to_json(self) -> dict[str, Any]:
        out = state_json(self.rulebook, self.state)
        out["last_by"] = self.effective[-1].by if self.effective else None   # who made it
        out["last_type"] = self.effective[-1].type if self.effective else None   # and what
        return out


def _new_game(event: NewGame) -> tuple[Rulebook, State]:
    rulebook = get_rulebook(event.game)
    names = tuple(_trimmed(n) for n in event.players)
    if not rulebook.min_players <= len(names) <= rulebook.max_players:
        raise Refused(f"{rulebook.title} is for {rulebook.player_span()} players, "
                      f"not {len(names)}")
    _check_names(names)
    buttons = default_buttons(len(names)) if event.buttons is None else \
        check_buttons(list(event.buttons), len(names))             # X12
    options = rulebook.check_options(event.options)
    try:
        board = rulebook.board_for(event.board if event.board is not None
                                   else rulebook.default_board())
    except BoardDataError as err:
        raise Refused(f"board data: {err}") from None
    if event.commitment is not None and not HEX64.match(event.commitment):
        raise Refused("the commitment must be 64 lowercase hex digits (SHA-256)")
    if event.seed is not None:
        try:
            seed = bytes.fromhex(event.seed)
        except ValueError:
            raise Refused("the seed must be hex") from None
        if not seed:
            raise Refused("the seed is empty")
        if event.commitment is not None and commit_to(seed) != event.commitment:
            raise Refused("the revealed seed does not match the commitment")
    _check_pi(rulebook, event, len(names))
    state = rulebook.new_state(event.game, names, options, board)
    for seat in event.pi:
        state.players[seat].extra["pi"] = event.pi_level or DEFAULT_PI_LEVEL
    state.commitment, state.seed = event.commitment, event.seed
    for player, button in zip(state.players, buttons):
        player.button = button
    rulebook.after_event(state, event)
    return rulebook, state


def _trimmed(name: str) -> str:
    """A name without its outer spaces, or Refused if it holds anything but printable
    characters and spaces (X10, `shown_text`)."""
    return shown_text(name, "a player's name").strip(" ")


def _check_pi(rulebook: Rulebook, event: NewGame, players: int) -> None:
    """The Pi plays only where it knows the game, and never every seat."""
    if not event.pi:
        return
    if rulebook.pi_seats is None:
        raise Refused(f"the Pi does not play {rulebook.title} (it plays Fox and Geese and "
                      f"Domino Rex)")
    if len(set(event.pi)) != len(event.pi) or not all(0 <= s < players for s in event.pi):
        raise Refused(f"'pi' must name different seats from 0 to {players - 1}")
    if len(event.pi) >= players or (rulebook.pi_seats == "one" and len(event.pi) > 1):
        raise Refused(f"the Pi plays {'one side' if rulebook.pi_seats == 'one' else 'some seats'}"
                      f" of {rulebook.title}: at least one seat is a player's")


def _check_names(names: tuple[str, ...]) -> None:
    """X10: each name 1 to MAX_NAME printable characters after trimming; no two alike."""
    for name in names:
        if not name or len(name) > MAX_NAME:
            raise Refused(f"a player's name must be 1 to {MAX_NAME} characters: {name!r}")
    if len({name_key(n) for n in names}) != len(names):
        raise Refused("two players have the same name (names may not differ only in case or "
                      "spaces)")


def _rename(state: State, event: Rename) -> None:
    if state.over:                                                          # X11
        raise Refused("the game is over: its players' names are final")
    _check_seat(state, event.seat)
    player = state.players[event.seat]
    name = _trimmed(event.name)
    _check_names(tuple(name if p.seat == event.seat else p.name for p in state.players))
    state.say(f"Button {player.button}, {player.name}, {RENAMED} {name}")   # X12
    player.name = name


def seat_number(seat: int) -> int:
    """A seat as players see it (the phone, the device, the log's words): 1..n. Events number
    seats 0..n-1 (X1)."""
    return seat + 1


def _refuse_unless_playing(rulebook: Rulebook, state: State, what: str) -> None:
    if state.over:
        raise Refused(f"the game is over: no {what} now")
    if state.phase == "lead":
        dice = rulebook.randomizer_now(state)
        done = "thrown" if dice is None else dice.done
        raise Refused(f"the lead is still being {done}: {rulebook.prompt(state)}")


def _check_seat(state: State, seat: int) -> None:
    if not 0 <= seat < len(state.players):
        raise Refused(f"there is no seat {seat_number(seat)} at this table (seats 1 to "
                      f"{len(state.players)})")


def advance(rulebook: Rulebook, state: State, event: Event) -> State:
    """Pure: the state after one (non-undo) event, or Refused."""
    new = state.copy()
    if isinstance(event, Roll):
        _roll(rulebook, new, event.values)
    elif isinstance(event, Press):
        _refuse_unless_playing(rulebook, new, "seat presses")
        _check_seat(new, event.seat)
        rulebook.on_press(new, event.seat)
    elif isinstance(event, Choose):
        _refuse_unless_playing(rulebook, new, "choices")
        rulebook.on_choose(new, event.value)
    elif isinstance(event, Next):
        _refuse_unless_playing(rulebook, new, "turns")
        rulebook.on_next(new)
    elif isinstance(event, Declare):
        _refuse_unless_playing(rulebook, new, "declarations")
        if not event.winners or len(set(event.winners)) != len(event.winners):
            raise Refused("a declaration names one or more different winning seats")
        for seat in event.winners:
            _check_seat(new, seat)
        rulebook.on_declare(new, event.winners)
    elif isinstance(event, Move):
        _refuse_unless_playing(rulebook, new, "moves")
        rulebook.on_move(new, event.path)
    elif isinstance(event, Transfer):
        _transfer(rulebook, new, event)
    elif isinstance(event, Rename):
        _rename(new, event)
    else:  # pragma: no cover - parse_event makes only the types above
        raise Refused(f"cannot apply {event.type}")
    rulebook.after_event(new, event)
    return new


def _roll(rulebook: Rulebook, state: State, values: tuple[int, ...]) -> None:
    if state.over:
        raise Refused("the game is over: no more throws")
    dice = rulebook.randomizer_now(state)
    if state.awaiting != "roll" or dice is None:
        raise Refused(f"no throw is asked for now ({rulebook.prompt(state)})")
    dice.check(values)  # X5: only the awaited player's roll exists, so no seat to check
    seat = state.turn
    state.rolls += 1
    state.last_roll = {"seat": seat, "values": list(values), "text": dice.words(values),
                       "total": dice.total(values)}
    if state.phase == "lead":
        total = rulebook.lead_total(state, values)
        words = dice.words(values)
        detail = f" ({total})" if str(total) != words else ""      # not "spins 6 (6)"
        state.say(f"{state.name(seat)} {dice.verb} {words}{detail} for the lead")
        order = turns.lead_throw(state, total, dice.act)
        if order is None:
            state.turn = state.lead.pending[0]
        else:
            state.lead = None
            rulebook.begin(state, order)
        return
    rulebook.on_roll(state, values)


def _transfer(rulebook: Rulebook, state: State, event: Transfer) -> None:
    if not rulebook.uses_chips:
        raise Refused(f"{rulebook.title} is played without chips")
    if state.over:   # X11; the winners were settled on these chips (L7)
        raise Refused("the game is over: its chips are settled and cannot be corrected")
    for account in (event.source, event.target):
        if account != ledger.POOL:
            _check_seat(state, account)
    if event.source == event.target:
        raise Refused("a transfer needs two different accounts")
    held = ledger.holding(state, event.source)
    if event.amount > held:                                                 # X9
        who = "the pool" if event.source == ledger.POOL else state.name(event.source)
        holds = "no chips" if held == 0 else f"only {ledger.chips_words(held)}"
        raise Refused(f"{who} holds {holds}: a correction cannot move {event.amount}")
    why = f"correction: {escaped(event.reason)}" if event.reason else "correction"   # one line
    ledger.pay(state, event.source, event.target, event.amount, why)


def state_json(rulebook: Rulebook, state: State) -> dict[str, Any]:
    """The state JSON handed out, plus fields a screen needs (prompt, last roll, order).

    A copy: whoever holds it may change it (nested lists and dicts too) without changing the
    game or its undo history (every part that could be shared is copied)."""
    dice = rulebook.randomizer_now(state)
    out = {
        "game": state.game, "title": rulebook.title, "refereeing": rulebook.refereeing,
        "phase": state.phase, "turn": state.turn, "awaiting": state.awaiting,
        "players": [copy_data(p.to_json()) if p.extra else p.to_json()
                    for p in state.players], "pool": state.pool,
        "winners": list(state.winners), "log": list(state.log),
        "commitment": state.commitment, "seed": state.seed,
        "prompt": rulebook.prompt(state), "order": list(state.order),
        "last_roll": copy_data(state.last_roll), "rolls": state.rolls,
        "randomizer": dice.to_json() if dice else None,
        "lead": None if state.lead is None else {
            "mode": state.lead.mode, "throwing": list(state.lead.pending),
            "throws": {str(k): v for k, v in state.lead.throws.items()}},
        "options": copy_data(state.options),
    }
    out.update(copy_data(rulebook.extra_json(state)))
    return out


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once: `{"values": [4, 5], "values": [6, 6]}`
    reads as either roll, depending on the reader, so a log may not say it."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise Refused(f"the key {shown_value(key)} is given twice")
        obj[key] = value
    return obj


def read_log(lines: Iterable[str]) -> list[tuple[int, Event]]:
    """Parse JSON Lines into (line number, event); blank lines are skipped."""
    events = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line, object_pairs_hook=_once_each)
        except Refused as err:
            raise LogError(number, str(err)) from None
        except json.JSONDecodeError as err:
            where = "" if err.msg.endswith(" at") else " at"   # "Unterminated string starting at"
            raise LogError(number, f"not valid JSON ({err.msg}{where} column {err.colno})") \
                from None
        except ValueError:              # Python refuses to read a number of 4,301+ digits
            raise LogError(number, "a number too long to be read (over 4,300 digits)") from None
        except RecursionError:
            raise LogError(number, "JSON nested too deeply to be read") from None
        try:
            events.append((number, parse_event(obj)))
        except Refused as err:
            raise LogError(number, str(err)) from None
    return events


def replay(events: Iterable[Event | tuple[int, Event] | dict]) -> Table:
    """Fold events into a table; a refused event raises LogError with its line number."""
    table = Table()
    for index, item in enumerate(events, start=1):
        number, event = item if isinstance(item, tuple) else (index, item)
        try:
            if isinstance(event, dict):
                event = parse_event(event)
            table.apply(event)
        except Refused as err:
            raise LogError(number, str(err)) from None
    if not table.started:
        raise LogError(1, "the log is empty: it must start with a new_game event")
    return table


def replay_lines(lines: Iterable[str]) -> Table:
    return replay(read_log(lines))
