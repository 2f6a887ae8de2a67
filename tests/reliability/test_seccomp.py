"""The chances worker under the service's own system-call filter: the filter is read from
systemd/parlour.service, its groups expanded by systemd-analyze, and loaded with libseccomp's
Python binding (Debian's python3-seccomp, in the system Python) before the worker's Python is
started in its place; chances must arrive, and a call the filter denies (sched_setaffinity) must be refused (so the
filter is really there)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from simulated_table import ROOT

UNIT = ROOT / "systemd" / "parlour.service"
ANALYZE = shutil.which("systemd-analyze")
SYSTEM_PYTHON = "/usr/bin/python3"


def _binding() -> bool:
    return os.path.exists(SYSTEM_PYTHON) and subprocess.run(
        [SYSTEM_PYTHON, "-c", "import seccomp"], capture_output=True).returncode == 0


pytestmark = [
    pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed here"),
    pytest.mark.skipif(not _binding(), reason="libseccomp's Python binding is not installed "
                       "(Debian: apt-get install python3-seccomp)")]

# Run by the system Python: load the filter (deny with EPERM, as the unit's
# SystemCallErrorNumber says), then become the project's Python running the scenario.
LOAD_AND_EXEC = """
import json, os, sys, seccomp
flt = seccomp.SyscallFilter(defaction=seccomp.ERRNO(1))
for name in json.loads(sys.argv[1]):
    try:
        flt.add_rule(seccomp.ALLOW, name)
    except Exception:          # a name this libseccomp does not know: nothing to allow
        pass
flt.load()
os.execv(sys.argv[2], sys.argv[2:])
"""

# The worker as the service runs it: a session, a game, throws; count the chances that arrive.
SCENARIO = """
import json, os, sys, time
from pathlib import Path
from companion.session import Session
from companion.record.store import Store
from firmware.workers.odds_worker import OddsWorker
try:
    os.sched_setaffinity(0, os.sched_getaffinity(0))     # @resources: the unit denies it
    denied = False
except PermissionError:
    denied = True
session = Session(Store(Path(sys.argv[1])), new_seed=lambda: bytes(range(32)))
worker = OddsWorker(session)
worker.start()
session.new_game("kat-en-muis", ["Ann", "Ben"])
arrived = throws = 0
while throws < 6 and not session.state.over:
    session.roll()
    throws += 1
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        snap = session.snapshot()
        if snap.get("odds") and snap["state_version"] == session.state_version:
            arrived += 1
            break
        time.sleep(0.02)
worker.close()
print(json.dumps({"arrived": arrived, "throws": throws, "affinity_denied": denied,
                  "restarts": worker.restarts}))
"""


def expand(name: str, seen: set[str] | None = None) -> set[str]:
    """A system call, or a group's calls (systemd-analyze syscall-filter @group, nested)."""
    if not name.startswith("@"):
        return {name}
    seen = set() if seen is None else seen
    if name in seen:
        return set()
    seen.add(name)
    out = subprocess.run([ANALYZE, "syscall-filter", name], capture_output=True, text=True,
                         check=True).stdout
    calls: set[str] = set()
    for line in out.splitlines()[1:]:
        line = line.strip()
        if line and not line.startswith("#"):
            calls |= expand(line, seen)
    return calls


def unit_allowed_calls() -> set[str]:
    """The unit's SystemCallFilter lines in order: the first (an allow list) sets the calls,
    a `~` line takes calls away, a later plain line gives calls back (systemd.exec)."""
    allowed: set[str] | None = None
    for line in UNIT.read_text().splitlines():
        if not line.startswith("SystemCallFilter="):
            continue
        value = line.split("=", 1)[1]
        calls = set().union(*(expand(n) for n in value.lstrip("~").split()))
        if allowed is None:
            assert not value.startswith("~"), "the unit's filter is an allow list"
            allowed = calls
        elif value.startswith("~"):
            allowed -= calls
        else:
            allowed |= calls
    assert allowed, "the unit has no SystemCallFilter"
    return allowed


def test_seccomp_chances_arrive_under_the_units_own_filter(tmp_path):
    allowed = unit_allowed_calls()
    assert "setpriority" in allowed and "sched_setaffinity" not in allowed
    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", LOAD_AND_EXEC, json.dumps(sorted(allowed)), sys.executable,
         "-c", SCENARIO, str(tmp_path / "parlour.db")],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["affinity_denied"], "the filter was not loaded"
    assert result["restarts"] == 0 and "cannot lower" not in done.stderr, done.stderr[-2000:]
    assert result["arrived"] == result["throws"] > 0, result
