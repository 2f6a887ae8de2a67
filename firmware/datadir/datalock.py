"""One table per data directory: an OS lock on `<data dir>/parlour.lock`, held for the life of
the process, so a second `parlour run` on the same store refuses to start instead of writing
into the first one's games; and one club per data directory, the same way on `club.lock`
(a table and a club may share a directory: their stores are different files).

flock(2) locks belong to the open file, so the kernel lets go when the process ends in any
way (kill -9, a power cut's reboot): a stale lock file never blocks a start. The file holds
the pid of the holder, for the message; the pid is only a hint, the lock is the truth.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from companion.errors import ParlourError

LOCK_NAME = "parlour.lock"
CLUB_LOCK_NAME = "club.lock"


class DataDirBusy(ParlourError, RuntimeError):
    """Another process holds the data directory's lock."""


def make_data_dir(data_dir: Path) -> None:
    """The data directory, made if missing; a file in its place (or on its way) is said in
    one line with the way out, before anything else tries to read or write there."""
    try:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ParlourError(f"{data_dir} is not a folder (a file has that name, or is on its "
                           "way): choose another with --data-dir") from None


class DataDirLock:
    """The lock on one data directory; `release` (or the process ending) lets it go."""

    def __init__(self, data_dir: Path, name: str = LOCK_NAME, *,
                 command: str = "run", one: str = "table"):
        """`name`: the lock's file; `command` and `one` word the refusal: "(another parlour
        run); one table per data directory"."""
        self.path = Path(data_dir) / name
        make_data_dir(data_dir)
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            holder = self._holder()
            self.release()
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f"process {holder}" if holder else "another process"
                raise DataDirBusy(f"{data_dir} is already in use by {who} (another parlour "
                                  f"{command}); one {one} per data directory") from None
            raise
        try:                               # the pid is a hint for the message: a full
            os.ftruncate(self._fd, 0)      # disk that cannot hold it still gets the lock
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass

    def _holder(self) -> int | None:
        try:
            text = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return None
        return int(text) if text.isdigit() and len(text) < 10 else None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)             # closing the only descriptor drops the lock
            self._fd = None
