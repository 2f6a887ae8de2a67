"""Chances to win, worked out beside the device loop, never in its way.

    session change ──listener──> OddsWorker (a thread: takes the state, sends a job)
                                      │ pipe                 ^ pipe: progress
                                      v                      │
                                compute process (nice 19): exact, or playouts in chunks,
                                checking between chunks for a newer job (which cancels this)
    OddsWorker ──session.publish_odds(state_version, ...)──> phones, scores screen

A separate process at the lowest priority, so the playouts hold neither the device loop's
GIL nor a core it needs. Each result carries the state version it was worked out for; the
session drops it if the game has moved on. The playouts draw from their own `random.Random`,
never from the game's committed roll stream.

A compute process that dies is never silent: its end is logged with its cause (the error that
ended it, as it said before going, or the signal that killed it: SIGSYS is the service's
system-call filter), the state says the chances are paused (phones show it), and it is started
again after 1, 2, 4 ... 60 s. One that hangs (silent for HUNG_SECONDS with a job unfinished)
is ended and said so.
A priority it may not lower (a system-call filter that denies setpriority) is logged once and
the work goes on at the ordinary priority.

A finished game's chart is kept whole even when the next game starts at once: the steps its
last jobs did not reach are worked out whenever the compute process has nothing newer to do
(it says "idle"), then stored with the rest (`finished_charts`).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from typing import Any

from firmware.workers.finished_charts import FinishedCharts

TARGET_MARGIN = 0.01     # stop once every seat is known to +/- 1 percentage point (95%)
BUDGET_SECONDS = 4.0     # or after this long on one state
REPORT_SECONDS = 0.5     # progress goes to the phones at most this often
CHUNK = 100              # playouts between looks at the pipe (a newer state cancels)
STEP_RUNS = 300          # playouts for an earlier step of the game (the chart)
MAX_STEPS = 400          # earlier steps filled in at most, newest first (a job at a time)
STARTING = -1            # no job sent yet (not None: no game)
SETTLE_SECONDS = 0.05    # a change is taken up only once the game is still this long: the
#                          device loop draws its answer first, without the job's pickling
RESTART_SECONDS = (1.0, 60.0)   # a dead compute process is started again after 1, 2, 4 ... 60 s
EXIT_FAILED = 3                 # the compute process ended on an error it could name
STEADY_SECONDS = 60.0           # one that ran this long starts the backoff from 1 s again
# A job says something at least every REPORT_SECONDS while it works (the slowest exact answer
# takes 0.6 s on a Zero 2 W): one silent this long with a job unfinished has hung (stopped,
# out of memory and swapping) and is ended and started again, said as any end is.
HUNG_SECONDS = 30.0
log = logging.getLogger("parlour.chances")


class OddsWorker:
    """Follows the session; a compute process works out each new state's chances."""

    def __init__(self, session, *, keep: bool = False):
        self.session = session
        self.keep = keep                 # keep finished games' chances in the store (charts)
        self.charts = FinishedCharts(session, keep)   # finished games' charts, completed
        self._job_game: int | None = STARTING   # the game of the newest job
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._seen = -1
        self._unsubscribe = None
        self._context = multiprocessing.get_context("spawn")
        self._conn, self._process = self._new_process()
        self._started = 0.0
        self._failed = ""                # what the compute process said as it failed
        self._working_since: float | None = None   # a job sent and its "idle" not heard yet
        self._heard = 0.0                # when the compute process last said anything
        self.restarts = 0
        self._sender = threading.Thread(target=self._send_jobs, name="odds-jobs", daemon=True)
        self._receiver = threading.Thread(target=self._receive, name="odds-results",
                                          daemon=True)
        self._send_lock = threading.Lock()
        self.published = 0

    def _new_process(self):
        mine, child = self._context.Pipe()
        process = self._context.Process(target=compute, args=(child,), name="parlour-odds",
                                        daemon=True)
        return mine, process

    def start(self) -> None:
        self._process.start()
        self._started = time.monotonic()
        self._sender.start()
        self._receiver.start()
        self._unsubscribe = self.session.subscribe(self._noticed)
        self._wake.set()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._stop.set()
        self._wake.set()
        try:
            with self._send_lock:
                self._conn.send(None)
        except (OSError, ValueError):
            pass
        self._process.join(timeout=2)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=1)
        self._conn.close()

    def _noticed(self, snap: dict[str, Any]) -> None:
        """Called under the session's lock: only note that the game may have changed."""
        if snap.get("state_version") != self._seen:
            self._wake.set()

    def _send_jobs(self) -> None:
        from companion.chances.odds import has_odds
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            while not self._stop.is_set() and self._wake.wait(SETTLE_SECONDS):
                self._wake.clear()                     # still changing: wait for it to settle
            if self._stop.is_set():
                return
            version, game_id, rulebook, states, known = self.session.odds_job()
            if version == self._seen:
                continue
            self._seen = version
            if game_id != self._job_game:
                self.charts.games_left(game_id, None if self._job_game == STARTING
                                       else self._job_game)
                self._job_game = game_id
            if not has_odds(rulebook):     # no job (no game, or one without chances): the
                self._send_backfill()      # charts still to complete are worked out now
                continue
            self.charts.note(game_id, rulebook, states, known)
            current = len(states) - 1
            earlier = [(step, states[step]) for step in range(current - 1, -1, -1)
                       if step not in known][:MAX_STEPS]
            job = (version, rulebook.id, states[current], earlier)
            try:
                with self._send_lock:
                    self._conn.send(job)
                    self._sent()
            except (OSError, ValueError):   # the process has gone: the restart resends it
                self._seen = -1

    def _sent(self) -> None:
        """A job went to the compute process: it works, and must say so (`HUNG_SECONDS`)."""
        now = time.monotonic()
        if self._working_since is None:
            self._working_since, self._heard = now, now

    def _receive(self) -> None:
        delay = RESTART_SECONDS[0]
        while not self._stop.is_set():
            try:
                if not self._conn.poll(1.0):
                    self._end_if_hung()
                    continue
                message = self._conn.recv()
            except (EOFError, OSError):
                if self._stop.is_set():
                    return
                delay = self._restart(delay)
                continue
            self._heard = time.monotonic()
            if message[0] == "note":                   # the compute process tells the log
                log.warning("chances: %s", message[1])
                continue
            if message[0] == "failed":                 # said as it goes: the restart logs it
                self._failed = message[1]
                continue
            if message[0] == "steps":                  # an earlier game's chart, filled in
                self.charts.add(message[1], message[2])
                continue
            if message[0] == "idle":                   # nothing newer: complete a chart
                self._working_since = None
                self._send_backfill()
                continue
            version, odds, steps = message
            if self.session.publish_odds(version, odds, steps):
                self.published += 1
                self._keep_finished()

    def _end_if_hung(self) -> None:
        """A compute process silent for HUNG_SECONDS with a job unfinished is killed: the
        pipe's end then says it has gone, and `_restart` says why and starts another (one
        stopped for 30 s left the phones a chart of old figures, with nothing logged)."""
        if self._working_since is None or time.monotonic() - self._heard < HUNG_SECONDS:
            return
        self._failed = f"no answer for {HUNG_SECONDS:.0f} s: ended"
        self._working_since = None
        self._process.kill()

    def _restart(self, delay: float) -> float:
        """The compute process has gone: say so (log and state), wait, start a new one and
        resend the newest job. Returns the next wait."""
        self._process.join(timeout=1)
        code = self._process.exitcode
        ran = time.monotonic() - self._started
        if ran >= STEADY_SECONDS:
            delay = RESTART_SECONDS[0]
        reason = f"the chances worker stopped ({ended_by(code, self._failed)})"
        self._failed, self._working_since = "", None
        log.error("%s after %.0f s: starting it again in %.0f s", reason, ran, delay)
        self.session.pause_chances(f"{reason}; trying again")
        if self._stop.wait(delay):
            return delay
        with self._send_lock:
            self._conn.close()
            self._conn, self._process = self._new_process()
            self._process.start()
        self._started = time.monotonic()
        self.restarts += 1
        self._seen = -1                                # the newest job goes to the new one
        self._wake.set()
        self.session.pause_chances(None)
        return min(delay * 2, RESTART_SECONDS[1])

    def _keep_finished(self) -> None:
        """Once a finished game's every step has its chances, store them for history."""
        _, game_id, rulebook, states, known = self.session.odds_job()
        self.charts.note(game_id, rulebook, states, known)
        self.charts.store_if_whole(game_id)

    def _send_backfill(self) -> None:
        """The compute process is idle: send it the missing steps of a finished game's chart
        (newest first, as a job does); a job for the game in play, sent later, cancels it."""
        missing = self.charts.missing(MAX_STEPS)
        if missing is None:
            return
        try:
            with self._send_lock:
                self._conn.send(("backfill", *missing))
                self._sent()
        except (OSError, ValueError):   # the process has gone: the restart idles again
            pass


