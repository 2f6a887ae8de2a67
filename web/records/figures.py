"""Per-game figures for /history, /fairness and /api/games, so a page costs the games it shows.

A game that has left play never changes, so what its log tells (rolls per face, names and
scores at the end, the roll check) is replayed once and kept in the store. A background
worker writes them soon after a game ends, and fills them once for the games of an older
store; a page that meets a game still without them replays just that game. (Derived data:
a game whose figures a crash lost is simply filled again at the next start.) Totals over every
game come from the store's kept figures in one query, and concurrent requests for the same
thing share one computation (SharedWork) instead of each doing it again. The game in play's
figures, chart, record and words are worked out once for each of its versions (its count of
events), and only the newest is kept.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from companion.backoff import RETRY_SECONDS, pause_after
from companion.errors import ParlourError
from companion.replay import replay
from companion.session import export_events
from companion.randomness.stats import (effective_rolls, randomizer_key, table_rolls,
                                        verify_rolls)
from companion.record.store import GameRecord, Store
from web.history import result_rows, roster_totals
from web.records.record import game_record, record_of
from web.records.summaries import Replayed, replayed

PAGE = 50            # games on one page of /history, /fairness or /api/games
INLINE = 20          # games without figures a page may replay itself; past that it waits
BATCH = 25           # games the worker fills between pauses
KEPT = 32            # results SharedWork keeps (the newest), and replays of shown games
LIVE_KEPT = 8        # results kept of games in play: figures, chart, record, words of two
log = logging.getLogger("parlour.figures")


class SharedWork:
    """One computation per key at a time: a caller asking for a key already being computed
    waits for that result. The newest KEPT results are kept, so memory stays bounded."""

    def __init__(self, kept: int = KEPT):
        self.kept = kept
        self.computed: Counter[Hashable] = Counter()   # computations run, by key (the latest)
        self._lock = threading.Lock()
        self._done: OrderedDict[Hashable, Any] = OrderedDict()
        self._running: dict[Hashable, tuple[threading.Event, dict]] = {}
        self._versions: dict[Hashable, Hashable] = {}   # a thing -> the key of its kept version

    def get(self, key: Hashable, compute: Callable[[], Any], *,
            version_of: Hashable = None) -> Any:
        """The result for `key`. `version_of`: what `key` is one version of (a game in play's
        chart): keeping its result drops the one kept for another version at once."""
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return self._done[key]
            running = self._running.get(key)
            if running is None:
                running = self._running[key] = (threading.Event(), {})
                owner = True
            else:
                owner = False
        done, box = running
        if not owner:
            done.wait()
            if "error" in box:
                raise box["error"]
            return box["value"]
        try:
            box["value"] = compute()
            return box["value"]
        except BaseException as err:
            box["error"] = err
            raise
        finally:
            with self._lock:
                self.computed[key] = self.computed.pop(key, 0) + 1    # the newest last
                while len(self.computed) > 4 * self.kept:            # a count a key, bounded
                    del self.computed[next(iter(self.computed))]
                self._running.pop(key, None)
                if "value" in box:
                    self._keep(key, box["value"], version_of)
            done.set()

    def _keep(self, key: Hashable, value: Any, version_of: Hashable) -> None:
        if version_of is not None:
            before = self._versions.pop(version_of, None)
            if before is not None and before != key:
                self._done.pop(before, None)
            self._versions[version_of] = key
        self._done[key] = value
        while len(self._done) > self.kept:
            self._done.popitem(last=False)
        if len(self._versions) > self.kept:                       # none kept any more
            self._versions = {thing: k for thing, k in self._versions.items()
                              if k in self._done}


def compute_figures(store: Store, record: GameRecord) -> dict[str, Any]:
    """One game's figures from its stored log (the seed revealed if it is over)."""
    events = export_events(store, record.id)
    names, scores, result = list(record.players), [], []
    in_effect = None                           # the rolls, from the one replay of the log
    try:
        table = replay(events)
        in_effect = table_rolls(table)
        state = table.to_json()
        names = [p["name"] for p in state["players"]] or names
        scores = [p["score"] for p in state["players"]]
        result = result_rows(record_of(record, events, state))
    except ParlourError:
        pass                                   # a log that no longer replays: names as stored
    faces: dict[str, list[int]] = {}
    rolls = 0
    try:
        for dice, values in effective_rolls(events) if in_effect is None else in_effect:
            rolls += 1
            row = faces.setdefault(randomizer_key(dice), [0] * dice.faces)
            for value in values:
                if 1 <= value <= len(row):
                    row[value - 1] += 1
    except ParlourError:
        pass
    checked = None
    if record.over:
        v = verify_rolls(events)
        checked = {"ok": v.ok, "status": v.status, "message": v.message,
                   "problems": [str(p) for p in v.problems[:5]]}
    return {"rolls": rolls, "names": names, "scores": scores, "checked": checked,
            "faces": faces, "result": result}


def _as_stored(figures: dict[str, Any]) -> dict[str, Any]:
    """Figures as the store gives them back (faces as {key: {face: count}})."""
    faces = {k: dict(enumerate(row, start=1))
             for k, row in figures["faces"].items()}
    return {**figures, "faces": faces}


