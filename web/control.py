"""Changing the game: POST /api/control/<action> (JSON, PIN) and the page's forms (/control/...,
PIN login kept in the cookie session, CSRF token). Both run the same actions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import (Blueprint, Response, current_app, flash, has_app_context,
                   has_request_context, jsonify, redirect, request, url_for)

from companion.boarddata import parse_board_text
from companion.buttons import MAX_BUTTONS, colour_of, free_button
from companion.checks import is_whole
from companion.errors import BoardDataError, Refused, StoreError
from companion.events import BY_SCRIPT, DEFAULT_PI_LEVEL, MAX_PATH, PI_LEVELS
from companion.games import GAMES
from companion.session import Session
from companion.words import is_undo, joined, shown_text, turn_ends, undo_notice
from web.access import auth, seat
from web.access.pace import keep_pace
from web.context import field_int, field_str, json_body, parlour, plain_number
from web.errors import ApiError
from web.seen import check_seen
from web.moves import phone_words, pi_turn, pi_turn_words
from web.access.phones import phone_id

bp = Blueprint("control", __name__)



def who() -> str:
    """The `by` of an event made here, naming the phone: "pin-<id>" for a phone signed in
    with the PIN (its login), "phone-<id>" for one paired with a seat (its token), "api" for
    a call with the PIN in a header. Ids are a digest's first digits: they tell phones apart
    in the log and prove nothing."""
    if not has_request_context():                 # an action run directly (tests, tools)
        return BY_SCRIPT
    if auth.logged_in():
        return auth.login_id()
    if request.headers.get(auth.PIN_HEADER) is None and seat.phone_token():
        return phone_id(seat.phone_token())
    return BY_SCRIPT
MAX_PLAYERS = 12                 # more than any game takes: the game refuses the rest
MAX_NAME = 64
MAX_SEAT = 64

Action = Callable[[Session, dict[str, Any]], dict[str, Any]]


# -- the actions, each from a JSON-shaped dict ----------------------------------------------

def _new_game(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    game = field_str(data, "game", max_length=64)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ApiError(400, "'players' must be a list of names")
    if not players or len(players) > MAX_PLAYERS:
        rulebook = GAMES.get(game)
        if rulebook is None:
            raise ApiError(400, f"Name between 1 and {MAX_PLAYERS} players.")
        raise ApiError(400, f"{rulebook.title} is for {rulebook.player_span()} players: tick "
                            "their seat buttons or type their names.")
    if any(len(p) > MAX_NAME for p in players):
        raise ApiError(400, f"A player's name can be at most {MAX_NAME} letters.")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(400, "'options' must be an object, such as {\"stake\": 5}")
    board = data.get("board")
    if board is not None and not isinstance(board, dict):
        raise ApiError(400, "'board' must be an object of board data")
    if board is not None and game in GAMES:     # over the shipped defaults, as a board file is
        board = {**GAMES[game].default_board(), **board}
    buttons = data.get("buttons")       # X12: checked by the game (one each, 1..6, distinct)
    if buttons is not None and (not isinstance(buttons, list) or len(buttons) > MAX_PLAYERS
                                or not all(is_whole(b) for b in buttons)):
        raise ApiError(400, "'buttons' must be a list of seat button numbers, one a player")
    pi, level = _pi_fields(data)
    _check_pi_names(players, pi)
    _check_box_buttons(len(players), buttons, pi)
    return session.new_game(game, players, options, board, by=who(), buttons=buttons, pi=pi,
                            pi_level=level)


def _check_box_buttons(count: int, buttons: list[int] | None, pi: list[int]) -> None:
    """Every person plays at a seat button the box has: a 4-button box seated players 5 and 6
    at buttons it lacks (X12's default is 1..n). The Pi's seat presses no button."""
    box = len(parlour().buttons) if has_app_context() else 0
    if not box:
        return
    held = buttons if buttons is not None else list(range(1, count + 1))
    people = [b for seat, b in enumerate(held) if seat not in pi]
    if len(people) > box:
        raise ApiError(409, f"This box has {box} seat buttons: at most {box} people can play "
                            "at it.")
    lacking = [b for b in people if box < b <= MAX_BUTTONS]
    if lacking:
        raise ApiError(409, f"This box has seat buttons 1 to {box}: there is no button "
                            f"{lacking[0]}.")


def remember(session: Session, snapshot: dict[str, Any]) -> None:
    """Add a new game's typed names to the roster: not the Pi's, nor a button's colour (the
    name of a player nobody named)."""
    colours = {c.name.casefold() for c in parlour().buttons}
    _to_roster(session, [p["name"] for p in snapshot.get("players") or []
                         if not p.get("pi") and p["name"].casefold() not in colours],
               snapshot.get("at"))


def _to_roster(session: Session, names: list[str], at: str | None = None) -> None:
    """The roster remembers names after the game's event is stored: a card too full for them
    leaves the roster as it was, never the done event answered as not done (a phone's
    rename was answered 507, "that was not done", with the seat renamed)."""
    try:
        session.store.remember_names(names, at)
    except StoreError as err:
        current_app.logger.warning("the roster was not written: %s", err)


PI_NAME = "Pi"          # the box says "Pi moved ...": no person is called so beside it


def _is_pi_name(name: str) -> bool:
    return name.strip().casefold() == PI_NAME.casefold()


def _check_pi_names(players: list[str], pi: list[int]) -> None:
    """With the Pi at the table no person is called "Pi" (a Pi seat that is none of the
    players' is the game's to refuse first: the names are not what is wrong)."""
    if any(not 0 <= seat < len(players) for seat in pi):
        return
    for number, name in enumerate(players if pi else []):
        if number not in pi and _is_pi_name(name):
            raise ApiError(409, f"{PI_NAME} is the Pi's name: call the player at seat "
                                f"{number + 1} otherwise.")


def _pi_fields(data: dict[str, Any]) -> tuple[list[int], str | None]:
    """The seats the Pi plays and its level (the game refuses seats it cannot give it)."""
    pi = data.get("pi") or []
    if not isinstance(pi, list) or len(pi) > MAX_PLAYERS or not all(
            is_whole(s) and 0 <= s <= MAX_SEAT for s in pi):
        raise ApiError(400, "'pi' must be a list of seat numbers")
    level = data.get("pi_level")
    if level is not None and level not in PI_LEVELS:
        raise ApiError(400, f"'pi_level' must be one of {', '.join(PI_LEVELS)}")
    return pi, (level or DEFAULT_PI_LEVEL) if pi else None


def _move(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    path = data.get("path")
    if not isinstance(path, list) or not 2 <= len(path) <= MAX_PATH or not all(
            isinstance(p, str) and len(p) <= 8 for p in path):
        raise ApiError(400, "'path' must be a list of point names, such as [\"c3\", \"c4\"]")
    return session.submit({"type": "move", "path": path}, by=who())


def _account(data: dict[str, Any], name: str) -> int | str:
    value = data.get(name)
    if value == "pool" or (is_whole(value) and 0 <= value <= MAX_SEAT):
        return value
    raise ApiError(400, f"'{name}' must be a seat number or \"pool\"")


def _transfer(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    event = {"type": "transfer", "from": _account(data, "from"), "to": _account(data, "to"),
             "amount": field_int(data, "amount", low=1, high=1_000_000),
             "reason": field_str(data, "reason", default="", max_length=200)}
    return session.submit(event, by=who())


def _declare(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    winners = data.get("winners")
    if not isinstance(winners, list) or not all(is_whole(w) for w in winners):
        raise ApiError(400, "'winners' must be a list of seat numbers")
    if len(winners) > MAX_SEAT:
        raise ApiError(400, "too many winners")
    return session.submit({"type": "declare", "winners": winners}, by=who())


def _rename(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    event = {"type": "rename", "seat": field_int(data, "seat", low=0, high=MAX_SEAT),
             "name": field_str(data, "name", max_length=MAX_NAME)}
    players = session.snapshot().get("players") or []
    if any(p.get("pi") for p in players):
        if event["seat"] < len(players) and players[event["seat"]].get("pi"):
            raise ApiError(409, f"The Pi's seat keeps its name, {PI_NAME}.")
        if _is_pi_name(event["name"]):
            raise ApiError(409, f"{PI_NAME} is the Pi's name: choose another.")
    if event["seat"] < len(players) and _same_name(event["name"], players[event["seat"]]):
        held = players[event["seat"]]["name"]
        raise ApiError(409, f"{held} is already called {held}: nothing to rename.")
    snapshot = session.submit(event, by=who())
    renamed = snapshot["players"][event["seat"]]["name"]      # as the game keeps it (X10)
    _to_roster(session, [renamed])
    return snapshot


def _same_name(name: str, player: dict[str, Any]) -> bool:
    """`name` is the one the player holds, as the game keeps names (X10: spaces trimmed, every
    Unicode space a plain one): a rename to it would change nothing."""
    try:
        return shown_text(name, "a player's name").strip(" ") == player.get("name")
    except Refused:
        return False                    # the game says what is wrong with it


def _pi_move(session: Session, data: dict[str, Any]) -> dict[str, Any]:
    """After an undo the Pi waits to be asked (the box's knob): a phone may ask it too."""
    snapshot = session.snapshot()
    if not any(p.get("pi") for p in snapshot.get("players") or []):
        raise ApiError(409, "The Pi does not play in this game: nothing to ask it."
                       if snapshot.get("game") else "No game is in play.")
    if not pi_turn(snapshot) or not snapshot.get("taken_back"):
        raise ApiError(409, "The Pi is not waiting to be asked: it moves by itself.")
    if session.ask_pi is None or not session.ask_pi():
        raise ApiError(409, "No Pi plays at this table now: the box runs it.")
    return session.snapshot()


ACTIONS: dict[str, Action] = {
    "new-game": _new_game,
    "undo": lambda s, d: s.undo(by=who()),
    "roll": lambda s, d: s.roll(by=who()),
    "next": lambda s, d: s.submit({"type": "next"}, by=who()),
    "press": lambda s, d: s.submit(
        {"type": "press", "seat": field_int(d, "seat", low=0, high=MAX_SEAT)}, by=who()),
    "choose": lambda s, d: s.submit(
        {"type": "choose", "value": field_int(d, "value", low=-10_000, high=10_000)}, by=who()),
    "declare": _declare,
    "transfer": _transfer,
    "rename": _rename,
    "end": lambda s, d: s.abandon(by=who()),
    "move": _move,
    "pi-move": _pi_move,
}


TURN_ACTIONS = ("roll", "next", "press", "choose", "move")     # what the seat to move does

# The fields each action takes (its log event's, and `seen` for all): any other is refused,
# never ignored ({"seat": 1} sent with "roll" threw for whoever's turn it was).
FIELDS: dict[str, tuple[str, ...]] = {
    "new-game": ("game", "players", "options", "board", "buttons", "pi", "pi_level"),
    "press": ("seat",), "choose": ("value",), "declare": ("winners",),
    "transfer": ("from", "to", "amount", "reason"), "rename": ("seat", "name"),
    "move": ("path",),
}


def check_fields(action: str, data: dict[str, Any]) -> None:
    """A 400 naming the first field `action` does not take, and the ones it does."""
    takes = (*FIELDS.get(action, ()), "seen")
    unknown = [name for name in data if name not in takes]
    if unknown:
        what = {"roll": " (it throws for the player whose turn it is)",
                "next": " (it ends the turn of the player whose turn it is)"}.get(action, "")
        raise ApiError(400, f"{action} takes no field {unknown[0][:40]!r}{what}; its fields: "
                            f"{', '.join(takes)}")


def run(action: str, data: dict[str, Any]) -> dict[str, Any]:
    """Run one action; Refused becomes a 409 with the game's reason. The Pi's turn is the
    Pi's: no phone or API call moves for it (an undo or a resignation still may). With
    `seen` (the state a page showed) it is done only on that state: a tap sent twice, an
    answer lost and sent again, or two phones on one turn act once, and the others are told
    what happened instead."""
    session = parlour().session
    with session.locked():
        check_seen(data)
        if action in TURN_ACTIONS and pi_turn(session.snapshot()):
            raise ApiError(409, f"It is the Pi's turn: {pi_turn_words(session.snapshot())}.")
        done = keep_pace()                   # a phone past its pace: 429, nothing done
        try:
            snapshot = ACTIONS[action](session, data)
        except Refused as err:
            raise ApiError(409, phone_words(str(err))) from None
        done()
    if action == "new-game":
        remember(parlour().session, snapshot)
    current_app.logger.debug("control: %s from %s", action, auth.client_address())   # the log has it
    return snapshot


# -- JSON API ---------------------------------------------------------------------------------

@bp.post("/api/login")
def login() -> Response:
    data = json_body()
    pin = field_str(data, "pin", max_length=64)
    if not parlour().guard.check(auth.client_address(), pin):
        raise ApiError(403, "wrong PIN")
    seat.keeping_pairing(auth.log_in)         # as the form's: a cookie that lasts by Max-Age
    return jsonify(ok=True, csrf=auth.csrf_token())


@bp.post("/api/logout")
def logout() -> Response:
    """Ends the login, with the token its later calls send (a page on another port of the same
    host is the same site: its form's POST would carry the cookie, and log phones out)."""
    if auth.logged_in() and not auth.csrf_ok(request.headers.get(auth.CSRF_HEADER)):
        raise ApiError(403, f"send the token /api/login gave as {auth.CSRF_HEADER}")
    seat.keeping_pairing(auth.log_out)
    return jsonify(ok=True)


@bp.post("/api/control/<action>")
def control(action: str) -> Response:
    if action not in ACTIONS:                   # the same answer to everyone, paired or not
        raise ApiError(404, f"unknown action {action[:40]!r} (actions: {', '.join(ACTIONS)})")
    data = json_body(required=False)
    try:
        auth.require_pin_for_api()
    except ApiError as err:
        if err.status != 401 or parlour().pairings is None or \
                parlour().pairings.button(seat.phone_token()) is None:
            raise
        if not auth.csrf_ok(request.headers.get(auth.CSRF_HEADER)):   # a paired phone's cookie
            raise ApiError(403, "This page had expired: reload it and try again.") from None
        check_fields(action, data)
        return jsonify(seat.run_paired(action, data, run))
    check_fields(action, data)
    return jsonify(run(action, data))


# -- the page's forms -------------------------------------------------------------------------

class MalformedForm(ApiError):
    """A form field no page of the table sends (a number not in plain digits): a 400, not a
    message on the page."""

    def __init__(self, message: str):
        super().__init__(400, message)


def _form_int(name: str) -> int:
    try:
        return plain_number(request.form.get(name, ""), name.replace("_", " "), digits=9,
                            signed=True)
    except ApiError as err:
        raise MalformedForm(err.message) from None


def _seat_number(text: str) -> int:
    try:
        return plain_number(text, "seat", digits=2)
    except ApiError:
        raise MalformedForm(f"{text[:10]!r} is not a seat number") from None


def _pi_seat(game: str, text: str, options: dict[str, Any]) -> int:
    """The seat the form's "The Pi plays" names: a seat number, or in Fox and Geese a side
    (the Fox's seat is the `fox_seat` option, so the side chosen is the side the Pi gets)."""
    if game == "fox-and-geese" and text in ("fox", "geese"):
        fox = options.get("fox_seat", 0)
        return fox if text == "fox" else 1 - fox
    return _seat_number(text)


def _form_account(name: str) -> int | str:
    return "pool" if request.form.get(name, "") == "pool" else _form_int(name)


# Free play's randomizer option, as the form offers it: value -> (words, option).
RANDOMIZER_CHOICES: dict[str, tuple[str, dict[str, Any]]] = {
    "d1": ("one die", {"kind": "dice", "count": 1}),
    "d2": ("two dice", {"kind": "dice", "count": 2}),
    "d3": ("three dice", {"kind": "dice", "count": 3}),
    "indicator": ("the Indicator", {"kind": "indicator"}),
    **{f"s{n}": (f"a spinner of {n}", {"kind": "spinner", "faces": n}) for n in range(2, 13)},
    "none": ("nothing to throw", {"kind": "none"}),
}
RANDOMIZER_GAMES = ("free-play",)           # games whose options take a randomizer


def _form_seats() -> tuple[list[str], list[int]]:
    """The form's rows are the seat buttons (X12): row n's `player` name is button n's, and a
    row plays if it is ticked (`button` n) or named. An unnamed player is called by the
    button's colour; an empty row in between moves no one to another button."""
    names = [p.strip() for p in request.form.getlist("player")]
    ticked = set()
    for text in request.form.getlist("button"):
        text = text.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 2 and int(text) > 0):
            raise ApiError(400, f"{text[:10]!r} is not a seat button number")
        ticked.add(int(text))                # one the box has not is refused by the game
    names += [""] * (max([len(names), *ticked]) - len(names))
    colours = parlour().buttons
    players, buttons = [], []
    for number, name in enumerate(names, start=1):
        if name or number in ticked:
            players.append(name or colour_of(colours, number).name)
            buttons.append(number)
    return players, buttons


