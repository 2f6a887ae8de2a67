"""The Pi service: the unit file as systemd reads it, and the notify protocol (READY=1,
WATCHDOG=1 at half the watchdog interval, STOPPING=1) on sockets the tests provide, down to
`parlour run --sim` under a NOTIFY_SOCKET."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from firmware import runner
from firmware.config import Config
from firmware.notify import Notifier, socket_address, watchdog_interval
from fakes import FakeClock
from simulated_table import ROOT, SimulatedTable, box_drawn, quiet_env

UNIT = ROOT / "systemd" / "parlour.service"
CLUB_UNIT = ROOT / "systemd" / "parlour-club.service"
INSTALL = ROOT / "systemd" / "install.sh"
ANALYZE = shutil.which("systemd-analyze")
MAX_EXPOSURE = 2.0


def unit_keys(text: str) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


@pytest.fixture(params=[UNIT, CLUB_UNIT], ids=["table", "club"])
def checkable_unit(request, tmp_path) -> Path:
    """Each unit with ExecStart pointing at a program that exists here (verify checks it)."""
    text = request.param.read_text()
    exec_start = unit_keys(text)["ExecStart"][0].split()[0]
    here = tmp_path / request.param.name
    here.write_text(text.replace(exec_start, shutil.which("true") or "/bin/true"))
    return here


def test_systemd_unit_runs_parlour_as_a_watched_unprivileged_service():
    keys = unit_keys(UNIT.read_text())
    single = {k: v[-1] for k, v in keys.items()}
    assert single["Type"] == "notify" and single["NotifyAccess"] == "main"
    assert int(single["WatchdogSec"]) > 0 and single["Restart"] == "on-failure"
    assert single["User"] == "parlour" and set(single["SupplementaryGroups"].split()) == \
        {"gpio", "i2c"}
    assert single["StateDirectory"] == "parlour"
    assert single["ExecStart"].endswith("/bin/parlour run --config /etc/parlour/parlour.toml")
    # the system's config alone: the service's home is its state directory, which it may
    # write, and ~/.config/parlour/parlour.toml would come before /etc's (`search_path`)
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "ProtectKernelTunables",
                "RestrictSUIDSGID", "LockPersonality", "MemoryDenyWriteExecute"):
        assert single[key] == "yes", key
    assert single["ProtectSystem"] == "strict" and single["DevicePolicy"] == "closed"
    assert set(single["RestrictAddressFamilies"].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    allowed = " ".join(keys["DeviceAllow"])
    for device in ("gpiochip", "gpiomem", "i2c"):
        assert device in allowed, device
    assert single["WantedBy"] == "multi-user.target"


def test_systemd_unit_starts_without_waiting_for_a_network_and_stops_cleanly():
    """Away from home there is no network to wait for: network-online.target held the start
    (and the OLED blank, the hotspot later) for up to a minute. And a stop while nmcli brings
    a network up (up to JOIN_SECONDS, joined for 5 s more) was cut short by a SIGKILL at 20 s."""
    from firmware.network import nmcli
    keys = unit_keys(UNIT.read_text())
    assert "network-online.target" not in " ".join(keys.get("Wants", []) + keys["After"])
    assert "NetworkManager.service" in " ".join(keys["After"])
    assert int(keys["TimeoutStopSec"][-1]) > nmcli.JOIN_SECONDS + 5


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed here")
def test_systemd_unit_passes_systemd_analyze_verify(checkable_unit):
    result = subprocess.run([ANALYZE, "verify", str(checkable_unit)], capture_output=True,
                            text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if checkable_unit.name in line]
    assert result.returncode == 0 and not complaints, result.stderr


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed here")
def test_systemd_unit_exposure_stays_low(checkable_unit):
    result = subprocess.run([ANALYZE, "security", "--offline=true", str(checkable_unit)],
                            capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    if result.returncode != 0 and found is None:
        pytest.skip(f"systemd-analyze security --offline does not work here: {result.stderr}")
    assert found is not None and float(found.group(1)) <= MAX_EXPOSURE, result.stdout[-300:]


def test_systemd_club_unit_runs_parlour_club_as_its_own_user_with_its_config_kept_root_only():
    keys = unit_keys(CLUB_UNIT.read_text())
    single = {k: v[-1] for k, v in keys.items()}
    assert single["Type"] == "notify" and single["Restart"] == "on-failure"
    assert single["DynamicUser"] == "yes" and single["StateDirectory"] == "parlour-club"
    # the broker's password: the config file stays root's, the service gets a copy
    credential, source = single["LoadCredential"].split(":", 1)
    assert source == "/etc/parlour/club.toml"
    assert single["ExecStart"].endswith(
        f"/bin/parlour club --config ${{CREDENTIALS_DIRECTORY}}/{credential}")
    for key in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateDevices",
                "RestrictSUIDSGID", "LockPersonality", "MemoryDenyWriteExecute"):
        assert single[key] == "yes", key
    assert single["ProtectSystem"] == "strict" and "DeviceAllow" not in keys
    assert single["WantedBy"] == "multi-user.target"


def test_systemd_install_script_refuses_anywhere_but_a_pi():
    if Path("/proc/device-tree/model").exists() and \
            "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace"):
        pytest.skip("this is a Raspberry Pi: the script would really install")
    result = subprocess.run(["sh", str(INSTALL), "install"], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 2 and "not a Raspberry Pi" in result.stderr
    assert subprocess.run(["sh", "-n", str(INSTALL)], timeout=30).returncode == 0


# -- sd_notify ------------------------------------------------------------------------------

@pytest.fixture
def listener():
    """A unix datagram socket standing in for systemd's; yields (NOTIFY_SOCKET value, recv)."""
    folder = tempfile.mkdtemp(prefix="pn-")          # short: socket paths are limited
    path = os.path.join(folder, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10)
    try:
        yield path, lambda: sock.recv(4096).decode()
    finally:
        sock.close()
        shutil.rmtree(folder, ignore_errors=True)


