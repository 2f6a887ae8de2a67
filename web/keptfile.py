"""Small private JSON files the web layer keeps beside the store (paired phones, live logins).

Written whole to a `.part` file with mode 0600, synced, then renamed over the old one, so a
power cut leaves the old file or the new one, never half of either. A file that is missing or
does not read is taken as empty: what it holds can always be made again (a phone pairs or
signs in again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def read_kept(path: Path | None) -> Any:
    """The file's JSON, or None if there is no file or it does not read."""
    if path is None:
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_kept(path: Path | None, data: Any) -> None:
    """Replace the file with `data` as JSON, readable by this user only."""
    if path is None:
        return
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)