def _form_new_game() -> dict[str, Any]:
    game = request.form.get("game", "")
    rulebook = GAMES.get(game)
    if rulebook is None:
        raise ApiError(400, "choose a game")
    players, buttons = _form_seats()
    options: dict[str, Any] = {}
    for name in rulebook.options:
        field = f"option-{game}-{name}"
        if request.form.get(field, "").strip():
            options[name] = _form_int(field)
    choice = request.form.get(f"option-{game}-randomizer")
    if choice is not None:
        if choice not in RANDOMIZER_CHOICES:
            raise ApiError(400, "choose a randomizer from the list")
        options["randomizer"] = RANDOMIZER_CHOICES[choice][1]
    out = {"game": game, "players": players, "buttons": buttons, "options": options}
    pi_seat = request.form.get(f"pi-{game}", "").strip()
    if pi_seat:                 # the Pi's seat and level; it takes its seat among the names
        if len(players) >= rulebook.max_players:
            raise ApiError(409, f"{rulebook.title} is for {rulebook.max_players} players and "
                                "the Pi takes one seat: type only the people's names.")
        seat = _pi_seat(game, pi_seat, options)
        if not 0 <= seat < rulebook.max_players:                  # not a seat the form offers
            raise ApiError(400, f"{rulebook.title} has seats 1 to {rulebook.max_players}: "
                                "choose the Pi's from the list.")
        seat = min(seat, len(players))          # a seat past the people's: the Pi sits last
        pairings = parlour().pairings          # a button no player holds, nor a phone's
        buttons.insert(seat, free_button(buttons, pairings.paired() if pairings else ()))
        players.insert(seat, "Pi")
        out["pi"], out["pi_level"] = [seat], request.form.get(f"pi-level-{game}")
    upload = request.files.get("board")
    if upload is not None and upload.filename:
        try:
            text = upload.read().decode("utf-8")
            out["board"] = parse_board_text(text, game, f"the board file {upload.filename!r}")
        except UnicodeDecodeError:
            raise MalformedForm("the board file is not UTF-8 text") from None
        except BoardDataError as err:
            raise ApiError(400, str(err)) from None
        except (ValueError, RecursionError):    # a number of 4,301+ digits, nesting too deep
            raise MalformedForm("the board file cannot be read: a number in it is too long "
                                "or its lists are nested too deeply") from None
    return out


