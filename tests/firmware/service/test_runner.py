"""The device program as a whole: `parlour run --sim` in a subprocess, and the main loop."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from companion.errors import ParlourError
from firmware import runner
from firmware.config import Config
from firmware.pins.inputs import InputEvent
from firmware.stamps import TableClock
from web.pages import stamp_time
from simulated_table import PIN, SimulatedTable


def get(url: str, timeout: float = 2.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read()


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_runner_parlour_run_sim_serves_and_stops_on_sigterm(tmp_path):
    with SimulatedTable(tmp_path / "data", tmp_path) as table:
        state = table.first_state
        assert state["phase"] == "idle" and state["game"] is None
        assert get(table.url + "/device/screen.png") != b""
        assert post(table.url + "/device/input", {"input": "knob", "action": "press"})["ok"]
        out, err = table.stop()
    assert table.proc.returncode == 0, err
    assert "Traceback" not in err
    assert f"127.0.0.1:{table.port}" in out and "simulated" in out
    assert PIN not in out + err and "PIN in the box's menu" in out   # not a terminal
    assert "stopped" in out
    assert (tmp_path / "data" / "parlour.db").exists()


def test_runner_bad_config_is_one_line_and_status_2(tmp_path, capsys):
    status = runner.run(sim=True, host="127.0.0.1", port=0, data_dir=str(tmp_path),
                        config_path=str(tmp_path / "missing.toml"), pin="1")
    err = capsys.readouterr().err
    assert status == 2 and "missing.toml" in err and len(err.strip().splitlines()) == 1


def test_runner_knows_a_pi_by_its_device_tree(tmp_path):
    model = tmp_path / "model"
    assert not runner.on_pi(model)
    model.write_text("Raspberry Pi Zero 2 W Rev 1.0\x00")
    assert runner.on_pi(model)
    model.write_text("QEMU Virtual Machine")
    assert not runner.on_pi(model)


def test_runner_address_for_phones():
    assert runner.lan_address("192.168.4.1") == "192.168.4.1"    # a specific host as given


@pytest.fixture
def table(tmp_path, mock_factory):
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="1234", web=False)
    thread = threading.Thread(target=runner.loop, args=(table,), daemon=True)
    yield table, thread
    table.stop.set()
    table.inputs.put(runner.WAKE)
    if thread.ident is not None:               # some tests turn the loop by hand
        thread.join(timeout=5)
    table.close()


def test_runner_loop_sleeps_when_idle(table):
    table, thread = table
    polls = []
    poll = table.controls.poll
    table.controls.poll = lambda: (polls.append(1), poll())
    thread.start()
    time.sleep(0.6)
    assert 2 <= len(polls) <= 0.6 / runner.POLL_IDLE + 3        # no busy loop
    assert table.frames == 1                                     # drawn once, then at rest


def test_runner_loop_draws_the_spin_frame_by_frame(table):
    """The main loop draws the dial as it turns, many frames a spin (its rate, ~30 a second,
    is measured by `make bench`: a busy machine slows it here), and ends on the result."""
    table, thread = table
    table.session.new_game("kat-en-muis", ["Ann", "Ben"])
    thread.start()
    time.sleep(0.2)
    before = table.frames
    table.inputs.put(InputEvent("flick", strength=0.2))
    time.sleep(0.1)
    spin = table.controller.animation
    assert spin is not None and table.session.snapshot()["rolls"] == 1
    time.sleep(spin.duration + 0.3)
    frames = table.frames - before
    assert frames >= 5, frames                                  # frame by frame, not one jump
    assert table.controller.screen == "result"
    assert table.display.last_image is not None
    assert table.panel.screen_version() >= frames // 2       # the dial moves on most frames


@pytest.mark.parametrize("host, url", [("::1", "http://[::1]:8080/"),
                                       ("127.0.0.1", "http://127.0.0.1:8080/")])
def test_runner_the_tables_address_is_one_a_phone_can_open(host, url):
    """`--host ::1` printed "http://::1:8080/" (no brackets), and `--host [::]`, every
    address, its own "[::]" instead of this machine's address."""
    assert runner.table_address(runner.lan_address(host), 8080) == url
    assert runner.lan_address("[::]") == runner.lan_address("0.0.0.0")


def test_runner_board_files_live_beside_the_config(tmp_path):
    from firmware.config import load_config
    config_file = tmp_path / "etc" / "parlour.toml"
    config_file.parent.mkdir()
    config_file.write_text("seats = 2\n")
    assert runner.board_dir(load_config(config_file)) == tmp_path / "etc" / "boards"