class Figures:
    """The figures of one store's games, kept, shared and filled in the background."""

    def __init__(self, store: Store):
        self.store = store
        self.shared = SharedWork()
        self.live = SharedWork(LIVE_KEPT)     # the game in play's, its newest version each
        self._replays: OrderedDict[tuple, Replayed] = OrderedDict()
        self._replays_lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.worker: threading.Thread | None = None
        self.written = 0                      # batches of figures written by this process
        self._keep_lock = threading.Lock()
        self._kept: tuple[int, dict[str, dict[int, int]]] | None = None   # (written, sum)
        self._seen: Any = None                # the game the session last showed

    def of(self, records: list[GameRecord]) -> dict[int, dict[str, Any]]:
        """Figures of these games: kept ones read, a few missing ones replayed (and kept if
        the game has left play); the rest left out (the worker is on them)."""
        found = self.store.figures([r.id for r in records])
        missing = [r for r in records if r.id not in found]
        done = [(r, self._figures(r)) for r in missing[:INLINE]]
        finished = [(r.id, figures) for r, figures in done if r.status != "playing"]
        if finished:
            self._keep(finished)
        found.update((r.id, _as_stored(figures)) for r, figures in done)
        return found

    def _figures(self, record: GameRecord) -> dict[str, Any]:
        """One game's figures worked out now; a game in play's once a version of it."""
        if record.status == "playing":
            return self.of_game("figures", record, lambda: compute_figures(self.store, record))
        return compute_figures(self.store, record)

    def face_totals(self) -> tuple[dict[str, list[int]], int]:
        """Faces shown by every game ({key: [count of face 1, ...]}), and how many finished
        games are not counted yet (an older store being filled in). The kept games' sum is
        reused until a figure is written; the game in play is replayed when it changes."""
        def compute() -> tuple[dict[str, list[int]], int]:
            with self._keep_lock:              # the sum and the games outside it agree
                if self._kept is None or self._kept[0] != self.written:
                    self._kept = (self.written, self.store.face_totals())
                totals = {key: dict(faces) for key, faces in self._kept[1].items()}
                waiting = self.store.without_figures(INLINE + 1)
                live = self.store.latest_unfinished()
            extra = waiting[:INLINE] + ([live] if live else [])
            for figures in self.of(extra).values():
                for key, faces in figures["faces"].items():
                    row = totals.setdefault(key, {})
                    for face, n in faces.items():
                        row[face] = row.get(face, 0) + n
            rows = {key: [faces.get(f, 0) for f in range(1, max(faces) + 1)]
                    for key, faces in totals.items() if faces}   # every face is kept, 0 too
            left = self.store.count_without_figures() if len(waiting) > INLINE else 0
            return rows, left
        return self.shared.get(("faces", self.store.version), compute)

    def _keep(self, games: list[tuple[int, dict[str, Any]]]) -> None:
        with self._keep_lock:
            self.store.put_figures(games)
            self.written += 1

    def player_totals(self) -> list[dict[str, Any]]:
        """Games and wins per roster name (case-insensitive), by the names games ended with."""
        roster = tuple(self.store.roster())
        return self.shared.get(("players", self.store.games_version(), roster),
                               lambda: roster_totals(self.store.player_rows(), list(roster)))

    def of_game(self, kind: str, record: GameRecord, compute: Callable[[], Any]) -> Any:
        """What `compute` makes of one game, worked out once a version of it and shared by
        concurrent requests: a game that left play has one version; a game in play a new one
        at each event (an undo is one too), and only its newest of each kind is kept."""
        key = (kind, record.id, record.events, record.status)
        if record.status == "playing":
            return self.live.get(key, compute, version_of=(kind, record.id))
        return self.shared.get(key, compute)

    def replayed(self, record: GameRecord) -> Replayed:
        """A shown game's log in words; the newest KEPT replays are kept."""
        if record.status == "playing":
            return self.of_game("replay", record, lambda: replayed(self.store, record))
        key = (record.id, record.events, record.status)
        with self._replays_lock:
            if key in self._replays:
                self._replays.move_to_end(key)
                return self._replays[key]
        told = self.shared.get(("replay",) + key, lambda: replayed(self.store, record))
        with self._replays_lock:
            self._replays[key] = told
            while len(self._replays) > KEPT:
                self._replays.popitem(last=False)
        return told

    def record(self, record: GameRecord) -> dict[str, Any]:
        """A game's record (web/records/record.py), worked out once a version and shared (the
        status page, its BG Stats link and /record all ask for it). A copy: callers may add to
        it. ParlourError if its log no longer replays."""
        return dict(self.of_game("record", record, lambda: game_record(self.store, record)))

    # -- the worker ------------------------------------------------------------------------

    def fill(self, limit: int = BATCH) -> int:
        """Keep the figures of up to `limit` games that left play without them; how many."""
        records = self.store.without_figures(limit)
        if records:
            self._keep([(r.id, compute_figures(self.store, r)) for r in records])
        return len(records)

    def wake(self, state: dict[str, Any] | None = None) -> None:
        """A session listener: look again when a game ends or another begins (not on every
        roll: the look is a query over every game)."""
        seen = None if state is None else (state.get("game_id"), state.get("phase"))
        if seen is None or seen[1] == "over" or seen[0] != self._seen:
            self._seen = None if seen is None else seen[0]
            self._wake.set()

    def start(self) -> None:
        if self.worker is None:
            self.worker = threading.Thread(target=self._work, name="figures", daemon=True)
            self.worker.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self.worker is not None:
            self.worker.join(timeout=5)

    def _work(self) -> None:
        failures = 0
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                done = self.fill()
                failures = 0
            except Exception as err:  # noqa: BLE001 - logged, then tried again after a pause
                failures += 1
                delay = pause_after(failures, RETRY_SECONDS)
                log.exception("figures: could not keep a game's figures (%s: %s); trying "
                              "again in %g s", type(err).__name__, err, delay)
                self._stop.wait(delay)
                continue
            if done:                           # at most half a core: the table plays first
                self._stop.wait(time.monotonic() - started)
                continue
            self._wake.wait()
            self._wake.clear()
