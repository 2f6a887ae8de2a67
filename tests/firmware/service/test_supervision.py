"""Helper threads that fail are never silent and never the end of the table: the Pi's search
and the figures worker log the reason and go on (the chances worker: test_odds_worker.py)."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from companion.pi.player import fallback_event
from controller_support import ann_plays_domino_rex
from firmware.workers import pi_worker
from firmware.workers.pi_worker import PiWorker
from web.records import figures as figures_module
from web.records.figures import Figures


def _until(check, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def _pi_moves(session) -> list[dict]:
    return [e for e in session.store.events(session.game_id) if e.get("by") == "pi"]


def test_supervision_a_failed_search_still_moves_and_says_why(session, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("search exploded")

    monkeypatch.setattr(pi_worker, "pi_event", broken)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="best")   # Geese first
    worker = PiWorker(session)
    with caplog.at_level(logging.ERROR, logger="parlour.pi"):
        worker.attach()
        assert _until(lambda: _pi_moves(session))
    worker.close()
    move = _pi_moves(session)[0]
    assert move["type"] == "move" and session.snapshot()["turn"] == 0      # accepted: legal
    assert "best search failed (RuntimeError: search exploded)" in caplog.text
    assert "playing a legal move without it" in caplog.text


def fails_first(call, error: Exception, calls: list[float]):
    """`call`, except that its first call raises `error`; each call's time goes to `calls`."""
    def wrapped(*args, **kwargs):
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise error
        return call(*args, **kwargs)
    return wrapped


def card_full_once(session, monkeypatch, retry: tuple[float, float]) -> list[float]:
    """The Pi's first move refused by a full card, its retries `retry` apart; the times of
    the session's `submit_at` calls, as they come."""
    from companion.errors import StoreError
    calls: list[float] = []
    monkeypatch.setattr(session, "submit_at",
                        fails_first(session.submit_at, StoreError("the card is full"), calls))
    monkeypatch.setattr(pi_worker, "RETRY_SECONDS", retry)
    return calls


def test_supervision_a_pi_that_cannot_move_at_all_tries_again_later(session, monkeypatch,
                                                                     caplog):
    calls = []

    def broken(*args, **kwargs):
        raise RuntimeError("search exploded")

    monkeypatch.setattr(pi_worker, "pi_event", broken)
    monkeypatch.setattr(pi_worker, "fallback_event",
                        fails_first(fallback_event, OSError("out of memory, say"), calls))
    monkeypatch.setattr(pi_worker, "RETRY_SECONDS", (0.3, 0.6))
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[0], pi_level="best")
    worker = PiWorker(session)
    with caplog.at_level(logging.ERROR, logger="parlour.pi"):
        worker.attach()
        assert _until(lambda: worker.failures == 1)
        assert not _pi_moves(session) and "the Pi could not move (OSError: out of memory, " \
            "say); trying again in 0.3 s" in caplog.text
        assert _until(lambda: _pi_moves(session))
    worker.close()
    assert len(calls) == 2 and calls[1] - calls[0] >= 0.25 and worker.failures == 0


def test_supervision_a_pi_move_the_store_cannot_keep_is_tried_again(session, monkeypatch,
                                                                    caplog):
    """A full card: the Pi's move is refused by the store, not by the game; it is logged and
    tried again, not taken for "the game moved on" (the Pi would sit still until asked)."""
    calls = card_full_once(session, monkeypatch, retry=(0.3, 0.6))
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[0], pi_level="easy")
    worker = PiWorker(session)
    with caplog.at_level(logging.ERROR, logger="parlour.pi"):
        worker.attach()
        assert _until(lambda: _pi_moves(session))
    worker.close()
    assert len(calls) >= 2 and "StoreError: the card is full" in caplog.text


def test_supervision_a_retry_after_a_failed_turn_never_moves_past_an_undo(session,
                                                                         monkeypatch):
    """The Pi's move failed (a full card) and a retry was set; the knob asked it meanwhile and
    it moved, then an undo took that back and the Pi waited to be asked: the old retry made it
    move again by itself. A retry is a look at the table, as a change is: the Pi still waits
    after an undo, and a turn it has already played leaves the retry nothing to do."""
    card_full_once(session, monkeypatch, retry=(0.6, 1.2))
    session.new_game("domino-rex", ["Pi", "Ann"], pi=[0], pi_level="easy")
    worker = PiWorker(session)
    worker.attach()
    assert _until(lambda: worker.failures == 1)
    assert worker._retry_at is not None                         # a retry is set
    assert worker.request() and _until(lambda: len(_pi_moves(session)) == 1)   # the knob
    session.undo(by="undo")                                     # taken back: the Pi waits
    assert _until(lambda: worker.waiting)
    time.sleep(1.0)                                              # past the old retry's time
    assert worker._retry_at is None and worker.waiting
    assert len(_pi_moves(session)) == 1 and session.snapshot()["taken_back"]
    worker.close()


