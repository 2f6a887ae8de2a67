"""The chances worker (a real low-priority process), the scores rows, the Domino Rex hint
screen, and chances arriving without disturbing the screen in use."""

from __future__ import annotations

import os
import resource
import signal
import time

import pytest

from companion.chances.kat_en_muis import kat_odds
from companion.session import Session
from companion.record.store import Store
from firmware.controller import Controller
from companion.replay import replay
from firmware.workers import odds_worker
from firmware.workers.odds_worker import OddsWorker
from firmware.oled.views import score_rows
from controller_support import FakeControls, press, settle_lead, start

SEED = bytes(range(32))


def wait_for(predicate, seconds=20.0):
    """Poll until predicate() is truthy (the worker is another process); its last value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("the worker did not answer in time")


def current_odds(session):
    snap = session.snapshot()
    return snap.get("odds") if snap.get("state_version") == session.state_version else None


@pytest.fixture
def sessions(tmp_path):
    made = []

    def make(name="parlour.db"):
        session = Session(Store(tmp_path / name), new_seed=lambda: SEED)
        made.append(session)
        return session
    yield make
    for session in made:
        session.store.close()


def kat_in_play(session) -> None:
    """A Kat en Muis game past its lead: the throws that follow have chances."""
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    while session.state.phase == "lead":
        session.roll()


def test_odds_worker_publishes_exact_kat_odds_and_follows_each_throw(sessions):
    session = sessions()
    worker = OddsWorker(session)
    worker.start()
    try:
        kat_in_play(session)
        for _ in range(4):
            odds = wait_for(lambda: current_odds(session))
            assert odds["exact"] and odds["win"] == kat_odds(session.table.rulebook,
                                                             session.state)["win"]
            session.roll()
        chart = wait_for(lambda: session.snapshot()["chart"]["win"][0] and
                         session.snapshot()["chart"])
        assert all(w is not None for w in chart["win"][:-1])     # earlier steps filled in
    finally:
        worker.close()


def test_odds_worker_next_roll_is_the_same_with_odds_on_or_off(sessions):
    on, off = sessions("on.db"), sessions("off.db")
    worker = OddsWorker(on)
    worker.start()
    try:
        for session in (on, off):
            session.new_game("cats-and-dogs", ["Ann", "Ben", "Cy"])
        for _ in range(8):
            wait_for(lambda: current_odds(on))            # playouts ran for this state
            assert on.roll()["last_roll"] == off.roll()["last_roll"]
        assert on.snapshot()["rolls"] == off.snapshot()["rolls"]
    finally:
        worker.close()


def test_odds_worker_keeps_a_finished_games_chances_for_history(sessions, tmp_path):
    session = sessions()
    worker = OddsWorker(session, keep=True)
    worker.start()
    try:
        session.new_game("kat-en-muis", ["Ann", "Ben"], options={"purse": 5, "stake": 1})
        while not session.state.over:
            session.roll()
        steps = len(session.table.states)
        stored = wait_for(lambda: session.store.chances(session.game_id))
        assert len(stored) == steps and all(w is not None for w in stored[2:])
        winner = session.state.winners[0]
        assert stored[-1][winner] == 1.0 and stored[-1][1 - winner] == 0.0
    finally:
        worker.close()                  # closes the chance store it was handed


def played_to_the_end(session, game="cats-and-dogs") -> int:
    """A game thrown to its end at once (no waiting for chances); its id."""
    session.new_game(game, ["Ann", "Ben"])
    while not session.state.over:
        session.roll()
    return session.game_id


def whole_chart(session, game_id):
    stored = session.store.chances(game_id)
    return stored if stored and all(win is not None for win in stored) else None


def test_odds_worker_completes_the_chart_of_a_game_followed_at_once_by_the_next(sessions):
    """Scripted, a game finished and the next begun within a moment kept no chart: the worker
    stored a finished game's chances only while it was the game in play."""
    session = sessions()
    worker = OddsWorker(session, keep=True)
    worker.start()
    try:
        first = played_to_the_end(session)
        steps = len(session.table.states)
        session.new_game("cats-and-dogs", ["Ann", "Ben"])
        stored = wait_for(lambda: whole_chart(session, first), seconds=60)
        assert len(stored) == steps
        winner = replay(session.store.events(first)).state.winners[0]
        assert stored[-1][winner] == 1.0
    finally:
        worker.close()


def test_odds_worker_completes_a_chart_left_unkept_before_it_started(sessions):
    """A game finished while no worker ran (a power cut before its chart was kept)."""
    session = sessions()
    first = played_to_the_end(session)
    session.new_game("cats-and-dogs", ["Ann", "Ben"])
    worker = OddsWorker(session, keep=True)
    worker.start()
    try:
        assert len(wait_for(lambda: whole_chart(session, first), seconds=60)) == \
            len(replay(session.store.events(first)).states)
    finally:
        worker.close()