def test_runner_own_names_and_open_panel_reach_the_web_app(tmp_path, mock_factory):
    names = runner.own_names("0.0.0.0", ("parlour.lan",))
    assert {"localhost", "127.0.0.1", "::1", "parlour.lan"} <= set(names)
    assert "0.0.0.0" not in names and runner.lan_address("0.0.0.0") in names
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path, threads=4, open_panel=True,
                                       allowed_hosts=("parlour.lan",)), pin="2468")
    try:
        context = table.web.app.extensions["parlour"]
        assert context.panel_open and "parlour.lan" in context.own_names.names
        assert context.hub.max_streams == 1          # 4 threads: at most one live page
        stamped = table.session.new_game("fox-and-geese", ["Ann", "Ben"])["clock"]["since"]
        assert abs((context.table_time() - stamp_time(stamped)).total_seconds()) < 5
        assert isinstance(context.table_time.__self__, TableClock)   # F1: the events' clock
    finally:
        table.close()


def test_runner_phones_clocks_are_read_against_the_newest_stamp_stored(tmp_path, mock_factory,
                                                                       monkeypatch):
    """A restart with no time server: phones that agree on a time before the games already
    played (two set alike, a week behind) do not take the table's clock back there."""
    from datetime import datetime, timedelta, timezone
    from companion.record.store import Store
    from companion.session import Session
    from firmware import stamps
    monkeypatch.setattr(stamps, "SYNCED", str(tmp_path / "never-synced"))
    now = datetime.now(timezone.utc)
    store = Store(tmp_path / "parlour.db")
    played = (now - timedelta(days=1)).isoformat(timespec="seconds").replace("+00:00", "Z")
    session = Session(store, new_seed=lambda: bytes(32), clock=lambda: played)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    session.abandon()
    assert store.newest_stamp() == played
    store.close()
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path, threads=4), pin="2468")
    try:
        for phone, address in (("pin-aaaaaa", "10.0.0.2"), ("phone-bbbbbb", "10.0.0.3")):
            table.clock.learn(phone, now - timedelta(days=7), address)
        assert table.clock.offset == 0
    finally:
        table.close()


def test_runner_a_game_after_a_power_cut_begins_no_earlier_than_the_last_one_ended(
        tmp_path, mock_factory, monkeypatch):
    """The box back from a power cut with the time it last saved, 40 minutes behind the end
    of the last game, and no time server: the next game began before the last one ended."""
    from datetime import datetime, timedelta, timezone
    from companion.record.store import Store
    from companion.session import Session
    from firmware import stamps
    monkeypatch.setattr(stamps, "SYNCED", str(tmp_path / "never-synced"))
    ended = (datetime.now(timezone.utc) + timedelta(minutes=40)).isoformat(
        timespec="seconds").replace("+00:00", "Z")
    store = Store(tmp_path / "parlour.db")
    session = Session(store, new_seed=lambda: bytes(32), clock=lambda: ended)
    session.new_game("kat-en-muis", ["Ann", "Ben"])
    session.abandon()
    store.close()
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="2468", web=False)
    try:
        table.session.new_game("kat-en-muis", ["Cy", "Di"])
        begun = table.store.events(table.session.game_id)[0]["at"]
        assert begun >= ended, (begun, ended)
    finally:
        table.close()


def test_runner_a_host_or_port_waitress_refuses_is_one_line_and_status_2(tmp_path, capsys):
    status = runner.run(sim=True, host="127.0.0.1", port=-1, data_dir=str(tmp_path),
                        pin="1234")
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "cannot listen on 127.0.0.1:-1" in err
    runner.run(sim=True, host="127.0.0.1", port=-1, data_dir=str(tmp_path), pin="1234")
    assert "cannot listen" in capsys.readouterr().err      # not "in use": the lock was let go


def test_runner_a_full_card_at_start_names_the_data_directory(tmp_path, capsys, monkeypatch):
    """A first start on a full card said only "parlour: No space left on device": the write
    that failed (the new PIN's) names no file, so the data directory is named."""
    import errno
    from firmware.datadir import keys

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(keys, "write_private", full)
    status = runner.run(sim=True, host="127.0.0.1", port=0, data_dir=str(tmp_path / "data"))
    err = capsys.readouterr().err
    assert status == 2 and err.strip() == f"parlour: {tmp_path / 'data'}: No space left on device"


@pytest.mark.parametrize("pin", ["1234", None])                 # None: the kept PIN is read
@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_runner_a_data_directory_that_is_a_file_is_said_in_words(tmp_path, capsys, where, pin):
    in_the_way = tmp_path / "games.jsonl"
    in_the_way.write_text("kept\n")
    data_dir = in_the_way if where == "a file" else in_the_way / "data"
    config = tmp_path / "parlour.toml"
    config.write_text("")                                  # no PIN configured either
    status = runner.run(sim=True, host="127.0.0.1", port=0, data_dir=str(data_dir), pin=pin,
                        config_path=str(config))
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{data_dir} is not a folder" in err and "--data-dir" in err and "Errno" not in err
    assert in_the_way.read_text() == "kept\n"


