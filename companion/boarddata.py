"""Board data: values printed on a board (picture squares, arrows, track length), shipped as
editable TOML files in `companion/boards/` and overridable by a user's file."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import BoardDataError


def default_board(game_id: str) -> dict[str, Any]:
    """The shipped board data of a game ({} for a game without any)."""
    path = resources.files("companion") / "boards" / f"{game_id}.toml"
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text(encoding="utf-8"))


def load_board_file(path: str | Path, game_id: str) -> dict[str, Any]:
    """A user's board file laid over the shipped defaults."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BoardDataError(f"cannot read board file {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise BoardDataError(f"{path} is not UTF-8 text") from None
    return parse_board_text(text, game_id, str(path))


def parse_board_text(text: str, game_id: str, where: str = "the board file") -> dict[str, Any]:
    """Board data in TOML (a file's text, or one uploaded from the phone) over the defaults."""
    try:
        user = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BoardDataError(f"{where} is not valid TOML: {err}") from None
    return {**default_board(game_id), **user}


def int_list(board: dict[str, Any], key: str, low: int, high: int) -> list[int]:
    """A list of distinct squares within low..high."""
    value = board.get(key)
    if not isinstance(value, list) or not all(is_whole(v)
                                              for v in value):
        raise BoardDataError(f"'{key}' must be a list of square numbers")
    for v in value:
        if not low <= v <= high:
            raise BoardDataError(f"'{key}': square {v} is off the track ({low} to {high})")
    if len(set(value)) != len(value):
        raise BoardDataError(f"'{key}' names a square twice")
    return sorted(value)


def whole(board: dict[str, Any], key: str, low: int, high: int) -> int:
    value = board.get(key)
    if not is_whole(value) or not low <= value <= high:
        raise BoardDataError(f"'{key}' must be a whole number from {low} to {high}")
    return value
