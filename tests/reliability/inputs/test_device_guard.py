"""The device loop cannot be stopped by what a guest types or by a bug in drawing: X10 names
refused from the phone, a fault while drawing or in a listener logged once with the last good
frame kept and the watchdog fed, and a store that already holds a bad name set aside at
start-up instead of a crash loop."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from types import SimpleNamespace

import pytest

from firmware import runner
from firmware.config import Config
from firmware.controller.parts.notices import LATE_PRESS_SECONDS
from firmware.pins.inputs import InputEvent
from reliability_support import control, read_store, request
from simulated_table import SimulatedTable


@pytest.fixture
def running(tmp_path, mock_factory):
    """A built table (no web) with its main loop on a thread and a counting watchdog."""
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="1234", web=False)
    beats: list[float] = []
    table.notifier = SimpleNamespace(heartbeat=lambda: beats.append(time.monotonic()))
    thread = threading.Thread(target=runner.loop, args=(table,), daemon=True)
    thread.start()
    yield table, thread, beats
    table.stop.set()
    table.inputs.put(runner.WAKE)
    thread.join(timeout=5)
    table.close()


def wait_for(condition, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_device_loop_survives_a_fault_in_drawing_logged_once_last_frame_kept(running, capsys):
    table, thread, beats = running
    wait_for(lambda: table.frames >= 1)
    good = table.display.last_image.tobytes()
    drawn = table.frames
    real_render = table.controller.render

    def broken_render():
        real_render()
        raise ValueError("text cannot be measured")

    table.controller.render = broken_render
    for _ in range(12):                                 # every input asks for a new frame
        table.inputs.put(InputEvent("turn", detents=1))
        time.sleep(0.1)
    wait_for(lambda: table.faults.count >= 2)
    beats_before = len(beats)
    time.sleep(0.4)
    assert thread.is_alive()
    assert len(beats) > beats_before                   # the watchdog is still fed
    assert table.frames == drawn and table.display.last_image.tobytes() == good
    err = capsys.readouterr().err
    assert err.count("failed (ValueError") == 1 and err.count("Traceback") == 1   # once

    table.controller.render = real_render                # the fault goes: frames come back
    table.inputs.put(InputEvent("turn", detents=1))
    wait_for(lambda: table.frames > drawn)


def test_device_loop_survives_a_failing_input_handler_and_listener(running, capsys):
    table, thread, beats = running
    table.session.subscribe(lambda snap: 1 / 0)          # a listener with a bug
    table.session.new_game("kat-en-muis", ["Ann", "Ben"])  # stored and still announced
    wait_for(lambda: table.controller.snap.get("game") == "kat-en-muis")
    table.controller.handle = lambda event: {}["missing"]
    table.inputs.put(InputEvent("press"))
    table.inputs.put(InputEvent("press"))
    wait_for(lambda: table.faults.count >= 2)
    assert thread.is_alive()
    assert len(table.session.store.events(table.session.game_id)) == 1
    err = capsys.readouterr().err
    assert err.count("failed (KeyError") == 1


@pytest.mark.slow
def test_x10_hostile_names_cannot_stop_parlour_run(tmp_path):
    data = tmp_path / "data"
    with SimulatedTable(data, tmp_path) as table:
        for name in ("A\nB", "A\ud800", "A\x1b[2J", ""):
            status, body = control(table.port, "new-game",
                                   {"game": "kat-en-muis", "players": [name, "Ben"]})
            assert status == 409 and "name" in body["error"], (name, body)
        status, body = control(table.port, "new-game",
                               {"game": "kat-en-muis", "players": ["\U0001F3B2" * 24, "W" * 24]})
        assert status == 200, body
        status, body = control(table.port, "rename", {"seat": 1, "name": "Ben\nBen"})
        assert status == 409 and "line break" in body["error"]
        status, body = control(table.port, "rename", {"seat": 1, "name": "\u0301" * 24})
        assert status == 200, body
        time.sleep(LATE_PRESS_SECONDS + 0.1)     # the rename read: a press sooner goes with it
        version = request(table.port, "GET", "/device/screen")[1]["version"]
        assert request(table.port, "POST", "/device/input",
                       {"input": "knob", "action": "press"})[0] == 200
        time.sleep(0.3)
        assert request(table.port, "GET", "/device/screen")[1]["version"] > version
        assert request(table.port, "GET", "/api/state")[0] == 200
        out, err = table.stop()
    assert "Traceback" not in err and "failed" not in err, err
    assert [g.events[-1].get("name") for g in read_store(data / "parlour.db")] == ["\u0301" * 24]


@pytest.mark.slow
def test_x10_a_bad_name_already_in_the_store_is_set_aside_at_start_up(tmp_path):
    """An older Parlour may have stored "A\\nB": resuming would draw it on every start.
    The game is set aside (its log kept, as for any log that no longer replays) and the
    table starts idle, saying so."""
    data = tmp_path / "data"
    SimulatedTable(data, tmp_path).stop()
    first = {"type": "new_game", "game": "kat-en-muis", "players": ["A\nB", "Ben\ud800"],
             "options": {}}
    db = sqlite3.connect(data / "parlour.db")
    with db:
        gid = db.execute("INSERT INTO games (game, players) VALUES (?, ?)",
                         ("kat-en-muis", json.dumps(first["players"]))).lastrowid
        db.execute("INSERT INTO events (game_id, seq, body) VALUES (?, 1, ?)",
                   (gid, json.dumps(first)))
    db.close()
    for _ in range(2):                                   # and again: no crash loop
        with SimulatedTable(data, tmp_path) as table:
            assert table.first_state["phase"] == "idle"
            out, err = table.stop()
        assert table.proc.returncode == 0 and "Traceback" not in err
    (game,) = read_store(data / "parlour.db")
    assert game.status == "abandoned" and len(game.events) == 1    # set aside, log kept