@pytest.mark.parametrize("then", ["cats-and-mice", None])
def test_odds_worker_completes_a_chart_with_no_chances_to_work_out_after_it(sessions, tmp_path,
                                                                          then):
    """The missing steps were worked out only as the process said it was idle after a job: a
    game followed by one without chances (Cats and Mice), or a restart with no game in play,
    sent no job, and the chart waited for good."""
    first = sessions("first.db")
    game_id = played_to_the_end(first)
    first.store.close()
    session = Session(Store(tmp_path / "first.db"), new_seed=lambda: SEED)   # a restart
    try:
        if then:
            session.new_game(then, ["Ann", "Ben"])
        worker = OddsWorker(session, keep=True)
        worker.start()
        try:
            assert wait_for(lambda: whole_chart(session, game_id), seconds=60)
        finally:
            worker.close()
    finally:
        session.store.close()


def test_odds_worker_a_chart_to_complete_never_cancels_the_game_in_plays_job():
    """The process said it was idle, a job for the game in play came, then the chart's steps
    sent in answer to "idle": they took the job's place and its chances stopped rough."""
    job, chart = (7, "cats-and-dogs", "state", []), ("backfill", 1, "cats-and-dogs", [])
    assert odds_worker._newer(job, chart) is job                  # the game in play's job
    assert odds_worker._newer(chart, job) is job                  # a job cancels the chart
    assert odds_worker._newer(job, None) is None                  # the end, whatever it was
    assert not odds_worker._is_job(chart) and odds_worker._is_job(job)


def test_odds_worker_completes_a_chart_longer_than_one_job_reaches(sessions, monkeypatch):
    """A job fills in at most MAX_STEPS earlier steps, newest first: a finished game longer
    than that (here found finished as the worker starts) had no later job to fill in the
    rest, and its chart was never kept."""
    monkeypatch.setattr(odds_worker, "MAX_STEPS", 5)
    session = sessions()
    played_to_the_end(session)
    assert len(session.table.states) > 5 + 1
    worker = OddsWorker(session, keep=True)
    worker.start()
    try:
        assert len(wait_for(lambda: whole_chart(session, session.game_id), seconds=60)) == \
            len(session.table.states)
    finally:
        worker.close()


def test_odds_scores_rows_show_each_players_chance():
    """The Scores screen's "61%" under a name read as a score: it says "61% win" (not "61% to
    win", which took each player a line more: a page each)."""
    snap = {"players": [{"name": "Ann", "position": 22, "chips": 17},
                        {"name": "Ben", "position": 9, "chips": 3}], "turn": 0, "pool": 0,
            "odds": {"win": [0.613, 0.387], "exact": True, "margin": 0.0}}
    rows = score_rows(snap)
    assert [r.figure for r in rows] == ["61% win · sq 22 · 17 chips",
                                            "39% win · sq 9 · 3 chips"]
    del snap["odds"]
    assert score_rows(snap)[0].figure == "sq 22 · 17 chips"


def test_odds_a_chance_sits_beside_the_name_so_two_players_share_a_page():
    """"47% to win" under each name took each player three lines, a page each (Life's
    Mishaps with six players: 1/7): the chance goes on the name's line, flush right."""
    from firmware.oled.screens import score_pages
    snap = {"game": "kat-en-muis", "turn": 0, "pool": 10,
            "players": [{"name": "Red", "role": "mouse", "position": 36, "chips": 14},
                        {"name": "Blue", "role": "cat", "position": 40, "chips": 16}],
            "odds": {"win": [0.47, 0.53], "exact": True, "margin": 0.0}}
    pages = score_pages(score_rows(snap))
    first = [words for words, _, _ in pages[0]]
    assert len(first) == 4 and first[0].startswith("Red ") and first[0].endswith(" 47% win")
    assert len(first[0]) == 21 and first[1] == "black 36 · 14 chips"
    assert first[2].startswith("Blue ") and first[2].endswith(" 53% win")


@pytest.fixture
def table(sessions, clock):
    c = Controller(sessions(), controls=FakeControls(), seats=4, url="http://10.0.0.2:8080/",
                   pin="4821", clock=clock)
    c.attach()
    yield c
    c.close()


def test_odds_arriving_leave_the_result_screen_up(table, clock):
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    press(table, "flick", strength=0.5)
    press(table, "press")
    assert table.screen == "result"
    session = table.session
    assert session.publish_odds(session.state_version, {"win": [0.3, 0.7], "exact": True,
                                                        "margin": 0.0})
    table.update()
    assert table.screen == "result" and table.snap["odds"]["win"] == [0.3, 0.7]


