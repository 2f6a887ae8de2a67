"""What the phone offers now: exactly the moves the game awaits (spin or throw, a Domino Rex
square, a capture or point for a seat, the end of a turn), worked out from the state JSON and
the game's rulebook. status.js works out the same from each live state with `game_moves()`'s
table, which the page carries; this module renders the page before any script runs."""

from __future__ import annotations

import functools
import re
from typing import Any

from companion.games import GAMES
from companion.rulebook import Rulebook
from companion.words import CLAIM_ASKS, END_OF_TURN
from web.domino import uncover_meaning

# What a seat button records in each game that takes presses (the box's button, in words).
PRESS_WORDS = {
    "cats-and-mice": "Cat takes a mouse",       # M3
    "gantlope": "A man enters the Goal",        # G3
    "india": "A man reaches home",              # P2
    "lost-diamond": "The diamond",               # LD2: worded by `diamond_press`
    "free-play": "A point",
}
# The press that confirms a claim to be home and wins (P2; LD2's is `diamond_press`'s).
CONFIRM_WORDS = {"india": "Confirm: a man is home and wins"}
# Games where the knob's plain press also means something while a throw is awaited.
NEXT_BEFORE_ROLL = {"lost-diamond": "Move in the Field", "free-play": "Pass"}   # LD1
NEXT_WORDS: dict[str, str] = {}      # a turn's end by another name
PRESS_SEATS: dict[str, tuple[int, ...]] = {}   # games where only these seats' buttons record
# Games whose score counts for some roles only: the others' cell is a dash, not a 0 read as
# theirs (F3: the Fox's geese taken; the Geese take none).
SCORED_ROLES = {"fox-and-geese": ("fox",)}
BOARD_GAMES = ("fox-and-geese",)      # a turn is a move on the board card, nothing else (F2)
DIAMOND_GAMES = ("lost-diamond",)     # the seat press's meaning hangs on who has the diamond
# The rules' prompts name the box's controls; a phone has buttons of its own (above), so it
# shows them in the phone's words. In order: a longer phrase before any phrase inside it.
PHONE_WORDS = (
    ("flick to spin, or press the knob to move in the Field; your button if that reaches the "
     "diamond", "spin, or move in the Field"),                       # LD1, LD2: its own button
    ("flick to spin, or press the knob to move in the Field", "spin, or move in the Field"),
    ("press your button again to confirm you are home; the knob cancels",
     "confirm you are home, or end the turn to withdraw it"),    # LD2, P2: its buttons' words
    (CLAIM_ASKS,                                                  # the claim's log line
     "confirm, or end the turn to withdraw it"),
    (" (or press the knob to pass)", " (or pass)"),
    (END_OF_TURN, "end the turn"),
    ("flick to spin", "spin"),
    ("Choose a game", "Choose a game at the box, or below"),   # with no game: a signed-in
)                                                               # phone has the form there
# A phone without the PIN has no game form below, only the PIN's (and pairing, which plays a
# seat of a game begun): it is told what it can do there.
WATCHING_WORDS = tuple(
    (box, "Choose a game at the box, or enter the PIN below to start one here")
    if box == "Choose a game" else (box, phone) for box, phone in PHONE_WORDS)


def phone_words(text: str, words: tuple[tuple[str, str], ...] = PHONE_WORDS) -> str:
    """A prompt or a refusal of the rules in the phone's words (`PHONE_WORDS`, or
    `WATCHING_WORDS` for a phone not signed in); status.js does the same with the table the
    page carries."""
    for box, phone in words:
        text = text.replace(box, phone)
    return text


COVERED = re.compile(r"; covered: (?:[\d, ]+|none)$")     # status.js strips the same
PI_TURN = "the Pi moves by itself"
PI_WAITS = "the Pi waits after the undo: press the knob at the box for its move"
PI_WAITS_ASK = "the Pi waits after the undo: Let the Pi move, or press the knob at the box"
PI_MOVE = {"action": "pi-move", "label": "Let the Pi move"}      # a phone's way to ask it


def pi_turn_words(state: dict[str, Any], asks: bool = False) -> str:
    """What the Pi does on its turn: moves by itself, or after an undo waits for the knob (or,
    with `asks`, for this phone's "Let the Pi move" too: the knob alone read as the only way,
    right above that button)."""
    if not state.get("taken_back"):
        return PI_TURN
    return PI_WAITS_ASK if asks else PI_WAITS


def pi_turn(state: dict[str, Any]) -> bool:
    """Whether the seat to move is the Pi's: then no phone moves for it."""
    turn, players = state.get("turn"), state.get("players") or []
    return state.get("phase") not in ("over", "idle", None) and isinstance(turn, int) \
        and 0 <= turn < len(players) and bool(players[turn].get("pi"))


def phone_prompt(state: dict[str, Any], asks: bool = False, signed_in: bool = True) -> str:
    """The status line of the phone: the rules' prompt in its words, or, on the Pi's turn,
    that the Pi moves (`pi_turn_words`; `asks`: this phone offers "Let the Pi move";
    `signed_in`: it has the game form, else `WATCHING_WORDS`). status.js says the same."""
    prompt = state.get("prompt") or ""
    if pi_turn(state):
        who, dash, _ = prompt.partition(" - ")        # "Pi (Geese)", as the rules name it
        return f"{who if dash else state['players'][state['turn']]['name']} - " \
            f"{pi_turn_words(state, asks)}"
    words = PHONE_WORDS if signed_in else WATCHING_WORDS
    return COVERED.sub("", phone_words(prompt, words))   # Domino Rex: the rows list them


