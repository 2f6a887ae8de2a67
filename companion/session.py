"""The session: the game being played at the table, shared by the device loop and the web.

Every event goes: validate (a pure attempt) -> store (committed) -> apply -> tell listeners.
The seed and the clock are injected; the companion makes neither.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable
from typing import Any

from companion.boarddata import load_board_file
from companion.errors import BoardDataError, Refused
from companion.events import Event, NewGame, Roll, Undo, parse_event
from companion.replay import Table
from companion.rollstream import commitment, draw
from companion.store import Store

Listener = Callable[[dict[str, Any]], None]


class Session:
    """Thread-safe owner of the current game. Opening it resumes the unfinished game, if any."""

    def __init__(self, store: Store, *, new_seed: Callable[[], bytes],
                 clock: Callable[[], str] | None = None, board_dir: Path | None = None):
        self.store = store
        self.board_dir = board_dir        # <board_dir>/<game>.toml: the table's own board data
        self._new_seed = new_seed
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.table: Table | None = None
        self.game_id: int | None = None
        self._seed: bytes | None = None
        self._seq = 0
        self.version = 0
        self.resumed = self._resume()

    # -- reading ------------------------------------------------------------------------------

    def _resume(self) -> bool:
        record = self.store.latest_unfinished()
        if record is None:
            return False
        table = Table()
        events = self.store.events(record.id)
        for body in events:
            table.apply(parse_event(body))
        self.table, self.game_id, self._seq = table, record.id, len(events)
        self._seed = bytes.fromhex(record.seed) if record.seed else None
        self.version = 1
        return True

    def snapshot(self) -> dict[str, Any]:
        """The state JSON of the current game (with `version` and `game_id`); idle when none."""
        with self._lock:
            if self.table is None:
                return {"game": None, "phase": "idle", "turn": None, "awaiting": None,
                        "players": [], "pool": 0, "winners": [], "log": [],
                        "commitment": None, "seed": None, "version": self.version,
                        "game_id": None, "prompt": "Choose a game"}
            out = self.table.to_json()
            if self.table.state.over and self._seed is not None:
                out["seed"] = self._seed.hex()          # revealed once the game is over
            out["version"], out["game_id"] = self.version, self.game_id
            return out

    def locked(self) -> threading.RLock:
        """`with session.locked():` no other change lands while a caller checks, then acts."""
        return self._lock

    @property
    def state(self):
        with self._lock:
            return None if self.table is None else self.table.state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(snapshot)` after every change; returns the unsubscribe function."""
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    # -- writing ------------------------------------------------------------------------------

    def _stamp(self, body: dict[str, Any], by: str | None) -> dict[str, Any]:
        if self._clock is not None and "at" not in body:
            body["at"] = self._clock()
        if by is not None:
            body["by"] = by
        return body

    def new_game(self, game: str, players: list[str], options: dict[str, Any] | None = None,
                 board: dict[str, Any] | None = None, by: str | None = None) -> dict[str, Any]:
        """Start a game with a fresh committed seed; an unfinished game is set aside."""
        with self._lock:
            if board is None:
                board = self._table_board(game)
            seed = self._new_seed()
            body = {"type": "new_game", "game": game, "players": list(players),
                    "options": dict(options or {}), "commitment": commitment(seed)}
            if board is not None:
                body["board"] = board
            event = parse_event(self._stamp(body, by))
            table = Table()
            state = table.attempt(event)
            if event.board is None and state.board:    # the log alone replays the game
                event = replace(event, board=state.board)
            body = event.to_dict()
            if self.table is not None and not self.table.state.over:
                self.store.abandon(self.game_id, body.get("at"))
            game_id = self.store.create_game(body, seed=seed.hex(), commitment=body["commitment"],
                                             created_at=body.get("at"))
            table.apply(event, state)
            self.table, self.game_id, self._seed, self._seq = table, game_id, seed, 1
            return self._changed()

    def _table_board(self, game: str) -> dict[str, Any] | None:
        """A board file the table keeps for this game, laid over the shipped defaults."""
        if self.board_dir is None or not (Path(self.board_dir) / f"{game}.toml").is_file():
            return None
        try:
            return load_board_file(Path(self.board_dir) / f"{game}.toml", game)
        except BoardDataError as err:
            raise Refused(f"board data: {err}") from None

    def abandon(self, by: str | None = None) -> dict[str, Any]:
        """Set the current game aside unfinished (its log stays as played); the table is idle."""
        with self._lock:
            if self.table is None:
                raise Refused("no game is being played")
            if not self.table.state.over:
                self.store.abandon(self.game_id, self._clock() if self._clock else None)
            self.table, self.game_id, self._seed, self._seq = None, None, None, 0
            return self._changed()

    def submit(self, event: Event | dict[str, Any], by: str | None = None) -> dict[str, Any]:
        """Validate, store, apply and announce one event; Refused changes nothing."""
        with self._lock:
            if isinstance(event, Event):
                event = event.to_dict()
            event = parse_event(self._stamp(dict(event), by))
            if isinstance(event, NewGame):
                raise Refused("start a game with new_game(), not as an event")
            if self.table is None:
                raise Refused("no game is being played: start one first")
            if isinstance(event, Roll) and self._seed is not None:
                raise Refused("throws come from the committed roll stream: use roll()")
            return self._commit(event)

    def roll(self, by: str | None = None) -> dict[str, Any]:
        """Draw the next roll of the committed stream for the awaited player and submit it."""
        with self._lock:
            if self.table is None:
                raise Refused("no game is being played: start one first")
            state = self.table.state
            dice = self.table.rulebook.randomizer_now(state)
            if state.awaiting != "roll" or dice is None or self._seed is None:
                raise Refused(f"no throw is asked for now ({self.table.rulebook.prompt(state)})")
            values = draw(self._seed, state.rolls, dice)
            event = parse_event(self._stamp({"type": "roll", "values": list(values)}, by))
            return self._commit(event)

    def undo(self, by: str | None = None) -> dict[str, Any]:
        return self.submit(Undo(), by=by)

    def _commit(self, event: Event) -> dict[str, Any]:
        new_state = self.table.attempt(event)              # refuses before anything is stored
        old_players = self.table.state.players
        self.store.append(self.game_id, self._seq + 1, event.to_dict())
        self._seq += 1
        self.table.apply(event, new_state)
        names = [p.name for p in new_state.players]
        if names != [p.name for p in old_players]:     # a rename (or its undo): history follows
            self.store.set_players(self.game_id, names)
        if new_state.over and not isinstance(event, Undo):
            self.store.finish(self.game_id, list(new_state.winners), event.at)
        return self._changed()

    def _changed(self) -> dict[str, Any]:
        self.version += 1
        snap = self.snapshot()
        for listener in list(self._listeners):
            listener(snap)
        return snap

    # -- export -------------------------------------------------------------------------------

    def export_log(self, game_id: int) -> list[dict[str, Any]]:
        """A stored game's events as the log of DESIGN.md; the seed joins new_game once over."""
        return export_events(self.store, game_id)


def export_events(store: Store, game_id: int) -> list[dict[str, Any]]:
    """A stored game's log; KeyError for an unknown id. The seed is revealed only once over."""
    record = store.game(game_id)
    if record is None:
        raise KeyError(game_id)
    events = store.events(game_id)
    if record.over and record.seed and events:
        events[0] = {**events[0], "seed": record.seed}
    return events