def test_odds_domino_rex_menu_offers_a_hint_screen(table, clock):
    start(table, "domino-rex")
    settle_lead(table, clock)
    press(table, "menu")
    assert table.menu_items[1] == "Hint"
    press(table, "turn", detents=1)
    press(table, "press")
    assert table.screen == "hint"
    image = table.render()
    assert image.getbbox() is not None
    heading, action, why = table.view()["text"]    # in words too, as drawn (it said [])
    turn = table.snap["players"][table.snap["turn"]]["name"]
    assert heading == f"Hint for {turn}"             # whose turn the hint is for
    assert action.startswith("Uncover a ") and why
    press(table, "press")
    assert table.screen == "play"


def test_odds_no_hint_is_offered_for_the_pis_own_turn(table, clock):
    """On the Pi's turn after an undo the menu offered "Hint for Pi / ... crown your checker
    11": advice to a person, or the Pi's plan, neither of which it is."""
    table.pi.detach()                                # the Pi moves when the test says so
    session = table.session
    session.new_game("domino-rex", ["Pi", "Ann"], pi=[0], pi_level="easy")
    while session.snapshot()["phase"] == "lead":
        session.roll(by="pi" if session.snapshot()["turn"] == 0 else "web")
    if session.snapshot()["turn"] != 0:              # Ann led: her uncover, then the Pi's turn
        session.submit({"type": "choose",
                        "value": session.snapshot()["players"][1]["covered"][0]}, by="web")
    table.update()
    assert session.snapshot()["turn"] == 0 and session.snapshot()["awaiting"] == "choose"
    press(table, "menu")
    assert "Hint" not in table.menu_items


def test_odds_hint_is_not_offered_in_a_dice_game(table, clock):
    start(table, "kat-en-muis")
    settle_lead(table, clock)
    press(table, "menu")
    assert "Hint" not in table.menu_items


def restarting_worker(sessions, monkeypatch):
    """A session and its worker, started, which starts a compute process that ended again
    0.2 s after, then 0.4 s; and what each state said of the chances paused, in order (None:
    not paused)."""
    monkeypatch.setattr(odds_worker, "RESTART_SECONDS", (0.2, 0.4))
    session = sessions()
    worker = OddsWorker(session)
    worker.start()
    seen = []
    session.subscribe(lambda snap: seen.append(snap.get("chances_paused")))
    return session, worker, seen


@pytest.mark.parametrize("kill, said", [
    (signal.SIGKILL, "killed by SIGKILL"),
    (signal.SIGSYS, "killed by SIGSYS: a system call the service's filter forbids")])
def test_odds_worker_that_dies_is_logged_paused_on_the_phones_and_started_again(
        sessions, monkeypatch, caplog, kill, said):
    """A killed compute process is never silent: the log says how it ended (the signal by its
    name: "exit code -31" named none), the state says the chances are paused, and after the
    backoff a new process answers the newest state."""
    session, worker, seen = restarting_worker(sessions, monkeypatch)
    try:
        kat_in_play(session)
        wait_for(lambda: current_odds(session))
        with caplog.at_level("ERROR", logger="parlour.chances"):
            resource.prlimit(worker._process.pid, resource.RLIMIT_CORE, (0, 0))   # no core
            os.kill(worker._process.pid, kill)
            wait_for(lambda: any(seen))                      # paused, and said so
            session.roll()                                   # the game goes on meanwhile
            odds = wait_for(lambda: current_odds(session))   # a new process answers it
        assert odds["exact"] and worker.restarts == 1
        assert "chances_paused" not in session.snapshot()
        assert f"the chances worker stopped ({said})" in seen[seen.index(next(
            s for s in seen if s))]
        assert any(said in r.getMessage() for r in caplog.records)
    finally:
        worker.close()


def test_odds_worker_that_hangs_is_ended_said_and_started_again(sessions, monkeypatch,
                                                                caplog):
    """A compute process stopped (SIGSTOP: as one swapping, out of memory) for 30 s: nothing
    was logged or restarted, the state never said the chances were paused, and the phones
    kept the last figures. Silent with a job unfinished for HUNG_SECONDS (1 s here), it is
    ended, said, and a new one answers the newest state."""
    monkeypatch.setattr(odds_worker, "HUNG_SECONDS", 1.0)
    session, worker, seen = restarting_worker(sessions, monkeypatch)
    try:
        kat_in_play(session)
        wait_for(lambda: current_odds(session))
        wait_for(lambda: worker._working_since is None)          # idle: silence is no hang
        time.sleep(1.5)
        assert worker.restarts == 0
        with caplog.at_level("ERROR", logger="parlour.chances"):
            os.kill(worker._process.pid, signal.SIGSTOP)
            session.roll()                                   # a job it never answers
            wait_for(lambda: any(seen))
            odds = wait_for(lambda: current_odds(session))   # a new process answers it
        assert odds["exact"] and worker.restarts == 1
        said = next(s for s in seen if s)
        assert said == "the chances worker stopped (no answer for 1 s: ended); trying again"
        assert any("no answer for 1 s" in r.getMessage() for r in caplog.records)
    finally:
        worker.close()