def hint_of(session) -> dict[str, Any] | None:
    """Domino Rex's hint for the session's position, {"value", "text"}; None if no choice is
    awaited. The worker sends it with the chances; this works it out where it did not."""
    from companion.chances.domino_rex import hint
    _, _, rulebook, states, _ = session.odds_job()
    advice = hint(rulebook, states[-1]) if states else None
    return None if advice is None else {"value": advice.value, "text": advice.text}


def ended_by(code: int | None, failed: str = "") -> str:
    """How a compute process ended, in the log's words: its error, or the signal that killed
    it ("exit code 0" read as a normal end, and "-31" named no signal)."""
    if failed:
        return failed
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}" + (
            ": a system call the service's filter forbids" if name == "SIGSYS" else "")
    if code == EXIT_FAILED:
        return "an error it could not report (a call the service's filter forbids?)"
    return f"exit code {code}"


def compute(conn) -> None:
    """The compute process: the newest job first; a newer job cancels the one under way.
    It ends quietly when the device program goes (its end of the pipe closes), however it
    went, kill -9 included. A stop signal sent to the whole process group (`systemctl stop`,
    Ctrl-C in a terminal) is left to the device program, which ends it as it closes: dying of
    it first read in the log as a crash and a restart."""
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, signal.SIG_IGN)
    try:
        _compute(conn)
    except (EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        return                           # the device program has gone
    except Exception as err:  # noqa: BLE001 - any error is named: a call the system-call
        words = f"{type(err).__name__}: {err}"     # filter denies (EPERM), memory that ran out
        try:
            conn.send(("failed", words))
        except OSError:
            print(f"parlour chances worker: {words}", file=sys.stderr, flush=True)
        sys.exit(EXIT_FAILED)


def _compute(conn) -> None:
    try:
        os.nice(19)
    except OSError as err:           # e.g. a system-call filter: work on, and say why
        conn.send(("note", f"cannot lower the worker's priority ({err}): it runs at the "
                           f"ordinary priority"))
    from companion.games import get_rulebook
    from companion.chances.odds import exact, playouts
    from companion.chances.domino_rex import hint
    rng = random.Random()            # seeded from the OS: nothing to do with any game's seed
    job = None
    while True:
        if job is None:
            job = conn.recv()
        while conn.poll():           # only the newest state matters
            job = _newer(job, conn.recv())
        if job is None:
            return
        if job[0] == "backfill":
            _, game_id, game, earlier = job
            job = _backfill(conn, get_rulebook(game), game_id, earlier, rng, exact, playouts)
        else:
            version, game, state, earlier = job
            rulebook = get_rulebook(game)
            advice = hint(rulebook, state)
            extra = {} if advice is None else {"hint": {"value": advice.value,
                                                        "text": advice.text}}
            job = _work(conn, rulebook, version, state, earlier, rng, exact, playouts, extra)
        if job is None:
            conn.send(("idle",))


def _work(conn, rulebook, version, state, earlier, rng, exact, playouts, extra):
    """Work on one job; returns a newer job if one arrived (cancelling this), else None."""
    odds = exact(rulebook, state)
    started = time.monotonic()
    last_report = started - REPORT_SECONDS          # the first chunk's answer goes at once
    tally = None
    while odds is None or not odds["exact"]:
        tally = playouts(rulebook, state, rng, CHUNK, tally)
        odds = {**tally.result(), **extra}
        now = time.monotonic()
        done = odds["margin"] <= TARGET_MARGIN or now - started >= BUDGET_SECONDS
        if done or now - last_report >= REPORT_SECONDS:
            conn.send((version, odds, {}))
            last_report = now
        if done:
            break
        if conn.poll() and _is_job(job := conn.recv()):
            return job
    if odds["exact"]:
        odds = {**odds, **extra}
        conn.send((version, odds, {}))
    steps: dict[int, list[float]] = {}
    for step, past in earlier:          # the chart: earlier steps, newest first
        if conn.poll() and _is_job(job := conn.recv()):
            return job
        steps[step] = _step_chances(rulebook, past, rng, exact, playouts)
        if time.monotonic() - last_report >= REPORT_SECONDS:
            conn.send((version, odds, steps))
            steps, last_report = {}, time.monotonic()
    if steps:
        conn.send((version, odds, steps))
    return None


def _backfill(conn, rulebook, game_id, earlier, rng, exact, playouts):
    """Work out a finished game's missing steps (its chart); returns a newer job if one
    arrived (cancelling this: what was sent is kept), else None."""
    steps: dict[int, list[float]] = {}
    last_report = time.monotonic()
    for step, past in earlier:
        if conn.poll():
            if steps:
                conn.send(("steps", game_id, steps))
            return conn.recv()
        steps[step] = _step_chances(rulebook, past, rng, exact, playouts)
        if time.monotonic() - last_report >= REPORT_SECONDS:
            conn.send(("steps", game_id, steps))
            steps, last_report = {}, time.monotonic()
    if steps:
        conn.send(("steps", game_id, steps))
    return None


def _is_job(message) -> bool:
    """A message that cancels the job for the game in play: a newer one, or the end (None);
    not a chart to complete, sent as this process said it was idle just before the job came
    (it asks again once this job is done)."""
    return message is None or message[0] != "backfill"


def _newer(job, message):
    """Of a job waiting and a message come after it, the one to work on."""
    return message if _is_job(message) or job is None or job[0] == "backfill" else job


def _step_chances(rulebook, state, rng, exact, playouts) -> list[float]:
    """An earlier step's chances for the chart: exact where they can be, else playouts."""
    return (exact(rulebook, state) or playouts(rulebook, state, rng, STEP_RUNS).result())["win"]