def test_runner_a_signal_while_the_loop_holds_the_queue_cannot_deadlock(table):
    """A handler runs between two bytecodes of the main thread, which may be inside the input
    queue just then (make's SIGTERM and the group's came 1 ms apart): it takes no lock, and the
    loop still ends at its next turn."""
    table, thread = table
    thread.start()
    handler = runner.stop_on_signal(table)
    with table.inputs.mutex:                   # the main thread inside queue.get, say
        caller = threading.Thread(target=handler, args=(15, None), daemon=True)
        caller.start()
        caller.join(timeout=2)
        assert not caller.is_alive()           # returned without waiting for the queue's lock
    thread.join(timeout=2)
    assert not thread.is_alive() and table.signalled


def test_runner_the_panel_says_the_words_of_the_frame_it_shows(table):
    """/device/screen's view is the frame drawn, words and state together: it was taken
    before the frame was drawn, so a new state came with the previous frame's words."""
    table, _ = table
    table.session.new_game("fox-and-geese", ["Ann", "Ben"])
    runner._turn(table, 0.0, time.monotonic() + 60)
    for path in (["c4", "c5"], ["d4", "d5"], ["e4", "e5"]):
        table.session.submit({"type": "move", "path": path}, by="api")      # from a phone
        runner._turn(table, 0.0, time.monotonic() + 60)
        shown = table.panel.screen_view()
        assert shown["state"]["version"] == table.session.snapshot()["version"]
        table.controller.render()
        assert shown["text"] == table.controller.view()["text"], shown


def test_runner_a_stuck_undo_at_start_takes_nothing_back_and_the_oled_says_why(tmp_path,
                                                                               monkeypatch):
    """Three throws, the power cut, the box started again with Undo reading pressed (a stuck
    switch, or one wired to its normally closed contact): the first poll took it for a press
    and the resumed game lost its last throw. It is not counted until let go, and said."""
    from gpiozero.pins import mock
    from fakes import stuck_pins
    config = Config(data_dir=tmp_path)
    first = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path, config=config,
                         pin="1234", web=False)
    try:
        first.session.new_game("kat-en-muis", ["Ann", "Ben"])
        for _ in range(3):
            first.session.roll()
        rolls = first.session.snapshot()["rolls"]
    finally:
        first.close()
    real = mock.MockFactory
    monkeypatch.setattr(mock, "MockFactory", lambda: stuck_pins({config.pins.undo}, real))
    again = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path, config=config,
                         pin="1234", web=False)
    thread = threading.Thread(target=runner.loop, args=(again,), daemon=True)
    try:
        thread.start()
        time.sleep(0.5)
        assert again.session.snapshot()["rolls"] == rolls
        assert "Undo read pressed at start (BCM 23)" in again.controller.notice.text
    finally:
        again.stop.set()
        again.inputs.put(runner.WAKE)
        thread.join(timeout=5)
        again.close()


def test_runner_an_address_not_on_this_machine_is_named_and_nothing_is_made(tmp_path, capsys):
    """[web] host set to an address this machine does not have was said as the data
    directory's fault ("/var/lib/parlour: Cannot assign requested address"), and the refused
    start had made a store, a PIN and keys there."""
    data = tmp_path / "data"
    status = runner.run(sim=True, host="192.0.2.77", port=0, data_dir=str(data))
    err = capsys.readouterr().err
    assert status == 2 and err == ("parlour: cannot listen on 192.0.2.77: no address of this "
                                   "machine (set [web] host, or --host, to one of its own, or "
                                   "0.0.0.0 for all of them)\n")
    assert not data.exists()


def test_runner_a_second_run_on_the_same_port_and_data_says_how_to_run_two(tmp_path, capsys):
    """A second `make run` beside a first (same port, same data directory) is told how to run
    a second table, not only to change the port (which led into the next refusal); a port in
    use with a data directory not yet made leaves none made."""
    import socket
    from firmware.datadir.datalock import DataDirLock
    data = tmp_path / "data"
    data.mkdir()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        first = DataDirLock(data)                            # the first table holds both
        try:
            status = runner.run(sim=True, host="127.0.0.1", port=port, data_dir=str(data))
        finally:
            first.release()
        err = capsys.readouterr().err
        assert status == 2 and "in use by process" in err and f"{data}-2 --port" in err, err
        fresh = tmp_path / "fresh"
        assert runner.run(sim=True, host="127.0.0.1", port=port, data_dir=str(fresh)) == 2
        assert f"port {port} is already in use" in capsys.readouterr().err
        assert not fresh.exists()