class FailingPipe:
    """The compute process's end of its pipe, where reading raises `error`: what it sends is
    kept in `sent`."""

    def __init__(self, error: BaseException):
        self.error, self.sent = error, []

    def send(self, message):
        self.sent.append(message)

    def recv(self):
        raise self.error


def test_odds_worker_an_error_of_any_kind_is_named_as_it_ends(monkeypatch):
    """Out of memory, the compute process ended "exit code 1" with an unlabelled traceback:
    every error it ends on is said as it goes."""
    monkeypatch.setattr(odds_worker.signal, "signal", lambda *args: None)
    monkeypatch.setattr(odds_worker.os, "nice", lambda n: None)
    pipe = FailingPipe(MemoryError("cannot allocate"))
    with pytest.raises(SystemExit) as ended:
        odds_worker.compute(pipe)
    assert ended.value.code == odds_worker.EXIT_FAILED
    assert pipe.sent == [("failed", "MemoryError: cannot allocate")]


def test_odds_worker_a_call_refused_by_the_filter_ends_it_saying_which(monkeypatch):
    """The service's filter answers a forbidden call with EPERM: the compute process took the
    PermissionError for its pipe closing and ended quietly, so the log read "the chances
    worker stopped (exit code 0)", a normal end with no cause. It says the error as it goes
    and ends with an error code."""
    def refused(_):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(odds_worker.signal, "signal", lambda *args: None)   # not in pytest
    monkeypatch.setattr(odds_worker.os, "nice", refused)                    # setpriority too
    pipe = FailingPipe(PermissionError(1, "Operation not permitted"))
    with pytest.raises(SystemExit) as ended:
        odds_worker.compute(pipe)
    assert ended.value.code == odds_worker.EXIT_FAILED != 0
    assert pipe.sent[0][0] == "note" and "cannot lower the worker's priority" in pipe.sent[0][1]
    assert pipe.sent[1] == ("failed", "PermissionError: [Errno 1] Operation not permitted")
    assert odds_worker.ended_by(3, pipe.sent[1][1]) == pipe.sent[1][1]
    assert odds_worker.ended_by(odds_worker.EXIT_FAILED).startswith("an error it could not")
    assert odds_worker.ended_by(0) == "exit code 0"


def test_odds_worker_outlives_a_stop_signal_to_the_group_and_ends_with_the_table(
        sessions, caplog):
    """`systemctl stop` (SIGTERM to the whole group) killed the compute process before the
    device program had closed it: the journal said "the chances worker stopped (exit code
    -15) ... starting it again" at every stop. The device program ends it as it closes."""
    session = sessions()
    worker = OddsWorker(session)
    worker.start()
    try:
        kat_in_play(session)
        wait_for(lambda: current_odds(session))
        with caplog.at_level("ERROR", logger="parlour.chances"):
            for stop in (signal.SIGTERM, signal.SIGINT):
                os.kill(worker._process.pid, stop)
            time.sleep(1.0)
            assert worker._process.is_alive() and worker.restarts == 0
            session.roll()
            assert wait_for(lambda: current_odds(session))     # still working
    finally:
        started = time.monotonic()
        worker.close()
    assert not worker._process.is_alive() and time.monotonic() - started < 2.5
    assert not any("stopped" in r.getMessage() for r in caplog.records)


def test_odds_worker_a_chart_a_full_card_refused_is_stored_again_when_the_worker_is_idle(
        sessions):
    """A whole chart the store refused (a full card) stayed waiting, and nothing asked to
    store it again: the worker only asks for the missing steps of charts not yet whole."""
    from firmware.workers.finished_charts import FinishedCharts
    from companion.errors import StoreError
    session = sessions()
    game_id = played_to_the_end(session)
    states = session.table.states
    calls = []
    real = session.store.keep_chances

    def full_once(*args):
        calls.append(args[0])
        if len(calls) == 1:
            raise StoreError("the card is full")
        return real(*args)
    session.store.keep_chances = full_once
    charts = FinishedCharts(session, keep=True)
    charts.note(game_id, session.table.rulebook, states, {})
    charts.add(game_id, {step: [0.5, 0.5] for step in range(len(states))})   # refused
    assert calls == [game_id] and session.store.chances(game_id) is None
    assert charts.missing(10) is None                    # idle: stored again meanwhile
    assert calls == [game_id, game_id] and len(session.store.chances(game_id)) == len(states)
