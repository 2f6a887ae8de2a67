"""The session: the game being played at the table, shared by the device loop and the web.

Every event goes: validate (a pure attempt) -> store (committed) -> apply -> tell listeners.
The seed and the clock are injected; the companion makes neither.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import Any

from companion.boarddata import load_board_file
from companion.buttons import default_buttons
from companion.errors import BoardDataError, ParlourError, Refused, StoreError
from companion.events import Event, NewGame, Rename, Roll, Transfer, Undo, parse_event
from companion.games import get_rulebook
from companion.chances.history import chart
from companion.replay import Table
from companion.randomness.rollstream import commitment, draw
from companion.record.store import Store
from companion.words import listing, shown_text

Listener = Callable[[dict[str, Any]], None]
log = logging.getLogger("parlour.session")


# Events one game may hold (its log's lines, undos included): a guest scoring free-play
# points for ever cannot grow a game, its resume or its chart without bound. A real game
# is tens to a few hundred events; this is far past any.
MAX_GAME_EVENTS = 10_000
# The game in words, as the state JSON carries it (escaped as Flask sends it): long names and
# reasons in emoji made one 10,000-event game's state 27 MB, spooled to disk for each phone
# that did not read it. 10,000 events of plain words take about 0.3 MiB.
MAX_LOG_BYTES = 1024 * 1024


def json_bytes(lines) -> int:
    """The bytes `lines` take in a JSON list ("...", each with its comma and space)."""
    return sum(len(json.dumps(line)) + 2 for line in lines)


class Session:
    """Thread-safe owner of the current game. Opening it resumes the unfinished game, if any."""

    def __init__(self, store: Store, *, new_seed: Callable[[], bytes],
                 clock: Callable[[], str] | None = None, board_dir: Path | None = None,
                 spin_seconds: float | None = None):
        self.store = store
        self.spin_seconds = spin_seconds  # how long the box's dial spins for a roll it did
        #                                   not make (one from a phone); None: no dial
        self.board_dir = board_dir        # <board_dir>/<game>.toml: the table's own board data
        self._new_seed = new_seed
        # This run of the table: a state of another run is never compared by version with this
        # one's (versions count from 1 again after a restart). Drawn from the injected source.
        self.boot = new_seed()[:4].hex()
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.table: Table | None = None
        self.game_id: int | None = None
        self._seed: bytes | None = None
        self._seq = 0
        self._log_bytes = (None, 0, 0)    # (game id, events, its log's JSON bytes): `_log_size`
        self._spin: dict[str, Any] | None = None
        self.version = 0
        self.on_store_error: Callable[[StoreError], None] | None = None   # e.g. tell the OLED
        # Asks the Pi to move now (after an undo it waits to be asked); set by the program
        # that runs the Pi, None where none does. False if it is not the Pi's turn.
        self.ask_pi: Callable[[], bool] | None = None
        self._failed_listeners: set[int] = set()
        self.repaired = repair_finished(store)
        self.state_version = 0           # the version at which the game itself last changed
        self._odds: dict[str, Any] | None = None      # chances for state_version, if known
        self.chances: dict[int, list[float]] = {}     # step -> chances, for the chart
        self._charted: tuple[tuple, dict[str, Any]] | None = None   # (game, version), rows
        self.chances_paused: str | None = None        # why no chances come, while none can
        # The next game being set up at the box ({"game", "title", "players"}), until it begins
        self.setup: dict[str, Any] | None = None
        self.resumed_lines: list[str] = []     # the log's lines the game's newest event wrote
        self.resumed_at: str | None = None     # and its stamp (`at`), if it has one
        self._aside_by: str | None = None      # who set the last game aside (idle's `last_by`)
        self.resumed = self._resume()
        # With no game to resume, the newest game's end, if it is over (`ending`)
        self.last_ended: dict[str, Any] | None = None if self.resumed else self._untold_end()

    # -- reading ------------------------------------------------------------------------------

    def _resume(self) -> bool:
        record = self.store.latest_unfinished()
        if record is None:
            return False
        events = self.store.events(record.id)
        table, self.resumed_lines = _replayed(events)        # no lines after an undo
        self.resumed_at = events[-1].get("at") if events else None
        self.table, self.game_id, self._seq = table, record.id, len(events)
        self._seed = bytes.fromhex(record.seed) if record.seed else None
        self.version = self.state_version = 1
        return True

    def _untold_end(self) -> dict[str, Any] | None:
        """The newest game's end for the box to tell at start, or None where that game can no
        longer be read as a game (an old store's name the rules now refuse): a recap is never
        a reason not to start."""
        try:
            return self.ending()
        except ParlourError:
            return None

    def ending(self, game_id: int | None = None) -> dict[str, Any] | None:
        """A stored game's end (the newest game's by default), if it is over: {"game_id",
        "state" (the state JSON it ended on), "lines" (what its last event wrote)}. The box
        says one it did not show: the power may have gone while it was up, unread, or a phone
        began the next game."""
        record = next(iter(self.store.games_page(limit=1)), None) if game_id is None else \
            self.store.game(game_id)
        if record is None or not record.over:
            return None
        events = self.store.events(record.id)
        if not events:
            return None
        table, lines = _replayed(events)
        return {"game_id": record.id, "state": table.to_json(), "lines": lines}

    @property
    def taken_back(self) -> bool:
        """The newest event that moved the game in play was an undo (`Table.taken_back`)."""
        with self._lock:
            return self.table is not None and self.table.taken_back

    def snapshot(self) -> dict[str, Any]:
        """The state JSON of the current game (with `version` and `game_id`); idle when none."""
        with self._lock:
            if self.table is None:
                return self._with_setup({
                    "game": None, "phase": "idle", "turn": None, "awaiting": None,
                    "players": [], "pool": 0, "winners": [], "log": [], "commitment": None,
                    "seed": None, "version": self.version, "state_version": self.state_version,
                    "boot": self.boot, "last_by": self._aside_by, "last_type": None,
                    "game_id": None,
                    "prompt": "Choose a game", "spin": None})
            out = self.table.to_json()
            out["spin"] = self._spin
            if self.table.state.over and self._seed is not None:
                out["seed"] = self._seed.hex()          # revealed once the game is over
            out["version"], out["game_id"] = self.version, self.game_id
            out["state_version"], out["boot"] = self.state_version, self.boot
            if self.chances_paused:
                out["chances_paused"] = self.chances_paused
            if self.table.taken_back:        # the Pi waits to be asked (a knob press)
                out["taken_back"] = True
                out["undone"] = list(self.table.undone)   # what that undo took back
                out["undone_by"] = self.table.undone_by   # and who made it
                out["put_back"] = list(self.table.put_back)   # and what to set back by hand
                out["undos"] = [{**u, "undone": list(u["undone"]),    # each undo since the
                                 "put_back": list(u["put_back"])}     # game last moved
                                for u in self.table.undos]
            if self._odds is not None:
                out["odds"] = self._odds
            out["chart"] = self._chart()
            return self._with_setup(out) if self.table.state.over else out

    def _with_setup(self, out: dict[str, Any]) -> dict[str, Any]:
        """With no game in play (none, or the last one over), the next being set up at the
        box: `setup`, and the prompt says it ("Joining Domino Rex at the box: Ann and Ben so
        far")."""
        if self.setup is not None:
            out["setup"] = {**self.setup, "players": list(self.setup["players"])}
            joined = self.setup["players"]
            out["prompt"] = f"Joining {self.setup['title']} at the box: " + (
                f"{listing(joined)} so far" if joined else "press your seat button there")
        return out

    def _chart(self) -> dict[str, Any]:
        """The charts' rows, worked out once a version (snapshots are taken for every listener
        and poll); each snapshot gets its own lists."""
        if self._charted is None or self._charted[0] != (self.game_id, self.version):
            self._charted = ((self.game_id, self.version), chart(self.table, self.chances))
        rows = self._charted[1]
        return {"chips": [list(r) for r in rows["chips"]],
                "win": [None if w is None else list(w) for w in rows["win"]]}

    @property
    def mark(self) -> str:
        """The game's state as a page names it when it acts on what it shows:
        "<boot>:<state_version>" (chances coming in do not change it)."""
        with self._lock:
            return f"{self.boot}:{self.state_version}"

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
                 board: dict[str, Any] | None = None, by: str | None = None,
                 buttons: list[int] | None = None, pi: list[int] | None = None,
                 pi_level: str | None = None) -> dict[str, Any]:
        """Start a game with a fresh committed seed; an unfinished game is set aside.
        `buttons`: each player's seat button, 1..6 (X12); the log always records them.
        `pi`, `pi_level`: the seats the Pi plays, and how well."""
        with self._lock:
            if board is None:
                board = self._table_board(game)
            seed = self._new_seed()
            body = {"type": "new_game", "game": game, "players": list(players),
                    "options": dict(options or {}), "commitment": commitment(seed)}
            if board is not None:
                body["board"] = board
            body["buttons"] = list(default_buttons(len(players))) if buttons is None else buttons
            if pi:
                body["pi"], body["pi_level"] = list(pi), pi_level
            event = parse_event(self._stamp(body, by))
            table = Table()
            state = table.attempt(event)
            if event.board is None and state.board:    # the log alone replays the game
                event = replace(event, board=state.board)
            body = event.to_dict()
            unfinished = self.table is not None and not self.table.state.over
            game_id = self._stored(self.store.create_game, body, seed=seed.hex(),
                                   commitment=body["commitment"], created_at=body.get("at"),
                                   set_aside=self.game_id if unfinished else None)
            table.apply(event, state)
            self.table, self.game_id, self._seed, self._seq = table, game_id, seed, 1
            self.setup = None                     # begun: the setting up is over
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
                self._stored(self.store.abandon, self.game_id,
                             self._clock() if self._clock else None)
            self.table, self.game_id, self._seed, self._seq = None, None, None, 0
            self._aside_by = by
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
            if isinstance(event, Transfer):       # read on every surface, as a name is (X10)
                event = replace(event, reason=shown_text(event.reason,
                                                         "a correction's reason").strip(" "))
            return self._commit(event)

    def submit_at(self, version: int, event: dict[str, Any], by: str | None = None
                  ) -> dict[str, Any]:
        """Submit only if the game has not changed since `version` (a `state_version`: the Pi's
        move, worked out from that state); Refused otherwise."""
        with self._lock:
            if version != self.state_version:      # chances coming in change nothing
                raise Refused("the game changed while the Pi was thinking")
            if event.get("type") == "roll":
                return self.roll(by=by)
            return self.submit(event, by=by)

    def roll(self, by: str | None = None, spin: float | None = None) -> dict[str, Any]:
        """Draw the next roll of the committed stream for the awaited player and submit it.
        `spin`: seconds the box's dial spins before it shows this roll (else `spin_seconds`);
        the snapshot of this roll carries it as `spin`, so a phone can reveal the roll as the
        dial stops. It is how the roll is shown, not part of the game: it is not logged."""
        with self._lock:
            if self.table is None:
                raise Refused("no game is being played: start one first")
            state = self.table.state
            dice = self.table.rulebook.randomizer_now(state)
            if state.awaiting != "roll" or dice is None or self._seed is None:
                raise Refused(f"no throw is asked for now ({self.table.rulebook.prompt(state)})")
            values = draw(self._seed, state.rolls, dice)
            event = parse_event(self._stamp({"type": "roll", "values": list(values)}, by))
            seconds = self.spin_seconds if spin is None else spin
            return self._commit(event, None if seconds is None else
                                {"roll": state.rolls + 1, "seconds": round(seconds, 3)})

    def undo(self, by: str | None = None) -> dict[str, Any]:
        return self.submit(Undo(), by=by)

    def _log_size(self, log) -> int:
        """The JSON bytes of `log`, the log after the event about to be stored: the current
        log's, kept from the last event, and its new lines' (all of it after an undo)."""
        old = self.table.state.log
        game, events, size = self._log_bytes
        if (game, events) != (self.game_id, self._seq) or len(log) < len(old):
            return json_bytes(log)
        return size + json_bytes(log[len(old):])

    def _commit(self, event: Event, spin: dict[str, Any] | None = None) -> dict[str, Any]:
        if self._seq >= MAX_GAME_EVENTS:
            raise Refused(f"This game has {MAX_GAME_EVENTS:,} events, the most one game may "
                          "hold: set it aside and start a new one")
        new_state = self.table.attempt(event)              # refuses before anything is stored
        log_bytes = self._log_size(new_state.log)
        if log_bytes > MAX_LOG_BYTES and not isinstance(event, Undo):
            raise Refused(f"This game's log holds {MAX_LOG_BYTES // 2 ** 20} MiB of words, the "
                          "most one game may: set it aside and start a new one")
        final = new_state.over and not self.table.state.over
        names = [p.name for p in new_state.players] if isinstance(event, (Rename, Undo)) \
            else None                                   # only a rename, or its undo, renames
        renamed = names is not None and names != [p.name for p in self.table.state.players]
        # The last event, "over" and the seed's reveal: one transaction (and so is a rename
        # with the players' names history shows).
        self._stored(self.store.append, self.game_id, self._seq + 1, event.to_dict(),
                     winners=list(new_state.winners) if final else None,
                     players=names if renamed else None)
        self._seq += 1
        self._log_bytes = (self.game_id, self._seq, log_bytes)
        self.table.apply(event, new_state)
        return self._changed(spin)

    def _stored(self, write: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """A store write; one that fails (a full disk) is also told to `on_store_error`."""
        try:
            return write(*args, **kwargs)
        except StoreError as err:
            if self.on_store_error is not None:
                self.on_store_error(err)
            raise

    def _changed(self, spin: dict[str, Any] | None = None) -> dict[str, Any]:
        self.version += 1
        self._spin = spin                  # only the roll's own snapshot carries its spin
        self.state_version, self._odds = self.version, None
        step = len(self.table.effective) - 1 if self.table is not None else -1
        self.chances = {k: v for k, v in self.chances.items() if k < step}
        return self._announce()

    def publish_odds(self, state_version: int, odds: dict[str, Any],
                     steps: dict[int, list[float]] | None = None) -> bool:
        """Chances worked out (off the device loop) for the state of `state_version`, and for
        earlier steps of the game (the chart); False, and nothing shown, if the game has moved
        on since (a stale result never shows against a newer state)."""
        with self._lock:
            if state_version != self.state_version or self.table is None:
                return False
            self._odds = odds
            self.version += 1
            self.chances[len(self.table.effective) - 1] = list(odds["win"])
            for step, win in (steps or {}).items():
                if step < len(self.table.effective) - 1:
                    self.chances[step] = list(win)
            self._announce()
            return True

    def show_setup(self, game: str | None, players: Sequence[str] = ()) -> None:
        """The box is setting up the next game (`game`, with the names joined so far), or no
        longer is (None): every view says so until the game begins (the phones said "No game
        in play" while the players joined at the box)."""
        setup = None if game is None else {"game": game, "title": get_rulebook(game).title,
                                           "players": list(players)}
        with self._lock:
            if setup == self.setup:
                return
            self.setup = setup
            self.version += 1
            self._announce()

    def pause_chances(self, reason: str | None) -> None:
        """The chances worker has stopped (`reason`, shown on the phones) or is back (None)."""
        with self._lock:
            if reason == self.chances_paused:
                return
            self.chances_paused = reason
            self.version += 1
            self._announce()

    def odds_job(self) -> tuple[int, int | None, Any, list, dict[int, list[float]]]:
        """What the chances are worked out from: (state_version, game_id, rulebook, the state
        after each event in effect, the chances known so far by step)."""
        with self._lock:
            if self.table is None:
                return self.state_version, None, None, [], {}
            return (self.state_version, self.game_id, self.table.rulebook, self.table.states,
                    dict(self.chances))

    def _announce(self) -> dict[str, Any]:
        snap = self.snapshot()
        for listener in list(self._listeners):
            try:
                listener(snap)
            except Exception:  # noqa: BLE001 - the event is stored: one listener's bug
                self._listener_failed(listener)   # must not fail it or starve the others
        return snap

    def _listener_failed(self, listener: Listener) -> None:
        """Log a listener's first failure with its traceback; later ones are not repeated."""
        if id(listener) not in self._failed_listeners:
            self._failed_listeners.add(id(listener))
            log.exception("a listener failed (%r); the others were still told", listener)

    # -- export -------------------------------------------------------------------------------

    def export_log(self, game_id: int) -> list[dict[str, Any]]:
        """A stored game's events as a game log (JSON Lines); the seed joins new_game once over."""
        return export_events(self.store, game_id)


def _replayed(events: list[dict[str, Any]]) -> tuple[Table, list[str]]:
    """A game's table from its stored events, and the log's lines its newest event wrote."""
    table = Table()
    before = 0
    for n, body in enumerate(events):
        if n == len(events) - 1:
            before = len(table.state.log) if table.started else 0
        table.apply(parse_event(body))
    return table, list(table.state.log)[before:]


def export_events(store: Store, game_id: int) -> list[dict[str, Any]]:
    """A stored game's log; KeyError for an unknown id. The seed is revealed only once over."""
    record = store.game(game_id)
    if record is None:
        raise KeyError(game_id)
    events = store.events(game_id)
    if record.over and record.seed and events:
        events[0] = {**events[0], "seed": record.seed}
    return events


def repair_finished(store: Store) -> list[int]:
    """Games marked playing whose log says over (a power cut between the last event and
    "over", before both were one transaction) are marked over with their winners, which
    reveals the seed. Returns their ids. A log that does not replay is left as it is: resuming
    sets such a game aside."""
    repaired = []
    for game_id in store.unfinished_ids():
        events = store.events(game_id)
        table = Table()
        try:
            for body in events:
                table.apply(parse_event(body))
        except (ParlourError, ValueError, KeyError, TypeError):
            continue
        if table.started and table.state.over:
            try:
                store.finish(game_id, list(table.state.winners), events[-1].get("at"))
            except StoreError:          # a full disk: it shows as over, and is mended later
                continue
            repaired.append(game_id)
    return repaired


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def log_line(event: dict[str, Any]) -> str:
    """One line of a JSON Lines log: readable UTF-8, except that a lone surrogate (which UTF-8
    cannot hold; an older store may have one in a name) is written as its \\u escape, so the
    line still reads back to the very same event."""
    line = json.dumps(event, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", line)