def test_runner_a_second_run_on_its_own_free_port_keeps_that_port(tmp_path, capsys):
    """A second `make run` on a data directory in use, asking for a port no table has: the
    way out changed the user's own port too (`--port 18201` suggested `--port 18202`), where
    only the data directory was in the way. It keeps a port that is free now."""
    import socket
    from firmware.datadir.datalock import DataDirLock
    data = tmp_path / "data"
    data.mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]                   # free once the probe is closed
    first = DataDirLock(data)                           # the first table, on another port
    try:
        status = runner.run(sim=True, host="127.0.0.1", port=port, data_dir=str(data))
    finally:
        first.release()
    err = capsys.readouterr().err
    assert status == 2 and "in use by process" in err, err
    assert err.rstrip().endswith(f'--data-dir {data}-2 --port {port}"'), err


def test_runner_a_bracketed_ipv6_host_is_checked_as_waitress_takes_it(tmp_path):
    """`--host "[::1]"`, which waitress serves on, was refused by the check before the data
    directory ("cannot listen on [::1]:8080 (Name or service not known)")."""
    runner.check_listen("[::1]", 0)
    runner.check_listen("::1", 0)
    with pytest.raises(ParlourError, match=r"cannot listen on \[::1\]:-1"):
        runner.check_listen("[::1]", -1)


class DataDirLockStandIn:
    """The data directory's lock, taken (the store is what fails)."""

    def release(self):
        pass


def test_runner_a_start_that_fails_on_the_card_says_why_on_the_oled(tmp_path, monkeypatch,
                                                                   capsys):
    """A card gone read-only: the box stayed dark, "parlour.lock: Read-only file system" only in
    the journal, out of sight at a table. On the device it is on the OLED too, and left there."""
    import errno
    from luma.core.device import dummy
    from firmware.oled import screens

    def read_only(data_dir, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(data_dir / "parlour.lock"))

    told = []
    monkeypatch.setattr(runner, "DataDirLock", read_only)
    monkeypatch.setattr(runner, "tell_the_oled", lambda config, words: told.append(words))
    status = runner.run(sim=False, host="127.0.0.1", port=0, data_dir=str(tmp_path / "data"))
    assert status == 2
    assert capsys.readouterr().err.endswith("parlour.lock: Read-only file system\n")
    assert told == ["The SD card is read-only (parlour.lock)"]
    told.clear()
    assert runner.run(sim=True, host="127.0.0.1", port=0, data_dir=str(tmp_path / "data")) == 2
    assert told == []                    # the simulator's OLED is a page its web would serve
    from companion.errors import StoreFull

    def full(*args, **kwargs):
        raise StoreFull("The SD card is full: the game store cannot be opened until some "
                        "space is freed")
    monkeypatch.setattr(runner, "DataDirLock", lambda *args, **kwargs: DataDirLockStandIn())
    monkeypatch.setattr(runner, "open_table", full)    # the store itself, on a full card
    assert runner.run(sim=False, host="127.0.0.1", port=0, data_dir=str(tmp_path / "data")) == 2
    assert told == ["The SD card is full: the game store cannot be opened until some space "
                    "is freed"]
    from companion.errors import StoreError

    def malformed(*args, **kwargs):
        raise StoreError("cannot open the store /var/lib/parlour/parlour.db: database disk "
                         "image is malformed")
    monkeypatch.setattr(runner, "open_table", malformed)
    told.clear()
    assert runner.run(sim=False, host="127.0.0.1", port=0, data_dir=str(tmp_path / "data")) == 2
    assert told == ["cannot open the store parlour.db: database disk image is malformed"]
    assert runner.card_words(OSError(errno.EACCES, "Permission denied"), "pin") == \
        "pin: Permission denied"
    for path in ("/var/lib/parlour/parlour.db", "/root/.local/state/parlour-2/parlour.db"):
        assert runner.file_names(f"cannot open the store {path}: database disk image is "
                                 "malformed") == ("cannot open the store parlour.db: database "
                                                  "disk image is malformed")   # (cut, whole)
    assert runner.file_names("(/a/b.db) and 1/2") == "(b.db) and 1/2"

    panel = dummy(width=128, height=64, mode="1")
    monkeypatch.undo()
    runner.tell_the_oled(Config(), "The SD card is read-only (parlour.lock)", device=panel)
    assert panel.persist                 # not blanked as the program exits
    drawn = screens.cannot_start("The SD card is read-only (parlour.lock)")
    assert panel.image.convert("1").tobytes() == drawn.convert("1").tobytes()
