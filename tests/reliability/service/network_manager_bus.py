"""A stand-in NetworkManager (`network_manager_standin.py`, run by the system Python) on a
private D-Bus bus, for tests that run the real `nmcli`: with `DBUS_SYSTEM_BUS_ADDRESS` set to
the bus, `nmcli` talks to the stand-in alone and never to this machine's network."""

from __future__ import annotations

import json
import select
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from seccomp_filter import SYSTEM_PYTHON, has_binding

NMCLI = shutil.which("nmcli")
DBUS_DAEMON = shutil.which("dbus-daemon")
STAND_IN = Path(__file__).with_name("network_manager_standin.py")

NEEDS = [
    pytest.mark.skipif(NMCLI is None, reason="nmcli is not installed (Debian ships it in "
                       "network-manager; .ci/run takes it alone out of that package)"),
    pytest.mark.skipif(DBUS_DAEMON is None, reason="dbus-daemon is not installed "
                       "(Debian: apt-get install dbus-daemon)"),
    pytest.mark.skipif(not has_binding("gi"), reason="GLib's Python binding is not installed "
                       "for the stand-in NetworkManager (Debian: apt-get install python3-gi)")]


def needs_network_manager(test):
    """A test that runs the real `nmcli` against the stand-in: skipped, saying why, without."""
    for mark in NEEDS:
        test = mark(test)
    return test


def nmcli_version() -> str:
    """The version of the `nmcli` here ("nmcli tool, version 1.42.4" -> "1.42.4")."""
    out = subprocess.run([NMCLI, "--version"], capture_output=True, text=True,
                         timeout=30).stdout
    return out.strip().rsplit(" ", 1)[-1]


def first_line(process: subprocess.Popen, seconds: float = 20.0) -> str:
    """The first line a process prints, or "" if none comes in `seconds` (or it ends)."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline().strip() if ready else ""


def stop(process: subprocess.Popen | None) -> None:
    if process is None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()


@contextmanager
def stand_in_network_manager(in_range: list[str] | None = None, trying: str = ""):
    """A private bus with the stand-in NetworkManager on it: (bus address, its log). With
    `in_range` it has a Wi-Fi radio and those networks in range; with `trying`, a home network
    it is still trying to join (`network_manager_standin`)."""
    work = Path(tempfile.mkdtemp(prefix="nm-"))        # short: a socket path has 108 bytes
    address = f"unix:path={work / 'bus'}"
    log = work / "calls.jsonl"
    radio = [] if in_range is None else ["--radio", ",".join(in_range)]
    radio += ["--trying", trying] if trying else []
    bus = stand_in = None
    try:
        bus = subprocess.Popen([DBUS_DAEMON, "--session", f"--address={address}", "--nofork",
                                "--print-address"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
        assert first_line(bus).startswith("unix:path="), "the bus did not start"
        stand_in = subprocess.Popen([SYSTEM_PYTHON, str(STAND_IN), address, str(log),
                                     "--version", nmcli_version(), *radio],
                                    stdout=subprocess.PIPE, text=True)
        assert first_line(stand_in) == "ready", "the stand-in NetworkManager did not start"
        yield address, log
    finally:
        stop(stand_in)
        stop(bus)
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture
def network_manager():
    """The stand-in without a radio: every start fails as with no Wi-Fi device."""
    with stand_in_network_manager() as bus:
        yield bus


def calls(log: Path) -> list[dict]:
    """What the stand-in was asked to change, in order (see `network_manager_standin.py`)."""
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def changes(log: Path, since: int = 0) -> list[tuple[str, str]]:
    """(method, profile path) of each change from the `since`-th on."""
    return [(c["method"], c["path"]) for c in calls(log)[since:]]


def profiles(*numbers: int) -> list[str]:
    """The object paths of the stand-in's profiles, numbered in the order they were added."""
    return [f"/org/freedesktop/NetworkManager/Settings/{n}" for n in numbers]
