"""Small private files kept beside the store: paired phones and live logins (JSON), the PIN
and the cookie key (firmware/datadir/keys.py).

Written whole to a `.part` file with mode 0600, synced, then renamed over the old one, and the
folder synced, so a power cut leaves the old file or the new one, never half of either, and
one written a moment before it (a PIN just made, a phone just paired) is there after it. A
file that is missing or does not read is taken as empty: what it holds can always be made
again (a phone pairs or signs in again).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from companion.errors import StoreError, StoreFull

NO_ROOM = (errno.ENOSPC, errno.EDQUOT)


def token_digest(token: str) -> str:
    """What is kept of a phone's token or login id: its SHA-256 (a copied file signs no one in)."""
    return hashlib.sha256(token.encode()).hexdigest()


def read_kept(path: Path | None) -> Any:
    """The file's JSON, or None if there is no file or it does not read."""
    if path is None:
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_kept(path: Path | None, data: Any, what: str = "this change") -> None:
    """Replace the file with `data` as JSON, readable by this user only. A write that fails
    raises StoreFull (the card has no room: the same words as a game's event) or StoreError, so
    the caller undoes the change it made in memory and nothing is answered as done."""
    if path is None:
        return
    keep_private(Path(path), json.dumps(data).encode(), what)


def keep_private(path: Path, data: bytes, what: str) -> None:
    """`write_private`, with a write that fails raised as StoreFull or StoreError (see
    `write_kept`): said in words, never an OSError with a traceback."""
    try:
        write_private(path, data)
    except OSError as err:
        if err.errno in NO_ROOM:
            raise StoreFull(f"The SD card is full: {what} was not kept. Free some space and "
                            "try again") from None
        raise StoreError(f"cannot keep {what} in {path}: {err.strerror}") from None


def write_private(path: Path, data: bytes) -> None:
    """Replace the file with `data`: mode 0600 (a `.part` left by a crash is made so too),
    synced, then renamed over the old one and the folder synced (the rename is in the folder:
    until then a power cut can undo it, and a first file is then gone); if that fails, the old
    one is left as it was and the `.part` goes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, path)
    except OSError:
        part.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Make the names in `folder` (a rename into it) last through a power cut. The file is in
    place already: a folder that cannot be synced leaves it as lasting as the filesystem
    makes it, and is no reason to call the write failed."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
