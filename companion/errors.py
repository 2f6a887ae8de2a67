"""One error root for the whole program; each error is also the built-in type it resembles."""


class ParlourError(Exception):
    """Base of every error Parlour raises on purpose; its message is for people."""


class Refused(ParlourError, ValueError):
    """An event the game does not accept now; the message says what and why."""


class LogError(ParlourError, ValueError):
    """A game log that cannot be read or replayed; names the offending line."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.reason = message


class BoardDataError(ParlourError, ValueError):
    """Board data (a TOML file) that does not describe a playable board. `key` is the path of
    the offending key ("arrows", or ("arrows", "7")) when there is one, so that a file's error
    can name its line."""

    def __init__(self, message: str, *, key: str | tuple[str, ...] | None = None):
        super().__init__(message)
        self.key: tuple[str, ...] = (key,) if isinstance(key, str) else tuple(key or ())


class StoreError(ParlourError, RuntimeError):
    """The game store cannot be opened or written."""


class StoreUnreadable(StoreError):
    """A store file this Parlour cannot read: damaged, not a database, or written by a newer
    Parlour (`newer`). It must be moved aside, never written over."""

    def __init__(self, message: str, *, newer: bool = False):
        super().__init__(message)
        self.newer = newer


class StoreFull(StoreError):
    """The store's disk (the Pi's SD card) has no room: this write was not made, and every
    event stored before it is intact."""
