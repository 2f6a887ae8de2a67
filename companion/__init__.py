"""The table: rules, game state and the event log. Pure: no hardware, web, clock or randomness.

Everything the companion knows about a game is the fold of its events (`replay`); the session
appends events to the store and tells listeners.
"""

from companion.errors import BoardDataError, LogError, ParlourError, Refused, StoreError
from companion.events import parse_event
from companion.replay import Table, read_log, replay

__all__ = [
    "BoardDataError", "LogError", "ParlourError", "Refused", "StoreError",
    "Table", "parse_event", "read_log", "replay",
]
