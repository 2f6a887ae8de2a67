"""The OLED's board screens for Fox and Geese: the 33 points on the left (64 px high) with the
pieces, the move the knob has reached drawn as an arrow (a path for a jump chain), and words
on the right: whose move, the move, how to make it. Also the Pi's move, to copy on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from companion.games.fox_and_geese import COLUMNS, POINTS, board_for, name
from firmware.oled import lettering, screens
from firmware.oled.views import player_name
from firmware.workers.pi_worker import pi_level

STEP = 9                     # pixels between points: 7 points in 64 px
MARGIN = 4
RING = 6                     # the ring round a piece just moved
PANEL = 2 * MARGIN + 6 * STEP + 2     # where the words start, a blank column after the board


def xy(point: str) -> tuple[int, int]:
    """Pixel of a point name; row 1 (the Geese's end) at the bottom."""
    col, row = COLUMNS.index(point[0]), int(point[1])
    return MARGIN + col * STEP, MARGIN + (7 - row) * STEP


def _lines(draw: ImageDraw.ImageDraw) -> None:
    """The printed lines, dotted so the pieces and the arrow stand out."""
    board = board_for(frozenset())
    for p in POINTS:
        a = xy(name(p))
        for q in board.steps[p]:
            if q > p:
                b = xy(name(q))
                for i in range(0, STEP + 1, 2):
                    draw.point((a[0] + (b[0] - a[0]) * i // STEP,
                                a[1] + (b[1] - a[1]) * i // STEP), fill=lettering.ON)


def _pieces(draw: ImageDraw.ImageDraw, fox: str, geese: Sequence[str]) -> None:
    for goose in geese:
        x, y = xy(goose)
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=lettering.ON)
    x, y = xy(fox)                                      # the Fox: a hollow square, marked
    draw.rectangle((x - 4, y - 4, x + 4, y + 4), fill=lettering.OFF, outline=lettering.ON)
    draw.rectangle((x - 1, y - 1, x + 1, y + 1), fill=lettering.ON)


def _shaft(draw: ImageDraw.ImageDraw, path: Sequence[str]) -> None:
    """The move as a thick line through its points (drawn under the pieces)."""
    points = [xy(p) for p in path]
    for a, b in zip(points, points[1:]):
        draw.line((a, b), fill=lettering.ON, width=3)


def _head(draw: ImageDraw.ImageDraw, path: Sequence[str], board: dict[str, Any]) -> None:
    """The arrow's head: a ring on the landing point and a stroke either side of the last leg
    while it is empty; a ring round the piece once the move is made."""
    (x0, y0), (x1, y1) = xy(path[-2]), xy(path[-1])
    dx, dy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    if path[-1] == board["fox"] or path[-1] in board["geese"]:    # made: ring the piece
        draw.ellipse((x1 - RING, y1 - RING, x1 + RING, y1 + RING), outline=lettering.ON)
        return
    draw.ellipse((x1 - 3, y1 - 3, x1 + 3, y1 + 3), fill=lettering.OFF, outline=lettering.ON)
    for side in (1, -1):
        back = (x1 - 6 * dx + 3 * side * dy, y1 - 6 * dy - 3 * side * dx)
        draw.line(((x1 - 4 * dx, y1 - 4 * dy), back), fill=lettering.ON, width=2)


def board_image(board: dict[str, Any], path: Sequence[str] | None = None) -> Image.Image:
    image, draw = lettering.canvas()
    _lines(draw)
    if path:
        _shaft(draw, path)
    _pieces(draw, board["fox"], board["geese"])
    if path:
        _head(draw, path, board)
    # a ring round a piece on the g column is cut flat rather than touch the words
    draw.rectangle((PANEL - 1, 0, lettering.W - 1, lettering.H - 1), fill=lettering.OFF)
    return image


def move_words(path: Sequence[str]) -> str:
    return "-".join(path)


def chain_words(path: Sequence[str]) -> str:
    """A move as the panel beside the board holds it: whole where it fits a small line, else
    as many points from the start as fit, then "…" and the landing point ("c5-a5-…-e5": cut
    at its end, "c5-a5-a3-…" hid where the Fox lands; the arrow shows every leap)."""
    room = lettering.W - PANEL - 1
    whole = move_words(path)
    if lettering.width(whole, lettering.SMALL) <= room:
        return whole
    for keep in range(len(path) - 2, 0, -1):
        words = f"{move_words(path[:keep])}-…-{path[-1]}"
        if lettering.width(words, lettering.SMALL) <= room:
            return words
    return f"{path[0]}-…-{path[-1]}"


def _panel(image: Image.Image, lines: Sequence[tuple[str, int]]) -> Image.Image:
    """Words on the right of the board, top to bottom, each line at its own size: 2 px apart,
    closer when five lines need the room."""
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    room = lettering.W - PANEL - 1
    sizes = [min(size, lettering.fit(words, room, (size, lettering.MEDIUM, lettering.SMALL)))
             for words, size in lines]
    gap = max(0, min(2, (lettering.H - sum(sizes)) // max(1, len(lines) - 1)))
    y = 0
    for (words, _), size in zip(lines, sizes):
        lettering.text(draw, (PANEL, y), lettering.clip(words, size, room), size)
        y += size + gap
    return image


def choosing(snap: dict[str, Any], index: int) -> Image.Image:
    """The turn: the knob's move as an arrow; its words, its number among the moves."""
    moves = snap["board"]["moves"]
    path = moves[index % len(moves)] if moves else None
    return _panel(board_image(snap["board"], path), choosing_lines(snap, index))


def choosing_lines(snap: dict[str, Any], index: int) -> list[tuple[str, int]]:
    """Who is to move (name, then side), the knob's move, which of how many it is ("knob 3/10":
    the knob picks) and what the press does: five lines that fit the 64 rows whole. A jump
    chain too long for a line is said over two, cut between points, under the geese it takes
    ("takes 4" where the side was): "a3-c3-…-g5" was two chains of twelve, taking 4 and 3."""
    moves = snap["board"]["moves"]
    player = snap["players"][snap["turn"]]
    who = [(player["name"], lettering.SMALL), (player["role"].capitalize(), lettering.SMALL)]
    if not moves:
        return who
    path = moves[index % len(moves)]
    knob = (f"knob {index % len(moves) + 1}/{len(moves)}", lettering.SMALL)
    rows = path_rows(path)
    if len(rows) > 1:
        return [who[0], (f"takes {len(path) - 1}", lettering.SMALL)] + \
            [(row, lettering.SMALL) for row in rows] + [knob]
    return who + [(chain_words(path), lettering.MEDIUM), knob, ("press=move", lettering.SMALL)]


def path_rows(path: Sequence[str], most: int = 2) -> list[str]:
    """A move's points over small lines beside the board, cut only between points ("d4-d6-f6"
    / "-f4-d4"); past `most` lines, the first and then the end ("…-c5-a3"), where it lands."""
    room = lettering.W - PANEL - 1
    rows: list[str] = []
    for point in path:
        joined = f"{rows[-1]}-{point}" if rows else point
        if rows and lettering.width(joined, lettering.SMALL) <= room:
            rows[-1] = joined
        else:
            rows.append(point if not rows else f"-{point}")
    if len(rows) <= most:
        return rows
    tail = f"…-{path[-1]}"
    for point in reversed(path[1:-1]):
        if lettering.width(f"…-{point}{tail[1:]}", lettering.SMALL) > room:
            break
        tail = f"…-{point}{tail[1:]}"
    return rows[:most - 1] + [tail]


def knob_move(snap: dict[str, Any], index: int) -> list[str] | None:
    """The move the knob has reached (None when there is none)."""
    moves = (snap.get("board") or {}).get("moves") or []
    return moves[index % len(moves)] if moves else None


def playing(snap: dict[str, Any], index: int, thinking: bool = True) -> Image.Image:
    """A turn of a game the Pi or the board screen plays: the Pi thinking (or, after an undo,
    waiting for a press to move), or the knob's move."""
    if "board" not in snap:
        return screens.message(*pi_message(thinking, pi_name(snap)))
    if pi_level(snap):
        board = snap["board"]
        return _panel(board_image(board, board.get("last_move")), playing_lines(snap, thinking))
    return choosing(snap, index)


def pi_name(snap: dict[str, Any]) -> str:
    """The name of the Pi's seat whose turn it is ("Pi 2" where the Pi plays two seats)."""
    return player_name(snap, snap.get("turn")) or "Pi"


def pi_message(thinking: bool, name: str = "Pi") -> list[str]:
    """The Pi's turn in a game without a board: thinking, or after an undo waiting for the knob
    (heading, big words, small words), headed by its seat's name ("Pi 2")."""
    return [name, "is thinking", ""] if thinking else \
        [name, "Press the knob", f"and {'the Pi' if name == 'Pi' else name} moves"]


def playing_lines(snap: dict[str, Any], thinking: bool) -> list[tuple[str, int]]:
    """Beside the board on the Pi's turn, four whole lines: "Pi", its side, then its level and
    "thinking", or after an undo (the Pi waits) "press knob / Pi moves" ("to move it" read as
    the players moving its piece)."""
    player = snap["players"][snap["turn"]]
    doing = [(str(player.get("pi") or ""), lettering.SMALL), ("thinking", lettering.SMALL)] \
        if thinking else [("press knob", lettering.SMALL), ("Pi moves", lettering.SMALL)]
    return [("Pi", lettering.MEDIUM), (player["role"].capitalize(), lettering.SMALL)] + doing


def pi_words(snap: dict[str, Any]) -> tuple[str, str, str]:
    """What the Pi did: (the piece, "moves" or "jumps", the path): ("goose", "moves", "c3-c4")."""
    path = snap["board"].get("last_move") or []
    piece = "Fox" if path and path[-1] == snap["board"]["fox"] else "goose"
    jumps = any(_jumped(a, b) for a, b in zip(path, path[1:]))
    return piece, "jumps" if jumps else "moves", move_words(path)


def _jumped(a: str, b: str) -> bool:
    return 2 in (abs(COLUMNS.index(a[0]) - COLUMNS.index(b[0])), abs(int(a[1]) - int(b[1])))


def pi_moved(snap: dict[str, Any]) -> Image.Image:
    """The Pi's move, for a player to copy on the board, then press the knob."""
    board = snap["board"]
    return _panel(board_image(board, board.get("last_move")), pi_moved_lines(snap))


def pi_moved_lines(snap: dict[str, Any]) -> list[tuple[str, int]]:
    """"Pi moved" and which piece, or "Pi took" and how many geese (a jump takes one a leap:
    take them off the board), the path (a long one over two lines; a jump chain over two lines
    under "Pi took 4", one longer still from its start to its end: the board's arrow draws
    every leap) and what the players do: "move it," / "press knob" ("then press" alone never
    said who moves the piece, nor which control), or "and wins," / "press knob" when it won
    the game (the end is shown at the press): whole lines that fit the 64 rows beside the
    board, five at most."""
    piece, verb, _ = pi_words(snap)
    path = snap["board"].get("last_move") or []
    last = [("move it,", lettering.SMALL), ("press knob", lettering.SMALL)]
    if snap.get("phase") == "over":          # the end follows the press, as ever
        players = snap.get("players") or []
        last = [("and wins," if any(0 <= w < len(players) and players[w].get("pi")
                                    for w in snap.get("winners") or []) else "game over,",
                 lettering.SMALL), ("press knob", lettering.SMALL)]
    rows = path_rows(path, most=len(path))       # the path, cut only between points
    if verb == "jumps":
        taken = len(path) - 1
        if len(rows) == 2:                   # every leap, to copy: "Pi took 4" on one line
            return [(f"Pi took {taken}", lettering.SMALL)] + \
                [(row, lettering.SMALL) for row in rows] + last
        if len(rows) > 2:
            rows = [f"{path[0]}-…-{path[-1]}"]
        return [("Pi took", lettering.MEDIUM),
                ("1 goose" if taken == 1 else f"{taken} geese", lettering.SMALL)] + \
            [(row, lettering.SMALL) for row in rows] + last
    if len(rows) > 2:                        # a chain longer than two lines: where it ends
        rows = [rows[0], f"…-{path[-1]}"]
    which = [("the Fox" if piece == "Fox" else "a goose", lettering.SMALL)] if len(rows) < 2 else []
    return [("Pi moved", lettering.MEDIUM)] + which + [(row, lettering.SMALL) for row in rows] + \
        last