"""The Pi at the table: when a seat it plays is to move, the Pi's own thread asks the search and
submits the move as an ordinary event with `"by": "pi"`. The device loop never waits for it.

The thread lives from `attach` to `close` and sleeps until woken: a change of the game (a
session listener, run under the game's lock) or `request` only notes what it saw and wakes it;
neither ever starts a thread, so a box short of memory, where starting one fails or hangs,
never holds the game's lock or loses a move. A thread that cannot start at `attach` is
logged with its reason and started again by `poll` (the device loop's, each turn) after 1, 2,
4 ... 60 s; the move it missed is played then.

After an undo the Pi does not move again by itself (the player is taking a move back); a knob
press on its turn (`request`) asks it to, also after a restart (the newest stored event other
than a correction is the undo). A game resumed on the Pi's turn otherwise goes on at once, and
so does a new game whose first move is the Pi's, whatever game came before it.

A search that fails is logged with its reason and the Pi plays a legal move without it; if even
that fails, or the move cannot be stored (a full card), it is logged and the thread looks again
after 1, 2, 4 ... 60 s (unless a move was taken back meanwhile), so the game never stops.

`close` (the box shutting down) ends a search at once (its clock reads as past every deadline,
so it plays the best move found so far), wakes and waits for the thread and stores nothing
after it: the store closes next, and a move still thinking is thought again at the next start.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.backoff import RETRY_SECONDS, pause_after
from companion.errors import Refused
from companion.games import get_rulebook
from companion.pi.player import PiMemory, fallback_event, pi_event

BY = "pi"
CLOSE_SECONDS = 5.0          # how long `close` waits for a search cut short to end
log = logging.getLogger("parlour.pi")


def pi_level(snap: dict[str, Any]) -> str | None:
    """The level of the Pi if it plays the seat to move now, else None."""
    turn = snap.get("turn")
    players = snap.get("players") or []
    if snap.get("phase") in ("over", "idle", None) or turn is None or turn >= len(players):
        return None
    return players[turn].get("pi")


class PiWorker:
    """Plays the Pi's seats of the session's game, one move at a time, on its own thread."""

    def __init__(self, session, *, clock: Callable[[], float] = time.monotonic,
                 rng: random.Random | None = None):
        self.session = session
        self.clock = clock
        self.rng = rng or random.Random()
        self.memory = PiMemory()             # a proven plan of the Geese, kept between moves
        self._thread: threading.Thread | None = None
        self._wake = threading.Condition()   # guards the four below; never held over a call
        #                                      into the session (its lock is taken first)
        self._wanted: dict[str, Any] | None = None   # the newest state the Pi is to move in
        self._playing = False                # the thread is taking a turn
        self._retry_at: float | None = None  # when a failed turn is looked at again
        self._closed = False
        self._seen: tuple[Any, int] = (None, 0)        # (game id, log length) last noticed
        self._waiting: Any = None            # the game whose Pi move was taken back: it waits
        self.seen_version = 0                           # the newest state it was told of
        self._unsubscribe: Callable[[], None] | None = None
        self.last_error = ""
        self.failures = 0                    # failed turns in a row (the retry's backoff)
        self.start_failures = 0              # failed starts of the thread in a row
        self._start_at: float | None = None  # when `poll` starts the thread again

    def attach(self) -> None:
        """Start the thread (not under the session's lock), then follow the session."""
        self._start_thread()
        self._unsubscribe = self.session.subscribe(self._noticed)
        snap = self.session.snapshot()
        if self.session.taken_back:           # resumed after an undo: it still waits
            self._seen = (snap.get("game_id"), len(snap.get("log") or []))
            self._waiting = snap.get("game_id")
        self._noticed(snap)

    def detach(self) -> None:
        """Changes are no longer noticed: the Pi moves only when asked (`request`)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def poll(self) -> None:
        """A thread that could not start is started again once its pause is over. Call it
        holding no lock of the session's (the device loop does, every turn)."""
        if self._start_at is not None and not self._closed and time.monotonic() >= self._start_at:
            self._start_thread()

    def close(self, wait: float = CLOSE_SECONDS) -> None:
        """No more moves: the search is cut short and its thread woken and waited for (up to
        `wait` s)."""
        with self._wake:
            self._closed = True
            self._wake.notify_all()
        self.detach()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def _start_thread(self) -> None:
        """Start the Pi's thread; one that cannot start (short of memory) is said and `poll`
        tries again after 1, 2, 4 ... 60 s."""
        thread = threading.Thread(target=self._run, name="pi", daemon=True)
        try:
            thread.start()
        except Exception as err:  # noqa: BLE001 - "can't start new thread": said, tried again
            self.start_failures += 1
            delay = pause_after(self.start_failures, RETRY_SECONDS)
            self._start_at = time.monotonic() + delay
            log.error("the Pi's thread could not start (%s: %s); trying again in %g s",
                      type(err).__name__, err, delay)
            return
        self._thread, self._start_at, self.start_failures = thread, None, 0

    def _search_clock(self) -> float:
        """The search's clock: the worker's, or past every deadline once closed."""
        return float("inf") if self._closed else self.clock()

    @property
    def thinking(self) -> bool:
        """A move of the Pi's is wanted or being worked out."""
        with self._wake:
            return self._playing or self._wanted is not None

    def _noticed(self, snap: dict[str, Any]) -> None:
        """Any thread (the session's lock is held): wake the thread if the Pi is to move, unless
        a move was taken back in this game since it was last the Pi's turn to move by itself:
        then it waits for `request`, whatever else changes meanwhile (chances coming in, a
        rename), until the turn passes to a person or another game starts."""
        self.seen_version = snap.get("version", 0)
        seen = (snap.get("game_id"), len(snap.get("log") or []))
        if seen[0] == self._seen[0] and seen[1] < self._seen[1]:
            self._waiting = seen[0]
        self._seen = seen
        if pi_level(snap) is None or self._waiting != seen[0]:
            self._waiting = None
        self._want(snap if pi_level(snap) is not None and self._waiting is None else None)

    def request(self) -> bool:
        """Ask the Pi to move now (a knob press on its turn); False if it is not its turn."""
        snap = self.session.snapshot()
        if pi_level(snap) is None:
            return False
        self._waiting = None
        self._want(snap)
        return True

    @property
    def waiting(self) -> bool:
        """The Pi's move was taken back and it waits to be asked (`request`)."""
        return self._waiting is not None

    def _want(self, snap: dict[str, Any] | None) -> None:
        """Note the newest state (None: not the Pi's to move) and wake the thread."""
        with self._wake:
            self._wanted = snap
            if snap is not None:
                self._wake.notify_all()

    def _run(self) -> None:
        """The Pi's thread: sleep until a move is wanted or a failed turn's retry is due, then
        play in the session's newest state; a change while it played is taken up next."""
        while True:
            with self._wake:
                while not self._closed and self._wanted is None and not self._retry_due():
                    self._wake.wait(self._retry_in())
                if self._closed:
                    return
                snap, self._wanted, self._playing = self._wanted, None, True
                if snap is None:
                    self._retry_at = None
            try:
                self._play(self._look_again())    # the newest state, not the one noted
            except Exception:  # noqa: BLE001 - outside a turn's own care: said, and it goes on
                log.exception("the Pi's thread failed; it waits for the next change")
            finally:
                with self._wake:
                    self._playing = False

    def _retry_due(self) -> bool:
        return self._retry_at is not None and time.monotonic() >= self._retry_at

    def _retry_in(self) -> float | None:
        """Seconds until a failed turn's retry, or None (wait to be woken)."""
        return None if self._retry_at is None else max(0.0, self._retry_at - time.monotonic())

    def _look_again(self) -> dict[str, Any] | None:
        """The state the Pi plays in: the session's now, if the Pi is still to move and nothing
        was taken back meanwhile, else None. Never a state noted earlier: a knob press's
        snapshot, taken outside the session's lock, could be older than a change noted after
        it, and the Pi, refused in it, then waited on its own turn; a failed turn's retry
        after an undo moved the Pi with nobody asking."""
        snap = self.session.snapshot()
        return snap if self._waiting is None and pi_level(snap) is not None else None

    def _play(self, snap: dict[str, Any] | None) -> None:
        if snap is None:
            return
        level = pi_level(snap)
        state = self.session.state
        if level is None or state is None or self._closed:
            return
        try:
            self._move(snap, state, level)
            self.failures = 0
            with self._wake:
                self._retry_at = None        # moved: a retry still to come has nothing to do
        except Refused as err:               # the game moved on meanwhile: nothing to do
            self.last_error = str(err)
            self.failures = 0
        except Exception as err:  # noqa: BLE001 - never silent, never the end of the game
            if self._closed:
                return                       # shutting down: the next start plays it
            error, failures = f"{type(err).__name__}: {err}", self.failures + 1
            delay = pause_after(failures, RETRY_SECONDS)
            log.exception("the Pi could not move (%s); trying again in %g s", error, delay)
            self.last_error, self.failures = error, failures     # said before it shows
            with self._wake:
                self._retry_at = time.monotonic() + delay

    def _move(self, snap: dict[str, Any], state, level: str) -> None:
        """The search's move, or a legal one without it when the search fails (logged)."""
        rulebook = get_rulebook(state.game)
        try:
            event = pi_event(rulebook, state, level, rng=self.rng, clock=self._search_clock,
                             memory=self.memory)
        except Exception as err:  # noqa: BLE001 - a failed search still moves
            log.exception("the Pi's %s search failed (%s: %s): playing a legal move without it",
                          level, type(err).__name__, err)
            event = fallback_event(rulebook, state, rng=self.rng)
        if event is not None and not self._closed:
            self.session.submit_at(snap["state_version"], event, by=BY)


Setup = tuple[str, list[int], str | None]      # (words on the screen, the Pi's seats, level)


def pi_setups(rulebook, humans: int) -> list[Setup]:
    """Who the Pi may play when `humans` players have joined a game it knows, at each level:
    Fox and Geese, either side (the Fox is seat 0); Domino Rex, one more seat after theirs."""
    levels = ("easy", "good", "best")
    out: list[Setup] = []
    if humans >= rulebook.min_players:
        out.append(("No Pi", [], None))
    if rulebook.pi_seats == "one" and humans == rulebook.min_players - 1:
        out += [(f"Pi: Fox, {lv}", [0], lv) for lv in levels]
        out += [(f"Pi: Geese, {lv}", [1], lv) for lv in levels]
    elif rulebook.pi_seats == "any" and 1 <= humans < rulebook.max_players:
        out += [(f"Pi plays, {lv}", [humans], lv) for lv in levels]
    return out