def test_supervision_a_pi_thinking_at_shutdown_stops_and_stores_nothing(session, monkeypatch,
                                                                        caplog):
    """The box shutting down while the Pi thinks: `close` cuts the search short through its
    clock and waits for it, nothing is stored after (the store closes next: no "could not
    move" at every stop), and the next start thinks again."""
    thinking = threading.Event()
    real = pi_worker.pi_event

    def slow(rulebook, state, level, *, rng, clock, memory):
        deadline = clock() + 30.0                  # a search that honours its clock, as ours do
        thinking.set()
        while clock() < deadline:
            time.sleep(0.01)
        return real(rulebook, state, level, rng=rng, memory=memory)

    monkeypatch.setattr(pi_worker, "pi_event", slow)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="best")   # Geese first
    worker = PiWorker(session)
    with caplog.at_level(logging.ERROR, logger="parlour.pi"):
        worker.attach()
        assert thinking.wait(10)
        started = time.monotonic()
        worker.close()
        assert not worker._thread.is_alive() and time.monotonic() - started < 5
        session.store.close()                       # as the runner does next
        time.sleep(0.2)
    assert "could not move" not in caplog.text and worker._retry_at is None
    store = type(session.store)(session.store.path)     # what the next start reads
    try:
        assert not [e for e in store.events(session.game_id) if e.get("by") == "pi"]
    finally:
        store.close()


def test_supervision_figures_that_fail_are_logged_and_tried_again(session, monkeypatch,
                                                                   caplog):
    monkeypatch.setattr(figures_module, "RETRY_SECONDS", (0.05, 0.1))
    figures = Figures(session.store)
    attempts, done = [], threading.Event()

    def fill(limit=0):
        attempts.append(time.monotonic())
        if len(attempts) <= 2:
            raise ValueError(f"the store said no ({len(attempts)})")
        done.set()
        return 0

    figures.fill = fill
    with caplog.at_level(logging.ERROR, logger="parlour.figures"):
        figures.start()
        try:
            assert done.wait(10)
        finally:
            figures.stop()
    assert len(attempts) == 3
    assert attempts[1] - attempts[0] >= 0.04 and attempts[2] - attempts[1] >= 0.09  # backoff
    assert "(ValueError: the store said no (1)); trying again in 0.05 s" in caplog.text
    assert "(ValueError: the store said no (2)); trying again in 0.1 s" in caplog.text


def test_supervision_the_pi_keeps_one_memory_between_its_moves(session, monkeypatch):
    """The Geese's proven plan lives in the worker's memory: every move of the Pi is asked
    with the same memory, so a plan found at one move is played at the next."""
    asked = []
    real = pi_worker.pi_event

    def spy(*args, **kwargs):
        asked.append(kwargs.get("memory"))
        return real(*args, **kwargs)

    monkeypatch.setattr(pi_worker, "pi_event", spy)
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="best")   # Geese first
    worker = PiWorker(session)
    worker.attach()
    assert _until(lambda: len(_pi_moves(session)) == 1)
    fox_step = session.snapshot()["board"]["moves"][0]
    session.submit({"type": "move", "path": fox_step})
    assert _until(lambda: len(_pi_moves(session)) == 2)
    worker.close()
    assert len(asked) == 2 and asked[0] is asked[1] is worker.memory is not None


class ThreadStarts:
    """`threading.Thread.start` as a box short of memory has it, while `refusing`: it raises
    "can't start new thread", or (`hang`) does not return until `hung` is set."""

    def __init__(self, monkeypatch, *, hang: bool = False):
        self.refusing, self.hung, self.hang = threading.Event(), threading.Event(), hang
        self.tried = 0
        real = threading.Thread.start

        def start(thread):
            if self.refusing.is_set():
                self.tried += 1
                if not self.hang:
                    raise RuntimeError("can't start new thread")
                self.hung.wait(30)
            return real(thread)

        monkeypatch.setattr(threading.Thread, "start", start)


@pytest.mark.parametrize("hang", [False, True], ids=["raises", "hangs"])
def test_supervision_a_thread_that_cannot_start_never_holds_the_game_nor_stops_the_pi(
        session, monkeypatch, caplog, hang):
    """Short of memory, a move that makes it the Pi's turn is stored, the game's lock is free
    at once, nothing fails in the session's listeners, and the Pi still moves."""
    session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy")   # Geese first
    worker = PiWorker(session)
    worker.attach()
    geese = session.snapshot()["board"]["moves"][0]
    answered, go = [], threading.Event()
    mover = threading.Thread(target=lambda: go.wait(10) and answered.append(
        session.submit({"type": "move", "path": geese}, by="knob")))
    mover.start()
    starts = ThreadStarts(monkeypatch, hang=hang)
    try:
        with caplog.at_level(logging.ERROR):
            starts.refusing.set()
            go.set()
            mover.join(5)
            assert answered and answered[0]["turn"] == 0       # stored: the Fox's turn
            lock = session.locked()
            free = _until(lambda: lock.acquire(timeout=0.1), seconds=2)
            assert free, "the game's lock is still held"
            lock.release()
            starts.refusing.clear()
            assert _until(lambda: _pi_moves(session))          # the Pi's Fox answers
        assert "a listener failed" not in caplog.text
    finally:
        starts.refusing.clear()
        starts.hung.set()
        worker.close()
    assert _pi_moves(session)[0]["type"] == "move" and session.snapshot()["turn"] == 1


