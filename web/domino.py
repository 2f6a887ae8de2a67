"""Domino Rex on the phone (D2): what uncovering each square does now, each player's checkers
in words, and the square uncovered last. status.js and moves.js say the same from each live
state; the box says the sum ("uncover a 4: 4+3=7")."""

from __future__ import annotations

from typing import Any

from companion.games.domino_rex import CHECKERS, CROWNED, DOMINO, ORDINAL, REX

PLACES = {REX: "in the Rex row", DOMINO: "in Domino", CROWNED: "crowned"}


def uncover_meaning(state: dict[str, Any], value: int) -> tuple[str, str]:
    """Uncovering `value` for the player to move: the button's short line ("4+3=7: into
    Domino") and the whole sentence a screen reader says."""
    players, turn = state.get("players") or [], state.get("turn")
    player = players[turn] if isinstance(turn, int) and 0 <= turn < len(players) else {}
    last = state.get("last_uncovered")
    if not isinstance(last, int):
        return "opens the game", f"Uncover a {value}: it opens the game; nothing moves"
    total = value + last
    short, said = f"{value}+{last}={total}", f"Uncover a {value}: {value} + {last} = {total}"
    where = (player.get("checkers") or {}).get(str(total))
    if total not in CHECKERS or where not in PLACES:
        return f"{short}: no checker", f"{said}, no checker moves"
    checker = f"{player.get('name', '')}'s {ORDINAL[total]} checker"
    if where == REX:
        return f"{short}: into Domino", f"{said}: {checker} goes into Domino"
    if where == DOMINO:
        return f"{short}: home, Rex!", f"{said}: {checker} goes home and is crowned. Rex!"
    return f"{short}: crowned already", f"{said}: {checker} is crowned already; nothing moves"


def checkers(player: dict[str, Any]) -> list[tuple[int, str]]:
    """A player's checkers 7..11 and where each is (rex, domino, crowned); [] outside
    Domino Rex."""
    places = player.get("checkers")
    if not isinstance(places, dict):
        return []
    return [(n, places.get(str(n)) if places.get(str(n)) in PLACES else REX) for n in CHECKERS]


def checkers_words(player: dict[str, Any]) -> str:
    """"Checkers: 7 crowned; 8 in Domino; 9, 10 and 11 in the Rex row"."""
    groups: dict[str, list[str]] = {}
    for n, where in checkers(player):
        groups.setdefault(where, []).append(str(n))
    parts = []
    for where in (CROWNED, DOMINO, REX):
        numbers = groups.get(where)
        if numbers:
            listed = numbers[0] if len(numbers) == 1 else \
                ", ".join(numbers[:-1]) + " and " + numbers[-1]
            parts.append(f"{listed} {PLACES[where]}")
    return "Checkers: " + "; ".join(parts) if parts else ""


def covered_words(player: dict[str, Any]) -> str:
    """"Covered: 1 1 2 4 6", or "Every square uncovered"."""
    covered = sorted(v for v in player.get("covered") or [] if isinstance(v, int))
    return "Covered: " + " ".join(str(v) for v in covered) if covered else \
        "Every square uncovered"


def uncovered_text(state: dict[str, Any]) -> str:
    """The square uncovered last, in play and at the end ("Last uncovered: 4"); "" before
    the first (the lead's throw shows)."""
    if state.get("phase") not in ("play", "over") or \
            not isinstance(state.get("last_uncovered"), int):
        return ""
    return f"Last uncovered: {state['last_uncovered']}"


def hint_text(state: dict[str, Any], offered: list[dict[str, Any]]) -> str:
    """The chances' hint for the player to move ("Uncover a 4: ..."), where this phone may
    uncover for them; "" otherwise. The box's Menu, Hint says the same."""
    hint = (state.get("odds") or {}).get("hint") or {}
    text = hint.get("text") if isinstance(hint, dict) else None
    if not isinstance(text, str) or not text or not any(m["action"] == "choose" for m in offered):
        return ""
    return text[0].upper() + text[1:]
