"""Every game Parlour knows, one module each, registered by id."""

from __future__ import annotations

from companion.errors import Refused
from companion.games.cats_and_dogs import CatsAndDogs
from companion.games.kat_en_muis import KatEnMuis
from companion.games.lifes_mishaps import LifesMishaps
from companion.rulebook import Rulebook

GAMES: dict[str, Rulebook] = {r.id: r for r in (KatEnMuis(), LifesMishaps(), CatsAndDogs())}


def get_rulebook(game_id: str) -> Rulebook:
    try:
        return GAMES[game_id]
    except KeyError:
        raise Refused(f"unknown game {game_id!r} (games: {', '.join(GAMES)})") from None