def test_supervision_a_pi_thread_that_cannot_start_is_said_and_started_again(
        session, monkeypatch, caplog, clock):
    """No thread at `attach` (short of memory): nothing is raised, the reason is logged, and
    the device loop starts it after 1, 2, 4 ... s; the Pi then plays the move it missed."""
    from firmware.controller import Controller
    monkeypatch.setattr(pi_worker, "RETRY_SECONDS", (0.2, 0.4))
    session.new_game("fox-and-geese", ["Ann", "Pi"], pi=[1], pi_level="easy")   # Geese first
    table = Controller(session, seats=4, clock=clock)
    starts = ThreadStarts(monkeypatch)
    starts.refusing.set()
    try:
        with caplog.at_level(logging.ERROR, logger="parlour.pi"):
            table.attach()                          # the Pi to move, and no thread for it
            assert "the Pi's thread could not start (RuntimeError: can't start new " \
                "thread); trying again in 0.2 s" in caplog.text
            table.update()
            assert starts.tried == 1                # not before its pause

            def updated(check):                     # a turn of the device loop, then a look
                table.update()
                return check()

            assert _until(lambda: updated(lambda: starts.tried == 2))
            assert "trying again in 0.4 s" in caplog.text and not _pi_moves(session)
            starts.refusing.clear()
            assert _until(lambda: updated(lambda: _pi_moves(session)))
        assert starts.tried == 2 and table.pi.start_failures == 0
    finally:
        starts.refusing.clear()
        table.close()
    assert session.snapshot()["turn"] == 0


def test_supervision_the_pi_plays_a_whole_game_on_one_thread(session, monkeypatch):
    """Every move of the Pi's, a whole game long, is worked out on the one thread `attach`
    started: none is started per move."""
    threads = []
    real = pi_worker.pi_event

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(pi_worker, "pi_event", spy)
    session.new_game("domino-rex", ["Ann", "Pi"], pi=[1], pi_level="easy")
    worker = PiWorker(session)
    worker.attach()
    started = ThreadStarts(monkeypatch, hang=False)
    started.refusing.set()                          # from here, no thread may start
    try:
        snap = ann_plays_domino_rex(session, worker, 400)
        assert snap["phase"] == "over" and len(threads) > 4
        assert set(threads) == {worker._thread} and started.tried == 0
    finally:
        started.refusing.clear()
        worker.close()
    assert not threads[0].is_alive()                # `close` woke it and waited for it


def test_supervision_a_failed_turns_retry_is_looked_at_by_the_pis_own_thread(session,
                                                                            monkeypatch):
    """The retry after a failed turn (a full card) is a timed wait of the Pi's thread, not a
    timer's thread starting another."""
    calls = card_full_once(session, monkeypatch, retry=(0.2, 0.4))
    threads = []
    real = session.submit_at
    monkeypatch.setattr(session, "submit_at", lambda *args, **kwargs: threads.append(
        threading.current_thread()) or real(*args, **kwargs))
    session.new_game("domino-rex", ["Pi", "Ann"], pi=[0], pi_level="easy")
    worker = PiWorker(session)
    worker.attach()
    try:
        assert _until(lambda: _pi_moves(session))
    finally:
        worker.close()
    assert len(calls) == 2 and calls[1] - calls[0] >= 0.15
    assert threads == [worker._thread] * 2


def test_supervision_a_knob_press_never_sets_the_pi_on_an_older_state(session, monkeypatch):
    """A knob press reads the game outside its lock; a phone's rename noted after that read,
    the Pi still to move, was overwritten by the press's older state: the Pi, refused in it
    ("the game changed while the Pi was thinking"), then waited on its own turn for good.
    The Pi plays in the game as it is when it plays."""
    go = threading.Event()
    real = pi_worker.pi_event

    def held(*args, **kwargs):                      # the Pi thinks until the press is done
        go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(pi_worker, "pi_event", held)
    session.new_game("fox-and-geese", ["Pi", "Ann"], pi=[0], pi_level="easy")
    worker = PiWorker(session)
    worker.attach()
    try:
        geese = session.snapshot()["board"]["moves"][0]
        session.submit({"type": "move", "path": geese}, by="knob")     # the Pi's turn
        assert _until(lambda: worker.thinking)
        read, knob, renamed = session.snapshot, threading.current_thread(), []

        def read_then_renamed():                    # the press's read, then a phone's rename
            snap = read()
            if threading.current_thread() is knob and not renamed:
                renamed.append(True)
                session.submit({"type": "rename", "seat": 1, "name": "Anna"}, by="web")
            return snap

        monkeypatch.setattr(session, "snapshot", read_then_renamed)
        assert worker.request()
        monkeypatch.setattr(session, "snapshot", read)
        go.set()
        assert _until(lambda: len(_pi_moves(session)) == 1 and not worker.thinking)
        assert session.snapshot()["turn"] == 1                       # the Geese to move
    finally:
        go.set()
        worker.close()