def test_systemd_notify_addresses_and_intervals():
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@abstract/name") == b"\0abstract/name"
    assert socket_address(None) is None and socket_address("") is None
    assert socket_address("relative/path") is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}, pid=7) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"}, pid=7) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"}, pid=7) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}, pid=7) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}, pid=7) is None
    assert watchdog_interval({}, pid=7) is None


def test_systemd_notify_ready_status_stopping_datagrams(listener):
    path, recv = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready(status="serving http://10.0.0.2:8080/")
    assert recv() == "READY=1\nSTATUS=serving http://10.0.0.2:8080/"
    assert notifier.status("3 phones") and recv() == "STATUS=3 phones"
    assert notifier.stopping() and recv() == "STOPPING=1"
    assert not notifier.heartbeat()                  # no WatchdogSec: no pings
    notifier.close()


def test_systemd_notify_abstract_socket(abstract_listener):
    address, recv = abstract_listener
    notifier = Notifier({"NOTIFY_SOCKET": address})
    assert notifier.ready() and recv() == "READY=1"
    notifier.close()


def test_systemd_watchdog_pings_at_half_the_interval(listener):
    path, recv = listener
    clock = FakeClock(100.0)
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"}, clock=clock)
    sent = []
    for step in range(41):                           # 0 .. 4 s in 0.1 s steps
        clock.now = 100.0 + step * 0.1
        if notifier.heartbeat():
            sent.append(round(clock.now - 100.0, 1))
    assert sent == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert [recv() for _ in sent] == ["WATCHDOG=1"] * 5
    notifier.close()


def test_systemd_notify_without_systemd_or_with_its_socket_gone(tmp_path):
    quiet = Notifier({})
    assert not quiet.enabled and not quiet.ready() and not quiet.heartbeat()
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody"), "WATCHDOG_USEC": "1000"})
    assert not gone.ready() and not gone.heartbeat() and gone.failures == 2   # never raises
    gone.close()


def test_systemd_main_loop_feeds_the_watchdog(tmp_path, mock_factory, listener):
    path, recv = listener
    clock = FakeClock(100.0)
    table = runner.build(sim=True, host="127.0.0.1", port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="1234", web=False)
    table.notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"},
                              clock=clock)
    thread = threading.Thread(target=runner.loop, args=(table,), daemon=True)
    thread.start()
    try:
        assert recv() == "WATCHDOG=1"                # the first turn of the loop
        for _ in range(3):
            clock.now += 5.0                         # half the interval, on the loop's clock
            assert recv() == "WATCHDOG=1"
    finally:
        table.stop.set()
        table.inputs.put(runner.WAKE)
        thread.join(timeout=5)
        table.close()
        table.notifier.close()
    assert table.notifier.failures == 0 and not thread.is_alive()


@pytest.mark.slow
def test_systemd_parlour_run_tells_its_notify_socket(tmp_path, abstract_listener):
    address, recv = abstract_listener
    env = quiet_env(tmp_path, NOTIFY_SOCKET=address, WATCHDOG_USEC="400000")
    server = SimulatedTable(tmp_path / "data", tmp_path, env=env)
    try:
        messages = [recv()]
        while "WATCHDOG=1" not in messages[1:]:      # ready first, then the heartbeat
            messages.append(recv())
        server.proc.send_signal(signal.SIGTERM)
        while not messages[-1].startswith("STOPPING=1"):
            messages.append(recv())
        out, err = server.proc.communicate(timeout=15)
    finally:
        server.kill9()
    assert messages[0].startswith("READY=1\nSTATUS=serving http://127.0.0.1:")
    assert server.proc.returncode == 0 and "Traceback" not in err


@pytest.mark.parametrize("host, follows", [("0.0.0.0", True), ("127.0.0.1", False)])
def test_systemd_an_unmanaged_network_s_address_is_looked_up_again(tmp_path, mock_factory,
                                                                   host, follows):
    """The unit does not wait for the network: without the hotspot (mode "off", no nmcli)
    the address found at start was kept, 127.0.0.1 before the DHCP lease; a box listening on
    every address now looks again (a given host is the address itself)."""
    table = runner.build(sim=True, host=host, port=0, data_dir=tmp_path,
                         config=Config(data_dir=tmp_path), pin="1234", web=False)
    try:
        watch = table.controller.address
        assert (watch is not None) == follows
        if follows:
            assert watch.version == 0 and watch.url == f"http://{runner.lan_address(host)}:0/"
    finally:
        table.close()


@pytest.mark.slow
def test_systemd_a_watchdog_kill_says_where_every_thread_was(tmp_path):
    """WatchdogSec kills a main loop stuck for 30 s with SIGABRT: the journal got not a line
    of where it was stuck. Under the unit's own environment the program writes each thread's
    stack to stderr (the journal) as it is killed."""
    environment = dict(pair.split("=", 1) for line in unit_keys(UNIT.read_text())["Environment"]
                       for pair in line.split())
    env = quiet_env(tmp_path, PYTHONPATH=str(ROOT))
    env.update(environment)
    table = SimulatedTable(tmp_path / "data", tmp_path, env=env)
    box_drawn(table.url)                # the main loop turning (on a busy machine the web
    table.proc.send_signal(signal.SIGABRT)   # answered while start-up still went on)
    _, err = table.proc.communicate(timeout=10)
    assert table.proc.returncode == -signal.SIGABRT
    assert "Fatal Python error: Aborted" in err and "Current thread" in err, err[-2000:]
    assert re.search(r'firmware/runner\.py", line \d+ in loop', err), err[-2000:]