FORMS: dict[str, Callable[[], dict[str, Any]]] = {
    "new-game": _form_new_game,
    "undo": dict, "roll": dict, "next": dict,
    "transfer": lambda: {"from": _form_account("from"), "to": _form_account("to"),
                         "amount": _form_int("amount"),
                         "reason": request.form.get("reason", "").strip()},
    "declare": lambda: {"winners": [_seat_number(w) for w in request.form.getlist("winners")]},
    "press": lambda: {"seat": _form_int("seat")},
    "choose": lambda: {"value": _form_int("value")},
    "rename": lambda: {"seat": _form_int("seat"), "name": request.form.get("name", "").strip()},
    "end": dict,
    "pi-move": dict,
}

DONE = {"new-game": "New game started", "undo": "Taken back", "roll": "Rolled",
        "next": "Turn ended", "transfer": "Chips moved", "declare": "Game ended",
        "rename": "Renamed", "end": "Game set aside",
        "press": "Pressed", "choose": "Chosen", "pi-move": "The Pi moves"}


TOLD_BY_LOG = ("roll", "press", "choose", "next", "transfer")   # answered with what the game said


def ended_turn(before: dict[str, Any]) -> str:
    """A turn ended with nothing for the log ("Blue's turn ends", as the box says it): the
    answer repeated the turn's last line, "Blue spins 1 and 5", as if that were the press."""
    players, turn = before.get("players") or [], before.get("turn")
    if isinstance(turn, int) and 0 <= turn < len(players):
        return turn_ends(players[turn]["name"])
    return DONE["next"]


