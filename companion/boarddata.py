"""Board data: values printed on a board (picture squares, arrows, track length), shipped as
editable TOML files in `companion/boards/` and overridable by a user's file.

A game's schema is its shipped file: a key it does not have is refused by name (with a "did
you mean" when one is close), a game without a shipped file takes no board data, and each
game's `check_board` checks the values. An error in a user's file names the file and the line
of the key at fault (tomllib reports lines only for syntax errors, so the line is found in the
text).
"""

from __future__ import annotations

import copy
import difflib
import functools
import re
import tomllib
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from companion.checks import is_whole
from companion.errors import BoardDataError


def default_board(game_id: str) -> dict[str, Any]:
    """The shipped board data of a game ({} for a game without any): a copy of what was read
    once (every game started or replayed asks for it)."""
    return copy.deepcopy(_shipped_board(game_id))


@functools.lru_cache(maxsize=None)
def shipped_board_text(game_id: str) -> str | None:
    """The shipped board file of a game, as text (a table's own file starts from it); None for
    a game without one (read once: the new-game form asks at every page)."""
    path = resources.files("companion") / "boards" / f"{game_id}.toml"
    return path.read_text(encoding="utf-8") if path.is_file() else None


@functools.lru_cache(maxsize=None)
def _shipped_board(game_id: str) -> dict[str, Any]:
    text = shipped_board_text(game_id)
    return tomllib.loads(text) if text is not None else {}


def check_keys(board: dict[str, Any], known: Iterable[str], title: str) -> None:
    """Refuse a key the game's board data does not have, by name; a game without board data
    refuses any."""
    known = list(known)
    for key in board:
        if not known:
            raise BoardDataError(f"{title} has no board data, so it takes no '{key}'", key=key)
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise BoardDataError(f"unknown key '{key}' ({hint}{title}'s board data has "
                                 f"{', '.join(known)})", key=key)


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
    """Board data in TOML (a file's text, or one uploaded from the phone) over the defaults,
    checked against the game's schema; an error names `where` and the line at fault."""
    from companion.games import get_rulebook      # the games import this module

    try:
        user = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BoardDataError(f"{where} is not valid TOML: {err}") from None
    rulebook = get_rulebook(game_id)
    board = {**rulebook.default_board(), **user}
    try:
        rulebook.board_for(board)
    except BoardDataError as err:
        line = key_line(text, err.key)
        if line is not None:
            raise BoardDataError(f"{where}, line {line}: {err}", key=err.key) from None
        kept = f" (in the shipped '{err.key[0]}', which this file does not set)" \
            if err.key and err.key[0] not in user else ""
        raise BoardDataError(f"{where}: {err}{kept}", key=err.key) from None
    return board


_HEADER = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")
_ASSIGN = re.compile(r"^\s*([^=\s][^=]*?)\s*=")


def _name(part: str) -> str:
    return part.strip().strip("\"'")


def key_line(text: str, key: tuple[str, ...]) -> int | None:
    """The line (from 1) where a TOML text sets `key` ("arrows" or ("arrows", "7")): the
    key itself when found, else the first line under the key's first part."""
    if not key:
        return None
    table: tuple[str, ...] = ()
    nearest = None
    for number, line in enumerate(text.splitlines(), start=1):
        header, assign = _HEADER.match(line), _ASSIGN.match(line)
        if line.lstrip().startswith("#") or not (header or assign):
            continue
        if header:
            table = path = tuple(_name(p) for p in header.group(1).split("."))
        else:
            path = table + tuple(_name(p) for p in assign.group(1).split("."))
        if path[:len(key)] == key:
            return number
        if nearest is None and path[:1] == key[:1]:
            nearest = number
    return nearest


def int_list(board: dict[str, Any], key: str, low: int, high: int) -> list[int]:
    """A list of distinct squares within low..high."""
    value = board.get(key)
    if not isinstance(value, list) or not all(is_whole(v)
                                              for v in value):
        raise BoardDataError(f"'{key}' must be a list of square numbers", key=key)
    for v in value:
        if not low <= v <= high:
            raise BoardDataError(f"'{key}': square {v} is off the track ({low} to {high})",
                                 key=key)
    if len(set(value)) != len(value):
        raise BoardDataError(f"'{key}' names a square twice", key=key)
    return sorted(value)


def whole(board: dict[str, Any], key: str, low: int, high: int) -> int:
    value = board.get(key)
    if not is_whole(value) or not low <= value <= high:
        raise BoardDataError(f"'{key}' must be a whole number from {low} to {high}", key=key)
    return value
