"""The service under its own system-call filter: the filter is read from
systemd/parlour.service, its groups expanded by systemd-analyze, and loaded with libseccomp's
Python binding (Debian's python3-seccomp, in the system Python) before the program is started
in its place. The chances worker must get its chances, and a call the filter denies
(sched_setaffinity) must be refused (so the filter is really there); the whole service must
play a game; and what the filter allows here (x86_64) must be allowed on a Pi (aarch64), where
older calls have only their later forms."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from seccomp_filter import (LOAD_AND_EXEC, SKIPS, SYSTEM_PYTHON, run_under_the_filter,
                            unit_allowed_calls)
from simulated_table import ROOT, SimulatedTable, call, quiet_env

pytestmark = SKIPS

# The worker as the service runs it: a session, a game, throws; count the chances that arrive.
SCENARIO = """
import json, sys, time
from pathlib import Path
from companion.session import Session
from companion.record.store import Store
from firmware.workers.odds_worker import OddsWorker
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
print(json.dumps({"arrived": arrived, "throws": throws, "filter": denied and filtered,
                  "restarts": worker.restarts}))
"""


def test_seccomp_chances_arrive_under_the_units_own_filter(tmp_path):
    allowed = unit_allowed_calls()
    assert "setpriority" in allowed and "sched_setaffinity" not in allowed
    result, stderr = run_under_the_filter(SCENARIO, str(tmp_path / "parlour.db"), timeout=180)
    assert result["restarts"] == 0 and "cannot lower" not in stderr, stderr[-2000:]
    assert result["arrived"] == result["throws"] > 0, result


# The calls x86_64 still has under their first names and aarch64 has only in their later form
# (aarch64 starts from the generic table): what the filter allows by the first name, a Pi
# makes by the second, so the filter must allow that too.
AARCH64_FORM = {
    "open": "openat", "creat": "openat", "stat": "newfstatat", "lstat": "newfstatat",
    "poll": "ppoll", "select": "pselect6", "fork": "clone", "vfork": "clone", "pipe": "pipe2",
    "dup2": "dup3", "epoll_wait": "epoll_pwait", "epoll_create": "epoll_create1",
    "eventfd": "eventfd2", "inotify_init": "inotify_init1", "signalfd": "signalfd4",
    "access": "faccessat", "readlink": "readlinkat", "unlink": "unlinkat", "rmdir": "unlinkat",
    "rename": "renameat", "mkdir": "mkdirat", "mknod": "mknodat", "link": "linkat",
    "symlink": "symlinkat", "chmod": "fchmodat", "chown": "fchownat", "lchown": "fchownat",
    "utimes": "utimensat", "futimesat": "utimensat", "getdents": "getdents64",
    "alarm": "setitimer", "pause": "ppoll", "getpgrp": "getpgid", "time": "clock_gettime",
}

# Run by the system Python: each name's number on aarch64 (negative: none there).
RESOLVE_AARCH64 = """
import json, sys, seccomp
print(json.dumps({n: seccomp.resolve_syscall(seccomp.Arch.AARCH64, n)
                  for n in json.loads(sys.argv[1])}))
"""


def test_seccomp_the_filter_allows_on_aarch64_what_it_allows_here():
    """The worker is run under the filter on this machine (x86_64), where Python opens files
    with `openat` but could as well use `open`; a Pi (aarch64) has no `open`, `stat`, `poll`,
    `fork`... only their later forms. Every call the filter allows by a first name must be
    allowed in its aarch64 form too, and the filter must keep real aarch64 calls."""
    allowed = unit_allowed_calls()
    names = sorted(allowed | set(AARCH64_FORM) | set(AARCH64_FORM.values()))
    done = subprocess.run([SYSTEM_PYTHON, "-c", RESOLVE_AARCH64, json.dumps(names)],
                          capture_output=True, text=True, timeout=60, check=True)
    number = json.loads(done.stdout)
    assert all(number[form] >= 0 for form in AARCH64_FORM.values())   # the table is right
    assert all(number[first] < 0 for first in AARCH64_FORM)            # no such call there
    missing = {first: form for first, form in AARCH64_FORM.items()
               if first in allowed and form not in allowed}
    assert not missing, f"allowed on x86_64 only, not in their aarch64 form: {missing}"
    on_a_pi = {name for name in allowed if number[name] >= 0}
    assert {"openat", "newfstatat", "ppoll", "clone", "pipe2", "epoll_pwait", "mknodat",
            "ioctl", "setpriority", "getrandom", "futex"} <= on_a_pi


def pis_move_then_ours(url: str) -> dict:
    """Wait (up to 60 s) for the Pi's Geese to move; the goose's path and a Fox's move."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = call(url, "/api/state")
        if state["turn"] == 0:
            return {"goose": state["board"]["last_move"], "path": state["board"]["moves"][0]}
        time.sleep(0.05)
    raise AssertionError("the Pi never moved")


def test_seccomp_the_whole_service_plays_a_game_under_the_units_filter(tmp_path):
    """The filter is the unit's, for the whole service: the device loop, waitress, the Pi's
    and the chances' workers, the store. `parlour run --sim` under it plays Kat en Muis from
    the API and the Pi's move in Fox and Geese, and stops cleanly."""
    allowed = unit_allowed_calls()
    prefix = (SYSTEM_PYTHON, "-c", LOAD_AND_EXEC, json.dumps(sorted(allowed)))
    with SimulatedTable(tmp_path / "data", tmp_path, prefix=prefix, timeout=60,
                        env=quiet_env(tmp_path, PYTHONPATH=str(ROOT))) as table:
        assert "error" not in call(table.url, "/api/control/new-game",
                                   {"game": "kat-en-muis", "players": ["Ann", "Ben"]})
        for _ in range(3):
            assert "error" not in call(table.url, "/api/control/roll", {})
        assert call(table.url, "/api/state")["rolls"] == 3
        status = Path(f"/proc/{table.pid}/status").read_text()
        assert "Seccomp:\t2" in status                      # under a filter
        assert "error" not in call(table.url, "/api/control/new-game",
                                   {"game": "fox-and-geese", "players": ["Ann", "Pi"],
                                    "pi": [1], "pi_level": "best"})       # the Pi's Geese
        fox = pis_move_then_ours(table.url)
        assert "error" not in call(table.url, "/api/control/move", {"path": fox["path"]})
        assert pis_move_then_ours(table.url)["goose"], "the Pi never answered"
        out, err = table.stop()
    assert table.proc.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "Operation not permitted" not in err, err[-2000:]