def _fetched() -> bool:
    """The page's script sent the form (it asks for JSON): answer in place, no reload."""
    return request.accept_mimetypes.best == "application/json"


# Messages written for the API and the log, said on the page in players' words.
PLAYERS_WORDS = [
    (re.compile(r"^a player's name must be 1 to (\d+) characters.*"),
     r"A name can be 1 to \1 letters long"),
    (re.compile(r"^option-[a-z-]+?-([a-z]+): .*"), r"\1: enter a whole number"),
    (re.compile(r"^'(\w+)' must be from (-?\d+) to (-?\d+)"), r"\1: enter a number from \2 to \3"),
    (re.compile(r"^'(\w+)' is missing"), r"Fill in \1"),
]


def players_words(message: str) -> str:
    """'two players have the same name' -> 'Two players have the same name.'"""
    for pattern, words in PLAYERS_WORDS:
        message = pattern.sub(words, message)
    message = message[:1].upper() + message[1:]
    return message if message.endswith((".", "!", "?", ")")) else message + "."


def say(message: str, category: str, status: int = 200,
         after: float | None = None, now: dict | None = None) -> Response | None:
    """Tell the player: as JSON to the script, else as a flash on the reloaded page. `after`:
    seconds the script waits before showing it (a throw, told when the dial stops); `now`: the
    state the action led to, whose turn the answer stays for on the phone."""
    if category == "error":
        message = players_words(message)
    if _fetched():
        led_to = {"game_id": now.get("game_id"), "turn": now.get("turn"), "state": now} \
            if now else {}
        response = jsonify(ok=category == "ok", message=message,
                           **({"error": message} if category == "error" else {}),
                           **({"after": after} if after else {}), **led_to)
        response.status_code = status
        return response
    flash(message, category)
    return None


