"""Finished games' charts, completed and kept for history (the chances worker's bookkeeping).

A chart is every step of a game with its chances. The worker works out earlier steps only as
the game in play leaves it time, a job at a time; a game finished and followed at once by the
next (scripted, or a quick table), one longer than a job reaches, or one finished before a
restart was left with steps missing and never kept. These are remembered here (a few at a
time), their missing steps handed to the compute process whenever it is idle, and each chart
stored once whole.
"""

from __future__ import annotations

import threading
from typing import Any

from companion.errors import ParlourError, StoreError

KEPT = 4                 # finished games whose charts wait to be completed, at most


class FinishedCharts:
    """The finished games whose charts are not yet whole: game id -> [rulebook id, the state
    after each event, the chances known by step]. Called from the worker's two threads."""

    def __init__(self, session, keep: bool):
        self.session = session
        self.keep = keep                 # False: no charts kept (nothing to complete)
        self._saved: set[int] = set()
        self._waiting: dict[int, list[Any]] = {}
        self._lock = threading.Lock()

    def note(self, game_id: int | None, rulebook, states: list, known: dict) -> None:
        """The game in play, if finished: its steps and the chances known so far."""
        if not self.keep or game_id is None or game_id in self._saved or not states \
                or not states[-1].over:
            return
        with self._lock:
            entry = self._waiting.setdefault(game_id, [rulebook.id, states, {}])  # final (X11)
            entry[2].update(known)
            self._trim()

    def games_left(self, game_id: int | None, before: int | None) -> None:
        """The game in play has changed from `before` to `game_id`: the games just before it
        (the one the jobs were for, one finished and followed by the next before any job was
        sent, or before a power cut) that finished with no chart kept are taken from the
        store, to complete."""
        if not self.keep:
            return
        from companion.chances.odds import has_odds
        from companion.replay import replay
        store = self.session.store
        try:                            # the newest game of all: one finished, then no game
            last = store.games_version()[1] or 0          # (after a restart) has none after it
        except ParlourError:
            last = 0
        newest = max(i for i in (game_id, before, last) if i is not None)
        for earlier in range(max(1, newest - KEPT), newest + 1):
            if earlier == game_id or earlier in self._saved or earlier in self._waiting:
                continue
            try:
                record = store.game(earlier)
                if record is None or not record.over or store.has_chances(earlier):
                    continue
                table = replay(store.events(earlier))
            except ParlourError:        # unreadable or a full card: no chart to complete
                continue
            if has_odds(table.rulebook):
                with self._lock:
                    self._waiting[earlier] = [table.rulebook.id, table.states, {}]
                    self._trim()

    def add(self, game_id: int, steps: dict[int, list[float]]) -> None:
        """Steps the compute process worked out for a finished game."""
        with self._lock:
            entry = self._waiting.get(game_id)
            if entry is not None:
                entry[2].update(steps)
        self.store_if_whole(game_id)

    def store_if_whole(self, game_id: int | None) -> None:
        """Once every step of a waiting game has its chances, store them for history."""
        with self._lock:
            entry = self._waiting.get(game_id)
            if entry is None or len(entry[2]) < len(entry[1]):
                return
            del self._waiting[game_id]
            self._saved.add(game_id)
        _, states, known = entry
        try:
            self.session.store.keep_chances(game_id, [known.get(step)
                                                      for step in range(len(states))])
        except StoreError:          # a full card: tried again as the next chances come
            self._saved.discard(game_id)
            with self._lock:
                self._waiting.setdefault(game_id, entry)

    def missing(self, most: int) -> tuple[int, str, list] | None:
        """A waiting game's steps still without chances, newest first (at most `most`), as
        (game id, rulebook id, [(step, state)]); None when every chart waiting is whole. A
        whole one still waiting (a full card refused it) is stored again first."""
        with self._lock:
            whole = [game_id for game_id, (_, states, known) in self._waiting.items()
                     if len(known) >= len(states)]
        for game_id in whole:
            self.store_if_whole(game_id)
        with self._lock:
            for game_id, (rulebook_id, states, known) in self._waiting.items():
                steps = [(step, states[step]) for step in range(len(states) - 1, -1, -1)
                         if step not in known][:most]
                if steps:
                    return game_id, rulebook_id, steps
        return None

    def _trim(self) -> None:
        """At most KEPT charts wait to be completed: the oldest gives way."""
        while len(self._waiting) > KEPT:
            del self._waiting[min(self._waiting)]
