"""The service's own system-call filter, for tests that run a program under it: the unit's
`SystemCallFilter` lines read from systemd/parlour.service, their groups expanded by
systemd-analyze, and loaded with libseccomp's Python binding (Debian's python3-seccomp, in the
system Python) before the program is started in its place (`LOAD_AND_EXEC`)."""

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


def has_binding(module: str = "seccomp") -> bool:
    return os.path.exists(SYSTEM_PYTHON) and subprocess.run(
        [SYSTEM_PYTHON, "-c", f"import {module}"], capture_output=True).returncode == 0


SKIPS = [
    pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed here"),
    pytest.mark.skipif(not has_binding(), reason="libseccomp's Python binding is not installed "
                       "(Debian: apt-get install python3-seccomp)")]

# Run by the system Python: load the filter (deny with EPERM, as the unit's
# SystemCallErrorNumber says), then become the project's Python running the scenario.
LOAD_AND_EXEC = """
import json, os, sys, seccomp
flt = seccomp.SyscallFilter(defaction=seccomp.ERRNO(1))
for name in json.loads(sys.argv[1]):
    try:
        flt.add_rule(seccomp.ALLOW, name)
    except RuntimeError:       # a name this libseccomp does not know: nothing to allow
        pass
flt.load()
os.execv(sys.argv[2], sys.argv[2:])
"""

# The start of every scenario run under the filter: `denied` (a call the unit denies was
# refused) and `filtered` (the kernel says a filter is loaded) tell that it is really there.
FILTER_IS_THERE = """
import os
try:
    os.sched_setaffinity(0, os.sched_getaffinity(0))     # @resources: the unit denies it
    denied = False
except PermissionError:
    denied = True
with open("/proc/self/status") as status:
    filtered = "Seccomp:\\t2" in status.read()
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


def run_under_the_filter(scenario: str, *args: str, env: dict[str, str] | None = None,
                         timeout: float = 240) -> tuple[dict, str]:
    """`FILTER_IS_THERE` and then `scenario` (Python that prints a JSON object last, with
    "filter": denied and filtered) run by the project's Python under the unit's filter: that
    object, and what the run wrote to stderr."""
    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", LOAD_AND_EXEC, json.dumps(sorted(unit_allowed_calls())),
         sys.executable, "-c", FILTER_IS_THERE + scenario, *args],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["filter"], "the filter was not loaded"
    return result, done.stderr