# A form's `next`: the page it was sent from, by name (never an address, which would let a
# link elsewhere send a phone on from the table); without one, the table's page.
BACK_TO = {"device": "device.panel"}


def back_to_page(answer: Response | None = None) -> Response:
    page = BACK_TO.get(request.form.get("next", ""))
    return answer or redirect(url_for(page) if page else url_for("pages.status") + "#control",
                              code=303)


def signed_out() -> bool:
    """Neither signed in nor paired: a page that offered PIN controls is out of date."""
    pairings = parlour().pairings
    return not auth.logged_in() and (pairings is None or
                                     pairings.button(seat.phone_token()) is None)


def form_checked() -> Response | None:
    """None if the form's CSRF token is right, else the answer to send back."""
    if not auth.csrf_ok(request.form.get("csrf")):
        return back_to_page(say("That form had expired: reload the page and try again.", "error", 403))
    return None


@bp.post("/control/login")
def form_login() -> Response:
    refused = form_checked()
    if refused:
        return refused
    try:
        ok = parlour().guard.check(auth.client_address(), request.form.get("pin", ""))
    except ApiError as err:
        return back_to_page(say(err.message, "error", err.status))
    if not ok:
        return back_to_page(say("Wrong PIN.", "error", 403))
    seat.keeping_pairing(auth.log_in)
    return back_to_page(say("PIN accepted: you can run the table from this phone.", "ok"))