def _overrides(rulebook: Rulebook, move: str) -> bool:
    return getattr(type(rulebook), move) is not getattr(Rulebook, move)


@functools.lru_cache(maxsize=1)
def game_moves() -> dict[str, dict[str, Any]]:
    """Per game: what its presses and turn ends are called, and which it takes at all (the
    games never change while the table runs: worked out once; callers must not change it)."""
    table = {}
    for game, rulebook in GAMES.items():
        board = game in BOARD_GAMES
        takes_next = _overrides(rulebook, "on_next") and game != "domino-rex" and not board
        table[game] = {
            "press": PRESS_WORDS.get(game) if _overrides(rulebook, "on_press") and not board
            else None,
            "press_any": rulebook.press_any_seat,
            "press_seats": list(PRESS_SEATS.get(game, ())),
            "confirm": CONFIRM_WORDS.get(game),        # the press after a claim (P2)
            "next": NEXT_WORDS.get(game, "End turn") if takes_next else None,
            "next_before_roll": NEXT_BEFORE_ROLL.get(game),
            "declare": _overrides(rulebook, "on_declare"),
            "declare_one": rulebook.one_winner_declared,   # one winner: a resignation (F3)
            "chips": rulebook.uses_chips,           # corrections of chips make sense
            "diamond": game in DIAMOND_GAMES,
            "squares": rulebook.on_squares,          # a Square column means something
            "score": rulebook.keeps_score,           # a Score column from the start
            "score_label": rulebook.score_label,     # "Geese taken" in Fox and Geese
            "score_roles": list(SCORED_ROLES.get(game, ())),   # none: every player's
            # the lead's randomizer: it made the last roll when play has none (Domino Rex)
            "lead_kind": rulebook.lead_dice.kind if rulebook.lead_dice else None,
            "square_colours": dict(rulebook.square_colours),   # "red 22" (Kat en Muis)
        }
    return table


def choices(state: dict[str, Any]) -> list[int]:
    """The Domino Rex squares the awaited player may uncover (their covered spots)."""
    players, turn = state.get("players") or [], state.get("turn")
    if state.get("awaiting") != "choose" or not isinstance(turn, int) or turn >= len(players):
        return []
    return sorted(set(v for v in players[turn].get("covered") or [] if isinstance(v, int)))


def diamond_press(state: dict[str, Any]) -> str | None:
    """What the mover's seat press does now in The Lost Diamond, or None where LD2 refuses it:
    before the spin a Field move that reaches the diamond (on its square or with the other
    player); after it, a capture from the other player or, for the carrier, home."""
    turn, carrier, awaiting = state.get("turn"), state.get("diamond"), state.get("awaiting")
    spun = bool(state.get("instruction"))           # the spin's move is still to make
    if awaiting == "roll" and carrier != turn:
        return "Field move: take the diamond (if it reaches)" if carrier == "square" else \
            "Field move: capture the diamond (if it reaches)"
    if awaiting != "next":
        return None
    if state.get("home_claim") == turn:
        return "Confirm: home with the diamond"
    if spun and carrier == turn:
        return "Home with the diamond"
    if spun and carrier not in ("square", None):
        return "Capture the diamond"
    return None


def moves(state: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    """The moves to offer: [{"action", "label", "seat"?, "value"?}]. With `seat` (a paired
    phone), only that seat's."""
    info = game_moves().get(state.get("game") or "")
    turn, awaiting, players = state.get("turn"), state.get("awaiting"), state.get("players") or []
    if pi_turn(state) and state.get("taken_back"):      # it waits to be asked after an undo
        return [dict(PI_MOVE)]
    if info is None or state.get("phase") == "over" or turn is None or pi_turn(state):
        return []
    mine = seat is None or seat == turn
    out: list[dict[str, Any]] = []
    if awaiting == "roll" and mine:
        dice = state.get("randomizer") or {}
        out.append({"action": "roll", "label": "Spin" if dice.get("kind") != "dice" else
                    "Throw the die" if dice.get("count") == 1 else "Throw the dice"})
        if info["next_before_roll"] and state.get("phase") == "play":    # not in the lead
            out.append({"action": "next", "label": info["next_before_roll"]})
    if awaiting == "choose" and mine:
        for v in choices(state):                # the sum and its checker, as moves.js says
            detail, said = uncover_meaning(state, v)
            out.append({"action": "choose", "value": v, "label": str(v), "detail": detail,
                        "said": said})
    if info["diamond"] and state.get("phase") == "play":
        label = diamond_press(state)
        if label and mine:
            out.append({"action": "press", "seat": turn, "label": label})
    elif info["press"] and state.get("phase") == "play":
        if info["press_any"]:
            seats = range(len(players))
        elif info["press_seats"]:
            seats = [s for s in info["press_seats"] if s == turn]
        else:                   # the seat to move, while its spin allows more (G3, M3)
            seats = [turn] if awaiting == "next" and state.get("presses_left") != 0 else []
        for s in seats:
            if seat is None or s == seat:
                label = info["press"] + (f" for {players[s]['name']}"
                                         if info["press_any"] else "")
                if info["confirm"] and state.get("home_claim") == s:
                    label = info["confirm"]
                out.append({"action": "press", "seat": s, "label": label})
    if awaiting == "next" and info["next"] and mine:
        out.append({"action": "next", "label": info["next"]})
    return out