@bp.post("/control/logout")
def form_logout() -> Response:
    refused = form_checked()
    if refused:
        return refused
    seat.keeping_pairing(auth.log_out)
    return back_to_page(say("Logged out.", "ok"))


@bp.post("/control/<action>")
def form_action(action: str) -> Response:
    if action not in FORMS:
        raise ApiError(404, f"unknown action {action[:40]!r}")
    refused = form_checked()
    if refused:
        return refused
    before = parlour().session.snapshot()
    try:
        data = FORMS[action]()
        data["seen"] = request.form.get("seen")
        snapshot = run(action, data) if auth.logged_in() else \
            seat.run_paired(action, data, run)
    except MalformedForm as err:
        if not _fetched():
            raise               # no page sends it: a plain 400
        return say(err.message, "error", err.status)
    except ApiError as err:
        if signed_out() and _fetched():   # a new PIN at the box: the page must ask for it again
            words = players_words(err.message)
            flash(words, "error")                            # said again on the page reloaded
            return jsonify(ok=False, message=words, error=words, signed_out=True), err.status
        # refused by the game or moved on: the answer stays for the turn the table is at (and
        # brings its state), not only until the state that refused it reaches the page
        now = parlour().session.snapshot() if err.status == 409 else None
        answer = back_to_page(say(err.message, "error", err.status, now=now))
        answer.headers.extend(err.headers)                  # a phone held back: Retry-After
        return answer
    words, earlier = snapshot.get("log") or [], before.get("log") or []
    same_game = before.get("game_id") == snapshot.get("game_id")
    seen = len(earlier) if same_game else len(words) - 1
    told = joined(words[seen:]) if action in TOLD_BY_LOG and words[seen:] else \
        ended_turn(before) if action == "next" else DONE[action]   # every line it added, in order
    if action == "undo" and is_undo(before, snapshot):
        told = undo_notice(snapshot.get("undone") or [], snapshot.get("put_back") or [])
    spin = snapshot.get("spin") or {}
    after = spin.get("seconds") if action == "roll" and spin.get("roll") == snapshot.get("rolls") \
        else None                                  # the phone tells it when the dial stops
    return back_to_page(say(phone_words(told), "ok", after=after, now=snapshot))
